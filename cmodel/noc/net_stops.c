/* The ring-stop half of gm_net: a net whose blocks are ring stops
 * (noc/ringstop.h, docs/noc.md section 10). The stops take packets
 * straight from the source links and give them straight to the sink
 * links, so there are no NIs; channels carry whole packets (a channel slot
 * is a gm_router_flit whose flit_seq is the packet's last flit index, so
 * the channel code and the stuck-packet report read it as for routers). */
#include "noc/net_stops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* ---- description ---- */

bool gm_net_desc_has_stops(const gm_net_desc *d)
{
    for (uint32_t k = 0; k < d->n_routers; k++)
        if (d->routers[k].kind == GM_NET_BLOCK_RINGSTOP)
            return true;
    return false;
}

static int check_stop_channel(const gm_net_desc *d, uint32_t c, gm_error *err)
{
    const gm_net_channel_desc *ch = &d->channels[c];
    if (ch->from.port != 1 || ch->to.port != 1)
        return gm_fail(err, "%s: channel %u joins %s output %u to %s input %u; ring "
                            "stops join output 1 to input 1",
                       d->name, c, d->routers[ch->from.router].name, ch->from.port,
                       d->routers[ch->to.router].name, ch->to.port);
    if (ch->latency < 1)
        return gm_fail(err, "%s: channel %u between ring stops has latency 0; it must "
                            "be >= 1", d->name, c);
    return 0;
}

/* gm_net_desc_check has checked ports and routes; these are the rules the
 * stop adds. */
int gm_net_stops_desc_check(const gm_net_desc *d, gm_error *err)
{
    for (uint32_t k = 0; k < d->n_routers; k++) {
        const gm_net_router_desc *r = &d->routers[k];
        if (r->kind != GM_NET_BLOCK_RINGSTOP)
            return gm_fail(err, "%s: %s is a router among ring stops; a net is all "
                                "routers or all ring stops", d->name, r->name);
        bool alone = d->n_routers == 1;
        if (r->n_in != r->n_out || r->n_in != (alone ? 1u : 2u))
            return gm_fail(err, "%s: ring stop %s is %ux%u; it must be %s", d->name,
                           r->name, r->n_in, r->n_out, alone ? "1x1" : "2x2");
    }
    for (uint32_t i = 0; i < d->n_sources; i++)
        if (d->sources[i].port != 0)
            return gm_fail(err, "%s: source %u is on input %u of ring stop %s; it must "
                                "be input 0", d->name, i, d->sources[i].port,
                           d->routers[d->sources[i].router].name);
    for (uint32_t j = 0; j < d->n_sinks; j++)
        if (d->sinks[j].port != 0)
            return gm_fail(err, "%s: sink %u is on output %u of ring stop %s; it must "
                                "be output 0", d->name, j, d->sinks[j].port,
                           d->routers[d->sinks[j].router].name);
    for (uint32_t c = 0; c < d->n_channels; c++)
        if (check_stop_channel(d, c, err) != 0)
            return -1;
    return 0;
}

/* ---- building ---- */

int gm_net_stops_init(gm_net *n, gm_error *err)
{
    n->stops = calloc(n->n_routers, sizeof *n->stops);
    if (!n->stops)
        return gm_fail(err, "%s: out of memory", n->name);
    gm_error e;
    for (uint32_t k = 0; k < n->n_routers; k++) {
        n->stops[k].src = NONE;
        n->stops[k].sink = NONE;
        if (gm_ringstop_init(&n->stops[k].s, n->cfg.vc_depth, &e) != 0)
            return gm_fail(err, "%s: %s: %s (noc.vc_depth)", n->name,
                           n->routers[k].name, e.msg);
    }
    for (uint32_t i = 0; i < n->n_sources; i++)
        n->stops[n->src_at[i].router].src = i;
    for (uint32_t j = 0; j < n->n_sinks; j++)
        n->stops[n->sink_at[j].router].sink = j;
    return 0;
}

void gm_net_stops_free(gm_net *n)
{
    for (uint32_t k = 0; k < n->n_routers; k++)
        gm_ringstop_free(&n->stops[k].s);
    free(n->stops);
    n->stops = NULL;
}

/* ---- one network edge: the same order as for routers (eval, route
 * outputs to inputs, tick) ---- */

static uint8_t dest_at(const gm_net *n, uint32_t stop, uint32_t sink)
{
    return n->routers[stop].route[sink] == 0 ? GM_RINGSTOP_EJECT : GM_RINGSTOP_PASS;
}

