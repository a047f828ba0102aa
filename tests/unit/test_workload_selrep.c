/* The SelRep seed's MM (CUDA SDK matrixMul) and NN (ISPASS-2009 neural
 * network) emulators (cmodel/workload/kernels/kernels_selrep.h):
 *
 * - per thread, the ordered global accesses (array element, load or store,
 *   read-only flag) against a thread-level reference written from the CUDA
 *   source in this file, on shapes with several tiles, images and CTAs;
 * - instruction counts per warp and per kernel worked out by hand;
 * - the generator contract, lane masks, register def-use and shared-memory
 *   bounds on every instruction;
 * - the five configurations' dimensions and shared data sets against the
 *   seed's Table II figures;
 * - golden stream hashes of the ten catalogue entries at size tiny. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload/kernels/kernels_selrep.h"
#include "workload_testlib.h"

/* ---------------------------------------------------------------- per-thread walk */

/* One access in a thread's ordered hash: the address, load or store, and
 * whether the load is marked read-only. */
static uint64_t access_hash(uint64_t h, uint64_t addr, int store, int ro)
{
    h = gm_fnv1a_u64(h, addr);
    return gm_fnv1a_u64(h, (uint64_t)(store * 2 + ro));
}

typedef struct walk {
    const gm_kernel *k;
    uint32_t cta, warp;
    uint64_t *th;          /* per thread of the kernel: hash of its accesses */
    uint64_t accesses;     /* thread accesses seen */
    uint64_t insts, global_ld, global_st, shared, barriers;
    uint64_t smem;         /* shared bytes the kernel may touch */
    reg_use regs;
} walk;

static void on_inst(const gm_inst *in, uint32_t exist, void *arg)
{
    walk *w = arg;
    check_lanes(in, exist);
    check_regs(&w->regs, in);
    w->insts++;
    w->barriers += in->op == GM_OP_BARRIER;
    if (in->op == GM_OP_SHARED_LD || in->op == GM_OP_SHARED_ST) {
        check_shared(in, w->smem);
        w->shared++;
    }
    if (in->op != GM_OP_GLOBAL_LD && in->op != GM_OP_GLOBAL_ST)
        return;
    assert_int_equal(in->width, 4);
    int store = in->op == GM_OP_GLOBAL_ST;
    w->global_ld += !store;
    w->global_st += store;
    uint32_t tpc = gm_kernel_threads_per_cta(w->k);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if (in->mask >> l & 1) {
            uint64_t t = (uint64_t)w->cta * tpc + w->warp * GM_WARP_SIZE + l;
            w->th[t] = access_hash(w->th[t], in->addr[l], store,
                                   (in->flags & GM_INST_READ_ONLY) != 0);
            w->accesses++;
        }
}

/* Walks every warp of k (chunks of 16) into w; th sized for its threads. */
static void walk_kernel(const gm_kernel *k, walk *w, uint64_t smem)
{
    uint64_t threads = (uint64_t)gm_kernel_ctas(k) * gm_kernel_threads_per_cta(k);
    memset(w, 0, sizeof *w);
    w->k = k;
    w->smem = smem;
    w->th = malloc(threads * sizeof *w->th);
    assert_non_null(w->th);
    for (uint64_t t = 0; t < threads; t++)
        w->th[t] = GM_FNV1A_INIT;
    for (uint32_t c = 0; c < gm_kernel_ctas(k); c++)
        for (uint32_t wi = 0; wi < gm_kernel_warps_per_cta(k); wi++) {
            memset(&w->regs, 0, sizeof w->regs);
            w->regs.lanewise = 1;
            w->cta = c;
            w->warp = wi;
            run_warp(k, c, wi, 16, on_inst, w);
            check_regs_consumed(&w->regs, k, c, wi);
        }
}

static gm_workload build(const char *name, gm_size size)
{
    gm_workload w;
    gm_error err = {{0}};
    if (gm_workload_build(&w, name, size, 1, &err) != 0)
        fail_msg("%s", err.msg);
    return w;
}

