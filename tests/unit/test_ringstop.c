/* Tests of the ring stop (noc/ringstop.h) as a block, driven port by port,
 * and of gm_net rings built of ring stops, driven through gm_link.
 *
 * Rationale. The block tests set the ports by hand and check the rules of
 * ringstop.h one at a time: ring traffic before local injection, the
 * bubble rule (injection needs two credits), a packet for the stop waits
 * in the ring buffer without loss while its node cannot take it, one
 * credit per freed slot, and an F-flit packet holding the output F cycles.
 * The net tests check the hop latency against a count made by hand (see
 * lone_latency), and conservation on a ring driven full: every packet
 * arrives once, in order per (source, sink), the flit counters equal
 * flits x hops counted by the test, and the ring drains with every credit
 * home. A ring whose sinks never drain must say where its packets are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "noc/net.h"
#include "noc/ringstop.h"
#include "sim/prng.h"

/* ---- the block ---- */

static gm_ringstop_out step(gm_ringstop *s, const gm_ringstop_in *in)
{
    gm_ringstop_out o;
    gm_ringstop_eval(s, &o);
    gm_ringstop_tick(s, in);
    return o;
}

static gm_ringstop_out look(const gm_ringstop *s)
{
    gm_ringstop_out o;
    gm_ringstop_eval(s, &o);
    return o;
}

static gm_ringstop_in ring_in(uint32_t payload, uint8_t dest, uint8_t flits)
{
    return (gm_ringstop_in){.ring_in_valid = 1, .ring_in_payload = payload,
                            .ring_in_dest = dest, .ring_in_flits = flits};
}

static void add_inject(gm_ringstop_in *in, uint32_t payload)
{
    in->inj_valid = 1;
    in->inj_payload = payload;
    in->inj_dest = GM_RINGSTOP_PASS;
    in->inj_flits = 1;
}

/* A passing ring packet and a local one in the same cycle: the ring one
 * takes the output, the local one is refused until the ring is quiet. */
static void test_ring_before_injection(void **state)
{
    (void)state;
    gm_ringstop s;
    gm_error err;
    assert_int_equal(gm_ringstop_init(&s, 4, &err), 0);
    gm_ringstop_in in = ring_in(7, GM_RINGSTOP_PASS, 1);
    add_inject(&in, 9);
    step(&s, &in);
    assert_false(s.inj_taken);
    gm_ringstop_out o = look(&s);
    assert_int_equal(o.ring_out_valid, 1);
    assert_int_equal(o.ring_out_payload, 7);
    assert_int_equal(o.ring_in_credit, 1);   /* the bypassed packet's slot */
    /* Next cycle only the local packet: it goes. */
    in = (gm_ringstop_in){0};
    add_inject(&in, 9);
    step(&s, &in);
    assert_true(s.inj_taken);
    o = look(&s);
    assert_int_equal(o.ring_out_payload, 9);
    assert_int_equal(o.ring_in_credit, 0);   /* injection frees no ring slot */
    assert_int_equal(s.credits, 2);
    gm_ringstop_free(&s);
}

/* A passing packet waiting in the ring buffer (no credit) goes before a
 * local packet when the credit comes; with one credit left the local
 * packet may not take it (bubble), a ring packet may. */
static void test_waiting_ring_packet_and_bubble(void **state)
{
    (void)state;
    gm_ringstop s;
    gm_error err;
    assert_int_equal(gm_ringstop_init(&s, 2, &err), 0);
    s.credits = 0;                           /* downstream full */
    gm_ringstop_in in = ring_in(1, GM_RINGSTOP_PASS, 1);
    step(&s, &in);                           /* no credit: into the buffer */
    assert_int_equal(s.count, 1);
    assert_int_equal(look(&s).ring_in_credit, 0);
    in = (gm_ringstop_in){.ring_out_credit = 1};
    add_inject(&in, 2);
    step(&s, &in);
    assert_false(s.inj_taken);
    assert_int_equal(s.count, 0);
    assert_int_equal(look(&s).ring_out_payload, 1);
    assert_int_equal(look(&s).ring_in_credit, 1);
    assert_int_equal(s.credits, 0);
    /* One credit back: the local packet still may not go. */
    in = (gm_ringstop_in){.ring_out_credit = 1};
    add_inject(&in, 2);
    step(&s, &in);
    assert_false(s.inj_taken);
    assert_int_equal(look(&s).ring_out_valid, 0);
    assert_int_equal(s.credits, 1);
    /* ... a passing ring packet may. */
    in = ring_in(3, GM_RINGSTOP_PASS, 1);
    add_inject(&in, 2);
    step(&s, &in);
    assert_false(s.inj_taken);
    assert_int_equal(look(&s).ring_out_payload, 3);
    /* Two credits: the local packet goes. */
    in = (gm_ringstop_in){.ring_out_credit = 1};
    add_inject(&in, 2);
    step(&s, &in);
    assert_false(s.inj_taken);               /* one credit: 0 + 1 */
    in = (gm_ringstop_in){.ring_out_credit = 1};
    add_inject(&in, 2);
    step(&s, &in);
    assert_true(s.inj_taken);
    gm_ringstop_free(&s);
}

