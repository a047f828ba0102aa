#include "noc/xbar.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t ctz64(uint64_t x)
{
    return (uint32_t)__builtin_ctzll(x);
}

static int check_cfg(uint32_t n_in, uint32_t n_out, const gm_noc_cfg *c,
                     gm_error *err)
{
    if (n_in < 1 || n_out < 1)
        return gm_fail(err, "crossbar %ux%u needs at least one input and output",
                       n_in, n_out);
    if (c->flit_bytes < 1)
        return gm_fail(err, "noc.flit_bytes must be >= 1");
    if (c->inject_queue < 1 || c->eject_queue < 1)
        return gm_fail(err, "noc.inject_queue and noc.eject_queue must be >= 1");
    return 0;
}

int gm_xbar_init(gm_xbar *x, const char *name, uint32_t n_in, uint32_t n_out,
                 const gm_noc_cfg *cfg,
                 uint32_t (*dest)(const gm_req *r, void *ctx), void *ctx,
                 gm_error *err)
{
    *x = (gm_xbar){0};
    if (check_cfg(n_in, n_out, cfg, err) != 0)
        return -1;
    snprintf(x->name, sizeof x->name, "%s", name ? name : "xbar");
    x->n_in = n_in;
    x->n_out = n_out;
    x->cfg = *cfg;
    x->dest = dest;
    x->ctx = ctx;
    gm_router_cfg rc = {
        .n_in = n_in,
        .n_out = n_out,
        .vcs = cfg->vcs,
        .depth = cfg->vc_depth,
        .stages = cfg->router_stages,
        .iters = cfg->islip_iters,
    };
    gm_error e;
    if (gm_router_init(&x->router, &rc, &e) != 0) {
        gm_xbar_free(x);
        return gm_fail(err, "%s: %s", x->name, e.msg);
    }
    if (gm_router_ports_init(&x->rin, &x->rout, &rc, &e) != 0) {
        gm_xbar_free(x);
        return gm_fail(err, "%s: %s", x->name, e.msg);
    }
    x->inj = calloc(n_in, sizeof *x->inj);
    x->ej = calloc(n_out, sizeof *x->ej);
    x->inj_busy = calloc(GM_BITS_WORDS(n_in), sizeof *x->inj_busy);
    x->ej_busy = calloc(GM_BITS_WORDS(n_out), sizeof *x->ej_busy);
    x->st.in_flits = calloc(n_in, sizeof *x->st.in_flits);
    x->st.out_flits = calloc(n_out, sizeof *x->st.out_flits);
    x->st.in_stall = calloc(n_in, sizeof *x->st.in_stall);
    if (!x->inj || !x->ej || !x->inj_busy || !x->ej_busy || !x->st.in_flits ||
        !x->st.out_flits || !x->st.in_stall) {
        gm_xbar_free(x);
        return gm_fail(err, "%s: out of memory", x->name);
    }
    for (uint32_t i = 0; i < n_in; i++)
        if (gm_ni_inject_init(&x->inj[i], cfg->vcs, cfg->vc_depth,
                              cfg->inject_queue, n_out, &e) != 0) {
            gm_xbar_free(x);
            return gm_fail(err, "%s: %s", x->name, e.msg);
        }
    for (uint32_t j = 0; j < n_out; j++)
        if (gm_ni_eject_init(&x->ej[j], cfg->vcs, cfg->vc_depth,
                             cfg->eject_queue, &e) != 0) {
            gm_xbar_free(x);
            return gm_fail(err, "%s: %s", x->name, e.msg);
        }
    /* Enough handles for a full network of one-flit packets; grows if not. */
    uint32_t cap = n_in * (cfg->inject_queue + cfg->vcs * cfg->vc_depth) +
                   n_out * (cfg->eject_queue + cfg->vcs * cfg->vc_depth +
                            cfg->router_stages);
    if (gm_noc_pkts_init(&x->pkts, cap, &e) != 0) {
        gm_xbar_free(x);
        return gm_fail(err, "%s: %s", x->name, e.msg);
    }
    return 0;
}

void gm_xbar_free(gm_xbar *x)
{
    if (x->inj)
        for (uint32_t i = 0; i < x->n_in; i++)
            gm_ni_inject_free(&x->inj[i]);
    if (x->ej)
        for (uint32_t j = 0; j < x->n_out; j++)
            gm_ni_eject_free(&x->ej[j]);
    free(x->inj);
    free(x->ej);
    free(x->inj_busy);
    free(x->ej_busy);
    free(x->st.in_flits);
    free(x->st.out_flits);
    free(x->st.in_stall);
    gm_router_ports_free(&x->rin, &x->rout);
    free(x->twin_out.out);
    free(x->twin_out.in);
    gm_router_free(&x->router);
    gm_noc_pkts_free(&x->pkts);
    *x = (gm_xbar){0};
}