/* ---------------------------------------------------------------- matrixMul */

/* The reference: thread (tx, ty) of block (bx, by), straight from the
 * sample's loop. */
static uint64_t mm_ref_thread(const gm_matrixmul_params *p, uint32_t bx, uint32_t by,
                              uint32_t tx, uint32_t ty)
{
    uint64_t h = GM_FNV1A_INIT;
    int64_t wa = p->wa, wb = p->wb;
    int64_t a_begin = wa * 16 * by, a_end = a_begin + wa - 1, b = 16 * (int64_t)bx;
    for (int64_t a = a_begin; a <= a_end; a += 16, b += 16 * wb) {
        h = access_hash(h, p->a + 4 * (uint64_t)(a + wa * ty + tx), 0, 1);
        h = access_hash(h, p->b + 4 * (uint64_t)(b + wb * ty + tx), 0, 1);
    }
    int64_t c = wb * 16 * by + 16 * (int64_t)bx;
    return access_hash(h, p->c + 4 * (uint64_t)(c + wb * ty + tx), 1, 0);
}

static void mm_check(const gm_workload *wl)
{
    const gm_kernel *k = &wl->kernels[0];
    const gm_matrixmul_params *p = wl->priv;
    uint32_t tiles = p->wa / 16, gx = p->wb / 16, gy = p->ha / 16;
    assert_int_equal(wl->nkernels, 1);
    assert_int_equal(k->grid.x, gx);
    assert_int_equal(k->grid.y, gy);
    assert_int_equal(gm_kernel_threads_per_cta(k), 256);
    walk w;
    walk_kernel(k, &w, 2048);
    uint64_t warps = (uint64_t)gx * gy * 8;
    /* per warp: 11 set-up, per tile 5 + 16 * 3 + 5, then 3 */
    assert_int_equal(w.insts, warps * (11 + 58ull * tiles + 3));
    assert_int_equal(w.global_ld, warps * 2 * tiles);
    assert_int_equal(w.global_st, warps);
    assert_int_equal(w.shared, warps * tiles * (2 + 32));
    assert_int_equal(w.barriers, warps * 2 * tiles);
    assert_int_equal(w.accesses, warps * 32 * (2 * tiles + 1));
    for (uint32_t by = 0; by < gy; by++)
        for (uint32_t bx = 0; bx < gx; bx++)
            for (uint32_t t = 0; t < 256; t++) {
                uint64_t i = ((uint64_t)by * gx + bx) * 256 + t;
                if (w.th[i] != mm_ref_thread(p, bx, by, t % 16, t / 16))
                    fail_msg("matrixmul cta (%u,%u) thread %u: accesses differ", bx, by, t);
            }
    free(w.th);
}

static void test_matrixmul_dims(void **st)
{
    (void)st;
    gm_workload wl;
    gm_error err;
    /* non-square, several tiles along every dimension */
    assert_int_equal(gm_matrixmul_build_dims(&wl, 48, 64, 32, &err), 0);
    mm_check(&wl);
    gm_workload_free(&wl);
    assert_int_equal(gm_matrixmul_build_dims(&wl, 16, 16, 16, &err), 0);
    mm_check(&wl);
    gm_workload_free(&wl);
    assert_int_not_equal(gm_matrixmul_build_dims(&wl, 16, 20, 16, &err), 0);
    assert_int_not_equal(gm_matrixmul_build_dims(&wl, 0, 16, 16, &err), 0);
}

static void test_matrixmul_catalogue(void **st)
{
    (void)st;
    for (int c = 0; c < 3; c++) {   /* _3, _4 tiny are larger; their shape is checked below */
        char name[32];
        snprintf(name, sizeof name, "matrixmul_%d", c);
        gm_workload wl = build(name, GM_SIZE_TINY);
        mm_check(&wl);
        gm_workload_free(&wl);
    }
}

