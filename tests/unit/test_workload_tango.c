/* Tango workload tests (alexnet, resnet, squeezenet). Every stream is
 * checked against expectations derived from the CUDA source of its kernels
 * (docs/workloads/tango.md), not from the generator's output:
 *   - per-opcode warp instruction counts from the documented instruction
 *     mix and the per-thread loop bounds of the source (a loop runs for the
 *     largest bound among the warp's lanes), summed over warps;
 *   - per element of every array, how many lanes load and store it: a
 *     scalar transliteration of each CUDA kernel, run over every thread of
 *     the grid, is the reference (including the AlexNet conv2 reads past
 *     the end of its input map, which the test bounds);
 *   - per array, warp loads and stores, and distinct 128 B lines;
 *   - lines and 32 B sectors per warp memory instruction where the shape
 *     has a closed form (conv1 (32,32) launch, SqueezeNet);
 *   - every address inside its array's allocation (cudaMalloc order,
 *     0x10000000 upwards, 4 KiB aligned), element-aligned, the right width
 *     (8 B for SqueezeNet's doubles);
 *   - the read-only flag exactly on loads of arrays the kernel never stores;
 *   - register def-use and the warp contract.
 * A golden FNV-1a hash over each tiny stream then guards against any
 * unintended change; it is pinned only because the checks above pass.
 * Last, every workload runs at size tiny through the whole simulator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "system/system.h"
#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/kernels/kernels_polybench_tango.h"
#include "workload/walk.h"
#include "workload/workload.h"
#include "workload_arraycheck.h"
#include "workload_simlib.h"
#include "workload_testlib.h"

/* ------------------------------------------------ direct convolutions */

/* Per-lane loop bounds of one output point of one warp. */
typedef struct bounds {
    uint32_t mask;   /* lanes computing the point */
    int64_t loopr[GM_WARP_SIZE], loopc[GM_WARP_SIZE];
} bounds;

/* Instructions of one trip of the feature loop (tango_conv.c's documented
 * mix): ISETP, BRA, MOV i = 0 if a lane enters the row loop; per row
 * trip i while a lane has i < loopr: 3 ALU,
 * ISETP, BRA, then for the largest loopc among those lanes (LD in, LD w,
 * FFMA, IADD, IADD, ISETP, BRA), then IADD, ISETP, BRA; then IADD, IADD,
 * ISETP, BRA. */
static void feature_trip(const bounds *b, uint64_t *alu, uint64_t *br, uint64_t *ld)
{
    int64_t maxr = 0;
    for (int l = 0; l < GM_WARP_SIZE; l++)
        if ((b->mask >> l & 1) && b->loopr[l] > maxr)
            maxr = b->loopr[l];
    *alu = 1 + 3 + (maxr > 0);
    *br = 1 + 1;
    *ld = 0;
    for (int64_t i = 0; i < maxr; i++) {
        int64_t jt = 0;
        for (int l = 0; l < GM_WARP_SIZE; l++)
            if ((b->mask >> l & 1) && i < b->loopr[l] && b->loopc[l] > jt)
                jt = b->loopc[l];
        *alu += 3 + 1 + 4 * (uint64_t)jt + 2;
        *br += 1 + (uint64_t)jt + 1;
        *ld += 2 * (uint64_t)jt;
    }
}

/* The padding of execute3DconvolutionCuda / execute3Dconvolutiongroup2Cuda,
 * as an_kernel.cu writes it. */
typedef struct win {
    int64_t colstride, stride, x_pad, y_pad, loopr, loopc;
} win;

static win an_window(int64_t row, int64_t col, int64_t fr, int64_t fc, int64_t sw,
                     int64_t kernel, int64_t pad)
{
    win v = {0, 0, 0, 0, kernel, kernel};
    if (row > pad)
        v.colstride = (row - pad) * fr;
    if (col >= pad)
        v.stride = col * sw;
    if (row < pad) {
        v.x_pad = pad - row;
        v.loopr = kernel - v.x_pad;
    }
    if (col < pad) {
        v.y_pad = pad - col;
        v.loopc = kernel - v.y_pad;
    }
    if (col >= fc - pad)
        v.loopc = fc + pad - col;
    if (row >= fr - pad)
        v.loopr = fr + pad - row;
    return v;
}

/* The padding of execute3DconvolutionCuda_split, as rn_kernel.cu writes it. */
static win rn_window(int64_t row, int64_t col, int64_t in_fr, int64_t sw, int64_t kernel,
                     int64_t pad)
{
    win v = {0, 0, 0, 0, kernel, kernel};
    v.colstride = (row * sw - pad) * in_fr;
    v.colstride = v.colstride < 0 ? 0 : v.colstride;
    v.stride = col * sw - pad;
    v.stride = v.stride < 0 ? 0 : v.stride;
    if (row * sw < pad) {
        v.x_pad = pad - row * sw;
        v.loopr = kernel - v.x_pad;
    }
    if (col * sw < pad) {
        v.y_pad = pad - col * sw;
        v.loopc = kernel - v.y_pad;
    }
    if (col * sw >= in_fr - pad)
        v.loopc = in_fr - v.stride;
    if (row * sw >= in_fr - pad)
        v.loopr = in_fr - v.colstride / in_fr;
    return v;
}

