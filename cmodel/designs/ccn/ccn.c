/* The CCN design: build, the per-cycle work of the nodes, statistics
 * (docs/designs/ccn.md). */
#include "designs/ccn/ccn.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cache/l1d.h"
#include "designs/ccn/ccn_node.h"
#include "designs/ccn/ccn_rt.h"
#include "designs/ccn/ccn_shadow.h"
#include "designs/common.h"
#include "noc/net.h"
#include "system/system.h"

typedef struct ccn_stats {
    uint64_t injected;        /* load misses that entered a ReqQ from a CCN buffer */
    uint64_t hits;            /* answered by a remote L1 */
    uint64_t misses;          /* went round the ring and on to L2 */
    uint64_t ideal_hits;      /* variant ideal: found in another L1 at the miss */
    uint64_t to_l2_cb_full;   /* load misses sent to L2 because the CCN buffer was full */
    uint64_t to_l2_throttled; /* load misses sent to L2 by the throttler */
    uint64_t to_l2_cb_timeout;/* CCN buffer heads that gave up on the ring (cb_timeout) */
    uint64_t lookups;         /* shadow-tag lookups */
    uint64_t stale_hits;      /* shadow hits on a line the L1 dropped in the same cycle */
    uint64_t stolen_cycles;   /* L1 data-array cycles taken by remote hits */
    uint64_t reqq_occ_sum;    /* ReqQ entries summed over cycles and nodes */
    uint64_t respq_occ_sum;
    uint64_t cb_occ_sum;
    uint64_t reqq_stall;      /* node-cycles the ReqQ head could not move */
    uint64_t reqq_stall_respq;/* ... because its hit found no RespQ room */
    uint64_t reqq_stall_port; /* ... because the L1 data port was busy */
    uint64_t respq_stall;     /* node-cycles the RespQ head could not move */
    uint64_t reuse_lat_sum;   /* CCN buffer entry to delivery at the L1, core cycles */
    uint64_t cycles;
} ccn_stats;

typedef struct ccn_node {
    gm_ccn_q cb, reqq, respq, ideal;
    gm_shadow_tags st;
    gm_shadow_tags_in st_in;  /* this cycle's inputs, filled as the L1 writes */
    uint32_t nwrites;         /* tag updates recorded this cycle */
    bool lk_wait;             /* the ReqQ head's lookup is answered this cycle */
    const gm_shadow_twin *twin; /* co-simulation: the RTL answers, the C runs in shadow */
    gm_shadow_tags_out out;   /* the shadow tags' outputs this cycle (the twin's if any) */
    gm_ccn_rt rt;
    struct ccn *d;
    uint32_t id;
} ccn_node;

typedef struct ccn {
    gm_system *s;
    gm_ccn_cfg cfg;
    uint32_t n, nslices;
    uint32_t sets, line_shift;
    gm_l1d *l1;               /* [n] */
    ccn_node *node;           /* [n] */
    gm_link *l1_miss;         /* [n] L1 miss queue -> node */
    gm_link *l1_fill;         /* [n] node -> L1 fills */
    gm_link *to_l2;           /* [n] node -> request crossbar */
    gm_link *from_l2;         /* [n] reply crossbar -> node */
    gm_link *rq_in, *rq_out;  /* [n] request ring injection / ejection */
    gm_link *rs_in, *rs_out;  /* [n] response ring */
    gm_link **ring_ptrs;      /* [4n] port arrays of both rings */
    gm_core_l2_ports ports;
    gm_net req_net, rep_net;  /* crossbars to and from L2 */
    gm_net rq_net, rs_net;    /* the CCN rings */
    uint64_t *hops;           /* [2n] serviced requests by total hops */
    bool *l2_used;            /* [n] this cycle's request to L2 is taken (one per cycle) */
    uint64_t cycle;
    ccn_stats st;
    char fault[200];
} ccn;

/* ---- shadow-tag writes: the L1 tag array's observer ---------------------- */

static uint64_t line_tag(const ccn *d, uint64_t addr)
{
    return (addr >> d->line_shift) / d->sets;
}

static void set_fault(ccn *d, const char *what, uint32_t node)
{
    if (d->fault[0])
        return;
    snprintf(d->fault, sizeof d->fault, "ccn node %u: %s", node, what);
    gm_system_request_stop(d->s, d->fault);
}

static void on_tag_update(void *ctx, int32_t idx, const gm_tag_line *l)
{
    ccn_node *nd = ctx;
    ccn *d = nd->d;
    uint32_t assoc = nd->st.ways;
    uint16_t set = (uint16_t)((uint32_t)idx / assoc);
    uint8_t way = (uint8_t)((uint32_t)idx % assoc);
    uint64_t tag = l->used ? line_tag(d, l->addr) : 0;
    if (tag >> d->cfg.tag_bits) {
        set_fault(d, "a line's tag does not fit [ccn] tag_bits", nd->id);
        return;
    }
    gm_shadow_tags_in *in = &nd->st_in;
    if (nd->nwrites == 0) {
        in->wr0_valid = 1, in->wr0_set = set, in->wr0_way = way;
        in->wr0_tag_valid = l->used, in->wr0_tag = tag;
    } else if (nd->nwrites == 1) {
        in->wr1_valid = 1, in->wr1_set = set, in->wr1_way = way;
        in->wr1_tag_valid = l->used, in->wr1_tag = tag;
    } else {
        set_fault(d, "more than two L1 tag updates in one cycle", nd->id);
    }
    nd->nwrites++;
}

