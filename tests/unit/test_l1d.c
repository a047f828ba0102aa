/* L1 data cache: hit latency, misses, MSHR merging and refusals,
 * write-evict / no-write-allocate, bypasses, data port, replication. The
 * test plays the core (access, pop_done) and the rest of the memory system
 * (it takes requests from miss_out and answers on fill_in). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cache/l1d.h"
#include "sim/prng.h"

#define L(n) ((uint64_t)(n) * 128u)
#define MAXL1 2

typedef struct rig {
    gm_clock clk;
    gm_time now;
    gm_req_pool pool;
    gm_residency res;
    gm_cache_cfg cfg;
    int n;
    gm_l1d l1[MAXL1];
    gm_link miss_out[MAXL1];
    gm_link fill_in[MAXL1];
    gm_req *done[MAXL1][64]; /* completed this edge */
    int ndone[MAXL1];
} rig;

static gm_cache_cfg baseline_cfg(void)
{
    return (gm_cache_cfg){.size_bytes = 16384, .assoc = 4, .line_bytes = 128, .latency = 28,
                          .mshr_entries = 8, .mshr_merge = 4, .miss_queue = 4,
                          .port_bytes = 32};
}

static void rig_init(rig *g, int n, gm_cache_cfg cfg)
{
    memset(g, 0, sizeof *g);
    gm_clock_init(&g->clk);
    assert_int_equal(gm_clock_add(&g->clk, "core", 1400, NULL), 0);
    assert_int_equal(gm_clock_finalize(&g->clk, NULL), 0);
    gm_req_pool_init(&g->pool);
    assert_int_equal(gm_residency_init(&g->res, NULL), 0);
    g->cfg = cfg;
    g->n = n;
    for (int i = 0; i < n; i++) {
        gm_error err;
        assert_int_equal(gm_l1d_init(&g->l1[i], &g->cfg, (uint32_t)i, &g->res, &err), 0);
        assert_int_equal(gm_link_init(&g->miss_out[i], 4, 1, &g->clk.d[0]), 0);
        assert_int_equal(gm_link_init(&g->fill_in[i], 4, 1, &g->clk.d[0]), 0);
        gm_l1d_connect(&g->l1[i], (gm_l1d_ports){.miss_out = &g->miss_out[i],
                                                 .fill_in = &g->fill_in[i]});
    }
}

static void rig_free(rig *g)
{
    for (int i = 0; i < g->n; i++) {
        gm_l1d_free(&g->l1[i]);
        gm_link_free(&g->miss_out[i]);
        gm_link_free(&g->fill_in[i]);
    }
    gm_residency_free(&g->res);
    gm_req_pool_free(&g->pool);
}

static uint64_t period(const rig *g)
{
    return g->clk.d[0].period;
}

/* Next edge: tick every L1 and collect what completes. */
static void step(rig *g)
{
    gm_clock_advance(&g->clk);
    g->now = g->clk.now;
    for (int i = 0; i < g->n; i++) {
        gm_l1d_tick(&g->l1[i], g->now);
        g->ndone[i] = 0;
        gm_req *r;
        while ((r = gm_l1d_pop_done(&g->l1[i], g->now)) != 0)
            g->done[i][g->ndone[i]++] = r;
    }
}

static gm_req *mkreq(rig *g, int core, gm_req_kind kind, uint64_t addr, uint8_t sectors)
{
    gm_req *r = gm_req_alloc(&g->pool, g->now);
    r->kind = (uint8_t)kind;
    r->addr = addr;
    r->sectors = sectors;
    r->src = (uint16_t)core;
    return r;
}

static gm_req *access(rig *g, int core, gm_req_kind kind, uint64_t addr, uint8_t sectors)
{
    gm_req *r = mkreq(g, core, kind, addr, sectors);
    assert_true(gm_l1d_try_access(&g->l1[core], r, g->now));
    return r;
}

/* Takes the next request L1 `core` sent, or NULL. */
static gm_req *take_miss(rig *g, int core)
{
    if (!gm_link_peek(&g->miss_out[core], g->now))
        return NULL;
    return gm_link_pop(&g->miss_out[core], g->now);
}

static void answer(rig *g, int core, gm_req *r)
{
    assert_true(gm_link_can_push(&g->fill_in[core], g->now));
    r->is_reply = 1;
    gm_link_push(&g->fill_in[core], r, g->now);
}

