/* SelRep LLC: slice hash, replica routing, RDD and bandwidth model
 * (cmodel/designs/selrep/selrep_rdd.h), and whole-system properties of the
 * organizations (docs/designs/selrep.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "designs/selrep/selrep_rdd.h"

static gm_selrep_geom geom(uint32_t slices, uint32_t mcs, uint32_t clusters, bool hash)
{
    gm_selrep_geom g;
    gm_error err;
    assert_int_equal(gm_selrep_geom_init(&g, slices, mcs, clusters, 256, hash, &err), 0);
    return g;
}

/* Every aligned group of `slices` chunks goes one chunk to each slice, and
 * no two chunks of the range share (upper digits, slice): a bijection on
 * chunks that is perfectly balanced. */
static void test_hash_bijective_balanced(void **st)
{
    (void)st;
    gm_selrep_geom g = geom(64, 4, 16, true);
    enum { GROUPS = 4096 };
    for (uint64_t grp = 0; grp < GROUPS; grp++) {
        uint64_t seen = 0;
        for (uint64_t k = 0; k < 64; k++) {
            uint32_t s = gm_selrep_hash_slice(&g, (grp * 64 + k) * 256 + 128);
            assert_true(s < 64);
            assert_false(seen & ((uint64_t)1 << s));
            seen |= (uint64_t)1 << s;
        }
        assert_true(seen == ~(uint64_t)0);
    }
    /* both lines of a chunk stay together; the hash is not the identity */
    uint32_t moved = 0;
    for (uint64_t c = 0; c < 64 * 64; c++) {
        assert_int_equal(gm_selrep_hash_slice(&g, c * 256), gm_selrep_hash_slice(&g, c * 256 + 128));
        moved += gm_selrep_hash_slice(&g, c * 256) != c % 64;
    }
    assert_true(moved > 64 * 63 / 2);
}

static void test_hash_off_is_linear(void **st)
{
    (void)st;
    gm_selrep_geom g = geom(32, 4, 16, false);
    for (uint64_t c = 0; c < 1000; c++)
        assert_int_equal(gm_selrep_hash_slice(&g, c * 256), c % 32);
}

/* Degree 1 is home; degree d spreads one home over exactly d slices of the
 * home's MC-router, one per cluster group; the seed's Figure 9 example. */
static void test_target(void **st)
{
    (void)st;
    gm_selrep_geom g = geom(64, 4, 16, true);
    assert_int_equal(g.ndeg, 5);
    for (uint32_t home = 0; home < 64; home++)
        for (uint32_t d = 0; d < g.ndeg; d++) {
            uint64_t used = 0;
            for (uint32_t cl = 0; cl < 16; cl++) {
                uint32_t t = gm_selrep_target(&g, home, cl, d);
                assert_int_equal(t / 16, home / 16);
                if (d == 0)
                    assert_int_equal(t, home);
                /* clusters of one group share a replica */
                assert_int_equal(t, gm_selrep_target(&g, home, cl / (16u >> d) * (16u >> d), d));
                used |= (uint64_t)1 << t;
            }
            assert_int_equal(__builtin_popcountll(used), 1u << d);
        }
    /* Figure 9: 4 clusters, 4 slices, degree 2: clusters 0,1 -> slice 0,
     * clusters 2,3 -> slice 2 for a line homed in slice 0 */
    gm_selrep_geom f = geom(4, 1, 4, true);
    assert_int_equal(gm_selrep_target(&f, 0, 1, 1), 0);
    assert_int_equal(gm_selrep_target(&f, 0, 3, 1), 2);
    assert_int_equal(gm_selrep_target(&f, 0, 2, 1), 2);
}

/* The seed's Figure 10: 8 clusters; a tag touched by cluster 3 hits for
 * cluster 3 under private, misses for cluster 2 under private but hits
 * under degree 4 (clusters 2,3 share) and 2 (clusters 0..3 share). */