/* ---- ring packets ------------------------------------------------------- */

static uint32_t at_node(const ccn *d, const gm_req *r)
{
    uint32_t p = r->src + gm_ccn_req_hops(r) + d->n - gm_ccn_resp_hops(r) % d->n;
    return p % d->n;
}

/* Both rings deliver to the node the packet's hop fields now name: the
 * sender has counted the hop before sending. */
static uint32_t ring_dest(const gm_req *r, void *ctx)
{
    return at_node(ctx, r);
}

/* ---- one core cycle of every node --------------------------------------- */

static bool send_to_l2(ccn *d, uint32_t k, gm_req *r, bool *used, gm_time now)
{
    if (*used || !gm_link_can_push(&d->to_l2[k], now))
        return false;
    *used = true;
    gm_req_move(r, GM_LOC_NODE, k, now);
    gm_link_push(&d->to_l2[k], r, now);
    return true;
}

static void count_delivery(ccn *d, const gm_req *r, gm_time now)
{
    uint32_t h = gm_ccn_req_hops(r) + gm_ccn_resp_hops(r);
    d->hops[h < 2 * d->n ? h : 2 * d->n - 1]++;
    uint64_t period = gm_system_core_period(d->s);
    d->st.reuse_lat_sum += (now - r->t_mark) / period;
}

/* The L1's fill link takes one reply per cycle: an ideal remote hit, a
 * response home from the ring, then a reply from L2. */
static void deliver(ccn *d, uint32_t k, gm_time now)
{
    ccn_node *nd = &d->node[k];
    gm_link *fill = &d->l1_fill[k];
    if (!gm_link_can_push(fill, now))
        return;
    gm_req *r = gm_ccn_q_head(&nd->ideal);
    if (r) {
        gm_ccn_q_pop(&nd->ideal);
        gm_link_push(fill, r, now);
        return;
    }
    r = gm_ccn_q_head(&nd->respq);
    if (r && r->src == k) {
        gm_ccn_q_pop(&nd->respq);
        count_delivery(d, r, now);
        gm_req_move(r, GM_LOC_NODE, k, now);
        gm_link_push(fill, r, now);
        return;
    }
    r = gm_link_peek(&d->from_l2[k], now);
    if (r) {
        gm_link_pop(&d->from_l2[k], now);
        gm_link_push(fill, r, now);
    }
}

static bool need_slot(gm_ccn_q *q, bool is_new)
{
    bool a, b;
    gm_ccn_grant(gm_ccn_q_unreserved(q), true, is_new, false, false, &a, &b);
    return a;
}

/* Phase A: the ReqQ head (its forward is the preferred writer of the next
 * ReqQ, its response the preferred writer of this RespQ). */
static void reqq_head(ccn *d, uint32_t k, bool *l2_used, gm_time now)
{
    ccn_node *nd = &d->node[k];
    gm_req *r = gm_ccn_q_head(&nd->reqq);
    gm_shadow_tags_out so = nd->out;
    gm_ccn_head_in in = {.present = r != NULL};
    if (r) {
        in.at_home = r->src == k;
        in.went_round = gm_ccn_req_hops(r) > 0;
        in.answer = nd->lk_wait && so.lk_done;
        if (in.answer && so.lk_hit) {
            /* The L1 may have dropped the line this cycle, before the
             * shadow copy is written: such a hit is a miss. */
            in.hit = gm_tag_probe(&d->l1[k].tags, r->addr) >= 0;
            if (!in.hit)
                d->st.stale_hits++;
        }
        in.respq_room = need_slot(&nd->respq, true);
        in.port_free = !gm_cache_port_busy(&d->l1[k].e, now);
    }
    gm_ccn_head action = gm_ccn_head_action(&in);
    nd->lk_wait = false;
    bool moved = false;
    switch (action) {
    case GM_CCN_HEAD_NONE:
        return;
    case GM_CCN_HEAD_TO_L2:
        if (send_to_l2(d, k, r, l2_used, now)) {
            gm_ccn_q_pop(&nd->reqq);
            d->st.misses++;
            moved = true;
        }
        break;
    case GM_CCN_HEAD_FORWARD: {
        ccn_node *next = &d->node[(k + 1) % d->n];
        if (need_slot(&next->reqq, false) && gm_link_can_push(&d->rq_in[k], now)) {
            gm_ccn_q_pop(&nd->reqq);
            next->reqq.resv++;
            r->block_handle++;
            gm_req_move(r, GM_LOC_NODE, k, now);
            gm_link_push(&d->rq_in[k], r, now);
            moved = true;
        }
        break;
    }
    case GM_CCN_HEAD_RESPOND: {
        gm_ccn_q_pop(&nd->reqq);
        gm_cache_use_port(&d->l1[k].e, d->cfg.steal_cycles, now);
        d->st.stolen_cycles += d->cfg.steal_cycles;
        d->st.hits++;
        gm_ccn_rt_hit(&d->node[r->src].rt);
        nd->respq.resv++;
        r->is_reply = 1;
        gm_req_move(r, GM_LOC_NODE, k, now);
        gm_ccn_q_push(&nd->respq, r);
        moved = true;
        break;
    }
    case GM_CCN_HEAD_STALL_RESPQ:
        d->st.reqq_stall_respq++;
        break;
    case GM_CCN_HEAD_STALL_PORT:
        d->st.reqq_stall_port++;
        break;
    case GM_CCN_HEAD_LOOKUP:
        break;
    }
    if (moved)
        return;
    if (action != GM_CCN_HEAD_LOOKUP)
        d->st.reqq_stall++;
    if (!in.at_home) {
        /* (Re)present the lookup: the answer is for one cycle only. */
        nd->st_in.lk_valid = 1;
        nd->st_in.lk_set = (uint16_t)((r->addr >> d->line_shift) % d->sets);
        nd->st_in.lk_tag = line_tag(d, r->addr);
        nd->lk_wait = true;
        d->st.lookups++;
    }
}

