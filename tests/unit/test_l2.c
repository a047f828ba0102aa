/* L2 slice: hit and miss latency, write-allocate without fetch, sector
 * misses, dirty evictions, MSHR merging, atomics, and conservation under
 * back-pressure. The test plays the networks and the DRAM channel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "l2/l2_slice.h"
#include "sim/prng.h"

#define L(n) ((uint64_t)(n) * 128u)

typedef struct rig {
    gm_clock clk;
    gm_time now;
    gm_req_pool pool;
    gm_l2_cfg cfg;
    gm_l2_slice s;
    gm_link req_in, rep_out, dram_out, dram_in;
} rig;

static gm_l2_cfg baseline_cfg(void)
{
    return (gm_l2_cfg){.slices = 1, .clock_mhz = 700,
                       .cache = {.size_bytes = 128 * 1024, .assoc = 8, .line_bytes = 128,
                                 .latency = 120, .mshr_entries = 16, .mshr_merge = 4,
                                 .miss_queue = 8, .port_bytes = 32},
                       .in_queue = 4, .out_queue = 4, .dram_queue = 4};
}

static void rig_init(rig *g, gm_l2_cfg cfg, uint32_t rep_cap)
{
    memset(g, 0, sizeof *g);
    gm_clock_init(&g->clk);
    assert_int_equal(gm_clock_add(&g->clk, "l2", 700, NULL), 0);
    assert_int_equal(gm_clock_finalize(&g->clk, NULL), 0);
    gm_req_pool_init(&g->pool);
    g->cfg = cfg;
    const gm_clock_domain *d = &g->clk.d[0];
    assert_int_equal(gm_link_init(&g->req_in, cfg.in_queue, 1, d), 0);
    assert_int_equal(gm_link_init(&g->rep_out, rep_cap, 1, d), 0);
    assert_int_equal(gm_link_init(&g->dram_out, cfg.dram_queue, 1, d), 0);
    assert_int_equal(gm_link_init(&g->dram_in, 64, 1, d), 0);
    gm_error err;
    assert_int_equal(gm_l2_slice_init(&g->s, &g->cfg, 3, &g->pool, &err), 0);
    gm_l2_slice_connect(&g->s, (gm_l2_ports){.req_in = &g->req_in, .rep_out = &g->rep_out,
                                             .dram_out = &g->dram_out,
                                             .dram_in = &g->dram_in});
}

static void rig_free(rig *g)
{
    gm_l2_slice_free(&g->s);
    gm_link_free(&g->req_in);
    gm_link_free(&g->rep_out);
    gm_link_free(&g->dram_out);
    gm_link_free(&g->dram_in);
    gm_req_pool_free(&g->pool);
}

static uint64_t P(const rig *g)
{
    return g->clk.d[0].period;
}

static void step(rig *g)
{
    gm_clock_advance(&g->clk);
    g->now = g->clk.now;
    gm_l2_slice_tick(&g->s, g->now);
}

/* A request as it would arrive from an L1 (bytes as the L1 sets them). */
static gm_req *send(rig *g, gm_req_kind kind, uint64_t addr, uint8_t sectors,
                    uint32_t reply_bytes)
{
    gm_req *r = gm_req_alloc(&g->pool, g->now);
    r->kind = (uint8_t)kind;
    r->addr = addr;
    r->sectors = sectors;
    r->reply_bytes = reply_bytes;
    r->slice = 3;
    assert_true(gm_link_can_push(&g->req_in, g->now));
    gm_link_push(&g->req_in, r, g->now);
    return r;
}

static gm_req *take(gm_link *l, gm_time now)
{
    return gm_link_peek(l, now) ? gm_link_pop(l, now) : NULL;
}

static void dram_return(rig *g, gm_req *r)
{
    assert_true(gm_link_can_push(&g->dram_in, g->now));
    gm_link_push(&g->dram_in, r, g->now);
}

/* Steps until link l shows an item; returns it. */
static gm_req *wait_on(rig *g, gm_link *l, int max)
{
    for (int i = 0; i < max; i++) {
        step(g);
        gm_req *r = take(l, g->now);
        if (r)
            return r;
    }
    fail_msg("nothing arrived");
    return NULL;
}

