/* PolyBench-GPU 1.0 GEMM (gpu-app-collection src/cuda/polybench-gpu-1.0/
 * CUDA/GEMM/gemm.cu) as an address-stream emulator.
 *
 *   j = blockIdx.x * blockDim.x + threadIdx.x;
 *   i = blockIdx.y * blockDim.y + threadIdx.y;
 *   if (i < NI && j < NJ) {
 *       c[i*NJ + j] *= BETA;
 *       for (k = 0; k < NK; k++)
 *           c[i*NJ + j] += ALPHA * a[i*NK + k] * b[k*NJ + j];
 *   }
 *
 * block (32,8); grid (ceil(NI/32), ceil(NJ/8)) exactly as the host code
 * writes it (x from NI, y from NJ; the benchmark is square, so both cover
 * the matrix). No pointer is __restrict__, so a or b may alias c and the
 * store of c stays in every k iteration; but nothing between that store
 * and the next iteration's read of c writes memory, so the compiler
 * forwards the stored value and c is loaded once, before the loop (what
 * LLVM's NVPTX back end emits at -O3; docs/workloads/polybench.md,
 * "Accumulators"). The k loop is bottom-tested (NK is a known positive
 * constant) and not unrolled; unrolling would reorder instructions inside
 * a group of iterations but not change the set of addresses.
 *
 * Per warp: 8 prologue instructions, then for warps with an active lane
 * 7 set-up instructions and NK iterations of
 *   LD a (bcast, read-only)  LD b (1 line, read-only)
 *   FMUL ALPHA*a  FFMA (+= *b)  ST c  IADD pa  IADD pb  ISETP  BRA
 * and EXIT.
 *
 * gemm_reload is the same kernel with c loaded again in every iteration
 * (after LD b), the stream gmsim ran as "gemm" before 2026-12-07. It is
 * not in the catalogue: it keeps `gmsim bench` simulating what older
 * revisions simulated, so that their speeds compare. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/pb_lanes.h"

#define BX 32u   /* DIM_THREAD_BLOCK_X */
#define BY 8u    /* DIM_THREAD_BLOCK_Y */

enum {   /* registers */
    R_TX = GM_PB_R_TX, R_TY, R_CX, R_CY, R_J, R_I, R_P,
    R_CADDR, R_APTR, R_BPTR, R_AEND,
    R_C, R_A, R_B, R_PK
};

_Static_assert((int)R_P == (int)GM_PB_R_NEXT, "the index prologue's registers come first");

enum {   /* program points, in issue order (pc++ steps to the next) */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_CX, PC_S2R_CY, PC_J, PC_I,
    PC_GUARD, PC_GUARD_BRA,
    PC_CADDR, PC_APTR, PC_BPTR, PC_AEND, PC_LD_C0, PC_BETA, PC_ST_C0,
    PC_LD_A, PC_LD_B, PC_LD_C, PC_ALPHA, PC_FFMA, PC_ST_C,
    PC_INC_A, PC_INC_B, PC_SETP_K, PC_BRA_K,
    PC_EXIT, PC_DONE
};

/* With blockDim.x = 32 a warp is one row of its block: lane l is
 * thread (l, warp), so i is warp-uniform and j = bx * 32 + l. Each
 * generator call recomputes where the body's loads and stores start (so
 * the per-warp state is only pc and the loop counter): lane l of
 * iteration k reads a at a0 + 4 k (every lane the same), b at
 * b0 + 4 (k NJ + l), and writes c at c0 + 4 l (read once, before the
 * loop). */
_Static_assert(BX == GM_WARP_SIZE, "a warp is one row of the block");

typedef struct lanes {
    uint32_t exist;   /* lanes holding a thread */
    uint32_t body;    /* lanes inside the (i < NI && j < NJ) guard */
    uint64_t a0;      /* &a[i*NK] */
    uint64_t b0;      /* &b[j] of lane 0 */
    uint64_t c0;      /* &c[i*NJ + j] of lane 0 */
} lanes;

static void lanes_compute(const gm_kernel *k, const gm_gemm_params *p,
                          const gm_warp_gen *g, lanes *L)
{
    uint64_t bx = g->cta % k->grid.x, by = g->cta / k->grid.x;
    uint64_t i = by * BY + g->warp, j0 = bx * BX;
    L->exist = gm_warp_exist_mask(BX * BY, g->warp);
    L->body = i < p->ni ? gm_pb_lanes_below(L->exist, j0, p->nj) : 0;
    L->a0 = p->a + 4 * i * p->nk;
    L->b0 = p->b + 4 * j0;
    L->c0 = p->c + 4 * (i * p->nj + j0);
}

