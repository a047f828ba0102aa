/* PolyBench-GPU 1.0 SYRK (gpu-app-collection src/cuda/polybench-gpu-1.0/
 * CUDA/SYRK/syrk.cu) as an address-stream emulator.
 *
 *   j = blockIdx.x * blockDim.x + threadIdx.x;
 *   i = blockIdx.y * blockDim.y + threadIdx.y;
 *   if ((i < N) && (j < N)) {
 *       c[i*N + j] *= beta;
 *       for (k = 0; k < M; k++)
 *           c[i*N + j] += alpha * a[i*M + k] * a[j*M + k];
 *   }
 *
 * block (32,8), grid (ceil(N/32), ceil(N/8)). A warp is one row i and 32
 * columns j: a[i*M+k] is a broadcast, a[j*M+k] has a lane stride of M*4
 * bytes (32 lines per warp load, the same 32 rows of A for every CTA with
 * the same blockIdx.x), and c is stored every k (A may alias c: no
 * __restrict__) but loaded once, before the loop: the compiler forwards
 * each stored value to the next trip's read (docs/workloads/polybench.md,
 * "Accumulators"). A is read-only.
 *
 * Per warp: prologue 7 ALU + BRA; for warps with an active lane set-up
 * (c address, two A pointers, loop end), LD c, FMUL beta, ST c, then M
 * iterations of
 *   LD a_i  LD a_j  FMUL alpha*a_i  FFMA  ST c  IADD  IADD  ISETP  BRA
 * and EXIT (the GEMM shape with a[j*M+k] in place of b[k*N+j]). */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/pb_lanes.h"
#include "workload/kernels/gen_exit.h"

#define BX 32u
#define BY 8u

enum {   /* registers */
    R_TX = GM_PB_R_TX, R_TY, R_CX, R_CY, R_J, R_I, R_P,
    R_CADDR, R_AIPTR, R_AJPTR, R_AEND,
    R_C, R_AI, R_AJ, R_PK
};

_Static_assert((int)R_P == (int)GM_PB_R_NEXT, "the index prologue's registers come first");

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_CX, PC_S2R_CY, PC_J, PC_I,
    PC_GUARD, PC_GUARD_BRA,
    PC_CADDR, PC_AIPTR, PC_AJPTR, PC_AEND, PC_LD_C0, PC_BETA, PC_ST_C0,
    PC_LD_AI, PC_LD_AJ, PC_ALPHA, PC_FFMA, PC_ST_C,
    PC_INC_AI, PC_INC_AJ, PC_SETP, PC_BRA,
    PC_EXIT, PC_DONE
};

static void addr_c(gm_inst *in, const gm_syrk_params *p, uint64_t i, uint64_t j0)
{
    gm_pb_addr_run(in, p->c + 4 * (i * p->n + j0));
}

static int syrk_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_syrk_params *p = kern->params;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    uint64_t i = by * BY + g->warp, j0 = bx * BX;
    uint32_t e = gm_warp_exist_mask(BX * BY, g->warp);
    uint32_t b = i < p->n ? gm_pb_lanes_below(e, j0, p->n) : 0;

    while (n < max) {
        gm_inst *in = &out[n++];
        uint64_t k = (uint64_t)g->v[0];
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
        case PC_AIPTR:  gm_emit(in, GM_OP_ALU, b, R_AIPTR, R_I, R_NONE, R_NONE); break;
        case PC_AJPTR:  gm_emit(in, GM_OP_ALU, b, R_AJPTR, R_J, R_NONE, R_NONE); break;
        case PC_AEND:
            gm_emit(in, GM_OP_ALU, b, R_AEND, R_AIPTR, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_LD_C0:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_C, R_CADDR, R_NONE, 4, 0);
            addr_c(in, p, i, j0);
            break;
        case PC_BETA:   gm_emit(in, GM_OP_ALU, b, R_C, R_C, R_NONE, R_NONE); break;
        case PC_ST_C0:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_CADDR, R_C, 4, 0);
            addr_c(in, p, i, j0);
            break;
        case PC_LD_AI:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_AI, R_AIPTR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? p->a + 4 * (i * p->m + k) : 0;
            break;
        case PC_LD_AJ:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_AJ, R_AJPTR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1)
                                  ? p->a + 4 * ((j0 + (uint64_t)l) * p->m + k) : 0;
            break;
        case PC_ALPHA:  gm_emit(in, GM_OP_ALU, b, R_AI, R_AI, R_NONE, R_NONE); break;
        case PC_FFMA:   gm_emit(in, GM_OP_ALU, b, R_C, R_AI, R_AJ, R_C); break;
        case PC_ST_C:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_CADDR, R_C, 4, 0);
            addr_c(in, p, i, j0);
            break;
        case PC_INC_AI: gm_emit(in, GM_OP_ALU, b, R_AIPTR, R_AIPTR, R_NONE, R_NONE); break;
        case PC_INC_AJ: gm_emit(in, GM_OP_ALU, b, R_AJPTR, R_AJPTR, R_NONE, R_NONE); break;
        case PC_SETP:   gm_emit(in, GM_OP_ALU, b, R_PK, R_AIPTR, R_AEND, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_PK, R_NONE, R_NONE);
            g->pc = ++g->v[0] < (int64_t)p->m ? PC_LD_AI : PC_EXIT;
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

int gm_syrk_build_dims(gm_workload *w, uint32_t n, uint32_t m, gm_error *err)
{
    if (!n || !m || (uint64_t)n * m > INT32_MAX || (uint64_t)n * n > INT32_MAX)
        return gm_fail(err, "syrk: bad dimensions %ux%u", n, m);
    if (gm_workload_alloc(w, "syrk", 1, sizeof(gm_syrk_params), err))
        return -1;

    gm_syrk_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->n = n;
    p->m = m;
    p->a = gm_devmem_alloc(&mem, 4ull * n * m);
    p->c = gm_devmem_alloc(&mem, 4ull * n * n);
    gm_kernel_set(&w->kernels[0], "syrk_kernel",
                  gm_dim3_make((n + BX - 1) / BX, (n + BY - 1) / BY, 1),
                  gm_dim3_make(BX, BY, 1), p, syrk_gen);
    return 0;
}

int gm_syrk_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {64, 192, 1024, 192};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "syrk: bad size %d", (int)size);
    return gm_syrk_build_dims(w, dim[size], dim[size], err);
}
