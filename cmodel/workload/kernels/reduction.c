/* SHOC reduction, single precision (shoc src/cuda/level1/reduction/
 * reduction_kernel.h, reduce<float, 256>) as an address-stream emulator.
 *
 *   tid = threadIdx.x;  i = blockIdx.x * (blockSize*2) + tid;
 *   gridSize = blockSize * 2 * gridDim.x;   volatile float *sdata;
 *   sdata[tid] = 0;
 *   while (i < n) { sdata[tid] += g_idata[i] + g_idata[i+blockSize]; i += gridSize; }
 *   __syncthreads();
 *   if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads();
 *   if (tid <  64) sdata[tid] += sdata[tid +  64]; __syncthreads();
 *   if (tid < 32) { sdata[tid] += sdata[tid + 32]; ... sdata[tid] += sdata[tid + 1]; }
 *   if (tid == 0) g_odata[blockIdx.x] = sdata[0];
 *
 * 64 CTAs x 256 threads, the same kernel launched `launches` times on the
 * same input (SHOC's "iterations"). sdata is volatile, so every += is a
 * shared load, an add and a shared store. Shared addresses are byte
 * offsets in the CTA's shared memory (sdata at 0). g_idata is read-only.
 *
 * Per warp:
 *   prologue  S2R tid, S2R ctaid, IMAD i, SHL saddr, STS sdata[tid]=0,
 *             ISETP i < n, BRA
 *   loop      LEA, LD g_idata[i], LD g_idata[i+256], FADD, LDS, FADD, STS,
 *             IADD i, ISETP, BRA           (while any lane has i < n)
 *   tree      BAR; for s = 128, 64: ISETP, BRA, [LDS, LDS, FADD, STS], BAR
 *             ISETP tid < 32, BRA, [6 x (LDS, LDS, FADD, STS)]
 *             ISETP tid == 0, BRA, [LDS sdata[0], IMAD, ST g_odata[bx]]
 *   EXIT
 * where [...] is issued only by warps with a lane in the branch. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"

#define BLOCK GM_REDUCTION_THREADS   /* blockSize template argument = blockDim.x */

enum {   /* registers */
    R_TID, R_CTA, R_I, R_SADDR, R_P, R_GADDR, R_X0, R_X1, R_SUM, R_ACC,
    R_PT, R_SA, R_SB, R_RES, R_OADDR
};

enum {   /* program points, in issue order */
    PC_S2R_TID = 0, PC_S2R_CTA, PC_I, PC_SADDR, PC_SST0, PC_GUARD, PC_GUARD_BRA,
    PC_GADDR, PC_LD0, PC_LD1, PC_ADD0, PC_SLD, PC_ADD1, PC_SST, PC_INC, PC_SETP, PC_BRA,
    PC_BAR0,
    PC_STEP_SETP, PC_STEP_BRA,
    PC_TREE_LDA, PC_TREE_LDB, PC_TREE_ADD, PC_TREE_ST,
    PC_STEP_BAR,
    PC_WARP_SETP, PC_WARP_BRA,
    PC_T0_SETP, PC_T0_BRA, PC_T0_LD, PC_T0_ADDR, PC_T0_ST,
    PC_EXIT, PC_DONE
};

/* Lanes l with first + l < limit, i.e. the lanes for which a condition
 * "x < limit" holds when x grows by one from lane to lane (x = tid, or
 * x = i, which is tid plus a warp-uniform offset). */
static uint32_t lanes_below(uint32_t exist, uint64_t first, uint64_t limit)
{
    if (first >= limit)
        return 0;
    if (limit - first >= GM_WARP_SIZE)
        return exist;
    return exist & ((1u << (limit - first)) - 1);
}

static void addr_shared(gm_inst *in, uint32_t warp, uint32_t offset_elems)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1)
                          ? 4 * (uint64_t)(warp * GM_WARP_SIZE + l + offset_elems) : 0;
}