/* Phase B: the RespQ head forwards towards its home (the other writer of
 * the previous RespQ). */
static void respq_head(ccn *d, uint32_t k, gm_time now)
{
    ccn_node *nd = &d->node[k];
    gm_req *r = gm_ccn_q_head(&nd->respq);
    if (!r || r->src == k)
        return;
    ccn_node *prev = &d->node[(k + d->n - 1) % d->n];
    if (need_slot(&prev->respq, false) && gm_link_can_push(&d->rs_in[k], now)) {
        gm_ccn_q_pop(&nd->respq);
        prev->respq.resv++;
        r->block_handle += 1u << 16;
        gm_req_move(r, GM_LOC_NODE, k, now);
        gm_link_push(&d->rs_in[k], r, now);
    } else {
        d->st.respq_stall++;
    }
}

/* Variant ideal: another L1 holding the whole line answers at once. */
static bool ideal_lookup(const ccn *d, uint32_t k, const gm_req *r)
{
    for (uint32_t j = 0; j < d->n; j++) {
        if (j == k)
            continue;
        int32_t w = gm_tag_probe(&d->l1[j].tags, r->addr);
        if (w >= 0 && gm_tag_has_sectors(&d->l1[j].tags, w, GM_TAG_ALL_SECTORS))
            return true;
    }
    return false;
}

/* Phase B: the L1's next miss, then the CCN buffer's head into the ReqQ
 * (the ReqQ's other writer). */
static void take_miss(ccn *d, uint32_t k, bool *l2_used, gm_time now)
{
    ccn_node *nd = &d->node[k];
    gm_req *r = gm_link_peek(&d->l1_miss[k], now);
    if (r) {
        bool ccn_on = d->cfg.variant != GM_CCN_OFF;
        gm_ccn_route route = gm_ccn_route_miss(r->kind, ccn_on, !gm_ccn_rt_use_ccn(&nd->rt),
                                               nd->cb.count, nd->cb.cap);
        if (route == GM_CCN_TO_CB && d->cfg.variant == GM_CCN_IDEAL) {
            if (ideal_lookup(d, k, r)) {
                gm_link_pop(&d->l1_miss[k], now);
                d->st.ideal_hits++;
                r->is_reply = 1;
                gm_req_move(r, GM_LOC_NODE, k, now);
                gm_ccn_q_push(&nd->ideal, r);
            } else if (send_to_l2(d, k, r, l2_used, now)) {
                gm_link_pop(&d->l1_miss[k], now);
            }
        } else if (route == GM_CCN_TO_CB) {
            gm_link_pop(&d->l1_miss[k], now);
            r->block_handle = 0;
            r->t_mark = now;
            gm_req_move(r, GM_LOC_NODE, k, now);
            gm_ccn_q_push(&nd->cb, r);
        } else if (send_to_l2(d, k, r, l2_used, now)) {
            gm_link_pop(&d->l1_miss[k], now);
            d->st.to_l2_cb_full += route == GM_CCN_TO_L2_FULL;
            d->st.to_l2_throttled += route == GM_CCN_TO_L2_THROTTLED;
        }
    }
    r = gm_ccn_q_head(&nd->cb);
    if (r && need_slot(&nd->reqq, true)) {
        gm_ccn_q_pop(&nd->cb);
        nd->reqq.resv++;
        gm_ccn_q_push(&nd->reqq, r);
        gm_ccn_rt_injected(&nd->rt);
        d->st.injected++;
    } else if (r && d->cfg.cb_timeout &&
               (now - r->t_mark) / gm_system_core_period(d->s) >= d->cfg.cb_timeout &&
               send_to_l2(d, k, r, l2_used, now)) {
        /* Forwarded requests always win the ReqQ, so under a saturated
         * ring a node's buffer can wait without bound: after cb_timeout
         * its head goes to L2 as if it had never been a CCN request. */
        gm_ccn_q_pop(&nd->cb);
        d->st.to_l2_cb_timeout++;
    }
}

