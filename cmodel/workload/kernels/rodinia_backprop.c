/* Rodinia 3.1 backprop (gpu-app-collection src/cuda/rodinia/3.1/cuda/
 * backprop/{backprop_cuda.cu,backprop_cuda_kernel.cu}) as an address-stream
 * emulator. HEIGHT = WIDTH = 16, hid = 16; grid (1, in/16), block (16,16).
 *
 * bpnn_layerforward_CUDA:
 *   index = (hid+1)*16*by + (hid+1)*ty + tx + 1 + (hid+1);  index_in = 16*by + ty + 1;
 *   if (tx == 0) input_node[ty] = input_cuda[index_in];  __syncthreads();
 *   weight_matrix[ty][tx] = input_hidden_cuda[index];  __syncthreads();
 *   weight_matrix[ty][tx] *= input_node[ty];  __syncthreads();
 *   for (i = 1; i <= log2(16); i++) {
 *       power_two = 2^i;
 *       if (ty % power_two == 0) weight_matrix[ty][tx] += weight_matrix[ty + power_two/2][tx];
 *       __syncthreads();
 *   }
 *   input_hidden_cuda[index] = weight_matrix[ty][tx];  __syncthreads();
 *   if (tx == 0) hidden_partial_sum[by*hid + ty] = weight_matrix[tx][ty];
 *
 * bpnn_adjust_weights_cuda (delta = hidden_delta_cuda, ly = input_cuda,
 * w = input_hidden_cuda, oldw = input_prev_weights_cuda):
 *   index as above;  index_y = 16*by + ty + 1;  index_x = tx + 1;
 *   w[index] += ETA*delta[index_x]*ly[index_y] + MOMENTUM*oldw[index];
 *   oldw[index] = ETA*delta[index_x]*ly[index_y] + MOMENTUM*oldw[index];
 *   __syncthreads();
 *   if (ty == 0 && by == 0) { w[index_x] += ETA*delta[index_x] + MOMENTUM*oldw[index_x];
 *                             oldw[index_x] = ETA*delta[index_x] + MOMENTUM*oldw[index_x]; }
 *
 * A warp holds rows ty = 2w, 2w+1: two runs of 16 floats 17 floats apart,
 * so every weight access touches 2 or 3 lines. ETA and MOMENTUM are double
 * literals (0.3): the updates are DP. No pointer is __restrict__, so after
 * the store to w the second statement loads delta, ly and oldw again.
 * Host memory order: input_cuda, output_hidden_cuda, input_hidden_cuda,
 * hidden_partial_sum (before kernel 1), hidden_delta_cuda,
 * input_prev_weights_cuda (before kernel 2). Read-only: input_cuda in
 * kernel 1; hidden_delta_cuda and input_cuda (ly) in kernel 2.
 * Shared memory: input_node at 0 (64 B), weight_matrix at 64. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define HT 16u   /* HEIGHT = WIDTH = BLOCK_SIZE */
#define SH_NODE 0u
#define SH_WM 64u

enum {   /* registers */
    R_TX, R_TY, R_BY, R_IDX, R_IDXIN, R_SA, R_P, R_IN, R_W, R_WM, R_NODE,
    R_PT, R_A, R_B, R_I, R_WB, R_OA, R_PS,
    R_IDY, R_IDXX, R_D, R_LY, R_OW, R_U, R_WV, R_D2, R_LY2, R_OW2, R_U2
};

enum {   /* layerforward program points */
    F_S2R_TX = 0, F_S2R_TY, F_S2R_BY, F_IDX, F_IDXIN, F_SA,
    F_SETP0, F_BRA0, F_LD_IN, F_STS_IN,
    F_BAR0, F_LD_W, F_STS_W, F_BAR1,
    F_LDS_W, F_LDS_N, F_MUL, F_STS_M, F_BAR2, F_I0,
    F_POW, F_CVT, F_SETP, F_BRA, F_LDS_A, F_LDS_B, F_ADD, F_STS_A, F_BAR3,
    F_INC, F_LSETP, F_LBRA,
    F_LDS_WB, F_ST_W, F_BAR4,
    F_SETP1, F_BRA1, F_LDS_T, F_AP, F_ST_PS,
    F_EXIT, F_DONE
};

