#include "designs/dcl1/dcl1_cache.h"

#include <assert.h>

int gm_dcl1_cache_init(gm_dcl1_cache *c, const gm_cache_cfg *cfg, uint32_t id,
                       gm_residency *res, uint32_t copies_limit, uint32_t pending_cap,
                       const gm_clock_domain *dom, gm_error *err)
{
    *c = (gm_dcl1_cache){0};
    if (cfg->line_bytes != GM_LINE_BYTES)
        return gm_fail(err, "DC-L1 node line of %u bytes: requests are %u B lines",
                       cfg->line_bytes, GM_LINE_BYTES);
    if (pending_cap == 0)
        return gm_fail(err, "DC-L1 node %u: output buffer must be >= 1", id);
    c->cfg = *cfg;
    c->id = id;
    c->copies_limit = copies_limit;
    c->pending_cap = pending_cap;
    if (gm_cache_engine_init(&c->e, cfg, res, &c->tags, &c->mshr, &c->stats, err))
        return -1;
    gm_cache_engine_set_clock(&c->e, dom);
    return 0;
}

int gm_dcl1_cache_set_homes(gm_dcl1_cache *c, uint32_t granule, uint32_t homes,
                            gm_error *err)
{
    return gm_tag_array_set_interleave(&c->tags, granule, homes, err);
}

void gm_dcl1_cache_free(gm_dcl1_cache *c)
{
    gm_cache_engine_free(&c->e);
}

/* ---- replies to Q2 ----------------------------------------------------------- */

enum { PICK_NONE, PICK_FWD, PICK_HIT };

/* Which list the next reply comes from: the one whose head became ready
 * first (a forward is ready at its fill, t_loc), a forward on a tie.
 * Oldest-ready-first keeps a stream of hits from starving the requests a
 * fill completed, and the other way round. */
static int pick(const gm_dcl1_cache *c, gm_time now)
{
    bool hit = gm_cache_hit_head(&c->e) && gm_cache_hit_ready_at(&c->e) <= now;
    if (c->fwd.head && (!hit || c->fwd.head->t_loc <= gm_cache_hit_ready_at(&c->e)))
        return PICK_FWD;
    return hit ? PICK_HIT : PICK_NONE;
}

gm_req *gm_dcl1_cache_response(const gm_dcl1_cache *c, gm_time now)
{
    switch (c->pending ? pick(c, now) : PICK_NONE) {
    case PICK_FWD: return c->fwd.head;
    case PICK_HIT: return gm_cache_hit_head(&c->e);
    default: return 0;
    }
}

void gm_dcl1_cache_pop_response(gm_dcl1_cache *c, gm_time now)
{
    int p = pick(c, now);
    assert(p != PICK_NONE);
    gm_req *r = p == PICK_FWD ? gm_req_fifo_pop(&c->fwd) : gm_cache_hit_pop(&c->e, now);
    assert(r);
    (void)r;
    c->pending--;
}

/* ---- fills ------------------------------------------------------------------ */

bool gm_dcl1_cache_fill(gm_dcl1_cache *c, gm_req *r, gm_time now)
{
    gm_cache_filled f;
    if (!gm_cache_fill(&c->e, r, gm_cache_fill_mask(&c->e, r), now, &f))
        return false;
    if (f.tracked && gm_residency_count(c->e.res, r->addr) > c->copies_limit)
        c->copies_violations++;
    /* The fill is forwarded concurrently: every waiting request, primary
     * first, becomes a reply carrying only the sectors it asked for. */
    for (gm_req *w = f.waiters, *next; w; w = next) {
        next = w->next;
        w->reply_bytes = gm_tag_sector_count(w->sectors) * GM_SECTOR_BYTES;
        w->is_reply = 1;
        gm_req_move(w, GM_LOC_NODE, c->id, now); /* ready from now on */
        gm_req_fifo_push(&c->fwd, w);
        c->pending++;
    }
    return true;
}

/* ---- accesses from Q1 ----------------------------------------------------------- */

static gm_dcl1_access refuse(gm_dcl1_cache *c, gm_cache_fail why)
{
    c->stats.res_fail[why]++;
    return GM_DCL1_REFUSED;
}

/* A load is kept (a hit waits in the pipeline, a merge for its fill) or
 * goes to L2 as the line fetch; a store write-evicts and goes to L2. Both
 * need Q3 room only when they go there. */
gm_dcl1_access gm_dcl1_cache_access(gm_dcl1_cache *c, gm_req *r, bool q3_room, gm_time now)
{
    if (gm_cache_port_busy(&c->e, now))
        return refuse(c, GM_CACHE_FAIL_PORT);
    if (c->pending >= c->pending_cap) {
        c->output_full++;
        return GM_DCL1_REFUSED;
    }
    gm_dcl1_access a = GM_DCL1_TO_L2;
    if (r->kind == GM_REQ_LOAD) {
        gm_cache_probe p = gm_cache_probe_read(&c->e, r->addr, r->sectors);
        if (p.fail != GM_CACHE_OK)
            return refuse(c, p.fail);
        if (p.outcome == GM_CACHE_MISS && !q3_room)
            return refuse(c, GM_CACHE_FAIL_MISSQ);
        if (p.outcome == GM_CACHE_HIT) {
            r->is_reply = 1;
            gm_req_move(r, GM_LOC_NODE, c->id, now); /* the latency counts from t_loc */
            c->pending++;
        }
        gm_cache_count_access(&c->e, r); /* as asked: a sectored miss narrows r->sectors */
        gm_cache_read(&c->e, &p, r, now);
        if (p.outcome != GM_CACHE_MISS)
            a = GM_DCL1_KEPT;
    } else {
        if (!q3_room)
            return refuse(c, GM_CACHE_FAIL_MISSQ);
        gm_cache_count_access(&c->e, r);
        gm_cache_write_evict_sectors(&c->e, r->addr, r->sectors);
    }
    return a;
}

void gm_dcl1_cache_count_bypass(gm_dcl1_cache *c, const gm_req *r)
{
    gm_cache_count_access(&c->e, r);
}
