#include "l2/l2_slice.h"

#include <assert.h>

#define FAIL_NONE (-1)

int gm_l2_slice_init(gm_l2_slice *s, const gm_l2_cfg *cfg, uint32_t id, gm_req_pool *pool,
                     gm_error *err)
{
    *s = (gm_l2_slice){0};
    const gm_cache_cfg *cc = &cfg->cache;
    if (cc->line_bytes != GM_LINE_BYTES)
        return gm_fail(err, "L2 line of %u bytes: requests are %u B lines", cc->line_bytes,
                       GM_LINE_BYTES);
    s->cfg = *cfg;
    s->id = id;
    s->pool = pool;
    s->pipe_cap = cc->latency ? cc->latency : 1;
    /* Every MSHR entry keeps a write-back slot in reserve for the victim of
     * its fill, so a fill never waits for dram_out (which could otherwise
     * deadlock against a DRAM channel waiting to return data on dram_in);
     * cache.miss_queue more slots absorb write-backs of allocating stores. */
    s->wb_cap = cc->mshr_entries + (cc->miss_queue ? cc->miss_queue : 1);
    if (gm_tag_array_init(&s->tags, cc->size_bytes, cc->line_bytes, cc->assoc, err) ||
        gm_mshr_init(&s->mshr, cc->mshr_entries, cc->mshr_merge, err)) {
        gm_l2_slice_free(s);
        return -1;
    }
    return 0;
}

int gm_l2_slice_set_interleave(gm_l2_slice *s, uint32_t chunk_bytes, uint32_t owners,
                               gm_error *err)
{
    return gm_tag_array_set_interleave(&s->tags, chunk_bytes, owners, err);
}

void gm_l2_slice_free(gm_l2_slice *s)
{
    gm_tag_array_free(&s->tags);
    gm_mshr_free(&s->mshr);
}

void gm_l2_slice_connect(gm_l2_slice *s, gm_l2_ports ports)
{
    s->p = ports;
    s->dom = ports.req_in->consumer;
}

/* ---- small helpers ----------------------------------------------------- */

static void fifo_push(gm_req **head, gm_req **tail, gm_req *r)
{
    r->next = 0;
    if (*tail)
        (*tail)->next = r;
    else
        *head = r;
    *tail = r;
}

static gm_req *fifo_pop(gm_req **head, gm_req **tail)
{
    gm_req *r = *head;
    *head = r->next;
    if (!*head)
        *tail = 0;
    r->next = 0;
    return r;
}

/* Sectors a read must find valid: all of them for a line fill (an L1 or a
 * DC-L1 node asking for reply_bytes >= a line), else those it names. */
static uint8_t needed_sectors(const gm_l2_slice *s, const gm_req *r)
{
    if (r->kind != GM_REQ_ATOMIC && r->reply_bytes >= s->cfg.cache.line_bytes)
        return GM_TAG_ALL_SECTORS;
    return r->sectors & GM_TAG_ALL_SECTORS;
}

/* Room for one more write-back (or one more fetch, which may need one). */
static bool wb_slot_free(const gm_l2_slice *s)
{
    return s->wb_count + s->mshr.used + 1 <= s->wb_cap;
}

static bool can_reply(const gm_l2_slice *s, gm_time now, bool rep_used)
{
    return !rep_used && gm_link_can_push(s->p.rep_out, now);
}

static void send_reply(gm_l2_slice *s, gm_req *r, gm_time now)
{
    r->is_reply = 1;
    gm_req_move(r, GM_LOC_L2_OUT, s->id, now);
    gm_link_push(s->p.rep_out, r, now);
}

/* Turns victim v (dirty) into a write-back using the preallocated wb. */
static void queue_writeback(gm_l2_slice *s, gm_req *wb, const gm_tag_victim *v, gm_time now)
{
    wb->kind = GM_REQ_WRITEBACK;
    wb->addr = v->addr;
    wb->sectors = v->dirty;
    wb->req_bytes = gm_tag_sector_count(v->dirty) * GM_SECTOR_BYTES;
    wb->reply_bytes = 0;
    wb->slice = (uint16_t)s->id;
    gm_req_move(wb, GM_LOC_L2, s->id, now);
    fifo_push(&s->wb_head, &s->wb_tail, wb);
    s->wb_count++;
    assert(s->wb_count <= s->wb_cap);
    s->stats.writebacks++;
    s->stats.writeback_sectors += gm_tag_sector_count(v->dirty);
}

/* Whether installing addr would push out a dirty line. */
static bool victim_is_dirty(const gm_l2_slice *s, uint64_t addr)
{
    const gm_tag_line *l = gm_tag_line_const(&s->tags, gm_tag_victim_way(&s->tags, addr));
    return l->used && l->dirty;
}

/* Allocates addr's line; a dirty victim becomes write-back wb (non-NULL
 * exactly when victim_is_dirty said so). */
