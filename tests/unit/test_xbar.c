/* Tests of the crossbar network (noc/xbar.h): router + NIs + links.
 *
 * Rationale: the network is driven through gm_link exactly as the system
 * will drive it (producers push visible gm_req, consumers pop them), in
 * one 700 MHz clock domain. Checks: every packet delivered exactly once
 * and in order per (input, output) pair under random traffic with random
 * back-pressure on 8x4, 80x32 and 32x80; the unloaded latency equals the
 * documented pipeline (docs/noc.md section 7.4); flits per packet follow
 * ceil((header + payload) / flit); conservation of packets every cycle;
 * identical statistics for identical runs; the drain check and the
 * locator name where a stuck packet is; a bad destination is reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "noc/xbar.h"
#include "sim/prng.h"

typedef struct net {
    gm_clock clk;
    int dom;
    gm_noc_cfg cfg;
    gm_xbar x;
    uint32_t n_in, n_out;
    gm_link *in_links, *out_links;
    gm_link **inp, **outp;
    gm_req_pool pool;
    gm_prng rng;
    uint64_t *next_seq;       /* [n_in*n_out] sequence of the next packet sent */
    uint64_t *expect_seq;     /* [n_in*n_out] sequence expected next */
    uint64_t sent, received;
    uint64_t flits_expected;
    uint32_t inject_pct;      /* chance per input per cycle to offer a packet */
    uint32_t accept_pct;      /* chance per output per cycle to pop */
    bool reply;               /* send replies (reply_bytes) instead of requests */
    uint64_t hash;            /* of the delivery stream (id, cycle, output) */
    uint64_t last_latency;    /* cycles from push to visible pop, last packet */
} net;

static uint32_t dest_of(const gm_req *r, void *ctx)
{
    (void)ctx;
    return r->slice;
}

static gm_noc_cfg default_cfg(void)
{
    return (gm_noc_cfg){
        .clock_mhz = 700, .flit_bytes = 32, .vcs = 4, .vc_depth = 4,
        .header_bytes = 8, .router_stages = 1, .islip_iters = 1,
        .inject_queue = 4, .eject_queue = 4,
    };
}

static net *net_new(uint32_t n_in, uint32_t n_out, gm_noc_cfg cfg, uint64_t seed)
{
    net *n = calloc(1, sizeof *n);
    assert_non_null(n);
    gm_error err;
    n->n_in = n_in;
    n->n_out = n_out;
    n->cfg = cfg;
    gm_clock_init(&n->clk);
    n->dom = gm_clock_add(&n->clk, "noc", cfg.clock_mhz, &err);
    assert_true(n->dom >= 0);
    assert_int_equal(gm_clock_finalize(&n->clk, &err), 0);
    assert_int_equal(gm_xbar_init(&n->x, "test", n_in, n_out, &cfg, dest_of, 0,
                                  &err), 0);
    n->in_links = calloc(n_in, sizeof *n->in_links);
    n->out_links = calloc(n_out, sizeof *n->out_links);
    n->inp = calloc(n_in, sizeof *n->inp);
    n->outp = calloc(n_out, sizeof *n->outp);
    n->next_seq = calloc((size_t)n_in * n_out, sizeof *n->next_seq);
    n->expect_seq = calloc((size_t)n_in * n_out, sizeof *n->expect_seq);
    assert_true(n->in_links && n->out_links && n->inp && n->outp &&
                n->next_seq && n->expect_seq);
    for (uint32_t i = 0; i < n_in; i++) {
        assert_int_equal(gm_link_init(&n->in_links[i], 2, 1, &n->clk.d[n->dom]), 0);
        n->inp[i] = &n->in_links[i];
    }
    for (uint32_t j = 0; j < n_out; j++) {
        assert_int_equal(gm_link_init(&n->out_links[j], 2, 1, &n->clk.d[n->dom]), 0);
        n->outp[j] = &n->out_links[j];
    }
    gm_xbar_connect(&n->x, (gm_xbar_ports){n->inp, n->outp});
    gm_req_pool_init(&n->pool);
    gm_prng_seed(&n->rng, seed, 42);
    n->accept_pct = 100;
    n->hash = 1469598103934665603ull;
    return n;
}

