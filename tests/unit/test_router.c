/* Tests of the VC crossbar router block (noc/router.h) through its ports.
 *
 * Rationale: the router is driven exactly as the RTL lockstep harness will
 * drive it: every cycle eval, route outputs to the sources and sinks
 * written here, then tick everybody. Sources obey credits and the wormhole
 * protocol; sinks are downstream buffers of `depth` flits per VC that drain
 * at a chosen rate and return one credit per flit. The checks are the
 * documented pipeline depth, wormhole order per VC, the credit invariant
 * (credits + flits downstream + flits and credits in flight = depth for
 * every VC, every cycle), switch allocation one flit per input and per
 * output, output bandwidth under saturation, fairness, delivery of every
 * flit, and that an idle tick changes no register. Sizes include 1x1, a
 * non-power of two and one VC. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "noc/router.h"
#include "sim/prng.h"

#define MAXP 16
#define MAXV 8
#define MAXQ 4096

typedef struct tpkt {
    uint32_t dest, flits, payload;
} tpkt;

typedef struct source {
    tpkt q[MAXQ];
    uint32_t head, count;
    uint32_t sent;           /* flits of q[head] sent */
    uint8_t vc;              /* VC of q[head] once started */
    uint8_t vc_ptr;
    uint16_t credit[MAXV];
    uint32_t next_payload;
} source;

typedef struct sink {
    uint16_t held[MAXV];     /* flits in the downstream buffer per VC */
    uint32_t fifo_vc[MAXV * 256]; /* arrival order of held flits (VC ids) */
    uint32_t f_head, f_count;
    uint8_t open[MAXV];
    uint32_t payload[MAXV];
    uint8_t next_seq[MAXV];
    gm_router_credit credit; /* register */
    uint32_t drain_pct;      /* chance to drain one flit per cycle */
    uint64_t flits, packets;
} sink;

typedef struct bench {
    gm_router_cfg cfg;
    gm_router r;
    gm_router_in in;
    gm_router_out out;
    source src[MAXP];
    sink snk[MAXP];
    gm_prng rng;
    uint64_t cycle;
    uint8_t *delivered;      /* per payload: tails seen */
    uint32_t n_payloads;
    uint64_t out_flits[MAXP];
} bench;

static bench *bench_new(gm_router_cfg cfg, uint32_t drain_pct, uint64_t seed)
{
    bench *b = calloc(1, sizeof *b);
    assert_non_null(b);
    assert_true(cfg.n_in <= MAXP && cfg.n_out <= MAXP && cfg.vcs <= MAXV);
    b->cfg = cfg;
    gm_error err;
    assert_int_equal(gm_router_init(&b->r, &cfg, &err), 0);
    assert_int_equal(gm_router_ports_init(&b->in, &b->out, &cfg, &err), 0);
    for (uint32_t i = 0; i < cfg.n_in; i++) {
        for (uint32_t v = 0; v < cfg.vcs; v++)
            b->src[i].credit[v] = (uint16_t)cfg.depth;
        b->src[i].next_payload = i << 20;
    }
    for (uint32_t o = 0; o < cfg.n_out; o++)
        b->snk[o].drain_pct = drain_pct;
    gm_prng_seed(&b->rng, seed, 1);
    b->delivered = calloc((size_t)MAXP << 20, 1);
    assert_non_null(b->delivered);
    return b;
}

static void bench_free(bench *b)
{
    gm_router_ports_free(&b->in, &b->out);
    gm_router_free(&b->r);
    free(b->delivered);
    free(b);
}

static uint32_t send(bench *b, uint32_t i, uint32_t dest, uint32_t flits)
{
    source *s = &b->src[i];
    assert_true(s->count < MAXQ);
    uint32_t p = s->next_payload++;
    s->q[(s->head + s->count++) % MAXQ] = (tpkt){dest, flits, p};
    b->n_payloads++;
    return p;
}

/* Source: Moore output from its state. A new packet takes the first VC
 * with a credit from a round-robin pointer; a started one keeps its VC. */
static void source_eval(const source *s, uint32_t vcs, gm_router_flit *f)
{
    *f = (gm_router_flit){0};
    if (!s->count)
        return;
    const tpkt *p = &s->q[s->head];
    uint32_t vc = s->vc;
    if (s->sent == 0) {
        uint32_t k;
        for (k = 0; k < vcs; k++)
            if (s->credit[(s->vc_ptr + k) % vcs])
                break;
        if (k == vcs)
            return;
        vc = (s->vc_ptr + k) % vcs;
    } else if (!s->credit[vc]) {
        return;
    }
    *f = (gm_router_flit){
        .flit_valid = 1,
        .flit_vc = (uint8_t)vc,
        .flit_head = s->sent == 0,
        .flit_tail = s->sent + 1 == p->flits,
        .flit_dest = (uint16_t)p->dest,
        .flit_seq = (uint8_t)s->sent,
        .flit_payload = p->payload,
    };
}

