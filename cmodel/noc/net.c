/* The general network: routers, channels and NIs from a description
 * (docs/noc.md section 9). */
#include "noc/net.h"
#include "noc/net_stops.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t ctz64(uint64_t x)
{
    return (uint32_t)__builtin_ctzll(x);
}

/* ---- building the network ---- */

static int check_cfg(const gm_noc_cfg *c, const char *name, gm_error *err)
{
    if (c->flit_bytes < 1)
        return gm_fail(err, "%s: noc.flit_bytes must be >= 1", name);
    if (c->inject_queue < 1 || c->eject_queue < 1)
        return gm_fail(err, "%s: noc.inject_queue and noc.eject_queue must be >= 1",
                       name);
    return 0;
}

static int init_router(gm_net *n, uint32_t k, const gm_net_desc *d, gm_error *err)
{
    gm_net_router *R = &n->routers[k];
    const gm_net_router_desc *rd = &d->routers[k];
    memcpy(R->name, rd->name, sizeof R->name);
    gm_router_cfg rc = {
        .n_in = rd->n_in,
        .n_out = rd->n_out,
        .vcs = n->cfg.vcs,
        .depth = n->cfg.vc_depth,
        .stages = n->cfg.router_stages,
        .iters = n->cfg.islip_iters,
    };
    gm_error e;
    if (rd->kind == GM_NET_BLOCK_RINGSTOP)
        R->r.cfg = rc;   /* names and port counts only: net_stops.c runs it */
    else if (gm_router_init(&R->r, &rc, &e) != 0 ||
        gm_router_ports_init(&R->in, &R->out, &rc, &e) != 0)
        return gm_fail(err, "%s: router %s: %s", n->name, R->name, e.msg);
    R->route = malloc(n->n_sinks * sizeof *R->route);
    uint32_t here = 0;
    for (uint32_t j = 0; j < n->n_sinks; j++)
        here += d->sinks[j].router == k;
    R->sinks = malloc((here ? here : 1) * sizeof *R->sinks);
    if (!R->route || !R->sinks)
        return gm_fail(err, "%s: out of memory", n->name);
    memcpy(R->route, d->route + (size_t)k * n->n_sinks,
           n->n_sinks * sizeof *R->route);
    for (uint32_t j = 0; j < n->n_sinks; j++)
        if (d->sinks[j].router == k)
            R->sinks[R->n_sinks++] = j;
    return 0;
}