/* Sends one request and serves it completely (DRAM answering at once);
 * returns the reply, which the caller releases. */
static gm_req *roundtrip(rig *g, gm_req_kind kind, uint64_t addr, uint8_t sectors,
                         uint32_t reply_bytes)
{
    step(g);
    gm_req *r = send(g, kind, addr, sectors, reply_bytes);
    for (int i = 0; i < 1000; i++) {
        step(g);
        gm_req *d;
        while ((d = take(&g->dram_out, g->now)) != 0)
            dram_return(g, d);
        gm_req *rep = take(&g->rep_out, g->now);
        if (rep) {
            assert_ptr_equal(rep, r);
            return rep;
        }
    }
    fail_msg("no reply");
    return NULL;
}

static const gm_tag_line *line_of(rig *g, uint64_t addr)
{
    int32_t w = gm_tag_probe(&g->s.tags, addr);
    assert_true(w >= 0);
    return gm_tag_line_const(&g->s.tags, w);
}

static void test_miss_then_hit_latency(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, baseline_cfg(), 4);
    uint32_t lat = g.cfg.cache.latency;
    step(&g);
    gm_req *r = send(&g, GM_REQ_LOAD, L(1), 0x1, 128);
    gm_time t_push = g.now;
    gm_req *d = wait_on(&g, &g.dram_out, 500);
    assert_ptr_equal(d, r);
    /* Accepted one edge after the push (link latency 1). */
    assert_int_equal(r->t_l2, t_push + P(&g));
    assert_int_equal(r->loc, GM_LOC_L2);
    /* Sent to DRAM at the tag stage, `latency` cycles after arrival, and
     * seen here one edge later. */
    assert_int_equal(g.now, r->t_l2 + (uint64_t)(lat + 1) * P(&g));
    assert_int_equal(g.s.stats.misses[GM_REQ_LOAD], 1);
    assert_int_equal(g.s.stats.dram_reads, 1);
    assert_true(gm_l2_slice_busy(&g.s));
    gm_time t_ret = g.now;
    dram_return(&g, d);
    gm_req *rep = wait_on(&g, &g.rep_out, 10);
    assert_ptr_equal(rep, r);
    assert_true(rep->is_reply);
    assert_int_equal(rep->loc, GM_LOC_L2_OUT);
    /* Fill taken one edge after the return and replied at once. */
    assert_int_equal(g.now, t_ret + 2 * P(&g));
    gm_req_release(&g.pool, rep);

    step(&g);
    r = send(&g, GM_REQ_LOAD, L(1), 0xf, 128);
    rep = wait_on(&g, &g.rep_out, 500);
    assert_ptr_equal(rep, r);
    assert_int_equal(g.now, r->t_l2 + (uint64_t)(lat + 1) * P(&g));
    assert_int_equal(g.s.stats.hits[GM_REQ_LOAD], 1);
    assert_int_equal(g.s.stats.dram_reads, 1);
    gm_req_release(&g.pool, rep);
    for (int i = 0; i < 4; i++)
        step(&g);
    assert_false(gm_l2_slice_busy(&g.s));
    assert_int_equal(g.pool.live, 0);
    rig_free(&g);
}