/* The seed's MM data sets (A + B) in MiB: 0.04, 0.1, 0.6, 1.9, 3.8; the
 * SDK default 80 x 48 * 48 x 128 is configuration 0. */
static void test_matrixmul_configs(void **st)
{
    (void)st;
    const double seed_mib[5] = {0.04, 0.1, 0.6, 1.9, 3.8};
    for (uint32_t c = 0; c < 5; c++) {
        gm_workload small, std, tiny;
        gm_error err;
        assert_int_equal(gm_matrixmul_build_config(&small, c, GM_SIZE_SMALL, &err), 0);
        assert_int_equal(gm_matrixmul_build_config(&std, c, GM_SIZE_STANDARD, &err), 0);
        assert_int_equal(gm_matrixmul_build_config(&tiny, c, GM_SIZE_TINY, &err), 0);
        const gm_matrixmul_params *p = std.priv, *q = small.priv, *t = tiny.priv;
        assert_true(p->ha == q->ha && p->wa == q->wa && p->wb == q->wb);
        if (c == 0)
            assert_true(p->ha == 80 && p->wa == 48 && p->wb == 128);
        double mib = 4.0 * p->wa * (p->ha + p->wb) / (1024.0 * 1024.0);
        assert_true(mib > seed_mib[c] * 0.95 && mib < seed_mib[c] * 1.05);
        /* tiny: each dimension a quarter, rounded up to a tile */
        assert_int_equal(t->ha, (p->ha / 16 + 3) / 4 * 16);
        assert_int_equal(t->wb, (p->wb / 16 + 3) / 4 * 16);
        gm_workload_free(&small);
        gm_workload_free(&std);
        gm_workload_free(&tiny);
    }
    gm_workload wl;
    gm_error err;
    assert_int_not_equal(gm_matrixmul_build_config(&wl, 5, GM_SIZE_TINY, &err), 0);
}

/* ---------------------------------------------------------------- neural network */

/* The reference: each layer's thread straight from NN_kernel.cu, with the
 * __constant__ templates as tables. */
static const int tmpl1[25] = {0,  1,  2,  3,  4,  29,  30,  31,  32,  33,  58,  59, 60,
                              61, 62, 87, 88, 89, 90, 91, 116, 117, 118, 119, 120};
static const int tmpl2[25] = {0,  1,  2,  3,  4,  13, 14, 15, 16, 17, 26, 27, 28,
                              29, 30, 39, 40, 41, 42, 43, 52, 53, 54, 55, 56};

static uint64_t ld(uint64_t h, uint64_t base, int64_t idx)
{
    return access_hash(h, base + 4 * (uint64_t)idx, 0, 1);
}

static uint64_t nn_ref_thread(const gm_neuralnet_params *p, int layer, int64_t bid, int64_t y,
                              int64_t px, int64_t py)
{
    uint64_t h = GM_FNV1A_INIT;
    const uint64_t *N = p->neurons, *W = p->weights;
    if (layer == 0) {
        int64_t wb = bid * 26;
        h = ld(h, W[0], wb);
        wb++;
        for (int i = 0; i < 25; i++) {
            h = ld(h, N[0], (2 * py * 29 + 2 * px + tmpl1[i]) + 29 * 29 * y);
            h = ld(h, W[0], wb + i);
        }
        return access_hash(h, N[1] + 4 * (uint64_t)((13 * 13 * bid + py * 13 + px) +
                                                    13 * 13 * 6 * y), 1, 0);
    }
    if (layer == 1) {
        int64_t wb = bid * 26 * 6, wx = px * 2, wy = py * 2;
        h = ld(h, W[1], wb);
        wb++;
        for (int i = 0; i < 25; i++)
            for (int c = 0; c < 6; c++) {
                h = ld(h, N[1], (169 * c + wx + 13 * wy + tmpl2[i]) + 13 * 13 * 6 * y);
                h = ld(h, W[1], wb + i * 6 + c);
            }
        return access_hash(h, N[2] + 4 * (uint64_t)((5 * 5 * bid + py * 5 + px) + 1250 * y),
                           1, 0);
    }
    int64_t n = layer == 2 ? 1250 : 100, outs = layer == 2 ? 100 : 10;
    int64_t wb = bid * (n + 1);
    h = ld(h, W[layer], wb);
    wb++;
    for (int64_t i = 0; i < n; i++) {
        h = ld(h, N[layer], i + n * y);
        h = ld(h, W[layer], wb + i);
    }
    return access_hash(h, N[layer + 1] + 4 * (uint64_t)(bid + outs * y), 1, 0);
}