/* Steps until L1 `core` emits a request; returns it. */
static gm_req *wait_miss(rig *g, int core)
{
    for (int i = 0; i < 100; i++) {
        step(g);
        gm_req *r = take_miss(g, core);
        if (r)
            return r;
    }
    fail_msg("no request on miss_out");
    return NULL;
}

/* Steps until something completes at L1 `core`. */
static void wait_done(rig *g, int core)
{
    for (int i = 0; i < 200; i++) {
        step(g);
        if (g->ndone[core])
            return;
    }
    fail_msg("nothing completed");
}

/* Brings line addr into L1 `core` with one load and returns when the load
 * is done (the request is released). */
static void warm(rig *g, int core, uint64_t addr)
{
    step(g);
    gm_req *r = access(g, core, GM_REQ_LOAD, addr, 0xf);
    gm_req *m = wait_miss(g, core);
    assert_ptr_equal(m, r);
    answer(g, core, m);
    wait_done(g, core);
    assert_int_equal(g->ndone[core], 1);
    assert_ptr_equal(g->done[core][0], r);
    gm_req_release(&g->pool, r);
    /* Let the data port finish the fill. */
    for (int i = 0; i < 8; i++)
        step(g);
}

static void test_load_hit_latency(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 1, baseline_cfg());
    warm(&g, 0, L(10));
    assert_int_equal(g.l1[0].stats.fills, 1);

    gm_time t0 = g.now;
    gm_req *r = access(&g, 0, GM_REQ_LOAD, L(10), 0x1);
    assert_int_equal(g.l1[0].stats.load_hits, 1);
    /* Done exactly cfg.latency core cycles after the access. */
    for (uint32_t c = 1; c < g.cfg.latency; c++) {
        step(&g);
        assert_int_equal(g.ndone[0], 0);
    }
    step(&g);
    assert_int_equal(g.now - t0, (uint64_t)g.cfg.latency * period(&g));
    assert_int_equal(g.ndone[0], 1);
    assert_ptr_equal(g.done[0][0], r);
    assert_int_equal(r->loc, GM_LOC_CORE_REPLY);
    assert_int_equal(r->l1, 0);
    assert_true(r->is_reply);
    assert_false(gm_l1d_busy(&g.l1[0]));
    gm_req_release(&g.pool, r);
    rig_free(&g);
}

static void test_load_miss_goes_out(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 1, baseline_cfg());
    step(&g);
    gm_req *r = access(&g, 0, GM_REQ_LOAD, L(3), 0x2);
    assert_int_equal(r->loc, GM_LOC_L1_MISSQ);
    assert_true(gm_l1d_busy(&g.l1[0]));
    gm_req *m = wait_miss(&g, 0);
    assert_ptr_equal(m, r);
    assert_int_equal(m->req_bytes, 0);
    assert_int_equal(m->reply_bytes, 128); /* a whole line comes back */
    assert_int_equal(m->sectors, 0x2);     /* what the core asked for is kept */
    assert_int_equal(g.l1[0].stats.load_misses, 1);
    assert_int_equal(g.l1[0].stats.load_hits, 0);
    /* No second request for the same miss. */
    for (int i = 0; i < 5; i++) {
        step(&g);
        assert_null(take_miss(&g, 0));
    }
    answer(&g, 0, m);
    wait_done(&g, 0);
    assert_ptr_equal(g.done[0][0], r);
    gm_req_release(&g.pool, r);
    assert_true(gm_tag_probe(&g.l1[0].tags, L(3)) >= 0);
    rig_free(&g);
}

static void test_mshr_merge(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 1, baseline_cfg());
    step(&g);
    gm_req *a = access(&g, 0, GM_REQ_LOAD, L(5), 0x1);
    step(&g);
    gm_req *b = NULL;
    /* The first miss may occupy this edge's miss push; the second load to
     * the same line merges instead of going out. */
    b = access(&g, 0, GM_REQ_LOAD, L(5), 0x8);
    assert_int_equal(g.l1[0].stats.mshr_merges, 1);
    assert_int_equal(g.l1[0].stats.load_misses, 1);
    gm_req *m = take_miss(&g, 0);
    if (!m)
        m = wait_miss(&g, 0);
    assert_ptr_equal(m, a);
    for (int i = 0; i < 5; i++) {
        step(&g);
        assert_null(take_miss(&g, 0));
    }
    answer(&g, 0, m);
    wait_done(&g, 0);
    /* Both complete on the single fill, primary first. */
    assert_int_equal(g.ndone[0], 2);
    assert_ptr_equal(g.done[0][0], a);
    assert_ptr_equal(g.done[0][1], b);
    assert_int_equal(g.l1[0].stats.fills, 1);
    gm_req_release(&g.pool, a);
    gm_req_release(&g.pool, b);
    rig_free(&g);
}

