/* Tests of the general network (noc/net.h): descriptions, builders,
 * channels, routing tables, and the network driven through gm_link as the
 * system drives it, in one 700 MHz clock domain.
 *
 * Rationale. Delivery is checked end to end: every packet reaches the
 * sink its gm_req names, exactly once (a request is released on delivery,
 * so a second delivery would find it free), in order per (source, sink)
 * where the network promises order (one router, or one VC: docs/noc.md
 * 9.6); conservation holds every cycle and the network drains with every
 * credit home. Latency is checked against a bound derived from the router
 * pipeline (docs/noc.md 7.4: F + S + 3 for one router) plus S + 2 + L per
 * extra router reached over a channel of latency L, exactly for a lone
 * packet and as a lower bound under load. Channel counters are checked
 * against flits x hops counted by the test from its own hop formula. The
 * routing tables of the builders are checked against a breadth-first
 * search. Bad descriptions must be refused with a message that names the
 * problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "noc/net.h"
#include "sim/prng.h"

typedef struct harness harness;

struct harness {
    gm_clock clk;
    int dom;
    gm_noc_cfg cfg;
    gm_net net;
    uint32_t n_src, n_sink;
    gm_link *in_links, *out_links;
    gm_link **inp, **outp;
    gm_req_pool pool;
    gm_prng rng;
    uint64_t *next_seq;       /* [n_src*n_sink] sequence of the next packet sent */
    uint64_t *expect_seq;     /* [n_src*n_sink] highest sequence delivered + 1 */
    uint64_t sent, received, reorders, multi_hop;
    uint64_t flits_expected;  /* flits of the packets sent */
    uint64_t flit_hops;       /* flits x channels crossed, of the packets sent */
    uint32_t inject_pct;      /* chance per source per cycle to offer a packet */
    uint32_t accept_pct;      /* chance per sink per cycle to pop */
    uint32_t max_payload;
    bool in_order;            /* assert per-pair order */
    bool closed_loop;         /* a source offers only when its last packet is home */
    uint32_t window;          /* if not 0: packets sent and not delivered, at most */
    uint32_t *outstanding;    /* [n_src] packets sent and not delivered */
    bool reply;
    uint32_t latency;         /* channel latency, for the latency bound */
    uint32_t (*pick)(harness *h, uint32_t src);            /* sink of a new packet */
    uint32_t (*hops)(const harness *h, uint32_t src, uint32_t sink); /* channels */
    uint32_t ring_nodes;
    gm_net_ring_dir ring_dir;
    uint64_t hash;            /* of the delivery stream */
    uint64_t last_latency;    /* network cycles accept -> push, last packet */
};

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

static uint32_t pick_uniform(harness *h, uint32_t src)
{
    (void)src;
    return (uint32_t)gm_prng_below(&h->rng, h->n_sink);
}

static uint32_t hops_zero(const harness *h, uint32_t src, uint32_t sink)
{
    (void)h;
    (void)src;
    (void)sink;
    return 0;
}

/* Ring stops: source k and sink k sit at stop k. */
static uint32_t hops_ring(const harness *h, uint32_t src, uint32_t sink)
{
    uint32_t n = h->ring_nodes;
    return h->ring_dir == GM_NET_RING_UP ? (sink + n - src) % n : (src + n - sink) % n;
}

static uint32_t hops_one(const harness *h, uint32_t src, uint32_t sink)
{
    (void)h;
    (void)src;
    (void)sink;
    return 1;
}

static harness *harness_new(const gm_net_desc *d, gm_noc_cfg cfg, uint64_t seed)
{
    harness *h = calloc(1, sizeof *h);
    assert_non_null(h);
    gm_error err;
    h->n_src = d->n_sources;
    h->n_sink = d->n_sinks;
    h->cfg = cfg;
    gm_clock_init(&h->clk);
    h->dom = gm_clock_add(&h->clk, "noc", cfg.clock_mhz, &err);
    assert_true(h->dom >= 0);
    assert_int_equal(gm_clock_finalize(&h->clk, &err), 0);
    if (gm_net_init(&h->net, d, &cfg, dest_of, 0, &err) != 0)
        fail_msg("%s", err.msg);
    h->in_links = calloc(h->n_src, sizeof *h->in_links);
    h->out_links = calloc(h->n_sink, sizeof *h->out_links);
    h->inp = calloc(h->n_src, sizeof *h->inp);
    h->outp = calloc(h->n_sink, sizeof *h->outp);
    h->next_seq = calloc((size_t)h->n_src * h->n_sink, sizeof *h->next_seq);
    h->expect_seq = calloc((size_t)h->n_src * h->n_sink, sizeof *h->expect_seq);
    h->outstanding = calloc(h->n_src, sizeof *h->outstanding);
    assert_true(h->in_links && h->out_links && h->inp && h->outp && h->next_seq &&
                h->expect_seq && h->outstanding);
    for (uint32_t i = 0; i < h->n_src; i++) {
        assert_int_equal(gm_link_init(&h->in_links[i], 2, 1, &h->clk.d[h->dom]), 0);
        h->inp[i] = &h->in_links[i];
    }
    for (uint32_t j = 0; j < h->n_sink; j++) {
        assert_int_equal(gm_link_init(&h->out_links[j], 2, 1, &h->clk.d[h->dom]), 0);
        h->outp[j] = &h->out_links[j];
    }
    gm_net_connect(&h->net, (gm_net_ports){h->inp, h->outp});
    gm_req_pool_init(&h->pool);
    gm_prng_seed(&h->rng, seed, 43);
    h->accept_pct = 100;
    h->max_payload = 128;
    h->in_order = true;
    h->pick = pick_uniform;
    h->hops = hops_zero;
    h->hash = 1469598103934665603ull;
    return h;
}

