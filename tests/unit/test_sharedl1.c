/* The shared-L1 design's rules, each against answers worked out by hand:
 * the 3C miss classifier on hand-built address sequences, the shared L1
 * block (one access per core port per cycle, inter-core merging: two
 * cores, one line, one fetch, one fill; the miss arbiter of a single
 * link), and the clustered CTA policy's initial split and borrowing on
 * small grids (the exact core of every CTA). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/cta_sched.h"
#include "designs/sharedl1/sharedl1_3c.h"
#include "designs/sharedl1/sharedl1_cache.h"

#define L(n) ((uint64_t)(n) * 128u)

/* ---- 3C classifier ------------------------------------------------------- */

/* The real cache is direct mapped with 2 sets (line n in set n % 2), the
 * shadow fully associative with 2 lines. Expected classes by hand:
 *   0  C   FA {0}          real s0=0
 *   2  C   FA {2,0}        real s0=2
 *   0  conflict (FA hit)   FA {0,2}   real s0=0
 *   1  C   FA {1,0}        real s1=1
 *   0  hit                 FA {0,1}
 *   2  capacity (FA miss)  FA {2,0}   real s0=2
 *   1  hit (real s1=1)     FA {1,2}
 *   store 1: both drop 1   FA {2}
 *   1  capacity (seen, FA miss) */
static void test_3c_hand_sequence(void **state)
{
    (void)state;
    gm_3c c;
    gm_error err;
    assert_int_equal(gm_3c_init(&c, 2, &err), 0);
    assert_int_equal(gm_3c_load(&c, L(0), true), GM_3C_COMPULSORY);
    assert_int_equal(gm_3c_load(&c, L(2), true), GM_3C_COMPULSORY);
    assert_int_equal(gm_3c_load(&c, L(0), true), GM_3C_CONFLICT);
    assert_int_equal(gm_3c_load(&c, L(1), true), GM_3C_COMPULSORY);
    assert_int_equal(gm_3c_load(&c, L(0), false), GM_3C_HIT);
    assert_int_equal(gm_3c_load(&c, L(2), true), GM_3C_CAPACITY);
    assert_int_equal(gm_3c_load(&c, L(1), false), GM_3C_HIT);
    gm_3c_store(&c, L(1));
    assert_int_equal(gm_3c_load(&c, L(1), true), GM_3C_CAPACITY);
    assert_int_equal(c.count[GM_3C_COMPULSORY], 3);
    assert_int_equal(c.count[GM_3C_CONFLICT], 1);
    assert_int_equal(c.count[GM_3C_CAPACITY], 2);
    assert_int_equal(c.count[GM_3C_HIT], 2);
    gm_3c_free(&c);
}

/* A loop over 5 lines through a 4-line LRU cache misses every time (LRU
 * always evicts the line needed next): after the 5 first touches every
 * miss is capacity; a loop over 4 lines hits in the shadow, so the real
 * cache's misses on it are conflicts. */
static void test_3c_lru_loops(void **state)
{
    (void)state;
    gm_3c c;
    gm_error err;
    assert_int_equal(gm_3c_init(&c, 4, &err), 0);
    for (int round = 0; round < 3; round++)
        for (int n = 0; n < 5; n++)
            assert_int_equal(gm_3c_load(&c, L(100 + n), true),
                             round == 0 ? GM_3C_COMPULSORY : GM_3C_CAPACITY);
    for (int n = 0; n < 4; n++)
        gm_3c_load(&c, L(200 + n), true);
    for (int round = 0; round < 2; round++)
        for (int n = 0; n < 4; n++)
            assert_int_equal(gm_3c_load(&c, L(200 + n), true), GM_3C_CONFLICT);
    /* a merged load (gm_3c_touch) marks the line seen and counts nothing */
    uint64_t before = c.count[GM_3C_COMPULSORY] + c.count[GM_3C_CAPACITY] +
                      c.count[GM_3C_CONFLICT] + c.count[GM_3C_HIT];
    gm_3c_touch(&c, L(300));
    assert_int_equal(c.count[GM_3C_COMPULSORY] + c.count[GM_3C_CAPACITY] +
                         c.count[GM_3C_CONFLICT] + c.count[GM_3C_HIT], before);
    assert_int_equal(gm_3c_load(&c, L(300), true), GM_3C_CONFLICT);
    gm_3c_free(&c);
}