static void check_shadow(ccn *d, uint32_t k)
{
    const gm_tag_array *t = &d->l1[k].tags;
    const gm_shadow_tags *st = &d->node[k].st;
    for (uint32_t i = 0; i < t->sets * t->assoc; i++) {
        const gm_tag_line *l = &t->line[i];
        if (st->valid[i] != l->used || (l->used && st->tag[i] != line_tag(d, l->addr))) {
            set_fault(d, "shadow tags differ from the L1's tags", k);
            return;
        }
    }
}

static void ccn_cycle(void *ctx, gm_time now)
{
    ccn *d = ctx;
    uint32_t n = d->n;
    d->cycle++;
    d->st.cycles++;
    bool *l2_used = d->l2_used;
    memset(l2_used, 0, n * sizeof *l2_used);
    for (uint32_t k = 0; k < n; k++) {
        ccn_node *nd = &d->node[k];
        if (d->cfg.variant == GM_CCN_RT)
            gm_ccn_rt_advance(&nd->rt, d->s->cores[k].stats.thread_insts);
        gm_req *r;
        while ((r = gm_link_peek(&d->rq_out[k], now))) {
            gm_link_pop(&d->rq_out[k], now);
            gm_req_move(r, GM_LOC_NODE, k, now);
            gm_ccn_q_push(&nd->reqq, r);
        }
        while ((r = gm_link_peek(&d->rs_out[k], now))) {
            gm_link_pop(&d->rs_out[k], now);
            gm_req_move(r, GM_LOC_NODE, k, now);
            gm_ccn_q_push(&nd->respq, r);
        }
    }
    /* The shadow tags' Moore outputs of this cycle; under co-simulation
     * the RTL's drive the node and the C model's are compared with them. */
    for (uint32_t k = 0; k < n; k++) {
        ccn_node *nd = &d->node[k];
        gm_shadow_tags_eval(&nd->st, &nd->out);
        if (nd->twin) {
            gm_shadow_tags_out c = nd->out;
            nd->twin->eval(nd->twin->ctx, &nd->out);
            nd->twin->compare(nd->twin->ctx, d->cycle, &c, &nd->out);
        }
    }
    /* Phase A: the preferred writer of every queue decides first. */
    for (uint32_t k = 0; k < n; k++) {
        deliver(d, k, now);
        reqq_head(d, k, &l2_used[k], now);
    }
    /* Phase B: the other writers take what is left. */
    for (uint32_t k = 0; k < n; k++) {
        respq_head(d, k, now);
        take_miss(d, k, &l2_used[k], now);
    }
    bool check = d->cfg.check_every && d->cycle % d->cfg.check_every == 0;
    for (uint32_t k = 0; k < n; k++) {
        ccn_node *nd = &d->node[k];
        d->st.reqq_occ_sum += nd->reqq.count;
        d->st.respq_occ_sum += nd->respq.count;
        d->st.cb_occ_sum += nd->cb.count;
        /* slots popped this cycle can be reserved from the next one */
        nd->reqq.resv -= nd->reqq.freed;
        nd->respq.resv -= nd->respq.freed;
        nd->reqq.freed = nd->respq.freed = nd->cb.freed = nd->ideal.freed = 0;
        gm_shadow_tags_tick(&nd->st, &nd->st_in);
        if (nd->twin)
            nd->twin->tick(nd->twin->ctx, &nd->st_in);
        nd->st_in = (gm_shadow_tags_in){0};
        nd->nwrites = 0;
        if (check)
            check_shadow(d, k);
    }
}

static void tick_rings(void *ctx, gm_time now)
{
    ccn *d = ctx;
    gm_net_tick(&d->rq_net, now);
    gm_net_tick(&d->rs_net, now);
}

static void tick_request_net(void *ctx, gm_time now)
{
    gm_net_tick(&((ccn *)ctx)->req_net, now);
}

static void tick_reply_net(void *ctx, gm_time now)
{
    gm_net_tick(&((ccn *)ctx)->rep_net, now);
}

/* ---- build ------------------------------------------------------------- */

/* The rings' routers: one VC, single-stage, sized for one packet; the
 * request channel carries a tag and core id (one 4 B flit), the response
 * channel 32 B flits (a line is four) with the core id on side wires.
 * Ring stops take vc_depth as their ring buffer in packets: 2 L + 2 covers
 * a credit's round trip, so a link can carry a packet every cycle. */
