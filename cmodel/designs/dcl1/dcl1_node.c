#include "designs/dcl1/dcl1_node.h"

#include <assert.h>
#include <string.h>

int gm_dcl1_node_init(gm_dcl1_node *n, uint32_t id, const gm_cache_cfg *cache,
                      uint32_t queue_depth, gm_residency *res, uint32_t copies_limit,
                      uint32_t home_granule, uint32_t homes,
                      const gm_clock_domain *core, gm_error *err)
{
    memset(n, 0, sizeof *n);
    n->id = id;
    /* The cache's hit pipeline holds at most `latency` hits (one per
     * stage); when Q2 does not take its output the pipeline stalls and the
     * cache takes no new access. That is enough for one hit per cycle. */
    uint32_t pending_cap = cache->latency ? cache->latency : 1;
    if (gm_dcl1q_init(&n->q, queue_depth, err) ||
        gm_dcl1_cache_init(&n->cache, cache, id, res, copies_limit, pending_cap, core, err) ||
        (homes > 1 && gm_dcl1_cache_set_homes(&n->cache, home_granule, homes, err)) ||
        gm_noc_pkts_init(&n->handles, 4 * queue_depth + pending_cap, err)) {
        gm_dcl1_node_free(n);
        return -1;
    }
    return 0;
}

void gm_dcl1_node_free(gm_dcl1_node *n)
{
    gm_dcl1q_free(&n->q);
    gm_dcl1_cache_free(&n->cache);
    gm_noc_pkts_free(&n->handles);
}

void gm_dcl1_node_connect(gm_dcl1_node *n, gm_dcl1_node_ports ports)
{
    n->p = ports;
}

static gm_req *req_of(const gm_dcl1_node *n, uint32_t h)
{
    assert(h < n->handles.cap && n->handles.pkt[h].req);
    return n->handles.pkt[h].req;
}

/* A request or reply enters the node: it gets a handle. */
static bool enter(gm_dcl1_node *n, gm_req *r, gm_time now)
{
    uint32_t h = gm_noc_pkts_alloc(&n->handles);
    if (h == UINT32_MAX) {
        n->handle_errors++;
        return false;
    }
    n->handles.pkt[h].req = r;
    r->block_handle = h;
    gm_req_move(r, GM_LOC_NODE, n->id, now);
    return true;
}

static void leave(gm_dcl1_node *n, gm_req *r)
{
    gm_noc_pkts_release(&n->handles, r->block_handle);
}

/* ---- latency split --------------------------------------------------------- */

static void stamp_request_in(gm_dcl1_node *n, gm_req *r, gm_time now)
{
    n->lat.noc1 += now - r->t_create;
    n->lat.requests++;
    r->t_mark = now;
}

static void stamp_out(gm_dcl1_node *n, gm_req *r, gm_time now)
{
    n->lat.node += now - r->t_mark;
    r->t_mark = now;
}

/* A reply from L2, accepted by the NoC#2 reply network at `accepted`. */
static void stamp_reply_in(gm_dcl1_node *n, gm_req *r, gm_time accepted, gm_time now)
{
    uint64_t at_l2 = accepted - r->t_l2;
    uint64_t dram = r->t_dram ? r->t_dram_done - r->t_dram : 0;
    n->lat.noc2 += (r->t_l2 - r->t_mark) + (now - accepted);
    n->lat.dram += dram;
    n->lat.l2 += at_l2 - dram;
    r->t_mark = now;
}

/* ---- the cycle ------------------------------------------------------------------ */

static void drive_network_inputs(gm_dcl1_node *n, const gm_dcl1q_out *o, gm_dcl1q_in *in,
                                 gm_time now)
{
    gm_req *r;
    in->n1_rep_ready = gm_link_can_push(n->p.rep_out, now);
    in->n2_req_ready = gm_link_can_push(n->p.l2_out, now);
    if (o->n1_req_ready && (r = gm_link_peek(n->p.req_in, now)) != 0 && enter(n, r, now)) {
        gm_link_pop(n->p.req_in, now);
        r->l1 = (uint16_t)n->id;
        stamp_request_in(n, r, now);
        if (r->kind == GM_REQ_ATOMIC || r->kind == GM_REQ_NONL1)
            gm_dcl1_cache_count_bypass(&n->cache, r);
        in->n1_req_valid = 1;
        in->n1_req_handle = r->block_handle;
        in->n1_req_kind = r->kind & 3u;
    }
    if (o->n2_rep_ready && (r = gm_link_peek(n->p.l2_in, now)) != 0) {
        /* t_loc is still when the NoC#2 reply network accepted the packet:
         * nothing moves it between that and this link. */
        gm_time accepted = r->t_loc;
        if (enter(n, r, now)) {
            stamp_reply_in(n, r, accepted, now);
            gm_link_pop(n->p.l2_in, now);
            in->n2_rep_valid = 1;
            in->n2_rep_handle = r->block_handle;
            in->n2_rep_kind = r->kind & 3u;
        }
    }
}