/* The seen set grows past its first size; nothing first touched twice. */
static void test_3c_many_lines(void **state)
{
    (void)state;
    gm_3c c;
    gm_error err;
    assert_int_equal(gm_3c_init(&c, 8, &err), 0);
    for (uint64_t n = 0; n < 5000; n++)
        assert_int_equal(gm_3c_load(&c, L(n * 7), true), GM_3C_COMPULSORY);
    for (uint64_t n = 0; n < 5000; n += 499)
        assert_int_equal(gm_3c_load(&c, L(n * 7), true), GM_3C_CAPACITY);
    assert_false(c.oom);
    gm_3c_free(&c);
    assert_int_not_equal(gm_3c_init(&c, 0, &err), 0);
}

/* ---- the shared L1 block ----------------------------------------------------- */

#define MAXP 4

typedef struct rig {
    gm_clock clk;
    gm_time now;
    gm_req_pool pool;
    gm_residency res;
    gm_sl1 c;
    uint32_t sf, nlinks;
    gm_link miss_out[MAXP], fill_in[MAXP];
    gm_req *done[MAXP][16];
    int ndone[MAXP];
} rig;

static void rig_init(rig *g, uint32_t sf, uint32_t nlinks)
{
    memset(g, 0, sizeof *g);
    gm_clock_init(&g->clk);
    assert_int_equal(gm_clock_add(&g->clk, "core", 1400, NULL), 0);
    assert_int_equal(gm_clock_finalize(&g->clk, NULL), 0);
    gm_req_pool_init(&g->pool);
    assert_int_equal(gm_residency_init(&g->res, NULL), 0);
    gm_cache_cfg cfg = {.size_bytes = 16384 * sf, .assoc = 4, .line_bytes = 128,
                        .latency = 3, .mshr_entries = 8, .mshr_merge = 8, .miss_queue = 4,
                        .port_bytes = 128};
    gm_error err;
    g->sf = sf;
    g->nlinks = nlinks;
    /* group 1: its cores are sf .. 2 sf - 1 */
    assert_int_equal(gm_sl1_init(&g->c, &cfg, 1, sf, nlinks, true, &g->res, &err), 0);
    for (uint32_t l = 0; l < nlinks; l++) {
        assert_int_equal(gm_link_init(&g->miss_out[l], 4, 1, &g->clk.d[0]), 0);
        assert_int_equal(gm_link_init(&g->fill_in[l], 4, 1, &g->clk.d[0]), 0);
    }
    gm_sl1_connect(&g->c, (gm_sl1_links){g->miss_out, g->fill_in});
}

static void rig_free(rig *g)
{
    gm_sl1_free(&g->c);
    for (uint32_t l = 0; l < g->nlinks; l++) {
        gm_link_free(&g->miss_out[l]);
        gm_link_free(&g->fill_in[l]);
    }
    gm_residency_free(&g->res);
    gm_req_pool_free(&g->pool);
}

static void step(rig *g)
{
    gm_clock_advance(&g->clk);
    g->now = g->clk.now;
    gm_sl1_tick(&g->c, g->now);
    for (uint32_t i = 0; i < g->sf; i++) {
        g->ndone[i] = 0;
        gm_req *r;
        while ((r = gm_sl1_pop_done(&g->c, i, g->now)) != 0)
            g->done[i][g->ndone[i]++] = r;
    }
}

static gm_req *load(rig *g, uint32_t port, uint64_t addr)
{
    gm_req *r = gm_req_alloc(&g->pool, g->now);
    r->kind = GM_REQ_LOAD;
    r->addr = addr;
    r->sectors = 0xf;
    r->src = (uint16_t)(g->sf + port);
    return r;
}