static int reduce_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_reduction_params *p = kern->params;
    uint64_t grid_size = (uint64_t)BLOCK * 2 * kern->grid.x;
    uint32_t e = gm_warp_exist_mask(BLOCK, g->warp);
    /* i of lane 0 before the loop; lane l has i0 + l (tid = warp*32 + l) */
    uint64_t i0 = (uint64_t)g->cta * (BLOCK * 2) + g->warp * GM_WARP_SIZE;
    uint64_t tid0 = (uint64_t)g->warp * GM_WARP_SIZE;   /* tid of lane 0 */
    uint32_t t0 = lanes_below(e, tid0, 1);              /* lanes with tid == 0 */
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        uint64_t t = (uint64_t)g->v[0];       /* while-loop trip */
        uint32_t s = (uint32_t)g->v[1];       /* tree stride */
        uint32_t lm = (uint32_t)g->v[2];      /* lanes inside the loop at trip t */
        /* lanes in the tree step: tid < s in the block-wide steps, tid < 32
         * in the warp-synchronous ones */
        uint32_t tm = lanes_below(e, tid0, s >= 64 ? s : 32);
        switch (g->pc) {
        case PC_S2R_TID: gm_emit(in, GM_OP_ALU, e, R_TID, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CTA: gm_emit(in, GM_OP_ALU, e, R_CTA, R_NONE, R_NONE, R_NONE); break;
        case PC_I:       gm_emit(in, GM_OP_ALU, e, R_I, R_CTA, R_TID, R_NONE); break;
        case PC_SADDR:   gm_emit(in, GM_OP_ALU, e, R_SADDR, R_TID, R_NONE, R_NONE); break;
        case PC_SST0:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SADDR, R_NONE, 4, 0);
            addr_shared(in, g->warp, 0);
            break;
        case PC_GUARD:   gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case PC_GUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = 0;
            g->v[2] = lanes_below(e, i0, p->n);
            g->pc = g->v[2] ? PC_GADDR : PC_BAR0;
            continue;
        case PC_GADDR:   gm_emit(in, GM_OP_ALU, lm, R_GADDR, R_I, R_NONE, R_NONE); break;
        case PC_LD0:
        case PC_LD1: {
            uint64_t off = g->pc == PC_LD1 ? BLOCK : 0;   /* g_idata[i + blockSize] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, lm, g->pc == PC_LD1 ? R_X1 : R_X0,
                        R_GADDR, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (lm >> l & 1)
                                  ? p->idata + 4 * (i0 + l + t * grid_size + off) : 0;
            break;
        }
        case PC_ADD0:    gm_emit(in, GM_OP_ALU, lm, R_SUM, R_X0, R_X1, R_NONE); break;
        case PC_SLD:
            gm_emit_mem(in, GM_OP_SHARED_LD, lm, R_ACC, R_SADDR, R_NONE, 4, 0);
            addr_shared(in, g->warp, 0);
            break;
        case PC_ADD1:    gm_emit(in, GM_OP_ALU, lm, R_ACC, R_ACC, R_SUM, R_NONE); break;
        case PC_SST:
            gm_emit_mem(in, GM_OP_SHARED_ST, lm, R_NONE, R_SADDR, R_ACC, 4, 0);
            addr_shared(in, g->warp, 0);
            break;
        case PC_INC:     gm_emit(in, GM_OP_ALU, lm, R_I, R_I, R_NONE, R_NONE); break;
        case PC_SETP:    gm_emit(in, GM_OP_ALU, lm, R_P, R_I, R_NONE, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, lm, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = (int64_t)(t + 1);
            g->v[2] = lanes_below(e, i0 + (t + 1) * grid_size, p->n);
            g->pc = g->v[2] ? PC_GADDR : PC_BAR0;
            continue;
        case PC_BAR0:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            g->v[1] = BLOCK / 2;
            break;
        case PC_STEP_SETP: gm_emit(in, GM_OP_ALU, e, R_PT, R_TID, R_NONE, R_NONE); break;
        case PC_STEP_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_PT, R_NONE, R_NONE);
            g->pc = tm ? PC_TREE_LDA : PC_STEP_BAR;
            continue;
        case PC_TREE_LDA:
            gm_emit_mem(in, GM_OP_SHARED_LD, tm, R_SA, R_SADDR, R_NONE, 4, 0);
            addr_shared(in, g->warp, 0);
            break;
        case PC_TREE_LDB:
            gm_emit_mem(in, GM_OP_SHARED_LD, tm, R_SB, R_SADDR, R_NONE, 4, 0);
            addr_shared(in, g->warp, s);
            break;
        case PC_TREE_ADD: gm_emit(in, GM_OP_ALU, tm, R_SA, R_SA, R_SB, R_NONE); break;
        case PC_TREE_ST:
            gm_emit_mem(in, GM_OP_SHARED_ST, tm, R_NONE, R_SADDR, R_SA, 4, 0);
            addr_shared(in, g->warp, 0);
            if (s >= 64) {            /* block-wide step: barrier follows */
                g->pc = PC_STEP_BAR;
            } else {                  /* warp-synchronous step */
                g->v[1] = s / 2;
                g->pc = s > 1 ? PC_TREE_LDA : PC_T0_SETP;
            }
            continue;
        case PC_STEP_BAR:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            g->v[1] = s / 2;
            g->pc = s / 2 >= 64 ? PC_STEP_SETP : PC_WARP_SETP;
            continue;
        case PC_WARP_SETP: gm_emit(in, GM_OP_ALU, e, R_PT, R_TID, R_NONE, R_NONE); break;
        case PC_WARP_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_PT, R_NONE, R_NONE);
            g->v[1] = 32;
            g->pc = lanes_below(e, tid0, 32) ? PC_TREE_LDA : PC_T0_SETP;
            continue;
        case PC_T0_SETP: gm_emit(in, GM_OP_ALU, e, R_PT, R_TID, R_NONE, R_NONE); break;
        case PC_T0_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_PT, R_NONE, R_NONE);
            g->pc = t0 ? PC_T0_LD : PC_EXIT;
            continue;
        case PC_T0_LD:
            gm_emit_mem(in, GM_OP_SHARED_LD, t0, R_RES, R_SADDR,
                        R_NONE, 4, 0);
            addr_shared(in, g->warp, 0);   /* lane 0 of warp 0: sdata[0] */
            break;
        case PC_T0_ADDR:
            gm_emit(in, GM_OP_ALU, t0, R_OADDR, R_CTA, R_NONE, R_NONE);
            break;
        case PC_T0_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, t0, R_NONE, R_OADDR,
                        R_RES, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (in->mask >> l & 1) ? p->odata + 4 * (uint64_t)g->cta : 0;
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, e, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_reduction_build_dims(gm_workload *w, uint32_t n, uint32_t launches,
                            gm_error *err)
{
    if (!n || n % (2 * BLOCK) || n > INT32_MAX || !launches || launches > 65536)
        return gm_fail(err, "reduction: bad size n=%u launches=%u", n, launches);
    if (gm_workload_alloc(w, "reduction", launches, sizeof(gm_reduction_params), err))
        return -1;

    gm_reduction_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->n = n;
    p->launches = launches;
    p->idata = gm_devmem_alloc(&mem, 4ull * n);
    p->odata = gm_devmem_alloc(&mem, 4ull * GM_REDUCTION_CTAS);
    for (uint32_t i = 0; i < launches; i++)
        gm_kernel_set(&w->kernels[i], "reduce", gm_dim3_make(GM_REDUCTION_CTAS, 1, 1),
                      gm_dim3_make(BLOCK, 1, 1), p, reduce_gen);
    return 0;
}

int gm_reduction_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny: 256 KiB, 2 launches; small: 1 MiB, 8 launches; standard: SHOC
     * size class 1 (1 MiB) with SHOC's default 256 iterations. */
    static const uint32_t bytes[] = {256u << 10, 1u << 20, 1u << 20, 1u << 20};
    static const uint32_t launches[] = {2, 8, 256, 8};

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "reduction: bad size %d", (int)size);
    return gm_reduction_build_dims(w, bytes[size] / 4, launches[size], err);
}