enum {   /* adjust_weights program points */
    J_S2R_TX = 0, J_S2R_TY, J_S2R_BY, J_IDX, J_IDY, J_IDXX,
    J_LD_D, J_LD_LY, J_LD_OW, J_DP0, J_DP1, J_DP2, J_LD_W, J_DP3, J_DP4, J_ST_W,
    J_LD_D2, J_LD_LY2, J_LD_OW2, J_DQ0, J_DQ1, J_DQ2, J_DQ3, J_ST_OW,
    J_BAR, J_SETP, J_BRA,
    J_X_LD_D, J_X_LD_OW, J_X_DP0, J_X_DP1, J_X_LD_W, J_X_DP2, J_X_DP3, J_X_ST_W,
    J_X_LD_D2, J_X_LD_OW2, J_X_DQ0, J_X_DQ1, J_X_DQ2, J_X_ST_OW,
    J_EXIT, J_DONE
};

typedef struct lanes {
    int64_t index[GM_WARP_SIZE], sh[GM_WARP_SIZE], shb[GM_WARP_SIZE];
    int64_t node[GM_WARP_SIZE], tr[GM_WARP_SIZE], in[GM_WARP_SIZE], ps[GM_WARP_SIZE];
    int64_t iy[GM_WARP_SIZE], ix[GM_WARP_SIZE];
    uint32_t tx0;   /* lanes with tx == 0 */
    uint32_t ty0;   /* lanes with ty == 0 */
} lanes;

static void lanes_compute(const gm_backprop_params *p, const gm_warp_gen *g, int64_t pt,
                          lanes *L)
{
    int64_t by = g->cta, hid1 = p->hid + 1;   /* grid (1, in/16): cta id = by */
    L->tx0 = L->ty0 = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t tid = g->warp * GM_WARP_SIZE + l;
        int64_t tx = tid % HT, ty = tid / HT;
        L->index[l] = hid1 * HT * by + hid1 * ty + tx + 1 + hid1;
        L->in[l] = HT * by + ty + 1;
        L->iy[l] = HT * by + ty + 1;
        L->ix[l] = tx + 1;
        L->sh[l] = ty * HT + tx;                 /* weight_matrix[ty][tx] */
        L->shb[l] = (ty + pt / 2) * HT + tx;     /* weight_matrix[ty + power_two/2][tx] */
        L->node[l] = ty;                         /* input_node[ty] */
        L->tr[l] = tx * HT + ty;                 /* weight_matrix[tx][ty] */
        L->ps[l] = by * p->hid + ty;
        L->tx0 |= (uint32_t)(tx == 0) << l;
        L->ty0 |= (uint32_t)(ty == 0) << l;
    }
}

/* Lanes with ty % power_two == 0 (ty = 2w for lanes 0-15, 2w+1 for 16-31). */
static uint32_t reduce_mask(uint32_t warp, uint32_t pt)
{
    uint32_t m = 0;
    if ((2 * warp) % pt == 0)
        m |= 0x0000ffffu;
    if ((2 * warp + 1) % pt == 0)
        m |= 0xffff0000u;
    return m;
}

