/* Per-lane addresses of the AMD APP SDK kernels that work on square tiles
 * held one work-item per element (DCT, the Gaussian filter's transpose,
 * MatrixTranspose). */
#ifndef GM_WORKLOAD_KERNELS_AMDSDK_TILE_H
#define GM_WORKLOAD_KERNELS_AMDSDK_TILE_H

#include <stdint.h>

#include "workload/workload.h"

/* Local element t (4 bytes) for work-item t of the group. */
static inline void gm_sdk_addr_local_linear(gm_inst *in, uint32_t warp)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = 4 * ((uint64_t)warp * GM_WARP_SIZE + l);
}

/* Work-item t of tile (tile_x, tile_y), side b, on the element at row
 * t / b, column t % b of that tile in a row-major matrix `width` wide. */
static inline void gm_sdk_addr_tile(gm_inst *in, uint64_t base, uint64_t width,
                                    uint64_t tile_x, uint64_t tile_y, uint64_t b,
                                    uint32_t warp)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint64_t t = warp * GM_WARP_SIZE + l;
        in->addr[l] = base + 4 * ((tile_y * b + t / b) * width + tile_x * b + t % b);
    }
}

#endif
