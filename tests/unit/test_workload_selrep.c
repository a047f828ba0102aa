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
static uint64_t access_hash_in(uint64_t h, int shared, uint64_t addr, int store, int ro)
{
    h = gm_fnv1a_u64(h, addr);
    return gm_fnv1a_u64(h, (uint64_t)(shared * 4 + store * 2 + ro));
}

static uint64_t access_hash(uint64_t h, uint64_t addr, int store, int ro)
{
    return access_hash_in(h, 0, addr, store, ro);
}

typedef struct walk {
    const gm_kernel *k;
    uint32_t cta, warp;
    uint64_t *th;          /* per thread of the kernel: hash of its accesses */
    uint64_t accesses;     /* thread accesses seen */
    uint64_t insts, global_ld, global_st, shared, barriers;
    uint64_t smem;         /* shared bytes the kernel may touch */
    int with_shared;       /* shared accesses go into th too */
    reg_use regs;
} walk;

static void on_inst(const gm_inst *in, uint32_t exist, void *arg)
{
    walk *w = arg;
    check_lanes(in, exist);
    check_regs(&w->regs, in);
    w->insts++;
    w->barriers += in->op == GM_OP_BARRIER;
    int shared = in->op == GM_OP_SHARED_LD || in->op == GM_OP_SHARED_ST;
    if (shared) {
        check_shared(in, w->smem);
        w->shared++;
        if (!w->with_shared)
            return;
    } else if (in->op != GM_OP_GLOBAL_LD && in->op != GM_OP_GLOBAL_ST) {
        return;
    }
    assert_int_equal(in->width, 4);
    int store = in->op == GM_OP_GLOBAL_ST || in->op == GM_OP_SHARED_ST;
    w->global_ld += !store && !shared;
    w->global_st += store && !shared;
    uint32_t tpc = gm_kernel_threads_per_cta(w->k);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if (in->mask >> l & 1) {
            uint64_t t = (uint64_t)w->cta * tpc + w->warp * GM_WARP_SIZE + l;
            w->th[t] = access_hash_in(w->th[t], shared, in->addr[l], store,
                                      (in->flags & GM_INST_READ_ONLY) != 0);
            w->accesses++;
        }
}

/* Walks every warp of k (chunks of 16) into w; th sized for its threads;
 * with_shared: shared-memory accesses are part of each thread's hash. */