/* ---------------------------------------------------------------- AlexNet */

enum { AN_IMG, AN_W1, AN_B1, AN_NORM1, AN_POOL1, AN_IN2, AN_W2, AN_B2, AN_OUT2, AN_N };

static void alexnet_layout(check *c, uint32_t c1, uint32_t c2, uint32_t f2)
{
    static const char *const names[AN_N] = {
        "Layer1_Neurons", "Layer1_Weights", "Layer1_bias", "Layer1_Norm", "Layer1_pool",
        "Layer2_Neurons", "Layer2_Weights", "Layer2_bias", "Layer2_Norm"};
    static const uint32_t elem[AN_N] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
    /* alexnet_host.cu: INPUT_SIZE, L1_KERNEL_SIZE*L1_OUT, L1_OUT,
     * L1_OUT*L1_FMAP (x2), L1_OUT*POOL1_FMAP, L2_KERNEL_SIZE*L2_OUT,
     * L2_OUT, L2_OUT*L2_FMAP; conv2 has two groups of f2 inputs, c2 outputs */
    uint64_t bytes[AN_N] = {4ull * 227 * 227 * 3, 4ull * 11 * 11 * 3 * c1, 4ull * c1,
                            4ull * c1 * 55 * 55,  4ull * c1 * 55 * 55,    4ull * 2 * f2 * 27 * 27,
                            4ull * 5 * 5 * f2 * 2 * c2, 4ull * 2 * c2, 4ull * 2 * c2 * 27 * 27};
    layout(c, names, bytes, elem, AN_N);
}

/* One executeFirstLayer launch: block (bdx, bdy) at offsets (roff, coff). */
static void an_conv1_check(const gm_kernel *k, check *c, uint32_t c1, uint32_t bdx,
                           uint32_t bdy, uint32_t roff, uint32_t coff)
{
    const gm_an_conv1_params *p = k->params;
    expect e;

    assert_int_equal(p->in, c->arr[AN_IMG].base);
    assert_int_equal(p->w, c->arr[AN_W1].base);
    assert_int_equal(p->bias, c->arr[AN_B1].base);
    assert_int_equal(p->out, c->arr[AN_NORM1].base);
    assert_int_equal(k->grid.x, c1);
    assert_int_equal(k->grid.y, 1);
    assert_int_equal(k->block.x, bdx);
    assert_int_equal(k->block.y, bdy);

    threads_reset(c, (uint64_t)c1 * bdx * bdy);
    for (int64_t output = 0; output < c1; output++)
        for (int64_t ty = 0; ty < bdy; ty++)
            for (int64_t tx = 0; tx < bdx; tx++) {
                int64_t row = tx + roff, col = ty + coff;
                ref_thread(c, k, (uint64_t)output, (uint64_t)(ty * bdx + tx));
                int64_t colstride = 3 * row * 4 * 227, stride = col * 4 * 3;
                for (int64_t i = 0; i < 11; i++)
                    for (int64_t j = 0; j < 11; j++)
                        for (int64_t ch = 0; ch < 3; ch++) {
                            ref_ld(c, AN_IMG, i * 227 * 3 + j * 3 + ch + stride + colstride);
                            ref_ld(c, AN_W1, i * 11 + ch * 11 * 11 + j + output * 11 * 11 * 3);
                        }
                ref_ld(c, AN_B1, output);
                ref_st(c, AN_NORM1, output * 55 * 55 + row * 55 + col);
            }

    uint64_t warps = (uint64_t)c1 * ((bdx * bdy + 31) / 32);
    memset(&e, 0, sizeof e);
    /* 9 ALU; 11 x (3 ALU; 11 x (6 LD, FMUL, FFMA, FFMA, FADD, IADD, IADD,
     * ISETP, BRA); IADD, IADD, ISETP, BRA); IMAD, LD, FADD, FMNMX, IMAD,
     * ST; EXIT */
    e.op[GM_OP_ALU] = warps * (9 + 11 * (3 + 11 * 7 + 3) + 4);
    e.op[GM_OP_BRANCH] = warps * 11 * (11 + 1);
    e.op[GM_OP_GLOBAL_LD] = warps * (11 * 11 * 6 + 1);
    e.op[GM_OP_GLOBAL_ST] = warps;
    e.op[GM_OP_EXIT] = warps;
    if (bdx == 32) {
        /* a warp is one column, rows 0..31: image lanes 2724 floats apart
         * (32 lines of 1 sector), weights and bias broadcast, the store 55
         * floats apart (32 lines) */
        e.check_coalescing = 1;
        e.ld_lines = e.ld_sectors = warps * (363 * 32 + 363 + 1);
        e.st_lines = e.st_sectors = warps * 32;
    }
    c->arr[AN_IMG].exp_ld_insts = warps * 363;
    c->arr[AN_W1].exp_ld_insts = warps * 363;
    c->arr[AN_B1].exp_ld_insts = warps;
    c->arr[AN_NORM1].exp_st_insts = warps;
    c->arr[AN_IMG].exp_lines = DERIVE;
    c->arr[AN_W1].exp_lines = all_lines(&c->arr[AN_W1]);   /* each CTA its 363 */
    c->arr[AN_B1].exp_lines = all_lines(&c->arr[AN_B1]);
    c->arr[AN_NORM1].exp_lines = DERIVE;
    check_kernel(k, c, &e);
}

