/* Rodinia myocyte (mode 1, solver_2) stream tests. The expected stream is
 * rebuilt here thread by thread from the CUDA source (cuda/myocyte/
 * solver_2.cu, embedded_fehlberg_7_8_2.cu, kernel_2.cu, kernel_ecc_2.cu,
 * kernel_cam_2.cu, kernel_fin_2.cu), with the register-reuse rule and the
 * attempt model of docs/workloads/rodinia.md, as an ordered list of global
 * accesses (array, element, load/store); every memory instruction of every
 * warp must be the next entry of that list in every active lane, with
 * width 4, the read-only flag exactly on params and com, and the active
 * mask exactly the threads tid < workload. Also: the lane and register
 * contract of every instruction, the layout, sizes, determinism, a pinned
 * tiny hash and one tiny run through the simulator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/prng.h"
#include "workload/kernels/rodinia_myocyte.h"
#include "workload/walk.h"
#include "workload/workload.h"
#include "workload_simlib.h"
#include "workload_testlib.h"

#define EQ 91
#define NSTAGE 13

enum { A_Y, A_X, A_PARAMS, A_COM, A_ERR, A_SCALE, A_YY, A_IT, A_FT, NARR };

typedef struct ref_acc {
    uint8_t arr, store;
    uint32_t off;   /* element inside the thread's slice */
} ref_acc;

typedef struct ref {
    ref_acc *a;
    size_t n, cap;
    uint32_t xmax;
    uint64_t stride[NARR];   /* floats per thread */
    uint64_t base[NARR];
} ref;

static void put(ref *r, int arr, int store, uint64_t off)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4096;
        r->a = realloc(r->a, r->cap * sizeof *r->a);
        assert_non_null(r->a);
    }
    r->a[r->n].arr = (uint8_t)arr;
    r->a[r->n].store = (uint8_t)store;
    r->a[r->n].off = (uint32_t)off;
    r->n++;
}

static void ld(ref *r, int arr, uint64_t off) { put(r, arr, 0, off); }
static void st(ref *r, int arr, uint64_t off) { put(r, arr, 1, off); }

/* kernel_ecc_2's stores, in source order, as the source's offset_N
 * (element N - 1). */
static const int ecc_stores[] = {1,  2,  3,  12, 13, 8,  9,  40, 10, 11, 4,  5,  6,  7,  43, 45,
                                 44, 46, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 41, 42};

/* One kernel_2 call with finavalu = finavalu_temp + fbase. Loads the rule
 * keeps: ecc reads finavalu only after storing it; fin's finavalu reads
 * follow the cam stores through the same pointer; its second reads of an
 * initvalu element have no store in between. */
static void kernel_2(ref *r, uint32_t fbase)
{
    ld(r, A_PARAMS, 15);                       /* cycleLength */
    for (int n = 1; n <= 40; n++)              /* d_initvalu_1..40 but 22 */
        if (n != 22)
            ld(r, A_IT, (uint64_t)n - 1);
    for (size_t s = 0; s < sizeof ecc_stores / sizeof ecc_stores[0]; s++)
        st(r, A_FT, fbase + (uint64_t)ecc_stores[s] - 1);
    for (int c = 0; c < 3; c++) {              /* Dyad, SL, Cyt */
        uint32_t valu = 46 + 15 * (uint32_t)c, par = 5 * (uint32_t)c;
        ld(r, A_IT, 35 + (uint64_t)c);         /* Ca = initvalu[35 + c] * 1e3 */
        for (int q = 1; q <= 4; q++)
            ld(r, A_PARAMS, par + (uint64_t)q);
        ld(r, A_PARAMS, 16);                   /* K, Mg: not params_offset-relative */
        ld(r, A_PARAMS, 17);
        for (int q = 0; q < 15; q++)
            ld(r, A_IT, valu + (uint64_t)q);
        for (int q = 0; q < 15; q++)
            st(r, A_FT, fbase + valu + q);
        st(r, A_FT, fbase + (uint64_t)c);      /* d_finavalu[com_offset] */
    }
    ld(r, A_PARAMS, 1);
    ld(r, A_PARAMS, 2);
    for (int c = 0; c < 3; c++) {
        ld(r, A_COM, (uint64_t)c);
        st(r, A_FT, fbase + 35 + (uint64_t)c);
    }
    for (int q = 0; q < 15; q++)               /* CaMtotDyad: Dyad + 0..9, 12..14 */
        if (q != 10 && q != 11)
            ld(r, A_IT, 46 + (uint64_t)q);
    for (int q = 0; q < 3; q++)
        ld(r, A_IT, 61 + (uint64_t)q);         /* SL + 0..2 */
    for (int q = 0; q < 3; q++)
        ld(r, A_IT, 76 + (uint64_t)q);         /* Cyt + 0..2 */
    for (int b = 46; b <= 76; b += 15)
        for (int q = 0; q < 3; q++)
            st(r, A_FT, fbase + (uint64_t)b + q);
}