void gm_xbar_connect(gm_xbar *x, gm_xbar_ports ports)
{
    x->ports = ports;
}

static void set_busy(uint64_t *mask, uint32_t k, bool busy)
{
    if (busy)
        gm_bit_set(mask, k);
    else
        gm_bit_clear(mask, k);
}

/* Step 1 of a cycle: the Moore outputs of the NIs drive the router's
 * inputs. Returns whether any router input is valid. */
static bool drive_router_inputs(gm_xbar *x)
{
    bool any = false;
    for (uint32_t w = 0; w < GM_BITS_WORDS(x->n_in); w++)
        for (uint64_t b = x->inj_busy[w]; b; b &= b - 1) {
            uint32_t i = w * 64 + ctz64(b);
            gm_ni_inject_eval(&x->inj[i], &x->rin.in[i]);
            any |= x->rin.in[i].flit_valid;
        }
    for (uint32_t w = 0; w < GM_BITS_WORDS(x->n_out); w++)
        for (uint64_t b = x->ej_busy[w]; b; b &= b - 1) {
            uint32_t j = w * 64 + ctz64(b);
            gm_ni_eject_eval(&x->ej[j], &x->rin.out[j]);
            any |= x->rin.out[j].credit_valid;
        }
    return any;
}

static void tick_inject(gm_xbar *x, bool router_live)
{
    static const gm_router_credit none = {0};
    for (uint32_t w = 0; w < GM_BITS_WORDS(x->n_in); w++)
        for (uint64_t b = x->inj_busy[w]; b; b &= b - 1) {
            uint32_t i = w * 64 + ctz64(b);
            gm_ni_inject *ni = &x->inj[i];
            const gm_router_flit *f = &x->rin.in[i];
            if (f->flit_valid) {
                x->st.flits_in++;
                x->st.in_flits[i]++;
            } else if (ni->q_count) {
                x->st.in_stall[i]++;
            }
            gm_ni_inject_tick(ni, router_live ? &x->rout.in[i] : &none);
            x->rin.in[i] = (gm_router_flit){0};
            set_busy(x->inj_busy, i, !gm_ni_inject_idle(ni));
        }
}

static void accept_packets(gm_xbar *x, gm_time now)
{
    if (!x->ports.in)
        return;
    for (uint32_t i = 0; i < x->n_in; i++) {
        gm_link *l = x->ports.in[i];
        if (!l || gm_link_empty(l) || !gm_ni_inject_has_room(&x->inj[i]))
            continue;
        gm_req *r = gm_link_peek(l, now);
        if (!r)
            continue;
        uint32_t d = x->dest(r, x->ctx);
        if (d >= x->n_out) {
            /* Leave it in the link: the watchdog will find it, and the
             * drain check reports why. */
            if (!x->fault[0])
                snprintf(x->fault, sizeof x->fault,
                         "request %llu at input %u routed to output %u of %u",
                         (unsigned long long)r->id, i, d, x->n_out);
            continue;
        }
        uint32_t h = gm_noc_pkts_alloc(&x->pkts);
        if (h == UINT32_MAX) {
            if (!x->fault[0])
                snprintf(x->fault, sizeof x->fault, "packet table out of memory");
            continue;
        }
        gm_link_pop(l, now);
        gm_req_move(r, r->is_reply ? GM_LOC_NOC_REP : GM_LOC_NOC_REQ, i, now);
        uint32_t flits = gm_noc_packet_flits(&x->cfg, r);
        x->pkts.pkt[h] = (gm_noc_pkt){
            .req = r, .t_enter = x->st.cycles, .src = i, .dst = d, .flits = flits,
        };
        gm_ni_inject_push(&x->inj[i], h, d, flits);
        gm_bit_set(x->inj_busy, i);
        x->st.packets_in++;
    }
}

static void tick_eject_one(gm_xbar *x, uint32_t j, const gm_router_flit *f,
                           gm_time now)
{
    gm_ni_eject *ni = &x->ej[j];
    if (f && f->flit_valid) {
        x->st.flits_out++;
        x->st.out_flits[j]++;
    }
    gm_ni_eject_tick(ni, f);
    x->rin.out[j] = (gm_router_credit){0};
    uint32_t h;
    gm_link *l = x->ports.out ? x->ports.out[j] : 0;
    if (l && gm_ni_eject_front(ni, &h) && gm_link_can_push(l, now)) {
        gm_noc_pkt *p = &x->pkts.pkt[h];
        uint64_t lat = x->st.cycles - p->t_enter;
        x->st.lat_sum += lat;
        if (lat > x->st.lat_max)
            x->st.lat_max = lat;
        x->st.packets_out++;
        gm_link_push(l, p->req, now);
        gm_ni_eject_pop(ni);
        gm_noc_pkts_release(&x->pkts, h);
    }
    set_busy(x->ej_busy, j, !gm_ni_eject_idle(ni));
}