static void source_tick(source *s, uint32_t vcs, const gm_router_flit *sent,
                        const gm_router_credit *cr)
{
    if (sent->flit_valid) {
        assert_true(s->credit[sent->flit_vc] > 0);
        s->credit[sent->flit_vc]--;
        if (sent->flit_head) {
            s->vc = sent->flit_vc;
            s->vc_ptr = (uint8_t)((sent->flit_vc + 1) % vcs);
        }
        if (sent->flit_tail) {
            s->head = (s->head + 1) % MAXQ;
            s->count--;
            s->sent = 0;
        } else {
            s->sent++;
        }
    }
    if (cr->credit_valid) {
        assert_true(cr->credit_vc < vcs);
        s->credit[cr->credit_vc]++;
    }
}

/* Sink: a downstream input buffer of depth flits per VC, drained in
 * arrival order with probability drain_pct; checks wormhole order. */
static void sink_tick(bench *b, sink *k, uint32_t o, const gm_router_flit *f)
{
    k->credit = (gm_router_credit){0};
    if (k->f_count && gm_prng_below(&b->rng, 100) < k->drain_pct) {
        uint32_t vc = k->fifo_vc[k->f_head];
        k->f_head = (k->f_head + 1) % (MAXV * 256);
        k->f_count--;
        k->held[vc]--;
        k->credit = (gm_router_credit){1, (uint8_t)vc};
    }
    if (!f->flit_valid)
        return;
    uint32_t vc = f->flit_vc;
    assert_true(vc < b->cfg.vcs);
    assert_true(k->held[vc] < b->cfg.depth); /* never beyond the credits */
    k->held[vc]++;
    k->fifo_vc[(k->f_head + k->f_count++) % (MAXV * 256)] = vc;
    k->flits++;
    b->out_flits[o]++;
    /* Wormhole: a VC carries one packet at a time, flits in order. */
    if (f->flit_head) {
        assert_false(k->open[vc]);
        assert_int_equal(f->flit_seq, 0);
        k->open[vc] = 1;
        k->payload[vc] = f->flit_payload;
        k->next_seq[vc] = 0;
    }
    assert_true(k->open[vc]);
    assert_int_equal(f->flit_payload, k->payload[vc]);
    assert_int_equal(f->flit_seq, k->next_seq[vc]);
    assert_int_equal(f->flit_dest, o);
    k->next_seq[vc]++;
    if (f->flit_tail) {
        k->open[vc] = 0;
        k->packets++;
        assert_int_equal(b->delivered[f->flit_payload], 0); /* exactly once */
        b->delivered[f->flit_payload] = 1;
    }
}

/* For every VC of every link: credits at the sender + flits at the
 * receiver + flits in flight + credits in flight = depth. */
static void check_credit_invariant(const bench *b)
{
    const gm_router *r = &b->r;
    const uint32_t v = b->cfg.vcs, d = b->cfg.depth;
    for (uint32_t i = 0; i < b->cfg.n_in; i++)
        for (uint32_t vc = 0; vc < v; vc++) {
            uint32_t sum = b->src[i].credit[vc] + r->buf_count[i * v + vc];
            if (r->credit[i].credit_valid && r->credit[i].credit_vc == vc)
                sum++;
            assert_int_equal(sum, d);
        }
    for (uint32_t o = 0; o < b->cfg.n_out; o++)
        for (uint32_t vc = 0; vc < v; vc++) {
            uint32_t c = r->ovc_credit[o * v + vc];
            assert_true(c <= d);
            uint32_t sum = c + b->snk[o].held[vc];
            for (uint32_t s = 0; s < b->cfg.stages; s++) {
                const gm_router_flit *f = &r->pipe[s * b->cfg.n_out + o];
                if (f->flit_valid && f->flit_vc == vc)
                    sum++;
            }
            if (b->snk[o].credit.credit_valid && b->snk[o].credit.credit_vc == vc)
                sum++;
            assert_int_equal(sum, d);
        }
}

/* The derived per-input masks the router keeps for speed agree with the
 * registers they summarize: a VC holds an output VC exactly when
 * ivc_has_ovc says so, may send exactly when that output VC has a credit,
 * and the output VC names it as its holder. */
