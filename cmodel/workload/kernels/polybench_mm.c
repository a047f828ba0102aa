/* PolyBench-GPU 1.0 2MM and 3MM (gpu-app-collection src/cuda/
 * polybench-gpu-1.0/CUDA/{2MM/2mm.cu,3MM/3mm.cu}) as address-stream
 * emulators. Every launch is the same matrix-multiply-accumulate:
 *
 *   mm2_kernel1: C[i*NJ + j] += A[i*NK + k] * B[k*NJ + j]   (i<NI, j<NJ, k<NK)
 *   mm2_kernel2: E[i*NL + j] += C[i*NJ + k] * D[k*NL + j]   (i<NI, j<NL, k<NJ)
 *   mm3_kernel1: E[i*NJ + j] += A[i*NK + k] * B[k*NJ + j]   (i<NI, j<NJ, k<NK)
 *   mm3_kernel2: F[i*NL + j] += C[i*NM + k] * D[k*NL + j]   (i<NJ, j<NL, k<NM)
 *   mm3_kernel3: G[i*NL + j] += E[i*NJ + k] * F[k*NL + j]   (i<NI, j<NL, k<NJ)
 *
 * with j = blockIdx.x*32 + threadIdx.x, i = blockIdx.y*8 + threadIdx.y,
 * block (32,8) and grid (ceil(cols/32), ceil(rows/8)) as the host code
 * writes it. A warp is one row i and 32 consecutive columns j. No
 * accumulator is zeroed in the kernel. Nothing is __restrict__, so the
 * operands may alias the accumulator and its store stays in every k trip;
 * its load does not: nothing between a trip's store and the next trip's
 * read writes memory, so the compiler forwards the stored value and loads
 * the accumulator once, before the loop (LLVM's NVPTX back end at -O3;
 * docs/workloads/polybench.md, "Accumulators"). Read-only per launch: the
 * two operands (2MM kernel 2 reads the C that kernel 1 wrote).
 *
 * Per warp: prologue S2R x4, IMAD j, IMAD i, ISETP, BRA; for warps with an
 * active lane set-up (acc address, x pointer, y pointer, loop end), LD acc
 * and `trip` iterations of
 *   LD x (bcast)  LD y (1 line)  FFMA  ST acc  IADD  IADD  ISETP  BRA
 * then EXIT. */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/pb_lanes.h"
#include "workload/kernels/gen_exit.h"

#define BX 32u   /* DIM_THREAD_BLOCK_X */
#define BY 8u    /* DIM_THREAD_BLOCK_Y */

enum {   /* registers */
    R_TX = GM_PB_R_TX, R_TY, R_CX, R_CY, R_J, R_I, R_P,
    R_ACCADDR, R_XPTR, R_YPTR, R_XEND,
    R_X, R_Y, R_ACC, R_PK
};

_Static_assert((int)R_P == (int)GM_PB_R_NEXT, "the index prologue's registers come first");

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_CX, PC_S2R_CY, PC_J, PC_I,
    PC_GUARD, PC_GUARD_BRA,
    PC_ACCADDR, PC_XPTR, PC_YPTR, PC_XEND, PC_LD_ACC,
    PC_LD_X, PC_LD_Y, PC_FFMA, PC_ST_ACC,
    PC_INC_X, PC_INC_Y, PC_SETP, PC_BRA,
    PC_EXIT, PC_DONE
};

static int mm_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_pb_mm_params *p = kern->params;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    /* tx = lane, ty = warp: i is warp-uniform, j = j0 + lane */
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    uint64_t i = by * BY + g->warp;
    uint64_t j0 = bx * BX;
    uint32_t e = gm_warp_exist_mask(BX * BY, g->warp);
    uint32_t b = i < p->rows ? gm_pb_lanes_below(e, j0, p->cols) : 0;

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
            g->pc = b ? PC_ACCADDR : PC_EXIT;
            continue;
        case PC_ACCADDR: gm_emit(in, GM_OP_ALU, b, R_ACCADDR, R_I, R_J, R_NONE); break;
        case PC_XPTR:    gm_emit(in, GM_OP_ALU, b, R_XPTR, R_I, R_NONE, R_NONE); break;
        case PC_YPTR:    gm_emit(in, GM_OP_ALU, b, R_YPTR, R_J, R_NONE, R_NONE); break;
        case PC_XEND:
            gm_emit(in, GM_OP_ALU, b, R_XEND, R_XPTR, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_LD_ACC:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_ACC, R_ACCADDR, R_NONE, 4, 0);
            gm_pb_addr_run(in, p->acc + 4 * (i * p->cols + j0));
            break;
        case PC_LD_X:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_X, R_XPTR, R_NONE, 4, GM_INST_READ_ONLY);
            gm_pb_addr_bcast(in, p->x + 4 * (i * p->trip + k));
            break;
        case PC_LD_Y:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_Y, R_YPTR, R_NONE, 4, GM_INST_READ_ONLY);
            gm_pb_addr_run(in, p->y + 4 * (k * p->cols + j0));
            break;
        case PC_FFMA:   gm_emit(in, GM_OP_ALU, b, R_ACC, R_X, R_Y, R_ACC); break;
        case PC_ST_ACC:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_ACCADDR, R_ACC, 4, 0);
            gm_pb_addr_run(in, p->acc + 4 * (i * p->cols + j0));
            break;
        case PC_INC_X:  gm_emit(in, GM_OP_ALU, b, R_XPTR, R_XPTR, R_NONE, R_NONE); break;
        case PC_INC_Y:  gm_emit(in, GM_OP_ALU, b, R_YPTR, R_YPTR, R_NONE, R_NONE); break;
        case PC_SETP:   gm_emit(in, GM_OP_ALU, b, R_PK, R_XPTR, R_XEND, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_PK, R_NONE, R_NONE);
            g->pc = ++g->v[0] < (int64_t)p->trip ? PC_LD_X : PC_EXIT;
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