static void tick_eject(gm_xbar *x, bool router_live, gm_time now)
{
    if (router_live) {
        /* Arrivals can be at any output: look at all of them. */
        for (uint32_t j = 0; j < x->n_out; j++) {
            const gm_router_flit *f = &x->rout.out[j];
            if (f->flit_valid || gm_bit_test(x->ej_busy, j))
                tick_eject_one(x, j, f, now);
        }
        return;
    }
    for (uint32_t w = 0; w < GM_BITS_WORDS(x->n_out); w++)
        for (uint64_t b = x->ej_busy[w]; b; b &= b - 1)
            tick_eject_one(x, w * 64 + ctz64(b), 0, now);
}

/* One cycle: all Moore outputs (NIs, router), then every edge. */
/* Co-simulation: the twin is clocked every cycle (an RTL model has no
 * notion of skipping idle edges), its outputs drive the NIs, and the C
 * router is evaluated in shadow and compared field by field. */
static void tick_with_twin(gm_xbar *x, gm_time now)
{
    drive_router_inputs(x);
    gm_router_eval(&x->router, &x->rout);
    x->twin->eval(x->twin->ctx, &x->twin_out);
    if (x->twin->compare(x->twin->ctx, x->st.cycles - 1, &x->rout, &x->twin_out) != 0 &&
        !x->fault[0])
        snprintf(x->fault, sizeof x->fault,
                 "RTL twin diverged from the C router at network cycle %llu",
                 (unsigned long long)(x->st.cycles - 1));
    gm_router_tick(&x->router, &x->rin);
    x->twin->tick(x->twin->ctx, &x->rin);
    /* Swap so the NIs see what the RTL produced. */
    gm_router_out c_out = x->rout;
    x->rout = x->twin_out;
    tick_inject(x, true);
    tick_eject(x, true, now);
    x->twin_out = x->rout;
    x->rout = c_out;
    accept_packets(x, now);
}

void gm_xbar_tick(gm_xbar *x, gm_time now)
{
    x->st.cycles++;
    if (x->twin) {
        tick_with_twin(x, now);
        return;
    }
    bool router_live = !gm_router_idle(&x->router);
    bool inputs = drive_router_inputs(x);
    if (router_live)
        gm_router_eval(&x->router, &x->rout);
    if (router_live || inputs)
        gm_router_tick(&x->router, &x->rin);
    tick_inject(x, router_live);
    tick_eject(x, router_live, now);
    accept_packets(x, now);
}

int gm_xbar_attach_twin(gm_xbar *x, const gm_router_twin *twin, gm_error *err)
{
    x->twin_out.out = calloc(x->n_out, sizeof *x->twin_out.out);
    x->twin_out.in = calloc(x->n_in, sizeof *x->twin_out.in);
    if (!x->twin_out.out || !x->twin_out.in)
        return gm_fail(err, "%s: out of memory", x->name);
    x->twin = twin;
    return 0;
}

bool gm_xbar_busy(const gm_xbar *x)
{
    if (x->pkts.live || !gm_router_idle(&x->router))
        return true;
    for (uint32_t w = 0; w < GM_BITS_WORDS(x->n_in); w++)
        if (x->inj_busy[w])
            return true;
    for (uint32_t w = 0; w < GM_BITS_WORDS(x->n_out); w++)
        if (x->ej_busy[w])
            return true;
    return false;
}

void gm_xbar_skip_idle(gm_xbar *x, uint64_t edges)
{
    assert(!gm_xbar_busy(x));
    x->st.cycles += edges;
}