static gm_noc_cfg ring_cfg(const gm_noc_cfg *noc, bool request, uint32_t eject,
                           const gm_ccn_cfg *k)
{
    gm_noc_cfg c = *noc;
    c.flit_bytes = request ? 4 : 32;
    c.header_bytes = request ? 4 : 0;
    c.vcs = 1;
    c.vc_depth = request ? 2 : 4;
    if (k->ring == GM_CCN_RING_STOP)
        c.vc_depth = k->stop_depth ? k->stop_depth : 2 * k->hop_latency + 2;
    c.router_stages = 1;
    c.islip_iters = 1;
    c.inject_queue = 2;
    c.eject_queue = eject;
    return c;
}

static int init_ring(gm_net *net, const char *name, gm_net_ring_dir dir,
                     const gm_noc_cfg *cfg, ccn *d, gm_error *err)
{
    gm_net_desc desc;
    if (gm_net_desc_ring(&desc, name, d->n, dir, d->cfg.hop_latency, err))
        return -1;
    if (d->cfg.ring == GM_CCN_RING_STOP)
        gm_net_desc_use_ring_stops(&desc);
    int rc = gm_net_init(net, &desc, cfg, ring_dest, d, err);
    gm_net_desc_free(&desc);
    return rc;
}

static int build_rings(gm_system *s, ccn *d, gm_error *err)
{
    uint32_t n = d->n;
    const gm_clock_domain *core = &s->clock.d[s->dom_core];
    if (gm_link_array_new(&d->rq_in, n, 2, 1, core, err) ||
        gm_link_array_new(&d->rq_out, n, d->cfg.reqq_entries, 1, core, err) ||
        gm_link_array_new(&d->rs_in, n, 2, 1, core, err) ||
        gm_link_array_new(&d->rs_out, n, d->cfg.respq_entries, 1, core, err))
        return -1;
    d->ring_ptrs = calloc(4 * (size_t)n, sizeof *d->ring_ptrs);
    if (!d->ring_ptrs)
        return gm_fail(err, "out of memory");
    for (uint32_t k = 0; k < n; k++) {
        d->ring_ptrs[k] = &d->rq_in[k];
        d->ring_ptrs[n + k] = &d->rq_out[k];
        d->ring_ptrs[2 * n + k] = &d->rs_in[k];
        d->ring_ptrs[3 * n + k] = &d->rs_out[k];
    }
    gm_noc_cfg rq = ring_cfg(&s->cfg.noc, true, d->cfg.reqq_entries, &d->cfg);
    gm_noc_cfg rs = ring_cfg(&s->cfg.noc, false, d->cfg.respq_entries, &d->cfg);
    if (init_ring(&d->rq_net, "ccn-request", GM_NET_RING_UP, &rq, d, err) ||
        init_ring(&d->rs_net, "ccn-response", GM_NET_RING_DOWN, &rs, d, err))
        return -1;
    gm_net_connect(&d->rq_net, (gm_net_ports){d->ring_ptrs, d->ring_ptrs + n});
    gm_net_connect(&d->rs_net, (gm_net_ports){d->ring_ptrs + 2 * n, d->ring_ptrs + 3 * n});
    int dc = s->dom_core;
    if (gm_system_add_net(s, (gm_net_ref){&d->rq_net, "ccn", true, false, dc}, err) ||
        gm_system_add_net(s, (gm_net_ref){&d->rs_net, "ccn", false, false, dc}, err))
        return -1;
    return 0;
}

static int build_l2_nets(gm_system *s, ccn *d, gm_error *err)
{
    const gm_noc_cfg *noc = &s->cfg.noc;
    uint32_t nc = d->n, ns = d->nslices;
    if (gm_core_l2_ports_init(&d->ports, s, d->to_l2, d->from_l2, err) ||
        gm_net_init_crossbar(&d->req_net, "request", nc, ns, noc, gm_dest_slice, NULL, err) ||
        gm_net_init_crossbar(&d->rep_net, "reply", ns, nc, noc, gm_dest_core, NULL, err))
        return -1;
    gm_net_connect(&d->req_net, d->ports.req);
    gm_net_connect(&d->rep_net, d->ports.rep);
    int icnt = s->dom_icnt;
    if (gm_system_add_net(s, (gm_net_ref){&d->req_net, "noc", true, true, icnt}, err) ||
        gm_system_add_net(s, (gm_net_ref){&d->rep_net, "noc", false, true, icnt}, err) ||
        gm_system_on_edge(s, icnt, tick_request_net, d, err) ||
        gm_system_on_edge(s, icnt, tick_reply_net, d, err))
        return -1;
    return 0;
}

static void ccn_destroy(void *state)
{
    ccn *d = state;
    if (d->l1)
        for (uint32_t i = 0; i < d->n; i++)
            gm_l1d_free(&d->l1[i]);
    if (d->node)
        for (uint32_t i = 0; i < d->n; i++) {
            ccn_node *nd = &d->node[i];
            gm_ccn_q_free(&nd->cb);
            gm_ccn_q_free(&nd->reqq);
            gm_ccn_q_free(&nd->respq);
            gm_ccn_q_free(&nd->ideal);
            gm_shadow_tags_free(&nd->st);
        }
    free(d->l1);
    free(d->node);
    free(d->hops);
    free(d->l2_used);
    gm_net_free(&d->req_net);
    gm_net_free(&d->rep_net);
    gm_net_free(&d->rq_net);
    gm_net_free(&d->rs_net);
    gm_link_array_free(d->l1_miss, d->n);
    gm_link_array_free(d->l1_fill, d->n);
    gm_link_array_free(d->to_l2, d->n);
    gm_link_array_free(d->from_l2, d->n);
    gm_link_array_free(d->rq_in, d->n);
    gm_link_array_free(d->rq_out, d->n);
    gm_link_array_free(d->rs_in, d->n);
    gm_link_array_free(d->rs_out, d->n);
    free(d->ring_ptrs);
    gm_core_l2_ports_free(&d->ports);
    free(d);
}

