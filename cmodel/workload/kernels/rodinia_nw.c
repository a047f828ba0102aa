/* Rodinia 3.1 nw (Needleman-Wunsch; cuda/nw/{needle.cu,needle_kernel.cu},
 * BLOCK_SIZE 16) as an address-stream emulator.
 *
 * Host (needle.cu runTest): max_cols = dim + 1, block_width = dim / 16,
 * cudaMalloc(referrence_cuda), cudaMalloc(matrix_cuda), both (dim+1)^2
 * ints; then the anti-diagonals of 16x16 tiles, one launch each, block
 * (16,1):
 *   for (i = 1; i <= block_width; i++)      needle_cuda_shared_1<<<i, 16>>>
 *   for (i = block_width - 1; i >= 1; i--)  needle_cuda_shared_2<<<i, 16>>>
 *
 * Both kernels, with (b_index_x, b_index_y) the tile:
 *   shared_1: b_index_x = bx,                  b_index_y = i - 1 - bx
 *   shared_2: b_index_x = bx + block_width - i, b_index_y = block_width - bx - 1
 *   base = cols*16*b_index_y + 16*b_index_x
 *   index = base + tx + cols + 1   index_n = base + tx + 1
 *   index_w = base + cols          index_nw = base
 *   if (tx == 0) temp[0][0] = matrix_cuda[index_nw];
 *   for (ty = 0; ty < 16; ty++) ref[ty][tx] = referrence[index + cols*ty];
 *   __syncthreads();
 *   temp[tx+1][0] = matrix_cuda[index_w + cols*tx];  __syncthreads();
 *   temp[0][tx+1] = matrix_cuda[index_n];            __syncthreads();
 *   for (m = 0; m < 16; m++) {         // upper-left triangle of the tile
 *       if (tx <= m) { x = tx + 1; y = m - tx + 1;
 *           temp[y][x] = maximum(temp[y-1][x-1] + ref[y-1][x-1],
 *                                temp[y][x-1] - penalty, temp[y-1][x] - penalty); }
 *       __syncthreads(); }
 *   for (m = 14; m >= 0; m--) {        // lower-right triangle
 *       if (tx <= m) { x = tx + 16 - m; y = 16 - tx; temp[y][x] = the same; }
 *       __syncthreads(); }
 *   for (ty = 0; ty < 16; ty++) matrix_cuda[index + ty*cols] = temp[ty+1][tx+1];
 * shared_2 differs only in order: the ref loop and its barrier come before
 * the temp[0][0] load, which then shares a barrier phase with the west
 * column. The barrier count is the same (3 + 31).
 *
 * One warp of 16 lanes per CTA. Shared memory (declaration order): temp
 * [17][17] at 0, ref[16][16] at 1156. Read-only: referrence (matrix_cuda
 * is read and written by the same kernel). maximum() is inlined: two
 * compare-selects after the three operand sums. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define BS 16u            /* BLOCK_SIZE */
#define SH_TEMP 0u
#define SH_REF 1156u      /* 17 * 17 * 4 */
#define LANES 0xffffu     /* 16 threads */

enum {   /* registers */
    R_TX, R_BX, R_BASE, R_IDX, R_IN, R_IW, R_INW, R_P, R_T, R_TY, R_GA,
    R_M, R_A, R_R, R_W, R_N
};

enum {   /* program points */
    PC_TX = 0, PC_BX, PC_BASE, PC_IDX, PC_IN, PC_IW, PC_INW,
    PC_ENTRY,                               /* kernel 1 -> NW, kernel 2 -> REF */
    PC_NW_SETP, PC_NW_BRA, PC_NW_LD, PC_NW_STS, PC_NW_NEXT,
    PC_REF_INIT, PC_REF_ADDR, PC_REF_LD, PC_REF_STS, PC_REF_INC, PC_REF_BRA, PC_REF_BAR,
    PC_REF_NEXT,
    PC_W_LD, PC_W_STS, PC_W_BAR,
    PC_N_LD, PC_N_STS, PC_N_BAR,
    PC_D_INIT, PC_D_SETP, PC_D_BRA, PC_D_LDS_NW, PC_D_LDS_REF, PC_D_LDS_W, PC_D_LDS_N,
    PC_D_ADD, PC_D_SUBW, PC_D_SUBN, PC_D_MAX0, PC_D_MAX1, PC_D_STS, PC_D_BAR, PC_D_INC,
    PC_D_LOOP,
    PC_S_INIT, PC_S_LDS, PC_S_ADDR, PC_S_ST, PC_S_INC, PC_S_BRA,
    PC_EXIT, PC_DONE
};