/* b_sj != 0 of stage s (bit t: finavalu_temp row t), from the source's
 * if (j == s) chain. */
static const uint32_t stage_rows[NSTAGE] = {
    0,
    1u << 0,
    1u << 0 | 1u << 1,
    1u << 0 | 1u << 2,
    1u << 0 | 1u << 2 | 1u << 3,
    1u << 0 | 1u << 3 | 1u << 4,
    1u << 0 | 1u << 3 | 1u << 4 | 1u << 5,
    1u << 0 | 1u << 4 | 1u << 5 | 1u << 6,
    1u << 0 | 0xf8u,                           /* 3..7 */
    1u << 0 | 0x1f8u,                          /* 3..8 */
    1u << 0 | 0x3f8u,                          /* 3..9 */
    1u << 0 | 0x3e0u,                          /* 5..9 */
    1u << 0 | 0x3f8u | 1u << 11,               /* 3..9, 11 */
};

static void fehlberg(ref *r, uint64_t yi, uint64_t yc)
{
    for (uint32_t s = 0; s < NSTAGE; s++) {
        for (uint32_t i = 0; i < EQ; i++) {
            ld(r, A_Y, yi + i);
            for (uint32_t t = 0; t < 12; t++)
                if (stage_rows[s] >> t & 1)
                    ld(r, A_FT, t * EQ + i);
            st(r, A_IT, i);
        }
        kernel_2(r, s * EQ);
        for (uint32_t i = 0; i < EQ; i++)      /* isnan, then isinf of the same value */
            ld(r, A_FT, s * EQ + i);
    }
    static const uint32_t fin[] = {0, 10, 5, 6, 7, 8, 9}, er[] = {0, 10, 11, 12};
    for (uint32_t i = 0; i < EQ; i++) {
        ld(r, A_Y, yi + i);
        for (int t = 0; t < 7; t++)
            ld(r, A_FT, fin[t] * EQ + i);
        st(r, A_Y, yc + i);
    }
    for (uint32_t i = 0; i < EQ; i++) {
        for (int t = 0; t < 4; t++)
            ld(r, A_FT, er[t] * EQ + i);
        st(r, A_ERR, i);
    }
}

/* Attempts per step: the documented draw, 1 (r < 2), 2 or 3. */
static void draw_attempts(uint64_t seed, uint32_t xmax, uint8_t *att)
{
    gm_prng p;
    gm_prng_seed(&p, seed, 0x3c7e);
    for (uint32_t k = 1; k <= xmax; k++) {
        uint64_t v = gm_prng_below(&p, 4);
        att[k] = v == 3 ? 3 : v == 2 ? 2 : 1;
    }
}

