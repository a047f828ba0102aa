/* The Tango direct-convolution kernels (hnts03/gpu_bench_cuda_11.3
 * Tango/GPU/AlexNet/an_kernel.cu execute3DconvolutionCuda and
 * execute3Dconvolutiongroup2Cuda; Tango/GPU/ResNet/rn_kernel.cu
 * execute3DconvolutionCuda_split) as one address-stream emulator. Both
 * compute, per output point (row, col) of output channel
 * `output = blockIdx.x + out_off`, a window clipped by per-thread loop
 * bounds:
 *
 *   for (feature = feat0; feature < feat0 + nfeat; feature++)
 *     for (i = 0; i < loopr; i++) for (j = 0; j < loopc; j++)
 *       product += in[feature*MAP + i*ROW + j + stride + colstride]
 *                * w[output*K*K*in_output + (feature-feat0)*K*K + i*K + j + K*x_pad + y_pad];
 *
 * GM_TCONV_ALEXNET (execute3DconvolutionCuda, group2 with feat0 = out_off
 * = the first group's counts): row = tx, col = ty, MAP = fr*fc, ROW = fc,
 * and the padding exactly as the source writes it, asymmetric:
 *   colstride = row > pad ? (row-pad)*fr : 0;   stride = col >= pad ? col*sw : 0;
 *   row < pad: x_pad = pad-row, loopr = K-x_pad;  col < pad: y_pad = pad-col, loopc = K-y_pad;
 *   col >= fc-pad: loopc = fc+pad-col;            row >= fr-pad: loopr = fr+pad-row;
 * then product += bias[output]; ReLU; out[output*fr*fc + row*fc + col] = product.
 * (Columns are not shifted by -pad, so the right-edge windows run up to 2
 * elements into the next row, and past the end of the map for the last
 * feature; the emulator reproduces those addresses.)
 *
 * GM_TCONV_SPLIT (execute3DconvolutionCuda_split): row_even = tx*tfactor,
 * col_even = ty*tfactor; if (row_even < fr && col_even < fc) each thread
 * does the tfactor x tfactor points row_even.., col_even.. with
 * MAP = in_fr^2, ROW = in_fr and
 *   colstride = max(0, (row*sw - pad)*in_fr);   stride = max(0, col*sw - pad);
 *   row*sw < pad: x_pad = pad-row*sw, loopr = K-x_pad;  col*sw < pad: likewise;
 *   col*sw >= in_fr-pad: loopc = in_fr-stride;  row*sw >= in_fr-pad: loopr = in_fr-colstride/in_fr;
 *   if (loopc > 0 && loopr > 0) out[output*fr*fc + row*fc + col] = product;
 * no bias.
 *
 * Lanes of a warp differ in row (tx), so input loads are uncoalesced
 * (27 floats apart in AlexNet conv2, tfactor*in_fr floats in ResNet) and
 * weight loads are near-broadcasts (lanes differ only through x_pad/y_pad).
 * Every CTA reads the whole input map: heavy cross-CTA sharing. Read-only:
 * in, w, bias.
 *
 * Per warp, with masks following the per-lane loop bounds (a loop runs
 * while any lane is inside; the lanes whose bound ended wait):
 *   S2R tx, S2R ty, S2R ctaid
 *   SPLIT: IMUL row_even, IMUL col_even, ISETP, BRA (to EXIT if no lane),
 *          MOV row;  per row: MOV col
 *   per point: 8 ALU (colstride, stride, x_pad, y_pad, loopr, loopc, input
 *     and weight offsets), 4 ALU (feature pointers, end, product = 0)
 *     per feature: ISETP loopr > 0, BRA, [MOV i = 0]
 *       per i: 3 ALU (row pointers, j end), ISETP loopc > 0, BRA,
 *         per j: LD in, LD w, FFMA, IADD, IADD, ISETP, BRA;
 *         IADD i, ISETP, BRA
 *       IADD, IADD, ISETP, BRA
 *     ALEXNET: IMAD, LD bias, FADD, FMNMX, IMAD, ST out
 *     SPLIT: ISETP, BRA, [IMAD, ST out], IADD col, ISETP, BRA
 *   SPLIT per row: IADD row, ISETP, BRA
 *   EXIT */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