/* g->v[0]: loop counter (ty or m); g->v[1]: 0 in the upper-left
 * triangle, 1 in the lower-right one. */

static int64_t tile_base(const gm_nw_params *p, uint32_t bx)
{
    int64_t x, y;
    if (p->second) {
        x = (int64_t)bx + p->block_width - p->i;
        y = (int64_t)p->block_width - bx - 1;
    } else {
        x = bx;
        y = (int64_t)p->i - 1 - bx;
    }
    return (int64_t)p->cols * BS * y + BS * x;
}

/* Element `base + off(lane)` of array `arr`, 4 B ints, lanes of in->mask. */
static void global_addr(gm_inst *in, uint64_t arr, int64_t base, int64_t stride, int64_t add)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1)
                          ? arr + 4 * (uint64_t)(base + stride * (int64_t)l + add)
                          : 0;
}

/* temp[y][x] (16 x 17 ints) or ref[y][x] for each lane: y = y0 + ys*tx,
 * x = x0 + xs*tx. */
static void shared_addr(gm_inst *in, uint32_t sh, uint32_t width, int32_t y0, int32_t ys,
                        int32_t x0, int32_t xs)
{
    for (int32_t l = 0; l < GM_WARP_SIZE; l++) {
        int32_t y = y0 + ys * l, x = x0 + xs * l;
        in->addr[l] = (in->mask >> l & 1) ? sh + 4 * (uint64_t)(y * (int32_t)width + x) : 0;
    }
}

/* The cell lane tx computes in trip m of the triangle: (y, x) = (y0 - tx,
 * x0 + tx). */
static void cell(int tri, int32_t m, int32_t *y0, int32_t *x0)
{
    if (tri) {
        *y0 = (int32_t)BS;
        *x0 = (int32_t)BS - m;
    } else {
        *y0 = m + 1;
        *x0 = 1;
    }
}

