/* Tag array, MSHR table and residency map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cache/mshr.h"
#include "cache/residency.h"
#include "cache/tag_array.h"
#include "sim/prng.h"

#define L(n) ((uint64_t)(n) * 128u) /* address of line number n */

/* ---- tag array ------------------------------------------------------------ */

static void test_tag_geometry_and_errors(void **state)
{
    (void)state;
    gm_tag_array t;
    gm_error err;
    assert_int_equal(gm_tag_array_init(&t, 16384, 128, 4, &err), 0);
    assert_int_equal(t.sets, 32); /* 16 KB / (128 B x 4) */
    gm_tag_array_free(&t);
    assert_int_equal(gm_tag_array_init(&t, 128 * 1024, 128, 8, &err), 0);
    assert_int_equal(t.sets, 128);
    gm_tag_array_free(&t);

    assert_int_not_equal(gm_tag_array_init(&t, 1000, 128, 4, &err), 0);
    assert_non_null(strstr(err.msg, "multiple"));
    assert_int_not_equal(gm_tag_array_init(&t, 16384, 96, 4, &err), 0);
    assert_int_not_equal(gm_tag_array_init(&t, 16384, 128, 0, &err), 0);
    assert_int_not_equal(gm_tag_array_init(&t, 0, 128, 4, &err), 0);
}

static void test_tag_hit_miss(void **state)
{
    (void)state;
    gm_tag_array t;
    assert_int_equal(gm_tag_array_init(&t, 16384, 128, 4, NULL), 0);
    assert_int_equal(gm_tag_probe(&t, L(5)), -1);
    gm_tag_victim v;
    int32_t w = gm_tag_allocate(&t, L(5), &v);
    assert_false(v.evicted);
    assert_int_equal(gm_tag_probe(&t, L(5)), w);
    assert_int_equal(gm_tag_probe(&t, L(5) + 100), w); /* any byte of the line */
    assert_int_equal(gm_tag_lookup(&t, L(5)), w);
    /* Same set (5 + 32), different tag: a miss. */
    assert_int_equal(gm_tag_probe(&t, L(37)), -1);
    assert_int_equal(gm_tag_set(&t, L(37)), gm_tag_set(&t, L(5)));
    assert_int_equal(t.lines_used, 1);
    gm_tag_array_free(&t);
}

/* One set of 4 ways. Expected victims follow from the textbook LRU order,
 * written out in the comments (oldest first). */
static void test_tag_exact_lru(void **state)
{
    (void)state;
    gm_tag_array t;
    assert_int_equal(gm_tag_array_init(&t, 4 * 128, 128, 4, NULL), 0);
    assert_int_equal(t.sets, 1);
    enum { A = 1, B, C, D, E, F, G, H };
    gm_tag_victim v;
    for (int n = A; n <= D; n++) {
        gm_tag_allocate(&t, L(n), &v);
        assert_false(v.evicted); /* free ways are used before evicting */
    }
    /* A B C D */
    assert_true(gm_tag_lookup(&t, L(A)) >= 0); /* B C D A */
    assert_true(gm_tag_lookup(&t, L(C)) >= 0); /* B D A C */
    gm_tag_allocate(&t, L(E), &v);             /* D A C E */
    assert_true(v.evicted);
    assert_int_equal(v.addr, L(B));
    assert_true(gm_tag_lookup(&t, L(D)) >= 0); /* A C E D */
    gm_tag_allocate(&t, L(F), &v);             /* C E D F */
    assert_int_equal(v.addr, L(A));
    gm_tag_allocate(&t, L(G), &v);             /* E D F G */
    assert_int_equal(v.addr, L(C));
    /* A probe does not update LRU: E stays the oldest. */
    assert_true(gm_tag_probe(&t, L(E)) >= 0);
    assert_int_equal(gm_tag_victim_way(&t, L(H)), gm_tag_probe(&t, L(E)));
    gm_tag_allocate(&t, L(H), &v); /* D F G H */
    assert_int_equal(v.addr, L(E));
    /* An explicit touch does. */
    gm_tag_touch(&t, gm_tag_probe(&t, L(D))); /* F G H D */
    gm_tag_allocate(&t, L(A), &v);
    assert_int_equal(v.addr, L(F));
    gm_tag_array_free(&t);
}