static int32_t install(gm_l2_slice *s, uint64_t addr, gm_req *wb, gm_time now)
{
    gm_tag_victim v;
    int32_t way = gm_tag_allocate(&s->tags, addr, &v);
    if (v.evicted)
        s->stats.evictions++;
    if (v.evicted && v.dirty)
        queue_writeback(s, wb, &v, now);
    else
        assert(!wb);
    return way;
}

/* ---- DRAM returns ------------------------------------------------------ */

/* One item per cycle from dram_in. A fill waits while the replies of the
 * previous fill are still going out, so at most one MSHR list is queued. */
static void take_from_dram(gm_l2_slice *s, gm_time now)
{
    gm_req *r = gm_link_peek(s->p.dram_in, now);
    if (!r)
        return;
    if (r->kind == GM_REQ_WRITEBACK) {
        gm_link_pop(s->p.dram_in, now);
        s->dram_pending--;
        gm_req_release(s->pool, r);
        return;
    }
    if (s->rep_count) {
        s->stats.fill_stalls++;
        return;
    }
    int32_t way = gm_tag_probe(&s->tags, r->addr);
    gm_req *wb = 0;
    if (way < 0 && victim_is_dirty(s, r->addr)) {
        wb = gm_req_alloc(s->pool, now);
        if (!wb) {
            s->stats.fill_stalls++;
            return;
        }
    }
    gm_link_pop(s->p.dram_in, now);
    s->dram_pending--;
    gm_req_move(r, GM_LOC_L2, s->id, now);
    if (way < 0)
        way = install(s, r->addr, wb, now);
    else
        gm_tag_touch(&s->tags, way);
    int32_t e = gm_mshr_lookup(&s->mshr, r->addr);
    assert(e >= 0 && gm_mshr_entry_at(&s->mshr, e)->primary == r);
    uint8_t fetched = e >= 0 ? gm_mshr_entry_at(&s->mshr, e)->fetch : GM_TAG_ALL_SECTORS;
    gm_tag_line *l = gm_tag_line_at(&s->tags, way);
    l->valid |= fetched; /* dirty sectors keep their newer data */
    s->stats.fills++;
    s->stats.fill_sectors += gm_tag_sector_count(fetched);

    gm_req *list = r;
    if (e >= 0) {
        r->sectors = gm_mshr_entry_at(&s->mshr, e)->asked;
        list = gm_mshr_release(&s->mshr, e);
    } else {
        r->next = 0;
    }
    /* Atomics take effect now, while the line is surely present. */
    while (list) {
        gm_req *next = list->next;
        if (list->kind == GM_REQ_ATOMIC) {
            l->dirty |= list->sectors & GM_TAG_ALL_SECTORS;
            s->stats.atomics++;
        }
        fifo_push(&s->rep_head, &s->rep_tail, list);
        s->rep_count++;
        list = next;
    }
}

/* ---- tag stage --------------------------------------------------------- */

/* Sector counters of a read that needs `need`, of which `valid` are
 * present; `missing` either merge into a pending fetch or start a new one. */
static void count_read_sectors(gm_l2_slice *s, uint8_t need, uint8_t valid, uint8_t missing,
                               bool merged)
{
    s->stats.sector_hits += gm_tag_sector_count(need & valid);
    if (merged)
        s->stats.sector_merges += gm_tag_sector_count(missing);
    else
        s->stats.sectors_missed += gm_tag_sector_count(missing);
}