static void walk_kernel_with(const gm_kernel *k, walk *w, uint64_t smem, int with_shared)
{
    uint64_t threads = (uint64_t)gm_kernel_ctas(k) * gm_kernel_threads_per_cta(k);
    memset(w, 0, sizeof *w);
    w->k = k;
    w->smem = smem;
    w->with_shared = with_shared;
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

static void walk_kernel(const gm_kernel *k, walk *w, uint64_t smem)
{
    walk_kernel_with(k, w, smem, 0);
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
        gm_workload wl = build_named(name, GM_SIZE_TINY);
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
    gm_workload wl = build_named("neuralnet_4", GM_SIZE_TINY);
    nn_check(&wl);
    gm_workload_free(&wl);
}

/* ---------------------------------------------------------------- vectorAdd */

/* Thread i of the sample: C[i] = A[i] + B[i] when i < n. */
static uint64_t va_ref_thread(const gm_vectoradd_params *p, uint64_t i)
{
    uint64_t h = GM_FNV1A_INIT;
    if (i >= p->n)
        return h;
    h = access_hash(h, p->a + 4 * i, 0, 1);
    h = access_hash(h, p->b + 4 * i, 0, 1);
    return access_hash(h, p->c + 4 * i, 1, 0);
}

static void va_check(const gm_workload *wl, uint32_t n)
{
    const gm_kernel *k = &wl->kernels[0];
    const gm_vectoradd_params *p = wl->priv;
    uint32_t ctas = (n + 255) / 256;
    assert_int_equal(wl->nkernels, 1);
    assert_int_equal(p->n, n);
    assert_int_equal(k->grid.x, ctas);
    assert_int_equal(gm_kernel_threads_per_cta(k), 256);
    /* cudaMalloc order, 4 KiB apart */
    uint64_t span = (4ull * n + 4095) / 4096 * 4096;
    assert_true(p->a == 0x10000000ull && p->b == p->a + span && p->c == p->b + span);
    walk w;
    walk_kernel(k, &w, 0);
    uint64_t warps = ctas * 8ull, busy = (n + 31) / 32;
    /* 5 with every lane; 6 in the guard; EXIT */
    assert_int_equal(w.insts, warps * 6 + busy * 6);
    assert_int_equal(w.global_ld, busy * 2);
    assert_int_equal(w.global_st, busy);
    assert_int_equal(w.accesses, 3ull * n);
    for (uint64_t t = 0; t < warps * 32; t++)
        if (w.th[t] != va_ref_thread(p, t))
            fail_msg("vectoradd thread %llu: accesses differ", (unsigned long long)t);
    free(w.th);
}

static void test_vectoradd(void **st)
{
    (void)st;
    gm_workload wl;
    gm_error err;
    const uint32_t ns[] = {1, 31, 256, 300, 6250};   /* partial warps and CTAs */
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        assert_int_equal(gm_vectoradd_build_n(&wl, ns[i], &err), 0);
        va_check(&wl, ns[i]);
        gm_workload_free(&wl);
    }
    assert_int_not_equal(gm_vectoradd_build_n(&wl, 0, &err), 0);
    /* the sample's 50000 at small, standard and fill; an eighth at tiny */
    for (int s = 0; s < GM_SIZE_COUNT; s++) {
        wl = build_named("vectoradd", (gm_size)s);
        va_check(&wl, s == GM_SIZE_TINY ? 6250 : 50000);
        gm_workload_free(&wl);
    }
}

/* ---------------------------------------------------------------- mergeSort */

/* The reference runs the sample on real arrays, thread by thread and
 * phase by phase between barriers, recording each thread's accesses. */
typedef struct ms_ref {
    uint64_t *th;        /* per thread of the current launch */
    uint64_t accesses;
} ms_ref;

enum { G = 0, SH = 1 };

static void rec(ms_ref *r, uint64_t t, int space, uint64_t addr, int store, int ro)
{
    r->th[t] = access_hash_in(r->th[t], space, addr, store, ro);
    r->accesses++;
}

/* A device array: host copy and device (or shared) byte address. */
typedef struct darr {
    uint32_t *v;
    uint64_t addr;
    int space;
} darr;

static uint32_t rd(ms_ref *r, uint64_t t, const darr *a, uint64_t i, int ro)
{
    rec(r, t, a->space, a->addr + 4 * i, 0, ro);
    return a->v[i];
}

static void wr(ms_ref *r, uint64_t t, darr *a, uint64_t i, uint32_t x)
{
    rec(r, t, a->space, a->addr + 4 * i, 1, 0);
    a->v[i] = x;
}

/* binarySearchInclusive / Exclusive<1> over data[first ..], recorded. */
static uint32_t ref_search(ms_ref *r, uint64_t t, const darr *d, uint64_t first, uint32_t val,
                           uint32_t L, uint32_t stride, int incl)
{
    if (L == 0)
        return 0;
    uint32_t pos = 0;
    for (; stride > 0; stride >>= 1) {
        uint32_t np = pos + stride < L ? pos + stride : L;
        uint32_t x = rd(r, t, d, first + np - 1, d->space == G);
        if (incl ? x <= val : x < val)
            pos = np;
    }
    return pos;
}