static int build_node(gm_system *s, ccn *d, uint32_t k, gm_error *err)
{
    const gm_config *cfg = &s->cfg;
    ccn_node *nd = &d->node[k];
    nd->d = d;
    nd->id = k;
    if (gm_ccn_q_init(&nd->cb, d->cfg.cb_entries) ||
        gm_ccn_q_init(&nd->reqq, d->cfg.reqq_entries) ||
        gm_ccn_q_init(&nd->respq, d->cfg.respq_entries) ||
        gm_ccn_q_init(&nd->ideal, cfg->l1.mshr_entries))
        return gm_fail(err, "out of memory");
    if (gm_shadow_tags_init(&nd->st, d->sets, cfg->l1.assoc, d->cfg.tag_bits, err))
        return -1;
    gm_ccn_rt_init(&nd->rt, d->cfg.rt_sample, d->cfg.rt_period, d->cfg.rt_hmin_pct);
    gm_l1d *l1 = &d->l1[k];
    if (gm_l1d_init(l1, &cfg->l1, k, &s->res, err) || gm_system_add_l1(s, &l1->stats, err))
        return -1;
    gm_l1d_connect(l1, (gm_l1d_ports){.miss_out = &d->l1_miss[k], .fill_in = &d->l1_fill[k]});
    l1->tags.on_update = on_tag_update;
    l1->tags.on_update_ctx = nd;
    gm_core_attach_port(&s->cores[k], (gm_core_port){&gm_l1d_core_port, l1, NULL});
    return 0;
}

static int ccn_build(gm_system *s, void **state, gm_error *err)
{
    ccn *d = calloc(1, sizeof *d);
    if (!d)
        return gm_fail(err, "out of memory");
    *state = d;
    d->s = s;
    d->cfg = s->cfg.ccn;
    d->n = s->ncores;
    d->nslices = s->nslices;
    const gm_config *cfg = &s->cfg;
    d->sets = cfg->l1.size_bytes / (cfg->l1.line_bytes * cfg->l1.assoc);
    while ((1u << d->line_shift) < cfg->l1.line_bytes)
        d->line_shift++;
    uint32_t n = d->n;
    const gm_clock_domain *core = &s->clock.d[s->dom_core];
    if (gm_link_array_new(&d->l1_miss, n, 2, 1, core, err) ||
        gm_link_array_new(&d->l1_fill, n, 2, 1, core, err) ||
        gm_link_array_new(&d->to_l2, n, 2, GM_SYNC_EDGES, &s->clock.d[s->dom_icnt], err) ||
        gm_link_array_new(&d->from_l2, n, cfg->noc.eject_queue, GM_SYNC_EDGES, core, err))
        return -1;
    d->l1 = calloc(n, sizeof *d->l1);
    d->node = calloc(n, sizeof *d->node);
    d->hops = calloc(2 * (size_t)n, sizeof *d->hops);
    d->l2_used = calloc(n, sizeof *d->l2_used);
    if (!d->l1 || !d->node || !d->hops || !d->l2_used)
        return gm_fail(err, "out of memory");
    for (uint32_t k = 0; k < n; k++)
        if (build_node(s, d, k, err))
            return -1;
    s->copies.max_allowed = n;
    if (build_l2_nets(s, d, err) || build_rings(s, d, err))
        return -1;
    if (gm_system_on_edge(s, s->dom_core, ccn_cycle, d, err) ||
        gm_system_on_edge(s, s->dom_core, tick_rings, d, err))
        return -1;
    return 0;
}

/* ---- quiescence, conservation ------------------------------------------ */

static bool links_busy(const gm_link *l, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!gm_link_empty(&l[i]))
            return true;
    return false;
}

static bool ccn_busy(const void *state)
{
    const ccn *d = state;
    for (uint32_t k = 0; k < d->n; k++) {
        const ccn_node *nd = &d->node[k];
        if (nd->cb.count || nd->reqq.count || nd->respq.count || nd->ideal.count ||
            nd->reqq.resv || nd->respq.resv)
            return true;
    }
    return links_busy(d->l1_miss, d->n) || links_busy(d->l1_fill, d->n) ||
           links_busy(d->to_l2, d->n) || links_busy(d->from_l2, d->n) ||
           links_busy(d->rq_in, d->n) || links_busy(d->rq_out, d->n) ||
           links_busy(d->rs_in, d->n) || links_busy(d->rs_out, d->n);
}