static gm_req *take_miss(rig *g, uint32_t l)
{
    return gm_link_peek(&g->miss_out[l], g->now) ? gm_link_pop(&g->miss_out[l], g->now)
                                                  : NULL;
}

/* Two cores of the group read one line in the same cycle: one fetch
 * leaves (core 0's, on its link), core 1's read joins it as an inter-core
 * merge (core 0's second read of the line is a merge, not inter-core), and
 * the one fill completes all three, each on its own core's port. */
static void merge_case(uint32_t nlinks)
{
    rig g;
    rig_init(&g, 2, nlinks);
    step(&g);
    gm_req *a = load(&g, 0, L(42)), *b = load(&g, 1, L(42));
    assert_int_equal(gm_sl1_check(&g.c, 0, a, g.now), GM_CACHE_OK);
    gm_sl1_access(&g.c, 0, a, g.now);
    assert_int_equal(gm_sl1_check(&g.c, 1, b, g.now), GM_CACHE_OK);
    gm_sl1_access(&g.c, 1, b, g.now);
    assert_int_equal(g.c.port[1].st.inter_merges, 1);
    assert_int_equal(g.c.port[0].st.inter_merges, 0);
    /* core 0 again, next cycle: a merge, but into its own fetch */
    step(&g);
    gm_req *a2 = load(&g, 0, L(42));
    assert_int_equal(gm_sl1_check(&g.c, 0, a2, g.now), GM_CACHE_OK);
    gm_sl1_access(&g.c, 0, a2, g.now);
    assert_int_equal(g.c.stats.mshr_merges, 2);
    assert_int_equal(g.c.port[0].st.inter_merges, 0);
    gm_req *m = NULL;
    for (int i = 0; i < 10 && !m; i++) {
        step(&g);
        m = take_miss(&g, 0);
        if (nlinks == 2)
            assert_null(take_miss(&g, 1));
    }
    assert_ptr_equal(m, a);
    for (int i = 0; i < 10; i++) {
        step(&g);
        assert_null(take_miss(&g, 0));
    }
    m->is_reply = 1;
    gm_link_push(&g.fill_in[0], m, g.now);
    int got0 = 0, got1 = 0;
    for (int i = 0; i < 10; i++) {
        step(&g);
        for (int k = 0; k < g.ndone[0]; k++)
            got0 += g.done[0][k] == a || g.done[0][k] == a2;
        for (int k = 0; k < g.ndone[1]; k++)
            got1 += g.done[1][k] == b;
    }
    assert_int_equal(got0, 2);
    assert_int_equal(got1, 1);
    assert_int_equal(g.c.stats.fills, 1);
    assert_int_equal(g.c.stats.load_misses, 1);
    assert_int_equal(g.c.stats.mshr_merges, 2);
    assert_int_equal(g.c.l2_requests, 1);
    assert_int_equal(g.c.cls.count[GM_3C_COMPULSORY], 1);
    assert_int_equal(g.c.fill_lines_checked, 1);
    assert_int_equal(g.c.invariant_errors, 0);
    assert_false(gm_sl1_busy(&g.c));
    /* now a hit for both cores, in the same cycle */
    gm_req *x = load(&g, 0, L(42)), *y = load(&g, 1, L(42));
    gm_sl1_access(&g.c, 0, x, g.now);
    gm_sl1_access(&g.c, 1, y, g.now);
    assert_int_equal(g.c.stats.load_hits, 2);
    gm_req_release(&g.pool, a);
    gm_req_release(&g.pool, a2);
    gm_req_release(&g.pool, b);
    rig_free(&g);
}

static void test_inter_core_merge_core_links(void **state)
{
    (void)state;
    merge_case(2);
}

static void test_inter_core_merge_one_link(void **state)
{
    (void)state;
    merge_case(1);
}

