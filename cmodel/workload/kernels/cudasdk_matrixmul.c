/* CUDA SDK matrixMul (the SDK 4.x sample the SelRep seed cites as MM, [51])
 * as an address-stream emulator. BLOCK_SIZE 16, block (16,16), grid
 * (wB/16, hA/16); per thread:
 *
 *   aBegin = wA*16*by;  aEnd = aBegin + wA - 1;  bBegin = 16*bx;
 *   for (a = aBegin, b = bBegin; a <= aEnd; a += 16, b += 16*wB) {
 *       As[ty][tx] = A[a + wA*ty + tx];
 *       Bs[ty][tx] = B[b + wB*ty + tx];
 *       __syncthreads();
 *       for (k = 0; k < 16; ++k) Csub += As[ty][k] * Bs[k][tx];
 *       __syncthreads();
 *   }
 *   C[wB*16*by + 16*bx + wB*ty + tx] = Csub;
 *
 * A and B are never stored by the kernel: their loads are marked read-only
 * (GM_INST_READ_ONLY), which is what the SelRep compiler pass would find.
 * The inner k loop has a constant trip count and is fully unrolled (as
 * nvcc does): 16 x (LDS As, LDS Bs, FFMA). Shared memory: As at 0, Bs at
 * 1024 (16 x 16 floats each).
 *
 * Per warp (lanes: tx = l % 16, ty = 2*warp + l / 16): 11 set-up ALU
 * instructions (the last one Csub = 0), per tile LD A, LD B, STS A, STS B, BAR, 48 unrolled, BAR,
 * 2 IADD, ISETP, BRA; then the C address, ST C and EXIT. */
#include "workload/kernels/kernels_selrep.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#define BS 16u                  /* BLOCK_SIZE */

enum {   /* registers */
    R_TX, R_TY, R_BX, R_BY, R_AB, R_AE, R_BB, R_AI, R_BI, R_SO,
    R_A, R_B, R_SA, R_SB, R_ACC, R_P, R_CI
};

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_BX, PC_S2R_BY, PC_ABEGIN, PC_AEND, PC_BBEGIN,
    PC_AIDX, PC_BIDX, PC_SOFF, PC_ZERO,
    PC_LD_A, PC_LD_B, PC_STS_A, PC_STS_B, PC_BAR1,
    PC_LDS_A, PC_LDS_B, PC_FFMA,
    PC_BAR2, PC_INC_A, PC_INC_B, PC_SETP, PC_BRA,
    PC_CIDX, PC_ST_C, PC_EXIT, PC_DONE
};

/* tx, ty of lane l of warp w: 16 lanes per row, two rows per warp. */
static uint32_t lane_tx(uint32_t l) { return l % BS; }
static uint32_t lane_ty(uint32_t w, uint32_t l) { return (w * 32 + l) / BS; }

static void addr_global(gm_inst *in, const gm_matrixmul_params *p, const gm_warp_gen *g,
                        uint32_t tile, int which)
{
    uint32_t bx = g->cta % (p->wb / BS), by = g->cta / (p->wb / BS);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint64_t tx = lane_tx(l), ty = lane_ty(g->warp, l), e;
        if (which == 0)        /* A[a + wA*ty + tx], a = aBegin + 16*tile */
            e = (uint64_t)p->wa * BS * by + BS * tile + (uint64_t)p->wa * ty + tx;
        else if (which == 1)   /* B[b + wB*ty + tx], b = bBegin + 16*wB*tile */
            e = BS * bx + (uint64_t)BS * p->wb * tile + (uint64_t)p->wb * ty + tx;
        else                   /* C[wB*16*by + 16*bx + wB*ty + tx] */
            e = (uint64_t)p->wb * BS * by + BS * bx + (uint64_t)p->wb * ty + tx;
        uint64_t base = which == 0 ? p->a : which == 1 ? p->b : p->c;
        in->addr[l] = base + 4 * e;
    }
}

/* Shared addresses: As[ty][tx] / Bs[ty][tx] (store), As[ty][k], Bs[k][tx]. */
static void addr_shared(gm_inst *in, uint32_t warp, uint32_t pc, uint32_t k)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint32_t tx = lane_tx(l), ty = lane_ty(warp, l), e;
        if (pc == PC_STS_A)
            e = ty * BS + tx;
        else if (pc == PC_STS_B)
            e = BS * BS + ty * BS + tx;
        else if (pc == PC_LDS_A)
            e = ty * BS + k;
        else
            e = BS * BS + k * BS + tx;
        in->addr[l] = 4ull * e;
    }
}