enum {   /* registers */
    R_TX, R_TY, R_CTA, R_RE, R_CE, R_P, R_ROW, R_COL,
    R_CS, R_ST, R_XPAD, R_YPAD, R_LR, R_LC, R_INB, R_WB,
    R_INF, R_WF, R_FEND, R_ACC, R_I, R_PIN, R_PW, R_JEND,
    R_X, R_W, R_BADDR, R_BIAS, R_OADDR
};

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_CTA,
    PC_RE, PC_CE, PC_GUARD, PC_GUARD_BRA, PC_ROW0,
    PC_COL0,
    PC_CS, PC_ST, PC_XPAD, PC_YPAD, PC_LR, PC_LC, PC_INB, PC_WB,
    PC_INF, PC_WF, PC_FEND, PC_ACC0,
    PC_IGUARD, PC_IGUARD_BRA, PC_I0,
    PC_PIN, PC_PW, PC_JEND, PC_JGUARD, PC_JGUARD_BRA,
    PC_LD_IN, PC_LD_W, PC_FFMA, PC_INC_IN, PC_INC_W, PC_JSETP, PC_JBRA,
    PC_INC_I, PC_ISETP, PC_IBRA,
    PC_INC_INF, PC_INC_WF, PC_FSETP, PC_FBRA,
    /* ALEXNET tail */
    PC_BADDR, PC_LD_BIAS, PC_ADD_BIAS, PC_RELU, PC_OADDR, PC_ST_OUT,
    /* SPLIT tail */
    PC_SPRED, PC_SPRED_BRA, PC_SOADDR, PC_SST, PC_INC_COL, PC_COL_SETP, PC_COL_BRA,
    PC_INC_ROW, PC_ROW_SETP, PC_ROW_BRA,
    PC_EXIT, PC_DONE
};

/* Generator state in gm_warp_gen.v[] */
enum { V_F, V_I, V_J, V_RO, V_CO };

/* Per-lane state of the current output point. */
#define MASKS 32   /* loop trips with a precomputed lane mask */

typedef struct lanes {
    uint32_t exist;
    uint32_t active;                 /* lanes past the SPLIT guard */
    uint32_t rows[MASKS];            /* active lanes with i < loopr, by i */
    uint32_t cols[MASKS];            /* active lanes with j < loopc, by j */
    int64_t loopr[GM_WARP_SIZE], loopc[GM_WARP_SIZE];
    int64_t inoff[GM_WARP_SIZE];     /* stride + colstride */
    int64_t woff[GM_WARP_SIZE];      /* K*x_pad + y_pad */
    int64_t oidx[GM_WARP_SIZE];      /* row*fc + col */
} lanes;

static void point_alexnet(const gm_tconv_params *p, int64_t row, int64_t col, lanes *L,
                          int l)
{
    int64_t pad = p->pad, k = p->kernel, fr = p->fr, fc = p->fc;
    int64_t colstride = row > pad ? (row - pad) * fr : 0;
    int64_t stride = col >= pad ? col * (int64_t)p->stride_width : 0;
    int64_t x_pad = 0, y_pad = 0, loopc = k, loopr = k;
    if (row < pad) {
        x_pad = pad - row;
        loopr = k - x_pad;
    }
    if (col < pad) {
        y_pad = pad - col;
        loopc = k - y_pad;
    }
    if (col >= fc - pad)
        loopc = fc + pad - col;
    if (row >= fr - pad)
        loopr = fr + pad - row;
    L->loopr[l] = loopr;
    L->loopc[l] = loopc;
    L->inoff[l] = stride + colstride;
    L->woff[l] = k * x_pad + y_pad;
    L->oidx[l] = row * fc + col;
}

static void point_split(const gm_tconv_params *p, int64_t row, int64_t col, lanes *L,
                        int l)
{
    int64_t pad = p->pad, k = p->kernel, in_fr = p->in_fr, sw = p->stride_width;
    int64_t colstride = (row * sw - pad) * in_fr;
    int64_t stride = col * sw - pad;
    colstride = colstride < 0 ? 0 : colstride;
    stride = stride < 0 ? 0 : stride;
    int64_t x_pad = 0, y_pad = 0, loopc = k, loopr = k;
    if (row * sw < pad) {
        x_pad = pad - row * sw;
        loopr = k - x_pad;
    }
    if (col * sw < pad) {
        y_pad = pad - col * sw;
        loopc = k - y_pad;
    }
    if (col * sw >= in_fr - pad)
        loopc = in_fr - stride;
    if (row * sw >= in_fr - pad)
        loopr = in_fr - colstride / in_fr;
    L->loopr[l] = loopr;
    L->loopc[l] = loopc;
    L->inoff[l] = stride + colstride;
    L->woff[l] = k * x_pad + y_pad;
    L->oidx[l] = row * (int64_t)p->fc + col;
}