/* Packets for this stop while the node cannot take them: they wait in
 * order, no credit goes back, none is lost; then one leaves per cycle
 * with one credit each. */
static void test_ejection_backpressure(void **state)
{
    (void)state;
    const uint32_t depth = 5;
    gm_ringstop s;
    gm_error err;
    assert_int_equal(gm_ringstop_init(&s, depth, &err), 0);
    for (uint32_t k = 0; k < depth; k++) {
        gm_ringstop_in in = ring_in(100 + k, GM_RINGSTOP_EJECT, 1);
        gm_ringstop_out o = step(&s, &in);
        assert_int_equal(o.ring_in_credit, 0);
        assert_int_equal(o.ej_valid, k > 0);
        if (k)
            assert_int_equal(o.ej_payload, 100);
    }
    assert_int_equal(s.count, depth);
    /* An upstream that sends without a credit is caught, not absorbed. */
    gm_ringstop_in extra = ring_in(999, GM_RINGSTOP_EJECT, 1);
    step(&s, &extra);
    assert_int_equal(s.protocol_errors, 1);
    assert_int_equal(s.count, depth);
    for (uint32_t k = 0; k < depth; k++) {
        gm_ringstop_in in = {.ej_ready = 1};
        gm_ringstop_out o = step(&s, &in);
        assert_int_equal(o.ej_valid, 1);
        assert_int_equal(o.ej_payload, 100 + k);
        assert_int_equal(look(&s).ring_in_credit, 1);
    }
    gm_ringstop_in none = {0};
    step(&s, &none);
    assert_true(gm_ringstop_idle(&s));
    gm_ringstop_free(&s);
}

/* An F-flit packet leaves F cycles after it is loaded, and the output
 * takes nothing else meanwhile. */
static void test_multi_flit_output(void **state)
{
    (void)state;
    gm_ringstop s;
    gm_error err;
    assert_int_equal(gm_ringstop_init(&s, 4, &err), 0);
    gm_ringstop_in in = ring_in(5, GM_RINGSTOP_PASS, 4);
    step(&s, &in);
    for (uint32_t c = 1; c <= 4; c++) {
        gm_ringstop_in next = ring_in(6, GM_RINGSTOP_PASS, 1);
        gm_ringstop_in *p = c == 1 ? &next : &(gm_ringstop_in){0};
        gm_ringstop_out o = step(&s, p);
        assert_int_equal(o.ring_out_valid, c == 4);
        if (c == 4)
            assert_int_equal(o.ring_out_payload, 5);
    }
    /* Packet 6 arrived in cycle 1 and waited; it was loaded as 5's tail
     * left (cycle 4) and its tail leaves now. */
    assert_int_equal(look(&s).ring_out_payload, 6);
    assert_int_equal(look(&s).ring_out_valid, 1);
    gm_ringstop_free(&s);
}

/* ---- rings of stops in gm_net ---- */

typedef struct ring {
    gm_clock clk;
    int dom;
    gm_net net;
    uint32_t n, latency;
    gm_link *in, *out;
    gm_link **inp, **outp;
    gm_req_pool pool;
    gm_prng rng;
    uint64_t *next_seq, *expect_seq;  /* [n * n] per (source, sink) */
    uint64_t sent, received, flits, flit_hops;
    uint32_t accept_pct;
    uint32_t max_fill;                /* most packets seen in one ring buffer */
} ring;

static uint32_t to_slice(const gm_req *r, void *ctx)
{
    (void)ctx;
    return r->slice;
}