static void check_derived_masks(const bench *b)
{
    const gm_router *r = &b->r;
    const uint32_t v = b->cfg.vcs;
    for (uint32_t i = 0; i < b->cfg.n_in; i++)
        for (uint32_t vc = 0; vc < v; vc++) {
            uint32_t iv = i * v + vc;
            bool has = r->ivc_has_ovc[iv];
            uint32_t ov = r->ivc_oport[iv] * v + r->ivc_ovc[iv];
            assert_int_equal(r->vc_has_ovc[i] >> vc & 1, has);
            assert_int_equal(r->vc_can_send[i] >> vc & 1,
                             has && r->ovc_credit[ov] > 0);
            if (has)
                assert_int_equal(r->ovc_holder[ov], iv);
        }
}

/* Switch allocation: at most one flit per input and per output. */
static void check_sa_grants(const bench *b)
{
    uint8_t in_used[MAXP] = {0}, out_used[MAXP] = {0};
    for (uint32_t k = 0; k < b->r.n_sa_grants; k++) {
        const gm_router_sa_grant *g = &b->r.sa_grants[k];
        assert_false(in_used[g->in]);
        assert_false(out_used[g->out]);
        in_used[g->in] = out_used[g->out] = 1;
    }
}

/* Arbitration state before a tick, to check the pointer rules after it. */
typedef struct arb_snap {
    uint16_t va_g[MAXP * MAXV], va_a[MAXP * MAXV];
    uint16_t sa_g[MAXP], sa_a[MAXP];
    uint16_t vc_ptr[MAXP];
    uint64_t busy[MAXP];
    uint8_t has_ovc[MAXP * MAXV];
} arb_snap;

static void snap_arbiters(const gm_router *r, arb_snap *s)
{
    const gm_router_cfg *c = &r->cfg;
    memcpy(s->va_g, r->va_grant_ptr, c->n_out * c->vcs * 2u);
    memcpy(s->va_a, r->va_accept_ptr, c->n_in * c->vcs * 2u);
    memcpy(s->sa_g, r->sa_grant_ptr, c->n_out * 2u);
    memcpy(s->sa_a, r->sa_accept_ptr, c->n_in * 2u);
    for (uint32_t i = 0; i < c->n_in; i++)
        s->vc_ptr[i] = r->vc_arb[i].ptr;
    memcpy(s->busy, r->ovc_busy, c->n_out * sizeof s->busy[0]);
    memcpy(s->has_ovc, r->ivc_has_ovc, c->n_in * c->vcs);
}

/* docs/noc.md rules, checked from the outside of the allocators:
 * - VA grants only free output VCs to input VCs without one;
 * - iSLIP pointers move to one past the partner exactly for first-
 *   iteration matches and stay otherwise;
 * - an input's VC arbiter moves to one past its VC exactly when the input
 *   won the switch. */
static void check_arbiter_rules(const gm_router *r, const arb_snap *s)
{
    const gm_router_cfg *c = &r->cfg;
    const uint32_t v = c->vcs, niv = c->n_in * v;
    uint16_t va_g[MAXP * MAXV], va_a[MAXP * MAXV], sa_g[MAXP], sa_a[MAXP];
    uint16_t vc_ptr[MAXP];
    memcpy(va_g, s->va_g, sizeof va_g);
    memcpy(va_a, s->va_a, sizeof va_a);
    memcpy(sa_g, s->sa_g, sizeof sa_g);
    memcpy(sa_a, s->sa_a, sizeof sa_a);
    memcpy(vc_ptr, s->vc_ptr, sizeof vc_ptr);
    for (uint32_t k = 0; k < r->n_va_grants; k++) {
        const gm_router_va_grant *g = &r->va_grants[k];
        assert_false(s->busy[g->out_vc / v] >> (g->out_vc % v) & 1);
        assert_false(s->has_ovc[g->in_vc]);
        if (g->iter == 0) {
            va_g[g->out_vc] = (uint16_t)((g->in_vc + 1) % niv);
            va_a[g->in_vc] = (uint16_t)((g->out_vc % v + 1) % v);
        }
    }
    for (uint32_t k = 0; k < r->n_sa_grants; k++) {
        const gm_router_sa_grant *g = &r->sa_grants[k];
        if (g->iter == 0) {
            sa_g[g->out] = (uint16_t)((g->in + 1) % c->n_in);
            sa_a[g->in] = (uint16_t)((g->out + 1) % c->n_out);
        }
        vc_ptr[g->in] = (uint16_t)((g->vc + 1) % v);
    }
    assert_memory_equal(va_g, r->va_grant_ptr, c->n_out * v * 2u);
    assert_memory_equal(va_a, r->va_accept_ptr, niv * 2u);
    assert_memory_equal(sa_g, r->sa_grant_ptr, c->n_out * 2u);
    assert_memory_equal(sa_a, r->sa_accept_ptr, c->n_in * 2u);
    for (uint32_t i = 0; i < c->n_in; i++)
        assert_int_equal(r->vc_arb[i].ptr, vc_ptr[i]);
}