static int gemm_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_gemm_params *p = kern->params;
    lanes L;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    lanes_compute(kern, p, g, &L);
    uint32_t e = L.exist, b = L.body;

    while (n < max) {
        gm_inst *in = &out[n++];
        switch (g->pc) {
        case PC_S2R_TX: case PC_S2R_TY: case PC_S2R_CX: case PC_S2R_CY: case PC_J: case PC_I:
            gm_pb_emit_index(in, g->pc - PC_S2R_TX, e);
            break;
        case PC_GUARD:  gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_J, R_NONE); break;
        case PC_GUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = b ? PC_CADDR : PC_EXIT;
            continue;
        case PC_CADDR:  gm_emit(in, GM_OP_ALU, b, R_CADDR, R_I, R_J, R_NONE); break;
        case PC_APTR:   gm_emit(in, GM_OP_ALU, b, R_APTR, R_I, R_NONE, R_NONE); break;
        case PC_BPTR:   gm_emit(in, GM_OP_ALU, b, R_BPTR, R_J, R_NONE, R_NONE); break;
        case PC_AEND:
            gm_emit(in, GM_OP_ALU, b, R_AEND, R_APTR, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_LD_C0:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_C, R_CADDR, R_NONE, 4, 0);
            gm_pb_addr_run(in, L.c0);
            break;
        case PC_BETA:   gm_emit(in, GM_OP_ALU, b, R_C, R_C, R_NONE, R_NONE); break;
        case PC_ST_C0:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_CADDR, R_C, 4, 0);
            gm_pb_addr_run(in, L.c0);
            break;
        case PC_LD_A:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_A, R_APTR, R_NONE, 4, GM_INST_READ_ONLY);
            gm_pb_addr_bcast(in, L.a0 + 4 * (uint64_t)g->v[0]);
            break;
        case PC_LD_B:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_B, R_BPTR, R_NONE, 4, GM_INST_READ_ONLY);
            gm_pb_addr_run(in, L.b0 + 4 * (uint64_t)g->v[0] * p->nj);
            g->pc = p->reload_acc ? PC_LD_C : PC_ALPHA;
            continue;
        case PC_LD_C:   /* gemm_reload only */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_C, R_CADDR, R_NONE, 4, 0);
            gm_pb_addr_run(in, L.c0);
            break;
        case PC_ALPHA:  gm_emit(in, GM_OP_ALU, b, R_A, R_A, R_NONE, R_NONE); break;
        case PC_FFMA:   gm_emit(in, GM_OP_ALU, b, R_C, R_A, R_B, R_C); break;
        case PC_ST_C:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_CADDR, R_C, 4, 0);
            gm_pb_addr_run(in, L.c0);
            break;
        case PC_INC_A:  gm_emit(in, GM_OP_ALU, b, R_APTR, R_APTR, R_NONE, R_NONE); break;
        case PC_INC_B:  gm_emit(in, GM_OP_ALU, b, R_BPTR, R_BPTR, R_NONE, R_NONE); break;
        case PC_SETP_K: gm_emit(in, GM_OP_ALU, b, R_PK, R_APTR, R_AEND, R_NONE); break;
        case PC_BRA_K:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_PK, R_NONE, R_NONE);
            g->pc = ++g->v[0] < (int64_t)p->nk ? PC_LD_A : PC_EXIT;
            continue;
        case PC_EXIT:
            return gm_gen_exit(g, in, e, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_gemm_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                       gm_error *err)
{
    /* CUDA computes the indices in int. */
    if (!ni || !nj || !nk || (uint64_t)ni * nk > INT32_MAX ||
        (uint64_t)nk * nj > INT32_MAX || (uint64_t)ni * nj > INT32_MAX)
        return gm_fail(err, "gemm: bad dimensions %ux%ux%u", ni, nj, nk);
    if (gm_workload_alloc(w, "gemm", 1, sizeof(gm_gemm_params), err))
        return -1;

    gm_gemm_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->ni = ni;
    p->nj = nj;
    p->nk = nk;
    p->a = gm_devmem_alloc(&mem, 4ull * ni * nk);
    p->b = gm_devmem_alloc(&mem, 4ull * nk * nj);
    p->c = gm_devmem_alloc(&mem, 4ull * ni * nj);
    gm_kernel_set(&w->kernels[0], "gemm_kernel",
                  gm_dim3_make((ni + BX - 1) / BX, (nj + BY - 1) / BY, 1),
                  gm_dim3_make(BX, BY, 1), p, gemm_gen);
    return 0;
}

int gm_gemm_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {64, 256, 512, 256};   /* tiny, small, standard, fill */

    (void)seed;   /* the address stream does not depend on the data */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "gemm: bad size %d", (int)size);
    return gm_gemm_build_dims(w, dim[size], dim[size], dim[size], err);
}

int gm_gemm_reload_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    if (gm_gemm_build(w, size, seed, err))
        return -1;
    ((gm_gemm_params *)w->priv)->reload_acc = true;
    return 0;
}
