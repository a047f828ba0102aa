/* The cache engine alone: hits, misses, MSHR merging up to the limit and
 * refusal beyond, LRU eviction order, data-port occupancy, hit latency,
 * residency, two ports bound to one cache, and the write-evict /
 * no-write-allocate policy through a toy front end.
 *
 * The toy front end below is the smallest front end there is (and a
 * model for a new one): loads are cached, stores write-evict, whatever
 * must go to the next level is appended to `sent`, and the test plays
 * the next level by calling toy_fill. Time is given as edge numbers of
 * one 1400 MHz domain; expected values follow from the configuration
 * (bytes / port width, latency edges, the textbook LRU order). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cache/cache_engine.h"

#define L(n) ((uint64_t)(n) * 128u) /* address of line n */
#define MAXSENT 32

typedef struct toy {
    gm_tag_array tags;
    gm_mshr mshr;
    gm_cache_stats st;
    gm_cache_engine e;
    gm_req *sent[MAXSENT]; /* to the next level, in order */
    int nsent;
} toy;

typedef struct rig {
    gm_clock clk;
    gm_residency res;
    gm_req req[64];
    int nreq;
} rig;

static void rig_init(rig *g)
{
    memset(g, 0, sizeof *g);
    gm_clock_init(&g->clk);
    assert_int_equal(gm_clock_add(&g->clk, "core", 1400, NULL), 0);
    assert_int_equal(gm_clock_finalize(&g->clk, NULL), 0);
    assert_int_equal(gm_residency_init(&g->res, NULL), 0);
}

/* Time of edge k. */
static gm_time at(const rig *g, uint64_t k)
{
    return k * g->clk.d[0].period;
}

static gm_cache_cfg small_cfg(void)
{
    /* 4 sets x 2 ways of 128 B; a 32 B port: a sector per cycle. */
    return (gm_cache_cfg){.size_bytes = 1024, .assoc = 2, .line_bytes = 128, .latency = 5,
                          .mshr_entries = 2, .mshr_merge = 3, .miss_queue = 4,
                          .port_bytes = 32};
}

static void toy_init(rig *g, toy *t, const gm_cache_cfg *cfg)
{
    memset(t, 0, sizeof *t);
    gm_error err;
    if (gm_cache_engine_init(&t->e, cfg, &g->res, &t->tags, &t->mshr, &t->st, &err))
        fail_msg("%s", err.msg);
    gm_cache_engine_set_clock(&t->e, &g->clk.d[0]);
}

/* Every test: two toy caches of small_cfg() on one residency map. */
typedef struct fixture {
    rig g;
    toy t[2];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    rig_init(&f->g);
    gm_cache_cfg cfg = small_cfg();
    toy_init(&f->g, &f->t[0], &cfg);
    toy_init(&f->g, &f->t[1], &cfg);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    gm_cache_engine_free(&f->t[0].e);
    gm_cache_engine_free(&f->t[1].e);
    gm_residency_free(&f->g.res);
    free(f);
    return 0;
}

/* Rebuilds cache 0 with another configuration. */
static void reconfigure(fixture *f, const gm_cache_cfg *cfg)
{
    gm_cache_engine_free(&f->t[0].e);
    toy_init(&f->g, &f->t[0], cfg);
}

static gm_req *mkreq(rig *g, gm_req_kind kind, uint64_t addr, uint8_t sectors)
{
    assert_true(g->nreq < 64);
    gm_req *r = &g->req[g->nreq++];
    *r = (gm_req){.id = (uint64_t)g->nreq, .kind = (uint8_t)kind, .addr = addr,
                  .sectors = sectors};
    return r;
}

static void send(toy *t, gm_req *r)
{
    assert_true(t->nsent < MAXSENT);
    t->sent[t->nsent++] = r;
}

/* The toy's meaning of an access: loads are cached (a primary miss is
 * sent), stores write-evict and are sent. out_room: the next level can
 * take a request now. */
