/* The built-in kernels. Each has a catalogue builder (named size) and a
 * builder with explicit dimensions, used by the catalogue and by tests
 * that need shapes the catalogue does not have (partial warps, idle CTAs).
 * See docs/workloads.md for the source benchmarks and sizes. */
#ifndef GM_WORKLOAD_KERNELS_H
#define GM_WORKLOAD_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/workload.h"

/* PolyBench-GPU GEMM, C = ALPHA*A*B + BETA*C with A NIxNK, B NKxNJ. */
typedef struct gm_gemm_params {
    uint32_t ni, nj, nk;
    uint64_t a, b, c;   /* device addresses, allocated in this order */
    bool reload_acc;    /* gemm_reload: c loaded in every k iteration */
} gm_gemm_params;

int gm_gemm_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_gemm_reload_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_gemm_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                       gm_error *err);

/* One matrix-vector launch of PolyBench-GPU's ATAX, BICG and MVT, block
 * 256 (polybench_mv.c):
 *   t = bx*256 + tx;
 *   if (t < bound) { [acc[t] = 0;] for (it = 0; it < trip; it++)
 *       acc[t] += A[row*lda + col] * vec[it]; }
 * with (row, col) = (t, it) when a_row_is_t (a row walk: lanes lda*4
 * bytes apart) and (it, t) otherwise (coalesced). */
typedef struct gm_pb_mv_params {
    uint32_t bound, trip, lda;
    uint8_t a_row_is_t;
    uint8_t zero_init;
    uint64_t a, vec, acc;
} gm_pb_mv_params;

/* Sets k to that launch, grid ceil(bound/256), with p as its parameters. */
void gm_pb_mv_launch(gm_kernel *k, const char *name, gm_pb_mv_params *p, uint32_t bound,
                     uint32_t trip, uint32_t lda, int a_row_is_t, int zero_init, uint64_t a,
                     uint64_t vec, uint64_t acc);

/* PolyBench-GPU ATAX, y = A^T (A x) with A NXxNY, two kernels. */
typedef struct gm_atax_params {
    uint32_t nx, ny;
    uint64_t a, x, y, tmp;   /* allocated in this order */
    gm_pb_mv_params k[2];    /* the launches' parameters */
} gm_atax_params;

int gm_atax_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_atax_build_dims(gm_workload *w, uint32_t nx, uint32_t ny, gm_error *err);

/* SHOC reduction (single precision), 64 CTAs x 256 threads per launch. */
#define GM_REDUCTION_CTAS 64u
#define GM_REDUCTION_THREADS 256u

typedef struct gm_reduction_params {
    uint32_t n;         /* elements of g_idata */
    uint32_t launches;  /* identical launches (SHOC "iterations") */
    uint64_t idata, odata;   /* allocated in this order */
} gm_reduction_params;

int gm_reduction_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
/* n must be a multiple of 2*256, as every SHOC size is: the kernel reads
 * g_idata[i+256] without a bound check. */
int gm_reduction_build_dims(gm_workload *w, uint32_t n, uint32_t launches,
                            gm_error *err);

/* Catalogue tables, one per suite (NULL-terminated), concatenated by
 * catalogue.c: gemm/atax/reduction (catalogue.c), the rest of PolyBench
 * (catalogue_polybench.c), Rodinia (catalogue_rodinia.c), Tango
 * (catalogue_tango.c). */
extern const gm_workload_info gm_catalogue_core[];
extern const gm_workload_info gm_catalogue_polybench[];
extern const gm_workload_info gm_catalogue_rodinia[];
extern const gm_workload_info gm_catalogue_tango[];

#include "workload/kernels/kernels_rodinia.h"
#include "workload/kernels/kernels_amdsdk.h"

#endif