static void harness_free(harness *h)
{
    gm_net_free(&h->net);
    for (uint32_t i = 0; i < h->n_src; i++)
        gm_link_free(&h->in_links[i]);
    for (uint32_t j = 0; j < h->n_sink; j++)
        gm_link_free(&h->out_links[j]);
    free(h->in_links);
    free(h->out_links);
    free(h->inp);
    free(h->outp);
    free(h->next_seq);
    free(h->expect_seq);
    free(h->outstanding);
    gm_req_pool_free(&h->pool);
    free(h);
}

static uint32_t flits_for(const gm_noc_cfg *c, uint32_t payload)
{
    /* Independent of gm_noc_packet_flits: smallest f with f*flit >= bytes. */
    uint32_t bytes = c->header_bytes + payload, f = 1;
    while (f * c->flit_bytes < bytes)
        f++;
    return f;
}

/* Pipeline bound (docs/noc.md 7.4 and 9.5): F + S + 3 through one router,
 * S + 2 + L more for each channel. */
static uint64_t latency_bound(const harness *h, uint32_t flits, uint32_t hops)
{
    uint32_t s = h->cfg.router_stages;
    return flits + s + 3 + (uint64_t)hops * (s + 2 + h->latency);
}

static gm_req *offer(harness *h, uint32_t i, uint32_t j, uint32_t payload)
{
    gm_time now = h->clk.now;
    if (!gm_link_can_push(h->inp[i], now))
        return 0;
    gm_req *r = gm_req_alloc(&h->pool, now);
    assert_non_null(r);
    r->src = (uint16_t)i;
    r->slice = (uint16_t)j;
    r->addr = h->next_seq[(size_t)i * h->n_sink + j]++ << 7;
    r->is_reply = h->reply;
    if (h->reply)
        r->reply_bytes = payload;
    else
        r->req_bytes = payload;
    gm_link_push(h->inp[i], r, now);
    h->sent++;
    h->outstanding[i]++;
    uint32_t f = flits_for(&h->cfg, payload);
    h->flits_expected += f;
    h->flit_hops += (uint64_t)f * h->hops(h, i, j);
    return r;
}

static void consume(harness *h)
{
    gm_time now = h->clk.now;
    uint64_t period = h->clk.d[h->dom].period;
    for (uint32_t j = 0; j < h->n_sink; j++) {
        gm_req *r = gm_link_peek(h->outp[j], now);
        if (!r || gm_prng_below(&h->rng, 100) >= h->accept_pct)
            continue;
        gm_link_pop(h->outp[j], now);
        /* A request delivered twice would already be free. */
        assert_int_equal(r->loc, h->reply ? GM_LOC_NOC_REP : GM_LOC_NOC_REQ);
        assert_int_equal(r->slice, j);
        assert_int_equal(r->loc_index, r->src);
        uint64_t seq = r->addr >> 7;
        uint64_t *exp = &h->expect_seq[(size_t)r->src * h->n_sink + j];
        if (h->in_order)
            assert_int_equal(seq, *exp);
        if (seq < *exp)
            h->reorders++;
        else
            *exp = seq + 1;
        uint32_t hops = h->hops(h, r->src, j);
        h->multi_hop += hops >= 2;
        /* Accepted at r->t_loc, pushed `lat` cycles later, visible one edge
         * after that. */
        uint64_t lat = (now - r->t_loc) / period - 1;
        uint32_t payload = h->reply ? r->reply_bytes : r->req_bytes;
        assert_true(lat >= latency_bound(h, flits_for(&h->cfg, payload), hops));
        h->last_latency = lat;
        h->hash = (h->hash ^ r->id) * 1099511628211ull;
        h->hash = (h->hash ^ h->net.st.cycles) * 1099511628211ull;
        h->hash = (h->hash ^ j) * 1099511628211ull;
        gm_req_move(r, GM_LOC_L2_IN, j, now);
        h->outstanding[r->src]--;
        gm_req_release(&h->pool, r);
        h->received++;
    }
}

static void edge(harness *h, bool generate)
{
    int d = gm_clock_advance(&h->clk);
    assert_int_equal(d, h->dom);
    if (generate)
        for (uint32_t i = 0; i < h->n_src; i++)
            if (gm_prng_below(&h->rng, 100) < h->inject_pct &&
                !(h->closed_loop && h->outstanding[i]) &&
                !(h->window && h->sent - h->received >= h->window)) {
                uint32_t j = h->pick(h, i);
                uint32_t p = (uint32_t)gm_prng_below(&h->rng, h->max_payload + 1);
                offer(h, i, j, p);
            }
    gm_net_tick(&h->net, h->clk.now);
    consume(h);
    assert_int_equal(h->net.st.packets_in, h->net.st.packets_out + h->net.pkts.live);
    assert_int_equal(gm_net_inside(&h->net), h->net.pkts.live);
}

static bool links_empty(const harness *h)
{
    for (uint32_t i = 0; i < h->n_src; i++)
        if (!gm_link_empty(h->inp[i]))
            return false;
    for (uint32_t j = 0; j < h->n_sink; j++)
        if (!gm_link_empty(h->outp[j]))
            return false;
    return true;
}

static void drain(harness *h, uint64_t limit)
{
    h->accept_pct = 100;
    uint64_t k = 0;
    while (gm_net_busy(&h->net) || !links_empty(h)) {
        edge(h, false);
        if (++k >= limit)
            fail_msg("%s not drained after %llu cycles (%llu of %llu delivered)",
                     h->net.name, (unsigned long long)k,
                     (unsigned long long)h->received, (unsigned long long)h->sent);
    }
    gm_error err;
    if (gm_net_check_drained(&h->net, &err) != 0)
        fail_msg("%s", err.msg);
    const gm_net_stats *st = &h->net.st;
    assert_int_equal(h->received, h->sent);
    assert_int_equal(h->pool.live, 0);
    assert_int_equal(st->packets_in, h->sent);
    assert_int_equal(st->packets_out, h->sent);
    assert_int_equal(st->flits_in, h->flits_expected);
    assert_int_equal(st->flits_out, h->flits_expected);
    uint64_t in = 0, out = 0, chan = 0;
    for (uint32_t i = 0; i < h->n_src; i++)
        in += st->in_flits[i];
    for (uint32_t j = 0; j < h->n_sink; j++)
        out += st->out_flits[j];
    for (uint32_t c = 0; c < h->net.n_channels; c++)
        chan += st->chan_flits[c];
    assert_int_equal(in, h->flits_expected);
    assert_int_equal(out, h->flits_expected);
    assert_int_equal(chan, h->flit_hops);
}