static void test_store_allocate_then_load(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, baseline_cfg(), 4);
    gm_req *ack = roundtrip(&g, GM_REQ_STORE, L(2), 0x3, 0);
    assert_true(ack->is_reply);
    assert_int_equal(ack->reply_bytes, 0);
    gm_req_release(&g.pool, ack);
    assert_int_equal(g.s.stats.dram_reads, 0); /* no fetch for a store */
    assert_int_equal(g.s.stats.misses[GM_REQ_STORE], 1);
    assert_int_equal(line_of(&g, L(2))->valid, 0x3);
    assert_int_equal(line_of(&g, L(2))->dirty, 0x3);

    /* A load of the stored sectors hits. */
    gm_req *rep = roundtrip(&g, GM_REQ_LOAD, L(2), 0x3, 64);
    gm_req_release(&g.pool, rep);
    assert_int_equal(g.s.stats.hits[GM_REQ_LOAD], 1);
    assert_int_equal(g.s.stats.dram_reads, 0);

    /* A sector never written is a sector miss: the line is fetched. */
    rep = roundtrip(&g, GM_REQ_LOAD, L(2), 0x4, 32);
    gm_req_release(&g.pool, rep);
    assert_int_equal(g.s.stats.sector_misses, 1);
    assert_int_equal(g.s.stats.dram_reads, 1);
    assert_int_equal(line_of(&g, L(2))->valid, 0xf);
    assert_int_equal(line_of(&g, L(2))->dirty, 0x3); /* the fill keeps stored data dirty */

    /* A whole-line fill request (an L1 miss) now hits. */
    rep = roundtrip(&g, GM_REQ_LOAD, L(2), 0x1, 128);
    gm_req_release(&g.pool, rep);
    assert_int_equal(g.s.stats.hits[GM_REQ_LOAD], 2);
    assert_int_equal(g.s.stats.dram_reads, 1);

    /* A store to the present line adds to what is valid and dirty. */
    gm_req_release(&g.pool, roundtrip(&g, GM_REQ_STORE, L(2), 0x8, 0));
    assert_int_equal(g.s.stats.hits[GM_REQ_STORE], 1);
    assert_int_equal(line_of(&g, L(2))->valid, 0xf);
    assert_int_equal(line_of(&g, L(2))->dirty, 0xb);
    gm_req_release(&g.pool, roundtrip(&g, GM_REQ_LOAD, L(2), 0x4, 32));
    assert_int_equal(g.s.stats.hits[GM_REQ_LOAD], 3);
    assert_int_equal(g.s.stats.dram_reads, 1);
    rig_free(&g);
}

/* A line fill request needs every sector even if its own mask is valid. */
static void test_line_fill_needs_all_sectors(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, baseline_cfg(), 4);
    gm_req *rep = roundtrip(&g, GM_REQ_STORE, L(6), 0x1, 0);
    gm_req_release(&g.pool, rep);
    rep = roundtrip(&g, GM_REQ_LOAD, L(6), 0x1, 128);
    gm_req_release(&g.pool, rep);
    assert_int_equal(g.s.stats.sector_misses, 1);
    assert_int_equal(g.s.stats.dram_reads, 1);
    rig_free(&g);
}

static void test_dirty_eviction_one_writeback(void **state)
{
    (void)state;
    gm_l2_cfg cfg = baseline_cfg();
    cfg.cache.size_bytes = 8 * 128; /* one set of 8 ways */
    cfg.cache.latency = 4;
    rig g;
    rig_init(&g, cfg, 4);
    int wbs = 0;
    uint64_t wb_addr = 0;
    uint8_t wb_sectors = 0;
    uint32_t wb_bytes = 0;
    /* Dirty lines 0-3 (one sector each), clean lines 4-7. */
    for (int n = 0; n < 4; n++)
        gm_req_release(&g.pool, roundtrip(&g, GM_REQ_STORE, L(n), (uint8_t)(1u << n), 0));
    for (int n = 4; n < 8; n++)
        gm_req_release(&g.pool, roundtrip(&g, GM_REQ_LOAD, L(n), 0xf, 128));
    /* Touch 0-3: LRU order becomes 4 5 6 7 0 1 2 3. */
    for (int n = 0; n < 4; n++)
        gm_req_release(&g.pool, roundtrip(&g, GM_REQ_LOAD, L(n), (uint8_t)(1u << n), 32));
    assert_int_equal(g.s.stats.hits[GM_REQ_LOAD], 4);

    /* Four clean evictions (4, 5, 6, 7), then line 0 (dirty). The DRAM
     * here is the test: count write-backs as they leave. */
    uint64_t news[] = {8, 9, 10, 11, 12};
    for (int k = 0; k < 5; k++) {
        step(&g);
        gm_req *r = k == 2 ? send(&g, GM_REQ_STORE, L(news[k]), 0xf, 0)
                           : send(&g, GM_REQ_LOAD, L(news[k]), 0xf, 128);
        gm_req *rep = NULL;
        for (int i = 0; i < 200 && !rep; i++) {
            step(&g);
            gm_req *d;
            while ((d = take(&g.dram_out, g.now)) != 0) {
                if (d->kind == GM_REQ_WRITEBACK) {
                    wbs++;
                    wb_addr = d->addr;
                    wb_sectors = d->sectors;
                    wb_bytes = d->req_bytes;
                    assert_int_equal(d->slice, 3);
                }
                dram_return(&g, d);
            }
            rep = take(&g.rep_out, g.now);
        }
        assert_ptr_equal(rep, r);
        gm_req_release(&g.pool, rep);
        if (k < 4)
            assert_int_equal(wbs, 0);
    }
    for (int i = 0; i < 10; i++) {
        step(&g);
        assert_null(take(&g.dram_out, g.now));
    }
    assert_int_equal(wbs, 1);
    assert_int_equal(wb_addr, L(0));
    assert_int_equal(wb_sectors, 0x1);
    assert_int_equal(wb_bytes, 32);
    assert_int_equal(g.s.stats.writebacks, 1);
    assert_int_equal(g.s.stats.evictions, 5);
    assert_int_equal(gm_tag_probe(&g.s.tags, L(0)), -1);
    /* The write-back came back and was released: nothing is live. */
    assert_false(gm_l2_slice_busy(&g.s));
    assert_int_equal(g.pool.live, 0);
    rig_free(&g);
}