static gm_cache_fail toy_access(toy *t, gm_req *r, bool out_room, gm_time now)
{
    if (gm_cache_port_busy(&t->e, now))
        return GM_CACHE_FAIL_PORT;
    if (r->kind == GM_REQ_STORE) {
        if (!out_room)
            return GM_CACHE_FAIL_MISSQ;
        gm_cache_write_evict(&t->e, r->addr);
        send(t, r);
        return GM_CACHE_OK;
    }
    gm_cache_probe p = gm_cache_probe_read(&t->e, r->addr, r->sectors);
    if (p.fail != GM_CACHE_OK)
        return (gm_cache_fail)p.fail;
    if (p.outcome == GM_CACHE_MISS && !out_room)
        return GM_CACHE_FAIL_MISSQ;
    gm_req_move(r, GM_LOC_L1, 0, now); /* the hit latency counts from here */
    gm_cache_read(&t->e, &p, r, now);
    if (p.outcome == GM_CACHE_MISS)
        send(t, r);
    return GM_CACHE_OK;
}

static void load_ok(toy *t, gm_req *r, gm_time now)
{
    assert_int_equal(toy_access(t, r, true, now), GM_CACHE_OK);
}

/* The next level answers r: a full-line fill. Returns the waiters. */
static gm_req *toy_fill(toy *t, gm_req *r, gm_time now, gm_cache_filled *out)
{
    gm_cache_filled f;
    assert_true(gm_cache_fill(&t->e, r, GM_TAG_ALL_SECTORS, now, &f));
    if (out)
        *out = f;
    return f.waiters;
}

/* Brings line `line` in: a load miss at edge k, its fill at edge k + 1. */
static void warm(rig *g, toy *t, uint64_t line, uint64_t k, gm_cache_filled *out)
{
    gm_req *r = mkreq(g, GM_REQ_LOAD, L(line), 0xf);
    load_ok(t, r, at(g, k));
    gm_req *w = toy_fill(t, r, at(g, k + 1), out);
    assert_ptr_equal(w, r);
    assert_null(w->next);
}

static bool present(const toy *t, uint64_t line)
{
    return gm_tag_probe(&t->tags, L(line)) >= 0;
}

/* ---- tests ------------------------------------------------------------- */

static void test_miss_fill_then_hit(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];

    gm_req *r = mkreq(g, GM_REQ_LOAD, L(7), 0x2);
    gm_cache_probe p = gm_cache_probe_read(&t->e, r->addr, r->sectors);
    assert_int_equal(p.outcome, GM_CACHE_MISS);
    assert_int_equal(p.fail, GM_CACHE_OK);
    assert_int_equal(p.way, -1);
    assert_int_equal(p.missing, 0x2);
    /* A probe is pure: asking twice changes nothing. */
    assert_int_equal(gm_cache_probe_read(&t->e, r->addr, r->sectors).outcome, GM_CACHE_MISS);
    assert_int_equal(t->mshr.used, 0);

    load_ok(t, r, at(g, 1));
    assert_int_equal(t->nsent, 1);
    assert_ptr_equal(t->sent[0], r);
    assert_int_equal(r->req_bytes, 0);
    assert_int_equal(r->reply_bytes, 128); /* the whole line is fetched */
    assert_int_equal(r->sectors, 0x2);     /* what was asked is kept */
    assert_int_equal(t->st.load_misses, 1);
    assert_int_equal(t->mshr.used, 1);
    assert_true(gm_cache_busy(&t->e));
    assert_false(present(t, 7)); /* allocate on fill, not on miss */

    gm_cache_filled f;
    gm_req *w = toy_fill(t, r, at(g, 2), &f);
    assert_ptr_equal(w, r);
    assert_true(f.allocated);
    assert_true(f.tracked);
    assert_false(f.victim.evicted);
    assert_int_equal(t->st.fills, 1);
    assert_int_equal(t->mshr.used, 0);
    assert_true(present(t, 7));
    assert_int_equal(gm_tag_line_const(&t->tags, f.way)->valid, 0xf);
    assert_int_equal(gm_residency_count(&g->res, L(7)), 1);

    /* Any sectors of the line now hit. */
    gm_req *h = mkreq(g, GM_REQ_LOAD, L(7), 0xd);
    p = gm_cache_probe_read(&t->e, h->addr, h->sectors);
    assert_int_equal(p.outcome, GM_CACHE_HIT);
    assert_int_equal(p.fail, GM_CACHE_OK);
    assert_int_equal(p.way, f.way);
    /* A hit sends nothing, so it needs no room outside. */
    assert_int_equal(toy_access(t, h, false, at(g, 10)), GM_CACHE_OK);
    assert_int_equal(t->st.load_hits, 1);
    assert_int_equal(t->nsent, 1);
    assert_ptr_equal(gm_cache_hit_head(&t->e), h);
}