/* The grants of the next tick as the plain iSLIP allocator makes them
 * from the registers (docs/noc.md: VA per output port over all input VCs,
 * SA over inputs x outputs after each input's VC arbiter), to check the
 * router's allocation shortcuts against the allocator they replace. */
typedef struct expected_grants {
    gm_router_va_grant va[MAXP * MAXV];
    gm_router_sa_grant sa[MAXP];
    uint32_t n_va, n_sa;
} expected_grants;

static void expect_va(const gm_router *r, expected_grants *x)
{
    const gm_router_cfg *c = &r->cfg;
    const uint32_t v = c->vcs, niv = c->n_in * v, w = GM_BITS_WORDS(niv);
    uint16_t accept[MAXP * MAXV], grant[MAXV];
    assert_true(w <= 2); /* the request columns below hold two words */
    memcpy(accept, r->va_accept_ptr, niv * 2u);
    for (uint32_t p = 0; p < c->n_out; p++) {
        uint64_t req[MAXV * 2] = {0};
        for (uint32_t iv = 0; iv < niv; iv++) {
            if (!r->buf_count[iv] || r->ivc_has_ovc[iv])
                continue;
            if (r->buf[(size_t)iv * c->depth + r->buf_rd[iv]].dest != p)
                continue;
            for (uint32_t k = 0; k < v; k++)
                if (!(r->ovc_busy[p] >> k & 1))
                    gm_islip_request(req, niv, iv, k);
        }
        memcpy(grant, r->va_grant_ptr + p * v, v * 2u);
        gm_islip s = {.n_req = niv, .n_res = v, .iters = c->iters,
                      .grant_ptr = grant, .accept_ptr = accept};
        gm_islip_match m[MAXV];
        uint32_t n = gm_islip_alloc(&s, req, m);
        for (uint32_t k = 0; k < n; k++)
            x->va[x->n_va++] = (gm_router_va_grant){
                m[k].req, (uint16_t)(p * v + m[k].res), m[k].iter};
    }
}

static void expect_sa(const gm_router *r, expected_grants *x)
{
    const gm_router_cfg *c = &r->cfg;
    const uint32_t v = c->vcs;
    uint16_t grant[MAXP], accept[MAXP];
    uint8_t chosen[MAXP];
    uint64_t req[MAXP] = {0};
    memcpy(grant, r->sa_grant_ptr, c->n_out * 2u);
    memcpy(accept, r->sa_accept_ptr, c->n_in * 2u);
    for (uint32_t i = 0; i < c->n_in; i++) {
        uint64_t elig = 0;
        for (uint32_t vc = 0; vc < v; vc++) {
            uint32_t iv = i * v + vc;
            if (r->buf_count[iv] && r->ivc_has_ovc[iv] &&
                r->ovc_credit[r->ivc_oport[iv] * v + r->ivc_ovc[iv]] > 0)
                elig |= 1ull << vc;
        }
        uint32_t vc = gm_rr_search(&elig, v, r->vc_arb[i].ptr);
        if (vc == GM_ISLIP_NONE)
            continue;
        chosen[i] = (uint8_t)vc;
        gm_islip_request(req, c->n_in, i, r->ivc_oport[i * v + vc]);
    }
    gm_islip s = {.n_req = c->n_in, .n_res = c->n_out, .iters = c->iters,
                  .grant_ptr = grant, .accept_ptr = accept};
    gm_islip_match m[MAXP];
    uint32_t n = gm_islip_alloc(&s, req, m);
    for (uint32_t k = 0; k < n; k++)
        x->sa[x->n_sa++] = (gm_router_sa_grant){
            m[k].req, m[k].res, chosen[m[k].req], m[k].iter};
}

static void expect_grants(const gm_router *r, expected_grants *x)
{
    x->n_va = x->n_sa = 0;
    expect_va(r, x);
    expect_sa(r, x);
}