static void build_ref(ref *r, uint32_t xmax, uint32_t workload, uint64_t seed)
{
    uint8_t *att = calloc(xmax + 1, 1);
    uint64_t bytes[NARR], next = 0x10000000ull;
    assert_non_null(att);
    draw_attempts(seed, xmax, att);
    memset(r, 0, sizeof *r);
    r->xmax = xmax;
    /* work_2's cudaMalloc order and sizes */
    r->stride[A_Y] = (uint64_t)(xmax + 1) * EQ;
    r->stride[A_X] = xmax + 1;
    r->stride[A_PARAMS] = 18;
    r->stride[A_COM] = 3;
    r->stride[A_ERR] = r->stride[A_SCALE] = r->stride[A_YY] = r->stride[A_IT] = EQ;
    r->stride[A_FT] = 13 * EQ;
    for (int a = 0; a < NARR; a++) {
        bytes[a] = 4 * r->stride[a] * workload;
        r->base[a] = next;
        next += (bytes[a] + 4095) / 4096 * 4096;
    }
    for (uint32_t k = 1; k <= xmax; k++) {
        uint64_t yi = (uint64_t)(k - 1) * EQ, yc = (uint64_t)k * EQ;
        st(r, A_X, k);                          /* x[xp] = k */
        for (uint32_t j = 0; j < att[k]; j++) {
            if (j)                              /* the argument x[xp]; j = 0 reuses the store */
                ld(r, A_X, k);
            fehlberg(r, yi, yc);
            for (uint32_t i = 0; i < EQ; i++)   /* err[i] > 0 */
                ld(r, A_ERR, i);
            for (uint32_t i = 0; i < EQ; i++) { /* yy, scale */
                ld(r, A_Y, yi + i);
                st(r, A_YY, i);
                ld(r, A_ERR, i);
                st(r, A_SCALE, i);
            }
            for (uint32_t i = 0; i < EQ; i++) { /* outside */
                ld(r, A_ERR, i);
                ld(r, A_YY, i);
            }
            if (j + 1 < att[k])                 /* the step-size update reads x[xp] */
                ld(r, A_X, k);
        }
        ld(r, A_X, k);                          /* x[xp] = x[xp] + h */
        st(r, A_X, k);
    }
    free(att);
}

/* ---------------------------------------------------------------- walking */

typedef struct walk {
    const ref *r;
    size_t pos;
    uint32_t cta, active, exist;
    reg_use regs;
    uint64_t loads, stores, dp, exits;
} walk;

static void check_one(const gm_inst *in, uint32_t exist, void *arg)
{
    walk *w = arg;
    check_lanes(in, exist);
    check_regs(&w->regs, in);
    w->exits += in->op == GM_OP_EXIT;
    w->dp += in->op == GM_OP_DP;
    assert_int_not_equal(in->op, GM_OP_BARRIER);
    if (in->op != GM_OP_GLOBAL_LD && in->op != GM_OP_GLOBAL_ST) {
        assert_false(gm_op_is_mem(in->op));
        return;
    }
    int store = in->op == GM_OP_GLOBAL_ST;
    w->loads += !store;
    w->stores += store;
    assert_true(w->pos < w->r->n);
    const ref_acc *e = &w->r->a[w->pos++];
    assert_int_equal(in->mask, w->active);
    assert_int_equal(store, e->store);
    assert_int_equal(in->width, 4);
    int ro = !store && (e->arr == A_PARAMS || e->arr == A_COM);
    assert_int_equal(in->flags, ro ? GM_INST_READ_ONLY : 0);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint64_t tid = (uint64_t)w->cta * 32 + l;
        uint64_t want = w->r->base[e->arr] + 4 * (tid * w->r->stride[e->arr] + e->off);
        if (w->active >> l & 1 && in->addr[l] != want)
            fail_msg("cta %u lane %u access %zu: addr 0x%llx, expected 0x%llx (array %d off %u)",
                     w->cta, l, w->pos - 1, (unsigned long long)in->addr[l],
                     (unsigned long long)want, e->arr, e->off);
    }
}

/* Every warp of the launch against the reference; returns the loads and
 * stores of one working warp. */