static uint32_t next_pow2(uint32_t x)
{
    uint32_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

static void ref_shared_sort(ms_ref *r, darr *dk, darr *dv, darr *sk, darr *sv, uint32_t n)
{
    uint32_t key[1024], val[1024], pa[512], pb[512], ka[512], va[512], kb[512], vb[512];
    darr k = {key, 0, SH}, v = {val, 4096, SH};
    for (uint32_t c = 0; c < n / 1024; c++) {
        uint64_t g0 = 1024ull * c, t0 = 512ull * c;
        for (uint32_t t = 0; t < 512; t++) {
            uint32_t x0 = rd(r, t0 + t, sk, g0 + t, 1), y0 = rd(r, t0 + t, sv, g0 + t, 1);
            uint32_t x1 = rd(r, t0 + t, sk, g0 + t + 512, 1), y1 = rd(r, t0 + t, sv, g0 + t + 512, 1);
            wr(r, t0 + t, &k, t, x0);
            wr(r, t0 + t, &v, t, y0);
            wr(r, t0 + t, &k, t + 512, x1);
            wr(r, t0 + t, &v, t + 512, y1);
        }
        for (uint32_t s = 1; s < 1024; s <<= 1) {
            for (uint32_t t = 0; t < 512; t++) {
                uint32_t lp = t & (s - 1), b = 2 * (t - lp);
                ka[t] = rd(r, t0 + t, &k, b + lp, 0);
                va[t] = rd(r, t0 + t, &v, b + lp, 0);
                kb[t] = rd(r, t0 + t, &k, b + lp + s, 0);
                vb[t] = rd(r, t0 + t, &v, b + lp + s, 0);
                pa[t] = ref_search(r, t0 + t, &k, b + s, ka[t], s, s, 0) + lp;
                pb[t] = ref_search(r, t0 + t, &k, b, kb[t], s, s, 1) + lp;
            }
            for (uint32_t t = 0; t < 512; t++) {
                uint32_t b = 2 * (t - (t & (s - 1)));
                wr(r, t0 + t, &k, b + pa[t], ka[t]);
                wr(r, t0 + t, &v, b + pa[t], va[t]);
                wr(r, t0 + t, &k, b + pb[t], kb[t]);
                wr(r, t0 + t, &v, b + pb[t], vb[t]);
            }
        }
        for (uint32_t t = 0; t < 512; t++) {
            uint32_t x0 = rd(r, t0 + t, &k, t, 0), y0 = rd(r, t0 + t, &v, t, 0);
            uint32_t x1 = rd(r, t0 + t, &k, t + 512, 0), y1 = rd(r, t0 + t, &v, t + 512, 0);
            wr(r, t0 + t, dk, g0 + t, x0);
            wr(r, t0 + t, dv, g0 + t, y0);
            wr(r, t0 + t, dk, g0 + t + 512, x1);
            wr(r, t0 + t, dv, g0 + t + 512, y1);
        }
    }
}

static void ref_sample_ranks(ms_ref *r, darr *ra, darr *rb, const darr *src, uint32_t S,
                             uint32_t n)
{
    uint32_t tc = n / 256;
    for (uint32_t pos = 0; pos < tc; pos++) {
        uint32_t i = pos & (S / 128 - 1), base = (pos - i) * 256;
        uint32_t ea = S, eb = S < n - base - S ? S : n - base - S;
        uint32_t sa = (ea + 127) / 128, sb = (eb + 127) / 128;
        if (i < sa) {
            wr(r, pos, ra, base / 128 + i, i * 128);
            uint32_t key = rd(r, pos, src, base + i * 128, 1);
            wr(r, pos, rb, base / 128 + i,
               ref_search(r, pos, src, base + S, key, eb, next_pow2(eb), 0));
        }
        if (i < sb) {
            wr(r, pos, rb, base / 128 + S / 128 + i, i * 128);
            uint32_t key = rd(r, pos, src, base + S + i * 128, 1);
            wr(r, pos, ra, base / 128 + S / 128 + i,
               ref_search(r, pos, src, base, key, ea, next_pow2(ea), 1));
        }
    }
}

static void ref_merge_ranks(ms_ref *r, darr *lim, const darr *rk, uint32_t S, uint32_t n)
{
    uint32_t tc = n / 256;
    for (uint32_t pos = 0; pos < tc; pos++) {
        uint32_t i = pos & (S / 128 - 1), base = (pos - i) * 256, o = (pos - i) * 2;
        uint32_t eb = S < n - base - S ? S : n - base - S;
        uint32_t sa = S / 128, sb = (eb + 127) / 128;
        if (i < sa) {
            uint32_t x = rd(r, pos, rk, o + i, 1);
            uint32_t d = ref_search(r, pos, rk, o + sa, x, sb, next_pow2(sb), 0) + i;
            wr(r, pos, lim, o + d, x);
        }
        if (i < sb) {
            uint32_t x = rd(r, pos, rk, o + sa + i, 1);
            uint32_t d = ref_search(r, pos, rk, o, x, sa, next_pow2(sa), 1) + i;
            wr(r, pos, lim, o + d, x);
        }
    }
}

static void ref_intervals(ms_ref *r, darr *dk, darr *dv, const darr *sk, const darr *sv,
                          const darr *la, const darr *lb, uint32_t S, uint32_t n)
{
    uint32_t key[256], val[256], sc[6], ka[128], va[128], kb[128], vb[128], pa[128], pb[128];
    darr k = {key, 0, SH}, v = {val, 1024, SH}, scal = {sc, 2048, SH};
    const darr skg = *sk, svg = *sv;
    for (uint32_t b = 0; b < n / 128; b++) {
        uint32_t ii = b & (2 * S / 128 - 1), base = (b - ii) * 128, t0 = 128 * b;
        darr ks = skg, vs = svg, kd = *dk, vd = *dv;
        ks.v += base, ks.addr += 4ull * base, vs.v += base, vs.addr += 4ull * base;
        kd.v += base, kd.addr += 4ull * base, vd.v += base, vd.addr += 4ull * base;
        {   /* thread 0 */
            uint32_t eb = S < n - base - S ? S : n - base - S;
            uint32_t samples = S / 128 + (eb + 127) / 128;
            uint32_t a0 = rd(r, t0, la, b, 1), b0 = rd(r, t0, lb, b, 1), a1 = S, b1 = eb;
            if (ii + 1 < samples) {
                a1 = rd(r, t0, la, b + 1, 1);
                b1 = rd(r, t0, lb, b + 1, 1);
            }
            wr(r, t0, &scal, 0, a0);
            wr(r, t0, &scal, 1, b0);
            wr(r, t0, &scal, 2, a1 - a0);
            wr(r, t0, &scal, 3, b1 - b0);
            wr(r, t0, &scal, 4, a0 + b0);
            wr(r, t0, &scal, 5, a0 + b0 + a1 - a0);
        }
        uint32_t lena = sc[2], lenb = sc[3];
        assert_true(lena <= 128 && lenb <= 128);
        for (uint32_t t = 0; t < 128; t++) {
            /* each length and start read by every thread, then the guard */
            uint32_t la = rd(r, t0 + t, &scal, 2, 0), sa = rd(r, t0 + t, &scal, 0, 0);
            if (t < la) {
                uint32_t x = rd(r, t0 + t, &ks, sa + t, 1), y = rd(r, t0 + t, &vs, sa + t, 1);
                wr(r, t0 + t, &k, t, x);
                wr(r, t0 + t, &v, t, y);
            }
            uint32_t lb = rd(r, t0 + t, &scal, 3, 0), sb = rd(r, t0 + t, &scal, 1, 0);
            if (t < lb) {
                uint32_t x = rd(r, t0 + t, &ks, S + sb + t, 1), y = rd(r, t0 + t, &vs, S + sb + t, 1);
                wr(r, t0 + t, &k, t + 128, x);
                wr(r, t0 + t, &v, t + 128, y);
            }
        }
        for (uint32_t t = 0; t < 128; t++) {   /* merge(), before its barrier */
            if (t < lena) {
                ka[t] = rd(r, t0 + t, &k, t, 0);
                va[t] = rd(r, t0 + t, &v, t, 0);
                pa[t] = ref_search(r, t0 + t, &k, 128, ka[t], lenb, 128, 0) + t;
            }
            if (t < lenb) {
                kb[t] = rd(r, t0 + t, &k, 128 + t, 0);
                vb[t] = rd(r, t0 + t, &v, 128 + t, 0);
                pb[t] = ref_search(r, t0 + t, &k, 0, kb[t], lena, 128, 1) + t;
            }
        }
        for (uint32_t t = 0; t < 128; t++) {
            if (t < lena) {
                wr(r, t0 + t, &k, pa[t], ka[t]);
                wr(r, t0 + t, &v, pa[t], va[t]);
            }
            if (t < lenb) {
                wr(r, t0 + t, &k, pb[t], kb[t]);
                wr(r, t0 + t, &v, pb[t], vb[t]);
            }
        }
        for (uint32_t t = 0; t < 128; t++) {
            if (t < lena) {
                uint32_t x = rd(r, t0 + t, &k, t, 0), y = rd(r, t0 + t, &v, t, 0);
                wr(r, t0 + t, &kd, sc[4] + t, x);
                wr(r, t0 + t, &vd, sc[4] + t, y);
            }
            if (t < lenb) {
                uint32_t x = rd(r, t0 + t, &k, lena + t, 0), y = rd(r, t0 + t, &v, lena + t, 0);
                wr(r, t0 + t, &kd, sc[5] + t, x);
                wr(r, t0 + t, &vd, sc[5] + t, y);
            }
        }
    }
}

/* Warp instructions of one launch, from the segment lists in
 * cudasdk_mergesort.c's comment worked out by hand: trips T = log2(s0) + 1. */
static uint64_t ms_warp_insts(const gm_mergesort_launch *ln, uint32_t cta, uint32_t warp,
                              const uint32_t *sc)
{
    uint32_t n = ln->ms->n, S = 1024u << ln->stage;
    if (ln->kind == GM_MS_SHARED_SORT)   /* 14 + sum over lg (20 + 12 (lg + 1)) + 10 */
        return 14 + 10 * 20 + 12 * 55 + 10;
    if (ln->kind != GM_MS_INTERVALS) {
        int busy = (uint64_t)cta * 256 + warp * 32 < n / 256;
        uint32_t s0 = ln->kind == GM_MS_SAMPLE_RANKS ? S : S / 128, T = 0;
        while ((1u << T) <= s0)
            T++;
        return busy ? 5 + (ln->kind == GM_MS_SAMPLE_RANKS ? 8 : 6) + 12ull * T + 5 + 2 + 1 : 6;
    }
    uint32_t lena = sc[2], lenb = sc[3], last = (cta & (2 * S / 128 - 1)) + 1 == 2 * S / 128;
    int a = lena > warp * 32, b = lenb > warp * 32;
    uint64_t i = 10 + (warp == 0 ? 6 + (last ? 0 : 3) + 9 : 0);
    i += 6 + 5 * a + 5 + 5 * b + 3;
    i += 6 * a + (a && lenb ? 48 : 0) + 2 + 6 * b + (b && lena ? 48 : 0);
    i += 3 + 3 * a + 2 + 3 * b + 3 + 5 * a + 2 + 5 * b + 1;
    return i;
}

/* Runs the reference launch by launch and compares every thread's
 * accesses and the instruction counts with the emulator's streams. */
static void ms_check(const gm_workload *wl)
{
    const gm_mergesort_params *p = wl->priv;
    uint32_t n = p->n, stages = 0;
    for (uint32_t s = 1024; s < n; s <<= 1)
        stages++;
    assert_int_equal(p->stages, stages);
    assert_int_equal(wl->nkernels, 1 + 4 * stages);
    uint64_t span = (4ull * n + 4095) / 4096 * 4096;
    const uint64_t bases[6] = {p->dst_key, p->dst_val, p->buf_key, p->buf_val, p->src_key,
                               p->src_val};
    for (int i = 0; i < 6; i++)
        assert_true(bases[i] == 0x10000000ull + span * (uint64_t)i);
    assert_true(p->ranks[0] == 0x10000000ull + 6 * span && p->ranks[1] == p->ranks[0] + 131072 &&
                p->limits[0] == p->ranks[1] + 131072 && p->limits[1] == p->limits[0] + 131072);
    uint32_t *mem = calloc(6ull * n + 4 * 32768, sizeof *mem);
    assert_non_null(mem);
    darr a[10];
    for (int i = 0; i < 10; i++) {
        a[i].v = mem + (i < 6 ? (uint64_t)i * n : 6ull * n + (i - 6) * 32768ull);
        a[i].addr = i < 6 ? bases[i] : i < 8 ? p->ranks[i - 6] : p->limits[i - 8];
        a[i].space = G;
    }
    for (uint32_t i = 0; i < n; i++) {   /* h_SrcKey (drawn by the model), fillValues */
        a[4].v[i] = gm_mergesort_key(p, 0, i);
        assert_true(a[4].v[i] < 65536);
        a[5].v[i] = i;
    }
    darr *ik = &a[0], *iv = &a[1], *ok = &a[2], *ov = &a[3];
    if (stages & 1) {
        ik = &a[2], iv = &a[3], ok = &a[0], ov = &a[1];
    }
    uint32_t launch = 0, S = 1024;
    while (launch < wl->nkernels) {
        const gm_kernel *k = &wl->kernels[launch];
        const gm_mergesort_launch *ln = k->params;
        uint64_t threads = (uint64_t)gm_kernel_ctas(k) * gm_kernel_threads_per_cta(k);
        ms_ref r = {malloc(threads * sizeof(uint64_t)), 0};
        assert_non_null(r.th);
        for (uint64_t t = 0; t < threads; t++)
            r.th[t] = GM_FNV1A_INIT;
        int kind = launch == 0 ? 0 : 1 + (int)((launch - 1) % 4) - ((launch - 1) % 4 >= 2);
        assert_int_equal(ln->kind, kind);
        if (launch == 0) {
            assert_int_equal(k->grid.x, n / 1024);
            assert_int_equal(gm_kernel_threads_per_cta(k), 512);
            ref_shared_sort(&r, ik, iv, &a[4], &a[5], n);
        } else if (kind == GM_MS_SAMPLE_RANKS) {
            assert_int_equal(k->grid.x, (n / 256 + 255) / 256);
            ref_sample_ranks(&r, &a[6], &a[7], ik, S, n);
        } else if (kind == GM_MS_MERGE_RANKS) {
            uint32_t pr = (launch - 1) % 4 - 1;
            ref_merge_ranks(&r, &a[8 + pr], &a[6 + pr], S, n);
        } else {
            assert_int_equal(k->grid.x, n / 128);
            assert_int_equal(gm_kernel_threads_per_cta(k), 128);
            ref_intervals(&r, ok, ov, ik, iv, &a[8], &a[9], S, n);
        }
        walk w;
        walk_kernel_with(k, &w, 8192, 1);
        assert_int_equal(w.accesses, r.accesses);
        uint64_t insts = 0;
        for (uint32_t c = 0; c < gm_kernel_ctas(k); c++) {
            uint32_t sc[6] = {0};
            if (kind == GM_MS_INTERVALS) {   /* thread 0's scalars, from the reference's limits */
                uint32_t ii = c & (2 * S / 128 - 1), last = ii + 1 == 2 * S / 128;
                sc[2] = (last ? S : a[8].v[c + 1]) - a[8].v[c];
                sc[3] = (last ? S : a[9].v[c + 1]) - a[9].v[c];
            }
            for (uint32_t wi = 0; wi < gm_kernel_warps_per_cta(k); wi++)
                insts += ms_warp_insts(ln, c, wi, sc);
        }
        assert_int_equal(w.insts, insts);
        for (uint64_t t = 0; t < threads; t++)
            if (w.th[t] != r.th[t])
                fail_msg("mergesort launch %u (%s) thread %llu: accesses differ", launch,
                         k->name, (unsigned long long)t);
        free(w.th);
        free(r.th);
        if (kind == GM_MS_INTERVALS) {
            darr *t = ik;
            ik = ok, ok = t;
            t = iv, iv = ov, ov = t;
            S <<= 1;
        }
        launch++;
    }
    /* the reference sorted: ascending keys, values a permutation carrying them */
    for (uint32_t i = 0; i < n; i++) {
        assert_true(i == 0 || a[0].v[i - 1] <= a[0].v[i]);
        assert_int_equal(a[0].v[i], a[4].v[a[1].v[i]]);
    }
    free(mem);
}

static void test_mergesort(void **st)
{
    (void)st;
    gm_workload wl;
    gm_error err;
    const uint32_t ns[] = {1024, 2048, 8192};   /* 0, 1 and 3 merge stages */
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        assert_int_equal(gm_mergesort_build_n(&wl, ns[i], 7 + i, &err), 0);
        ms_check(&wl);
        gm_workload_free(&wl);
    }
    wl = build_named("mergesort", GM_SIZE_TINY);
    ms_check(&wl);
    gm_workload_free(&wl);
    assert_int_not_equal(gm_mergesort_build_n(&wl, 3072, 1, &err), 0);
    assert_int_not_equal(gm_mergesort_build_n(&wl, 512, 1, &err), 0);
    assert_int_not_equal(gm_mergesort_build_n(&wl, 8u << 20, 1, &err), 0);
}