static void test_refusals(void **state)
{
    (void)state;
    gm_cache_cfg cfg = baseline_cfg();
    cfg.mshr_entries = 2;
    cfg.mshr_merge = 2;
    cfg.miss_queue = 2;
    rig g;
    rig_init(&g, 1, cfg);
    gm_l1d *c = &g.l1[0];

    /* MSHR full: two lines pending, a third line is refused. */
    step(&g);
    gm_req *a = access(&g, 0, GM_REQ_LOAD, L(1), 0x1);
    step(&g);
    gm_req *b = access(&g, 0, GM_REQ_LOAD, L(2), 0x1);
    step(&g);
    gm_req probe = {.kind = GM_REQ_LOAD, .addr = L(3), .sectors = 0x1};
    assert_int_equal(gm_l1d_check(c, &probe, g.now), GM_L1D_FAIL_MSHR);
    assert_false(gm_l1d_can_access(c, &probe, g.now));
    assert_int_equal(c->stats.res_fail[GM_L1D_FAIL_MSHR], 0); /* can_access counts nothing */
    gm_l1d_count_refusal(c, &probe, g.now);
    assert_int_equal(c->stats.res_fail[GM_L1D_FAIL_MSHR], 1);

    /* Merge list full: the primary and one merged request fill entry 1. */
    gm_req *a2 = access(&g, 0, GM_REQ_LOAD, L(1), 0x2);
    step(&g);
    probe.addr = L(1);
    assert_int_equal(gm_l1d_check(c, &probe, g.now), GM_L1D_FAIL_MERGE);
    gm_req *x = mkreq(&g, 0, GM_REQ_LOAD, L(1), 0x4);
    assert_false(gm_l1d_try_access(c, x, g.now));
    assert_int_equal(c->stats.res_fail[GM_L1D_FAIL_MERGE], 1);

    /* One access per cycle: a store is accepted, a second one is not. */
    gm_req *s1 = access(&g, 0, GM_REQ_STORE, L(20), 0x1);
    gm_req probe_st = {.kind = GM_REQ_STORE, .addr = L(21), .sectors = 0x1};
    assert_int_equal(gm_l1d_check(c, &probe_st, g.now), GM_L1D_FAIL_PORT);

    /* Miss queue full: stores issued on edges where the L1 is not ticked
     * (so nothing drains) fill the 2-entry queue. */
    gm_clock_advance(&g.clk);
    g.now = g.clk.now;
    gm_req *s2 = access(&g, 0, GM_REQ_STORE, L(21), 0x1);
    gm_clock_advance(&g.clk);
    g.now = g.clk.now;
    probe_st.addr = L(22);
    assert_int_equal(c->missq_count, 2);
    assert_int_equal(gm_l1d_check(c, &probe_st, g.now), GM_L1D_FAIL_MISSQ);

    /* Drain: answer everything and collect every completion exactly once. */
    gm_req *expect[] = {a, b, a2, s1, s2};
    int seen[5] = {0};
    for (int i = 0; i < 300; i++) {
        step(&g);
        gm_req *m;
        while ((m = take_miss(&g, 0)) != 0)
            answer(&g, 0, m);
        for (int d = 0; d < g.ndone[0]; d++)
            for (int k = 0; k < 5; k++)
                if (g.done[0][d] == expect[k])
                    seen[k]++;
    }
    for (int k = 0; k < 5; k++) {
        assert_int_equal(seen[k], 1);
        gm_req_release(&g.pool, expect[k]);
    }
    gm_req_release(&g.pool, x);
    assert_false(gm_l1d_busy(c));
    rig_free(&g);
}