static void run_random(harness *h, uint32_t cycles)
{
    for (uint32_t c = 0; c < cycles; c++)
        edge(h, true);
    /* Traffic did flow: a tenth of the cycles, or a quarter of the offers
     * for a small, lightly loaded network. */
    uint64_t offers = (uint64_t)cycles * h->n_src * h->inject_pct / 100;
    assert_true(h->sent > cycles / 10 || h->sent > offers / 4);
}

static void crossbar_run(uint32_t n_src, uint32_t n_sink, gm_noc_cfg cfg,
                         uint32_t inject_pct, uint32_t accept_pct, bool reply,
                         uint32_t cycles, uint64_t seed)
{
    gm_net_desc d;
    gm_error err;
    assert_int_equal(gm_net_desc_crossbar(&d, "xbar", n_src, n_sink, &err), 0);
    harness *h = harness_new(&d, cfg, seed);
    gm_net_desc_free(&d);
    h->inject_pct = inject_pct;
    h->accept_pct = accept_pct;
    h->reply = reply;
    run_random(h, cycles);
    drain(h, 100000);
    assert_int_equal(h->reorders, 0);
    harness_free(h);
}

/* ---- crossbars of the designs ---- */

static void test_baseline_crossbars(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    crossbar_run(80, 32, cfg, 10, 100, false, 3000, 1);  /* request network */
    crossbar_run(32, 80, cfg, 30, 95, true, 3000, 2);    /* reply network */
}

/* DC-L1 (SPEC 4.1): Pr80 (1x1 per core), Pr40 (2x1), Pr10 (8x1),
 * Sh40+C10 NoC#1 (8x4 request, 4x8 reply) and partitioned NoC#2 slices
 * (10x8 request, 8x10 reply), Sh40 NoC#2 (40x32), and odd settings. */
static void test_dcl1_crossbars(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    crossbar_run(1, 1, cfg, 60, 70, false, 2000, 3);
    crossbar_run(1, 1, cfg, 60, 70, true, 2000, 4);
    crossbar_run(2, 1, cfg, 40, 90, false, 2000, 5);
    crossbar_run(8, 1, cfg, 20, 100, false, 2000, 6);
    crossbar_run(8, 4, cfg, 30, 80, false, 3000, 7);
    crossbar_run(4, 8, cfg, 40, 80, true, 3000, 8);
    crossbar_run(10, 8, cfg, 30, 60, false, 3000, 9);
    crossbar_run(8, 10, cfg, 40, 90, true, 3000, 10);
    crossbar_run(40, 32, cfg, 15, 100, false, 2000, 11);
    cfg.vcs = 2;
    cfg.vc_depth = 2;
    cfg.router_stages = 3;
    cfg.islip_iters = 2;
    cfg.inject_queue = 1;
    cfg.eject_queue = 1;
    crossbar_run(10, 8, cfg, 25, 70, false, 3000, 12);
}

/* ---- ring ---- */

static harness *ring_new(uint32_t nodes, gm_net_ring_dir dir, uint32_t latency,
                         gm_noc_cfg cfg, uint64_t seed)
{
    gm_net_desc d;
    gm_error err;
    if (gm_net_desc_ring(&d, "ring", nodes, dir, latency, &err) != 0)
        fail_msg("%s", err.msg);
    harness *h = harness_new(&d, cfg, seed);
    gm_net_desc_free(&d);
    h->ring_nodes = nodes;
    h->ring_dir = dir;
    h->latency = latency;
    h->hops = hops_ring;
    return h;
}

/* Every source to every sink, up to nodes - 1 hops round the ring. The
 * ring has no dateline VCs (docs/noc.md 9.7), so the traffic is chosen to
 * be deadlock-free. A deadlock needs all V VCs of all N ring outputs held
 * by blocked packets (the only cycle goes round the whole ring), V*N
 * holdings, and a blocked packet of at most 2 flits holds at most 2. So
 * with packets of at most 2 flits: V >= 3 and one packet in flight per
 * source (at most N packets, 2N < VN), or V = 1 and fewer than N/2
 * packets in flight in all. Sinks always accept. Order per pair is
 * asserted with one VC; with several it is not promised (9.6). */
static void test_ring_all_pairs_light_load(void **state)
{
    (void)state;
    static const struct {
        uint32_t nodes, latency, vcs;
        gm_net_ring_dir dir;
        uint32_t stages;
    } runs[] = {
        {8, 1, 4, GM_NET_RING_UP, 1},
        {8, 0, 3, GM_NET_RING_DOWN, 1},
        {5, 3, 4, GM_NET_RING_UP, 2},
        {15, 1, 4, GM_NET_RING_DOWN, 2},
        {2, 1, 3, GM_NET_RING_UP, 1},
        {1, 0, 4, GM_NET_RING_UP, 1},
        {8, 1, 1, GM_NET_RING_UP, 1},
        {7, 2, 1, GM_NET_RING_DOWN, 2},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        gm_noc_cfg cfg = default_cfg();
        cfg.vcs = runs[k].vcs;
        cfg.router_stages = runs[k].stages;
        harness *h = ring_new(runs[k].nodes, runs[k].dir, runs[k].latency, cfg, 20 + k);
        h->inject_pct = 20;
        h->max_payload = 2 * cfg.flit_bytes - cfg.header_bytes;
        assert_int_equal(flits_for(&cfg, h->max_payload), 2);
        h->in_order = cfg.vcs == 1;
        if (cfg.vcs >= 3)
            h->closed_loop = true;
        else
            h->window = (runs[k].nodes - 1) / 2;
        run_random(h, 6000);
        drain(h, 100000);
        if (runs[k].nodes > 2)
            assert_true(h->multi_hop > h->sent / 4);
        /* Every pair was exercised. */
        for (uint32_t p = 0; p < h->n_src * h->n_sink; p++)
            assert_true(h->next_seq[p] > 0);
        harness_free(h);
    }
}

