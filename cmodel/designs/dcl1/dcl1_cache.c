#include "designs/dcl1/dcl1_cache.h"

#include <assert.h>

static inline uint32_t sector_count(uint8_t mask)
{
    return (uint32_t)__builtin_popcount(mask & GM_TAG_ALL_SECTORS);
}

static inline uint32_t div_ceil(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

int gm_dcl1_cache_init(gm_dcl1_cache *c, const gm_cache_cfg *cfg, uint32_t id,
                       gm_residency *res, uint32_t copies_limit, uint32_t pending_cap,
                       const gm_clock_domain *dom, gm_error *err)
{
    *c = (gm_dcl1_cache){0};
    if (cfg->line_bytes != GM_LINE_BYTES)
        return gm_fail(err, "DC-L1 node line of %u bytes: requests are %u B lines",
                       cfg->line_bytes, GM_LINE_BYTES);
    if (cfg->port_bytes == 0 || pending_cap == 0)
        return gm_fail(err, "DC-L1 node %u: data port and output buffer must be >= 1", id);
    c->cfg = *cfg;
    c->id = id;
    c->res = res;
    c->copies_limit = copies_limit;
    c->dom = dom;
    c->pending_cap = pending_cap;
    c->fill_busy = div_ceil(cfg->line_bytes, cfg->port_bytes);
    if (gm_tag_array_init(&c->tags, cfg->size_bytes, cfg->line_bytes, cfg->assoc, err) ||
        gm_mshr_init(&c->mshr, cfg->mshr_entries, cfg->mshr_merge, err)) {
        gm_dcl1_cache_free(c);
        return -1;
    }
    return 0;
}

int gm_dcl1_cache_set_homes(gm_dcl1_cache *c, uint32_t granule, uint32_t homes,
                            gm_error *err)
{
    return gm_tag_array_set_interleave(&c->tags, granule, homes, err);
}

void gm_dcl1_cache_free(gm_dcl1_cache *c)
{
    gm_tag_array_free(&c->tags);
    gm_mshr_free(&c->mshr);
}

static void list_append(gm_req **head, gm_req **tail, gm_req *r)
{
    r->next = 0;
    if (*tail)
        (*tail)->next = r;
    else
        *head = r;
    *tail = r;
}

static gm_req *list_pop(gm_req **head, gm_req **tail)
{
    gm_req *r = *head;
    *head = r->next;
    if (!*head)
        *tail = 0;
    r->next = 0;
    return r;
}

static void use_port(gm_dcl1_cache *c, uint32_t cycles, gm_time now)
{
    c->port_free_at = gm_clock_edge_after(c->dom, now, cycles);
    c->stats.port_busy_cycles += cycles;
}

/* ---- replies to Q2 ----------------------------------------------------------- */

/* When the oldest hit leaves the latency pipeline. */
static gm_time hit_ready_at(const gm_dcl1_cache *c)
{
    return gm_clock_edge_after(c->dom, c->hit_head->t_loc, c->cfg.latency);
}

enum { PICK_NONE, PICK_FWD, PICK_HIT };

/* Which list the next reply comes from: the one whose head became ready
 * first (a forward is ready at its fill, t_loc), a forward on a tie.
 * Oldest-ready-first keeps a stream of hits from starving the requests a
 * fill completed, and the other way round. */
static int pick(const gm_dcl1_cache *c, gm_time now)
{
    bool hit = c->hit_head && hit_ready_at(c) <= now;
    if (c->fwd_head && (!hit || c->fwd_head->t_loc <= hit_ready_at(c)))
        return PICK_FWD;
    return hit ? PICK_HIT : PICK_NONE;
}

gm_req *gm_dcl1_cache_response(const gm_dcl1_cache *c, gm_time now)
{
    switch (c->pending ? pick(c, now) : PICK_NONE) {
    case PICK_FWD: return c->fwd_head;
    case PICK_HIT: return c->hit_head;
    default: return 0;
    }
}

void gm_dcl1_cache_pop_response(gm_dcl1_cache *c, gm_time now)
{
    int p = pick(c, now);
    assert(p != PICK_NONE);
    if (p == PICK_FWD)
        list_pop(&c->fwd_head, &c->fwd_tail);
    else
        list_pop(&c->hit_head, &c->hit_tail);
    c->pending--;
}

/* ---- fills ------------------------------------------------------------------ */

static void install_line(gm_dcl1_cache *c, uint64_t addr)
{
    int32_t way = gm_tag_probe(&c->tags, addr);
    if (way < 0) {
        gm_tag_victim v;
        way = gm_tag_allocate(&c->tags, addr, &v);
        if (v.evicted) {
            c->stats.evictions++;
            if (c->res)
                gm_residency_remove(c->res, v.addr);
        }
        if (c->res) {
            if (gm_residency_add(c->res, addr) != 0)
                c->stats.residency_errors++;
            else if (gm_residency_count(c->res, addr) > c->copies_limit)
                c->copies_violations++;
        }
    } else {
        gm_tag_touch(&c->tags, way);
    }
    gm_tag_line_at(&c->tags, way)->valid = GM_TAG_ALL_SECTORS;
    c->stats.fills++;
}

bool gm_dcl1_cache_fill(gm_dcl1_cache *c, gm_req *r, gm_time now)
{
    if (c->port_free_at > now) {
        c->stats.fill_port_waits++;
        return false;
    }
    use_port(c, c->fill_busy, now);
    install_line(c, r->addr);
    int32_t e = gm_mshr_lookup(&c->mshr, r->addr);
    assert(e >= 0 && gm_mshr_entry_at(&c->mshr, e)->primary == r);
    gm_req *list = r;
    if (e >= 0)
        list = gm_mshr_release(&c->mshr, e);
    else
        r->next = 0;
    /* The fill is forwarded concurrently: every waiting request, primary
     * first, becomes a reply carrying only the sectors it asked for. */
    while (list) {
        gm_req *next = list->next;
        list->reply_bytes = sector_count(list->sectors) * GM_SECTOR_BYTES;
        list->is_reply = 1;
        gm_req_move(list, GM_LOC_NODE, c->id, now); /* ready from now on */
        list_append(&c->fwd_head, &c->fwd_tail, list);
        c->pending++;
        list = next;
    }
    return true;
}

/* ---- accesses from Q1 ----------------------------------------------------------- */

static gm_dcl1_access refuse(gm_dcl1_cache *c, gm_l1d_fail why)
{
    c->stats.res_fail[why]++;
    return GM_DCL1_REFUSED;
}

static gm_dcl1_access access_load(gm_dcl1_cache *c, gm_req *r, bool q3_room, gm_time now)
{
    int32_t way = gm_tag_probe(&c->tags, r->addr);
    if (way >= 0 && gm_tag_has_sectors(&c->tags, way, r->sectors)) {
        gm_tag_touch(&c->tags, way);
        c->stats.load_hits++;
        use_port(c, div_ceil(sector_count(r->sectors) * GM_SECTOR_BYTES, c->cfg.port_bytes),
                 now);
        r->is_reply = 1;
        gm_req_move(r, GM_LOC_NODE, c->id, now); /* the latency counts from t_loc */
        list_append(&c->hit_head, &c->hit_tail, r);
        c->pending++;
        return GM_DCL1_KEPT;
    }
    int32_t e = gm_mshr_lookup(&c->mshr, r->addr);
    if (e >= 0) {
        if (!gm_mshr_can_merge(&c->mshr, e))
            return refuse(c, GM_L1D_FAIL_MERGE);
        gm_mshr_merge(&c->mshr, e, r);
        c->stats.mshr_merges++;
        return GM_DCL1_KEPT;
    }
    if (gm_mshr_full(&c->mshr))
        return refuse(c, GM_L1D_FAIL_MSHR);
    if (!q3_room)
        return refuse(c, GM_L1D_FAIL_MISSQ);
    c->stats.load_misses++;
    if (c->res && gm_residency_count(c->res, r->addr) > 0)
        c->stats.miss_resident_elsewhere++;
    gm_mshr_allocate(&c->mshr, r->addr, r);
    r->req_bytes = 0;
    r->reply_bytes = c->cfg.line_bytes; /* the node fetches whole lines */
    return GM_DCL1_TO_L2;
}

static gm_dcl1_access access_store(gm_dcl1_cache *c, gm_req *r, bool q3_room)
{
    if (!q3_room)
        return refuse(c, GM_L1D_FAIL_MISSQ);
    int32_t way = gm_tag_probe(&c->tags, r->addr);
    if (way >= 0) {
        gm_tag_invalidate(&c->tags, way); /* write-evict */
        if (c->res)
            gm_residency_remove(c->res, r->addr);
        c->stats.write_evicts++;
    } else {
        c->stats.store_misses++;      /* no-write-allocate */
    }
    return GM_DCL1_TO_L2;
}

gm_dcl1_access gm_dcl1_cache_access(gm_dcl1_cache *c, gm_req *r, bool q3_room, gm_time now)
{
    if (c->port_free_at > now)
        return refuse(c, GM_L1D_FAIL_PORT);
    if (c->pending >= c->pending_cap) {
        c->output_full++;
        return GM_DCL1_REFUSED;
    }
    gm_dcl1_access a = r->kind == GM_REQ_LOAD ? access_load(c, r, q3_room, now)
                                              : access_store(c, r, q3_room);
    if (a != GM_DCL1_REFUSED) {
        c->stats.accesses[r->kind]++;
        c->stats.sectors[r->kind] += sector_count(r->sectors);
    }
    return a;
}

void gm_dcl1_cache_count_bypass(gm_dcl1_cache *c, const gm_req *r)
{
    c->stats.accesses[r->kind]++;
    c->stats.sectors[r->kind] += sector_count(r->sectors);
}