static void test_merge(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, baseline_cfg(), 4);
    step(&g);
    gm_req *a = send(&g, GM_REQ_LOAD, L(3), 0x1, 128);
    gm_req *b = send(&g, GM_REQ_LOAD, L(3), 0x2, 32);
    gm_req *c = send(&g, GM_REQ_NONL1, L(3), 0x4, 32);
    gm_req *d = wait_on(&g, &g.dram_out, 500);
    assert_ptr_equal(d, a);
    for (int i = 0; i < 10; i++) {
        step(&g);
        assert_null(take(&g.dram_out, g.now));
    }
    assert_int_equal(g.s.stats.dram_reads, 1);
    assert_int_equal(g.s.stats.mshr_merges, 2);
    dram_return(&g, d);
    gm_req *got[3];
    for (int k = 0; k < 3; k++)
        got[k] = wait_on(&g, &g.rep_out, 20);
    assert_ptr_equal(got[0], a);
    assert_ptr_equal(got[1], b);
    assert_ptr_equal(got[2], c);
    for (int k = 0; k < 3; k++)
        gm_req_release(&g.pool, got[k]);
    rig_free(&g);
}

static void test_merge_limit_stalls_in_order(void **state)
{
    (void)state;
    gm_l2_cfg cfg = baseline_cfg();
    cfg.cache.mshr_merge = 2;
    cfg.cache.latency = 2;
    rig g;
    rig_init(&g, cfg, 4);
    step(&g);
    gm_req *r[3];
    for (int k = 0; k < 3; k++)
        r[k] = send(&g, GM_REQ_LOAD, L(4), 0x1, 32);
    gm_req *d = wait_on(&g, &g.dram_out, 50);
    for (int i = 0; i < 10; i++)
        step(&g);
    /* The third cannot merge: it waits at the head, counted each cycle. */
    assert_true(g.s.stats.res_fail[GM_L2_FAIL_MERGE] >= 9);
    assert_int_equal(g.s.stats.dram_reads, 1);
    dram_return(&g, d);
    for (int k = 0; k < 3; k++)
        assert_ptr_equal(wait_on(&g, &g.rep_out, 20), r[k]);
    assert_int_equal(g.s.stats.hits[GM_REQ_LOAD], 1); /* the third, after the fill */
    for (int k = 0; k < 3; k++)
        gm_req_release(&g.pool, r[k]);
    rig_free(&g);
}