static int init_parts(gm_net *n, const gm_net_desc *d, gm_error *err)
{
    const gm_noc_cfg *cfg = &n->cfg;
    n->routers = calloc(n->n_routers, sizeof *n->routers);
    n->chans = calloc(n->n_channels ? n->n_channels : 1, sizeof *n->chans);
    n->src_at = malloc(n->n_sources * sizeof *n->src_at);
    n->sink_at = malloc(n->n_sinks * sizeof *n->sink_at);
    n->src = malloc(n->n_sources * sizeof *n->src);
    n->sink = malloc(n->n_sinks * sizeof *n->sink);
    n->inj = calloc(n->n_sources, sizeof *n->inj);
    n->ej = calloc(n->n_sinks, sizeof *n->ej);
    n->inj_busy = calloc(GM_BITS_WORDS(n->n_sources), sizeof *n->inj_busy);
    n->ej_busy = calloc(GM_BITS_WORDS(n->n_sinks), sizeof *n->ej_busy);
    n->st.in_flits = calloc(n->n_sources, sizeof *n->st.in_flits);
    n->st.out_flits = calloc(n->n_sinks, sizeof *n->st.out_flits);
    n->st.in_stall = calloc(n->n_sources, sizeof *n->st.in_stall);
    n->st.chan_flits = calloc(n->n_channels ? n->n_channels : 1,
                              sizeof *n->st.chan_flits);
    if (!n->routers || !n->chans || !n->src_at || !n->sink_at || !n->src ||
        !n->sink || !n->inj ||
        !n->ej || !n->inj_busy || !n->ej_busy || !n->st.in_flits ||
        !n->st.out_flits || !n->st.in_stall || !n->st.chan_flits)
        return gm_fail(err, "%s: out of memory", n->name);
    memcpy(n->src_at, d->sources, n->n_sources * sizeof *n->src_at);
    memcpy(n->sink_at, d->sinks, n->n_sinks * sizeof *n->sink_at);
    for (uint32_t k = 0; k < n->n_routers; k++)
        if (init_router(n, k, d, err) != 0)
            return -1;
    for (uint32_t i = 0; i < n->n_sources; i++) {
        gm_net_router *R = &n->routers[n->src_at[i].router];
        n->src[i] = (gm_net_src){
            .router = R,
            .flit = &R->in.in[n->src_at[i].port],
            .credit = &R->out.in[n->src_at[i].port],
            .route = R->route,
        };
    }
    for (uint32_t j = 0; j < n->n_sinks; j++) {
        gm_net_router *R = &n->routers[n->sink_at[j].router];
        n->sink[j] = (gm_net_sink){
            .router = R,
            .credit = &R->in.out[n->sink_at[j].port],
            .flit = &R->out.out[n->sink_at[j].port],
        };
    }
    n->direct = n->n_routers == 1 && n->n_channels == 0;
    for (uint32_t i = 0; i < n->n_sources; i++)
        n->direct &= n->src_at[i].port == i;
    for (uint32_t j = 0; j < n->n_sinks; j++)
        n->direct &= n->sink_at[j].port == j;
    uint32_t in_chan = 0;   /* flits the channels can hold, for the packet table */
    for (uint32_t c = 0; c < n->n_channels; c++) {
        const gm_net_channel_desc *cd = &d->channels[c];
        gm_net_chan *ch = &n->chans[c];
        *ch = (gm_net_chan){
            .from = cd->from.router, .out_port = cd->from.port,
            .to = cd->to.router, .in_port = cd->to.port, .latency = cd->latency,
        };
        if (ch->latency) {
            ch->fl = calloc(ch->latency, sizeof *ch->fl);
            ch->cr = calloc(ch->latency, sizeof *ch->cr);
            if (!ch->fl || !ch->cr)
                return gm_fail(err, "%s: out of memory", n->name);
        }
        in_chan += cfg->vcs * cfg->vc_depth + cfg->router_stages + ch->latency;
    }
    gm_error e;
    const bool stops = gm_net_desc_has_stops(d);   /* stops need no NIs */
    for (uint32_t i = 0; i < n->n_sources && !stops; i++)
        if (gm_ni_inject_init(&n->inj[i], cfg->vcs, cfg->vc_depth, cfg->inject_queue,
                              n->routers[n->src_at[i].router].r.cfg.n_out, &e) != 0)
            return gm_fail(err, "%s: %s", n->name, e.msg);
    for (uint32_t j = 0; j < n->n_sinks && !stops; j++)
        if (gm_ni_eject_init(&n->ej[j], cfg->vcs, cfg->vc_depth, cfg->eject_queue,
                             &e) != 0)
            return gm_fail(err, "%s: %s", n->name, e.msg);
    /* Enough handles for a full network of one-flit packets (the crossbar
     * network's count, plus what channels hold); grows if not. */
    uint32_t cap = n->n_sources * (cfg->inject_queue + cfg->vcs * cfg->vc_depth) +
                   n->n_sinks * (cfg->eject_queue + cfg->vcs * cfg->vc_depth +
                                 cfg->router_stages) +
                   in_chan;
    if (gm_noc_pkts_init(&n->pkts, cap, &e) != 0)
        return gm_fail(err, "%s: %s", n->name, e.msg);
    if (stops)
        return gm_net_stops_init(n, err);
    return 0;
}

int gm_net_init(gm_net *n, const gm_net_desc *desc, const gm_noc_cfg *cfg,
                uint32_t (*dest)(const gm_req *r, void *ctx), void *ctx,
                gm_error *err)
{
    *n = (gm_net){0};
    snprintf(n->name, sizeof n->name, "%.*s", (int)GM_NET_NAME - 1,
             desc->name[0] ? desc->name : "net");
    if (check_cfg(cfg, n->name, err) != 0 || gm_net_desc_check(desc, err) != 0) {
        *n = (gm_net){0};
        return -1;
    }
    n->n_routers = desc->n_routers;
    n->n_channels = desc->n_channels;
    n->n_sources = desc->n_sources;
    n->n_sinks = desc->n_sinks;
    n->cfg = *cfg;
    n->dest = dest;
    n->ctx = ctx;
    if (init_parts(n, desc, err) != 0) {
        gm_net_free(n);
        return -1;
    }
    return 0;
}

