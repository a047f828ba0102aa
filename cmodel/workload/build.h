/* Helpers for the built-in kernels: device-memory layout, workload
 * allocation and instruction emitters. Internal to cmodel/workload; the
 * public interface is workload.h.
 *
 * Device arrays are laid out the way a sequence of cudaMalloc calls would
 * place them: in the order the benchmark's host code allocates them,
 * starting at GM_DEVMEM_BASE, each at the next GM_DEVMEM_ALIGN boundary.
 * The layout is part of a workload's definition (it decides which L2
 * slice, DRAM channel and DC-L1 home node every line maps to), so it must
 * never depend on anything but the array sizes. */
#ifndef GM_WORKLOAD_BUILD_H
#define GM_WORKLOAD_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "workload/workload.h"

#define GM_DEVMEM_BASE 0x10000000ull
#define GM_DEVMEM_ALIGN 4096ull

typedef struct gm_devmem {
    uint64_t next;   /* first free byte */
} gm_devmem;

static inline void gm_devmem_init(gm_devmem *m)
{
    m->next = GM_DEVMEM_BASE;
}

/* Returns the base of a new array of `bytes` bytes (at least one
 * alignment unit is reserved even for 0 bytes, so arrays stay distinct). */
static inline uint64_t gm_devmem_alloc(gm_devmem *m, uint64_t bytes)
{
    uint64_t base = m->next;
    uint64_t span = (bytes + GM_DEVMEM_ALIGN - 1) & ~(GM_DEVMEM_ALIGN - 1);
    m->next = base + (span ? span : GM_DEVMEM_ALIGN);
    return base;
}

/* Zeroes *w, sets its name and allocates nkernels zeroed kernels and one
 * zeroed parameter block of priv_bytes (w->priv, freed by
 * gm_workload_free, so it must not hold pointers to other heap blocks). */
int gm_workload_alloc(gm_workload *w, const char *name, uint32_t nkernels,
                      size_t priv_bytes, gm_error *err);

void gm_kernel_set(gm_kernel *k, const char *name, gm_dim3 grid, gm_dim3 block,
                   const void *params,
                   int (*gen)(const gm_kernel *, gm_warp_gen *, gm_inst *, int));

static inline gm_dim3 gm_dim3_make(uint32_t x, uint32_t y, uint32_t z)
{
    gm_dim3 d = {x, y, z};
    return d;
}

/* Lanes of `warp` that hold a thread of the CTA (the last warp of a block
 * whose size is not a multiple of 32 is partial). */
static inline uint32_t gm_warp_exist_mask(uint32_t threads_per_cta, uint32_t warp)
{
    uint32_t first = warp * GM_WARP_SIZE;
    if (first >= threads_per_cta)
        return 0;
    uint32_t n = threads_per_cta - first;
    return n >= GM_WARP_SIZE ? 0xffffffffu : (1u << n) - 1;
}

/* A non-memory instruction. addr[] and width are left alone: they mean
 * something only for memory instructions. */
static inline void gm_emit(gm_inst *in, gm_op op, uint32_t mask, uint8_t dst,
                           uint8_t s0, uint8_t s1, uint8_t s2)
{
    in->op = (uint8_t)op;
    in->dst = dst;
    in->src[0] = s0;
    in->src[1] = s1;
    in->src[2] = s2;
    in->width = 0;
    in->flags = 0;
    in->mask = mask;
}

/* A memory instruction; the caller then fills addr[] lane by lane with the
 * kernel's own index expression, writing 0 for inactive lanes. */
static inline void gm_emit_mem(gm_inst *in, gm_op op, uint32_t mask, uint8_t dst,
                               uint8_t s0, uint8_t s1, uint8_t width, uint8_t flags)
{
    in->op = (uint8_t)op;
    in->dst = dst;
    in->src[0] = s0;
    in->src[1] = s1;
    in->src[2] = GM_REG_NONE;
    in->width = width;
    in->flags = flags;
    in->mask = mask;
}

#define R_NONE GM_REG_NONE

#endif