static void drive_from_channels(gm_net *n)
{
    for (uint32_t c = 0; c < n->n_channels; c++) {
        gm_net_chan *ch = &n->chans[c];
        if (!ch->in_flight)
            continue;
        const gm_router_flit *f = &ch->fl[ch->pos];
        if (f->flit_valid) {
            gm_ringstop_in *in = &n->stops[ch->to].in;
            uint32_t h = f->flit_payload;
            in->ring_in_valid = 1;
            in->ring_in_payload = h;
            in->ring_in_flits = (uint8_t)(f->flit_seq + 1u);
            in->ring_in_dest = dest_at(n, ch->to, n->pkts.pkt[h].dst);
            n->st.chan_flits[c] += f->flit_seq + 1u;
        }
        if (ch->cr[ch->pos].credit_valid)
            n->stops[ch->from].in.ring_out_credit = 1;
    }
}

/* The stop's ejected packet goes to its sink link when the link has room;
 * the stop sees the link's room as ej_ready. */
static void eject(gm_net *n, gm_net_stop *S, gm_time now)
{
    gm_link *l = S->sink != NONE && n->ports.out ? n->ports.out[S->sink] : 0;
    bool ready = l && gm_link_can_push(l, now);
    S->in.ej_ready = ready;
    if (!S->out.ej_valid || !ready)
        return;
    uint32_t h = S->out.ej_payload;
    n->st.flits_out += n->pkts.pkt[h].flits;
    n->st.out_flits[S->sink] += n->pkts.pkt[h].flits;
    gm_net_push_packet(n, h, l, now);
}

static void fault(gm_net *n, const char *msg, uint32_t i, uint32_t d)
{
    if (!n->fault[0])
        snprintf(n->fault, sizeof n->fault, "%s (source %u, sink %u of %u)", msg, i, d,
                 n->n_sinks);
}

/* The head of the stop's source link is offered to the stop with a packet
 * handle; returns the handle, or NONE when nothing is offered. */
static uint32_t offer(gm_net *n, uint32_t k, gm_time now)
{
    gm_net_stop *S = &n->stops[k];
    gm_link *l = S->src != NONE && n->ports.in ? n->ports.in[S->src] : 0;
    gm_req *r = l && !gm_link_empty(l) ? gm_link_peek(l, now) : 0;
    if (!r)
        return NONE;
    uint32_t d = n->dest(r, n->ctx);
    uint32_t flits = gm_noc_packet_flits(&n->cfg, r);
    if (d >= n->n_sinks) {
        fault(n, "packet routed to no sink", S->src, d);
        return NONE;
    }
    if (dest_at(n, k, d) == GM_RINGSTOP_EJECT) {
        fault(n, "ring stop packet for the sink on its own stop", S->src, d);
        return NONE;
    }
    if (flits > GM_RINGSTOP_MAX_FLITS) {
        fault(n, "packet of more than 255 flits on a ring", S->src, d);
        return NONE;
    }
    uint32_t h = gm_noc_pkts_alloc(&n->pkts);
    if (h == NONE) {
        fault(n, "packet table out of memory", S->src, d);
        return NONE;
    }
    n->pkts.pkt[h] = (gm_noc_pkt){
        .req = r, .t_enter = n->st.cycles, .src = S->src, .dst = d, .flits = flits,
    };
    S->in.inj_valid = 1;
    S->in.inj_dest = GM_RINGSTOP_PASS;
    S->in.inj_flits = (uint8_t)flits;
    S->in.inj_payload = h;
    return h;
}

/* After the stop's edge: a taken packet leaves its link, an untaken one
 * gives its handle back. */
static void settle_offer(gm_net *n, uint32_t k, uint32_t h, gm_time now)
{
    gm_net_stop *S = &n->stops[k];
    uint32_t i = S->src;
    if (!S->s.inj_taken) {
        gm_noc_pkts_release(&n->pkts, h);
        n->st.in_stall[i]++;
        return;
    }
    gm_req *r = gm_link_pop(n->ports.in[i], now);
    gm_req_move(r, r->is_reply ? GM_LOC_NOC_REP : GM_LOC_NOC_REQ, i, now);
    n->st.packets_in++;
    n->st.flits_in += n->pkts.pkt[h].flits;
    n->st.in_flits[i] += n->pkts.pkt[h].flits;
}

