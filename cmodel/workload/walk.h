/* Running a workload's instruction streams outside the core: every warp of
 * every CTA of every kernel, in order, without timing. Used to count a
 * workload (sizes in docs/workloads.md), to measure generation speed, and
 * by tools that want to look at a stream. */
#ifndef GM_WORKLOAD_WALK_H
#define GM_WORKLOAD_WALK_H

#include <stdint.h>

#include "workload/workload.h"

/* How a warp's generator state starts: pc 0, all loop counters 0. */
static inline void gm_warp_gen_start(gm_warp_gen *g, uint32_t cta, uint32_t warp)
{
    *g = (gm_warp_gen){0};
    g->cta = cta;
    g->warp = warp;
}

/* True for the opcodes whose addr[] and width mean something. */
static inline int gm_op_is_mem(int op)
{
    return op == GM_OP_SHARED_LD || op == GM_OP_SHARED_ST ||
           (op >= GM_OP_GLOBAL_LD && op <= GM_OP_CONST_LD);
}

/* Called with each chunk of a warp's instructions (1..chunk of them). A
 * non-zero return stops the walk, and gm_workload_walk returns it. */
typedef int (*gm_walk_fn)(const gm_kernel *k, uint32_t kernel_index,
                          const gm_warp_gen *g, const gm_inst *in, int n, void *arg);

/* Generates every warp to its end, in kernel, CTA, warp order, in chunks
 * of `chunk` instructions (>= GM_GEN_MIN_CHUNK). Checks the generator contract: a warp
 * ends with exactly one EXIT, after which gen returns 0. Returns 0, the
 * callback's non-zero value, or -1 with err set. */
int gm_workload_walk(const gm_workload *w, int chunk, gm_walk_fn fn, void *arg,
                     gm_error *err);

typedef struct gm_workload_counts {
    uint64_t ctas;
    uint64_t warps;
    uint64_t insts;               /* warp instructions */
    uint64_t thread_insts;        /* sum of active lanes */
    uint64_t by_op[GM_OP_COUNT];
    uint64_t global_mem;          /* global loads + stores + atomics */
    uint64_t filled_insts;        /* warp instructions of launches with at least
                                     GM_SIZE_FILL_CTAS CTAs (size fill's rule) */
} gm_workload_counts;

int gm_workload_count(const gm_workload *w, gm_workload_counts *out, gm_error *err);

typedef struct gm_workload_bench_result {
    uint64_t insts;       /* warp instructions generated */
    double seconds;       /* CPU time spent generating (reporting only) */
    double insts_per_sec;
} gm_workload_bench_result;

/* Builds workload `name` at `size` and generates its whole stream in
 * chunks of 16 (the figures in docs/workloads.md were taken so), timing
 * the generation. */
int gm_workload_bench(const char *name, gm_size size, gm_workload_bench_result *out,
                      gm_error *err);

#endif