/* execute3DconvolutionCuda (group 0) or execute3Dconvolutiongroup2Cuda
 * (group 1): 27x27 map, 5x5 kernel, pad 2, stride 1, f2 features. */
static void an_conv2_check(const gm_kernel *k, check *c, uint32_t c2, uint32_t f2, int group)
{
    const gm_tconv_params *p = k->params;
    const int64_t fr = 27, fc = 27, kern = 5, pad = 2;
    int64_t out_off = group ? c2 : 0, f0 = group ? f2 : 0;
    uint64_t in_end = c->arr[AN_IN2].bytes / 4, over = 0, over_max = 0;
    expect e;

    assert_int_equal(p->mode, GM_TCONV_ALEXNET);
    assert_int_equal(p->in, c->arr[AN_IN2].base);
    assert_int_equal(p->w, c->arr[AN_W2].base);
    assert_int_equal(p->bias, c->arr[AN_B2].base);
    assert_int_equal(p->out, c->arr[AN_OUT2].base);
    assert_int_equal(k->grid.x, c2);
    assert_int_equal(k->block.x, 27);
    assert_int_equal(k->block.y, 27);

    threads_reset(c, (uint64_t)c2 * 27 * 27);
    for (int64_t bx = 0; bx < c2; bx++) {
        int64_t output = bx + out_off;
        for (int64_t ty = 0; ty < 27; ty++)
            for (int64_t tx = 0; tx < 27; tx++) {
                int64_t row = tx, col = ty;
                ref_thread(c, k, (uint64_t)bx, (uint64_t)(ty * 27 + tx));
                win v = an_window(row, col, fr, fc, 1, kern, pad);
                for (int64_t feature = f0; feature < f0 + f2; feature++)
                    for (int64_t i = 0; i < v.loopr; i++)
                        for (int64_t j = 0; j < v.loopc; j++) {
                            int64_t idx = feature * fr * fc + i * fc + j + v.stride + v.colstride;
                            ref_ld(c, AN_IN2, idx);
                            if ((uint64_t)idx >= in_end) {
                                over++;
                                over_max = (uint64_t)idx > over_max ? (uint64_t)idx : over_max;
                            }
                            ref_ld(c, AN_W2,
                                   output * kern * kern * f2 + (feature - f0) * kern * kern +
                                       i * kern + j + kern * v.x_pad + v.y_pad);
                        }
                ref_ld(c, AN_B2, output);
                ref_st(c, AN_OUT2, output * fr * fc + row * fc + col);
            }
    }
    /* The unshifted right-edge windows (stride = col, loopc up to fc+pad-col)
     * run up to two elements past the end of the last feature map: only in
     * group 2, whose features end the array, and inside the allocation. */
    if (group) {
        assert_true(over > 0);
        assert_true(over_max < in_end + 2);
    } else {
        assert_int_equal(over, 0);
    }

    uint64_t warps = (uint64_t)c2 * 23, per_cta_ld = 0;
    memset(&e, 0, sizeof e);
    for (uint32_t w = 0; w < 23; w++) {
        bounds b = {0};
        for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
            uint32_t tid = w * 32 + l;
            if (tid >= 27 * 27)
                continue;
            win v = an_window(tid % 27, tid / 27, fr, fc, 1, kern, pad);
            b.mask |= 1u << l;
            b.loopr[l] = v.loopr;
            b.loopc[l] = v.loopc;
        }
        uint64_t alu, br, ld;
        feature_trip(&b, &alu, &br, &ld);
        /* S2R x3; 12 ALU; f2 feature trips; IMAD, LD bias, FADD, FMNMX,
         * IMAD, ST; EXIT */
        e.op[GM_OP_ALU] += c2 * (3 + 12 + f2 * alu + 4);
        e.op[GM_OP_BRANCH] += c2 * f2 * br;
        e.op[GM_OP_GLOBAL_LD] += c2 * (f2 * ld + 1);
        per_cta_ld += f2 * ld / 2;
    }
    e.op[GM_OP_GLOBAL_ST] = warps;
    e.op[GM_OP_EXIT] = warps;
    e.overrun = over;
    c->arr[AN_IN2].exp_ld_insts = c2 * per_cta_ld;
    c->arr[AN_W2].exp_ld_insts = c2 * per_cta_ld;
    c->arr[AN_B2].exp_ld_insts = warps;
    c->arr[AN_OUT2].exp_st_insts = warps;
    c->arr[AN_IN2].exp_lines = DERIVE;
    c->arr[AN_W2].exp_lines = DERIVE;
    c->arr[AN_B2].exp_lines = DERIVE;
    c->arr[AN_OUT2].exp_lines = DERIVE;
    check_kernel(k, c, &e);
}