static void check_launch(const gm_workload *wl, uint32_t xmax, uint32_t workload, uint64_t seed,
                         uint64_t *loads, uint64_t *stores)
{
    ref r;
    build_ref(&r, xmax, workload, seed);
    assert_int_equal(wl->nkernels, 1);
    const gm_kernel *k = &wl->kernels[0];
    uint32_t ctas = workload == 1 ? 4 : (workload + 31) / 32;
    assert_string_equal(k->name, "solver_2");
    assert_int_equal(k->grid.x, ctas);
    assert_int_equal(k->grid.y * k->grid.z, 1);
    assert_int_equal(k->block.x * k->block.y * k->block.z, 32);
    const gm_myocyte_params *p = k->params;
    assert_true(p->y == r.base[A_Y] && p->x == r.base[A_X] && p->params == r.base[A_PARAMS]);
    assert_true(p->com == r.base[A_COM] && p->err == r.base[A_ERR]);
    assert_true(p->scale == r.base[A_SCALE] && p->yy == r.base[A_YY]);
    assert_true(p->initvalu_temp == r.base[A_IT] && p->finavalu_temp == r.base[A_FT]);

    for (uint32_t c = 0; c < ctas; c++) {
        walk *w = calloc(1, sizeof *w);
        assert_non_null(w);
        w->r = &r;
        w->cta = c;
        w->regs.lanewise = 1;
        uint64_t first = (uint64_t)c * 32;
        uint64_t n = first >= workload ? 0 : workload - first;
        w->active = n >= 32 ? 0xffffffffu : (uint32_t)((1ull << n) - 1);
        run_warp(k, c, 0, 64, check_one, w);
        check_regs_consumed(&w->regs, k, c, 0);
        assert_int_equal(w->exits, 1);
        /* a warp without work runs the prologue and exits */
        assert_int_equal(w->pos, w->active ? r.n : 0);
        if (w->active) {
            *loads = w->loads;
            *stores = w->stores;
            assert_true(w->dp > 0);
        }
        free(w);
    }
    free(r.a);
}

static gm_workload build_dims(uint32_t xmax, uint32_t workload, uint64_t seed)
{
    gm_workload w;
    gm_error err;
    if (gm_myocyte_build_dims(&w, xmax, workload, seed, &err))
        fail_msg("%s", err.msg);
    return w;
}

/* kernel_2 alone, counted by hand from the source: ecc 1 + 39 loads, 46
 * stores; each cam 1 + 6 + 15 loads, 16 stores; fin 2 + 3 + 13 + 3 + 3
 * loads, 3 + 9 stores. */
static void test_kernel2_counts(void **state)
{
    (void)state;
    ref r;
    memset(&r, 0, sizeof r);
    kernel_2(&r, 0);
    size_t st_n = 0;
    int stored[GM_MYO_EQUATIONS] = {0};
    for (size_t i = 0; i < r.n; i++)
        if (r.a[i].store) {
            st_n++;
            stored[r.a[i].off]++;
        }
    assert_int_equal(r.n - st_n, 40 + 3 * 22 + 24);
    assert_int_equal(st_n, 46 + 3 * 16 + 12);
    assert_int_equal(r.n, GM_MYO_K2_MEM);
    /* every derivative 0..90 is stored at least once */
    for (unsigned q = 0; q < GM_MYO_EQUATIONS; q++)
        assert_true(stored[q] >= 1);
    free(r.a);
}

static void test_myocyte_tiny(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err;
    uint64_t l = 0, s = 0;
    assert_int_equal(gm_workload_build(&w, "myocyte", GM_SIZE_TINY, 1, &err), 0);
    check_launch(&w, 1, 32, 1, &l, &s);
    /* one step: closed form of the reference per attempt a:
     * fehlberg 13 * (91 * (1 + t_s) + 130 + 91) + 91 * 8 + 91 * 4 loads */
    uint64_t rows = 0;
    for (int q = 0; q < NSTAGE; q++)
        rows += (uint64_t)__builtin_popcount(stage_rows[q]);
    uint64_t per_att = 13 * (91 + 130 + 91) + 91 * rows + 91 * 12 + 91 + 2 * 91 + 2 * 91;
    uint8_t att[2];
    draw_attempts(1, 1, att);
    assert_int_equal(l, per_att * att[1] + (att[1] - 1) * 2 + 1);
    assert_int_equal(s, (13 * (91 + 106) + 2 * 91 + 2 * 91) * (uint64_t)att[1] + 2);
    gm_workload_free(&w);
}

static void test_myocyte_shapes(void **state)
{
    (void)state;
    uint64_t l, s;
    /* a partial last warp, several steps with retries */
    gm_workload w = build_dims(3, 40, 5);
    check_launch(&w, 3, 40, 5, &l, &s);
    gm_workload_free(&w);
    /* workload 1: work_2's special 4 x 32 launch, one working thread */
    w = build_dims(2, 1, 9);
    check_launch(&w, 2, 1, 9, &l, &s);
    gm_workload_free(&w);
}

