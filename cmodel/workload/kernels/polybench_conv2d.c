/* PolyBench-GPU 1.0 2DCONV (gpu-app-collection src/cuda/polybench-gpu-1.0/
 * CUDA/2DCONV/2DConvolution.cu, Convolution2D_kernel) as an address-stream
 * emulator.
 *
 *   j = blockIdx.x * blockDim.x + threadIdx.x;
 *   i = blockIdx.y * blockDim.y + threadIdx.y;
 *   if ((i < NI-1) && (j < NJ-1) && (i > 0) && (j > 0))
 *       B[i*NJ + j] = c11*A[(i-1)*NJ + (j-1)] + c21*A[(i-1)*NJ + j] + c31*A[(i-1)*NJ + (j+1)]
 *                   + c12*A[ i   *NJ + (j-1)] + c22*A[ i   *NJ + j] + c32*A[ i   *NJ + (j+1)]
 *                   + c13*A[(i+1)*NJ + (j-1)] + c23*A[(i+1)*NJ + j] + c33*A[(i+1)*NJ + (j+1)];
 *
 * block (32,8); grid (ceil(NI/32), ceil(NJ/8)) exactly as the host code
 * writes it (x from NI although j runs along NJ; the benchmark is square).
 * One launch. A is read-only, B is only stored.
 *
 * Per warp: prologue S2R x4, IMAD j, IMAD i, two ISETP (the four bound
 * terms), BRA; for warps with an active lane: IMAD of the window base,
 * the nine loads in source order (one base register, immediate offsets,
 * as nvcc emits them), FMUL + 8 FFMA, IMAD of the B address, ST B; EXIT.
 * The dj = 0 loads cover one line (4 sectors), the dj = +-1 loads are
 * shifted by 4 B and cover two lines (5 sectors). */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/pb_lanes.h"
#include "workload/kernels/gen_exit.h"

#define BX 32u
#define BY 8u
#define TAPS 9

enum {   /* registers */
    R_TX = GM_PB_R_TX, R_TY, R_CX, R_CY, R_J, R_I, R_P, R_ABASE, R_SUM, R_BADDR,
    R_A0   /* R_A0 .. R_A0+8: the nine loaded values */
};

_Static_assert((int)R_P == (int)GM_PB_R_NEXT, "the index prologue's registers come first");

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_CX, PC_S2R_CY, PC_J, PC_I,
    PC_GUARD_HI, PC_GUARD_LO, PC_GUARD_BRA,
    PC_ABASE,
    PC_LD0, PC_LD_LAST = PC_LD0 + TAPS - 1,
    PC_FMA0, PC_FMA_LAST = PC_FMA0 + TAPS - 1,
    PC_BADDR, PC_ST_B,
    PC_EXIT, PC_DONE
};

/* (di, dj) of the loads in the order the expression names them */
static const int8_t tap_di[TAPS] = {-1, -1, -1, 0, 0, 0, 1, 1, 1};
static const int8_t tap_dj[TAPS] = {-1, 0, 1, -1, 0, 1, -1, 0, 1};

static int conv2d_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_2dconv_params *p = kern->params;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    uint64_t i = by * BY + g->warp, j0 = bx * BX;
    uint32_t e = gm_warp_exist_mask(BX * BY, g->warp);
    uint32_t b = (i > 0 && i + 1 < p->ni) ? gm_pb_lanes_between(e, j0, 0, p->nj - 1) : 0;

    while (n < max) {
        gm_inst *in = &out[n++];
        int pc = (int)g->pc;
        if (pc >= PC_LD0 && pc <= PC_LD_LAST) {
            int t = pc - PC_LD0;
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, (uint8_t)(R_A0 + t), R_ABASE, R_NONE, 4,
                        GM_INST_READ_ONLY);
            /* (i+di)*NJ + (j+dj); i >= 1 and j >= 1 for active lanes */
            gm_pb_addr_run(in, p->a + 4 * ((i + tap_di[t]) * p->nj + j0 + tap_dj[t]));
            g->pc++;
            continue;
        }
        if (pc >= PC_FMA0 && pc <= PC_FMA_LAST) {
            int t = pc - PC_FMA0;
            /* FMUL for the first term, FFMA for the others */
            gm_emit(in, GM_OP_ALU, b, R_SUM, (uint8_t)(R_A0 + t), t ? R_SUM : R_NONE, R_NONE);
            g->pc++;
            continue;
        }
        switch (pc) {
        case PC_S2R_TX: case PC_S2R_TY: case PC_S2R_CX: case PC_S2R_CY: case PC_J: case PC_I:
            gm_pb_emit_index(in, g->pc - PC_S2R_TX, e);
            break;
        case PC_GUARD_HI: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_J, R_NONE); break;
        case PC_GUARD_LO: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_J, R_P); break;
        case PC_GUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = b ? PC_ABASE : PC_EXIT;
            continue;
        case PC_ABASE:  gm_emit(in, GM_OP_ALU, b, R_ABASE, R_I, R_J, R_NONE); break;
        case PC_BADDR:  gm_emit(in, GM_OP_ALU, b, R_BADDR, R_I, R_J, R_NONE); break;
        case PC_ST_B:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_BADDR, R_SUM, 4, 0);
            gm_pb_addr_run(in, p->b + 4 * (i * p->nj + j0));
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

int gm_2dconv_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, gm_error *err)
{
    if (ni < 3 || nj < 3 || (uint64_t)ni * nj > INT32_MAX)
        return gm_fail(err, "2dconv: bad dimensions %ux%u", ni, nj);
    if (gm_workload_alloc(w, "2dconv", 1, sizeof(gm_2dconv_params), err))
        return -1;

    gm_2dconv_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->ni = ni;
    p->nj = nj;
    p->a = gm_devmem_alloc(&mem, 4ull * ni * nj);
    p->b = gm_devmem_alloc(&mem, 4ull * ni * nj);
    gm_kernel_set(&w->kernels[0], "Convolution2D_kernel",
                  gm_dim3_make((ni + BX - 1) / BX, (nj + BY - 1) / BY, 1),
                  gm_dim3_make(BX, BY, 1), p, conv2d_gen);
    return 0;
}

int gm_2dconv_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {256, 1024, 4096, 1024};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "2dconv: bad size %d", (int)size);
    return gm_2dconv_build_dims(w, dim[size], dim[size], err);
}