static uint32_t hops_up(const ring *g, uint32_t i, uint32_t j)
{
    return (j + g->n - i) % g->n;
}

static ring *ring_new(uint32_t n, uint32_t latency, uint32_t depth, uint32_t flit_bytes)
{
    ring *g = calloc(1, sizeof *g);
    assert_non_null(g);
    gm_error err;
    g->n = n;
    g->latency = latency;
    gm_clock_init(&g->clk);
    g->dom = gm_clock_add(&g->clk, "core", 1400, &err);
    assert_int_equal(gm_clock_finalize(&g->clk, &err), 0);
    gm_net_desc d;
    assert_int_equal(gm_net_desc_ring(&d, "r", n, GM_NET_RING_UP, latency, &err), 0);
    gm_net_desc_use_ring_stops(&d);
    gm_noc_cfg cfg = {.clock_mhz = 1400, .flit_bytes = flit_bytes, .vcs = 1,
                      .vc_depth = depth, .router_stages = 1, .islip_iters = 1,
                      .inject_queue = 1, .eject_queue = 1};
    if (gm_net_init(&g->net, &d, &cfg, to_slice, 0, &err) != 0)
        fail_msg("%s", err.msg);
    gm_net_desc_free(&d);
    g->in = calloc(n, sizeof *g->in);
    g->out = calloc(n, sizeof *g->out);
    g->inp = calloc(n, sizeof *g->inp);
    g->outp = calloc(n, sizeof *g->outp);
    g->next_seq = calloc((size_t)n * n, sizeof *g->next_seq);
    g->expect_seq = calloc((size_t)n * n, sizeof *g->expect_seq);
    assert_true(g->in && g->out && g->inp && g->outp && g->next_seq && g->expect_seq);
    for (uint32_t k = 0; k < n; k++) {
        assert_int_equal(gm_link_init(&g->in[k], 2, 1, &g->clk.d[g->dom]), 0);
        assert_int_equal(gm_link_init(&g->out[k], 2, 1, &g->clk.d[g->dom]), 0);
        g->inp[k] = &g->in[k];
        g->outp[k] = &g->out[k];
    }
    gm_net_connect(&g->net, (gm_net_ports){g->inp, g->outp});
    gm_req_pool_init(&g->pool);
    gm_prng_seed(&g->rng, 7, 11);
    g->accept_pct = 100;
    return g;
}

static void ring_free(ring *g)
{
    gm_net_free(&g->net);
    for (uint32_t k = 0; k < g->n; k++) {
        gm_link_free(&g->in[k]);
        gm_link_free(&g->out[k]);
    }
    free(g->in);
    free(g->out);
    free(g->inp);
    free(g->outp);
    free(g->next_seq);
    free(g->expect_seq);
    gm_req_pool_free(&g->pool);
    free(g);
}

/* Independent of gm_noc_packet_flits: the smallest f with f * flit >= bytes. */
static uint32_t flits_of(uint32_t bytes, uint32_t flit_bytes)
{
    uint32_t f = 1;
    while (f * flit_bytes < bytes)
        f++;
    return f;
}

static bool send(ring *g, uint32_t i, uint32_t j, uint32_t bytes)
{
    gm_time now = g->clk.now;
    if (!gm_link_can_push(g->inp[i], now))
        return false;
    gm_req *r = gm_req_alloc(&g->pool, now);
    assert_non_null(r);
    r->src = (uint16_t)i;
    r->slice = (uint16_t)j;
    r->req_bytes = bytes;
    r->addr = g->next_seq[(size_t)i * g->n + j]++;
    gm_link_push(g->inp[i], r, now);
    uint32_t f = flits_of(bytes, g->net.cfg.flit_bytes);
    g->sent++;
    g->flits += f;
    g->flit_hops += (uint64_t)f * hops_up(g, i, j);
    return true;
}

static void take(ring *g)
{
    gm_time now = g->clk.now;
    for (uint32_t j = 0; j < g->n; j++) {
        gm_req *r = gm_link_peek(g->outp[j], now);
        if (!r || gm_prng_below(&g->rng, 100) >= g->accept_pct)
            continue;
        gm_link_pop(g->outp[j], now);
        assert_int_equal(r->slice, j);
        uint64_t *exp = &g->expect_seq[(size_t)r->src * g->n + j];
        assert_int_equal(r->addr, *exp);    /* once, and in order */
        (*exp)++;
        gm_req_release(&g->pool, r);
        g->received++;
    }
}

