/* PolyBench-GPU 1.0 3DCONV (gpu-app-collection src/cuda/polybench-gpu-1.0/
 * CUDA/3DCONV/3DConvolution.cu, convolution3D_kernel) as an address-stream
 * emulator. The host launches the kernel once per plane:
 *
 *   for (i = 1; i < NI - 1; ++i) convolution3D_kernel<<<grid, block>>>(A, B, i);
 *
 *   k = blockIdx.x * blockDim.x + threadIdx.x;
 *   j = blockIdx.y * blockDim.y + threadIdx.y;
 *   if ((i < NI-1) && (j < NJ-1) && (k < NK-1) && (i > 0) && (j > 0) && (k > 0))
 *       B[i*NK*NJ + j*NK + k] = c11*A(-1,-1,-1) + c13*A(+1,-1,-1) + c21*A(-1,-1,-1)
 *           + c23*A(+1,-1,-1) + c31*A(-1,-1,-1) + c33*A(+1,-1,-1) + c12*A(0,-1,0)
 *           + c22*A(0,0,0) + c32*A(0,+1,0) + c11*A(-1,-1,+1) + c13*A(+1,-1,+1)
 *           + c21*A(-1,0,+1) + c23*A(+1,0,+1) + c31*A(-1,+1,+1) + c33*A(+1,+1,+1);
 *   where A(a,b,c) = A[(i+a)*NK*NJ + (j+b)*NK + (k+c)]
 *
 * block (32,8), grid (ceil(NK/32), ceil(NJ/8)); a warp is one row j and
 * 32 consecutive k. The source names 15 terms but only 11 distinct loads:
 * (-1,-1,-1) and (+1,-1,-1) appear three times each with no store in
 * between, so nvcc loads them once (CSE); the 15 multiply-adds remain. A is
 * read-only, B is only stored. Planes i-1 and i+1 of one launch are
 * re-read by the launches for i-2 and i+2 (inter-kernel reuse).
 *
 * Per warp: prologue S2R x4, IMAD k, IMAD j, two ISETP, BRA; for warps
 * with an active lane: IMAD of the window base, 11 loads in order of first
 * use, FMUL + 14 FFMA, IMAD of the B address, ST B; EXIT. */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stddef.h>
#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/pb_lanes.h"
#include "workload/kernels/gen_exit.h"

#define BX 32u
#define BY 8u
#define LOADS 11
#define TERMS 15

enum {   /* registers */
    R_TX, R_TY, R_CX, R_CY, R_K, R_J, R_P, R_ABASE, R_SUM, R_BADDR,
    R_A0   /* R_A0 .. R_A0+10: the distinct loaded values */
};

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_CX, PC_S2R_CY, PC_K, PC_J,
    PC_GUARD_HI, PC_GUARD_LO, PC_GUARD_BRA,
    PC_ABASE,
    PC_LD0, PC_LD_LAST = PC_LD0 + LOADS - 1,
    PC_FMA0, PC_FMA_LAST = PC_FMA0 + TERMS - 1,
    PC_BADDR, PC_ST_B,
    PC_EXIT, PC_DONE
};