static void test_atomics(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, baseline_cfg(), 4);
    gm_req *rep = roundtrip(&g, GM_REQ_ATOMIC, L(5), 0x2, 32);
    assert_int_equal(g.s.stats.dram_reads, 1); /* needs the data: fetched */
    assert_int_equal(g.s.stats.misses[GM_REQ_ATOMIC], 1);
    assert_int_equal(rep->reply_bytes, 32);
    gm_req_release(&g.pool, rep);
    assert_int_equal(line_of(&g, L(5))->dirty, 0x2);
    rep = roundtrip(&g, GM_REQ_ATOMIC, L(5), 0x4, 32);
    gm_req_release(&g.pool, rep);
    assert_int_equal(g.s.stats.hits[GM_REQ_ATOMIC], 1);
    assert_int_equal(g.s.stats.dram_reads, 1);
    assert_int_equal(line_of(&g, L(5))->dirty, 0x6);
    assert_int_equal(g.s.stats.atomics, 2);
    rig_free(&g);
}

/* With DRAM not taking anything, write-backs pile up in the slice. A fetch
 * must keep a write-back slot for its fill's victim, so once the unreserved
 * slot is taken a load miss waits (FAIL_WB) rather than risk a fill that
 * cannot leave its victim anywhere. Everything completes once DRAM moves. */
static void test_writeback_reserve(void **state)
{
    (void)state;
    gm_l2_cfg cfg = baseline_cfg();
    cfg.cache.size_bytes = 8 * 128; /* one set of 8 ways */
    cfg.cache.latency = 2;
    cfg.cache.mshr_entries = 1;
    cfg.cache.miss_queue = 1; /* write-back buffer: 1 reserved + 1 */
    cfg.dram_queue = 1;
    rig g;
    rig_init(&g, cfg, 4);
    for (int n = 0; n < 8; n++)
        gm_req_release(&g.pool, roundtrip(&g, GM_REQ_STORE, L(n), 0xf, 0));
    assert_int_equal(g.s.stats.writebacks, 0);

    step(&g);
    gm_req *s8 = send(&g, GM_REQ_STORE, L(8), 0xf, 0);
    gm_req *s9 = send(&g, GM_REQ_STORE, L(9), 0xf, 0);
    gm_req *s10 = send(&g, GM_REQ_STORE, L(10), 0xf, 0);
    gm_req *ld = send(&g, GM_REQ_LOAD, L(20), 0xf, 128);
    gm_req *got[4];
    int ngot = 0;
    for (int i = 0; i < 60; i++) { /* DRAM stalled: dram_out is never popped */
        step(&g);
        gm_req *rep = take(&g.rep_out, g.now);
        if (rep)
            got[ngot++] = rep;
    }
    /* Three stores answered (their victims 0, 1, 2: one write-back on the
     * full dram_out link, two in the buffer); the load waits. */
    assert_int_equal(ngot, 3);
    assert_ptr_equal(got[0], s8);
    assert_ptr_equal(got[1], s9);
    assert_ptr_equal(got[2], s10);
    assert_int_equal(g.s.stats.writebacks, 3);
    assert_int_equal(g.s.wb_count, 2);
    assert_true(g.s.stats.res_fail[GM_L2_FAIL_WB] > 40);
    assert_int_equal(g.s.stats.dram_reads, 0);

    for (int i = 0; i < 200 && ngot < 4; i++) { /* DRAM answers at once */
        step(&g);
        gm_req *d;
        while ((d = take(&g.dram_out, g.now)) != 0)
            dram_return(&g, d);
        gm_req *rep = take(&g.rep_out, g.now);
        if (rep)
            got[ngot++] = rep;
    }
    assert_int_equal(ngot, 4);
    assert_ptr_equal(got[3], ld);
    for (int i = 0; i < 20; i++) {
        step(&g);
        gm_req *d;
        while ((d = take(&g.dram_out, g.now)) != 0)
            dram_return(&g, d);
    }
    assert_int_equal(g.s.stats.writebacks, 4); /* the load's fill evicted line 3 */
    for (int k = 0; k < 4; k++)
        gm_req_release(&g.pool, got[k]);
    assert_false(gm_l2_slice_busy(&g.s));
    assert_int_equal(g.pool.live, 0);
    rig_free(&g);
}