static void drive_cache(gm_dcl1_node *n, const gm_dcl1q_out *o, gm_dcl1q_in *in, gm_time now)
{
    gm_req *r = gm_dcl1_cache_response(&n->cache, now);
    if (r) {
        in->c_rsp_valid = 1;
        in->c_rsp_handle = r->block_handle;
        if (o->c_rsp_ready)
            gm_dcl1_cache_pop_response(&n->cache, now);
    }
    if (o->c_fill_valid)
        in->c_fill_accept = gm_dcl1_cache_fill(&n->cache, req_of(n, o->c_fill_handle), now);
    if (o->c_req_valid) {
        gm_dcl1_access a = gm_dcl1_cache_access(&n->cache, req_of(n, o->c_req_handle),
                                                o->c_miss_ready, now);
        in->c_req_accept = a != GM_DCL1_REFUSED;
        in->c_req_miss = a == GM_DCL1_TO_L2;
    }
}

/* Co-simulation: the twin's outputs replace the C block's, o, unless they
 * differ; then the C block's drive the rest of this edge (the run stops
 * after it), so that a wrong handle cannot reach the handle table. The
 * cycle is the block's count of ticked edges (idle edges are skipped, as
 * for the C block). */
static void twin_outputs(gm_dcl1_node *n, gm_dcl1q_out *o)
{
    gm_dcl1q_out rtl;
    n->twin->eval(n->twin->ctx, &rtl);
    if (n->twin->compare(n->twin->ctx, n->q.st.ticks, o, &rtl) == 0)
        *o = rtl;
}

void gm_dcl1_node_tick(gm_dcl1_node *n, gm_time now)
{
    if (gm_dcl1q_idle(&n->q) && !gm_dcl1_cache_has_output(&n->cache) &&
        gm_link_empty(n->p.req_in) && gm_link_empty(n->p.l2_in))
        return;
    gm_dcl1q_out o;
    gm_dcl1q_in in;
    memset(&in, 0, sizeof in);
    gm_dcl1q_eval(&n->q, &o);
    if (n->twin)
        twin_outputs(n, &o);
    drive_network_inputs(n, &o, &in, now);
    drive_cache(n, &o, &in, now);
    gm_dcl1q_tick(&n->q, &in);
    if (n->twin)
        n->twin->tick(n->twin->ctx, &in);
    if (o.n1_rep_valid && in.n1_rep_ready) {
        gm_req *r = req_of(n, o.n1_rep_handle);
        leave(n, r);
        stamp_out(n, r, now);
        gm_link_push(n->p.rep_out, r, now);
    }
    if (o.n2_req_valid && in.n2_req_ready) {
        gm_req *r = req_of(n, o.n2_req_handle);
        leave(n, r);
        stamp_out(n, r, now);
        gm_link_push(n->p.l2_out, r, now);
    }
}

bool gm_dcl1_node_busy(const gm_dcl1_node *n)
{
    return !gm_dcl1q_idle(&n->q) || gm_dcl1_cache_has_output(&n->cache) ||
           n->handles.live || !gm_link_empty(n->p.req_in) || !gm_link_empty(n->p.l2_in);
}

int gm_dcl1_node_check_drained(const gm_dcl1_node *n, gm_error *err)
{
    for (uint32_t i = 0; i < GM_DCL1Q_NQ; i++)
        if (n->q.q[i].count)
            return gm_fail(err, "DC-L1 node %u: Q%u holds %u entries", n->id, i + 1,
                           n->q.q[i].count);
    if (n->q.st.protocol_errors)
        return gm_fail(err, "DC-L1 node %u: %llu queue handshake errors", n->id,
                       (unsigned long long)n->q.st.protocol_errors);
    if (n->cache.mshr.used || n->cache.pending)
        return gm_fail(err, "DC-L1 node %u: %u MSHR entries and %u replies still pending",
                       n->id, n->cache.mshr.used, n->cache.pending);
    if (n->handles.live || n->handle_errors)
        return gm_fail(err, "DC-L1 node %u: %u handles live, %llu handle errors", n->id,
                       n->handles.live, (unsigned long long)n->handle_errors);
    return 0;
}