/* Traffic that never crosses the ring channel from the last stop to stop
 * 0 (GM_NET_RING_UP, sink >= source) uses the ring as a line, which
 * cannot deadlock at any load: heavy multi-hop traffic with slow sinks.
 * With one VC every buffer is a FIFO and order per pair holds. */
static uint32_t pick_no_wrap(harness *h, uint32_t src)
{
    return src + (uint32_t)gm_prng_below(&h->rng, h->ring_nodes - src);
}

static void test_ring_line_traffic_heavy(void **state)
{
    (void)state;
    for (uint32_t vcs = 1; vcs <= 4; vcs += 3) {
        gm_noc_cfg cfg = default_cfg();
        cfg.vcs = vcs;
        harness *h = ring_new(8, GM_NET_RING_UP, 2, cfg, 28 + vcs);
        h->pick = pick_no_wrap;
        h->inject_pct = 50;
        h->accept_pct = 60;
        h->in_order = vcs == 1;
        run_random(h, 6000);
        assert_true(gm_net_inside(&h->net) > 20);   /* loaded */
        drain(h, 100000);
        assert_true(h->multi_hop > h->sent / 8);
        assert_int_equal(h->net.st.chan_flits[7], 0);   /* 7 -> 0 unused */
        harness_free(h);
    }
}

/* The limitation of 9.7, shown: open-loop uniform traffic over several
 * hops, one VC, a few percent load, and the ring locks up for good. If
 * this ever stops happening the router has gained deadlock avoidance and
 * the docs must say so. */
static void test_ring_multi_hop_can_deadlock(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    cfg.vcs = 1;
    harness *h = ring_new(8, GM_NET_RING_UP, 1, cfg, 20);
    h->inject_pct = 3;
    h->in_order = true;
    run_random(h, 1000);
    uint64_t got = h->received;
    for (int c = 0; c < 3000; c++)
        edge(h, true);
    assert_int_equal(h->received, got);          /* nothing delivered... */
    assert_true(gm_net_inside(&h->net) >= 8);    /* ...with packets inside */
    assert_true(gm_net_busy(&h->net));
    gm_error err;
    assert_int_not_equal(gm_net_check_drained(&h->net, &err), 0);
    harness_free(h);
}

/* The way CCN uses a ring: each stop sends only to the next one, so no
 * packet is routed past a stop and the ring cannot deadlock, even under
 * heavy load with slow sinks. */
static uint32_t pick_next_up(harness *h, uint32_t src)
{
    return (src + 1) % h->ring_nodes;
}

static void test_ring_one_hop_heavy(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    harness *h = ring_new(15, GM_NET_RING_UP, 2, cfg, 30);
    h->pick = pick_next_up;
    h->inject_pct = 90;
    h->accept_pct = 60;
    h->in_order = false;
    run_random(h, 8000);
    drain(h, 100000);
    /* The ring channels were the bottleneck: busy most of the time. */
    for (uint32_t c = 0; c < h->net.n_channels; c++)
        assert_true(h->net.st.chan_flits[c] > 8000 / 2);
    harness_free(h);
    /* With one VC order per pair holds as well. */
    cfg.vcs = 1;
    h = ring_new(6, GM_NET_RING_UP, 1, cfg, 31);
    h->pick = pick_next_up;
    h->inject_pct = 90;
    h->accept_pct = 60;
    run_random(h, 5000);
    drain(h, 100000);
    harness_free(h);
}

/* ---- two-level crossbar ---- */

static harness *hier_new(uint32_t n_first, uint32_t spf, uint32_t n_second,
                         uint32_t sps, uint32_t latency, gm_noc_cfg cfg,
                         uint64_t seed)
{
    gm_net_desc d;
    gm_error err;
    if (gm_net_desc_hier_xbar(&d, "hx", n_first, spf, n_second, sps, latency, &err) != 0)
        fail_msg("%s", err.msg);
    harness *h = harness_new(&d, cfg, seed);
    gm_net_desc_free(&d);
    h->latency = latency;
    h->hops = hops_one;
    return h;
}

/* SelRep's H-Xbar shape (SPEC 4.4): 16 SM-routers of 4 sources, 4
 * MC-routers of 16 sinks; the reply direction is the same builder with
 * the roles swapped. Heavy random traffic with slow sinks; the levels form
 * no cycle, so the network must always drain. */
static void test_hier_xbar_heavy(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    harness *h = hier_new(16, 4, 4, 16, 1, cfg, 40);
    h->inject_pct = 60;
    h->accept_pct = 50;
    h->in_order = false;
    run_random(h, 5000);
    assert_true(gm_net_inside(&h->net) > 100); /* it was loaded */
    drain(h, 100000);
    assert_int_equal(h->net.n_routers, 20);
    assert_int_equal(h->net.n_channels, 64);
    for (uint32_t c = 0; c < 64; c++)
        assert_true(h->net.st.chan_flits[c] > 0);
    harness_free(h);

    h = hier_new(4, 16, 16, 4, 2, cfg, 41);   /* replies: MC-routers first */
    h->inject_pct = 40;
    h->accept_pct = 70;
    h->in_order = false;
    h->reply = true;
    run_random(h, 4000);
    drain(h, 100000);
    harness_free(h);

    cfg.vcs = 1;                              /* one VC: order per pair holds */
    cfg.router_stages = 2;
    h = hier_new(16, 4, 4, 16, 0, cfg, 42);
    h->inject_pct = 50;
    h->accept_pct = 60;
    run_random(h, 4000);
    drain(h, 100000);
    harness_free(h);
}

/* The limitation of 9.6, shown: with several VCs a later packet of a pair
 * can overtake an earlier one at the second router. If this ever stops
 * happening, the network has gained an ordering guarantee and the docs
 * must say so. */