static void test_myocyte_bad_input(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err = {{0}};
    assert_int_not_equal(gm_myocyte_build_dims(&w, 0, 10, 1, &err), 0);
    assert_non_null(strstr(err.msg, "myocyte"));
    assert_int_not_equal(gm_myocyte_build_dims(&w, 10, 0, 1, &err), 0);
    /* work_2 refuses more than 1e9 bytes of y */
    assert_int_not_equal(gm_myocyte_build_dims(&w, 1000, 3000, 1, &err), 0);
    assert_int_not_equal(gm_myocyte_build(&w, (gm_size)7, 1, &err), 0);
}

/* Documented sizes: tiny 1 ms x 32, small 4 x 480, standard 100 x 100. */
static void test_myocyte_sizes(void **state)
{
    (void)state;
    static const uint32_t xm[] = {1, 4, 100}, inst[] = {32, 480, 100}, ctas[] = {1, 15, 4};
    for (int s = 0; s <= GM_SIZE_STANDARD; s++) {
        gm_workload w;
        gm_error err;
        assert_int_equal(gm_workload_build(&w, "myocyte", (gm_size)s, 1, &err), 0);
        const gm_myocyte_params *p = w.kernels[0].params;
        assert_int_equal(p->xmax, xm[s]);
        assert_int_equal(p->workload, inst[s]);
        assert_int_equal(w.kernels[0].grid.x, ctas[s]);
        /* kernel_2's letters fit their buffer; its memory letters are the
         * 236 accesses */
        size_t len = strlen(p->k2_prog), mem = 0;
        assert_true(len > 0 && len < GM_MYO_K2_PROG);
        for (size_t i = 0; i < len; i++)
            mem += p->k2_prog[i] == 'L' || p->k2_prog[i] == 'T';
        assert_int_equal(mem, GM_MYO_K2_MEM);
        for (uint32_t k = 1; k <= p->xmax; k++)
            assert_true(p->attempts[k] >= 1 && p->attempts[k] <= GM_MYO_ATTEMPTS);
        gm_workload_free(&w);
    }
}

static void test_myocyte_catalogue_and_hash(void **state)
{
    (void)state;
    const gm_workload_info *e = gm_workload_find("myocyte");
    assert_non_null(e);
    assert_string_equal(e->suite, "Rodinia 3.1");
    assert_string_equal(e->klass, "insensitive");   /* CCN seed uRC 1% */

    gm_workload a, b, d;
    gm_error err;
    assert_int_equal(gm_workload_build(&a, "myocyte", GM_SIZE_TINY, 1, &err), 0);
    assert_int_equal(gm_workload_build(&b, "myocyte", GM_SIZE_SMALL, 1, &err), 0);
    assert_int_equal(gm_workload_build(&d, "myocyte", GM_SIZE_SMALL, 3, &err), 0);
    uint64_t h = hash_workload(&a, 16);
    assert_true(h == hash_workload(&a, 4096));
    /* the attempt draws differ between seeds 1 and 3 over the 4 small steps */
    const gm_myocyte_params *pb = b.kernels[0].params, *pd = d.kernels[0].params;
    assert_true(memcmp(pb->attempts, pd->attempts, 5) != 0);
    check_round_robin(&a.kernels[0], 0);
    const uint64_t pinned = 0x2b732ab2ea929afeull;   /* tiny, seed 1, once the checks pass */
    if (h != pinned)
        fail_msg("myocyte tiny: stream hash 0x%016llx, pinned 0x%016llx", (unsigned long long)h,
                 (unsigned long long)pinned);
    gm_workload_free(&a);
    gm_workload_free(&b);
    gm_workload_free(&d);
}

static void test_myocyte_simulate_tiny(void **state)
{
    (void)state;
    simulate_tiny_small("myocyte");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel2_counts),
        cmocka_unit_test(test_myocyte_tiny),
        cmocka_unit_test(test_myocyte_shapes),
        cmocka_unit_test(test_myocyte_bad_input),
        cmocka_unit_test(test_myocyte_sizes),
        cmocka_unit_test(test_myocyte_catalogue_and_hash),
        cmocka_unit_test(test_myocyte_simulate_tiny),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