static void test_tag_invalidate(void **state)
{
    (void)state;
    gm_tag_array t;
    assert_int_equal(gm_tag_array_init(&t, 2 * 128, 128, 2, NULL), 0);
    gm_tag_victim v;
    gm_tag_allocate(&t, L(1), &v);
    int32_t w2 = gm_tag_allocate(&t, L(2), &v);
    assert_int_equal(t.lines_used, 2);
    gm_tag_invalidate(&t, w2);
    assert_int_equal(gm_tag_probe(&t, L(2)), -1);
    assert_int_equal(t.lines_used, 1);
    /* The freed way is reused without evicting line 1, although line 1 is
     * older. */
    assert_int_equal(gm_tag_allocate(&t, L(3), &v), w2);
    assert_false(v.evicted);
    assert_true(gm_tag_probe(&t, L(1)) >= 0);
    gm_tag_array_free(&t);
}

static void test_tag_sectors(void **state)
{
    (void)state;
    gm_tag_array t;
    assert_int_equal(gm_tag_array_init(&t, 128, 128, 1, NULL), 0);
    int32_t w = gm_tag_allocate(&t, L(7), NULL);
    assert_false(gm_tag_has_sectors(&t, w, 0x1)); /* allocated with nothing valid */
    gm_tag_line *l = gm_tag_line_at(&t, w);
    l->valid |= 0x3;
    l->dirty |= 0x2;
    assert_true(gm_tag_has_sectors(&t, w, 0x1));
    assert_true(gm_tag_has_sectors(&t, w, 0x3));
    assert_false(gm_tag_has_sectors(&t, w, 0x4));
    assert_false(gm_tag_has_sectors(&t, w, 0x7));
    gm_tag_victim v;
    gm_tag_allocate(&t, L(8), &v); /* direct-mapped: evicts line 7 */
    assert_true(v.evicted);
    assert_int_equal(v.addr, L(7));
    assert_int_equal(v.valid, 0x3);
    assert_int_equal(v.dirty, 0x2);
    assert_int_equal(gm_tag_line_at(&t, gm_tag_probe(&t, L(8)))->dirty, 0);
    gm_tag_array_free(&t);
}

static void test_tag_non_pow2_sets(void **state)
{
    (void)state;
    gm_tag_array t;
    assert_int_equal(gm_tag_array_init(&t, 3 * 2 * 128, 128, 2, NULL), 0);
    assert_int_equal(t.sets, 3);
    for (uint64_t n = 0; n < 12; n++)
        assert_int_equal(gm_tag_set(&t, L(n)), n % 3);
    gm_tag_victim v;
    for (uint64_t n = 0; n < 6; n++) { /* two lines per set: no eviction */
        gm_tag_allocate(&t, L(n), &v);
        assert_false(v.evicted);
    }
    gm_tag_allocate(&t, L(9), &v); /* set 0 holds 0 and 3; 0 is older */
    assert_true(v.evicted);
    assert_int_equal(v.addr, L(0));
    for (uint64_t n = 1; n < 6; n++)
        assert_true(gm_tag_probe(&t, L(n)) >= 0);
    gm_tag_array_free(&t);
}

/* Reference: each set is an array of line numbers ordered oldest first. */
static void test_tag_random_vs_reference(void **state)
{
    (void)state;
    enum { SETS = 5, WAYS = 3, LINES = 40, STEPS = 20000 };
    gm_tag_array t;
    assert_int_equal(gm_tag_array_init(&t, SETS * WAYS * 128, 128, WAYS, NULL), 0);
    uint64_t ref[SETS][WAYS];
    int nref[SETS] = {0};
    gm_prng p;
    gm_prng_seed(&p, 42, 1);
    for (int step = 0; step < STEPS; step++) {
        uint64_t n = gm_prng_below(&p, LINES);
        int s = (int)(n % SETS);
        int pos = -1;
        for (int i = 0; i < nref[s]; i++)
            if (ref[s][i] == n)
                pos = i;
        int32_t w = gm_tag_lookup(&t, L(n));
        assert_int_equal(w >= 0, pos >= 0);
        if (pos < 0) {
            gm_tag_victim v;
            gm_tag_allocate(&t, L(n), &v);
            assert_int_equal(v.evicted, nref[s] == WAYS);
            if (nref[s] == WAYS) {
                assert_int_equal(v.addr, L(ref[s][0]));
                pos = 0;
            } else {
                pos = nref[s]++;
            }
        }
        memmove(&ref[s][pos], &ref[s][pos + 1], (size_t)(nref[s] - 1 - pos) * sizeof ref[s][0]);
        ref[s][nref[s] - 1] = n;
    }
    gm_tag_array_free(&t);
}

