/* CUDA SDK vectorAdd (the sample the SelRep seed cites as VA, [51]) as an
 * address-stream emulator. Block 256, grid ceil(n / 256); per thread:
 *
 *   i = blockDim.x * blockIdx.x + threadIdx.x;
 *   if (i < numElements) C[i] = A[i] + B[i] + 0.0f;
 *
 * A and B are never stored: their loads are read-only. Arrays in the
 * sample's cudaMalloc order: A, B, C.
 *
 * Per warp: S2R, S2R, IMAD i, ISETP, BRA with every lane; then, for the
 * lanes with i < n, the byte offset, LD A, LD B, FADD, FADD (+ 0.0f is not
 * folded: it turns -0 into +0), ST C; EXIT. A warp with no lane inside
 * branches straight to EXIT. */
#include "workload/kernels/kernels_selrep.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#define VA_BLOCK 256u

enum {   /* registers */
    R_TID, R_CTA, R_I, R_P, R_OFF, R_A, R_B, R_SUM
};

enum {   /* program points, in issue order */
    PC_S2R_TID = 0, PC_S2R_CTA, PC_INDEX, PC_SETP, PC_BRA,
    PC_OFF, PC_LD_A, PC_LD_B, PC_ADD, PC_ADD0, PC_ST_C, PC_EXIT, PC_DONE
};

/* Lanes of warp w of CTA c whose i is below n. */
static uint32_t guard_mask(const gm_vectoradd_params *p, uint32_t c, uint32_t w)
{
    uint64_t first = (uint64_t)c * VA_BLOCK;
    return first < p->n ? gm_warp_exist_mask((uint32_t)(p->n - first), w) : 0;
}

static void addr_elem(gm_inst *in, uint64_t base, const gm_warp_gen *g)
{
    uint64_t first = (uint64_t)g->cta * VA_BLOCK + (uint64_t)g->warp * GM_WARP_SIZE;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = in->mask >> l & 1 ? base + 4 * (first + l) : 0;
}

static int vectoradd_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_vectoradd_params *p = kern->params;
    const uint32_t all = 0xffffffffu;   /* 256 threads: every warp full */
    uint32_t m = guard_mask(p, g->cta, g->warp);
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        switch (g->pc) {
        case PC_S2R_TID: gm_emit(in, GM_OP_ALU, all, R_TID, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CTA: gm_emit(in, GM_OP_ALU, all, R_CTA, R_NONE, R_NONE, R_NONE); break;
        case PC_INDEX:   gm_emit(in, GM_OP_ALU, all, R_I, R_CTA, R_TID, R_NONE); break;
        case PC_SETP:    gm_emit(in, GM_OP_ALU, all, R_P, R_I, R_NONE, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = m ? PC_OFF : PC_EXIT;
            continue;
        case PC_OFF:     gm_emit(in, GM_OP_ALU, m, R_OFF, R_I, R_NONE, R_NONE); break;
        case PC_LD_A:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, m, R_A, R_OFF, R_NONE, 4, GM_INST_READ_ONLY);
            addr_elem(in, p->a, g);
            break;
        case PC_LD_B:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, m, R_B, R_OFF, R_NONE, 4, GM_INST_READ_ONLY);
            addr_elem(in, p->b, g);
            break;
        case PC_ADD:     gm_emit(in, GM_OP_ALU, m, R_SUM, R_A, R_B, R_NONE); break;
        case PC_ADD0:    gm_emit(in, GM_OP_ALU, m, R_SUM, R_SUM, R_NONE, R_NONE); break;
        case PC_ST_C:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, m, R_NONE, R_OFF, R_SUM, 4, 0);
            addr_elem(in, p->c, g);
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, all, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_vectoradd_build_n(gm_workload *w, uint32_t n, gm_error *err)
{
    /* The sample computes i in int. */
    if (n == 0 || n > INT32_MAX - VA_BLOCK)
        return gm_fail(err, "vectoradd: bad element count %u (1..%u)", n,
                       (unsigned)(INT32_MAX - VA_BLOCK));
    if (gm_workload_alloc(w, "vectoradd", 1, sizeof(gm_vectoradd_params), err))
        return -1;
    gm_vectoradd_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->n = n;
    p->a = gm_devmem_alloc(&mem, 4ull * n);
    p->b = gm_devmem_alloc(&mem, 4ull * n);
    p->c = gm_devmem_alloc(&mem, 4ull * n);
    gm_kernel_set(&w->kernels[0], "vectorAdd", gm_dim3_make((n + VA_BLOCK - 1) / VA_BLOCK, 1, 1),
                  gm_dim3_make(VA_BLOCK, 1, 1), p, vectoradd_gen);
    return 0;
}

/* Sizes small, standard and fill: the sample's 50000 elements (196 CTAs);
 * tiny: an eighth, 6250 (25 CTAs, the last with 106 threads). */
int gm_vectoradd_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "vectoradd: bad size %d", (int)size);
    return gm_vectoradd_build_n(w, size == GM_SIZE_TINY ? 50000 / 8 : 50000, err);
}