static void test_write_evict(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 1, baseline_cfg());
    warm(&g, 0, L(8));
    assert_int_equal(gm_residency_count(&g.res, L(8)), 1);

    gm_req *s = access(&g, 0, GM_REQ_STORE, L(8), 0x6);
    /* The hit line is invalidated at once and leaves the residency map. */
    assert_int_equal(gm_tag_probe(&g.l1[0].tags, L(8)), -1);
    assert_int_equal(gm_residency_count(&g.res, L(8)), 0);
    assert_int_equal(g.res.total_resident_lines, 0);
    assert_int_equal(g.l1[0].stats.write_evicts, 1);
    gm_req *m = wait_miss(&g, 0);
    assert_ptr_equal(m, s);
    assert_int_equal(m->req_bytes, 64); /* two sectors of data */
    assert_int_equal(m->reply_bytes, 0); /* an ACK */
    /* Not done until the ACK arrives. */
    for (int i = 0; i < 40; i++) {
        step(&g);
        assert_int_equal(g.ndone[0], 0);
    }
    answer(&g, 0, m);
    wait_done(&g, 0);
    assert_ptr_equal(g.done[0][0], s);
    gm_req_release(&g.pool, s);
    /* A later load misses. */
    step(&g);
    gm_req *l = access(&g, 0, GM_REQ_LOAD, L(8), 0x1);
    assert_int_equal(g.l1[0].stats.load_misses, 2);
    answer(&g, 0, wait_miss(&g, 0));
    wait_done(&g, 0);
    gm_req_release(&g.pool, l);
    rig_free(&g);
}

static void test_no_write_allocate(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 1, baseline_cfg());
    step(&g);
    gm_req *s = access(&g, 0, GM_REQ_STORE, L(9), 0xf);
    assert_int_equal(g.l1[0].stats.store_misses, 1);
    gm_req *m = wait_miss(&g, 0);
    assert_int_equal(m->req_bytes, 128);
    answer(&g, 0, m);
    wait_done(&g, 0);
    gm_req_release(&g.pool, s);
    assert_int_equal(gm_tag_probe(&g.l1[0].tags, L(9)), -1);
    assert_int_equal(g.l1[0].tags.lines_used, 0);
    assert_int_equal(g.l1[0].stats.fills, 0);
    assert_int_equal(g.res.total_resident_lines, 0);
    rig_free(&g);
}

static void test_atomic_and_nonl1_bypass(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 1, baseline_cfg());
    warm(&g, 0, L(4));
    /* An atomic to a resident line still goes to L2. */
    gm_req *a = access(&g, 0, GM_REQ_ATOMIC, L(4), 0x3);
    assert_int_equal(g.l1[0].stats.load_hits, 0);
    gm_req *m = wait_miss(&g, 0);
    assert_ptr_equal(m, a);
    assert_int_equal(m->req_bytes, 64);
    assert_int_equal(m->reply_bytes, 64);
    answer(&g, 0, m);
    wait_done(&g, 0);
    assert_ptr_equal(g.done[0][0], a);
    gm_req_release(&g.pool, a);
    assert_true(gm_tag_probe(&g.l1[0].tags, L(4)) >= 0);

    gm_req *n = access(&g, 0, GM_REQ_NONL1, L(4), 0x1);
    m = wait_miss(&g, 0);
    assert_ptr_equal(m, n);
    assert_int_equal(m->req_bytes, 0);
    assert_int_equal(m->reply_bytes, 32);
    answer(&g, 0, m);
    wait_done(&g, 0);
    gm_req_release(&g.pool, n);
    /* Neither installed, evicted nor counted as a hit or miss. */
    assert_int_equal(g.l1[0].stats.fills, 1);
    assert_int_equal(g.l1[0].stats.load_misses, 1);
    assert_int_equal(g.l1[0].stats.accesses[GM_REQ_ATOMIC], 1);
    assert_int_equal(g.l1[0].stats.accesses[GM_REQ_NONL1], 1);
    rig_free(&g);
}

/* A 4-sector hit reads 128 B through a 32 B port: 4 cycles, during which
 * the next access is refused; a fill writes 128 B: also 4 cycles. */