static void alexnet_check(const gm_workload *w, uint32_t c1, uint32_t c2, uint32_t f2)
{
    static const uint32_t bdx[4] = {32, 32, 23, 23}, bdy[4] = {32, 23, 32, 23};
    static const uint32_t roff[4] = {0, 0, 32, 32}, coff[4] = {0, 32, 0, 32};
    check c;

    assert_int_equal(w->nkernels, 6);
    alexnet_layout(&c, c1, c2, f2);
    for (int l = 0; l < 4; l++) {
        assert_string_equal(w->kernels[l].name, "executeFirstLayer");
        an_conv1_check(&w->kernels[l], &c, c1, bdx[l], bdy[l], roff[l], coff[l]);
    }
    assert_string_equal(w->kernels[4].name, "execute3DconvolutionCuda");
    assert_string_equal(w->kernels[5].name, "execute3Dconvolutiongroup2Cuda");
    an_conv2_check(&w->kernels[4], &c, c2, f2, 0);
    an_conv2_check(&w->kernels[5], &c, c2, f2, 1);
    arrays_free(&c);
}

static void test_alexnet_tiny(void **state)
{
    (void)state;
    gm_workload w = build_named("alexnet", GM_SIZE_TINY);
    const gm_alexnet_params *p = w.priv;
    assert_int_equal(p->c1, 1);
    alexnet_check(&w, 1, 4, 1);
    gm_workload_free(&w);
}

/* Two conv1 channels and three conv2 features per group: several CTAs per
 * launch and a feature loop with more than one trip. */
static void test_alexnet_dims(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_alexnet_build_dims(&w, 2, 3, 3, &err), 0);
    alexnet_check(&w, 2, 3, 3);
    gm_workload_free(&w);
    assert_int_not_equal(gm_alexnet_build_dims(&w, 0, 3, 3, &err), 0);
}

/* ---------------------------------------------------------------- ResNet */

enum {
    RN_MEAN0, RN_VAR0, RN_SCALE0, RN_BIAS0, RN_W1, RN_N2, RN_IMG, RN_POOL, RN_L2C,
    RN_MEAN, RN_VAR, RN_SCALE, RN_BIAS, RN_W2A, RN_W2B, RN_W2C, RN_N2A, RN_N2B, RN_ELT,
    RN_N
};