static void nn_check(const gm_workload *wl)
{
    const gm_neuralnet_params *p = wl->priv;
    /* grid.x, block side, products, rolled, warps per CTA */
    const uint32_t gx[4] = {6, 50, 100, 10}, side[4] = {13, 5, 1, 1};
    const uint64_t products[4] = {25, 150, 1250, 100};
    const uint32_t warps[4] = {6, 1, 1, 1};
    assert_int_equal(wl->nkernels, 4);
    for (int L = 0; L < 4; L++) {
        const gm_kernel *k = &wl->kernels[L];
        assert_int_equal(k->grid.x, gx[L]);
        assert_int_equal(k->grid.y, p->num);
        assert_int_equal(gm_kernel_threads_per_cta(k), side[L] * side[L]);
        walk w;
        walk_kernel(k, &w, 0);
        uint64_t nw = (uint64_t)gx[L] * p->num * warps[L];
        /* 4 set-up, bias, 3 per product (+3 loop overhead when rolled),
         * 4 tanh, address, store, exit */
        uint64_t per = 4 + 1 + products[L] * (L >= 2 ? 6 : 3) + 4 + 3;
        assert_int_equal(w.insts, nw * per);
        assert_int_equal(w.global_ld, nw * (1 + 2 * products[L]));
        assert_int_equal(w.global_st, nw);
        assert_int_equal(w.shared, 0);
        uint64_t threads = (uint64_t)gx[L] * p->num * side[L] * side[L];
        assert_int_equal(w.accesses, threads * (2 + 2 * products[L]));
        for (uint64_t y = 0; y < p->num; y++)
            for (uint32_t b = 0; b < gx[L]; b++)
                for (uint32_t t = 0; t < side[L] * side[L]; t++) {
                    uint64_t i = (y * gx[L] + b) * side[L] * side[L] + t;
                    if (w.th[i] != nn_ref_thread(p, L, b, (int64_t)y, t % side[L],
                                                 t / side[L]))
                        fail_msg("neuralnet layer %d image %llu cta %u thread %u: accesses "
                                 "differ", L + 1, (unsigned long long)y, b, t);
                }
        free(w.th);
    }
}

static void test_neuralnet_num(void **st)
{
    (void)st;
    gm_workload wl;
    gm_error err;
    assert_int_equal(gm_neuralnet_build_num(&wl, 3, &err), 0);
    nn_check(&wl);
    gm_workload_free(&wl);
    assert_int_not_equal(gm_neuralnet_build_num(&wl, 0, &err), 0);
}

/* The seed's NN shared data (MB): weights plus every layer's input
 * neurons, NN.cu's cudaMalloc sizes. */
