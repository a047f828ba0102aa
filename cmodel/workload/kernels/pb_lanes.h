/* Lane masks, per-lane addresses and the index prologue that the
 * PolyBench-shaped generators (gemm, 2mm/3mm, syrk, 2dconv, 3dconv, bicg,
 * mvt) share: one thread per lane, consecutive threads on consecutive
 * 4-byte elements. */
#ifndef GM_WORKLOAD_KERNELS_PB_LANES_H
#define GM_WORKLOAD_KERNELS_PB_LANES_H

#include <stdint.h>

#include "workload/build.h"
#include "workload/workload.h"

/* Lanes l with first + l < limit among `exist`. */
static inline uint32_t gm_pb_lanes_below(uint32_t exist, uint64_t first, uint64_t limit)
{
    if (first >= limit)
        return 0;
    if (limit - first >= GM_WARP_SIZE)
        return exist;
    return exist & ((1u << (limit - first)) - 1);
}

/* Lanes l with lo < first + l < hi among `exist` (a stencil's interior). */
static inline uint32_t gm_pb_lanes_between(uint32_t exist, uint64_t first, uint64_t lo,
                                           uint64_t hi)
{
    uint32_t m = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if (first + l > lo && first + l < hi)
            m |= 1u << l;
    return m & exist;
}

/* Active lane l touches the 4-byte element at first + 4 l; idle lanes 0. */
static inline void gm_pb_addr_run(gm_inst *in, uint64_t first)
{
    for (int l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? first + 4u * (uint64_t)l : 0;
}

/* Every active lane touches a; idle lanes 0. */
static inline void gm_pb_addr_bcast(gm_inst *in, uint64_t a)
{
    for (int l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? a : 0;
}

/* The 2-D kernels' first registers, in this order, so that the prologue
 * below names the same registers as the generator's own enum. */
enum { GM_PB_R_TX, GM_PB_R_TY, GM_PB_R_CX, GM_PB_R_CY, GM_PB_R_J, GM_PB_R_I, GM_PB_R_NEXT };
#define GM_PB_INDEX_STEPS 6

/* Step 0..5 of the 2-D index prologue: tx, ty, ctaid.x, ctaid.y (S2R),
 * then j = ctaid.x * BX + tx and i = ctaid.y * BY + ty. */
static inline void gm_pb_emit_index(gm_inst *in, uint32_t step, uint32_t mask)
{
    static const uint8_t dst[GM_PB_INDEX_STEPS] = {GM_PB_R_TX, GM_PB_R_TY, GM_PB_R_CX,
                                                   GM_PB_R_CY, GM_PB_R_J, GM_PB_R_I};
    static const uint8_t src_a[GM_PB_INDEX_STEPS] = {R_NONE, R_NONE, R_NONE,
                                                     R_NONE, GM_PB_R_CX, GM_PB_R_CY};
    static const uint8_t src_b[GM_PB_INDEX_STEPS] = {R_NONE, R_NONE, R_NONE,
                                                     R_NONE, GM_PB_R_TX, GM_PB_R_TY};
    gm_emit(in, GM_OP_ALU, mask, dst[step], src_a[step], src_b[step], R_NONE);
}

#endif