static int ccn_check_drained(const void *state, gm_error *err)
{
    const ccn *d = state;
    if (d->fault[0])
        return gm_fail(err, "%s", d->fault);
    for (uint32_t k = 0; k < d->n; k++) {
        const ccn_node *nd = &d->node[k];
        if (nd->cb.count || nd->reqq.count || nd->respq.count || nd->ideal.count ||
            nd->reqq.resv || nd->respq.resv)
            return gm_fail(err, "drain check: ccn node %u holds CB %u, ReqQ %u (reserved "
                                "%u), RespQ %u (reserved %u), ideal %u", k, nd->cb.count,
                           nd->reqq.count, nd->reqq.resv, nd->respq.count, nd->respq.resv,
                           nd->ideal.count);
    }
    if (gm_link_array_check_empty(d->l1_miss, d->n, "L1->ccn-node", err) ||
        gm_link_array_check_empty(d->l1_fill, d->n, "ccn-node->L1", err) ||
        gm_link_array_check_empty(d->to_l2, d->n, "ccn-node->request-network", err) ||
        gm_link_array_check_empty(d->from_l2, d->n, "reply-network->ccn-node", err) ||
        gm_link_array_check_empty(d->rq_in, d->n, "ccn-node->request-ring", err) ||
        gm_link_array_check_empty(d->rq_out, d->n, "request-ring->ccn-node", err) ||
        gm_link_array_check_empty(d->rs_in, d->n, "ccn-node->response-ring", err) ||
        gm_link_array_check_empty(d->rs_out, d->n, "response-ring->ccn-node", err))
        return -1;
    uint64_t served = 0;
    for (uint32_t h = 0; h < 2 * d->n; h++)
        served += d->hops[h];
    if (served != d->st.hits || d->st.injected != d->st.hits + d->st.misses)
        return gm_fail(err, "ccn: %" PRIu64 " requests entered the ring, %" PRIu64
                            " hits (%" PRIu64 " delivered) and %" PRIu64 " misses",
                       d->st.injected, d->st.hits, served, d->st.misses);
    return 0;
}

static bool find_in(const gm_ccn_q *q, const gm_req *r)
{
    for (uint32_t i = 0; i < q->count; i++)
        if (gm_ccn_q_at(q, i) == r)
            return true;
    return false;
}

static bool ccn_find_req(const void *state, const gm_req *r, char *buf, size_t len)
{
    const ccn *d = state;
    for (uint32_t k = 0; k < d->n; k++) {
        const ccn_node *nd = &d->node[k];
        const char *where = find_in(&nd->cb, r)      ? "CCN buffer"
                            : find_in(&nd->reqq, r)  ? "ReqQ"
                            : find_in(&nd->respq, r) ? "RespQ"
                            : find_in(&nd->ideal, r) ? "ideal-hit queue"
                                                     : NULL;
        if (where) {
            snprintf(buf, len, "ccn node %u %s (request hops %u, response hops %u)", k, where,
                     gm_ccn_req_hops(r), gm_ccn_resp_hops(r));
            return true;
        }
    }
    return gm_net_find_req(&d->rq_net, r, buf, len) || gm_net_find_req(&d->rs_net, r, buf, len);
}

/* ---- statistics ------------------------------------------------------- */

static const char *variant_name(uint32_t v)
{
    switch (v) {
    case GM_CCN_B: return "CCN-B";
    case GM_CCN_RT: return "CCN-RT";
    case GM_CCN_IDEAL: return "CCN-ideal";
    default: return "CCN-off";
    }
}