/* Latency 5: a hit at edge k leaves at edge k + 5, not before; hits
 * leave in access order. */
static void test_hit_latency(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];
    warm(g, t, 3, 0, NULL);

    gm_req *a = mkreq(g, GM_REQ_LOAD, L(3), 0x1);
    gm_req *b = mkreq(g, GM_REQ_LOAD, L(3), 0x8);
    load_ok(t, a, at(g, 30));
    assert_int_equal(gm_cache_hit_ready_at(&t->e), at(g, 35));
    load_ok(t, b, at(g, 31)); /* one sector: the port is free again at 31 */
    for (uint64_t k = 30; k < 35; k++)
        assert_null(gm_cache_hit_pop(&t->e, at(g, k)));
    /* Nobody asks at 35; at 36 both are ready and leave oldest first. */
    assert_ptr_equal(gm_cache_hit_pop(&t->e, at(g, 36)), a);
    assert_int_equal(gm_cache_hit_ready_at(&t->e), at(g, 36));
    assert_ptr_equal(gm_cache_hit_pop(&t->e, at(g, 36)), b);
    assert_null(gm_cache_hit_pop(&t->e, at(g, 36)));
    assert_null(gm_cache_hit_head(&t->e));
    assert_false(gm_cache_busy(&t->e));
}

/* mshr_merge = 3 counts the primary: two merges fit, a third is refused;
 * mshr_entries = 2: a third line is refused until a fill frees one. */
static void test_mshr_merge_limit(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];

    gm_req *p1 = mkreq(g, GM_REQ_LOAD, L(1), 0x1);
    gm_req *m1 = mkreq(g, GM_REQ_LOAD, L(1), 0x2);
    gm_req *m2 = mkreq(g, GM_REQ_LOAD, L(1), 0x4);
    gm_req *m3 = mkreq(g, GM_REQ_LOAD, L(1), 0x8);
    load_ok(t, p1, at(g, 1));
    /* Merging sends nothing and needs no room outside. */
    assert_int_equal(gm_cache_probe_read(&t->e, L(1), 0x2).outcome, GM_CACHE_MERGE);
    assert_int_equal(toy_access(t, m1, false, at(g, 2)), GM_CACHE_OK);
    load_ok(t, m2, at(g, 3));
    assert_int_equal(t->st.mshr_merges, 2);
    assert_int_equal(t->nsent, 1);
    assert_int_equal(toy_access(t, m3, true, at(g, 4)), GM_CACHE_FAIL_MERGE);
    assert_int_equal(t->st.mshr_merges, 2);

    gm_req *p2 = mkreq(g, GM_REQ_LOAD, L(2), 0x1);
    gm_req *p3 = mkreq(g, GM_REQ_LOAD, L(3), 0x1);
    /* A new line without room outside, then with. */
    assert_int_equal(toy_access(t, p2, false, at(g, 5)), GM_CACHE_FAIL_MISSQ);
    load_ok(t, p2, at(g, 5));
    assert_int_equal(toy_access(t, p3, true, at(g, 6)), GM_CACHE_FAIL_MSHR);
    assert_int_equal(t->st.load_misses, 2);
    assert_int_equal(t->nsent, 2);

    /* The fill completes the primary, then the merged ones in order. */
    gm_req *w = toy_fill(t, p1, at(g, 10), NULL);
    assert_ptr_equal(w, p1);
    assert_ptr_equal(w->next, m1);
    assert_ptr_equal(w->next->next, m2);
    assert_null(w->next->next->next);
    /* Its entry is free: the refused line goes now. */
    load_ok(t, p3, at(g, 20));
    assert_int_equal(t->st.load_misses, 3);
    assert_int_equal(t->st.res_fail[GM_CACHE_FAIL_MERGE], 0); /* the front end counts */
}