/* Channel registers take this cycle's stop outputs. */
static void tick_channels(gm_net *n)
{
    for (uint32_t c = 0; c < n->n_channels; c++) {
        gm_net_chan *ch = &n->chans[c];
        const gm_ringstop_out *a = &n->stops[ch->from].out;
        const gm_ringstop_out *b = &n->stops[ch->to].out;
        if (!ch->in_flight && !a->ring_out_valid && !b->ring_in_credit)
            continue;
        gm_router_flit *sf = &ch->fl[ch->pos];
        gm_router_credit *sc = &ch->cr[ch->pos];
        ch->in_flight -= sf->flit_valid + sc->credit_valid;
        *sf = (gm_router_flit){0};
        if (a->ring_out_valid)
            *sf = (gm_router_flit){
                .flit_valid = 1, .flit_head = 1, .flit_tail = 1,
                .flit_seq = (uint8_t)(a->ring_out_flits - 1u),
                .flit_payload = a->ring_out_payload,
            };
        *sc = (gm_router_credit){.credit_valid = b->ring_in_credit};
        ch->in_flight += sf->flit_valid + sc->credit_valid;
        ch->pos = ch->pos + 1 == ch->latency ? 0 : ch->pos + 1;
    }
}

void gm_net_stops_tick(gm_net *n, gm_time now)
{
    for (uint32_t k = 0; k < n->n_routers; k++) {
        gm_ringstop_eval(&n->stops[k].s, &n->stops[k].out);
        n->stops[k].in = (gm_ringstop_in){0};
    }
    drive_from_channels(n);
    for (uint32_t k = 0; k < n->n_routers; k++) {
        gm_net_stop *S = &n->stops[k];
        eject(n, S, now);
        uint32_t h = offer(n, k, now);
        gm_ringstop_tick(&S->s, &S->in);
        if (h != NONE)
            settle_offer(n, k, h, now);
    }
    tick_channels(n);
}

bool gm_net_stops_busy(const gm_net *n)
{
    if (n->pkts.live)
        return true;
    for (uint32_t c = 0; c < n->n_channels; c++)
        if (n->chans[c].in_flight)
            return true;
    for (uint32_t k = 0; k < n->n_routers; k++)
        if (!gm_ringstop_idle(&n->stops[k].s))
            return true;
    return false;
}

int gm_net_stops_check_drained(const gm_net *n, gm_error *err)
{
    for (uint32_t k = 0; k < n->n_routers; k++) {
        const gm_ringstop *s = &n->stops[k].s;
        if (s->protocol_errors)
            return gm_fail(err, "%s: ring stop %s received %llu packets without a "
                                "credit", n->name, n->routers[k].name,
                           (unsigned long long)s->protocol_errors);
        if (s->count || s->out_valid || s->credit_q || s->credits != s->depth)
            return gm_fail(err, "%s: ring stop %s holds %u packets in its ring buffer, "
                                "%u in its output register, %u credits to send, %u of "
                                "%u credits", n->name, n->routers[k].name, s->count,
                           (unsigned)s->out_valid, (unsigned)s->credit_q, s->credits,
                           s->depth);
    }
    return 0;
}

typedef struct find_arg {
    const gm_net *n;
    uint32_t stop, handle;
    char *buf;
    size_t len, used;
} find_arg;

static void note_slot(void *arg, uint32_t slot, const gm_ringstop_pkt *p)
{
    find_arg *a = arg;
    if (p->payload != a->handle || a->used >= a->len)
        return;
    const char *name = a->n->routers[a->stop].name;
    const gm_ringstop *s = &a->n->stops[a->stop].s;
    int k = slot == s->depth
                ? snprintf(a->buf + a->used, a->len - a->used,
                           "; ring stop %s output register, %u cycles to its tail",
                           name, s->out_left)
                : snprintf(a->buf + a->used, a->len - a->used,
                           "; ring stop %s ring buffer[%u] (%s)", name, slot,
                           p->dest == GM_RINGSTOP_EJECT ? "for this stop's sink"
                                                        : "passing through");
    if (k > 0)
        a->used += (size_t)k;
}

size_t gm_net_stops_find(const gm_net *n, uint32_t handle, char *buf, size_t len,
                         size_t used)
{
    find_arg a = {n, 0, handle, buf, len, used};
    for (a.stop = 0; a.stop < n->n_routers; a.stop++)
        gm_ringstop_foreach(&n->stops[a.stop].s, note_slot, &a);
    return a.used < len ? a.used : len;
}