static void test_hier_xbar_may_reorder_with_vcs(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    harness *h = hier_new(16, 4, 4, 16, 1, cfg, 43);
    h->inject_pct = 70;
    h->accept_pct = 30;
    h->in_order = false;
    run_random(h, 5000);
    drain(h, 100000);
    assert_true(h->reorders > 0);
    harness_free(h);
}

/* ---- latency of channels ---- */

static void lone_packet(harness *h, uint32_t src, uint32_t sink, uint32_t payload,
                        uint32_t hops)
{
    edge(h, false);
    assert_non_null(offer(h, src, sink, payload));
    while (h->received == 0)
        edge(h, false);
    uint64_t bound = latency_bound(h, flits_for(&h->cfg, payload), hops);
    assert_int_equal(h->last_latency, bound);
    assert_int_equal(h->net.st.lat_max, bound);
    drain(h, 1000);
}

/* A lone packet over k channels of latency L takes exactly the pipeline
 * bound when credits do not run out (F <= vc_depth). */
static void test_channel_latency(void **state)
{
    (void)state;
    static const uint32_t payload[] = {0, 100};   /* 1 and 4 flits */
    for (uint32_t stages = 1; stages <= 2; stages++)
        for (uint32_t lat = 0; lat <= 3; lat++)
            for (uint32_t hops = 0; hops <= 4; hops++)
                for (size_t p = 0; p < 2; p++) {
                    gm_noc_cfg cfg = default_cfg();
                    cfg.router_stages = stages;
                    harness *h = ring_new(6, GM_NET_RING_DOWN, lat, cfg, 50);
                    uint32_t src = 4, sink = (src + 6 - hops) % 6;
                    assert_int_equal(hops_ring(h, src, sink), hops);
                    lone_packet(h, src, sink, payload[p], hops);
                    harness_free(h);
                }
    gm_noc_cfg cfg = default_cfg();
    harness *h = hier_new(3, 2, 2, 3, 5, cfg, 51);
    lone_packet(h, 5, 1, 100, 1);
    harness_free(h);
}

/* Credit flow control across a channel (docs/noc.md 9.3): a credit comes
 * back S + 2L + 3 cycles after the flit that used it won the switch, so one
 * VC of depth D carries at most D flits per S + 2L + 3 cycles, and a flit
 * per cycle when D covers the loop. One stream of 200-flit packets (the
 * per-packet VA bubble then costs about 1 %) over router -> channel ->
 * router, V = 1. */
static void test_channel_bandwidth(void **state)
{
    (void)state;
    static const struct { uint32_t latency, depth, stages; } runs[] = {
        {0, 4, 1}, {1, 4, 1}, {1, 5, 1}, {1, 6, 1}, {2, 4, 1},
        {3, 4, 2}, {3, 10, 2}, {3, 11, 2}, {5, 8, 3}, {0, 2, 1},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        gm_noc_cfg cfg = default_cfg();
        cfg.vcs = 1;
        cfg.vc_depth = runs[k].depth;
        cfg.router_stages = runs[k].stages;
        harness *h = hier_new(1, 1, 1, 1, runs[k].latency, cfg, 52);
        h->in_order = true;
        uint32_t payload = 200 * cfg.flit_bytes - cfg.header_bytes;
        uint64_t from = 0;
        const uint64_t window = 8000;
        for (uint32_t c = 0; c < 2000 + window; c++) {
            if (c == 2000)
                from = h->net.st.chan_flits[0];
            edge(h, false);
            offer(h, 0, 0, payload);   /* whenever the link has room */
        }
        uint64_t flits = h->net.st.chan_flits[0] - from;
        uint64_t loop = cfg.router_stages + 2 * runs[k].latency + 3;
        uint64_t per_loop = cfg.vc_depth < loop ? cfg.vc_depth : loop;
        /* flits / window <= per_loop / loop, and within 2 % of it. */
        assert_true(flits * loop <= per_loop * window);
        assert_true(flits * loop * 100 >= per_loop * window * 98);
        drain(h, 100000);
        harness_free(h);
    }
}

/* ---- builders and descriptions ---- */

static void test_builders_shape(void **state)
{
    (void)state;
    gm_net_desc d;
    gm_error err;
    gm_net n;
    gm_noc_cfg cfg = default_cfg();
    uint32_t ni, no;

    assert_int_equal(gm_net_desc_crossbar(&d, "noc1-request-3", 8, 4, &err), 0);
    assert_int_equal(gm_net_init(&n, &d, &cfg, dest_of, 0, &err), 0);
    assert_int_equal(gm_net_router_count(&n), 1);
    assert_string_equal(gm_net_router_name(&n, 0), "noc1-request-3");
    assert_string_equal(n.name, "noc1-request-3");
    gm_net_router_ports(&n, 0, &ni, &no);
    assert_int_equal(ni, 8);
    assert_int_equal(no, 4);
    assert_int_equal(gm_net_router_cfg(&n, 0)->vcs, 4);
    gm_net_free(&n);
    gm_net_desc_free(&d);

    assert_int_equal(gm_net_desc_ring(&d, "ccn-req", 15, GM_NET_RING_UP, 1, &err), 0);
    assert_int_equal(gm_net_init(&n, &d, &cfg, dest_of, 0, &err), 0);
    assert_int_equal(gm_net_router_count(&n), 15);
    assert_string_equal(gm_net_router_name(&n, 14), "ccn-req-14");
    gm_net_router_ports(&n, 3, &ni, &no);
    assert_int_equal(ni, 2);
    assert_int_equal(no, 2);
    assert_int_equal(d.channels[14].to.router, 0);   /* wraps round */
    gm_net_free(&n);
    gm_net_desc_free(&d);
    assert_int_equal(gm_net_desc_ring(&d, "ccn-rep", 15, GM_NET_RING_DOWN, 1, &err), 0);
    assert_int_equal(d.channels[0].to.router, 14);
    gm_net_desc_free(&d);

    assert_int_equal(gm_net_desc_hier_xbar(&d, "hx", 16, 4, 4, 16, 1, &err), 0);
    assert_int_equal(gm_net_init(&n, &d, &cfg, dest_of, 0, &err), 0);
    assert_int_equal(gm_net_router_count(&n), 20);
    assert_string_equal(gm_net_router_name(&n, 0), "hx-l1-0");
    assert_string_equal(gm_net_router_name(&n, 19), "hx-l2-3");
    gm_net_router_ports(&n, 0, &ni, &no);
    assert_int_equal(ni, 4);
    assert_int_equal(no, 4);
    gm_net_router_ports(&n, 16, &ni, &no);
    assert_int_equal(ni, 16);
    assert_int_equal(no, 16);
    gm_net_free(&n);
    gm_net_desc_free(&d);

    /* Sizes out of range and names that do not fit are refused. */
    assert_int_not_equal(gm_net_desc_ring(&d, "r", 0, GM_NET_RING_UP, 1, &err), 0);
    assert_int_not_equal(gm_net_desc_hier_xbar(&d, "h", 4, 0, 2, 2, 1, &err), 0);
    char long_name[GM_NET_NAME + 1];
    memset(long_name, 'x', GM_NET_NAME);
    long_name[GM_NET_NAME] = 0;        /* one byte too long */
    assert_int_not_equal(gm_net_desc_crossbar(&d, long_name, 2, 2, &err), 0);
    long_name[GM_NET_NAME - 3] = 0;    /* fits, but "-12" does not */
    assert_int_not_equal(gm_net_desc_ring(&d, long_name, 13, GM_NET_RING_UP, 1, &err), 0);
    assert_non_null(strstr(err.msg, "exceed"));
}