static void net_free(net *n)
{
    gm_xbar_free(&n->x);
    for (uint32_t i = 0; i < n->n_in; i++)
        gm_link_free(&n->in_links[i]);
    for (uint32_t j = 0; j < n->n_out; j++)
        gm_link_free(&n->out_links[j]);
    free(n->in_links);
    free(n->out_links);
    free(n->inp);
    free(n->outp);
    free(n->next_seq);
    free(n->expect_seq);
    gm_req_pool_free(&n->pool);
    free(n);
}

static uint32_t flits_for(const gm_noc_cfg *c, uint32_t payload)
{
    /* Independent of gm_noc_packet_flits: smallest f with f*flit >= bytes. */
    uint32_t bytes = c->header_bytes + payload, f = 1;
    while (f * c->flit_bytes < bytes)
        f++;
    return f;
}

/* Pushes a packet from i to j with the given payload; NULL if the link
 * is full. */
static gm_req *offer(net *n, uint32_t i, uint32_t j, uint32_t payload)
{
    gm_time now = n->clk.now;
    if (!gm_link_can_push(n->inp[i], now))
        return 0;
    gm_req *r = gm_req_alloc(&n->pool, now);
    assert_non_null(r);
    r->src = (uint16_t)i;
    r->slice = (uint16_t)j;
    r->addr = n->next_seq[i * n->n_out + j]++ << 7;
    r->is_reply = n->reply;
    if (n->reply)
        r->reply_bytes = payload;
    else
        r->req_bytes = payload;
    r->loc = GM_LOC_L1_MISSQ;
    gm_link_push(n->inp[i], r, now);
    n->sent++;
    n->flits_expected += flits_for(&n->cfg, payload);
    return r;
}

static void consume(net *n)
{
    gm_time now = n->clk.now;
    for (uint32_t j = 0; j < n->n_out; j++) {
        gm_req *r = gm_link_peek(n->outp[j], now);
        if (!r || gm_prng_below(&n->rng, 100) >= n->accept_pct)
            continue;
        gm_link_pop(n->outp[j], now);
        assert_int_equal(r->slice, j);
        assert_int_equal(r->loc, n->reply ? GM_LOC_NOC_REP : GM_LOC_NOC_REQ);
        assert_int_equal(r->loc_index, r->src);
        uint64_t *exp = &n->expect_seq[r->src * n->n_out + j];
        assert_int_equal(r->addr >> 7, *exp); /* in order, none lost or doubled */
        (*exp)++;
        n->last_latency = (now - r->t_loc) / n->clk.d[n->dom].period;
        n->hash = (n->hash ^ r->id) * 1099511628211ull;
        n->hash = (n->hash ^ n->x.st.cycles) * 1099511628211ull;
        n->hash = (n->hash ^ j) * 1099511628211ull;
        gm_req_move(r, GM_LOC_L2_IN, j, now);
        gm_req_release(&n->pool, r);
        n->received++;
    }
}

/* One network edge: producers, the network, consumers (any order would
 * do: links make it irrelevant). */
static void net_edge(net *n, bool generate, uint32_t max_payload)
{
    int d = gm_clock_advance(&n->clk);
    assert_int_equal(d, n->dom);
    if (generate)
        for (uint32_t i = 0; i < n->n_in; i++)
            if (gm_prng_below(&n->rng, 100) < n->inject_pct) {
                uint32_t j = (uint32_t)gm_prng_below(&n->rng, n->n_out);
                uint32_t p = (uint32_t)gm_prng_below(&n->rng, max_payload + 1);
                offer(n, i, j, p);
            }
    gm_xbar_tick(&n->x, n->clk.now);
    consume(n);
    /* Conservation, every cycle. */
    assert_int_equal(n->x.st.packets_in, n->x.st.packets_out + n->x.pkts.live);
    assert_int_equal(gm_xbar_inside(&n->x), n->x.pkts.live);
}

static bool links_empty(const net *n)
{
    for (uint32_t i = 0; i < n->n_in; i++)
        if (!gm_link_empty(n->inp[i]))
            return false;
    for (uint32_t j = 0; j < n->n_out; j++)
        if (!gm_link_empty(n->outp[j]))
            return false;
    return true;
}