static void test_data_port(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 1, baseline_cfg());
    warm(&g, 0, L(1));
    uint64_t busy0 = g.l1[0].stats.port_busy_cycles;
    assert_int_equal(busy0, 4); /* the fill */
    gm_req *h1 = access(&g, 0, GM_REQ_LOAD, L(1), 0xf);
    gm_req probe = {.kind = GM_REQ_LOAD, .addr = L(1), .sectors = 0x1};
    for (int i = 0; i < 3; i++) {
        step(&g);
        assert_int_equal(gm_l1d_check(&g.l1[0], &probe, g.now), GM_L1D_FAIL_PORT);
    }
    step(&g);
    gm_req *h2 = access(&g, 0, GM_REQ_LOAD, L(1), 0x1); /* one sector: one cycle */
    step(&g);
    assert_true(gm_l1d_can_access(&g.l1[0], &probe, g.now));
    assert_int_equal(g.l1[0].stats.port_busy_cycles, busy0 + 4 + 1);
    while (gm_l1d_busy(&g.l1[0]))
        step(&g);
    gm_req_release(&g.pool, h1);
    gm_req_release(&g.pool, h2);

    /* A fill that arrives while a 4-cycle hit holds the port waits for it:
     * visible one edge after the hit, installed three edges later. */
    step(&g);
    gm_req *m = access(&g, 0, GM_REQ_LOAD, L(2), 0x1);
    assert_ptr_equal(wait_miss(&g, 0), m);
    step(&g);
    gm_time t = g.now;
    gm_req *h3 = access(&g, 0, GM_REQ_LOAD, L(1), 0xf);
    answer(&g, 0, m);
    for (int i = 1; i <= 3; i++) {
        step(&g);
        assert_int_equal(g.ndone[0], 0);
    }
    assert_int_equal(g.l1[0].stats.fill_port_waits, 3);
    step(&g);
    assert_int_equal(g.now, t + 4 * period(&g));
    assert_int_equal(g.ndone[0], 1);
    assert_ptr_equal(g.done[0][0], m);
    assert_true(gm_tag_probe(&g.l1[0].tags, L(2)) >= 0);
    while (gm_l1d_busy(&g.l1[0]))
        step(&g);
    gm_req_release(&g.pool, m);
    gm_req_release(&g.pool, h3);
    rig_free(&g);
}

static void test_replication_numerator(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, 2, baseline_cfg());
    warm(&g, 0, L(100));
    assert_int_equal(g.l1[0].stats.miss_resident_elsewhere, 0);
    assert_int_equal(gm_residency_count(&g.res, L(100)), 1);

    warm(&g, 1, L(100)); /* held by L1 0 at the time of the miss */
    assert_int_equal(g.l1[1].stats.load_misses, 1);
    assert_int_equal(g.l1[1].stats.miss_resident_elsewhere, 1);
    assert_int_equal(gm_residency_count(&g.res, L(100)), 2);
    assert_int_equal(g.res.total_resident_lines, 2);
    assert_int_equal(g.res.distinct_lines, 1);

    warm(&g, 1, L(101)); /* nobody else holds it */
    assert_int_equal(g.l1[1].stats.miss_resident_elsewhere, 1);
    assert_int_equal(g.res.total_resident_lines, 3);
    assert_int_equal(g.res.distinct_lines, 2);

    /* L1 0 evicts line 100 by filling 4 other lines of its set (32 sets). */
    for (int k = 1; k <= 4; k++)
        warm(&g, 0, L(100 + 32 * k));
    assert_int_equal(g.l1[0].stats.evictions, 1);
    assert_int_equal(gm_residency_count(&g.res, L(100)), 1);
    assert_int_equal(g.res.total_resident_lines, 3 + 4 - 1);
    rig_free(&g);
}

/* Random traffic against a memory system with random delays: every request
 * completes exactly once, the residency map matches the tag arrays, and the
 * L1s end idle. */