void gm_net_free(gm_net *n)
{
    if (n->stops)
        gm_net_stops_free(n);
    if (n->routers)
        for (uint32_t k = 0; k < n->n_routers; k++) {
            gm_net_router *R = &n->routers[k];
            gm_router_free(&R->r);
            gm_router_ports_free(&R->in, &R->out);
            free(R->shadow.out);
            free(R->shadow.in);
            free(R->route);
            free(R->sinks);
        }
    if (n->chans)
        for (uint32_t c = 0; c < n->n_channels; c++) {
            free(n->chans[c].fl);
            free(n->chans[c].cr);
        }
    if (n->inj)
        for (uint32_t i = 0; i < n->n_sources; i++)
            gm_ni_inject_free(&n->inj[i]);
    if (n->ej)
        for (uint32_t j = 0; j < n->n_sinks; j++)
            gm_ni_eject_free(&n->ej[j]);
    free(n->routers);
    free(n->chans);
    free(n->src_at);
    free(n->sink_at);
    free(n->src);
    free(n->sink);
    free(n->inj);
    free(n->ej);
    free(n->inj_busy);
    free(n->ej_busy);
    free(n->st.in_flits);
    free(n->st.out_flits);
    free(n->st.in_stall);
    free(n->st.chan_flits);
    gm_noc_pkts_free(&n->pkts);
    *n = (gm_net){0};
}

void gm_net_connect(gm_net *n, gm_net_ports ports)
{
    n->ports = ports;
}

int gm_net_attach_twin(gm_net *n, uint32_t router, const gm_router_twin *twin,
                       gm_error *err)
{
    if (router >= n->n_routers)
        return gm_fail(err, "%s: no router %u to realize in RTL (it has %u)", n->name,
                       router, n->n_routers);
    if (n->stops)
        return gm_fail(err, "%s: %s is a ring stop, which has no RTL twin", n->name,
                       n->routers[router].name);
    gm_net_router *R = &n->routers[router];
    if (!R->shadow.out) {
        R->shadow.out = calloc(R->r.cfg.n_out, sizeof *R->shadow.out);
        R->shadow.in = calloc(R->r.cfg.n_in, sizeof *R->shadow.in);
        if (!R->shadow.out || !R->shadow.in)
            return gm_fail(err, "%s: out of memory", n->name);
    }
    R->twin = twin;
    return 0;
}

/* ---- one network edge ----
 *
 * As for every block (docs/noc.md section 1): first every Moore output
 * (NIs, channel registers, routers) is routed to the input it drives, then
 * everything ticks. Idle NIs, idle routers and empty channels are skipped
 * where their tick would change nothing.
 *
 * The NI helpers take `direct` as a constant: true for a net of one
 * router whose source i is input i and sink j output j (every crossbar),
 * where ports are found by index; false for the general case, where they
 * are found through n->src and n->sink. */

static void set_busy(uint64_t *mask, uint32_t k, bool busy)
{
    if (busy)
        gm_bit_set(mask, k);
    else
        gm_bit_clear(mask, k);
}