static void test_rdd_cluster_ids(void **st)
{
    (void)st;
    gm_selrep_geom g = geom(8, 1, 8, true);
    gm_selrep_rdd r;
    gm_error err;
    assert_int_equal(gm_selrep_rdd_init(&r, &g, 2, 16, 16, false, &err), 0);
    gm_selrep_rdd_access(&r, 1, 0x1000, 3);     /* cold: no hit anywhere */
    for (uint32_t d = 0; d < g.ndeg; d++)
        assert_int_equal(r.c.hits[d], 0);
    gm_selrep_rdd_access(&r, 1, 0x1000, 3);     /* same cluster: hit everywhere */
    for (uint32_t d = 0; d < g.ndeg; d++)
        assert_int_equal(r.c.hits[d], 1);
    gm_selrep_rdd_access(&r, 1, 0x1000, 2);     /* degrees 1, 2, 4 hit; 8 misses */
    assert_int_equal(r.c.hits[0], 2);
    assert_int_equal(r.c.hits[1], 2);
    assert_int_equal(r.c.hits[2], 2);
    assert_int_equal(r.c.hits[3], 1);
    gm_selrep_rdd_access(&r, 0, 0x1000, 3);     /* other set: a different entry */
    assert_int_equal(r.c.hits[0], 2);
    assert_int_equal(r.c.acc, 4);
    gm_selrep_rdd_free(&r);
}

/* 17 lines in a 16-way set: LRU evicts the first one; with the capacity
 * rule a line at LRU position p hits only under degrees with ways/d > p. */
static void test_rdd_lru_capacity(void **st)
{
    (void)st;
    gm_selrep_geom g = geom(16, 1, 16, true);
    gm_selrep_rdd r;
    gm_error err;
    assert_int_equal(gm_selrep_rdd_init(&r, &g, 1, 16, 16, true, &err), 0);
    for (uint64_t i = 0; i < 17; i++)
        gm_selrep_rdd_access(&r, 0, i * 128, 0);
    gm_selrep_rdd_clear(&r);
    gm_selrep_rdd_access(&r, 0, 0, 0);          /* evicted: miss */
    assert_int_equal(r.c.hits[0], 0);
    /* now 0 is MRU; line 16 is position 1, line 9 position 8 */
    gm_selrep_rdd_access(&r, 0, 16 * 128, 0);
    assert_int_equal(r.c.hits[0], 1);   /* 16 ways */
    assert_int_equal(r.c.hits[3], 1);   /* 2 ways: position 1 < 2 */
    assert_int_equal(r.c.hits[4], 0);   /* 1 way */
    gm_selrep_rdd_free(&r);
}

static void test_counters_saturate(void **st)
{
    (void)st;
    gm_selrep_geom g = geom(16, 1, 16, true);
    gm_selrep_rdd r;
    gm_error err;
    assert_int_equal(gm_selrep_rdd_init(&r, &g, 2, 16, 4, false, &err), 0);
    for (uint32_t i = 0; i < 100; i++) {
        gm_selrep_rdd_access(&r, 0, 0x80, 5);
        gm_selrep_rdd_count_request(&r, &g, 3, 5);
    }
    assert_int_equal(r.c.acc, 15);
    assert_int_equal(r.c.hits[0], 15);
    assert_int_equal(r.c.req[0][3], 15);
    assert_int_equal(r.c.req[4][5], 15);
    gm_selrep_rdd_free(&r);
}

/* The model against an independent long-double evaluation of the seed's
 * equations (allowed here: the test is not the model). */
static long double model_ref(const gm_selrep_counters *c, uint32_t d, uint32_t bl, uint32_t bm)
{
    long double sum = 0, max = 0;
    for (uint32_t i = 0; i < c->per_mc; i++) {
        sum += c->req[d][i];
        if (c->req[d][i] > max)
            max = c->req[d][i];
    }
    if (max == 0 || c->acc == 0)
        return 0;
    long double h = (long double)c->hits[d] / c->acc;
    long double miss = (1 - h) * bl;
    return sum / max * (h * bl + (miss < bm ? miss : bm));
}

static void test_model_matches_reference(void **st)
{
    (void)st;
    uint64_t x = 88172645463325252ull;
    for (int trial = 0; trial < 20000; trial++) {
        gm_selrep_counters c = {.ndeg = 5, .per_mc = 16};
        uint32_t max = trial % 3 == 0 ? 65535 : 1 + trial % 5000;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        c.acc = (uint32_t)(x % (max + 1));
        for (uint32_t d = 0; d < 5; d++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            c.hits[d] = c.acc ? (uint32_t)(x % (c.acc + 1)) : 0;
            for (uint32_t i = 0; i < 16; i++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                c.req[d][i] = (uint32_t)(x % (max + 1));
            }
        }
        uint32_t bl = 1 + (uint32_t)(x % 1023), bm = 1 + (uint32_t)((x >> 20) % 1023);
        for (uint32_t d = 0; d < 5; d++) {
            long double ref = model_ref(&c, d, bl, bm) * 65536.0L;
            long double got = (long double)gm_selrep_bandwidth(&c, d, bl, bm);
            /* floor rounding: got <= ref < got + 1 (small slack for ref) */
            assert_true(got <= ref + 1e-6L * ref + 1e-9L);
            assert_true(ref < got + 1 + 1e-6L * ref);
        }
    }
}