/* Slice 3 of 32 with 256 B interleaving holds its full 1024 lines once told
 * the interleaving: 1024 stores evict nothing, the next one line. */
static void test_interleaved_capacity(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, baseline_cfg(), 4);
    assert_int_equal(gm_l2_slice_set_interleave(&g.s, 256, 32, NULL), 0);
    for (uint64_t i = 0; i <= 1024; i++) {
        uint64_t addr = L(2 * (32 * (i / 2) + 3) + i % 2);
        gm_tag_victim v;
        /* Through the slice's own array, as its tag stage would. */
        gm_tag_allocate(&g.s.tags, addr, &v);
        assert_int_equal(v.evicted, i == 1024);
    }
    gm_error err;
    assert_int_not_equal(gm_l2_slice_set_interleave(&g.s, 64, 32, &err), 0);
    rig_free(&g);
}

/* Random traffic, a slow and narrow reply side and a DRAM with random
 * delays: every request is answered exactly once, every write-back comes
 * back, nothing stays live. */
static void test_random_conservation(void **state)
{
    (void)state;
    gm_l2_cfg cfg = baseline_cfg();
    cfg.cache.size_bytes = 4 * 4 * 128; /* 4 sets of 4 ways */
    cfg.cache.assoc = 4;
    cfg.cache.latency = 6;
    cfg.cache.mshr_entries = 3;
    cfg.cache.mshr_merge = 2;
    cfg.dram_queue = 2;
    cfg.cache.miss_queue = 1; /* one unreserved write-back slot */
    rig g;
    rig_init(&g, cfg, 1);
    gm_prng p;
    gm_prng_seed(&p, 11, 0);
    enum { MAXPEND = 64, MAXREQ = 20000 };
    gm_req *pend[MAXPEND];
    uint64_t due[MAXPEND];
    int npend = 0;
    static uint8_t replied[MAXREQ + 1];
    memset(replied, 0, sizeof replied);
    uint64_t sent = 0, got = 0, wbs = 0;
    uint64_t first_id = 0;
    for (int cyc = 0; cyc < 60000; cyc++) {
        step(&g);
        /* DRAM: accept up to two items per edge, return after a delay. */
        for (int k = 0; k < 2 && npend < MAXPEND; k++) {
            gm_req *d = take(&g.dram_out, g.now);
            if (!d)
                break;
            wbs += d->kind == GM_REQ_WRITEBACK;
            pend[npend] = d;
            due[npend++] = g.now + P(&g) * (5 + gm_prng_below(&p, 40));
        }
        for (int i = 0; i < npend; i++) {
            if (due[i] <= g.now) {
                dram_return(&g, pend[i]);
                pend[i] = pend[--npend];
                due[i] = due[npend];
                i--;
            }
        }
        /* Reply side drains on a third of the edges. */
        if (gm_prng_below(&p, 3) == 0) {
            gm_req *rep = take(&g.rep_out, g.now);
            if (rep) {
                assert_true(rep->is_reply);
                assert_true(rep->kind != GM_REQ_WRITEBACK);
                uint64_t k = rep->id - first_id;
                assert_true(k < MAXREQ);
                assert_int_equal(replied[k], 0);
                replied[k] = 1;
                got++;
                gm_req_release(&g.pool, rep);
            }
        }
        if (cyc < 50000 && sent < MAXREQ && gm_link_can_push(&g.req_in, g.now) &&
            gm_prng_below(&p, 2)) {
            static const gm_req_kind kinds[] = {GM_REQ_LOAD, GM_REQ_LOAD, GM_REQ_STORE,
                                                GM_REQ_STORE, GM_REQ_ATOMIC, GM_REQ_NONL1};
            gm_req_kind kind = kinds[gm_prng_below(&p, 6)];
            uint8_t sec = (uint8_t)(1 + gm_prng_below(&p, 15));
            uint32_t rb = kind == GM_REQ_STORE ? 0 : 32u * (uint32_t)__builtin_popcount(sec);
            if (kind == GM_REQ_LOAD && gm_prng_below(&p, 2))
                rb = 128;
            gm_req *r = send(&g, kind, L(gm_prng_below(&p, 40)), sec, rb);
            if (!first_id)
                first_id = r->id;
            sent++;
        }
    }
    assert_true(sent > 5000);
    assert_int_equal(got, sent);
    assert_int_equal(npend, 0);
    assert_true(wbs > 100);
    assert_int_equal(wbs, g.s.stats.writebacks);
    assert_int_equal(g.s.stats.fills, g.s.stats.dram_reads);
    uint64_t acc = 0, outcomes = g.s.stats.sector_misses + g.s.stats.mshr_merges;
    for (int k = 0; k < GM_REQ_KIND_COUNT; k++) {
        acc += g.s.stats.accesses[k];
        outcomes += g.s.stats.hits[k] + g.s.stats.misses[k];
    }
    assert_int_equal(acc, sent);
    assert_int_equal(outcomes, sent);
    assert_true(g.s.stats.input_stalls > 0);
    assert_false(gm_l2_slice_busy(&g.s));
    assert_int_equal(g.pool.live, 0);
    rig_free(&g);
}