static void mm_launch(gm_kernel *k, const char *name, gm_pb_mm_params *p,
                      uint32_t rows, uint32_t cols, uint32_t trip,
                      uint64_t x, uint64_t y, uint64_t acc)
{
    p->rows = rows;
    p->cols = cols;
    p->trip = trip;
    p->x = x;
    p->y = y;
    p->acc = acc;
    gm_kernel_set(k, name, gm_dim3_make((cols + BX - 1) / BX, (rows + BY - 1) / BY, 1),
                  gm_dim3_make(BX, BY, 1), p, mm_gen);
}

/* CUDA computes the indices in int. */
static int dims_ok(const uint32_t *d, int n)
{
    for (int a = 0; a < n; a++) {
        if (!d[a])
            return 0;
        for (int b = 0; b < n; b++)
            if ((uint64_t)d[a] * d[b] > INT32_MAX)
                return 0;
    }
    return 1;
}

int gm_2mm_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                      uint32_t nl, gm_error *err)
{
    const uint32_t d[] = {ni, nj, nk, nl};
    if (!dims_ok(d, 4))
        return gm_fail(err, "2mm: bad dimensions %ux%ux%ux%u", ni, nj, nk, nl);
    if (gm_workload_alloc(w, "2mm", 2, sizeof(gm_2mm_params), err))
        return -1;

    gm_2mm_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->ni = ni;
    p->nj = nj;
    p->nk = nk;
    p->nl = nl;
    p->a = gm_devmem_alloc(&mem, 4ull * ni * nk);
    p->b = gm_devmem_alloc(&mem, 4ull * nk * nj);
    p->c = gm_devmem_alloc(&mem, 4ull * ni * nj);
    p->d = gm_devmem_alloc(&mem, 4ull * nj * nl);
    p->e = gm_devmem_alloc(&mem, 4ull * ni * nl);
    mm_launch(&w->kernels[0], "mm2_kernel1", &p->k[0], ni, nj, nk, p->a, p->b, p->c);
    mm_launch(&w->kernels[1], "mm2_kernel2", &p->k[1], ni, nl, nj, p->c, p->d, p->e);
    return 0;
}

int gm_2mm_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {64, 128, 2048, 192};   /* tiny, small, standard, fill */

    (void)seed;   /* the address stream does not depend on the data */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "2mm: bad size %d", (int)size);
    return gm_2mm_build_dims(w, dim[size], dim[size], dim[size], dim[size], err);
}

int gm_3mm_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                      uint32_t nl, uint32_t nm, gm_error *err)
{
    const uint32_t d[] = {ni, nj, nk, nl, nm};
    if (!dims_ok(d, 5))
        return gm_fail(err, "3mm: bad dimensions %ux%ux%ux%ux%u", ni, nj, nk, nl, nm);
    if (gm_workload_alloc(w, "3mm", 3, sizeof(gm_3mm_params), err))
        return -1;

    gm_3mm_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->ni = ni;
    p->nj = nj;
    p->nk = nk;
    p->nl = nl;
    p->nm = nm;
    p->a = gm_devmem_alloc(&mem, 4ull * ni * nk);
    p->b = gm_devmem_alloc(&mem, 4ull * nk * nj);
    p->c = gm_devmem_alloc(&mem, 4ull * nj * nm);
    p->d = gm_devmem_alloc(&mem, 4ull * nm * nl);
    p->e = gm_devmem_alloc(&mem, 4ull * ni * nj);
    p->f = gm_devmem_alloc(&mem, 4ull * nj * nl);
    p->g = gm_devmem_alloc(&mem, 4ull * ni * nl);
    mm_launch(&w->kernels[0], "mm3_kernel1", &p->k[0], ni, nj, nk, p->a, p->b, p->e);
    mm_launch(&w->kernels[1], "mm3_kernel2", &p->k[1], nj, nl, nm, p->c, p->d, p->f);
    mm_launch(&w->kernels[2], "mm3_kernel3", &p->k[2], ni, nl, nj, p->e, p->f, p->g);
    return 0;
}

int gm_3mm_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {64, 128, 512, 192};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "3mm: bad size %d", (int)size);
    return gm_3mm_build_dims(w, dim[size], dim[size], dim[size], dim[size], dim[size],
                             err);
}