/* The keys come from the seed: two seeds, two streams; one seed, one. */
static void test_mergesort_seed(void **st)
{
    (void)st;
    gm_workload a, b, c;
    gm_error err;
    assert_int_equal(gm_mergesort_build_n(&a, 2048, 1, &err), 0);
    assert_int_equal(gm_mergesort_build_n(&b, 2048, 1, &err), 0);
    assert_int_equal(gm_mergesort_build_n(&c, 2048, 2, &err), 0);
    assert_true(hash_workload(&a, 16) == hash_workload(&b, 16));
    assert_true(hash_workload(&a, 16) != hash_workload(&c, 16));
    gm_workload_free(&a);
    gm_workload_free(&b);
    gm_workload_free(&c);
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

static const golden_stream golden[] = {   /* tiny, seed 1; neuralnet_0..3 are one image each at tiny */
    {"matrixmul_0", 0x1cc8bd439621db0eull}, {"matrixmul_1", 0x9c34aea1e2f199a4ull}, {"matrixmul_2", 0x7f8a8a15a8b8907bull},
    {"matrixmul_3", 0x56d078f9e2d51c3bull}, {"matrixmul_4", 0x5f22aac31a430abaull}, {"neuralnet_0", 0xb5b8a97e8c47ca4eull},
    {"neuralnet_1", 0xb5b8a97e8c47ca4eull}, {"neuralnet_2", 0xb5b8a97e8c47ca4eull}, {"neuralnet_3", 0xb5b8a97e8c47ca4eull},
    {"neuralnet_4", 0xa3919e614450ad1aull}, {"vectoradd", 0x8070f5c24c6994c9ull}, {"mergesort", 0x858703773962b63aull},
};

static void test_golden_hash(void **st)
{
    (void)st;
    check_golden_hashes(golden, sizeof golden / sizeof golden[0]);
}

/* Warps of a CTA in round-robin chunks, as the core runs them, give the
 * same streams as each warp alone. */
static void test_interleaved(void **st)
{
    (void)st;
    const char *names[4] = {"matrixmul_1", "neuralnet_0", "vectoradd", "mergesort"};
    for (int i = 0; i < 4; i++) {
        gm_workload w = build_named(names[i], GM_SIZE_TINY);
        check_last_ctas_round_robin(&w, 1);
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
        cmocka_unit_test(test_vectoradd),
        cmocka_unit_test(test_mergesort),
        cmocka_unit_test(test_mergesort_seed),
        cmocka_unit_test(test_golden_hash),
        cmocka_unit_test(test_interleaved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