static void note_fault(gm_net *n, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note_fault(gm_net *n, const char *fmt, ...)
{
    if (n->fault[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->fault, sizeof n->fault, fmt, ap);
    va_end(ap);
}

/* A router is live when it is not idle at the start of the cycle; only
 * then are its outputs evaluated and read. An RTL twin is clocked every
 * cycle: it has no idle skip. */
static void mark_live(gm_net_router *R)
{
    R->live = R->twin || !gm_router_idle(&R->r);
    R->inputs = false;
}

/* The Moore outputs of the NIs drive their routers' ports. Returns
 * whether any is valid (and notes it per router when not direct). */
static inline bool drive_from_nis(gm_net *n, bool direct)
{
    gm_router_flit *const in0 = n->routers->in.in;
    gm_router_credit *const credit0 = n->routers->in.out;
    bool any = false;
    for (uint32_t w = 0; w < GM_BITS_WORDS(n->n_sources); w++)
        for (uint64_t b = n->inj_busy[w]; b; b &= b - 1) {
            uint32_t i = w * 64 + ctz64(b);
            if (!gm_ni_inject_may_send(&n->inj[i]))
                continue; /* nothing to send: its port was left 0 */
            gm_router_flit *f = direct ? &in0[i] : n->src[i].flit;
            gm_ni_inject_eval(&n->inj[i], f);
            any |= f->flit_valid;
            if (!direct)
                n->src[i].router->inputs |= f->flit_valid;
        }
    for (uint32_t w = 0; w < GM_BITS_WORDS(n->n_sinks); w++)
        for (uint64_t b = n->ej_busy[w]; b; b &= b - 1) {
            uint32_t j = w * 64 + ctz64(b);
            gm_router_credit *c = direct ? &credit0[j] : n->sink[j].credit;
            gm_ni_eject_eval(&n->ej[j], c);
            any |= c->credit_valid;
            if (!direct)
                n->sink[j].router->inputs |= c->credit_valid;
        }
    return any;
}

/* A flit reaches the input of channel c's downstream router. The head
 * flit's flit_dest there is that router's port for the packet's sink (the
 * packet table holds the sink); every flit gets it, as an injection NI
 * writes it on every flit. */
static void deliver_flit(gm_net *n, uint32_t c, const gm_router_flit *f)
{
    const gm_net_chan *ch = &n->chans[c];
    gm_net_router *B = &n->routers[ch->to];
    gm_router_flit *in = &B->in.in[ch->in_port];
    *in = *f;
    uint32_t h = f->flit_payload;
    if (h < n->pkts.cap && n->pkts.pkt[h].req) {
        in->flit_dest = B->route[n->pkts.pkt[h].dst];
    } else {
        /* Only a diverging RTL twin can do this; keep the router's input
         * legal and report it. */
        in->flit_dest = 0;
        note_fault(n, "flit of unknown packet %u on channel %u (%s -> %s)", h, c,
                   n->routers[ch->from].name, B->name);
    }
    B->inputs = true;
    n->st.chan_flits[c]++;
}

/* Channels with registers: the slot due this cycle drives both ends. */
static void drive_from_channels(gm_net *n)
{
    for (uint32_t c = 0; c < n->n_channels; c++) {
        gm_net_chan *ch = &n->chans[c];
        if (!ch->in_flight)
            continue;
        if (ch->fl[ch->pos].flit_valid)
            deliver_flit(n, c, &ch->fl[ch->pos]);
        if (ch->cr[ch->pos].credit_valid) {
            gm_net_router *A = &n->routers[ch->from];
            A->in.out[ch->out_port] = ch->cr[ch->pos];
            A->inputs = true;
        }
    }
}

static void eval_router(gm_net *n, gm_net_router *R)
{
    if (!R->twin) {
        gm_router_eval(&R->r, &R->out);
        return;
    }
    /* Co-simulation: the twin's outputs drive the network, the C router's
     * are compared with them field by field. */
    gm_router_eval(&R->r, &R->shadow);
    R->twin->eval(R->twin->ctx, &R->out);
    if (R->twin->compare(R->twin->ctx, n->st.cycles - 1, &R->shadow, &R->out) != 0)
        note_fault(n, "RTL twin of router %s diverged from the C router at "
                      "network cycle %llu",
                   R->name, (unsigned long long)(n->st.cycles - 1));
}

/* Channels without registers: the upstream output is the downstream
 * input this very cycle, and the downstream credit output the upstream
 * credit input. */
static void drive_wires(gm_net *n)
{
    for (uint32_t c = 0; c < n->n_channels; c++) {
        const gm_net_chan *ch = &n->chans[c];
        if (ch->latency)
            continue;
        gm_net_router *A = &n->routers[ch->from], *B = &n->routers[ch->to];
        if (A->live && A->out.out[ch->out_port].flit_valid)
            deliver_flit(n, c, &A->out.out[ch->out_port]);
        if (B->live && B->out.in[ch->in_port].credit_valid) {
            A->in.out[ch->out_port] = B->out.in[ch->in_port];
            A->inputs = true;
        }
    }
}

static void tick_router(gm_net_router *R, bool inputs)
{
    if (R->twin) {
        gm_router_tick(&R->r, &R->in);
        R->twin->tick(R->twin->ctx, &R->in);
    } else if (R->live || inputs) {
        gm_router_tick(&R->r, &R->in);
    }
}

/* Channel registers take this cycle's router outputs; router inputs that
 * channels drove are cleared for the next cycle. */
static void tick_channels(gm_net *n)
{
    static const gm_router_flit no_flit = {0};
    static const gm_router_credit no_credit = {0};
    for (uint32_t c = 0; c < n->n_channels; c++) {
        gm_net_chan *ch = &n->chans[c];
        gm_net_router *A = &n->routers[ch->from], *B = &n->routers[ch->to];
        B->in.in[ch->in_port] = no_flit;
        A->in.out[ch->out_port] = no_credit;
        if (!ch->latency)
            continue;
        const gm_router_flit *f = A->live ? &A->out.out[ch->out_port] : &no_flit;
        const gm_router_credit *cr = B->live ? &B->out.in[ch->in_port] : &no_credit;
        if (!ch->in_flight && !f->flit_valid && !cr->credit_valid)
            continue; /* every slot empty and stays so */
        gm_router_flit *sf = &ch->fl[ch->pos];
        gm_router_credit *sc = &ch->cr[ch->pos];
        ch->in_flight -= sf->flit_valid + sc->credit_valid;
        *sf = *f;
        *sc = *cr;
        ch->in_flight += sf->flit_valid + sc->credit_valid;
        ch->pos = ch->pos + 1 == ch->latency ? 0 : ch->pos + 1;
    }
}

static inline void tick_inject(gm_net *n, bool direct)
{
    static const gm_router_credit none = {0};
    gm_router_flit *const in0 = n->routers->in.in;
    const gm_router_credit *const credit0 = n->routers->out.in;
    const bool live0 = n->routers->live;
    for (uint32_t w = 0; w < GM_BITS_WORDS(n->n_sources); w++)
        for (uint64_t b = n->inj_busy[w]; b; b &= b - 1) {
            uint32_t i = w * 64 + ctz64(b);
            gm_ni_inject *ni = &n->inj[i];
            gm_router_flit *f = direct ? &in0[i] : n->src[i].flit;
            bool live = direct ? live0 : n->src[i].router->live;
            const gm_router_credit *cr = direct ? &credit0[i] : n->src[i].credit;
            if (!live)
                cr = &none;
            if (!ni->q_count && !cr->credit_valid)
                continue; /* waits for credits, none came: no change */
            if (f->flit_valid) {
                n->st.flits_in++;
                n->st.in_flits[i]++;
            } else if (ni->q_count) {
                n->st.in_stall[i]++;
            }
            gm_ni_inject_tick(ni, f, cr);
            *f = (gm_router_flit){0};
            set_busy(n->inj_busy, i, !gm_ni_inject_idle(ni));
        }
}

void gm_net_push_packet(gm_net *n, uint32_t h, gm_link *l, gm_time now)
{
    gm_noc_pkt *p = &n->pkts.pkt[h];
    uint64_t lat = n->st.cycles - p->t_enter;
    n->st.lat_sum += lat;
    if (lat > n->st.lat_max)
        n->st.lat_max = lat;
    n->st.packets_out++;
    gm_link_push(l, p->req, now);
    gm_noc_pkts_release(&n->pkts, h);
}

/* Sink j's edge: f is the flit its router presents (NULL when the router
 * is idle), cr the router input its credit drove this cycle. Then the
 * oldest complete packet goes to the link if it has room. */
static inline void tick_eject_one(gm_net *n, uint32_t j, const gm_router_flit *f,
                                  gm_router_credit *cr, gm_time now)
{
    gm_ni_eject *ni = &n->ej[j];
    if (f && f->flit_valid) {
        n->st.flits_out++;
        n->st.out_flits[j]++;
    }
    gm_ni_eject_tick(ni, f);
    *cr = (gm_router_credit){0};
    uint32_t h;
    gm_link *l = n->ports.out ? n->ports.out[j] : 0;
    if (l && gm_ni_eject_front(ni, &h) && gm_link_can_push(l, now)) {
        gm_net_push_packet(n, h, l, now);
        gm_ni_eject_pop(ni);
    }
    set_busy(n->ej_busy, j, !gm_ni_eject_idle(ni));
}

/* Sinks of live routers may receive a flit: all of them are looked at;
 * of the others only the busy ones. */
static void tick_eject_direct(gm_net *n, gm_time now)
{
    const gm_router_flit *out = n->routers->out.out;
    gm_router_credit *credit = n->routers->in.out;
    const uint32_t ns = n->n_sinks;
    if (n->routers->live) {
        for (uint32_t j = 0; j < ns; j++)
            if (out[j].flit_valid || gm_bit_test(n->ej_busy, j))
                tick_eject_one(n, j, &out[j], &credit[j], now);
        return;
    }
    for (uint32_t w = 0; w < GM_BITS_WORDS(ns); w++)
        for (uint64_t b = n->ej_busy[w]; b; b &= b - 1) {
            uint32_t j = w * 64 + ctz64(b);
            tick_eject_one(n, j, 0, &credit[j], now);
        }
}

static void tick_eject(gm_net *n, gm_time now)
{
    bool idle_sinks = false;
    for (uint32_t k = 0; k < n->n_routers; k++) {
        const gm_net_router *R = &n->routers[k];
        if (!R->live) {
            idle_sinks |= R->n_sinks > 0;
            continue;
        }
        for (uint32_t s = 0; s < R->n_sinks; s++) {
            uint32_t j = R->sinks[s];
            const gm_router_flit *f = n->sink[j].flit;
            if (f->flit_valid || gm_bit_test(n->ej_busy, j))
                tick_eject_one(n, j, f, n->sink[j].credit, now);
        }
    }
    if (!idle_sinks)
        return;
    for (uint32_t w = 0; w < GM_BITS_WORDS(n->n_sinks); w++)
        for (uint64_t b = n->ej_busy[w]; b; b &= b - 1) {
            uint32_t j = w * 64 + ctz64(b);
            if (!n->sink[j].router->live)
                tick_eject_one(n, j, 0, n->sink[j].credit, now);
        }
}

/* Source i's link shows a packet: take it if the NI has room. */
static void accept_one(gm_net *n, uint32_t i, gm_link *l, gm_time now)
{
    if (!gm_ni_inject_has_room(&n->inj[i]))
        return;
    gm_req *r = gm_link_peek(l, now);
    if (!r)
        return;
    uint32_t d = n->dest(r, n->ctx);
    if (d >= n->n_sinks) {
        /* Leave it in the link: the watchdog will find it, and the drain
         * check reports why. */
        note_fault(n, "request %llu at source %u routed to sink %u of %u",
                   (unsigned long long)r->id, i, d, n->n_sinks);
        return;
    }
    uint32_t h = gm_noc_pkts_alloc(&n->pkts);
    if (h == UINT32_MAX) {
        note_fault(n, "packet table out of memory");
        return;
    }
    gm_link_pop(l, now);
    gm_req_move(r, r->is_reply ? GM_LOC_NOC_REP : GM_LOC_NOC_REQ, i, now);
    uint32_t flits = gm_noc_packet_flits(&n->cfg, r);
    n->pkts.pkt[h] = (gm_noc_pkt){
        .req = r, .t_enter = n->st.cycles, .src = i, .dst = d, .flits = flits,
    };
    gm_ni_inject_push(&n->inj[i], h, n->src[i].route[d], flits);
    gm_bit_set(n->inj_busy, i);
    n->st.packets_in++;
}

/* Every source link is looked at every edge (the producers are outside),
 * so the scan is kept to two loads per source. */
static void accept_packets(gm_net *n, gm_time now)
{
    gm_link *const *in = n->ports.in;
    if (!in)
        return;
    const uint32_t ns = n->n_sources;
    for (uint32_t i = 0; i < ns; i++) {
        gm_link *l = in[i];
        if (l && !gm_link_empty(l))
            accept_one(n, i, l, now);
    }
}

/* One router, source i on input i, sink j on output j: every crossbar,
 * the case the sweeps run most. */
static void tick_direct(gm_net *n, gm_time now)
{
    gm_net_router *R = n->routers;
    mark_live(R);
    bool inputs = drive_from_nis(n, true);
    if (R->live)
        eval_router(n, R);
    tick_router(R, inputs);
    tick_inject(n, true);
    tick_eject_direct(n, now);
}

static void tick_general(gm_net *n, gm_time now)
{
    for (uint32_t k = 0; k < n->n_routers; k++)
        mark_live(&n->routers[k]);
    drive_from_nis(n, false);
    drive_from_channels(n);
    for (uint32_t k = 0; k < n->n_routers; k++)
        if (n->routers[k].live)
            eval_router(n, &n->routers[k]);
    drive_wires(n);
    for (uint32_t k = 0; k < n->n_routers; k++)
        tick_router(&n->routers[k], n->routers[k].inputs);
    tick_channels(n);
    tick_inject(n, false);
    tick_eject(n, now);
}

void gm_net_tick(gm_net *n, gm_time now)
{
    n->st.cycles++;
    if (n->stops) {
        gm_net_stops_tick(n, now);
        return;
    }
    if (n->direct)
        tick_direct(n, now);
    else
        tick_general(n, now);
    accept_packets(n, now);
}

bool gm_net_busy(const gm_net *n)
{
    if (n->stops)
        return gm_net_stops_busy(n);
    if (n->pkts.live)
        return true;
    for (uint32_t k = 0; k < n->n_routers; k++)
        if (!gm_router_idle(&n->routers[k].r))
            return true;
    for (uint32_t c = 0; c < n->n_channels; c++)
        if (n->chans[c].in_flight)
            return true;
    for (uint32_t w = 0; w < GM_BITS_WORDS(n->n_sources); w++)
        if (n->inj_busy[w])
            return true;
    for (uint32_t w = 0; w < GM_BITS_WORDS(n->n_sinks); w++)
        if (n->ej_busy[w])
            return true;
    return false;
}

void gm_net_skip_idle(gm_net *n, uint64_t edges)
{
    assert(!gm_net_busy(n));
    n->st.cycles += edges;
}

/* ---- drain check and locating packets ---- */

static int check_nis_drained(const gm_net *n, gm_error *err)
{
    for (uint32_t i = 0; i < n->n_sources; i++) {
        const gm_ni_inject *ni = &n->inj[i];
        const char *rn = n->routers[n->src_at[i].router].name;
        if (!gm_ni_inject_idle(ni))
            return gm_fail(err, "%s: injection NI %u (%s input %u) holds %u packets, "
                                "%u flits uncredited",
                           n->name, i, rn, n->src_at[i].port, ni->q_count,
                           ni->uncredited);
        for (uint32_t k = 0; k < ni->vcs; k++)
            if (ni->credit[k] != ni->depth)
                return gm_fail(err, "%s: injection NI %u VC %u has %u of %u credits",
                               n->name, i, k, ni->credit[k], ni->depth);
    }
    for (uint32_t j = 0; j < n->n_sinks; j++) {
        const gm_ni_eject *ni = &n->ej[j];
        if (ni->protocol_errors)
            return gm_fail(err, "%s: ejection NI %u saw %llu protocol errors", n->name,
                           j, (unsigned long long)ni->protocol_errors);
        if (!gm_ni_eject_idle(ni))
            return gm_fail(err, "%s: ejection NI %u (%s output %u) holds %u flits, "
                                "%u packets",
                           n->name, j, n->routers[n->sink_at[j].router].name,
                           n->sink_at[j].port, ni->f_count, ni->q_count);
        for (uint32_t k = 0; k < ni->vcs; k++)
            if (ni->asm_open[k])
                return gm_fail(err, "%s: ejection NI %u VC %u has a partial packet",
                               n->name, j, k);
    }
    return 0;
}

int gm_net_check_drained(const gm_net *n, gm_error *err)
{
    gm_error e;
    if (n->fault[0])
        return gm_fail(err, "%s: %s", n->name, n->fault);
    if (n->pkts.live || n->st.packets_in != n->st.packets_out)
        return gm_fail(err, "%s: %u packets inside (%llu in, %llu out)", n->name,
                       n->pkts.live, (unsigned long long)n->st.packets_in,
                       (unsigned long long)n->st.packets_out);
    if (check_nis_drained(n, err) != 0)
        return -1;
    for (uint32_t c = 0; c < n->n_channels; c++) {
        const gm_net_chan *ch = &n->chans[c];
        if (ch->in_flight)
            return gm_fail(err, "%s: channel %u (%s output %u -> %s input %u) carries "
                                "%u flits and credits",
                           n->name, c, n->routers[ch->from].name, ch->out_port,
                           n->routers[ch->to].name, ch->in_port, ch->in_flight);
    }
    if (n->stops)
        return gm_net_stops_check_drained(n, err);
    for (uint32_t k = 0; k < n->n_routers; k++)
        if (gm_router_check_drained(&n->routers[k].r, &e) != 0) {
            if (n->n_routers == 1)
                return gm_fail(err, "%s: %s", n->name, e.msg);
            return gm_fail(err, "%s: %s: %s", n->name, n->routers[k].name, e.msg);
        }
    return 0;
}

void gm_net_foreach_req(const gm_net *n,
                        void (*fn)(const gm_req *r, void *arg), void *arg)
{
    for (uint32_t h = 0; h < n->pkts.cap; h++)
        if (n->pkts.pkt[h].req)
            fn(n->pkts.pkt[h].req, arg);
}

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
    int k = vsnprintf(w->buf + w->used, w->len - w->used, fmt, ap);
    va_end(ap);
    if (k > 0)
        w->used += (size_t)k;
}

typedef struct router_hits {
    uint32_t handle;
    const char *router;   /* "" for a one-router net, else "<name> " */
    where_buf *w;
} router_hits;

static void router_flit_hit(void *arg, gm_router_site site, uint32_t port,
                            uint32_t index, const gm_router_flit *f)
{
    router_hits *h = arg;
    if (f->flit_payload != h->handle)
        return;
    if (site == GM_ROUTER_SITE_INPUT)
        where_add(h->w, "; router %sin %u vc %u flit %u", h->router, port, index,
                  f->flit_seq);
    else
        where_add(h->w, "; router %sout %u stage %u flit %u", h->router, port, index,
                  f->flit_seq);
}

static void find_in_channels(const gm_net *n, uint32_t h, where_buf *w)
{
    for (uint32_t c = 0; c < n->n_channels; c++) {
        const gm_net_chan *ch = &n->chans[c];
        for (uint32_t s = 0; s < ch->latency; s++) {
            const gm_router_flit *f = &ch->fl[s];
            if (f->flit_valid && f->flit_payload == h)
                where_add(w, "; channel %u %s.out%u->%s.in%u vc %u flit %u", c,
                          n->routers[ch->from].name, ch->out_port,
                          n->routers[ch->to].name, ch->in_port, f->flit_vc,
                          f->flit_seq);
        }
    }
}

static void find_in_eject(const gm_ni_eject *ej, uint32_t sink, uint32_t h,
                          where_buf *w)
{
    uint32_t cap = ej->vcs * ej->depth, held = 0;
    for (uint32_t k = 0; k < ej->f_count; k++)
        if (ej->fifo[(ej->f_head + k) % cap].flit_payload == h)
            held++;
    if (held)
        where_add(w, "; eject NI %u buffer, %u flits", sink, held);
    for (uint32_t k = 0; k < ej->vcs; k++)
        if (ej->asm_open[k] && ej->asm_handle[k] == h)
            where_add(w, "; eject NI %u reassembling on vc %u", sink, k);
    for (uint32_t k = 0; k < ej->q_count; k++)
        if (ej->q[(ej->q_head + k) % ej->q_cap] == h)
            where_add(w, "; eject NI %u done queue[%u], waiting for link", sink, k);
}

bool gm_net_find_req(const gm_net *n, const gm_req *r, char *buf, size_t len)
{
    uint32_t h;
    for (h = 0; h < n->pkts.cap; h++)
        if (n->pkts.pkt[h].req == r)
            break;
    if (h == n->pkts.cap || len == 0)
        return h != n->pkts.cap;
    const gm_noc_pkt *p = &n->pkts.pkt[h];
    where_buf w = {buf, len, 0};
    buf[0] = 0;
    where_add(&w, "%s: packet %u (%u flits, source %u -> sink %u, entered cycle %llu)",
              n->name, h, p->flits, p->src, p->dst, (unsigned long long)p->t_enter);
    const gm_ni_inject *in = &n->inj[p->src];
    for (uint32_t k = 0; k < in->q_count; k++)
        if (in->q[(in->q_head + k) % in->q_cap].handle == h)
            where_add(&w, "; inject NI %u queue[%u], %u flits sent", p->src, k,
                      k == 0 ? in->sent : 0);
    if (n->stops)
        w.used = gm_net_stops_find(n, h, buf, len, w.used);
    for (uint32_t k = 0; k < n->n_routers && !n->stops; k++) {
        char label[GM_NET_NAME + 1] = "";
        if (n->n_routers > 1)
            snprintf(label, sizeof label, "%s ", n->routers[k].name);
        router_hits rh = {h, label, &w};
        gm_router_foreach_flit(&n->routers[k].r, router_flit_hit, &rh);
    }
    find_in_channels(n, h, &w);
    find_in_eject(&n->ej[p->dst], p->dst, h, &w);
    return true;
}