static void ccn_point_name(const void *state, char *buf, size_t len)
{
    const ccn *d = state;
    if (d->cfg.hop_latency == 1 || d->cfg.variant == GM_CCN_IDEAL ||
        d->cfg.variant == GM_CCN_OFF)
        snprintf(buf, len, "%s", variant_name(d->cfg.variant));
    else
        snprintf(buf, len, "%s-hop%u", variant_name(d->cfg.variant), d->cfg.hop_latency);
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static void ccn_stats_json(const gm_system *s, const void *state, cJSON *design, cJSON *root)
{
    (void)s;
    (void)root;
    const ccn *d = state;
    const ccn_stats *st = &d->st;
    char name[48];
    ccn_point_name(d, name, sizeof name);
    cJSON_AddStringToObject(design, "variant", name);
    cJSON_AddNumberToObject(design, "l1_caches", d->n);
    cJSON_AddNumberToObject(design, "hop_latency", d->cfg.hop_latency);
    cJSON_AddNumberToObject(design, "ccn_injected", (double)st->injected);
    cJSON_AddNumberToObject(design, "ccn_hits", (double)st->hits);
    cJSON_AddNumberToObject(design, "ccn_misses", (double)st->misses);
    cJSON_AddNumberToObject(design, "ccn_hit_rate", ratio(st->hits, st->injected));
    cJSON_AddNumberToObject(design, "ideal_hits", (double)st->ideal_hits);
    cJSON_AddNumberToObject(design, "to_l2_cb_full", (double)st->to_l2_cb_full);
    cJSON_AddNumberToObject(design, "to_l2_throttled", (double)st->to_l2_throttled);
    cJSON_AddNumberToObject(design, "to_l2_cb_timeout", (double)st->to_l2_cb_timeout);
    cJSON_AddNumberToObject(design, "shadow_lookups", (double)st->lookups);
    cJSON_AddNumberToObject(design, "shadow_stale_hits", (double)st->stale_hits);
    cJSON_AddNumberToObject(design, "stolen_data_cycles", (double)st->stolen_cycles);
    uint64_t served = 0, hop_sum = 0;
    cJSON *h = cJSON_AddArrayToObject(design, "hops_histogram");
    for (uint32_t i = 0; i < 2 * d->n; i++) {
        cJSON_AddItemToArray(h, cJSON_CreateNumber((double)d->hops[i]));
        served += d->hops[i];
        hop_sum += d->hops[i] * i;
    }
    cJSON_AddNumberToObject(design, "hops_per_hit", ratio(hop_sum, served));
    cJSON_AddNumberToObject(design, "reuse_latency_avg", ratio(st->reuse_lat_sum, served));
    uint64_t nc = st->cycles * d->n;
    cJSON_AddNumberToObject(design, "cb_occupancy_avg", ratio(st->cb_occ_sum, nc));
    cJSON_AddNumberToObject(design, "reqq_occupancy_avg", ratio(st->reqq_occ_sum, nc));
    cJSON_AddNumberToObject(design, "respq_occupancy_avg", ratio(st->respq_occ_sum, nc));
    cJSON_AddNumberToObject(design, "reqq_stall_cycles", (double)st->reqq_stall);
    cJSON_AddNumberToObject(design, "reqq_stall_respq_full", (double)st->reqq_stall_respq);
    cJSON_AddNumberToObject(design, "reqq_stall_port_busy", (double)st->reqq_stall_port);
    cJSON_AddNumberToObject(design, "respq_stall_cycles", (double)st->respq_stall);
    cJSON *te = cJSON_AddArrayToObject(design, "throttled_epochs");
    cJSON *ep = cJSON_AddArrayToObject(design, "rt_epochs");
    for (uint32_t k = 0; k < d->n; k++) {
        cJSON_AddItemToArray(te, cJSON_CreateNumber((double)d->node[k].rt.throttled_epochs));
        cJSON_AddItemToArray(ep, cJSON_CreateNumber((double)d->node[k].rt.epochs));
    }
}

static void ccn_stats_text(const gm_system *s, const void *state, FILE *f)
{
    (void)s;
    const ccn *d = state;
    char name[48];
    ccn_point_name(d, name, sizeof name);
    fprintf(f, "  design                 %s ring of %u L1s: %" PRIu64 " requests in, %" PRIu64
               " remote hits, %" PRIu64 " to L2 after a round, %" PRIu64 " ideal hits\n",
            name, d->n, d->st.injected, d->st.hits, d->st.misses, d->st.ideal_hits);
}

/* ---- co-simulation ------------------------------------------------------ */

static ccn *ccn_of(const gm_system *s)
{
    return s->design == &gm_ccn_design ? s->design_state : NULL;
}

uint32_t gm_ccn_shadow_count(const gm_system *s)
{
    const ccn *d = ccn_of(s);
    return d ? d->n : 0;
}

void gm_ccn_shadow_name(const gm_system *s, uint32_t k, char *buf, size_t len)
{
    (void)s;
    snprintf(buf, len, "ccn-shadow-%u", k);
}

void gm_ccn_shadow_size(const gm_system *s, uint32_t k, uint32_t *sets, uint32_t *ways,
                        uint32_t *tag_bits)
{
    const gm_shadow_tags *st = &ccn_of(s)->node[k].st;
    *sets = st->sets;
    *ways = st->ways;
    *tag_bits = st->tag_bits;
}

int gm_ccn_shadow_attach_twin(gm_system *s, uint32_t k, const gm_shadow_twin *twin,
                              gm_error *err)
{
    ccn *d = ccn_of(s);
    if (!d || k >= d->n)
        return gm_fail(err, "no CCN shadow tag instance %u", k);
    d->node[k].twin = twin;
    return 0;
}

const gm_design_ops gm_ccn_design = {
    .name = "ccn",
    .summary = "private write-through L1Ds cooperating over a request and a response ring "
               "(CCN buffer, ReqQ, RespQ, shadow tags, request throttler; CCN seed)",
    .l1_noun = "L1s",
    .node_name = "ccn node",
    .section = &gm_ccn_section,
    .keys = gm_ccn_keys,
    .nkeys = GM_CCN_NKEYS,
    .validate = gm_ccn_validate,
    .build = ccn_build,
    .destroy = ccn_destroy,
    .busy = ccn_busy,
    .check_drained = ccn_check_drained,
    .find_req = ccn_find_req,
    .stats_json = ccn_stats_json,
    .stats_text = ccn_stats_text,
    .point_name = ccn_point_name,
};