/* Minimal-hop routing computed by a breadth-first search gives the same
 * tables the builders write by formula. */
static void same_routes(gm_net_desc *d)
{
    size_t cells = (size_t)d->n_routers * d->n_sinks;
    uint16_t *built = malloc(cells * sizeof *built);
    assert_non_null(built);
    memcpy(built, d->route, cells * sizeof *built);
    gm_error err;
    assert_int_equal(gm_net_desc_route_min_hops(d, &err), 0);
    assert_memory_equal(built, d->route, cells * sizeof *built);
    assert_int_equal(gm_net_desc_check(d, &err), 0);
    free(built);
    gm_net_desc_free(d);
}

static void test_min_hop_routes_match_builders(void **state)
{
    (void)state;
    gm_net_desc d;
    gm_error err;
    assert_int_equal(gm_net_desc_crossbar(&d, "x", 5, 3, &err), 0);
    same_routes(&d);
    for (uint32_t nodes = 1; nodes <= 9; nodes++) {
        assert_int_equal(gm_net_desc_ring(&d, "r", nodes, GM_NET_RING_UP, 1, &err), 0);
        same_routes(&d);
        assert_int_equal(gm_net_desc_ring(&d, "r", nodes, GM_NET_RING_DOWN, 0, &err), 0);
        same_routes(&d);
    }
    assert_int_equal(gm_net_desc_hier_xbar(&d, "h", 16, 4, 4, 16, 1, &err), 0);
    /* Second-level routers reach only their own sinks: BFS leaves the rest
     * without a route, as the builder does. */
    same_routes(&d);
    assert_int_equal(gm_net_desc_hier_xbar(&d, "h", 3, 1, 5, 2, 0, &err), 0);
    same_routes(&d);
}

/* A 2-router line: A (2x1) -> channel -> B (1x2), sources on A, sinks on
 * B. Each case breaks one thing. */
static void line_desc(gm_net_desc *d)
{
    gm_error err;
    assert_int_equal(gm_net_desc_alloc(d, "line", 2, 1, 2, 2, &err), 0);
    d->routers[0] = (gm_net_router_desc){"A", 2, 1, GM_NET_BLOCK_ROUTER};
    d->routers[1] = (gm_net_router_desc){"B", 1, 2, GM_NET_BLOCK_ROUTER};
    d->channels[0] = (gm_net_channel_desc){{0, 0}, {1, 0}, 1};
    d->sources[0] = (gm_net_port){0, 0};
    d->sources[1] = (gm_net_port){0, 1};
    d->sinks[0] = (gm_net_port){1, 0};
    d->sinks[1] = (gm_net_port){1, 1};
    d->route[0 * 2 + 0] = 0;
    d->route[0 * 2 + 1] = 0;
    d->route[1 * 2 + 0] = 0;
    d->route[1 * 2 + 1] = 1;
}

static void expect_refused(gm_net_desc *d, const char *a, const char *b)
{
    gm_error err = {{0}};
    gm_net n;
    gm_noc_cfg cfg = default_cfg();
    assert_int_not_equal(gm_net_desc_check(d, &err), 0);
    if (!strstr(err.msg, a) || (b && !strstr(err.msg, b)))
        fail_msg("message \"%s\" lacks \"%s\" / \"%s\"", err.msg, a, b ? b : "");
    err.msg[0] = 0;
    assert_int_not_equal(gm_net_init(&n, d, &cfg, dest_of, 0, &err), 0);
    assert_non_null(strstr(err.msg, a));
    gm_net_desc_free(d);
}