/* The lines one L2 slice sees under 256 B interleaving over 32 slices:
 * chunk 32k + s, i.e. lines 64k + 2s and 64k + 2s + 1. */
static uint64_t slice_line(uint64_t i, uint64_t slice)
{
    return L(2 * (32 * (i / 2) + slice) + i % 2);
}

/* The probe compares a packed per-way key; here it must find exactly the
 * way a scan of the lines' own used and addr fields finds, through
 * allocations, evictions and invalidations (an invalidated way keeps its
 * old addr, so a stale key would show as a false hit). */
static int32_t probe_by_lines(const gm_tag_array *t, uint64_t addr)
{
    uint64_t a = addr & ~(uint64_t)(t->line_bytes - 1);
    for (uint32_t i = 0; i < t->sets * t->assoc; i++)
        if (t->line[i].used && t->line[i].addr == a)
            return (int32_t)i;
    return -1;
}

static void test_tag_probe_key_vs_lines(void **state)
{
    (void)state;
    gm_tag_array t;
    gm_error err;
    assert_int_equal(gm_tag_array_init(&t, 3 * 4 * 64, 64, 4, &err), 0); /* 3 sets */
    gm_prng p;
    gm_prng_seed(&p, 7, 3);
    int hits = 0, stale = 0;
    for (int step = 0; step < 20000; step++) {
        uint64_t addr = gm_prng_below(&p, 40) * 64 + gm_prng_below(&p, 64);
        int32_t way = gm_tag_probe(&t, addr);
        assert_int_equal(way, probe_by_lines(&t, addr));
        hits += way >= 0;
        switch (gm_prng_below(&p, 3)) {
        case 0:
            if (way < 0)
                gm_tag_allocate(&t, addr, 0);
            break;
        case 1:
            if (way >= 0) {
                gm_tag_invalidate(&t, way);
                assert_int_equal(gm_tag_probe(&t, addr), -1);
                stale++;
            }
            break;
        default:
            break;
        }
    }
    assert_true(hits > 1000);
    assert_true(stale > 1000);
    gm_tag_array_free(&t);
}

static void test_tag_interleave(void **state)
{
    (void)state;
    gm_tag_array t;
    assert_int_equal(gm_tag_array_init(&t, 128 * 1024, 128, 8, NULL), 0);
    assert_int_equal(t.sets, 128);
    /* Global line-number indexing uses only 4 sets for one slice's lines. */
    static uint8_t seen[128];
    memset(seen, 0, sizeof seen);
    int used = 0;
    for (uint64_t i = 0; i < 4096; i++) {
        uint32_t set = gm_tag_set(&t, slice_line(i, 3));
        used += !seen[set];
        seen[set] = 1;
    }
    assert_int_equal(used, 4);

    gm_error err;
    assert_int_not_equal(gm_tag_array_set_interleave(&t, 64, 32, &err), 0);
    assert_int_not_equal(gm_tag_array_set_interleave(&t, 256, 0, &err), 0);
    assert_int_equal(gm_tag_array_set_interleave(&t, 256, 32, &err), 0);
    /* Slice-local indexing: the slice's i-th line is local line i, so the
     * first 1024 fill every set exactly 8 times and evict nothing. */
    for (uint64_t i = 0; i < 1024; i++)
        assert_int_equal(gm_tag_set(&t, slice_line(i, 3)), i % 128);
    gm_tag_victim v;
    for (uint64_t i = 0; i < 1024; i++) {
        gm_tag_allocate(&t, slice_line(i, 3), &v);
        assert_false(v.evicted);
    }
    gm_tag_allocate(&t, slice_line(1024, 3), &v);
    assert_true(v.evicted);
    assert_int_equal(v.addr, slice_line(0, 3)); /* local line 1024 is in set 0 */
    gm_tag_array_free(&t);

    /* Non-power-of-two everything: 3 owners, 384 B chunks, 5 sets. */
    assert_int_equal(gm_tag_array_init(&t, 5 * 128, 128, 1, NULL), 0);
    assert_int_equal(gm_tag_array_set_interleave(&t, 384, 3, NULL), 0);
    for (uint64_t i = 0; i < 60; i++) { /* owner 2: chunks 3j + 2, 3 lines each */
        uint64_t line = 3 * (3 * (i / 3) + 2) + i % 3;
        assert_int_equal(gm_tag_set(&t, L(line)), i % 5);
    }
    gm_tag_array_free(&t);
}