static void test_zero_latency(void **state)
{
    (void)state;
    gm_l2_cfg cfg = baseline_cfg();
    cfg.cache.latency = 0;
    rig g;
    rig_init(&g, cfg, 4);
    gm_req_release(&g.pool, roundtrip(&g, GM_REQ_LOAD, L(1), 0xf, 128));
    step(&g);
    gm_req *r = send(&g, GM_REQ_LOAD, L(1), 0xf, 128);
    gm_req *rep = wait_on(&g, &g.rep_out, 10);
    assert_ptr_equal(rep, r);
    /* Served at the edge after arrival, seen one edge later. */
    assert_int_equal(g.now, r->t_l2 + 2 * P(&g));
    gm_req_release(&g.pool, rep);
    rig_free(&g);
}

/* ---- sectored L2 ([l2] sectored = 1) ------------------------------------ */

static gm_l2_cfg sectored_cfg(void)
{
    gm_l2_cfg c = baseline_cfg();
    c.cache.sectored = 1;
    c.cache.latency = 4;
    return c;
}

/* A line with sector 0 valid (a store) and a line fill asking for all
 * four: DRAM is asked for exactly sectors 1-3, the fill makes the line
 * whole, the reply carries what was asked, and a second load hits. */
static void test_sectored_partial_fetch(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, sectored_cfg(), 4);
    gm_req_release(&g.pool, roundtrip(&g, GM_REQ_STORE, L(6), 0x1, 0));
    step(&g);
    gm_req *r = send(&g, GM_REQ_LOAD, L(6), 0xf, 128);
    gm_req *d = wait_on(&g, &g.dram_out, 100);
    assert_ptr_equal(d, r);
    assert_int_equal(d->sectors, 0xe);
    dram_return(&g, d);
    gm_req *rep = wait_on(&g, &g.rep_out, 100);
    assert_ptr_equal(rep, r);
    assert_int_equal(rep->sectors, 0xf);
    gm_req_release(&g.pool, rep);
    const gm_l2_stats *st = &g.s.stats;
    assert_int_equal(st->sector_misses, 1);   /* line present, sectors missing */
    assert_int_equal(st->sector_hits, 1);     /* sector 0 */
    assert_int_equal(st->sectors_missed, 3);
    assert_int_equal(st->fill_sectors, 3);
    gm_req_release(&g.pool, roundtrip(&g, GM_REQ_LOAD, L(6), 0xf, 128));
    assert_int_equal(st->dram_reads, 1);
    assert_int_equal(st->hits[GM_REQ_LOAD], 1);
    assert_int_equal(st->sector_hits, 5);
    rig_free(&g);
}

/* Line mode asks DRAM for the line whatever was asked and installs all of
 * it: the same sequence as above needs no second fetch for sector 2. */