static void check_grants(const gm_router *r, const expected_grants *x)
{
    assert_int_equal(r->n_va_grants, x->n_va);
    for (uint32_t k = 0; k < x->n_va; k++) {
        assert_int_equal(r->va_grants[k].in_vc, x->va[k].in_vc);
        assert_int_equal(r->va_grants[k].out_vc, x->va[k].out_vc);
        assert_int_equal(r->va_grants[k].iter, x->va[k].iter);
    }
    assert_int_equal(r->n_sa_grants, x->n_sa);
    for (uint32_t k = 0; k < x->n_sa; k++) {
        assert_int_equal(r->sa_grants[k].in, x->sa[k].in);
        assert_int_equal(r->sa_grants[k].out, x->sa[k].out);
        assert_int_equal(r->sa_grants[k].vc, x->sa[k].vc);
        assert_int_equal(r->sa_grants[k].iter, x->sa[k].iter);
    }
}

static void bench_cycle(bench *b)
{
    const uint32_t n = b->cfg.n_in, m = b->cfg.n_out, v = b->cfg.vcs;
    arb_snap snap;
    gm_router_eval(&b->r, &b->out);
    for (uint32_t i = 0; i < n; i++)
        source_eval(&b->src[i], v, &b->in.in[i]);
    for (uint32_t o = 0; o < m; o++)
        b->in.out[o] = b->snk[o].credit;
    snap_arbiters(&b->r, &snap);
    expected_grants want;
    expect_grants(&b->r, &want);
    gm_router_tick(&b->r, &b->in);
    check_arbiter_rules(&b->r, &snap);
    check_grants(&b->r, &want);
    for (uint32_t i = 0; i < n; i++)
        source_tick(&b->src[i], v, &b->in.in[i], &b->out.in[i]);
    for (uint32_t o = 0; o < m; o++)
        sink_tick(b, &b->snk[o], o, &b->out.out[o]);
    b->cycle++;
    check_credit_invariant(b);
    check_sa_grants(b);
    check_derived_masks(b);
}

static bool bench_quiet(const bench *b)
{
    for (uint32_t i = 0; i < b->cfg.n_in; i++)
        if (b->src[i].count)
            return false;
    for (uint32_t o = 0; o < b->cfg.n_out; o++)
        if (b->snk[o].f_count || b->snk[o].credit.credit_valid)
            return false;
    return gm_router_idle(&b->r);
}

static void bench_drain(bench *b, uint64_t limit)
{
    for (uint32_t o = 0; o < b->cfg.n_out; o++)
        b->snk[o].drain_pct = 100;
    uint64_t start = b->cycle;
    while (!bench_quiet(b)) {
        bench_cycle(b);
        assert_true(b->cycle - start < limit);
    }
    gm_error err;
    assert_int_equal(gm_router_check_drained(&b->r, &err), 0);
}

static gm_router_cfg mkcfg(uint32_t n, uint32_t m, uint32_t v, uint32_t d,
                           uint32_t s, uint32_t it)
{
    return (gm_router_cfg){.n_in = n, .n_out = m, .vcs = v, .depth = d,
                           .stages = s, .iters = it};
}

/* ---- latency ---- */

/* Documented pipeline (docs/noc.md): a head flit presented at an input in
 * cycle 0 is written at the end of cycle 0, wins VA in cycle 1, wins SA
 * and crosses the switch into output stage 0 at the end of cycle 2, and
 * reaches the output port after stages - 1 more edges: it is on the
 * output in cycle stages + 2. Each body flit follows one cycle later.
 * The input credit of the head flit is on in_credit in cycle 3. */
static void test_single_flit_latency_per_stages(void **state)
{
    (void)state;
    for (uint32_t stages = 1; stages <= 3; stages++) {
        bench *b = bench_new(mkcfg(3, 2, 2, 4, stages, 1), 100, 1);
        uint32_t p = send(b, 1, 1, 1);
        int64_t seen = -1, credit_seen = -1;
        for (uint32_t c = 0; c < 12; c++) {
            gm_router_eval(&b->r, &b->out);
            for (uint32_t o = 0; o < 2; o++) {
                const gm_router_flit *f = &b->out.out[o];
                if (!f->flit_valid)
                    continue;
                assert_int_equal(o, 1);
                assert_int_equal(seen, -1);
                seen = c;
                assert_int_equal(f->flit_payload, p);
                assert_true(f->flit_head && f->flit_tail);
                assert_int_equal(f->flit_seq, 0);
                assert_int_equal(f->flit_dest, 1);
                assert_true(f->flit_vc < 2);
            }
            if (b->out.in[1].credit_valid) {
                assert_int_equal(credit_seen, -1);
                credit_seen = c;
            }
            bench_cycle(b);
        }
        assert_int_equal(seen, stages + 2);
        assert_int_equal(credit_seen, 3);
        bench_drain(b, 100);
        bench_free(b);
    }
}

