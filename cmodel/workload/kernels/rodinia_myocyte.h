/* Rodinia 3.1 myocyte, mode 1 (work_2.cu, solver_2): one simulation
 * instance per thread, its solver state in global memory. See
 * rodinia_myocyte.c and docs/workloads/rodinia.md. */
#ifndef GM_WORKLOAD_KERNELS_RODINIA_MYOCYTE_H
#define GM_WORKLOAD_KERNELS_RODINIA_MYOCYTE_H

#include <stdint.h>

#include "sim/error.h"
#include "workload/workload.h"

#define GM_MYO_EQUATIONS 91u     /* EQUATIONS */
#define GM_MYO_PARAMETERS 18u    /* PARAMETERS */
#define GM_MYO_STAGES 13u        /* kernel_2 evaluations per embedded_fehlberg_7_8_2 */
#define GM_MYO_ATTEMPTS 12u      /* ATTEMPTS */
#define GM_MYO_K2_MEM 236u       /* global accesses of one kernel_2 call */
#define GM_MYO_K2_PROG 2048u     /* room for kernel_2's instruction letters */

/* One global access of kernel_2 (load or store: its letter in k2_prog
 * says which), relative to its pointer arguments:
 * arr 'I' initvalu (= initvalu_temp), 'P' params, 'F' finavalu
 * (= finavalu_temp + stage*91), 'C' com. */
typedef struct gm_myo_access {
    char arr;
    uint8_t idx;
} gm_myo_access;

typedef struct gm_myocyte_params {
    uint32_t xmax;       /* simulated span: steps k = 1..xmax */
    uint32_t workload;   /* instances = threads doing work */
    /* cudaMalloc order */
    uint64_t y, x, params, com, err, scale, yy, initvalu_temp, finavalu_temp;
    char k2_prog[GM_MYO_K2_PROG];           /* kernel_2 as segment letters */
    gm_myo_access k2_mem[GM_MYO_K2_MEM];     /* its memory instructions in order */
    uint8_t attempts[];                      /* [xmax + 1]: attempts of step k (data model) */
} gm_myocyte_params;

int gm_myocyte_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
/* `myocyte.out xmax workload 1`; attempts drawn from seed. */
int gm_myocyte_build_dims(gm_workload *w, uint32_t xmax, uint32_t workload, uint64_t seed,
                          gm_error *err);

#endif