/* Fills L for output point (ro, co) of every lane of the warp. */
static void lanes_compute(const gm_kernel *kern, const gm_tconv_params *p,
                          const gm_warp_gen *g, int64_t ro, int64_t co, lanes *L)
{
    uint32_t bdx = kern->block.x;
    uint32_t threads = gm_kernel_threads_per_cta(kern);
    uint32_t tid = g->warp * GM_WARP_SIZE;
    uint32_t tx = tid % bdx, ty = tid / bdx;
    int split = p->mode == GM_TCONV_SPLIT;

    L->exist = gm_warp_exist_mask(threads, g->warp);
    L->active = 0;
    for (int l = 0; l < GM_WARP_SIZE; l++) {
        L->loopr[l] = L->loopc[l] = 0;
        if (L->exist >> l & 1) {
            if (split) {
                int64_t re = (int64_t)tx * p->tfactor, ce = (int64_t)ty * p->tfactor;
                if (re < (int64_t)p->fr && ce < (int64_t)p->fc) {
                    L->active |= 1u << l;
                    point_split(p, re + ro, ce + co, L, l);
                }
            } else {
                L->active |= 1u << l;
                point_alexnet(p, tx, ty, L, l);
            }
        }
        if (++tx == bdx) {
            tx = 0;
            ty++;
        }
    }
    for (int t = 0; t < MASKS; t++)
        L->rows[t] = L->cols[t] = 0;
    for (int l = 0; l < GM_WARP_SIZE; l++) {
        if (!(L->active >> l & 1))
            continue;
        for (int64_t t = 0; t < L->loopr[l] && t < MASKS; t++)
            L->rows[t] |= 1u << l;
        for (int64_t t = 0; t < L->loopc[l] && t < MASKS; t++)
            L->cols[t] |= 1u << l;
    }
}

/* Active lanes with i < loopr (row loop still running at trip i). */
static uint32_t mask_rows(const lanes *L, int64_t i)
{
    if (i < MASKS)
        return L->rows[i];
    uint32_t m = 0;
    for (int l = 0; l < GM_WARP_SIZE; l++)
        if ((L->active >> l & 1) && i < L->loopr[l])
            m |= 1u << l;
    return m;
}

/* Lanes of m with j < loopc. */
static uint32_t mask_cols(const lanes *L, uint32_t m, int64_t j)
{
    if (j < MASKS)
        return m & L->cols[j];
    uint32_t r = 0;
    for (int l = 0; l < GM_WARP_SIZE; l++)
        if ((m >> l & 1) && j < L->loopc[l])
            r |= 1u << l;
    return r;
}