/* One set of 4 ways; victims follow the textbook LRU order written in
 * the comments (least recent first). */
static void test_lru_eviction_order(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];
    gm_cache_cfg cfg = small_cfg();
    cfg.size_bytes = 512;
    cfg.assoc = 4;
    reconfigure(fx, &cfg);
    assert_int_equal(t->tags.sets, 1);
    enum { A = 1, B, C, D, E, F };
    uint64_t k = 0;
    gm_cache_filled f;
    for (int n = A; n <= D; n++, k += 10) {
        warm(g, t, (uint64_t)n, k, &f);
        assert_false(f.victim.evicted);
    }
    /* A B C D; a hit on A: B C D A */
    load_ok(t, mkreq(g, GM_REQ_LOAD, L(A), 0x1), at(g, k));
    k += 10;
    warm(g, t, E, k, &f); /* C D A E */
    k += 10;
    assert_true(f.victim.evicted);
    assert_int_equal(f.victim.addr, L(B));
    assert_false(present(t, B));
    assert_int_equal(gm_residency_count(&g->res, L(B)), 0);
    assert_int_equal(gm_residency_count(&g->res, L(E)), 1);
    /* a hit on C: D A E C */
    load_ok(t, mkreq(g, GM_REQ_LOAD, L(C), 0x1), at(g, k));
    k += 10;
    warm(g, t, F, k, &f); /* A E C F */
    assert_int_equal(f.victim.addr, L(D));
    assert_int_equal(t->st.evictions, 2);
    assert_int_equal(t->st.fills, 6);
    assert_true(present(t, A) && present(t, C) && present(t, E) && present(t, F));
    assert_int_equal(g->res.total_resident_lines, 4);
}

/* A 128 B fill through a 32 B port holds it 4 edges: accesses and other
 * fills wait; a 3-sector hit holds it 3. */
static void test_fill_holds_port(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];
    warm(g, t, 1, 0, NULL);
    assert_int_equal(t->st.port_busy_cycles, 4);

    gm_req *b = mkreq(g, GM_REQ_LOAD, L(2), 0x1);
    gm_req *c = mkreq(g, GM_REQ_LOAD, L(3), 0x1);
    load_ok(t, b, at(g, 10));
    load_ok(t, c, at(g, 11));
    toy_fill(t, b, at(g, 20), NULL);
    gm_req *h = mkreq(g, GM_REQ_LOAD, L(1), 0x7);
    for (uint64_t k = 21; k < 24; k++) {
        assert_true(gm_cache_port_busy(&t->e, at(g, k)));
        assert_int_equal(toy_access(t, h, true, at(g, k)), GM_CACHE_FAIL_PORT);
    }
    gm_cache_filled f;
    assert_false(gm_cache_fill(&t->e, c, GM_TAG_ALL_SECTORS, at(g, 22), &f));
    assert_int_equal(t->st.fill_port_waits, 1);
    assert_false(present(t, 3)); /* a refused fill installs nothing */
    assert_int_equal(t->mshr.used, 1);

    assert_int_equal(toy_access(t, h, true, at(g, 24)), GM_CACHE_OK);
    /* Three sectors: busy through edge 26, the waiting fill goes at 27. */
    assert_false(gm_cache_fill(&t->e, c, GM_TAG_ALL_SECTORS, at(g, 26), &f));
    assert_true(gm_cache_fill(&t->e, c, GM_TAG_ALL_SECTORS, at(g, 27), &f));
    assert_int_equal(t->st.fill_port_waits, 2);
    assert_int_equal(t->st.port_busy_cycles, 4 + 4 + 3 + 4);
}