static void ring_edge(ring *g)
{
    assert_int_equal(gm_clock_advance(&g->clk), g->dom);
    gm_net_tick(&g->net, g->clk.now);
    take(g);
    for (uint32_t k = 0; k < g->n; k++)
        if (g->net.stops[k].s.count > g->max_fill)
            g->max_fill = g->net.stops[k].s.count;
    assert_int_equal(g->net.st.packets_in, g->net.st.packets_out + g->net.pkts.live);
}

static void ring_drain(ring *g)
{
    g->accept_pct = 100;
    for (uint32_t k = 0; gm_net_busy(&g->net) || g->received < g->sent; k++) {
        if (k > 100000)
            fail_msg("ring not drained: %llu of %llu delivered",
                     (unsigned long long)g->received, (unsigned long long)g->sent);
        ring_edge(g);
    }
    gm_error err;
    if (gm_net_check_drained(&g->net, &err) != 0)
        fail_msg("%s", err.msg);
    const gm_net_stats *st = &g->net.st;
    assert_int_equal(st->packets_in, g->sent);
    assert_int_equal(st->packets_out, g->sent);
    assert_int_equal(st->flits_in, g->flits);
    assert_int_equal(st->flits_out, g->flits);
    uint64_t chan = 0;
    for (uint32_t c = 0; c < g->net.n_channels; c++)
        chan += st->chan_flits[c];
    assert_int_equal(chan, g->flit_hops);
}

/* By hand, for a packet of F flits going h hops over links of latency L,
 * with net cycle a the cycle the stop takes it from its link:
 *   - the source stop loads it into its output register at a; the tail
 *     leaves (the register drives the channel) at a + F;
 *   - the channel delivers it L cycles later, at a + F + L;
 *   - a stop it passes loads it (bypass) in that cycle: + F + L per hop;
 *   - the last stop writes it into its ring buffer at a + h (F + L) and
 *     presents it to its sink the cycle after: pushed at a + h (F + L) + 1.
 * So the net's latency is h (L + F) + 1: a one-flit hop costs L + 1. */
static uint64_t lone_latency(uint32_t hops, uint32_t latency, uint32_t flits)
{
    return (uint64_t)hops * (latency + flits) + 1;
}

static void test_lone_packet_latency(void **state)
{
    (void)state;
    static const uint32_t latencies[] = {1, 3, 5};
    for (uint32_t li = 0; li < 3; li++)
        for (uint32_t h = 1; h < 5; h++)
            for (uint32_t bytes = 4; bytes <= 128; bytes *= 32) {
                uint32_t L = latencies[li];
                ring *g = ring_new(5, L, 2 * L + 2, 32);
                assert_true(send(g, 1, (1 + h) % 5, bytes));
                ring_drain(g);
                uint32_t f = flits_of(bytes, 32);
                assert_int_equal(g->net.st.lat_max, lone_latency(h, L, f));
                assert_int_equal(g->net.st.lat_sum, lone_latency(h, L, f));
                ring_free(g);
            }
}

/* Every source sends as fast as its link takes packets to random sinks
 * (never its own stop) while sinks take them at random: the ring buffers
 * fill up, and still every packet arrives once, in order, and the ring
 * drains. Small buffers (2, the least the bubble rule allows) and larger
 * ones, one- and multi-flit packets. */
static void test_full_ring_conservation(void **state)
{
    (void)state;
    static const struct { uint32_t n, latency, depth, accept; } runs[] = {
        {6, 2, 6, 40}, {6, 1, 2, 25}, {3, 4, 2, 60}, {7, 3, 8, 15},
    };
    for (uint32_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        ring *g = ring_new(runs[k].n, runs[k].latency, runs[k].depth, 32);
        g->accept_pct = runs[k].accept;
        for (uint32_t c = 0; c < 3000; c++) {
            for (uint32_t i = 0; i < g->n; i++) {
                uint32_t j = (i + 1 + (uint32_t)gm_prng_below(&g->rng, g->n - 1)) % g->n;
                uint32_t bytes = gm_prng_below(&g->rng, 4) ? 4 : 128;
                send(g, i, j, bytes);
            }
            ring_edge(g);
        }
        assert_int_equal(g->max_fill, runs[k].depth);   /* the ring did fill */
        assert_true(g->sent > 300);
        ring_drain(g);
        ring_free(g);
    }
}