/* Each port takes one access per cycle; different ports the same cycle. */
static void test_one_access_per_port_per_cycle(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 3, 3);
    step(&g);
    gm_req *r[3];
    for (uint32_t i = 0; i < 3; i++) {
        r[i] = load(&g, i, L(10 + i));
        assert_int_equal(gm_sl1_check(&g.c, i, r[i], g.now), GM_CACHE_OK);
        gm_sl1_access(&g.c, i, r[i], g.now);
    }
    gm_req *again = load(&g, 1, L(20));
    assert_int_equal(gm_sl1_check(&g.c, 1, again, g.now), GM_CACHE_FAIL_PORT);
    step(&g);
    assert_int_equal(gm_sl1_check(&g.c, 1, again, g.now), GM_CACHE_OK);
    /* each miss left on its own core's link in the same cycle (seen one
     * edge later: the links have a latency of one edge) */
    step(&g);
    for (uint32_t i = 0; i < 3; i++)
        assert_ptr_equal(take_miss(&g, i), r[i]);
    for (uint32_t i = 0; i < 3; i++)
        gm_req_release(&g.pool, r[i]);
    gm_req_release(&g.pool, again);
    rig_free(&g);
}

/* One link for 3 ports: one miss per cycle, round robin from port 0; the
 * pointer stays on the last port granted. */
static void test_single_link_round_robin(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 3, 1);
    step(&g);
    gm_req *r[3];
    for (uint32_t i = 0; i < 3; i++) {
        r[i] = load(&g, i, L(10 + i));
        gm_sl1_access(&g.c, i, r[i], g.now);
    }
    gm_req *seen[3];
    int n = 0;
    for (int k = 0; k < 12 && n < 3; k++) {
        step(&g);
        gm_req *m = take_miss(&g, 0);
        if (m)
            seen[n++] = m;
    }
    assert_int_equal(n, 3);
    assert_ptr_equal(seen[0], r[0]);
    assert_ptr_equal(seen[1], r[1]);
    assert_ptr_equal(seen[2], r[2]);
    /* last grant was port 2: with ports 2 and 0 waiting, 0 goes first */
    step(&g);
    gm_req *p2 = load(&g, 2, L(30)), *p0 = load(&g, 0, L(31));
    gm_sl1_access(&g.c, 2, p2, g.now);
    gm_sl1_access(&g.c, 0, p0, g.now);
    n = 0;
    for (int k = 0; k < 12 && n < 2; k++) {
        step(&g);
        gm_req *m = take_miss(&g, 0);
        if (m)
            seen[n++] = m;
    }
    assert_ptr_equal(seen[0], p0);
    assert_ptr_equal(seen[1], p2);
    assert_true(g.c.port[2].st.arb_waits >= 1);
    rig_free(&g);
}

/* ---- clustered CTA scheduling ------------------------------------------------ */

/* Rounds in which every core in `avail` takes one CTA (and finishes it
 * before the next round); records the core of every CTA. */
static void run_rounds(uint32_t ncores, uint32_t nctas, const int *avail, int *core_of)
{
    uint32_t next[16], end[16];
    gm_cta_clustered_split(next, end, ncores, nctas);
    for (uint32_t k = 0; k < nctas; k++)
        core_of[k] = -1;
    uint32_t given = 0;
    for (int round = 0; round < 64 && given < nctas; round++)
        for (uint32_t i = 0; i < ncores; i++) {
            if (!avail[i])
                continue;
            uint32_t cta = gm_cta_clustered_take(next, end, ncores, i);
            if (cta == UINT32_MAX)
                continue;
            assert_true(cta < nctas);
            assert_int_equal(core_of[cta], -1);
            core_of[cta] = (int)i;
            given++;
        }
    assert_int_equal(given, nctas);
}

/* 10 CTAs on 4 cores: per = ceil(10 / 4) = 3, queues {0,1,2} {3,4,5}
 * {6,7,8} {9}. Round 1: 0 3 6 9. Round 2: 1 4 7; core 3 is empty and
 * borrows ceil(1/2) = 1 from core 0 ({2}). Round 3: core 0 borrows {5}
 * from core 1, core 1 borrows {8} from core 2, nothing is left. */
