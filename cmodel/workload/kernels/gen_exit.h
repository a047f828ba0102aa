/* The end of every kernel generator's instruction switch, shared so that
 * the generators keep one way of finishing a warp. */
#ifndef GM_WORKLOAD_KERNELS_GEN_EXIT_H
#define GM_WORKLOAD_KERNELS_GEN_EXIT_H

#include <stdint.h>

#include "workload/build.h"
#include "workload/workload.h"

/* Emits the warp's EXIT into *in (already counted in n) and parks the
 * generator at done, so that later calls emit nothing. */
static inline int gm_gen_exit(gm_warp_gen *g, gm_inst *in, uint32_t mask, uint32_t done,
                              int n)
{
    gm_emit(in, GM_OP_EXIT, mask, R_NONE, R_NONE, R_NONE, R_NONE);
    g->pc = done;
    return n;
}

/* For a pc no case handles: the slot taken for *in is given back and the
 * warp ends without an EXIT, as the generators did before this was shared. */
static inline int gm_gen_stop(gm_warp_gen *g, uint32_t done, int n)
{
    g->pc = done;
    return n - 1;
}

#endif