int gm_tconv_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_tconv_params *p = kern->params;
    int split = p->mode == GM_TCONV_SPLIT;
    uint64_t output = (uint64_t)g->cta % kern->grid.x + p->out_off;
    uint64_t k2 = (uint64_t)p->kernel * p->kernel;
    uint64_t map = split ? (uint64_t)p->in_fr * p->in_fr : (uint64_t)p->fr * p->fc;
    uint64_t rowlen = split ? p->in_fr : p->fc;
    lanes L;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    lanes_compute(kern, p, g, g->v[V_RO], g->v[V_CO], &L);
    uint32_t e = L.exist, a = L.active;

    while (n < max) {
        gm_inst *in = &out[n++];
        int64_t f = g->v[V_F], i = g->v[V_I], j = g->v[V_J];
        uint32_t mi = mask_rows(&L, i);   /* lanes in the i loop at trip i */
        uint32_t rs = split ? R_ROW : R_TX, cs = split ? R_COL : R_TY;
        switch (g->pc) {
        case PC_S2R_TX:  gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_TY:  gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CTA:
            gm_emit(in, GM_OP_ALU, e, R_CTA, R_NONE, R_NONE, R_NONE);
            g->pc = split ? PC_RE : PC_CS;
            continue;
        case PC_RE:      gm_emit(in, GM_OP_ALU, e, R_RE, R_TX, R_NONE, R_NONE); break;
        case PC_CE:      gm_emit(in, GM_OP_ALU, e, R_CE, R_TY, R_NONE, R_NONE); break;
        case PC_GUARD:   gm_emit(in, GM_OP_ALU, e, R_P, R_RE, R_CE, R_NONE); break;
        case PC_GUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = a ? PC_ROW0 : PC_EXIT;
            continue;
        case PC_ROW0:    gm_emit(in, GM_OP_ALU, a, R_ROW, R_RE, R_NONE, R_NONE); break;
        case PC_COL0:    gm_emit(in, GM_OP_ALU, a, R_COL, R_CE, R_NONE, R_NONE); break;
        case PC_CS:      gm_emit(in, GM_OP_ALU, a, R_CS, rs, R_NONE, R_NONE); break;
        case PC_ST:      gm_emit(in, GM_OP_ALU, a, R_ST, cs, R_NONE, R_NONE); break;
        case PC_XPAD:    gm_emit(in, GM_OP_ALU, a, R_XPAD, rs, R_NONE, R_NONE); break;
        case PC_YPAD:    gm_emit(in, GM_OP_ALU, a, R_YPAD, cs, R_NONE, R_NONE); break;
        case PC_LR:      gm_emit(in, GM_OP_ALU, a, R_LR, rs, R_XPAD, R_CS); break;
        case PC_LC:      gm_emit(in, GM_OP_ALU, a, R_LC, cs, R_YPAD, R_ST); break;
        case PC_INB:     gm_emit(in, GM_OP_ALU, a, R_INB, R_CS, R_ST, R_NONE); break;
        case PC_WB:      gm_emit(in, GM_OP_ALU, a, R_WB, R_CTA, R_XPAD, R_YPAD); break;
        case PC_INF:     gm_emit(in, GM_OP_ALU, a, R_INF, R_INB, R_NONE, R_NONE); break;
        case PC_WF:      gm_emit(in, GM_OP_ALU, a, R_WF, R_WB, R_NONE, R_NONE); break;
        case PC_FEND:    gm_emit(in, GM_OP_ALU, a, R_FEND, R_INF, R_NONE, R_NONE); break;
        case PC_ACC0:
            gm_emit(in, GM_OP_ALU, a, R_ACC, R_NONE, R_NONE, R_NONE);
            g->v[V_F] = 0;
            break;
        case PC_IGUARD:  gm_emit(in, GM_OP_ALU, a, R_P, R_LR, R_NONE, R_NONE); break;
        case PC_IGUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_I] = 0;
            g->pc = mask_rows(&L, 0) ? PC_I0 : PC_INC_INF;
            continue;
        case PC_I0:      gm_emit(in, GM_OP_ALU, mi, R_I, R_NONE, R_NONE, R_NONE); break;
        case PC_PIN:     gm_emit(in, GM_OP_ALU, mi, R_PIN, R_INF, R_NONE, R_NONE); break;
        case PC_PW:      gm_emit(in, GM_OP_ALU, mi, R_PW, R_WF, R_NONE, R_NONE); break;
        case PC_JEND:    gm_emit(in, GM_OP_ALU, mi, R_JEND, R_PIN, R_LC, R_NONE); break;
        case PC_JGUARD:  gm_emit(in, GM_OP_ALU, mi, R_P, R_LC, R_NONE, R_NONE); break;
        case PC_JGUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, mi, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_J] = 0;
            g->pc = mask_cols(&L, mi, 0) ? PC_LD_IN : PC_INC_I;
            continue;
        case PC_LD_IN:
        case PC_LD_W: {
            uint32_t mj = mask_cols(&L, mi, j);
            int is_in = g->pc == PC_LD_IN;
            gm_emit_mem(in, GM_OP_GLOBAL_LD, mj, is_in ? R_X : R_W, is_in ? R_PIN : R_PW,
                        R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++) {
                if (!(mj >> l & 1)) {
                    in->addr[l] = 0;
                    continue;
                }
                if (is_in)
                    in->addr[l] = p->in + 4 * ((p->feat0 + (uint64_t)f) * map +
                                               (uint64_t)i * rowlen + (uint64_t)j +
                                               (uint64_t)L.inoff[l]);
                else
                    in->addr[l] = p->w + 4 * (output * k2 * p->in_output + (uint64_t)f * k2 +
                                              (uint64_t)i * p->kernel + (uint64_t)j +
                                              (uint64_t)L.woff[l]);
            }
            break;
        }
        case PC_FFMA:
            gm_emit(in, GM_OP_ALU, mask_cols(&L, mi, j), R_ACC, R_X, R_W, R_ACC);
            break;
        case PC_INC_IN:
            gm_emit(in, GM_OP_ALU, mask_cols(&L, mi, j), R_PIN, R_PIN, R_NONE, R_NONE);
            break;
        case PC_INC_W:
            gm_emit(in, GM_OP_ALU, mask_cols(&L, mi, j), R_PW, R_PW, R_NONE, R_NONE);
            break;
        case PC_JSETP:
            gm_emit(in, GM_OP_ALU, mask_cols(&L, mi, j), R_P, R_PIN, R_JEND, R_NONE);
            break;
        case PC_JBRA:
            gm_emit(in, GM_OP_BRANCH, mask_cols(&L, mi, j), R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_J] = ++j;
            g->pc = mask_cols(&L, mi, j) ? PC_LD_IN : PC_INC_I;
            continue;
        case PC_INC_I:   gm_emit(in, GM_OP_ALU, mi, R_I, R_I, R_NONE, R_NONE); break;
        case PC_ISETP:   gm_emit(in, GM_OP_ALU, mi, R_P, R_I, R_LR, R_NONE); break;
        case PC_IBRA:
            gm_emit(in, GM_OP_BRANCH, mi, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_I] = ++i;
            g->pc = mask_rows(&L, i) ? PC_PIN : PC_INC_INF;
            continue;
        case PC_INC_INF: gm_emit(in, GM_OP_ALU, a, R_INF, R_INF, R_NONE, R_NONE); break;
        case PC_INC_WF:  gm_emit(in, GM_OP_ALU, a, R_WF, R_WF, R_NONE, R_NONE); break;
        case PC_FSETP:   gm_emit(in, GM_OP_ALU, a, R_P, R_INF, R_FEND, R_NONE); break;
        case PC_FBRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_F] = ++f;
            g->pc = f < (int64_t)p->nfeat ? PC_IGUARD : split ? PC_SPRED : PC_BADDR;
            continue;
        /* ALEXNET: bias, ReLU, store */
        case PC_BADDR:   gm_emit(in, GM_OP_ALU, a, R_BADDR, R_CTA, R_NONE, R_NONE); break;
        case PC_LD_BIAS:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, a, R_BIAS, R_BADDR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1) ? p->bias + 4 * output : 0;
            break;
        case PC_ADD_BIAS: gm_emit(in, GM_OP_ALU, a, R_ACC, R_ACC, R_BIAS, R_NONE); break;
        case PC_RELU:    gm_emit(in, GM_OP_ALU, a, R_ACC, R_ACC, R_NONE, R_NONE); break;
        case PC_OADDR:   gm_emit(in, GM_OP_ALU, a, R_OADDR, R_TX, R_TY, R_CTA); break;
        case PC_ST_OUT:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, a, R_NONE, R_OADDR, R_ACC, 4, 0);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1)
                                  ? p->out + 4 * (output * p->fr * p->fc + (uint64_t)L.oidx[l])
                                  : 0;
            g->pc = PC_EXIT;
            continue;
        /* SPLIT: conditional store, then the col and row loops */
        case PC_SPRED:   gm_emit(in, GM_OP_ALU, a, R_P, R_LR, R_LC, R_NONE); break;
        case PC_SPRED_BRA: {
            uint32_t sm = 0;
            for (int l = 0; l < GM_WARP_SIZE; l++)
                if ((a >> l & 1) && L.loopr[l] > 0 && L.loopc[l] > 0)
                    sm |= 1u << l;
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = sm ? PC_SOADDR : PC_INC_COL;
            continue;
        }
        case PC_SOADDR:
        case PC_SST: {
            uint32_t sm = 0;
            for (int l = 0; l < GM_WARP_SIZE; l++)
                if ((a >> l & 1) && L.loopr[l] > 0 && L.loopc[l] > 0)
                    sm |= 1u << l;
            if (g->pc == PC_SOADDR) {
                gm_emit(in, GM_OP_ALU, sm, R_OADDR, R_ROW, R_COL, R_CTA);
                break;
            }
            gm_emit_mem(in, GM_OP_GLOBAL_ST, sm, R_NONE, R_OADDR, R_ACC, 4, 0);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (sm >> l & 1)
                                  ? p->out + 4 * (output * p->fr * p->fc + (uint64_t)L.oidx[l])
                                  : 0;
            break;
        }
        case PC_INC_COL: gm_emit(in, GM_OP_ALU, a, R_COL, R_COL, R_NONE, R_NONE); break;
        case PC_COL_SETP: gm_emit(in, GM_OP_ALU, a, R_P, R_COL, R_CE, R_NONE); break;
        case PC_COL_BRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_CO]++;
            if (g->v[V_CO] < (int64_t)p->tfactor) {
                g->pc = PC_CS;
            } else {
                g->v[V_CO] = 0;
                g->pc = PC_INC_ROW;
            }
            /* the next output point has other lane bounds */
            return n;
        case PC_INC_ROW: gm_emit(in, GM_OP_ALU, a, R_ROW, R_ROW, R_NONE, R_NONE); break;
        case PC_ROW_SETP: gm_emit(in, GM_OP_ALU, a, R_P, R_ROW, R_RE, R_NONE); break;
        case PC_ROW_BRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_RO]++;
            g->pc = g->v[V_RO] < (int64_t)p->tfactor ? PC_COL0 : PC_EXIT;
            return n;
        case PC_EXIT:
            return gm_gen_exit(g, in, e, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}