static void test_clustered_borrowing(void **state)
{
    (void)state;
    static const int avail[4] = {1, 1, 1, 1};
    static const int expect[10] = {0, 0, 3, 1, 1, 0, 2, 2, 1, 3};
    int core_of[10];
    run_rounds(4, 10, avail, core_of);
    for (int k = 0; k < 10; k++)
        assert_int_equal(core_of[k], expect[k]);
}

/* A core that never becomes available: core 0 runs its own 8 CTAs, then
 * borrows 4, 2, 1, 1 of core 1's queue {8..15}; all in id order. */
static void test_clustered_borrow_halves(void **state)
{
    (void)state;
    uint32_t next[2], end[2];
    gm_cta_clustered_split(next, end, 2, 16);
    assert_int_equal(next[0], 0);
    assert_int_equal(end[0], 8);
    assert_int_equal(next[1], 8);
    assert_int_equal(end[1], 16);
    for (uint32_t k = 0; k < 8; k++)
        assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), k);
    assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), 8);
    assert_int_equal(end[0], 12);  /* borrowed 8..11 */
    assert_int_equal(next[1], 12);
    for (uint32_t k = 9; k < 12; k++)
        assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), k);
    assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), 12);
    assert_int_equal(end[0], 14);  /* borrowed 12..13 */
    assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), 13);
    assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), 14);
    assert_int_equal(end[0], 15);  /* borrowed ceil(2/2) = 1 */
    assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), 15);
    assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), UINT32_MAX);
    /* an odd count: 10 CTAs, core 0 runs {0..4}, then borrows ceil(5/2) = 3
     * ({5,6,7}: tail (5 + 9) / 2 = 7), core 1 keeps {8,9} */
    gm_cta_clustered_split(next, end, 2, 10);
    for (uint32_t k = 0; k < 5; k++)
        assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), k);
    assert_int_equal(gm_cta_clustered_take(next, end, 2, 0), 5);
    assert_int_equal(end[0], 8);
    assert_int_equal(next[1], 8);
    assert_int_equal(end[1], 10);
}

/* Fewer CTAs than cores (per = 1), and 7 CTAs on 3 cores (per = 3: the
 * last queue is short): the split is CU = WG / ceil(|WG| / |C|). A busy
 * core 1 is skipped by borrowers only while it has nothing left. */
static void test_clustered_split(void **state)
{
    (void)state;
    static const int all[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    int core_of[8];
    run_rounds(8, 3, all, core_of);
    assert_int_equal(core_of[0], 0);
    assert_int_equal(core_of[1], 1);
    assert_int_equal(core_of[2], 2);
    uint32_t next[3], end[3];
    gm_cta_clustered_split(next, end, 3, 7);
    assert_int_equal(next[0], 0);
    assert_int_equal(end[0], 3);
    assert_int_equal(next[1], 3);
    assert_int_equal(end[1], 6);
    assert_int_equal(next[2], 6);
    assert_int_equal(end[2], 7);
    /* core 1 never available. Round 1: core 0 takes 0, core 2 takes 6.
     * Round 2: core 0 takes 1; core 2 borrows ceil(1/2) of core 0's {2}.
     * Round 3: core 0 borrows ceil(3/2) = 2 of core 1's {3,4,5} and takes
     * 3; core 2 borrows {4} from core 0. Round 4: core 0 borrows {5}. */
    static const int avail[3] = {1, 0, 1};
    static const int expect[7] = {0, 0, 2, 0, 2, 0, 2};
    run_rounds(3, 7, avail, core_of);
    for (int k = 0; k < 7; k++)
        assert_int_equal(core_of[k], expect[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3c_hand_sequence),
        cmocka_unit_test(test_3c_lru_loops),
        cmocka_unit_test(test_3c_many_lines),
        cmocka_unit_test(test_inter_core_merge_core_links),
        cmocka_unit_test(test_inter_core_merge_one_link),
        cmocka_unit_test(test_one_access_per_port_per_cycle),
        cmocka_unit_test(test_single_link_round_robin),
        cmocka_unit_test(test_clustered_borrowing),
        cmocka_unit_test(test_clustered_borrow_halves),
        cmocka_unit_test(test_clustered_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