static void test_multi_flit_packet_streams(void **state)
{
    (void)state;
    for (uint32_t stages = 1; stages <= 3; stages++) {
        bench *b = bench_new(mkcfg(2, 2, 2, 4, stages, 1), 100, 2);
        send(b, 0, 1, 4);
        int64_t at[4] = {-1, -1, -1, -1};
        for (uint32_t c = 0; c < 16; c++) {
            gm_router_eval(&b->r, &b->out);
            const gm_router_flit *f = &b->out.out[1];
            if (f->flit_valid)
                at[f->flit_seq] = c;
            bench_cycle(b);
        }
        for (uint32_t k = 0; k < 4; k++)
            assert_int_equal(at[k], stages + 2 + k);
        bench_free(b);
    }
}

/* ---- wormhole, credits, allocation ---- */

/* Many multi-flit packets from every input to few outputs over few VCs:
 * the sink asserts one packet per VC at a time with flits in order. */
static void test_wormhole_vc_order(void **state)
{
    (void)state;
    bench *b = bench_new(mkcfg(5, 3, 2, 3, 2, 2), 70, 3);
    gm_prng rng;
    gm_prng_seed(&rng, 3, 2);
    for (uint32_t i = 0; i < 5; i++)
        for (uint32_t k = 0; k < 60; k++)
            send(b, i, (uint32_t)gm_prng_below(&rng, 2),
                 1 + (uint32_t)gm_prng_below(&rng, 6));
    for (uint32_t c = 0; c < 4000 && !bench_quiet(b); c++)
        bench_cycle(b);
    bench_drain(b, 10000);
    uint64_t pk = 0;
    for (uint32_t o = 0; o < 3; o++)
        pk += b->snk[o].packets;
    assert_int_equal(pk, 300);
    bench_free(b);
}

/* A downstream that drains rarely: credits must throttle the router; the
 * invariant and the sink's overflow check run every cycle. */
static void test_credits_under_backpressure(void **state)
{
    (void)state;
    for (uint32_t d = 1; d <= 4; d += 3) {
        bench *b = bench_new(mkcfg(4, 2, 2, d, 1, 1), 12, 4 + d);
        for (uint32_t i = 0; i < 4; i++)
            for (uint32_t k = 0; k < 40; k++)
                send(b, i, k % 2, 1 + k % 5);
        uint32_t min_credit_seen = 255;
        for (uint32_t c = 0; c < 3000; c++) {
            bench_cycle(b);
            for (uint32_t ov = 0; ov < 4; ov++)
                if (b->r.ovc_credit[ov] < min_credit_seen)
                    min_credit_seen = b->r.ovc_credit[ov];
        }
        assert_int_equal(min_credit_seen, 0); /* it really was throttled */
        bench_drain(b, 20000);
        for (uint32_t i = 0; i < 4; i++)
            assert_int_equal(b->src[i].count, 0);
        bench_free(b);
    }
}

/* Every input floods output 0 with 1..3-flit packets and the sink always
 * drains: the output must carry a flit in every cycle once warm (the
 * credit loop of stages + 3 = 4 cycles equals the depth, and two output
 * VCs hide the gap between packets). */
static void test_output_bandwidth_one_flit_per_cycle(void **state)
{
    (void)state;
    bench *b = bench_new(mkcfg(4, 3, 2, 4, 1, 1), 100, 5);
    for (uint32_t i = 0; i < 4; i++)
        for (uint32_t k = 0; k < 300; k++)
            send(b, i, 0, 1 + (i + k) % 3);
    for (uint32_t c = 0; c < 20; c++)
        bench_cycle(b);
    uint64_t before = b->out_flits[0];
    for (uint32_t c = 0; c < 500; c++)
        bench_cycle(b);
    assert_int_equal(b->out_flits[0] - before, 500);
    assert_int_equal(b->out_flits[1] + b->out_flits[2], 0);
    bench_drain(b, 10000);
    bench_free(b);
}

/* Three inputs with one VC each compete for one output VC with one-flit
 * packets: VA and SA round robin give each the same share. */
static void test_fair_share_of_one_output(void **state)
{
    (void)state;
    bench *b = bench_new(mkcfg(3, 1, 1, 4, 1, 1), 100, 6);
    for (uint32_t i = 0; i < 3; i++)
        for (uint32_t k = 0; k < 1000; k++)
            send(b, i, 0, 1);
    for (uint32_t c = 0; c < 1500; c++)
        bench_cycle(b);
    uint32_t left[3];
    for (uint32_t i = 0; i < 3; i++)
        left[i] = b->src[i].count;
    uint32_t lo = left[0], hi = left[0];
    for (uint32_t i = 1; i < 3; i++) {
        lo = left[i] < lo ? left[i] : lo;
        hi = left[i] > hi ? left[i] : hi;
    }
    assert_true(hi - lo <= 1);
    assert_true(hi < 1000);
    bench_drain(b, 10000);
    bench_free(b);
}