static int matrixmul_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_matrixmul_params *p = kern->params;
    const uint32_t m = 0xffffffffu;   /* 256 threads: every warp full */
    uint32_t tiles = p->wa / BS;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t tile = (uint32_t)g->v[0], k = (uint32_t)g->v[1];
        switch (g->pc) {
        case PC_S2R_TX:  gm_emit(in, GM_OP_ALU, m, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_TY:  gm_emit(in, GM_OP_ALU, m, R_TY, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_BX:  gm_emit(in, GM_OP_ALU, m, R_BX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_BY:  gm_emit(in, GM_OP_ALU, m, R_BY, R_NONE, R_NONE, R_NONE); break;
        case PC_ABEGIN:  gm_emit(in, GM_OP_ALU, m, R_AB, R_BY, R_NONE, R_NONE); break;
        case PC_AEND:    gm_emit(in, GM_OP_ALU, m, R_AE, R_AB, R_NONE, R_NONE); break;
        case PC_BBEGIN:  gm_emit(in, GM_OP_ALU, m, R_BB, R_BX, R_NONE, R_NONE); break;
        case PC_AIDX:    gm_emit(in, GM_OP_ALU, m, R_AI, R_AB, R_TY, R_TX); break;
        case PC_BIDX:    gm_emit(in, GM_OP_ALU, m, R_BI, R_BB, R_TY, R_TX); break;
        case PC_SOFF:    gm_emit(in, GM_OP_ALU, m, R_SO, R_TY, R_TX, R_NONE); break;
        case PC_ZERO:
            gm_emit(in, GM_OP_ALU, m, R_ACC, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_LD_A:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, m, R_A, R_AI, R_NONE, 4, GM_INST_READ_ONLY);
            addr_global(in, p, g, tile, 0);
            break;
        case PC_LD_B:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, m, R_B, R_BI, R_NONE, 4, GM_INST_READ_ONLY);
            addr_global(in, p, g, tile, 1);
            break;
        case PC_STS_A:
        case PC_STS_B:
            gm_emit_mem(in, GM_OP_SHARED_ST, m, R_NONE, R_SO, g->pc == PC_STS_A ? R_A : R_B,
                        4, 0);
            addr_shared(in, g->warp, g->pc, 0);
            break;
        case PC_BAR1:
            gm_emit(in, GM_OP_BARRIER, m, R_NONE, R_NONE, R_NONE, R_NONE);
            g->v[1] = 0;
            break;
        case PC_LDS_A:
        case PC_LDS_B:
            gm_emit_mem(in, GM_OP_SHARED_LD, m, g->pc == PC_LDS_A ? R_SA : R_SB, R_SO, R_NONE,
                        4, 0);
            addr_shared(in, g->warp, g->pc, k);
            break;
        case PC_FFMA:
            gm_emit(in, GM_OP_ALU, m, R_ACC, R_SA, R_SB, R_ACC);
            g->pc = ++g->v[1] < BS ? PC_LDS_A : PC_BAR2;
            continue;
        case PC_BAR2:    gm_emit(in, GM_OP_BARRIER, m, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_INC_A:   gm_emit(in, GM_OP_ALU, m, R_AI, R_AI, R_NONE, R_NONE); break;
        case PC_INC_B:   gm_emit(in, GM_OP_ALU, m, R_BI, R_BI, R_NONE, R_NONE); break;
        case PC_SETP:    gm_emit(in, GM_OP_ALU, m, R_P, R_AI, R_AE, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, m, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = ++g->v[0] < (int64_t)tiles ? PC_LD_A : PC_CIDX;
            continue;
        case PC_CIDX:    gm_emit(in, GM_OP_ALU, m, R_CI, R_BY, R_BX, R_TY); break;
        case PC_ST_C:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, m, R_NONE, R_CI, R_ACC, 4, 0);
            addr_global(in, p, g, 0, 2);
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, m, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_matrixmul_build_dims(gm_workload *w, uint32_t ha, uint32_t wa, uint32_t wb,
                            gm_error *err)
{
    /* The sample needs every dimension a multiple of BLOCK_SIZE (no bound
     * checks) and computes indices in int. */
    if (!ha || !wa || !wb || ha % BS || wa % BS || wb % BS ||
        (uint64_t)ha * wa > INT32_MAX || (uint64_t)wa * wb > INT32_MAX ||
        (uint64_t)ha * wb > INT32_MAX)
        return gm_fail(err, "matrixmul: bad dimensions hA %u wA %u wB %u (multiples of 16)",
                       ha, wa, wb);
    if (gm_workload_alloc(w, "matrixmul", 1, sizeof(gm_matrixmul_params), err))
        return -1;
    gm_matrixmul_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->ha = ha;
    p->wa = wa;
    p->wb = wb;
    p->a = gm_devmem_alloc(&mem, 4ull * ha * wa);
    p->b = gm_devmem_alloc(&mem, 4ull * wa * wb);
    p->c = gm_devmem_alloc(&mem, 4ull * ha * wb);
    gm_kernel_set(&w->kernels[0], "matrixMul", gm_dim3_make(wb / BS, ha / BS, 1),
                  gm_dim3_make(BS, BS, 1), p, matrixmul_gen);
    return 0;
}

/* The seed's five MM configurations (Table II: A + B of 0.04, 0.1, 0.6,
 * 1.9 and 3.8 MB) as (hA, wA, wB) in tiles of 16: the SDK's 5:3:8 shape
 * scaled by 1, 1.6, 4, 7 and 10 (A + B = 1024 * wA * (hA + wB) bytes). */
static const uint32_t mm_tiles[GM_SELREP_CONFIGS][3] = {
    {5, 3, 8}, {8, 5, 13}, {20, 12, 32}, {35, 21, 56}, {50, 30, 80},
};

/* Sizes small, standard and fill: the seed's configuration; tiny: every
 * tile count divided by 4, rounded up (a cheap stand-in for the default
 * suite). */
int gm_matrixmul_build_config(gm_workload *w, uint32_t config, gm_size size, gm_error *err)
{
    if (config >= GM_SELREP_CONFIGS || (unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "matrixmul: bad configuration %u or size %d", config, (int)size);
    uint32_t t[3];
    for (int i = 0; i < 3; i++)
        t[i] = size == GM_SIZE_TINY ? (mm_tiles[config][i] + 3) / 4 : mm_tiles[config][i];
    return gm_matrixmul_build_dims(w, t[0] * BS, t[1] * BS, t[2] * BS, err);
}