static void net_drain(net *n, uint64_t limit)
{
    n->accept_pct = 100;
    uint64_t k = 0;
    while (gm_xbar_busy(&n->x) || !links_empty(n)) {
        net_edge(n, false, 0);
        assert_true(++k < limit);
    }
    gm_error err;
    if (gm_xbar_check_drained(&n->x, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(n->received, n->sent);
    assert_int_equal(n->pool.live, 0);
    assert_int_equal(n->x.st.packets_out, n->sent);
    assert_int_equal(n->x.st.flits_in, n->flits_expected);
    assert_int_equal(n->x.st.flits_out, n->flits_expected);
    uint64_t in = 0, out = 0;
    for (uint32_t i = 0; i < n->n_in; i++)
        in += n->x.st.in_flits[i];
    for (uint32_t j = 0; j < n->n_out; j++)
        out += n->x.st.out_flits[j];
    assert_int_equal(in, n->flits_expected);
    assert_int_equal(out, n->flits_expected);
}

static void random_run(uint32_t n_in, uint32_t n_out, gm_noc_cfg cfg,
                       uint32_t inject_pct, uint32_t accept_pct, bool reply,
                       uint32_t cycles, uint64_t seed)
{
    net *n = net_new(n_in, n_out, cfg, seed);
    n->inject_pct = inject_pct;
    n->accept_pct = accept_pct;
    n->reply = reply;
    for (uint32_t c = 0; c < cycles; c++)
        net_edge(n, true, 128);
    assert_true(n->sent > cycles / 10);
    net_drain(n, 100000);
    net_free(n);
}

/* ---- delivery ---- */

static void test_random_8x4_exactly_once_in_order(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    random_run(8, 4, cfg, 30, 100, false, 5000, 1);  /* overloaded outputs */
    random_run(8, 4, cfg, 50, 40, true, 5000, 2);    /* slow consumers */
    cfg.vcs = 2;
    cfg.vc_depth = 2;
    cfg.router_stages = 3;
    cfg.islip_iters = 2;
    cfg.inject_queue = 1;
    cfg.eject_queue = 1;
    random_run(8, 4, cfg, 20, 70, false, 5000, 3);
    cfg = default_cfg();
    cfg.vcs = 1;
    cfg.flit_bytes = 16;
    random_run(5, 3, cfg, 25, 90, false, 4000, 4);
}

static void test_random_80x32_and_32x80(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    random_run(80, 32, cfg, 10, 100, false, 3000, 5);
    random_run(32, 80, cfg, 30, 95, true, 3000, 6);
}

/* ---- latency and packetization ---- */

/* Documented unloaded latency (docs/noc.md section 7.4), from the edge the
 * injection NI accepts the packet to the edge its gm_req is pushed into
 * the ejection link: 1 (NI queue register) + 1 (VA) + 1 (SA, into output
 * stage 0) + (stages - 1) + 1 (into the ejection NI buffer) + (flits - 1)
 * (flits follow one per cycle) + 1 (drain of the tail, push) =
 * flits + stages + 3, as long as no credit runs out (flits <= depth, or
 * stages = 1 where the credit loop equals the depth). */
static void test_unloaded_latency(void **state)
{
    (void)state;
    static const uint32_t payload[] = {0, 40, 100, 128};
    for (uint32_t stages = 1; stages <= 3; stages++)
        for (size_t k = 0; k < 4; k++) {
            gm_noc_cfg cfg = default_cfg();
            cfg.router_stages = stages;
            uint32_t f = flits_for(&cfg, payload[k]);
            if (f > cfg.vc_depth && stages > 1)
                continue;
            net *n = net_new(3, 2, cfg, 7);
            net_edge(n, false, 0);
            assert_true(offer(n, 2, 1, payload[k]));
            uint64_t pushed_at = n->clk.d[n->dom].cycle;
            while (n->received == 0)
                net_edge(n, false, 0);
            assert_int_equal(n->x.st.lat_max, f + stages + 3);
            assert_int_equal(n->x.st.lat_sum, f + stages + 3);
            /* Around the network: one edge on each link (latency 1). */
            assert_int_equal(n->clk.d[n->dom].cycle - pushed_at, f + stages + 5);
            assert_int_equal(n->last_latency, f + stages + 4);
            net_drain(n, 100);
            net_free(n);
        }
}

static void test_flits_per_packet_size(void **state)
{
    (void)state;
    /* header 8, flit 32: 0..24 B -> 1 flit, 25..56 -> 2, 120..128 -> 5. */
    static const struct { uint32_t payload, flits; } c32[] = {
        {0, 1}, {24, 1}, {25, 2}, {56, 2}, {57, 3}, {128, 5},
    };
    for (int reply = 0; reply <= 1; reply++)
        for (size_t k = 0; k < sizeof c32 / sizeof c32[0]; k++) {
            net *n = net_new(2, 2, default_cfg(), 8);
            n->reply = reply;
            net_edge(n, false, 0);
            assert_true(offer(n, 0, 1, c32[k].payload));
            net_drain(n, 100);
            assert_int_equal(n->x.st.flits_in, c32[k].flits);
            assert_int_equal(n->x.st.out_flits[1], c32[k].flits);
            assert_int_equal(n->x.st.in_flits[0], c32[k].flits);
            net_free(n);
        }
    /* 16 B flits, 4 B header: 128 B of data is 132 B = 9 flits. */
    gm_noc_cfg cfg = default_cfg();
    cfg.flit_bytes = 16;
    cfg.header_bytes = 4;
    net *n = net_new(1, 1, cfg, 9);
    net_edge(n, false, 0);
    assert_true(offer(n, 0, 0, 128));
    net_drain(n, 100);
    assert_int_equal(n->x.st.flits_in, 9);
    net_free(n);
}

/* ---- determinism ---- */

static void run_for_stats(uint64_t seed, uint64_t *hash, gm_xbar_stats *st,
                          uint64_t *in_flits, uint64_t *out_flits,
                          uint64_t *in_stall)
{
    net *n = net_new(8, 4, default_cfg(), seed);
    n->inject_pct = 35;
    n->accept_pct = 80;
    for (uint32_t c = 0; c < 3000; c++)
        net_edge(n, true, 128);
    net_drain(n, 100000);
    *hash = n->hash;
    *st = n->x.st;
    memcpy(in_flits, n->x.st.in_flits, 8 * sizeof *in_flits);
    memcpy(out_flits, n->x.st.out_flits, 4 * sizeof *out_flits);
    memcpy(in_stall, n->x.st.in_stall, 8 * sizeof *in_stall);
    net_free(n);
}

static void test_determinism(void **state)
{
    (void)state;
    uint64_t h[3], inf[3][8], outf[3][4], stall[3][8];
    gm_xbar_stats st[3];
    run_for_stats(11, &h[0], &st[0], inf[0], outf[0], stall[0]);
    run_for_stats(11, &h[1], &st[1], inf[1], outf[1], stall[1]);
    run_for_stats(12, &h[2], &st[2], inf[2], outf[2], stall[2]);
    assert_int_equal(h[0], h[1]);
    assert_int_equal(st[0].cycles, st[1].cycles);
    assert_int_equal(st[0].packets_in, st[1].packets_in);
    assert_int_equal(st[0].flits_in, st[1].flits_in);
    assert_int_equal(st[0].lat_sum, st[1].lat_sum);
    assert_int_equal(st[0].lat_max, st[1].lat_max);
    assert_memory_equal(inf[0], inf[1], sizeof inf[0]);
    assert_memory_equal(outf[0], outf[1], sizeof outf[0]);
    assert_memory_equal(stall[0], stall[1], sizeof stall[0]);
    /* A different seed gives a different run: the comparison can fail. */
    assert_true(h[0] != h[2] || st[0].lat_sum != st[2].lat_sum);
}

/* ---- watchdog support ---- */

typedef struct count_arg {
    uint32_t n;
} count_arg;

static void count_req(const gm_req *r, void *arg)
{
    (void)r;
    ((count_arg *)arg)->n++;
}

/* The consumer of output 0 stops: its link (2 entries) fills, then the
 * ejection NI's done queue, then the buffers. The locator must say where
 * each stuck packet is, and the drain check must fail. */
static void test_stuck_packet_is_located(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    cfg.eject_queue = 1;
    net *n = net_new(2, 2, cfg, 13);
    n->accept_pct = 0;
    gm_req *reqs[6];
    for (int k = 0; k < 6; k++) {
        net_edge(n, false, 0);
        reqs[k] = offer(n, 0, 0, 0);
        assert_non_null(reqs[k]);
    }
    for (int k = 0; k < 50; k++)
        net_edge(n, false, 0);
    assert_true(gm_xbar_busy(&n->x));
    gm_error err;
    assert_int_not_equal(gm_xbar_check_drained(&n->x, &err), 0);
    assert_non_null(strstr(err.msg, "packets inside"));
    /* Two packets sit in the output link, four are inside. */
    assert_int_equal(gm_xbar_inside(&n->x), 4);
    count_arg ca = {0};
    gm_xbar_foreach_req(&n->x, count_req, &ca);
    assert_int_equal(ca.n, 4);
    char buf[512];
    /* The oldest two are in the output link, not in the network. */
    assert_false(gm_xbar_find_req(&n->x, reqs[0], buf, sizeof buf));
    assert_false(gm_xbar_find_req(&n->x, reqs[1], buf, sizeof buf));
    /* The third waits in the done queue for the link. */
    assert_true(gm_xbar_find_req(&n->x, reqs[2], buf, sizeof buf));
    assert_non_null(strstr(buf, "done queue"));
    /* The others are in the ejection buffer or further back. */
    for (int k = 3; k < 6; k++) {
        assert_true(gm_xbar_find_req(&n->x, reqs[k], buf, sizeof buf));
        assert_true(strstr(buf, "eject NI 0 buffer") || strstr(buf, "router") ||
                    strstr(buf, "inject NI"));
    }
    net_drain(n, 1000);
    net_free(n);
}

static uint32_t bad_dest(const gm_req *r, void *ctx)
{
    (void)r;
    (void)ctx;
    return 7;
}

static void test_bad_destination_is_reported(void **state)
{
    (void)state;
    net *n = net_new(2, 2, default_cfg(), 14);
    n->x.dest = bad_dest;
    net_edge(n, false, 0);
    assert_true(offer(n, 1, 0, 0));
    for (int k = 0; k < 5; k++)
        net_edge(n, false, 0);
    assert_false(gm_link_empty(n->inp[1])); /* left where the watchdog sees it */
    gm_error err;
    assert_int_not_equal(gm_xbar_check_drained(&n->x, &err), 0);
    assert_non_null(strstr(err.msg, "output 7"));
    /* Clean up: take it out by hand. */
    gm_req *r = gm_link_pop(n->inp[1], n->clk.now);
    gm_req_release(&n->pool, r);
    net_free(n);
}

static void test_init_rejects_bad_config(void **state)
{
    (void)state;
    gm_xbar x;
    gm_error err;
    gm_noc_cfg cfg = default_cfg();
    cfg.flit_bytes = 0;
    assert_int_not_equal(gm_xbar_init(&x, "x", 2, 2, &cfg, dest_of, 0, &err), 0);
    cfg = default_cfg();
    cfg.vcs = 0;
    assert_int_not_equal(gm_xbar_init(&x, "x", 2, 2, &cfg, dest_of, 0, &err), 0);
    cfg = default_cfg();
    cfg.inject_queue = 0;
    assert_int_not_equal(gm_xbar_init(&x, "x", 2, 2, &cfg, dest_of, 0, &err), 0);
    cfg = default_cfg();
    assert_int_not_equal(gm_xbar_init(&x, "x", 0, 2, &cfg, dest_of, 0, &err), 0);
}

/* Skipped idle edges count as cycles; an idle network's tick is a no-op. */
static void test_idle_network(void **state)
{
    (void)state;
    net *n = net_new(4, 4, default_cfg(), 15);
    for (int k = 0; k < 10; k++)
        net_edge(n, false, 0);
    assert_false(gm_xbar_busy(&n->x));
    assert_int_equal(n->x.router.ticks_active, 0);
    gm_xbar_skip_idle(&n->x, 90);
    assert_int_equal(n->x.st.cycles, 100);
    net_free(n);
}


/* ---- co-simulation twin ---- */

/* A stand-in for the Verilated router: a second C router fed the same
 * inputs. `drop_credit_at` mutates it (a credit output lost at that
 * cycle) so the comparison has something to catch. */
typedef struct twin_ctx {
    gm_router r;
    uint64_t cycle;
    uint64_t drop_credit_at;
    uint64_t compares, mismatches;
} twin_ctx;

static void twin_eval(void *ctx, gm_router_out *out)
{
    twin_ctx *t = ctx;
    gm_router_eval(&t->r, out);
    if (t->cycle >= t->drop_credit_at)
        for (uint32_t i = 0; i < t->r.cfg.n_in; i++)
            if (out->in[i].credit_valid) {
                out->in[i] = (gm_router_credit){0};
                t->drop_credit_at = UINT64_MAX;
                break;
            }
}

static void twin_tick(void *ctx, const gm_router_in *in)
{
    twin_ctx *t = ctx;
    gm_router_tick(&t->r, in);
    t->cycle++;
}

static int twin_compare(void *ctx, uint64_t cycle, const gm_router_out *e,
                        const gm_router_out *a)
{
    twin_ctx *t = ctx;
    (void)cycle;
    t->compares++;
    int bad = memcmp(e->out, a->out, t->r.cfg.n_out * sizeof *e->out) != 0 ||
              memcmp(e->in, a->in, t->r.cfg.n_in * sizeof *e->in) != 0;
    t->mismatches += bad;
    return bad;
}

static void run_with_twin(twin_ctx *t, uint64_t *hash, bool expect_clean)
{
    net *n = net_new(8, 4, default_cfg(), 11);
    gm_error err;
    assert_int_equal(gm_router_init(&t->r, &n->x.router.cfg, &err), 0);
    gm_router_twin tw = {.ctx = t, .eval = twin_eval, .tick = twin_tick,
                         .compare = twin_compare};
    assert_int_equal(gm_xbar_attach_twin(&n->x, &tw, &err), 0);
    n->inject_pct = 35;
    n->accept_pct = 80;
    for (uint32_t c = 0; c < 3000; c++)
        net_edge(n, true, 128);
    if (expect_clean) {
        net_drain(n, 100000);
        *hash = n->hash;
    } else {
        for (uint32_t c = 0; c < 2000; c++)
            net_edge(n, false, 0);
        assert_int_equal(gm_xbar_check_drained(&n->x, &err), -1);
        assert_non_null(strstr(err.msg, "diverged"));
    }
    gm_router_free(&t->r);
    net_free(n);
}

/* A faithful twin drives the network to exactly the run the C router
 * gives alone; a twin that loses one credit is caught. */
static void test_twin_drives_and_is_checked(void **state)
{
    (void)state;
    uint64_t h_ref, h_twin, inf[8], outf[4], stall[8];
    gm_xbar_stats st;
    run_for_stats(11, &h_ref, &st, inf, outf, stall);
    twin_ctx good = {.drop_credit_at = UINT64_MAX};
    run_with_twin(&good, &h_twin, true);
    assert_int_equal(h_twin, h_ref);
    assert_true(good.compares > 3000);
    assert_int_equal(good.mismatches, 0);
    twin_ctx bad = {.drop_credit_at = 500};
    run_with_twin(&bad, &h_twin, false);
    assert_true(bad.mismatches >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_8x4_exactly_once_in_order),
        cmocka_unit_test(test_random_80x32_and_32x80),
        cmocka_unit_test(test_unloaded_latency),
        cmocka_unit_test(test_flits_per_packet_size),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_stuck_packet_is_located),
        cmocka_unit_test(test_bad_destination_is_reported),
        cmocka_unit_test(test_init_rejects_bad_config),
        cmocka_unit_test(test_idle_network),
        cmocka_unit_test(test_twin_drives_and_is_checked),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