/* (a, b, c) offsets of the distinct loads, in order of first use */
static const int8_t ld_a[LOADS] = {-1, 1, 0, 0, 0, -1, 1, -1, 1, -1, 1};
static const int8_t ld_b[LOADS] = {-1, -1, -1, 0, 1, -1, -1, 0, 0, 1, 1};
static const int8_t ld_c[LOADS] = {-1, -1, 0, 0, 0, 1, 1, 1, 1, 1, 1};
/* which distinct load each of the 15 source terms multiplies */
static const uint8_t term_ld[TERMS] = {0, 1, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

static int conv3d_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_3dconv_launch *p = kern->params;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    uint64_t i = p->i, j = by * BY + g->warp, k0 = bx * BX;
    uint64_t plane = (uint64_t)p->nj * p->nk;
    uint32_t e = gm_warp_exist_mask(BX * BY, g->warp);
    uint32_t b = (i > 0 && i + 1 < p->ni && j > 0 && j + 1 < p->nj)
                     ? gm_pb_lanes_between(e, k0, 0, p->nk - 1) : 0;

    while (n < max) {
        gm_inst *in = &out[n++];
        int pc = (int)g->pc;
        if (pc >= PC_LD0 && pc <= PC_LD_LAST) {
            int t = pc - PC_LD0;
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, (uint8_t)(R_A0 + t), R_ABASE, R_NONE, 4,
                        GM_INST_READ_ONLY);
            gm_pb_addr_run(in, p->a + 4 * ((i + ld_a[t]) * plane + (j + ld_b[t]) * p->nk + k0 +
                                     ld_c[t]));
            g->pc++;
            continue;
        }
        if (pc >= PC_FMA0 && pc <= PC_FMA_LAST) {
            int t = pc - PC_FMA0;
            gm_emit(in, GM_OP_ALU, b, R_SUM, (uint8_t)(R_A0 + term_ld[t]),
                    t ? R_SUM : R_NONE, R_NONE);
            g->pc++;
            continue;
        }
        switch (pc) {
        case PC_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_TY: gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CX: gm_emit(in, GM_OP_ALU, e, R_CX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CY: gm_emit(in, GM_OP_ALU, e, R_CY, R_NONE, R_NONE, R_NONE); break;
        case PC_K:      gm_emit(in, GM_OP_ALU, e, R_K, R_CX, R_TX, R_NONE); break;
        case PC_J:      gm_emit(in, GM_OP_ALU, e, R_J, R_CY, R_TY, R_NONE); break;
        case PC_GUARD_HI: gm_emit(in, GM_OP_ALU, e, R_P, R_J, R_K, R_NONE); break;
        case PC_GUARD_LO: gm_emit(in, GM_OP_ALU, e, R_P, R_J, R_K, R_P); break;
        case PC_GUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = b ? PC_ABASE : PC_EXIT;
            continue;
        case PC_ABASE:  gm_emit(in, GM_OP_ALU, b, R_ABASE, R_J, R_K, R_NONE); break;
        case PC_BADDR:  gm_emit(in, GM_OP_ALU, b, R_BADDR, R_J, R_K, R_NONE); break;
        case PC_ST_B:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_BADDR, R_SUM, 4, 0);
            gm_pb_addr_run(in, p->b + 4 * (i * plane + j * p->nk + k0));
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

int gm_3dconv_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                         gm_error *err)
{
    if (ni < 3 || nj < 3 || nk < 3 || ni > 65536 || (uint64_t)ni * nj * nk > INT32_MAX)
        return gm_fail(err, "3dconv: bad dimensions %ux%ux%u", ni, nj, nk);
    uint32_t launches = ni - 2;
    size_t bytes = sizeof(gm_3dconv_params) + launches * sizeof(gm_3dconv_launch);
    if (gm_workload_alloc(w, "3dconv", launches, bytes, err))
        return -1;

    gm_3dconv_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->ni = ni;
    p->nj = nj;
    p->nk = nk;
    p->a = gm_devmem_alloc(&mem, 4ull * ni * nj * nk);
    p->b = gm_devmem_alloc(&mem, 4ull * ni * nj * nk);
    for (uint32_t l = 0; l < launches; l++) {
        gm_3dconv_launch *L = &p->launch[l];
        L->ni = ni;
        L->nj = nj;
        L->nk = nk;
        L->i = l + 1;
        L->a = p->a;
        L->b = p->b;
        gm_kernel_set(&w->kernels[l], "convolution3D_kernel",
                      gm_dim3_make((nk + BX - 1) / BX, (nj + BY - 1) / BY, 1),
                      gm_dim3_make(BX, BY, 1), L, conv3d_gen);
    }
    return 0;
}

int gm_3dconv_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {48, 128, 256, 192};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "3dconv: bad size %d", (int)size);
    return gm_3dconv_build_dims(w, dim[size], dim[size], dim[size], err);
}