static void test_bad_descriptions_refused(void **state)
{
    (void)state;
    gm_net_desc d;
    gm_error err;
    gm_net n;
    gm_noc_cfg cfg = default_cfg();

    line_desc(&d);                      /* the good one works */
    assert_int_equal(gm_net_desc_check(&d, &err), 0);
    assert_int_equal(gm_net_init(&n, &d, &cfg, dest_of, 0, &err), 0);
    gm_net_free(&n);
    gm_net_desc_free(&d);

    line_desc(&d);                      /* unconnected input */
    d.routers[0].n_in = 3;
    expect_refused(&d, "router A input 2 is not connected", 0);

    line_desc(&d);                      /* unconnected output */
    d.routers[1].n_out = 3;
    expect_refused(&d, "router B output 2 is not connected", 0);

    line_desc(&d);                      /* channel to a nonexistent port */
    d.channels[0].to.port = 4;
    expect_refused(&d, "channel 0", "input 4 of router B, which has 1 input");

    line_desc(&d);                      /* channel from a nonexistent router */
    d.channels[0].from.router = 7;
    expect_refused(&d, "channel 0 is on router 7", 0);

    line_desc(&d);                      /* two things on one port */
    d.sinks[1].port = 0;
    expect_refused(&d, "router B output 0 is taken by sink 0 and by sink 1", 0);

    line_desc(&d);                      /* route table: port with no path */
    d.route[1 * 2 + 1] = 0;
    expect_refused(&d, "sends sink 1 at router B to output 0, which is sink 0", 0);

    line_desc(&d);                      /* route table: port out of range */
    d.route[0 * 2 + 1] = 3;
    expect_refused(&d, "router A to output 3, the router has 1 outputs", 0);

    line_desc(&d);                      /* route table: dead end downstream */
    d.route[1 * 2 + 1] = GM_NET_NO_ROUTE;
    expect_refused(&d, "leads to router B, which has no route", 0);

    line_desc(&d);                      /* sink unreachable from a source */
    d.route[0 * 2 + 1] = GM_NET_NO_ROUTE;
    d.route[1 * 2 + 1] = GM_NET_NO_ROUTE;
    expect_refused(&d, "sink 1 is unreachable from source 0", 0);

    line_desc(&d);                      /* latency too long */
    d.channels[0].latency = GM_NET_MAX_LATENCY + 1;
    expect_refused(&d, "latency", 0);

    line_desc(&d);                      /* duplicate names */
    snprintf(d.routers[1].name, GM_NET_NAME, "A");
    expect_refused(&d, "two routers are named A", 0);

    line_desc(&d);                      /* nothing to simulate */
    d.n_sinks = 0;
    expect_refused(&d, "at least one router, source and sink", 0);

    /* A routing loop: a ring whose stops never eject sink 0. */
    assert_int_equal(gm_net_desc_ring(&d, "loop", 3, GM_NET_RING_UP, 1, &err), 0);
    d.route[0 * 3 + 0] = 1;
    expect_refused(&d, "routing loop", 0);

    /* The router block's own limits come back through init, with the
     * router's name: 300 inputs x 4 VCs exceed the VC allocator. */
    assert_int_equal(gm_net_desc_crossbar(&d, "big", 300, 2, &err), 0);
    assert_int_not_equal(gm_net_init(&n, &d, &cfg, dest_of, 0, &err), 0);
    assert_non_null(strstr(err.msg, "router big"));
    cfg.flit_bytes = 0;
    assert_int_not_equal(gm_net_init(&n, &d, &cfg, dest_of, 0, &err), 0);
    assert_non_null(strstr(err.msg, "flit_bytes"));
    gm_net_desc_free(&d);
}

/* ---- watchdog support, faults, idle ---- */

typedef struct count_arg {
    uint32_t n;
} count_arg;

static void count_req(const gm_req *r, void *arg)
{
    (void)r;
    ((count_arg *)arg)->n++;
}

/* Sink 0 stops: packets back up from its link through the ejection NI,
 * the last router and the channels. The locator names where each is; the
 * drain check fails until the sink resumes. */
static void test_stuck_packets_are_located(void **state)
{
    (void)state;
    gm_noc_cfg cfg = default_cfg();
    cfg.eject_queue = 1;
    harness *h = ring_new(4, GM_NET_RING_UP, 3, cfg, 60);
    h->accept_pct = 0;
    h->in_order = false;   /* two hops, four VCs (docs/noc.md 9.6) */
    enum { N = 64 };
    gm_req *reqs[N];
    uint32_t k = 0, offered;
    for (int c = 0; c < 300; c++) {
        edge(h, false);
        gm_req *r = k < N ? offer(h, 2, 0, 100) : 0;   /* 2 hops */
        if (r)
            reqs[k++] = r;
    }
    offered = k;
    assert_true(offered < N);   /* the network filled up and pushed back */
    assert_true(gm_net_busy(&h->net));
    gm_error err;
    assert_int_not_equal(gm_net_check_drained(&h->net, &err), 0);
    assert_non_null(strstr(err.msg, "packets inside"));
    count_arg ca = {0};
    gm_net_foreach_req(&h->net, count_req, &ca);
    assert_int_equal(ca.n, gm_net_inside(&h->net));
    char buf[1024];
    bool seen_router = false, seen_done = false, seen_inject = false;
    uint32_t inside = 0;
    for (k = 0; k < offered; k++) {
        if (!gm_net_find_req(&h->net, reqs[k], buf, sizeof buf))
            continue;   /* in a link */
        inside++;
        assert_non_null(strstr(buf, "ring: packet"));
        seen_router |= strstr(buf, "router ring-") != 0;
        seen_done |= strstr(buf, "done queue") != 0;
        seen_inject |= strstr(buf, "inject NI 2") != 0;
    }
    assert_int_equal(inside, ca.n);
    assert_true(seen_router && seen_done && seen_inject);
    drain(h, 10000);
    harness_free(h);
}

/* A flit caught inside a channel is found there. */
static void test_flit_in_channel_is_located(void **state)
{
    (void)state;
    harness *h = ring_new(3, GM_NET_RING_UP, 8, default_cfg(), 61);
    edge(h, false);
    gm_req *r = offer(h, 0, 1, 0);
    assert_non_null(r);
    char buf[512];
    bool seen = false;
    for (int c = 0; c < 30 && !seen; c++) {
        edge(h, false);
        seen = gm_net_find_req(&h->net, r, buf, sizeof buf) &&
               strstr(buf, "channel 0 ring-0.out1->ring-1.in1 vc") != 0;
    }
    assert_true(seen);
    assert_true(gm_net_busy(&h->net));
    assert_int_not_equal(gm_net_check_drained(&h->net, &(gm_error){{0}}), 0);
    drain(h, 1000);
    harness_free(h);
}

static uint32_t bad_dest(const gm_req *r, void *ctx)
{
    (void)r;
    (void)ctx;
    return 9;
}