static int serve_read(gm_l2_slice *s, gm_req *r, gm_time now, bool *rep_used, bool *dram_used)
{
    uint8_t need = needed_sectors(s, r);
    int32_t way = gm_tag_probe(&s->tags, r->addr);
    uint8_t valid = way >= 0 ? gm_tag_line_at(&s->tags, way)->valid : 0;
    uint8_t missing = need & (uint8_t)~valid;
    if (way >= 0 && !missing) {
        if (!can_reply(s, now, *rep_used))
            return GM_L2_FAIL_REP_OUT;
        fifo_pop(&s->pipe_head, &s->pipe_tail);
        s->pipe_count--;
        gm_tag_touch(&s->tags, way);
        if (r->kind == GM_REQ_ATOMIC) {
            gm_tag_line_at(&s->tags, way)->dirty |= r->sectors & GM_TAG_ALL_SECTORS;
            s->stats.atomics++;
        }
        s->stats.hits[r->kind]++;
        count_read_sectors(s, need, valid, 0, false);
        send_reply(s, r, now);
        *rep_used = true;
        return FAIL_NONE;
    }
    int32_t e = gm_mshr_lookup(&s->mshr, r->addr);
    if (e >= 0) {
        /* Only a sectored fetch can lack a sector r needs; r then waits
         * for the fill and finds the line (docs/caches.md, sectored L2). */
        if (missing & (uint8_t)~gm_mshr_entry_at(&s->mshr, e)->fetch)
            return GM_L2_FAIL_SECTOR;
        if (!gm_mshr_can_merge(&s->mshr, e))
            return GM_L2_FAIL_MERGE;
        fifo_pop(&s->pipe_head, &s->pipe_tail);
        s->pipe_count--;
        gm_mshr_merge(&s->mshr, e, r);
        s->stats.mshr_merges++;
        count_read_sectors(s, need, valid, missing, true);
        return FAIL_NONE;
    }
    if (gm_mshr_full(&s->mshr))
        return GM_L2_FAIL_MSHR;
    if (!wb_slot_free(s))
        return GM_L2_FAIL_WB;
    if (*dram_used || !gm_link_can_push(s->p.dram_out, now))
        return GM_L2_FAIL_DRAM_OUT;
    fifo_pop(&s->pipe_head, &s->pipe_tail);
    s->pipe_count--;
    e = gm_mshr_allocate(&s->mshr, r->addr, r);
    if (s->cfg.cache.sectored) {
        /* r goes to DRAM asking for the missing sectors; the entry keeps
         * what r asked and the fill gives it back. */
        s->mshr.e[e].fetch = missing;
        r->sectors = missing;
    }
    if (way >= 0)
        s->stats.sector_misses++;
    else
        s->stats.misses[r->kind]++;
    count_read_sectors(s, need, valid, s->mshr.e[e].fetch, false);
    gm_link_push(s->p.dram_out, r, now);
    s->dram_pending++;
    s->stats.dram_reads++;
    *dram_used = true;
    return FAIL_NONE;
}

static int serve_store(gm_l2_slice *s, gm_req *r, gm_time now, bool *rep_used)
{
    uint8_t sec = r->sectors & GM_TAG_ALL_SECTORS;
    int32_t way = gm_tag_probe(&s->tags, r->addr);
    bool hit = way >= 0;
    bool need_wb = !hit && victim_is_dirty(s, r->addr);
    if (need_wb && !wb_slot_free(s))
        return GM_L2_FAIL_WB;
    if (!can_reply(s, now, *rep_used))
        return GM_L2_FAIL_REP_OUT;
    gm_req *wb = 0;
    if (need_wb && !(wb = gm_req_alloc(s->pool, now)))
        return GM_L2_FAIL_ALLOC;
    fifo_pop(&s->pipe_head, &s->pipe_tail);
    s->pipe_count--;
    if (hit) {
        gm_tag_touch(&s->tags, way);
        s->stats.hits[GM_REQ_STORE]++;
    } else {
        way = install(s, r->addr, wb, now);
        s->stats.misses[GM_REQ_STORE]++;
    }
    gm_tag_line *l = gm_tag_line_at(&s->tags, way);
    l->valid |= sec;
    l->dirty |= sec;
    send_reply(s, r, now);
    *rep_used = true;
    return FAIL_NONE;
}

static void serve_head(gm_l2_slice *s, gm_time now, bool *rep_used, bool *dram_used)
{
    gm_req *r = s->pipe_head;
    if (!r || gm_clock_edge_after(s->dom, r->t_l2, s->cfg.cache.latency) > now)
        return;
    int fail = r->kind == GM_REQ_STORE ? serve_store(s, r, now, rep_used)
                                       : serve_read(s, r, now, rep_used, dram_used);
    if (fail == FAIL_NONE)
        s->stats.accesses[r->kind]++;
    else
        s->stats.res_fail[fail]++;
}

/* ---- clock edge -------------------------------------------------------- */

void gm_l2_slice_tick(gm_l2_slice *s, gm_time now)
{
    bool rep_used = false, dram_used = false;

    if (s->dram_pending)
        take_from_dram(s, now);

    if (s->rep_head && can_reply(s, now, rep_used)) {
        s->rep_count--;
        send_reply(s, fifo_pop(&s->rep_head, &s->rep_tail), now);
        rep_used = true;
    }

    if (s->wb_head && gm_link_can_push(s->p.dram_out, now)) {
        s->wb_count--;
        gm_link_push(s->p.dram_out, fifo_pop(&s->wb_head, &s->wb_tail), now);
        s->dram_pending++;
        dram_used = true;
    }

    serve_head(s, now, &rep_used, &dram_used);

    gm_req *r = gm_link_peek(s->p.req_in, now);
    if (r) {
        if (s->pipe_count < s->pipe_cap) {
            gm_link_pop(s->p.req_in, now);
            r->t_l2 = now;
            gm_req_move(r, GM_LOC_L2, s->id, now);
            fifo_push(&s->pipe_head, &s->pipe_tail, r);
            s->pipe_count++;
        } else {
            s->stats.input_stalls++;
        }
    }
}

bool gm_l2_slice_busy(const gm_l2_slice *s)
{
    return s->pipe_count || s->rep_count || s->wb_count || s->mshr.used || s->dram_pending;
}