/* A port that is not a divisor of the line rounds up: 32 B sectors
 * through 48 B take ceil(32 n / 48) cycles. */
static void test_port_cycles_round_up(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];
    gm_cache_cfg cfg = small_cfg();
    cfg.port_bytes = 48;
    reconfigure(fx, &cfg);
    assert_int_equal(gm_cache_port_cycles(&t->e, 0x0), 0);
    assert_int_equal(gm_cache_port_cycles(&t->e, 0x4), 1); /* 32 B */
    assert_int_equal(gm_cache_port_cycles(&t->e, 0x5), 2); /* 64 B */
    assert_int_equal(gm_cache_port_cycles(&t->e, 0xb), 2); /* 96 B */
    assert_int_equal(gm_cache_port_cycles(&t->e, 0xf), 3); /* 128 B */
    warm(g, t, 1, 0, NULL);
    assert_int_equal(t->st.port_busy_cycles, 3);
    assert_true(gm_cache_port_busy(&t->e, at(g, 3)));
    assert_false(gm_cache_port_busy(&t->e, at(g, 4)));
}

/* Write-evict, no-write-allocate through the toy front end. */
static void test_write_evict_no_allocate(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];
    warm(g, t, 5, 0, NULL);
    assert_int_equal(t->tags.lines_used, 1);

    /* A store to a present line invalidates it and goes on. */
    gm_req *s = mkreq(g, GM_REQ_STORE, L(5), 0x3);
    assert_int_equal(toy_access(t, s, true, at(g, 10)), GM_CACHE_OK);
    assert_false(present(t, 5));
    assert_int_equal(t->tags.lines_used, 0);
    assert_int_equal(gm_residency_count(&g->res, L(5)), 0);
    assert_int_equal(t->st.write_evicts, 1);
    assert_ptr_equal(t->sent[t->nsent - 1], s);
    assert_int_equal(t->st.port_busy_cycles, 4); /* a store does not use the port */

    /* A store to an absent line allocates nothing. */
    gm_req *s2 = mkreq(g, GM_REQ_STORE, L(6), 0xf);
    assert_int_equal(toy_access(t, s2, true, at(g, 11)), GM_CACHE_OK);
    assert_int_equal(t->st.store_misses, 1);
    assert_false(present(t, 6));
    assert_int_equal(t->tags.lines_used, 0);
    assert_int_equal(t->st.fills, 1);

    /* A store passing a pending fetch leaves the MSHR alone; the fill
     * still installs the line. */
    gm_req *l = mkreq(g, GM_REQ_LOAD, L(5), 0x1);
    load_ok(t, l, at(g, 12));
    assert_int_equal(t->st.load_misses, 2); /* the evicted line misses again */
    gm_req *s3 = mkreq(g, GM_REQ_STORE, L(5), 0x1);
    assert_int_equal(toy_access(t, s3, true, at(g, 13)), GM_CACHE_OK);
    assert_int_equal(t->mshr.used, 1);
    assert_int_equal(t->st.store_misses, 2);
    toy_fill(t, l, at(g, 14), NULL);
    assert_true(present(t, 5));
}

/* Two caches on one residency map: a miss on a line the other holds is
 * counted, and a fill adds this copy. */
static void test_residency(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t0 = &fx->t[0], *t1 = &fx->t[1];
    warm(g, t0, 9, 0, NULL);
    assert_int_equal(t0->st.miss_resident_elsewhere, 0);
    gm_cache_filled f;
    warm(g, t1, 9, 10, &f);
    assert_int_equal(t1->st.miss_resident_elsewhere, 1);
    assert_true(f.tracked);
    assert_int_equal(gm_residency_count(&g->res, L(9)), 2);
    assert_int_equal(g->res.distinct_lines, 1);
    gm_residency_free(&g->res);
}

/* Two ports bound to one tag array and MSHR table (a shared cache): a
 * miss through one port merges a read through the other; each port has
 * its own data port. */