static void test_bad_sink_is_reported(void **state)
{
    (void)state;
    harness *h = ring_new(3, GM_NET_RING_UP, 1, default_cfg(), 62);
    h->net.dest = bad_dest;
    edge(h, false);
    assert_non_null(offer(h, 1, 0, 0));
    for (int k = 0; k < 5; k++)
        edge(h, false);
    assert_false(gm_link_empty(h->inp[1]));   /* left where the watchdog sees it */
    gm_error err;
    assert_int_not_equal(gm_net_check_drained(&h->net, &err), 0);
    assert_non_null(strstr(err.msg, "sink 9 of 3"));
    gm_req *r = gm_link_pop(h->inp[1], h->clk.now);
    gm_req_release(&h->pool, r);
    harness_free(h);
}

static void test_idle_network(void **state)
{
    (void)state;
    harness *h = hier_new(2, 2, 2, 2, 3, default_cfg(), 63);
    for (int k = 0; k < 10; k++)
        edge(h, false);
    assert_false(gm_net_busy(&h->net));
    for (uint32_t r = 0; r < h->net.n_routers; r++)
        assert_int_equal(h->net.routers[r].r.ticks_active, 0);
    gm_net_skip_idle(&h->net, 90);
    assert_int_equal(h->net.st.cycles, 100);
    /* A credit on its way back keeps the network busy after the packet
     * has left: a long channel returns it late. */
    edge(h, false);
    assert_non_null(offer(h, 0, 3, 0));
    while (h->received == 0)
        edge(h, false);
    bool credit_after = false;
    for (int k = 0; k < 20; k++) {
        credit_after |= gm_net_inside(&h->net) == 0 && gm_net_busy(&h->net);
        edge(h, false);
    }
    assert_true(credit_after);
    drain(h, 100);
    harness_free(h);
}

/* ---- co-simulation twin on one router of a multi-router net ---- */

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

/* Router `which` of a 4+2 two-level net realized by a twin; returns the
 * delivery hash (clean) or checks the divergence is reported. */
static uint64_t hier_run(twin_ctx *t, uint32_t which, bool expect_clean)
{
    harness *h = hier_new(4, 3, 2, 5, 1, default_cfg(), 70);
    gm_error err;
    gm_router_twin tw = {.ctx = t, .eval = twin_eval, .tick = twin_tick,
                         .compare = twin_compare};
    if (t) {
        assert_int_equal(gm_router_init(&t->r, gm_net_router_cfg(&h->net, which), &err), 0);
        assert_int_equal(gm_net_attach_twin(&h->net, which, &tw, &err), 0);
    }
    h->inject_pct = 40;
    h->accept_pct = 70;
    h->in_order = false;
    run_random(h, 3000);
    uint64_t hash = 0;
    if (expect_clean) {
        drain(h, 100000);
        hash = h->hash;
    } else {
        for (uint32_t c = 0; c < 2000; c++)
            edge(h, false);
        assert_int_equal(gm_net_check_drained(&h->net, &err), -1);
        assert_non_null(strstr(err.msg, "diverged"));
        assert_non_null(strstr(err.msg, gm_net_router_name(&h->net, which)));
    }
    if (t)
        gm_router_free(&t->r);
    harness_free(h);
    return hash;
}

static void test_twin_on_any_router(void **state)
{
    (void)state;
    uint64_t ref = hier_run(0, 0, true);
    for (uint32_t which = 0; which < 6; which += 5) {   /* a first- and a second-level router */
        twin_ctx good = {.drop_credit_at = UINT64_MAX};
        assert_int_equal(hier_run(&good, which, true), ref);
        assert_true(good.compares > 3000);
        assert_int_equal(good.mismatches, 0);
        twin_ctx bad = {.drop_credit_at = 500};
        hier_run(&bad, which, false);
        assert_true(bad.mismatches >= 1);
    }
    gm_net_desc d;
    gm_error err;
    gm_net n;
    gm_noc_cfg cfg = default_cfg();
    assert_int_equal(gm_net_desc_crossbar(&d, "x", 2, 2, &err), 0);
    assert_int_equal(gm_net_init(&n, &d, &cfg, dest_of, 0, &err), 0);
    gm_router_twin tw = {0};
    assert_int_not_equal(gm_net_attach_twin(&n, 1, &tw, &err), 0);
    assert_non_null(strstr(err.msg, "no router 1"));
    gm_net_free(&n);
    gm_net_desc_free(&d);
}

/* Same seed, same run; another seed, another run. */
static void test_determinism(void **state)
{
    (void)state;
    uint64_t a = hier_run(0, 0, true), b = hier_run(0, 0, true);
    assert_int_equal(a, b);
    harness *h = hier_new(4, 3, 2, 5, 1, default_cfg(), 71);
    h->inject_pct = 40;
    h->accept_pct = 70;
    h->in_order = false;
    run_random(h, 3000);
    drain(h, 100000);
    assert_true(h->hash != a);
    harness_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_baseline_crossbars),
        cmocka_unit_test(test_dcl1_crossbars),
        cmocka_unit_test(test_ring_all_pairs_light_load),
        cmocka_unit_test(test_ring_line_traffic_heavy),
        cmocka_unit_test(test_ring_multi_hop_can_deadlock),
        cmocka_unit_test(test_ring_one_hop_heavy),
        cmocka_unit_test(test_hier_xbar_heavy),
        cmocka_unit_test(test_hier_xbar_may_reorder_with_vcs),
        cmocka_unit_test(test_channel_latency),
        cmocka_unit_test(test_channel_bandwidth),
        cmocka_unit_test(test_builders_shape),
        cmocka_unit_test(test_min_hop_routes_match_builders),
        cmocka_unit_test(test_bad_descriptions_refused),
        cmocka_unit_test(test_stuck_packets_are_located),
        cmocka_unit_test(test_flit_in_channel_is_located),
        cmocka_unit_test(test_bad_sink_is_reported),
        cmocka_unit_test(test_idle_network),
        cmocka_unit_test(test_twin_on_any_router),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