static int nw_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_nw_params *p = kern->params;
    int64_t base = tile_base(p, g->cta);
    int64_t cols = p->cols;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        int32_t t = (int32_t)g->v[0], tri = (int32_t)g->v[1];
        uint32_t c = (2u << t) - 1;   /* tx <= m: m is in [0, 15] inside the loops */
        int32_t y0, x0;
        cell(tri, t, &y0, &x0);
        switch (g->pc) {
        case PC_TX:   gm_emit(in, GM_OP_ALU, LANES, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_BX:   gm_emit(in, GM_OP_ALU, LANES, R_BX, R_NONE, R_NONE, R_NONE); break;
        case PC_BASE: gm_emit(in, GM_OP_ALU, LANES, R_BASE, R_BX, R_NONE, R_NONE); break;
        case PC_IDX:  gm_emit(in, GM_OP_ALU, LANES, R_IDX, R_BASE, R_TX, R_NONE); break;
        case PC_IN:   gm_emit(in, GM_OP_ALU, LANES, R_IN, R_BASE, R_TX, R_NONE); break;
        case PC_IW:   gm_emit(in, GM_OP_ALU, LANES, R_IW, R_BASE, R_TX, R_NONE); break;
        case PC_INW:  gm_emit(in, GM_OP_ALU, LANES, R_INW, R_BASE, R_NONE, R_NONE); break;
        case PC_ENTRY:
            n--;   /* no instruction: only the order of the two kernels differs */
            g->pc = p->second ? PC_REF_INIT : PC_NW_SETP;
            continue;
        case PC_NW_SETP: gm_emit(in, GM_OP_ALU, LANES, R_P, R_TX, R_NONE, R_NONE); break;
        case PC_NW_BRA:  gm_emit(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE, R_NONE); break;
        case PC_NW_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, 1, R_T, R_INW, R_NONE, 4, 0);
            global_addr(in, p->matrix, base, 0, 0);
            break;
        case PC_NW_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, 1, R_NONE, R_TX, R_T, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, 0, 0, 0, 0);
            break;
        case PC_NW_NEXT:
            n--;
            g->pc = p->second ? PC_W_LD : PC_REF_INIT;
            continue;
        case PC_REF_INIT:
            gm_emit(in, GM_OP_ALU, LANES, R_TY, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_REF_ADDR: gm_emit(in, GM_OP_ALU, LANES, R_GA, R_IDX, R_TY, R_NONE); break;
        case PC_REF_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, LANES, R_T, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            global_addr(in, p->referrence, base + cols * (t + 1) + 1, 1, 0);
            break;
        case PC_REF_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, LANES, R_NONE, R_TY, R_T, 4, 0);
            shared_addr(in, SH_REF, BS, t, 0, 0, 1);
            break;
        case PC_REF_INC: gm_emit(in, GM_OP_ALU, LANES, R_TY, R_TY, R_NONE, R_NONE); break;
        case PC_REF_BRA:
            gm_emit(in, GM_OP_BRANCH, LANES, R_NONE, R_TY, R_NONE, R_NONE);
            g->v[0] = ++t;
            g->pc = t < (int32_t)BS ? PC_REF_ADDR : PC_REF_BAR;
            continue;
        case PC_REF_BAR: gm_emit(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_REF_NEXT:
            n--;
            g->pc = p->second ? PC_NW_SETP : PC_W_LD;
            continue;
        case PC_W_LD:    /* matrix_cuda[index_w + cols*tx] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, LANES, R_T, R_IW, R_NONE, 4, 0);
            global_addr(in, p->matrix, base + cols, cols, 0);
            break;
        case PC_W_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, LANES, R_NONE, R_TX, R_T, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, 1, 1, 0, 0);
            break;
        case PC_W_BAR: gm_emit(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_N_LD:    /* matrix_cuda[index_n] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, LANES, R_T, R_IN, R_NONE, 4, 0);
            global_addr(in, p->matrix, base + 1, 1, 0);
            break;
        case PC_N_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, LANES, R_NONE, R_TX, R_T, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, 0, 0, 1, 1);
            break;
        case PC_N_BAR: gm_emit(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_D_INIT:
            gm_emit(in, GM_OP_ALU, LANES, R_M, R_NONE, R_NONE, R_NONE);
            g->v[0] = tri ? (int32_t)BS - 2 : 0;
            break;
        case PC_D_SETP: gm_emit(in, GM_OP_ALU, LANES, R_P, R_TX, R_M, R_NONE); break;
        case PC_D_BRA:   /* lane 0 (tx = 0 <= m) always takes the body */
            gm_emit(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE, R_NONE);
            break;
        case PC_D_LDS_NW:   /* temp[y-1][x-1] */
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_A, R_M, R_NONE, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, y0 - 1, -1, x0 - 1, 1);
            break;
        case PC_D_LDS_REF:  /* ref[y-1][x-1] */
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_R, R_M, R_NONE, 4, 0);
            shared_addr(in, SH_REF, BS, y0 - 1, -1, x0 - 1, 1);
            break;
        case PC_D_LDS_W:    /* temp[y][x-1] */
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_W, R_M, R_NONE, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, y0, -1, x0 - 1, 1);
            break;
        case PC_D_LDS_N:    /* temp[y-1][x] */
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_N, R_M, R_NONE, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, y0 - 1, -1, x0, 1);
            break;
        case PC_D_ADD:  gm_emit(in, GM_OP_ALU, c, R_A, R_A, R_R, R_NONE); break;
        case PC_D_SUBW: gm_emit(in, GM_OP_ALU, c, R_W, R_W, R_NONE, R_NONE); break;
        case PC_D_SUBN: gm_emit(in, GM_OP_ALU, c, R_N, R_N, R_NONE, R_NONE); break;
        case PC_D_MAX0: gm_emit(in, GM_OP_ALU, c, R_A, R_A, R_W, R_NONE); break;
        case PC_D_MAX1: gm_emit(in, GM_OP_ALU, c, R_A, R_A, R_N, R_NONE); break;
        case PC_D_STS:      /* temp[y][x] */
            gm_emit_mem(in, GM_OP_SHARED_ST, c, R_NONE, R_M, R_A, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, y0, -1, x0, 1);
            break;
        case PC_D_BAR: gm_emit(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_D_INC: gm_emit(in, GM_OP_ALU, LANES, R_M, R_M, R_NONE, R_NONE); break;
        case PC_D_LOOP:
            gm_emit(in, GM_OP_BRANCH, LANES, R_NONE, R_M, R_NONE, R_NONE);
            if (!tri && t < (int32_t)BS - 1) {
                g->v[0] = t + 1;
                g->pc = PC_D_SETP;
            } else if (tri && t > 0) {
                g->v[0] = t - 1;
                g->pc = PC_D_SETP;
            } else if (!tri) {
                g->v[1] = 1;
                g->pc = PC_D_INIT;
            } else {
                g->pc = PC_S_INIT;
            }
            continue;
        case PC_S_INIT:
            gm_emit(in, GM_OP_ALU, LANES, R_TY, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_S_LDS:      /* temp[ty+1][tx+1] */
            gm_emit_mem(in, GM_OP_SHARED_LD, LANES, R_T, R_TY, R_NONE, 4, 0);
            shared_addr(in, SH_TEMP, BS + 1, t + 1, 0, 1, 1);
            break;
        case PC_S_ADDR: gm_emit(in, GM_OP_ALU, LANES, R_GA, R_IDX, R_TY, R_NONE); break;
        case PC_S_ST:       /* matrix_cuda[index + ty*cols] */
            gm_emit_mem(in, GM_OP_GLOBAL_ST, LANES, R_NONE, R_GA, R_T, 4, 0);
            global_addr(in, p->matrix, base + cols * (t + 1) + 1, 1, 0);
            break;
        case PC_S_INC: gm_emit(in, GM_OP_ALU, LANES, R_TY, R_TY, R_NONE, R_NONE); break;
        case PC_S_BRA:
            gm_emit(in, GM_OP_BRANCH, LANES, R_NONE, R_TY, R_NONE, R_NONE);
            g->v[0] = ++t;
            g->pc = t < (int32_t)BS ? PC_S_LDS : PC_EXIT;
            continue;
        case PC_EXIT:
            return gm_gen_exit(g, in, LANES, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_nw_build_dims(gm_workload *w, uint32_t dim, gm_error *err)
{
    /* needle.cu rejects dimensions that are not multiples of 16; the
     * index math is in int */
    if (!dim || dim % BS || dim > 16384)
        return gm_fail(err, "nw: bad dimension %u (a multiple of 16 in 16..16384)", dim);
    uint32_t bw = dim / BS, launches = 2 * bw - 1;
    if (gm_workload_alloc(w, "nw", launches, launches * sizeof(gm_nw_params), err))
        return -1;

    gm_nw_params *lp = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t cols = dim + 1ull;
    uint64_t referrence = gm_devmem_alloc(&mem, 4 * cols * cols);
    uint64_t matrix = gm_devmem_alloc(&mem, 4 * cols * cols);
    for (uint32_t l = 0; l < launches; l++) {
        gm_nw_params *p = &lp[l];
        p->dim = dim;
        p->cols = (uint32_t)cols;
        p->block_width = bw;
        p->second = l >= bw;
        p->i = p->second ? 2 * bw - 1 - l : l + 1;   /* 1..bw, then bw-1..1 */
        p->referrence = referrence;
        p->matrix = matrix;
        gm_kernel_set(&w->kernels[l], p->second ? "needle_cuda_shared_2" : "needle_cuda_shared_1",
                      gm_dim3_make(p->i, 1, 1), gm_dim3_make(BS, 1, 1), p, nw_gen);
    }
    return 0;
}

int gm_nw_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: the run script's `needle 2048 10`; the penalty and the
     * sequences are values only */
    static const uint32_t dim[] = {160, 512, 2048, 2048};

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "nw: bad size %d", (int)size);
    return gm_nw_build_dims(w, dim[size], err);
}