static int forward_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_backprop_params *p = kern->params;
    lanes L;
    int n = 0;

    if (g->pc == F_DONE)
        return 0;
    uint32_t e = gm_warp_exist_mask(HT * HT, g->warp);
    int64_t i = g->v[0];
    uint32_t pt = 1u << (i ? i : 1);   /* power_two of trip i (1..4) */
    lanes_compute(p, g, pt, &L);
    uint32_t t0 = L.tx0;

    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t r = reduce_mask(g->warp, pt);
        switch (g->pc) {
        case F_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case F_S2R_TY: gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case F_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case F_IDX:    gm_emit(in, GM_OP_ALU, e, R_IDX, R_BY, R_TY, R_TX); break;
        case F_IDXIN:  gm_emit(in, GM_OP_ALU, e, R_IDXIN, R_BY, R_TY, R_NONE); break;
        case F_SA:     gm_emit(in, GM_OP_ALU, e, R_SA, R_TY, R_TX, R_NONE); break;
        case F_SETP0:  gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_NONE, R_NONE); break;
        case F_BRA0:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = t0 ? F_LD_IN : F_BAR0;
            continue;
        case F_LD_IN:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, t0, R_IN, R_IDXIN, R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_addr(in, p->input_cuda, L.in, 4);
            break;
        case F_STS_IN:
            gm_emit_mem(in, GM_OP_SHARED_ST, t0, R_NONE, R_TY, R_IN, 4, 0);
            gm_rod_addr(in, SH_NODE, L.node, 4);
            break;
        case F_BAR0: case F_BAR1: case F_BAR2: case F_BAR3: case F_BAR4:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        case F_LD_W:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_W, R_IDX, R_NONE, 4, 0);
            gm_rod_addr(in, p->input_hidden_cuda, L.index, 4);
            break;
        case F_STS_W:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_W, 4, 0);
            gm_rod_addr(in, SH_WM, L.sh, 4);
            break;
        case F_LDS_W:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_WM, R_SA, R_NONE, 4, 0);
            gm_rod_addr(in, SH_WM, L.sh, 4);
            break;
        case F_LDS_N:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_NODE, R_TY, R_NONE, 4, 0);
            gm_rod_addr(in, SH_NODE, L.node, 4);
            break;
        case F_MUL:    gm_emit(in, GM_OP_ALU, e, R_WM, R_WM, R_NODE, R_NONE); break;
        case F_STS_M:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_WM, 4, 0);
            gm_rod_addr(in, SH_WM, L.sh, 4);
            break;
        case F_I0:
            gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = i = 1;
            pt = 2;
            lanes_compute(p, g, pt, &L);
            break;
        case F_POW:    gm_emit(in, GM_OP_SFU, e, R_PT, R_I, R_NONE, R_NONE); break;
        case F_CVT:    gm_emit(in, GM_OP_ALU, e, R_PT, R_PT, R_NONE, R_NONE); break;
        case F_SETP:   gm_emit(in, GM_OP_ALU, e, R_P, R_TY, R_PT, R_NONE); break;
        case F_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = r ? F_LDS_A : F_BAR3;
            continue;
        case F_LDS_A:
            gm_emit_mem(in, GM_OP_SHARED_LD, r, R_A, R_SA, R_NONE, 4, 0);
            gm_rod_addr(in, SH_WM, L.sh, 4);
            break;
        case F_LDS_B:
            gm_emit_mem(in, GM_OP_SHARED_LD, r, R_B, R_SA, R_PT, 4, 0);
            gm_rod_addr(in, SH_WM, L.shb, 4);
            break;
        case F_ADD:    gm_emit(in, GM_OP_ALU, r, R_A, R_A, R_B, R_NONE); break;
        case F_STS_A:
            gm_emit_mem(in, GM_OP_SHARED_ST, r, R_NONE, R_SA, R_A, 4, 0);
            gm_rod_addr(in, SH_WM, L.sh, 4);
            break;
        case F_INC:    gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case F_LSETP:  gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case F_LBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            if (i <= 4) {   /* log2(HEIGHT) */
                pt = 1u << i;
                lanes_compute(p, g, pt, &L);
            }
            g->pc = i <= 4 ? F_POW : F_LDS_WB;
            continue;
        case F_LDS_WB:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_WB, R_SA, R_NONE, 4, 0);
            gm_rod_addr(in, SH_WM, L.sh, 4);
            break;
        case F_ST_W:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_IDX, R_WB, 4, 0);
            gm_rod_addr(in, p->input_hidden_cuda, L.index, 4);
            break;
        case F_SETP1:  gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_NONE, R_NONE); break;
        case F_BRA1:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = t0 ? F_LDS_T : F_EXIT;
            continue;
        case F_LDS_T:   /* weight_matrix[tx][ty] */
            gm_emit_mem(in, GM_OP_SHARED_LD, t0, R_OA, R_TX, R_TY, 4, 0);
            gm_rod_addr(in, SH_WM, L.tr, 4);
            break;
        case F_AP:     gm_emit(in, GM_OP_ALU, t0, R_PS, R_BY, R_TY, R_NONE); break;
        case F_ST_PS:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, t0, R_NONE, R_PS, R_OA, 4, 0);
            gm_rod_addr(in, p->hidden_partial_sum, L.ps, 4);
            break;
        case F_EXIT:
            return gm_gen_exit(g, in, e, F_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, F_DONE, n);
        }
        g->pc++;
    }
    return n;
}