/* Random uniform traffic, random sizes, random back-pressure: every flit
 * of every packet arrives exactly once and the router drains. */
static void random_traffic(gm_router_cfg cfg, uint32_t drain_pct, uint64_t seed,
                           uint32_t packets_per_input)
{
    bench *b = bench_new(cfg, drain_pct, seed);
    gm_prng rng;
    gm_prng_seed(&rng, seed, 7);
    uint64_t flits = 0;
    for (uint32_t i = 0; i < cfg.n_in; i++)
        for (uint32_t k = 0; k < packets_per_input; k++) {
            uint32_t f = 1 + (uint32_t)gm_prng_below(&rng, 5);
            send(b, i, (uint32_t)gm_prng_below(&rng, cfg.n_out), f);
            flits += f;
        }
    bench_drain(b, 200000);
    uint64_t got = 0, pk = 0;
    for (uint32_t o = 0; o < cfg.n_out; o++) {
        got += b->snk[o].flits;
        pk += b->snk[o].packets;
    }
    assert_int_equal(got, flits);
    assert_int_equal(pk, (uint64_t)cfg.n_in * packets_per_input);
    for (uint32_t i = 0; i < cfg.n_in; i++)
        for (uint32_t k = 0; k < packets_per_input; k++)
            assert_int_equal(b->delivered[(i << 20) + k], 1);
    bench_free(b);
}

static void test_all_flits_delivered(void **state)
{
    (void)state;
    random_traffic(mkcfg(1, 1, 1, 1, 1, 1), 50, 10, 50);
    random_traffic(mkcfg(2, 1, 2, 2, 1, 1), 60, 11, 100);
    random_traffic(mkcfg(1, 3, 3, 2, 2, 1), 60, 12, 100);
    random_traffic(mkcfg(7, 5, 3, 3, 3, 2), 40, 13, 100);
    random_traffic(mkcfg(8, 4, 4, 4, 1, 1), 90, 14, 200);
    random_traffic(mkcfg(5, 11, 4, 2, 2, 3), 25, 15, 100);
    random_traffic(mkcfg(3, 2, 2, 300, 2, 1), 20, 16, 200); /* depth > 255 */
}

/* ---- idle and drain ---- */

static bool same_registers(const gm_router *a, const gm_router *b)
{
    const gm_router_cfg *c = &a->cfg;
    size_t niv = (size_t)c->n_in * c->vcs, nov = (size_t)c->n_out * c->vcs;
    return !memcmp(a->buf, b->buf, niv * c->depth * sizeof *a->buf) &&
           !memcmp(a->buf_rd, b->buf_rd, niv * sizeof *a->buf_rd) &&
           !memcmp(a->buf_count, b->buf_count, niv * sizeof *a->buf_count) &&
           !memcmp(a->ivc_has_ovc, b->ivc_has_ovc, niv) &&
           !memcmp(a->ivc_oport, b->ivc_oport, niv * sizeof *a->ivc_oport) &&
           !memcmp(a->ivc_ovc, b->ivc_ovc, niv) &&
           !memcmp(a->ovc_busy, b->ovc_busy, c->n_out * sizeof *a->ovc_busy) &&
           !memcmp(a->ovc_credit, b->ovc_credit, nov * sizeof *a->ovc_credit) &&
           !memcmp(a->va_grant_ptr, b->va_grant_ptr, nov * 2) &&
           !memcmp(a->va_accept_ptr, b->va_accept_ptr, niv * 2) &&
           !memcmp(a->sa_grant_ptr, b->sa_grant_ptr, c->n_out * 2u) &&
           !memcmp(a->sa_accept_ptr, b->sa_accept_ptr, c->n_in * 2u) &&
           !memcmp(a->vc_arb, b->vc_arb, c->n_in * sizeof *a->vc_arb) &&
           !memcmp(a->credit, b->credit, c->n_in * sizeof *a->credit);
}