static void test_random_conservation(void **state)
{
    (void)state;
    gm_cache_cfg cfg = baseline_cfg();
    cfg.size_bytes = 2048; /* 4 sets: plenty of evictions */
    cfg.mshr_entries = 3;
    cfg.mshr_merge = 2;
    cfg.miss_queue = 2;
    rig g;
    rig_init(&g, 2, cfg);
    gm_prng p;
    gm_prng_seed(&p, 5, 0);
    enum { PENDING = 64 };
    gm_req *pend[MAXL1][PENDING]; /* answered after a random delay */
    uint64_t due[MAXL1][PENDING];
    int npend[MAXL1] = {0, 0};
    uint64_t issued = 0, completed = 0;
    for (int cyc = 0; cyc < 20000; cyc++) {
        step(&g);
        for (int c = 0; c < 2; c++) {
            completed += (uint64_t)g.ndone[c];
            for (int d = 0; d < g.ndone[c]; d++) {
                assert_int_equal(g.done[c][d]->loc, GM_LOC_CORE_REPLY);
                gm_req_release(&g.pool, g.done[c][d]);
            }
            gm_req *m;
            while (npend[c] < PENDING && (m = take_miss(&g, c)) != 0) {
                pend[c][npend[c]] = m;
                due[c][npend[c]++] = g.now + period(&g) * gm_prng_below(&p, 30);
            }
            for (int i = 0; i < npend[c]; i++) {
                if (due[c][i] <= g.now && gm_link_can_push(&g.fill_in[c], g.now)) {
                    answer(&g, c, pend[c][i]);
                    pend[c][i] = pend[c][--npend[c]];
                    due[c][i] = due[c][npend[c]];
                    i--;
                }
            }
            if (cyc < 15000 && gm_prng_below(&p, 2)) {
                static const gm_req_kind kinds[] = {GM_REQ_LOAD, GM_REQ_LOAD, GM_REQ_LOAD,
                                                    GM_REQ_STORE, GM_REQ_ATOMIC,
                                                    GM_REQ_NONL1};
                gm_req_kind k = kinds[gm_prng_below(&p, 6)];
                gm_req probe = {.kind = (uint8_t)k, .addr = L(gm_prng_below(&p, 24)),
                                .sectors = (uint8_t)(1 + gm_prng_below(&p, 15))};
                if (gm_l1d_can_access(&g.l1[c], &probe, g.now)) {
                    gm_req *r = mkreq(&g, c, k, probe.addr, probe.sectors);
                    gm_l1d_access(&g.l1[c], r, g.now);
                    issued++;
                } else {
                    gm_l1d_count_refusal(&g.l1[c], &probe, g.now);
                }
            }
        }
    }
    assert_true(issued > 5000);
    assert_int_equal(completed, issued);
    assert_int_equal(g.pool.live, 0);
    uint64_t lines = 0;
    for (int c = 0; c < 2; c++) {
        assert_false(gm_l1d_busy(&g.l1[c]));
        lines += g.l1[c].tags.lines_used;
        const gm_l1d_stats *st = &g.l1[c].stats;
        assert_int_equal(st->load_hits + st->load_misses + st->mshr_merges,
                         st->accesses[GM_REQ_LOAD]);
        assert_int_equal(st->fills, st->load_misses);
        uint64_t fails = 0;
        for (int f = 1; f < GM_L1D_FAIL_COUNT; f++)
            fails += st->res_fail[f];
        assert_true(fails > 0);
        assert_int_equal(st->res_fail[GM_L1D_OK], 0);
    }
    assert_int_equal(g.res.total_resident_lines, lines);
    rig_free(&g);
}

/* gm_l1d_offer remembers its last refusal (a stalled LD/ST head offers
 * the same line every cycle). Like a core, keep offering one probe until
 * it is taken, under random fills and drains: every verdict and every
 * refusal counter must be what the pure check (gm_l1d_check, which
 * remembers nothing) says at that edge. */