/* No intermediate overflows at the counters' maxima: every counter at
 * 2^16 - 1, bandwidths at their maximum; the result must equal the exact
 * value LSP(16) * B_LLC (H = 1) = 16 * 1023 in fixed point. */
static void test_model_no_overflow_at_maxima(void **st)
{
    (void)st;
    assert_true(gm_selrep_max_counter_bits(16) >= 16);
    gm_selrep_counters c = {.ndeg = 5, .per_mc = 16, .acc = 65535};
    for (uint32_t d = 0; d < 5; d++) {
        c.hits[d] = 65535;
        for (uint32_t i = 0; i < 16; i++)
            c.req[d][i] = 65535;
    }
    assert_true(gm_selrep_bandwidth(&c, 0, GM_SELREP_MAX_BW, GM_SELREP_MAX_BW) ==
                (uint64_t)16 * GM_SELREP_MAX_BW << GM_SELREP_FRAC_BITS);
    c.hits[0] = 0;   /* all misses, memory bound: LSP * B_mem */
    assert_true(gm_selrep_bandwidth(&c, 0, GM_SELREP_MAX_BW, 1) ==
                (uint64_t)16 << GM_SELREP_FRAC_BITS);
}

/* Ties go to the lowest degree; the candidate mask is honoured; with no
 * request, or no sampled access, the current degree is kept. */
static void test_pick(void **st)
{
    (void)st;
    gm_selrep_counters c = {.ndeg = 5, .per_mc = 16, .acc = 100};
    uint32_t keep = 3;
    assert_int_equal(gm_selrep_pick(&c, 448, 94, 31, keep, NULL), keep);
    /* every degree: same balanced requests and hits -> tie -> degree 1 */
    for (uint32_t d = 0; d < 5; d++) {
        c.hits[d] = 90;
        for (uint32_t i = 0; i < 16; i++)
            c.req[d][i] = 10;
    }
    assert_int_equal(gm_selrep_pick(&c, 448, 94, 31, keep, NULL), 0);
    /* a hot slice under shared: replication wins while hits hold */
    for (uint32_t i = 1; i < 16; i++)
        c.req[0][i] = 1;
    assert_int_equal(gm_selrep_pick(&c, 448, 94, 31, keep, NULL), 1);
    /* adaptive's all-or-nothing choice skips the middle degrees */
    assert_int_equal(gm_selrep_pick(&c, 448, 94, 1u | 16u, keep, NULL), 4);
    /* private loses its hits and memory is slow: 16 * 20 = 320 against
     * shared's 2.5 * (0.9 * 448 + 44.8) = 1120 */
    c.hits[4] = 0;
    c.hits[1] = c.hits[2] = c.hits[3] = 0;
    assert_int_equal(gm_selrep_pick(&c, 448, 20, 1u | 16u, keep, NULL), 0);
    /* with fast memory the misses cost little: 16 * 94 = 1504 wins */
    assert_int_equal(gm_selrep_pick(&c, 448, 94, 1u | 16u, keep, NULL), 4);
    /* the same requests with no sampled access: nothing predicted, every
     * B is 0 and the degree in force stays (not the most balanced one) */
    c.acc = 0;
    for (uint32_t d = 0; d < 5; d++)
        c.hits[d] = 0;
    uint64_t b[GM_SELREP_MAX_DEG];
    assert_int_equal(gm_selrep_pick(&c, 448, 94, 31, keep, b), keep);
    for (uint32_t d = 0; d < 5; d++)
        assert_true(b[d] == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_bijective_balanced),
        cmocka_unit_test(test_hash_off_is_linear),
        cmocka_unit_test(test_target),
        cmocka_unit_test(test_rdd_cluster_ids),
        cmocka_unit_test(test_rdd_lru_capacity),
        cmocka_unit_test(test_counters_saturate),
        cmocka_unit_test(test_model_matches_reference),
        cmocka_unit_test(test_model_no_overflow_at_maxima),
        cmocka_unit_test(test_pick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