/* One execute3DconvolutionCuda_split launch on the 56x56 maps, tfactor 2. */
static void rn_split_check(const gm_kernel *k, check *c, uint32_t outs, int64_t kern,
                           int64_t pad, uint32_t nin, int ain, int aw, int aout)
{
    const gm_tconv_params *p = k->params;
    const int64_t side = 56, tf = 2;
    expect e;

    assert_int_equal(p->mode, GM_TCONV_SPLIT);
    assert_int_equal(p->in, c->arr[ain].base);
    assert_int_equal(p->w, c->arr[aw].base);
    assert_int_equal(p->out, c->arr[aout].base);
    assert_int_equal(k->grid.x, outs);
    assert_int_equal(k->block.x, 32);
    assert_int_equal(k->block.y, 32);

    threads_reset(c, (uint64_t)outs * 32 * 32);
    for (int64_t output = 0; output < outs; output++)
        for (int64_t ty = 0; ty < 32; ty++)
            for (int64_t tx = 0; tx < 32; tx++) {
                int64_t re = tx * tf, ce = ty * tf;
                if (!(re < side && ce < side))
                    continue;
                ref_thread(c, k, (uint64_t)output, (uint64_t)(ty * 32 + tx));
                for (int64_t row = re; row < re + tf; row++)
                    for (int64_t col = ce; col < ce + tf; col++) {
                        win v = rn_window(row, col, side, 1, kern, pad);
                        for (int64_t f = 0; f < nin; f++)
                            for (int64_t i = 0; i < v.loopr; i++)
                                for (int64_t j = 0; j < v.loopc; j++) {
                                    ref_ld(c, ain, f * side * side + i * side + j + v.stride +
                                                       v.colstride);
                                    ref_ld(c, aw, output * kern * kern * nin + f * kern * kern +
                                                      i * kern + j + kern * v.x_pad + v.y_pad);
                                }
                        if (v.loopc > 0 && v.loopr > 0)
                            ref_st(c, aout, output * side * side + row * side + col);
                    }
            }

    uint64_t in_insts = 0, st_insts = 0;
    memset(&e, 0, sizeof e);
    for (uint32_t w = 0; w < 32; w++) {   /* warp w is ty = w, lane l is tx = l */
        /* S2R x3, IMUL, IMUL, ISETP, BRA; EXIT */
        e.op[GM_OP_ALU] += outs * 6ull;
        e.op[GM_OP_BRANCH] += outs;
        e.op[GM_OP_EXIT] += outs;
        if (!((int64_t)w * tf < side))
            continue;
        e.op[GM_OP_ALU] += outs;   /* MOV row */
        for (int64_t ro = 0; ro < tf; ro++) {
            e.op[GM_OP_ALU] += outs;   /* MOV col */
            for (int64_t co = 0; co < tf; co++) {
                bounds b = {0};
                int store = 0;
                for (int64_t l = 0; l < GM_WARP_SIZE; l++) {
                    if (!(l * tf < side))
                        continue;
                    win v = rn_window(l * tf + ro, (int64_t)w * tf + co, side, 1, kern, pad);
                    b.mask |= 1u << l;
                    b.loopr[l] = v.loopr;
                    b.loopc[l] = v.loopc;
                    store |= v.loopr > 0 && v.loopc > 0;
                }
                uint64_t alu, br, ld;
                feature_trip(&b, &alu, &br, &ld);
                /* 12 ALU; nin feature trips; ISETP, BRA, [IMAD, ST]; IADD,
                 * ISETP, BRA */
                e.op[GM_OP_ALU] += outs * (12 + nin * alu + 1 + (uint64_t)store + 2);
                e.op[GM_OP_BRANCH] += outs * (nin * br + 1 + 1);
                e.op[GM_OP_GLOBAL_LD] += outs * nin * ld;
                e.op[GM_OP_GLOBAL_ST] += outs * (uint64_t)store;
                in_insts += outs * nin * ld / 2;
                st_insts += outs * (uint64_t)store;
            }
            e.op[GM_OP_ALU] += outs * 2ull;   /* IADD row, ISETP */
            e.op[GM_OP_BRANCH] += outs;
        }
    }
    c->arr[ain].exp_ld_insts = in_insts;
    c->arr[aw].exp_ld_insts = in_insts;
    c->arr[aout].exp_st_insts = st_insts;
    /* every element of the input maps and of this launch's weights; every
     * output point */
    c->arr[ain].exp_lines = all_lines(&c->arr[ain]);
    c->arr[aw].exp_lines = DERIVE;
    c->arr[aout].exp_lines = DERIVE;
    check_kernel(k, c, &e);
}

static void resnet_check(const gm_workload *w, uint32_t ch)
{
    static const char *const names[RN_N] = {
        "mean0", "var0", "scale0", "bias0", "Layer1_Weights", "Layer2_Neurons",
        "Layer1_Neurons", "Layer2_pool", "Layer2c_Neurons", "mean", "var", "scale", "bias",
        "Layer2a_Weights", "Layer2b_Weights", "Layer2c_Weights", "Layer2a_Neurons",
        "Layer2b_Neurons", "Layer_ELtwise_Neurons"};
    uint32_t elem[RN_N];
    uint64_t c = ch, map = 56 * 56;
    /* resnet_host.cu: main() then executeLayer2_CUDA(), 64 -> c */
    uint64_t bytes[RN_N] = {4 * c, 4 * c, 4 * c, 4 * c, 4 * c * 7 * 7 * 3, 4 * c * 112 * 112,
                            4ull * 224 * 224 * 3, 4 * c * map, 4 * 4 * c * map,
                            4 * 4 * c, 4 * 4 * c, 4 * 4 * c, 4 * 4 * c, 4 * c * c,
                            4 * c * c * 9, 4 * 4 * c * c, 4 * c * map, 4 * c * map,
                            4 * 4 * c * map};
    check cc;

    for (int i = 0; i < RN_N; i++)
        elem[i] = 4;
    assert_int_equal(w->nkernels, 4);
    layout(&cc, names, bytes, elem, RN_N);
    rn_split_check(&w->kernels[0], &cc, 4 * ch, 1, 0, ch, RN_POOL, RN_W2C, RN_ELT);
    rn_split_check(&w->kernels[1], &cc, ch, 1, 0, ch, RN_POOL, RN_W2A, RN_N2A);
    rn_split_check(&w->kernels[2], &cc, ch, 3, 1, ch, RN_N2A, RN_W2B, RN_N2B);
    rn_split_check(&w->kernels[3], &cc, 4 * ch, 1, 0, ch, RN_N2B, RN_W2C, RN_L2C);
    arrays_free(&cc);
}