/* Sinks that never take anything: the ring stops, and the watchdog's
 * question "where is this request" names the stop and the slot. */
static void test_stuck_packet_is_located(void **state)
{
    (void)state;
    ring *g = ring_new(4, 2, 2, 32);
    g->accept_pct = 0;
    for (uint32_t c = 0; c < 200; c++) {
        for (uint32_t i = 0; i < 4; i++)
            send(g, i, (i + 2) % 4, 4);
        ring_edge(g);
    }
    assert_true(gm_net_busy(&g->net));
    /* Some packet sits in a ring buffer: find one and ask where it is. */
    const gm_ringstop *s = 0;
    uint32_t at = 0;
    for (uint32_t k = 0; k < 4 && !s; k++)
        if (g->net.stops[k].s.count) {
            s = &g->net.stops[k].s;
            at = k;
        }
    assert_non_null(s);
    gm_req *r = g->net.pkts.pkt[s->buf[s->head].payload].req;
    char where[256], want[64];
    assert_true(gm_net_find_req(&g->net, r, where, sizeof where));
    snprintf(want, sizeof want, "ring stop r-%u ring buffer[0]", at);
    assert_non_null(strstr(where, want));
    gm_error err;
    assert_int_not_equal(gm_net_check_drained(&g->net, &err), 0);
    assert_non_null(strstr(err.msg, "packets inside"));
    /* Let the sinks go: everything still arrives. */
    ring_drain(g);
    ring_free(g);
}

/* Rules a description of ring stops must follow, and no RTL twin. */
static void test_bad_stop_descriptions(void **state)
{
    (void)state;
    gm_net_desc d;
    gm_error err;
    gm_noc_cfg cfg = {.clock_mhz = 1400, .flit_bytes = 4, .vcs = 1, .vc_depth = 2,
                      .router_stages = 1, .islip_iters = 1, .inject_queue = 1,
                      .eject_queue = 1};
    gm_net net;
    assert_int_equal(gm_net_desc_ring(&d, "r", 3, GM_NET_RING_UP, 1, &err), 0);
    gm_net_desc_use_ring_stops(&d);
    d.routers[1].kind = GM_NET_BLOCK_ROUTER;
    assert_int_not_equal(gm_net_init(&net, &d, &cfg, to_slice, 0, &err), 0);
    assert_non_null(strstr(err.msg, "all routers or all ring stops"));
    gm_net_desc_free(&d);
    assert_int_equal(gm_net_desc_ring(&d, "r", 3, GM_NET_RING_UP, 0, &err), 0);
    gm_net_desc_use_ring_stops(&d);
    assert_int_not_equal(gm_net_init(&net, &d, &cfg, to_slice, 0, &err), 0);
    assert_non_null(strstr(err.msg, "latency 0"));
    gm_net_desc_free(&d);
    cfg.vc_depth = 1;
    assert_int_equal(gm_net_desc_ring(&d, "r", 3, GM_NET_RING_UP, 1, &err), 0);
    gm_net_desc_use_ring_stops(&d);
    assert_int_not_equal(gm_net_init(&net, &d, &cfg, to_slice, 0, &err), 0);
    assert_non_null(strstr(err.msg, "depth 1"));
    cfg.vc_depth = 2;
    assert_int_equal(gm_net_init(&net, &d, &cfg, to_slice, 0, &err), 0);
    gm_net_desc_free(&d);
    gm_router_twin twin = {0};
    assert_int_not_equal(gm_net_attach_twin(&net, 0, &twin, &err), 0);
    assert_non_null(strstr(err.msg, "no RTL twin"));
    assert_true(gm_net_router_is_stop(&net, 0));
    gm_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_before_injection),
        cmocka_unit_test(test_waiting_ring_packet_and_bubble),
        cmocka_unit_test(test_ejection_backpressure),
        cmocka_unit_test(test_multi_flit_output),
        cmocka_unit_test(test_lone_packet_latency),
        cmocka_unit_test(test_full_ring_conservation),
        cmocka_unit_test(test_stuck_packet_is_located),
        cmocka_unit_test(test_bad_stop_descriptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
