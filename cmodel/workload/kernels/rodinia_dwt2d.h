/* Rodinia 3.1 dwt2d, forward 5/3 on an RGB image: c_CopySrcToComponents,
 * then fdwt53Kernel per component and level. See rodinia_dwt2d.c and
 * docs/workloads/rodinia.md. */
#ifndef GM_WORKLOAD_KERNELS_RODINIA_DWT2D_H
#define GM_WORKLOAD_KERNELS_RODINIA_DWT2D_H

#include <stdint.h>

#include "sim/error.h"
#include "workload/workload.h"

/* One launch. kind 0: c_CopySrcToComponents (pixels of the image);
 * kind 1: fdwt53Kernel<win, 8> on an sx x sy level of one component. */
typedef struct gm_dwt2d_launch {
    uint32_t kind;
    uint32_t width, height;          /* the image (-d WxH) */
    uint32_t sx, sy;                 /* this level */
    uint32_t win, steps;             /* WIN_SX and winSteps */
    uint64_t in, out;                /* fdwt53: component and its _out buffer */
    uint64_t r, g, b, src;           /* components: c_r, c_g, c_b, d_src */
} gm_dwt2d_launch;

int gm_dwt2d_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
/* `dwt2d img -d WxH -f -5 -l levels` (3 components). */
int gm_dwt2d_build_dims(gm_workload *w, uint32_t width, uint32_t height, uint32_t levels,
                        gm_error *err);

#endif
