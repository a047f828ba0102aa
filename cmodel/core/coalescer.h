/* Warp-level coalescer: turns one warp memory instruction into 128 B line
 * requests, each with a 4-bit mask of the 32 B sectors the active lanes
 * touch (the Volta rule of GPGPU-Sim/Accel-Sim, coalesce_arch >= 40,
 * grouped by line: research/workloads.md section 4).
 *
 * A lane accesses [addr, addr + width); an access that crosses a sector or
 * line boundary adds every sector it covers, so with width <= 128 a lane
 * touches at most two lines and a warp at most 64. Lines come out sorted
 * by address. Both counts are reported: `n` line requests (one tag lookup
 * each, Nsight "requests") and `nsectors` sectors (GPGPU-Sim's accesses). */
#ifndef GM_CORE_COALESCER_H
#define GM_CORE_COALESCER_H

#include <stdint.h>

#include "workload/workload.h"

#define GM_COALESCE_MAX_LINES (2 * GM_WARP_SIZE)
#define GM_COALESCE_MAX_WIDTH 128u

typedef struct gm_coalesced_line {
    uint64_t addr;      /* 128 B line address */
    uint8_t sectors;    /* bit s = bytes [32 s, 32 s + 32) of the line */
} gm_coalesced_line;

typedef struct gm_coalesced {
    uint32_t n;         /* line requests */
    uint32_t nsectors;  /* sectors over all lines */
    gm_coalesced_line line[GM_COALESCE_MAX_LINES]; /* ascending addr */
} gm_coalesced;

/* Fills out from the active lanes of in (in->addr[], in->width, in->mask).
 * Returns out->n, or -1 (out->n = 0) when a lane is active and the width is
 * 0 or above GM_COALESCE_MAX_WIDTH. No active lane gives 0 lines. */
int gm_coalesce(const gm_inst *in, gm_coalesced *out);

#endif