int gm_xbar_check_drained(const gm_xbar *x, gm_error *err)
{
    gm_error e;
    if (x->fault[0])
        return gm_fail(err, "%s: %s", x->name, x->fault);
    if (x->pkts.live || x->st.packets_in != x->st.packets_out)
        return gm_fail(err, "%s: %u packets inside (%llu in, %llu out)", x->name,
                       x->pkts.live, (unsigned long long)x->st.packets_in,
                       (unsigned long long)x->st.packets_out);
    for (uint32_t i = 0; i < x->n_in; i++) {
        const gm_ni_inject *ni = &x->inj[i];
        if (!gm_ni_inject_idle(ni))
            return gm_fail(err, "%s: injection NI %u holds %u packets, %u flits uncredited",
                           x->name, i, ni->q_count, ni->uncredited);
        for (uint32_t k = 0; k < ni->vcs; k++)
            if (ni->credit[k] != ni->depth)
                return gm_fail(err, "%s: injection NI %u VC %u has %u of %u credits",
                               x->name, i, k, ni->credit[k], ni->depth);
    }
    for (uint32_t j = 0; j < x->n_out; j++) {
        const gm_ni_eject *ni = &x->ej[j];
        if (ni->protocol_errors)
            return gm_fail(err, "%s: ejection NI %u saw %llu protocol errors",
                           x->name, j, (unsigned long long)ni->protocol_errors);
        if (!gm_ni_eject_idle(ni))
            return gm_fail(err, "%s: ejection NI %u holds %u flits, %u packets",
                           x->name, j, ni->f_count, ni->q_count);
        for (uint32_t k = 0; k < ni->vcs; k++)
            if (ni->asm_open[k])
                return gm_fail(err, "%s: ejection NI %u VC %u has a partial packet",
                               x->name, j, k);
    }
    if (gm_router_check_drained(&x->router, &e) != 0)
        return gm_fail(err, "%s: %s", x->name, e.msg);
    return 0;
}

void gm_xbar_foreach_req(const gm_xbar *x,
                         void (*fn)(const gm_req *r, void *arg), void *arg)
{
    for (uint32_t h = 0; h < x->pkts.cap; h++)
        if (x->pkts.pkt[h].req)
            fn(x->pkts.pkt[h].req, arg);
}

/* ---- locating a packet ---- */

typedef struct where_buf {
    char *buf;
    size_t len, used;
} where_buf;

static void where_add(where_buf *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void where_add(where_buf *w, const char *fmt, ...)
{
    if (w->used >= w->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(w->buf + w->used, w->len - w->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        w->used += (size_t)n;
}

typedef struct router_hits {
    uint32_t handle;
    where_buf *w;
} router_hits;

static void router_flit_hit(void *arg, gm_router_site site, uint32_t port,
                            uint32_t index, const gm_router_flit *f)
{
    router_hits *h = arg;
    if (f->flit_payload != h->handle)
        return;
    if (site == GM_ROUTER_SITE_INPUT)
        where_add(h->w, "; router in %u vc %u flit %u", port, index, f->flit_seq);
    else
        where_add(h->w, "; router out %u stage %u flit %u", port, index,
                  f->flit_seq);
}

bool gm_xbar_find_req(const gm_xbar *x, const gm_req *r, char *buf, size_t len)
{
    uint32_t h;
    for (h = 0; h < x->pkts.cap; h++)
        if (x->pkts.pkt[h].req == r)
            break;
    if (h == x->pkts.cap || len == 0)
        return h != x->pkts.cap;
    const gm_noc_pkt *p = &x->pkts.pkt[h];
    where_buf w = {buf, len, 0};
    buf[0] = 0;
    where_add(&w, "%s: packet %u (%u flits, input %u -> output %u, entered cycle %llu)",
              x->name, h, p->flits, p->src, p->dst,
              (unsigned long long)p->t_enter);
    const gm_ni_inject *in = &x->inj[p->src];
    for (uint32_t k = 0; k < in->q_count; k++)
        if (in->q[(in->q_head + k) % in->q_cap].handle == h)
            where_add(&w, "; inject NI %u queue[%u], %u flits sent", p->src, k,
                      k == 0 ? in->sent : 0);
    router_hits rh = {h, &w};
    gm_router_foreach_flit(&x->router, router_flit_hit, &rh);
    const gm_ni_eject *ej = &x->ej[p->dst];
    uint32_t cap = ej->vcs * ej->depth, held = 0;
    for (uint32_t k = 0; k < ej->f_count; k++)
        if (ej->fifo[(ej->f_head + k) % cap].flit_payload == h)
            held++;
    if (held)
        where_add(&w, "; eject NI %u buffer, %u flits", p->dst, held);
    for (uint32_t k = 0; k < ej->vcs; k++)
        if (ej->asm_open[k] && ej->asm_handle[k] == h)
            where_add(&w, "; eject NI %u reassembling on vc %u", p->dst, k);
    for (uint32_t k = 0; k < ej->q_count; k++)
        if (ej->q[(ej->q_head + k) % ej->q_cap] == h)
            where_add(&w, "; eject NI %u done queue[%u], waiting for link",
                      p->dst, k);
    return true;
}