/* ---- MSHR ------------------------------------------------------------------ */

static void test_mshr_merge_and_release(void **state)
{
    (void)state;
    gm_mshr m;
    assert_int_equal(gm_mshr_init(&m, 2, 3, NULL), 0);
    gm_req r[6];
    memset(r, 0, sizeof r);
    assert_int_equal(gm_mshr_lookup(&m, L(1)), -1);
    int32_t e = gm_mshr_allocate(&m, L(1), &r[0]);
    assert_true(e >= 0);
    assert_int_equal(gm_mshr_lookup(&m, L(1)), e);
    assert_int_equal(gm_mshr_lookup(&m, L(2)), -1);
    assert_true(gm_mshr_can_merge(&m, e));
    assert_int_equal(gm_mshr_merge(&m, e, &r[1]), 0);
    assert_int_equal(gm_mshr_merge(&m, e, &r[2]), 0);
    /* Three requests (primary included) is the limit. */
    assert_false(gm_mshr_can_merge(&m, e));
    assert_int_equal(gm_mshr_merge(&m, e, &r[3]), -1);

    int32_t e2 = gm_mshr_allocate(&m, L(2), &r[4]);
    assert_true(e2 >= 0 && e2 != e);
    assert_true(gm_mshr_full(&m));
    assert_int_equal(gm_mshr_allocate(&m, L(3), &r[5]), -1);

    r[0].next = &r[5]; /* stale link from the primary's travels */
    gm_req *list = gm_mshr_release(&m, e);
    assert_ptr_equal(list, &r[0]);
    assert_ptr_equal(list->next, &r[1]);
    assert_ptr_equal(list->next->next, &r[2]);
    assert_null(list->next->next->next);
    assert_int_equal(gm_mshr_lookup(&m, L(1)), -1);
    assert_int_equal(gm_mshr_lookup(&m, L(2)), e2);
    assert_false(gm_mshr_full(&m));
    assert_true(gm_mshr_allocate(&m, L(3), &r[5]) >= 0);
    list = gm_mshr_release(&m, e2);
    assert_ptr_equal(list, &r[4]);
    assert_null(list->next);
    gm_mshr_free(&m);

    gm_error err;
    assert_int_not_equal(gm_mshr_init(&m, 0, 4, &err), 0);
    assert_int_not_equal(gm_mshr_init(&m, 4, 0, &err), 0);
}

/* Many entries: the hash chains must keep every line findable through
 * random allocation and release. */
static void test_mshr_large_random(void **state)
{
    (void)state;
    enum { N = 300, LINES = 1000, STEPS = 50000 };
    gm_mshr m;
    assert_int_equal(gm_mshr_init(&m, N, 2, NULL), 0);
    static int32_t where[LINES]; /* reference: entry of each line, -1 none */
    static gm_req reqs[LINES];
    for (int i = 0; i < LINES; i++)
        where[i] = -1;
    uint32_t used = 0;
    gm_prng p;
    gm_prng_seed(&p, 7, 2);
    for (int step = 0; step < STEPS; step++) {
        uint64_t n = gm_prng_below(&p, LINES);
        /* Lines 8 KB apart share low bits, which stresses the hash. */
        uint64_t a = n * 8192;
        assert_int_equal(gm_mshr_lookup(&m, a), where[n]);
        if (where[n] >= 0) {
            gm_req *l = gm_mshr_release(&m, where[n]);
            assert_ptr_equal(l, &reqs[n]);
            where[n] = -1;
            used--;
        } else {
            int32_t e = gm_mshr_allocate(&m, a, &reqs[n]);
            if (used == N) {
                assert_int_equal(e, -1);
            } else {
                assert_true(e >= 0);
                where[n] = e;
                used++;
            }
        }
        assert_int_equal(m.used, used);
    }
    gm_mshr_free(&m);
}