static void test_neuralnet_configs(void **st)
{
    (void)st;
    const double seed_mb[5] = {0.6, 2.8, 5.7, 11.4, 22.8};
    const uint32_t div[3] = {512, 64, 1};
    uint32_t prev = 0;
    for (uint32_t c = 0; c < 5; c++) {
        gm_workload wl;
        gm_error err;
        assert_int_equal(gm_neuralnet_build_config(&wl, c, GM_SIZE_STANDARD, &err), 0);
        const gm_neuralnet_params *p = wl.priv;
        double bytes = 4.0 * (156 + 7800 + 125100 + 1010) +
                       4.0 * p->num * (29 * 29 + 13 * 13 * 6 + 1250 + 100);
        assert_true(bytes / 1e6 > seed_mb[c] * 0.99 && bytes / 1e6 < seed_mb[c] * 1.01);
        assert_true(p->num > prev);
        prev = p->num;
        uint32_t num = p->num;
        gm_workload_free(&wl);
        for (int s = 0; s < 2; s++) {
            assert_int_equal(gm_neuralnet_build_config(&wl, c, (gm_size)s, &err), 0);
            p = wl.priv;
            assert_int_equal(p->num, num / div[s] ? num / div[s] : 1);
            gm_workload_free(&wl);
        }
    }
}

static void test_neuralnet_catalogue(void **st)
{
    (void)st;
    gm_workload wl = build("neuralnet_4", GM_SIZE_TINY);
    nn_check(&wl);
    gm_workload_free(&wl);
}

/* ---------------------------------------------------------------- catalogue-wide */

static void test_catalogue_entries(void **st)
{
    (void)st;
    const char *pre[2] = {"matrixmul_", "neuralnet_"};
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 5; c++) {
            char name[32];
            snprintf(name, sizeof name, "%s%d", pre[i], c);
            const gm_workload_info *info = gm_workload_find(name);
            assert_non_null(info);
            assert_string_equal(info->klass, "sensitive");
        }
    assert_null(gm_workload_find("matrixmul_5"));
}

static const struct {
    const char *name;
    uint64_t hash;   /* tiny, seed 1; neuralnet_0..3 are one image each at tiny */
} golden[] = {
    {"matrixmul_0", 0x1cc8bd439621db0eull}, {"matrixmul_1", 0x9c34aea1e2f199a4ull}, {"matrixmul_2", 0x7f8a8a15a8b8907bull},
    {"matrixmul_3", 0x56d078f9e2d51c3bull}, {"matrixmul_4", 0x5f22aac31a430abaull}, {"neuralnet_0", 0xb5b8a97e8c47ca4eull},
    {"neuralnet_1", 0xb5b8a97e8c47ca4eull}, {"neuralnet_2", 0xb5b8a97e8c47ca4eull}, {"neuralnet_3", 0xb5b8a97e8c47ca4eull},
    {"neuralnet_4", 0xa3919e614450ad1aull},
};

static void test_golden_hash(void **st)
{
    int bad = 0;
    (void)st;
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        gm_workload w = build(golden[i].name, GM_SIZE_TINY);
        uint64_t h = hash_workload(&w, 16);
        if (h != golden[i].hash) {
            print_error("%s tiny: stream hash 0x%016llx, pinned 0x%016llx\n", golden[i].name,
                        (unsigned long long)h, (unsigned long long)golden[i].hash);
            bad++;
        }
        gm_workload_free(&w);
    }
    assert_int_equal(bad, 0);
}

/* Warps of a CTA in round-robin chunks, as the core runs them, give the
 * same streams as each warp alone. */
static void test_interleaved(void **st)
{
    (void)st;
    const char *names[2] = {"matrixmul_1", "neuralnet_0"};
    for (int i = 0; i < 2; i++) {
        gm_workload w = build(names[i], GM_SIZE_TINY);
        for (uint32_t ki = 0; ki < w.nkernels; ki++)
            check_round_robin(&w.kernels[ki], gm_kernel_ctas(&w.kernels[ki]) - 1);
        gm_workload_free(&w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue_entries),
        cmocka_unit_test(test_matrixmul_dims),
        cmocka_unit_test(test_matrixmul_catalogue),
        cmocka_unit_test(test_matrixmul_configs),
        cmocka_unit_test(test_neuralnet_num),
        cmocka_unit_test(test_neuralnet_configs),
        cmocka_unit_test(test_neuralnet_catalogue),
        cmocka_unit_test(test_golden_hash),
        cmocka_unit_test(test_interleaved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