static void test_line_mode_fetches_whole_line(void **state)
{
    (void)state;
    for (int sectored = 0; sectored <= 1; sectored++) {
        gm_l2_cfg cfg = sectored_cfg();
        cfg.cache.sectored = (uint32_t)sectored;
        rig g;
        rig_init(&g, cfg, 4);
        gm_req_release(&g.pool, roundtrip(&g, GM_REQ_LOAD, L(9), 0x2, 32));
        gm_req_release(&g.pool, roundtrip(&g, GM_REQ_LOAD, L(9), 0x4, 32));
        assert_int_equal(g.s.stats.dram_reads, sectored ? 2 : 1);
        assert_int_equal(g.s.stats.fill_sectors, sectored ? 2 : 4);
        assert_int_equal(g.s.stats.sector_misses, sectored ? 1 : 0);
        rig_free(&g);
    }
}

/* Sectored merge rule: a read whose missing sectors the pending fetch
 * brings merges (sector_merges); one needing a sector the fetch lacks
 * waits at the head (GM_L2_FAIL_SECTOR) until the fill, then fetches
 * just that sector. */
static void test_sectored_merge_rules(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, sectored_cfg(), 8);
    step(&g);
    gm_req *a = send(&g, GM_REQ_LOAD, L(3), 0x1, 32);
    gm_req *d = wait_on(&g, &g.dram_out, 100);
    assert_ptr_equal(d, a);
    assert_int_equal(d->sectors, 0x1);
    gm_req *b = send(&g, GM_REQ_LOAD, L(3), 0x1, 32);
    step(&g);
    gm_req *c = send(&g, GM_REQ_LOAD, L(3), 0x2, 32);
    for (int i = 0; i < 40; i++)
        step(&g);
    assert_int_equal(g.s.stats.mshr_merges, 1);
    assert_int_equal(g.s.stats.sector_merges, 1);
    assert_true(g.s.stats.res_fail[GM_L2_FAIL_SECTOR] > 0);
    assert_null(take(&g.dram_out, g.now)); /* c has not been fetched */
    dram_return(&g, d);
    gm_req *first = wait_on(&g, &g.rep_out, 100);
    gm_req *second = wait_on(&g, &g.rep_out, 100);
    assert_ptr_equal(first, a);
    assert_ptr_equal(second, b);
    gm_req *d2 = wait_on(&g, &g.dram_out, 100);
    assert_ptr_equal(d2, c);
    assert_int_equal(d2->sectors, 0x2);
    dram_return(&g, d2);
    assert_ptr_equal(wait_on(&g, &g.rep_out, 100), c);
    gm_req_release(&g.pool, a);
    gm_req_release(&g.pool, b);
    gm_req_release(&g.pool, c);
    assert_int_equal(g.s.stats.dram_reads, 2);
    assert_int_equal(g.s.stats.sectors_missed, 2);
    assert_false(gm_l2_slice_busy(&g.s));
    rig_free(&g);
}

static void test_init_errors(void **state)
{
    (void)state;
    gm_l2_slice s;
    gm_req_pool pool;
    gm_req_pool_init(&pool);
    gm_error err;
    gm_l2_cfg cfg = baseline_cfg();
    cfg.cache.line_bytes = 64;
    assert_int_not_equal(gm_l2_slice_init(&s, &cfg, 0, &pool, &err), 0);
    cfg = baseline_cfg();
    cfg.cache.size_bytes = 100000;
    assert_int_not_equal(gm_l2_slice_init(&s, &cfg, 0, &pool, &err), 0);
    gm_req_pool_free(&pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_then_hit_latency),
        cmocka_unit_test(test_store_allocate_then_load),
        cmocka_unit_test(test_line_fill_needs_all_sectors),
        cmocka_unit_test(test_dirty_eviction_one_writeback),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_merge_limit_stalls_in_order),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_writeback_reserve),
        cmocka_unit_test(test_interleaved_capacity),
        cmocka_unit_test(test_random_conservation),
        cmocka_unit_test(test_zero_latency),
        cmocka_unit_test(test_init_errors),
        cmocka_unit_test(test_sectored_partial_fetch),
        cmocka_unit_test(test_line_mode_fetches_whole_line),
        cmocka_unit_test(test_sectored_merge_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