/* ---- residency ------------------------------------------------------------- */

static void test_residency_counts(void **state)
{
    (void)state;
    gm_residency r;
    assert_int_equal(gm_residency_init(&r, NULL), 0);
    assert_int_equal(gm_residency_count(&r, L(3)), 0);
    assert_int_equal(gm_residency_add(&r, L(3)), 0);
    assert_int_equal(gm_residency_add(&r, L(3)), 0);
    assert_int_equal(gm_residency_add(&r, L(0)), 0); /* line 0 is a real line */
    assert_int_equal(gm_residency_count(&r, L(3)), 2);
    assert_int_equal(gm_residency_count(&r, L(0)), 1);
    assert_int_equal(r.total_resident_lines, 3);
    assert_int_equal(r.distinct_lines, 2);
    gm_residency_remove(&r, L(3));
    assert_int_equal(gm_residency_count(&r, L(3)), 1);
    assert_int_equal(r.distinct_lines, 2);
    gm_residency_remove(&r, L(3));
    assert_int_equal(gm_residency_count(&r, L(3)), 0);
    assert_int_equal(r.distinct_lines, 1);
    assert_int_equal(r.total_resident_lines, 1);
    gm_residency_free(&r);
}

/* Random adds and removes, past several table growths, against a plain
 * count array. Afterwards every line is checked, which catches a deletion
 * that breaks a probe run. */
static void test_residency_random_vs_reference(void **state)
{
    (void)state;
    enum { LINES = 30000, STEPS = 400000 };
    static uint32_t ref[LINES];
    memset(ref, 0, sizeof ref);
    gm_residency r;
    assert_int_equal(gm_residency_init(&r, NULL), 0);
    uint64_t total = 0;
    uint32_t distinct = 0;
    gm_prng p;
    gm_prng_seed(&p, 99, 3);
    for (int step = 0; step < STEPS; step++) {
        uint64_t n = gm_prng_below(&p, LINES);
        /* Grow in the first half, churn in the second. */
        bool add = step < STEPS / 2 ? gm_prng_below(&p, 4) != 0 : gm_prng_below(&p, 2) != 0;
        if (add) {
            assert_int_equal(gm_residency_add(&r, L(n)), 0);
            distinct += ref[n] == 0;
            ref[n]++;
            total++;
        } else if (ref[n]) {
            gm_residency_remove(&r, L(n));
            ref[n]--;
            distinct -= ref[n] == 0;
            total--;
        }
        assert_int_equal(r.total_resident_lines, total);
        assert_int_equal(r.distinct_lines, distinct);
    }
    for (uint64_t n = 0; n < LINES; n++)
        assert_int_equal(gm_residency_count(&r, L(n)), ref[n]);
    assert_true(r.cap >= 2 * r.distinct_lines);
    gm_residency_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tag_geometry_and_errors),
        cmocka_unit_test(test_tag_hit_miss),
        cmocka_unit_test(test_tag_exact_lru),
        cmocka_unit_test(test_tag_invalidate),
        cmocka_unit_test(test_tag_sectors),
        cmocka_unit_test(test_tag_non_pow2_sets),
        cmocka_unit_test(test_tag_random_vs_reference),
        cmocka_unit_test(test_tag_interleave),
        cmocka_unit_test(test_tag_probe_key_vs_lines),
        cmocka_unit_test(test_mshr_merge_and_release),
        cmocka_unit_test(test_mshr_large_random),
        cmocka_unit_test(test_residency_counts),
        cmocka_unit_test(test_residency_random_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