static void test_resnet_tiny(void **state)
{
    (void)state;
    gm_workload w = build_named("resnet", GM_SIZE_TINY);
    assert_int_equal(((const gm_resnet_params *)w.priv)->c, 2);
    resnet_check(&w, 2);
    gm_workload_free(&w);
}

static void test_resnet_dims(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_resnet_build_dims(&w, 3, &err), 0);
    resnet_check(&w, 3);
    gm_workload_free(&w);
    assert_int_not_equal(gm_resnet_build_dims(&w, 0, &err), 0);
}

/* ---------------------------------------------------------------- SqueezeNet */

enum {
    SN_L1F, SN_L1W, SN_R, SN_G, SN_B, SN_POOL, SN_F2SQF, SN_F2SQW, SN_F2F, SN_F2E1W,
    SN_F2E3W, SN_F3SQF, SN_F3SQW, SN_F3F, SN_F3E1W, SN_F3E3W, SN_N
};

/* One fire launch: x = tx, y = bx on the 55x55 map, doubles. out_off is the
 * element offset of the kernel's output pointer in its array. */
static void sn_fire_check(const gm_kernel *k, check *c, int three, uint32_t nf, uint32_t nn,
                          int ain, int aw, int aout, uint64_t out_off)
{
    const gm_sn_fire_params *p = k->params;
    const int64_t s = 55;
    expect e;

    assert_int_equal(p->kind, three ? GM_SN_3X3 : GM_SN_1X1);
    assert_int_equal(p->in, c->arr[ain].base);
    assert_int_equal(p->w, c->arr[aw].base);
    assert_int_equal(p->out, c->arr[aout].base + 8 * out_off);
    assert_int_equal(k->grid.x, 55);
    assert_int_equal(k->block.x, 55);

    threads_reset(c, 55 * 55);
    for (int64_t y = 0; y < s; y++)
        for (int64_t x = 0; x < s; x++) {
            ref_thread(c, k, (uint64_t)y, (uint64_t)x);
            for (int64_t f = 0; f < nf; f++) {
                for (int64_t n = 0; n < nn; n++) {
                    if (!three) {
                        ref_ld(c, ain, n * s * s + x * s + y);
                        ref_ld(c, aw, f * nn + n);
                        continue;
                    }
                    for (int64_t i = x - 1; i <= x + 1; i++)
                        for (int64_t j = y - 1; j <= y + 1; j++) {
                            int64_t m = (j - y + 1) + (i - x + 1) * 3;
                            if (i < 0 || j < 0)
                                continue;
                            if (j > s - 1 || i > s - 1)
                                continue;
                            ref_ld(c, ain, n * s * s + i * s + j);
                            ref_ld(c, aw, m + f * 9 * nn + n * 9);
                        }
                }
                ref_st(c, aout, (int64_t)out_off + f * s * s + x * s + y);
            }
        }

    memset(&e, 0, sizeof e);
    e.check_coalescing = 1;
    uint64_t in_insts = 0;
    for (uint64_t y = 0; y < 55; y++)
        for (uint32_t w = 0; w < 2; w++) {
            uint64_t lanes = w ? 23 : 32;
            uint64_t vdj = 3 - (y == 0) - (y == 54);   /* columns inside the map */
            uint64_t taps = 3 * vdj;                   /* every row offset has a lane */
            /* S2R x2, IMAD x2, MOV, IADD; per f: 4 ALU, body, DSETP, SEL, ST,
             * IADD, IADD, ISETP, BRA; BAR; EXIT */
            e.op[GM_OP_ALU] += 6 + nf * (4 + 1 + 3ull);
            e.op[GM_OP_DP] += nf;
            e.op[GM_OP_GLOBAL_ST] += nf;
            e.op[GM_OP_BRANCH] += nf;
            e.op[GM_OP_BARRIER] += 1;
            e.op[GM_OP_EXIT] += 1;
            e.st_lines += nf * lanes;
            e.st_sectors += nf * lanes;
            if (!three) {
                /* per n: LD in, LD w, DFMA, IADD, IADD, ISETP, BRA; map lanes
                 * 440 B apart (one line each), weight broadcast */
                e.op[GM_OP_GLOBAL_LD] += (uint64_t)nf * nn * 2;
                e.op[GM_OP_ALU] += (uint64_t)nf * nn * 3;
                e.op[GM_OP_DP] += (uint64_t)nf * nn;
                e.op[GM_OP_BRANCH] += (uint64_t)nf * nn;
                e.ld_lines += (uint64_t)nf * nn * (lanes + 1);
                in_insts += (uint64_t)nf * nn;
            } else {
                /* per n: MOV, 9 ISETP, per tap with a lane inside (LD in, LD
                 * w, DFMA), DADD, IADD, IADD, ISETP, BRA; row offsets -1 and
                 * +1 lose x = 0 (warp 0) and x = 54 (warp 1) */
                e.op[GM_OP_GLOBAL_LD] += (uint64_t)nf * nn * 2 * taps;
                e.op[GM_OP_ALU] += (uint64_t)nf * nn * (1 + 9 + 3);
                e.op[GM_OP_DP] += (uint64_t)nf * nn * (taps + 1);
                e.op[GM_OP_BRANCH] += (uint64_t)nf * nn;
                e.ld_lines += (uint64_t)nf * nn * vdj * (3 * lanes - 1 + taps / vdj);
                in_insts += (uint64_t)nf * nn * taps;
            }
        }
    e.ld_sectors = e.ld_lines;   /* 8 B lanes, one sector each */
    c->arr[ain].exp_ld_insts = in_insts;
    c->arr[aw].exp_ld_insts = in_insts;
    c->arr[aout].exp_st_insts = e.op[GM_OP_GLOBAL_ST];
    c->arr[ain].exp_lines = DERIVE;
    c->arr[aw].exp_lines = all_lines(&c->arr[aw]);   /* every weight, by every CTA */
    c->arr[aout].exp_lines = DERIVE;
    check_kernel(k, c, &e);
}