static void test_offer_memo_matches_check(void **state)
{
    (void)state;
    gm_cache_cfg cfg = baseline_cfg();
    cfg.size_bytes = 2048;
    cfg.mshr_entries = 2;
    cfg.mshr_merge = 2;
    cfg.miss_queue = 1;
    rig g;
    rig_init(&g, 1, cfg);
    gm_prng p;
    gm_prng_seed(&p, 11, 0);
    enum { PENDING = 16 };
    gm_req *pend[PENDING];
    int npend = 0;
    gm_req probe = {0};
    bool have = false;
    uint64_t memo_hits_possible = 0, refusals = 0;
    for (int cyc = 0; cyc < 20000; cyc++) {
        step(&g);
        for (int d = 0; d < g.ndone[0]; d++)
            gm_req_release(&g.pool, g.done[0][d]);
        gm_req *m;
        /* The memory side answers late and at random, so MSHRs and the
         * miss queue stay full for stretches. */
        if (npend < PENDING && gm_prng_below(&p, 3) == 0 && (m = take_miss(&g, 0)) != 0)
            pend[npend++] = m;
        if (npend && gm_prng_below(&p, 4) == 0 && gm_link_can_push(&g.fill_in[0], g.now)) {
            int i = (int)gm_prng_below(&p, (uint64_t)npend);
            answer(&g, 0, pend[i]);
            pend[i] = pend[--npend];
        }
        if (!have) {
            static const gm_req_kind kinds[] = {GM_REQ_LOAD, GM_REQ_LOAD, GM_REQ_LOAD,
                                                GM_REQ_STORE};
            probe = (gm_req){.kind = (uint8_t)kinds[gm_prng_below(&p, 4)],
                             .addr = L(gm_prng_below(&p, 12)),
                             .sectors = (uint8_t)(1 + gm_prng_below(&p, 15))};
            have = true;
        } else {
            memo_hits_possible++;
        }
        gm_l1d_fail want = gm_l1d_check(&g.l1[0], &probe, g.now);
        gm_l1d_stats before = g.l1[0].stats;
        bool ok = gm_l1d_offer(&g.l1[0], &probe, g.now);
        assert_int_equal(ok, want == GM_L1D_OK);
        for (int f = 0; f < GM_L1D_FAIL_COUNT; f++)
            assert_int_equal(g.l1[0].stats.res_fail[f] - before.res_fail[f],
                             !ok && f == (int)want);
        if (ok) {
            gm_l1d_access(&g.l1[0], mkreq(&g, 0, (gm_req_kind)probe.kind, probe.addr,
                                          probe.sectors), g.now);
            have = false;
        } else {
            refusals++;
        }
    }
    /* Refusals for a reason other than the data port, offered again: the
     * case the memo serves must have happened often. */
    assert_true(refusals > 2000);
    assert_true(memo_hits_possible > 2000);
    assert_true(g.l1[0].stats.res_fail[GM_L1D_FAIL_MSHR] + g.l1[0].stats.res_fail[GM_L1D_FAIL_MISSQ] > 500);
    for (int i = 0; i < 5000 && gm_l1d_busy(&g.l1[0]); i++) {
        step(&g);
        for (int d = 0; d < g.ndone[0]; d++)
            gm_req_release(&g.pool, g.done[0][d]);
        gm_req *m;
        while (npend < PENDING && (m = take_miss(&g, 0)) != 0)
            pend[npend++] = m;
        if (npend && gm_link_can_push(&g.fill_in[0], g.now))
            answer(&g, 0, pend[--npend]);
    }
    assert_false(gm_l1d_busy(&g.l1[0]));
    assert_int_equal(g.pool.live, 0);
    rig_free(&g);
}

/* Latency 0 (allowed by the config): with tick/pop before access, the hit
 * comes back at the next edge. */
static void test_zero_latency(void **state)
{
    (void)state;
    gm_cache_cfg cfg = baseline_cfg();
    cfg.latency = 0;
    rig g;
    rig_init(&g, 1, cfg);
    warm(&g, 0, L(1));
    gm_time t = g.now;
    gm_req *r = access(&g, 0, GM_REQ_LOAD, L(1), 0x1);
    step(&g);
    assert_int_equal(g.now, t + period(&g));
    assert_int_equal(g.ndone[0], 1);
    assert_ptr_equal(g.done[0][0], r);
    gm_req_release(&g.pool, r);
    rig_free(&g);
}

static void test_init_errors(void **state)
{
    (void)state;
    gm_l1d c;
    gm_error err;
    gm_cache_cfg cfg = baseline_cfg();
    cfg.line_bytes = 64;
    assert_int_not_equal(gm_l1d_init(&c, &cfg, 0, NULL, &err), 0);
    cfg = baseline_cfg();
    cfg.mshr_entries = 0;
    assert_int_not_equal(gm_l1d_init(&c, &cfg, 0, NULL, &err), 0);
    cfg = baseline_cfg();
    cfg.port_bytes = 0;
    assert_int_not_equal(gm_l1d_init(&c, &cfg, 0, NULL, &err), 0);
    cfg = baseline_cfg();
    cfg.size_bytes = 1000;
    assert_int_not_equal(gm_l1d_init(&c, &cfg, 0, NULL, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_hit_latency),
        cmocka_unit_test(test_load_miss_goes_out),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_write_evict),
        cmocka_unit_test(test_no_write_allocate),
        cmocka_unit_test(test_atomic_and_nonl1_bypass),
        cmocka_unit_test(test_data_port),
        cmocka_unit_test(test_replication_numerator),
        cmocka_unit_test(test_random_conservation),
        cmocka_unit_test(test_offer_memo_matches_check),
        cmocka_unit_test(test_zero_latency),
        cmocka_unit_test(test_init_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