static void copy_registers(gm_router *dst, const gm_router *a)
{
    const gm_router_cfg *c = &a->cfg;
    size_t niv = (size_t)c->n_in * c->vcs, nov = (size_t)c->n_out * c->vcs;
    memcpy(dst->buf, a->buf, niv * c->depth * sizeof *a->buf);
    memcpy(dst->buf_rd, a->buf_rd, niv * sizeof *a->buf_rd);
    memcpy(dst->buf_count, a->buf_count, niv * sizeof *a->buf_count);
    memcpy(dst->ivc_has_ovc, a->ivc_has_ovc, niv);
    memcpy(dst->ivc_oport, a->ivc_oport, niv * sizeof *a->ivc_oport);
    memcpy(dst->ivc_ovc, a->ivc_ovc, niv);
    memcpy(dst->ovc_busy, a->ovc_busy, c->n_out * sizeof *a->ovc_busy);
    memcpy(dst->ovc_credit, a->ovc_credit, nov * sizeof *a->ovc_credit);
    memcpy(dst->va_grant_ptr, a->va_grant_ptr, nov * 2);
    memcpy(dst->va_accept_ptr, a->va_accept_ptr, niv * 2);
    memcpy(dst->sa_grant_ptr, a->sa_grant_ptr, c->n_out * 2u);
    memcpy(dst->sa_accept_ptr, a->sa_accept_ptr, c->n_in * 2u);
    memcpy(dst->vc_arb, a->vc_arb, c->n_in * sizeof *a->vc_arb);
    memcpy(dst->credit, a->credit, c->n_in * sizeof *a->credit);
}

/* After traffic has moved the pointers, a drained router is idle; ticking
 * it with all inputs invalid keeps every register (so skipping is exact). */
static void test_idle_tick_changes_nothing(void **state)
{
    (void)state;
    gm_router_cfg cfg = mkcfg(5, 3, 2, 3, 2, 2);
    bench *b = bench_new(cfg, 80, 20);
    for (uint32_t i = 0; i < 5; i++)
        for (uint32_t k = 0; k < 20; k++)
            send(b, i, (i + k) % 3, 1 + k % 4);
    bench_drain(b, 10000);
    assert_true(gm_router_idle(&b->r));
    gm_router snap;
    gm_error err;
    assert_int_equal(gm_router_init(&snap, &cfg, &err), 0);
    copy_registers(&snap, &b->r);
    /* The pointers are no longer at reset: the test is not vacuous. */
    bool moved = false;
    for (uint32_t o = 0; o < 3; o++)
        moved |= b->r.sa_grant_ptr[o] != 0;
    assert_true(moved);
    memset(b->in.in, 0, cfg.n_in * sizeof *b->in.in);
    memset(b->in.out, 0, cfg.n_out * sizeof *b->in.out);
    uint64_t active = b->r.ticks_active;
    for (int k = 0; k < 10; k++)
        gm_router_tick(&b->r, &b->in);
    assert_int_equal(b->r.ticks_active, active); /* took the early exit */
    assert_true(same_registers(&snap, &b->r));
    gm_router_eval(&b->r, &b->out);
    for (uint32_t o = 0; o < cfg.n_out; o++)
        assert_int_equal(b->out.out[o].flit_valid, 0);
    gm_router_free(&snap);
    bench_free(b);
}

static void test_check_drained_reports_leftovers(void **state)
{
    (void)state;
    bench *b = bench_new(mkcfg(2, 2, 2, 2, 1, 1), 100, 21);
    send(b, 0, 1, 3);
    bench_cycle(b);
    bench_cycle(b);
    gm_error err;
    assert_int_not_equal(gm_router_check_drained(&b->r, &err), 0);
    assert_non_null(strstr(err.msg, "flits"));
    bench_drain(b, 100);
    bench_free(b);
}

static void test_init_rejects_bad_config(void **state)
{
    (void)state;
    gm_router r;
    gm_error err;
    gm_router_cfg bad[] = {
        mkcfg(0, 1, 1, 1, 1, 1), mkcfg(1, 1, 0, 1, 1, 1), mkcfg(1, 1, 1, 0, 1, 1),
        mkcfg(1, 1, 1, 1, 0, 1), mkcfg(1, 1, 1, 1, 1, 0), mkcfg(300, 4, 4, 4, 1, 1),
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        assert_int_not_equal(gm_router_init(&r, &bad[k], &err), 0);
    gm_router_cfg big = mkcfg(80, 32, 4, 4, 1, 1);
    assert_int_equal(gm_router_init(&r, &big, &err), 0);
    gm_router_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_flit_latency_per_stages),
        cmocka_unit_test(test_multi_flit_packet_streams),
        cmocka_unit_test(test_wormhole_vc_order),
        cmocka_unit_test(test_credits_under_backpressure),
        cmocka_unit_test(test_output_bandwidth_one_flit_per_cycle),
        cmocka_unit_test(test_fair_share_of_one_output),
        cmocka_unit_test(test_all_flits_delivered),
        cmocka_unit_test(test_idle_tick_changes_nothing),
        cmocka_unit_test(test_check_drained_reports_leftovers),
        cmocka_unit_test(test_init_rejects_bad_config),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