static void squeezenet_check(const gm_workload *w, uint32_t div)
{
    static const char *const names[SN_N] = {
        "Layer1_Features", "Layer1_Weights", "Data_Layer_GPU_R", "Data_Layer_GPU_G",
        "Data_Layer_GPU_B", "Pool_Layer_Features", "fire2squeeze1x1_Features",
        "fire2squeeze1x1_Weights", "fire2_Features", "fire2expand1x1_Weights",
        "fire2expand3x3_Weights", "fire3squeeze1x1_Features", "fire3squeeze1x1_Weights",
        "fire3_Features", "fire3expand1x1_Weights", "fire3expand3x3_Weights"};
    static const uint32_t elem[SN_N] = {8, 8, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    uint64_t c1 = 96 / div, s = 16 / div, e = 64 / div, map = 55 * 55;
    /* SN.cu, NUM = 1: 111*111*96, 14112, 227*227 (int) x3, 290400, then
     * per module 55*55*16, squeeze weights, 55*55*128, 1024, 9216 (96, 16,
     * 64 divided by div) */
    uint64_t bytes[SN_N] = {8 * 111 * 111 * c1, 8 * 3 * 49 * c1, 4 * 227 * 227, 4 * 227 * 227,
                            4 * 227 * 227,      8 * c1 * map,    8 * s * map,   8 * s * c1,
                            8 * 2 * e * map,    8 * e * s,       8 * e * 9 * s, 8 * s * map,
                            8 * s * 2 * e,      8 * 2 * e * map, 8 * e * s,     8 * e * 9 * s};
    check c;

    assert_int_equal(w->nkernels, 6);
    layout(&c, names, bytes, elem, SN_N);
    sn_fire_check(&w->kernels[0], &c, 0, (uint32_t)s, (uint32_t)c1, SN_POOL, SN_F2SQW, SN_F2SQF, 0);
    sn_fire_check(&w->kernels[1], &c, 0, (uint32_t)e, (uint32_t)s, SN_F2SQF, SN_F2E1W, SN_F2F, 0);
    sn_fire_check(&w->kernels[2], &c, 1, (uint32_t)e, (uint32_t)s, SN_F2SQF, SN_F2E3W, SN_F2F,
                  e * map);
    sn_fire_check(&w->kernels[3], &c, 0, (uint32_t)s, (uint32_t)(2 * e), SN_F2F, SN_F3SQW,
                  SN_F3SQF, 0);
    sn_fire_check(&w->kernels[4], &c, 0, (uint32_t)e, (uint32_t)s, SN_F3SQF, SN_F3E1W, SN_F3F, 0);
    sn_fire_check(&w->kernels[5], &c, 1, (uint32_t)e, (uint32_t)s, SN_F3SQF, SN_F3E3W, SN_F3F,
                  e * map);
    arrays_free(&c);
}

static void test_squeezenet_tiny(void **state)
{
    (void)state;
    gm_workload w = build_named("squeezenet", GM_SIZE_TINY);
    assert_int_equal(((const gm_squeezenet_params *)w.priv)->div, 16);
    squeezenet_check(&w, 16);
    gm_workload_free(&w);
}

static void test_squeezenet_dims(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_squeezenet_build_dims(&w, 8, &err), 0);
    squeezenet_check(&w, 8);
    gm_workload_free(&w);
    assert_int_not_equal(gm_squeezenet_build_dims(&w, 3, &err), 0);
    assert_int_not_equal(gm_squeezenet_build_dims(&w, 0, &err), 0);
}