static int adjust_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_backprop_params *p = kern->params;
    lanes L;
    int n = 0;

    if (g->pc == J_DONE)
        return 0;
    uint32_t e = gm_warp_exist_mask(HT * HT, g->warp);
    lanes_compute(p, g, 2, &L);
    /* lanes with ty == 0 && by == 0 */
    uint32_t x = g->cta == 0 ? L.ty0 & e : 0;
    uint64_t delta = p->hidden_delta_cuda, ly = p->input_cuda;
    uint64_t wgt = p->input_hidden_cuda, oldw = p->input_prev_weights_cuda;

    while (n < max) {
        gm_inst *in = &out[n++];
        switch (g->pc) {
        case J_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case J_S2R_TY: gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case J_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case J_IDX:    gm_emit(in, GM_OP_ALU, e, R_IDX, R_BY, R_TY, R_TX); break;
        case J_IDY:    gm_emit(in, GM_OP_ALU, e, R_IDY, R_BY, R_TY, R_NONE); break;
        case J_IDXX:   gm_emit(in, GM_OP_ALU, e, R_IDXX, R_TX, R_NONE, R_NONE); break;
        /* w[index] += ETA*delta[index_x]*ly[index_y] + MOMENTUM*oldw[index] */
        case J_LD_D: case J_LD_D2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, g->pc == J_LD_D ? R_D : R_D2, R_IDXX, R_NONE,
                        4, GM_INST_READ_ONLY);
            gm_rod_addr(in, delta, L.ix, 4);
            break;
        case J_LD_LY: case J_LD_LY2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, g->pc == J_LD_LY ? R_LY : R_LY2, R_IDY,
                        R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_addr(in, ly, L.iy, 4);
            break;
        case J_LD_OW: case J_LD_OW2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, g->pc == J_LD_OW ? R_OW : R_OW2, R_IDX,
                        R_NONE, 4, 0);
            gm_rod_addr(in, oldw, L.index, 4);
            break;
        case J_DP0: gm_emit(in, GM_OP_DP, e, R_U, R_D, R_NONE, R_NONE); break;
        case J_DP1: gm_emit(in, GM_OP_DP, e, R_U, R_U, R_LY, R_NONE); break;
        case J_DP2: gm_emit(in, GM_OP_DP, e, R_U, R_U, R_OW, R_NONE); break;
        case J_LD_W:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_WV, R_IDX, R_NONE, 4, 0);
            gm_rod_addr(in, wgt, L.index, 4);
            break;
        case J_DP3: gm_emit(in, GM_OP_DP, e, R_WV, R_WV, R_U, R_NONE); break;
        case J_DP4: gm_emit(in, GM_OP_DP, e, R_WV, R_WV, R_NONE, R_NONE); break;
        case J_ST_W:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_IDX, R_WV, 4, 0);
            gm_rod_addr(in, wgt, L.index, 4);
            break;
        /* oldw[index] = ETA*delta[index_x]*ly[index_y] + MOMENTUM*oldw[index] */
        case J_DQ0: gm_emit(in, GM_OP_DP, e, R_U2, R_D2, R_NONE, R_NONE); break;
        case J_DQ1: gm_emit(in, GM_OP_DP, e, R_U2, R_U2, R_LY2, R_NONE); break;
        case J_DQ2: gm_emit(in, GM_OP_DP, e, R_U2, R_U2, R_OW2, R_NONE); break;
        case J_DQ3: gm_emit(in, GM_OP_DP, e, R_U2, R_U2, R_NONE, R_NONE); break;
        case J_ST_OW:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_IDX, R_U2, 4, 0);
            gm_rod_addr(in, oldw, L.index, 4);
            break;
        case J_BAR:  gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case J_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_TY, R_BY, R_NONE); break;
        case J_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = x ? J_X_LD_D : J_EXIT;
            continue;
        /* w[index_x] += ETA*delta[index_x] + MOMENTUM*oldw[index_x]; oldw[index_x] = ... */
        case J_X_LD_D: case J_X_LD_D2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, x, g->pc == J_X_LD_D ? R_D : R_D2, R_IDXX,
                        R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_addr(in, delta, L.ix, 4);
            break;
        case J_X_LD_OW: case J_X_LD_OW2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, x, g->pc == J_X_LD_OW ? R_OW : R_OW2, R_IDXX,
                        R_NONE, 4, 0);
            gm_rod_addr(in, oldw, L.ix, 4);
            break;
        case J_X_DP0: gm_emit(in, GM_OP_DP, x, R_U, R_D, R_NONE, R_NONE); break;
        case J_X_DP1: gm_emit(in, GM_OP_DP, x, R_U, R_U, R_OW, R_NONE); break;
        case J_X_LD_W:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, x, R_WV, R_IDXX, R_NONE, 4, 0);
            gm_rod_addr(in, wgt, L.ix, 4);
            break;
        case J_X_DP2: gm_emit(in, GM_OP_DP, x, R_WV, R_WV, R_U, R_NONE); break;
        case J_X_DP3: gm_emit(in, GM_OP_DP, x, R_WV, R_WV, R_NONE, R_NONE); break;
        case J_X_ST_W:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, x, R_NONE, R_IDXX, R_WV, 4, 0);
            gm_rod_addr(in, wgt, L.ix, 4);
            break;
        case J_X_DQ0: gm_emit(in, GM_OP_DP, x, R_U2, R_D2, R_NONE, R_NONE); break;
        case J_X_DQ1: gm_emit(in, GM_OP_DP, x, R_U2, R_U2, R_OW2, R_NONE); break;
        case J_X_DQ2: gm_emit(in, GM_OP_DP, x, R_U2, R_U2, R_NONE, R_NONE); break;
        case J_X_ST_OW:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, x, R_NONE, R_IDXX, R_U2, 4, 0);
            gm_rod_addr(in, oldw, L.ix, 4);
            break;
        case J_EXIT:
            return gm_gen_exit(g, in, e, J_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, J_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_backprop_build_dims(gm_workload *w, uint32_t in, gm_error *err)
{
    const uint32_t hid = HT;
    /* bpnn_train_cuda: num_blocks = in / 16; setup() insists on in % 16 == 0 */
    if (!in || in % HT || in / HT > 65535 || (uint64_t)(in + 1) * (hid + 1) > INT32_MAX / 4)
        return gm_fail(err, "backprop: bad layer size %u (a multiple of 16 is needed)", in);
    if (gm_workload_alloc(w, "backprop", 2, sizeof(gm_backprop_params), err))
        return -1;

    gm_backprop_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint32_t blocks = in / HT;
    p->in = in;
    p->hid = hid;
    p->input_cuda = gm_devmem_alloc(&mem, 4ull * (in + 1));
    p->output_hidden_cuda = gm_devmem_alloc(&mem, 4ull * (hid + 1));
    p->input_hidden_cuda = gm_devmem_alloc(&mem, 4ull * (in + 1) * (hid + 1));
    p->hidden_partial_sum = gm_devmem_alloc(&mem, 4ull * blocks * HT);
    p->hidden_delta_cuda = gm_devmem_alloc(&mem, 4ull * (hid + 1));
    p->input_prev_weights_cuda = gm_devmem_alloc(&mem, 4ull * (in + 1) * (hid + 1));
    gm_dim3 grid = gm_dim3_make(1, blocks, 1), block = gm_dim3_make(HT, HT, 1);
    gm_kernel_set(&w->kernels[0], "bpnn_layerforward_CUDA", grid, block, p, forward_gen);
    gm_kernel_set(&w->kernels[1], "bpnn_adjust_weights_cuda", grid, block, p, adjust_gen);
    return 0;
}

int gm_backprop_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: `backprop 65536` */
    static const uint32_t in[] = {4096, 16384, 65536, 16384};

    (void)seed;   /* weights are values only */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "backprop: bad size %d", (int)size);
    return gm_backprop_build_dims(w, in[size], err);
}