static void test_two_ports_one_cache(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];
    gm_cache_cfg cfg = small_cfg();
    gm_cache_engine e2;
    gm_cache_stats st2 = {0};
    assert_int_equal(gm_cache_engine_bind(&e2, &cfg, &g->res, &t->tags, &t->mshr, &st2, NULL), 0);
    gm_cache_engine_set_clock(&e2, &g->clk.d[0]);

    gm_req *a = mkreq(g, GM_REQ_LOAD, L(4), 0x1);
    gm_req *b = mkreq(g, GM_REQ_LOAD, L(4), 0x2);
    load_ok(t, a, at(g, 1));
    gm_cache_probe p = gm_cache_probe_read(&e2, b->addr, b->sectors);
    assert_int_equal(p.outcome, GM_CACHE_MERGE);
    gm_req_move(b, GM_LOC_L1, 1, at(g, 1));
    gm_cache_read(&e2, &p, b, at(g, 1));
    assert_int_equal(st2.mshr_merges, 1);
    assert_int_equal(t->st.load_misses, 1);

    gm_req *w = toy_fill(t, a, at(g, 5), NULL);
    assert_ptr_equal(w, a);
    assert_ptr_equal(w->next, b);
    assert_true(gm_cache_port_busy(&t->e, at(g, 6)));
    assert_false(gm_cache_port_busy(&e2, at(g, 6)));
    /* The second port hits the line the first one filled. */
    p = gm_cache_probe_read(&e2, L(4), 0x8);
    assert_int_equal(p.outcome, GM_CACHE_HIT);
    gm_cache_engine_free(&e2); /* frees nothing: t's engine owns the storage */
    assert_true(present(t, 4));
}

/* A fill may carry only some sectors (the sectored follow-up): it holds
 * the port for those, marks only those valid, and a read of the others
 * is a miss on a present line. */
static void test_partial_fill(void **state)
{
    fixture *fx = *state;
    rig *g = &fx->g;
    toy *t = &fx->t[0];
    gm_req *r = mkreq(g, GM_REQ_LOAD, L(8), 0x3);
    load_ok(t, r, at(g, 1));
    gm_cache_filled f;
    assert_true(gm_cache_fill(&t->e, r, 0x3, at(g, 2), &f));
    assert_int_equal(t->st.port_busy_cycles, 2); /* 64 B through 32 B */
    assert_int_equal(gm_tag_line_const(&t->tags, f.way)->valid, 0x3);
    assert_int_equal(gm_cache_probe_read(&t->e, L(8), 0x1).outcome, GM_CACHE_HIT);
    gm_cache_probe p = gm_cache_probe_read(&t->e, L(8), 0x6);
    assert_int_equal(p.outcome, GM_CACHE_MISS);
    assert_int_equal(p.way, f.way);
    assert_int_equal(p.missing, 0x4);
}

static void test_init_errors(void **state)
{
    (void)state;
    gm_tag_array tags;
    gm_mshr mshr;
    gm_cache_stats st;
    gm_cache_engine e;
    gm_error err;
    gm_cache_cfg cfg = small_cfg();
    cfg.port_bytes = 0;
    assert_int_not_equal(gm_cache_engine_init(&e, &cfg, NULL, &tags, &mshr, &st, &err), 0);
    assert_non_null(strstr(err.msg, "port"));
    cfg = small_cfg();
    cfg.mshr_entries = 0;
    assert_int_not_equal(gm_cache_engine_init(&e, &cfg, NULL, &tags, &mshr, &st, &err), 0);
    cfg = small_cfg();
    cfg.size_bytes = 1000;
    assert_int_not_equal(gm_cache_engine_init(&e, &cfg, NULL, &tags, &mshr, &st, &err), 0);
    gm_cache_engine_free(&e); /* safe after a failed init */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_miss_fill_then_hit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hit_latency, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mshr_merge_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lru_eviction_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fill_holds_port, setup, teardown),
        cmocka_unit_test_setup_teardown(test_port_cycles_round_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_evict_no_allocate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_residency, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_ports_one_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_fill, setup, teardown),
        cmocka_unit_test(test_init_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