/* ---------------------------------------------------------------- catalogue */

static const char *const mine[] = {"alexnet", "resnet", "squeezenet"};
#define NMINE (sizeof mine / sizeof mine[0])

static void test_catalogue(void **state)
{
    (void)state;
    for (size_t i = 0; i < NMINE; i++) {
        const gm_workload_info *e = gm_workload_find(mine[i]);
        assert_non_null(e);
        assert_string_equal(e->name, mine[i]);
        assert_string_equal(e->suite, "Tango");
        assert_true(strlen(e->stresses) > 20);
        /* the DC-L1 seed: T-AlexNet, T-ResNet, T-SqueezeNet are sensitive */
        assert_string_equal(e->klass, "sensitive");
        assert_non_null(e->build);
        gm_workload w;
        gm_error err;
        assert_int_equal(gm_workload_build(&w, mine[i], (gm_size)GM_SIZE_COUNT, 1, &err), -1);
        assert_null(w.kernels);
    }
}

/* The documented dimensions of each size (docs/workloads/tango.md). */
static void test_sizes(void **state)
{
    static const uint32_t c1[] = {1, 8, 96}, c2[] = {4, 16, 128}, f2[] = {1, 6, 48};
    static const uint32_t rc[] = {2, 8, 64}, div[] = {16, 4, 1};
    (void)state;
    for (int s = 0; s <= GM_SIZE_STANDARD; s++) {
        gm_workload w = build_named("alexnet", (gm_size)s);
        const gm_alexnet_params *a = w.priv;
        assert_int_equal(a->c1, c1[s]);
        assert_int_equal(a->c2, c2[s]);
        assert_int_equal(a->f2, f2[s]);
        assert_int_equal(gm_kernel_ctas(&w.kernels[0]), c1[s]);
        assert_int_equal(gm_kernel_ctas(&w.kernels[5]), c2[s]);
        gm_workload_free(&w);
        w = build_named("resnet", (gm_size)s);
        assert_int_equal(((const gm_resnet_params *)w.priv)->c, rc[s]);
        assert_int_equal(gm_kernel_ctas(&w.kernels[0]), 4 * rc[s]);
        gm_workload_free(&w);
        w = build_named("squeezenet", (gm_size)s);
        assert_int_equal(((const gm_squeezenet_params *)w.priv)->div, div[s]);
        assert_int_equal(((const gm_squeezenet_params *)w.priv)->e, 64 / div[s]);
        gm_workload_free(&w);
    }
}

/* ---------------------------------------------------------------- streams */

static const golden_stream golden[] = {   /* tiny, seed 1 */
    {"alexnet", 0x0d28eac7c67aadafull},
    {"resnet", 0x39437e0f2ef3b1e9ull},
    {"squeezenet", 0xc567b4d6bafeaa57ull},
};

static void test_golden_hash(void **state)
{
    (void)state;
    check_golden_hashes(golden, sizeof golden / sizeof golden[0]);
}

static void test_determinism(void **state)
{
    (void)state;
    for (size_t i = 0; i < NMINE; i++)
        check_same_stream(mine[i], 99);
}

/* Warps of a CTA generated in round-robin chunks, as the core does, give
 * each warp the same stream as generating it alone. */
static void test_interleaved(void **state)
{
    (void)state;
    for (size_t i = 0; i < NMINE; i++) {
        gm_workload w = build_named(mine[i], GM_SIZE_TINY);
        check_last_ctas_round_robin(&w, 1);
        gm_workload_free(&w);
    }
}

static void test_walk_counts(void **state)
{
    (void)state;
    for (size_t i = 0; i < NMINE; i++)
        check_walk_counts(mine[i], 50000, 300000);   /* tiny: about a second of simulation */
}

/* ---------------------------------------------------------------- end to end */

static void test_system_run(void **state)
{
    (void)state;
    if (!getenv("GM_SOURCE_DIR"))
        skip();
    for (size_t i = 0; i < NMINE; i++)
        simulate_tiny_small(mine[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_alexnet_tiny),
        cmocka_unit_test(test_alexnet_dims),
        cmocka_unit_test(test_resnet_tiny),
        cmocka_unit_test(test_resnet_dims),
        cmocka_unit_test(test_squeezenet_tiny),
        cmocka_unit_test(test_squeezenet_dims),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_walk_counts),
        cmocka_unit_test(test_golden_hash),
        cmocka_unit_test(test_system_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
