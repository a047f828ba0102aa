#include "cache/l1d.h"

#include <assert.h>
#include <stdlib.h>

static inline uint32_t sector_count(uint8_t mask)
{
    return (uint32_t)__builtin_popcount(mask & GM_TAG_ALL_SECTORS);
}

static inline uint32_t div_ceil(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

int gm_l1d_init(gm_l1d *c, const gm_cache_cfg *cfg, uint32_t id, gm_residency *res,
                gm_error *err)
{
    *c = (gm_l1d){0};
    if (cfg->line_bytes != GM_LINE_BYTES)
        return gm_fail(err, "L1D line of %u bytes: requests are %u B lines", cfg->line_bytes,
                       GM_LINE_BYTES);
    if (cfg->miss_queue == 0)
        return gm_fail(err, "L1D miss queue must hold at least 1 request");
    if (cfg->port_bytes == 0)
        return gm_fail(err, "L1D data port must be at least 1 byte wide");
    c->cfg = *cfg;
    c->id = id;
    c->res = res;
    c->last_access = UINT64_MAX;
    c->fill_busy = div_ceil(cfg->line_bytes, cfg->port_bytes);
    if (gm_tag_array_init(&c->tags, cfg->size_bytes, cfg->line_bytes, cfg->assoc, err) ||
        gm_mshr_init(&c->mshr, cfg->mshr_entries, cfg->mshr_merge, err)) {
        gm_l1d_free(c);
        return -1;
    }
    c->missq = calloc(cfg->miss_queue, sizeof *c->missq);
    if (!c->missq) {
        gm_l1d_free(c);
        return gm_fail(err, "out of memory for L1D %u", id);
    }
    return 0;
}

void gm_l1d_free(gm_l1d *c)
{
    gm_tag_array_free(&c->tags);
    gm_mshr_free(&c->mshr);
    free(c->missq);
    c->missq = 0;
}

void gm_l1d_connect(gm_l1d *c, gm_l1d_ports ports)
{
    c->p = ports;
    c->dom = ports.fill_in->consumer;
}

/* ---- access ------------------------------------------------------------ */

static bool missq_full(const gm_l1d *c)
{
    return c->missq_count == c->cfg.miss_queue;
}

gm_l1d_fail gm_l1d_check(const gm_l1d *c, const gm_req *r, gm_time now)
{
    if (c->last_access == now || c->port_free_at > now)
        return GM_L1D_FAIL_PORT;
    if (r->kind != GM_REQ_LOAD)
        return missq_full(c) ? GM_L1D_FAIL_MISSQ : GM_L1D_OK;
    int32_t way = gm_tag_probe(&c->tags, r->addr);
    if (way >= 0 && gm_tag_has_sectors(&c->tags, way, r->sectors))
        return GM_L1D_OK;
    int32_t e = gm_mshr_lookup(&c->mshr, r->addr);
    if (e >= 0)
        return gm_mshr_can_merge(&c->mshr, e) ? GM_L1D_OK : GM_L1D_FAIL_MERGE;
    if (gm_mshr_full(&c->mshr))
        return GM_L1D_FAIL_MSHR;
    return missq_full(c) ? GM_L1D_FAIL_MISSQ : GM_L1D_OK;
}

bool gm_l1d_can_access(const gm_l1d *c, const gm_req *r, gm_time now)
{
    return gm_l1d_check(c, r, now) == GM_L1D_OK;
}

void gm_l1d_count_refusal(gm_l1d *c, const gm_req *r, gm_time now)
{
    c->stats.res_fail[gm_l1d_check(c, r, now)]++;
}

static void use_port(gm_l1d *c, uint32_t cycles, gm_time now)
{
    c->port_free_at = gm_clock_edge_after(c->dom, now, cycles);
    c->stats.port_busy_cycles += cycles;
}

static void missq_push(gm_l1d *c, gm_req *r, gm_time now)
{
    assert(!missq_full(c));
    c->missq[(c->missq_head + c->missq_count) % c->cfg.miss_queue] = r;
    c->missq_count++;
    gm_req_move(r, GM_LOC_L1_MISSQ, c->id, now);
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

static void access_load(gm_l1d *c, gm_req *r, gm_time now)
{
    int32_t way = gm_tag_probe(&c->tags, r->addr);
    if (way >= 0 && gm_tag_has_sectors(&c->tags, way, r->sectors)) {
        gm_tag_touch(&c->tags, way);
        c->stats.load_hits++;
        use_port(c, div_ceil(sector_count(r->sectors) * GM_SECTOR_BYTES, c->cfg.port_bytes),
                 now);
        list_append(&c->hit_head, &c->hit_tail, r);
        return;
    }
    int32_t e = gm_mshr_lookup(&c->mshr, r->addr);
    if (e >= 0) {
        int rc = gm_mshr_merge(&c->mshr, e, r);
        assert(rc == 0);
        (void)rc;
        c->stats.mshr_merges++;
        return;
    }
    c->stats.load_misses++;
    if (c->res && gm_residency_count(c->res, r->addr) > 0)
        c->stats.miss_resident_elsewhere++;
    e = gm_mshr_allocate(&c->mshr, r->addr, r);
    assert(e >= 0);
    r->req_bytes = 0;
    r->reply_bytes = c->cfg.line_bytes; /* the L1 fills whole lines */
    missq_push(c, r, now);
}

static void access_store(gm_l1d *c, gm_req *r, gm_time now)
{
    int32_t way = gm_tag_probe(&c->tags, r->addr);
    if (way >= 0) {
        gm_tag_invalidate(&c->tags, way);
        if (c->res)
            gm_residency_remove(c->res, r->addr);
        c->stats.write_evicts++;
    } else {
        c->stats.store_misses++;
    }
    r->req_bytes = sector_count(r->sectors) * GM_SECTOR_BYTES;
    r->reply_bytes = 0;
    missq_push(c, r, now);
}

void gm_l1d_access(gm_l1d *c, gm_req *r, gm_time now)
{
    assert(gm_l1d_can_access(c, r, now));
    c->last_access = now;
    r->node = (uint16_t)c->id;
    gm_req_move(r, GM_LOC_L1, c->id, now);
    c->stats.accesses[r->kind]++;
    c->stats.sectors[r->kind] += sector_count(r->sectors);
    uint32_t bytes = sector_count(r->sectors) * GM_SECTOR_BYTES;
    switch (r->kind) {
    case GM_REQ_LOAD:
        access_load(c, r, now);
        break;
    case GM_REQ_STORE:
        access_store(c, r, now);
        break;
    case GM_REQ_ATOMIC:
        r->req_bytes = bytes;
        r->reply_bytes = bytes;
        missq_push(c, r, now);
        break;
    default: /* non-L1: instruction, texture, constant */
        r->req_bytes = 0;
        r->reply_bytes = bytes;
        missq_push(c, r, now);
        break;
    }
}

bool gm_l1d_try_access(gm_l1d *c, gm_req *r, gm_time now)
{
    gm_l1d_fail why = gm_l1d_check(c, r, now);
    if (why != GM_L1D_OK) {
        c->stats.res_fail[why]++;
        return false;
    }
    gm_l1d_access(c, r, now);
    return true;
}

/* ---- clock edge -------------------------------------------------------- */

static void install_line(gm_l1d *c, uint64_t addr)
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
        if (c->res && gm_residency_add(c->res, addr) != 0)
            c->stats.residency_errors++;
    } else {
        gm_tag_touch(&c->tags, way);
    }
    gm_tag_line_at(&c->tags, way)->valid = GM_TAG_ALL_SECTORS;
    c->stats.fills++;
}

static void complete(gm_l1d *c, gm_req *r, gm_time now)
{
    r->is_reply = 1;
    gm_req_move(r, GM_LOC_CORE_REPLY, c->id, now);
    list_append(&c->done_head, &c->done_tail, r);
}

/* One reply per cycle from fill_in. A line fill writes the data array, so
 * it waits for the data port; other replies go straight to the core. */
static void take_reply(gm_l1d *c, gm_time now)
{
    gm_req *r = gm_link_peek(c->p.fill_in, now);
    if (!r)
        return;
    if (r->kind == GM_REQ_LOAD) {
        if (c->port_free_at > now) {
            c->stats.fill_port_waits++;
            return;
        }
        gm_link_pop(c->p.fill_in, now);
        c->outstanding--;
        use_port(c, c->fill_busy, now);
        install_line(c, r->addr);
        int32_t e = gm_mshr_lookup(&c->mshr, r->addr);
        assert(e >= 0 && gm_mshr_entry_at(&c->mshr, e)->primary == r);
        gm_req *list = r;
        if (e >= 0)
            list = gm_mshr_release(&c->mshr, e);
        else
            r->next = 0;
        while (list) {
            gm_req *next = list->next;
            complete(c, list, now);
            list = next;
        }
        return;
    }
    gm_link_pop(c->p.fill_in, now);
    c->outstanding--;
    complete(c, r, now);
}

void gm_l1d_tick(gm_l1d *c, gm_time now)
{
    if (c->outstanding)
        take_reply(c, now);
    if (c->missq_count && gm_link_can_push(c->p.miss_out, now)) {
        gm_req *r = c->missq[c->missq_head];
        c->missq_head = (c->missq_head + 1) % c->cfg.miss_queue;
        c->missq_count--;
        gm_link_push(c->p.miss_out, r, now);
        c->outstanding++;
    }
}

gm_req *gm_l1d_pop_done(gm_l1d *c, gm_time now)
{
    gm_req *r = c->hit_head;
    if (r && gm_clock_edge_after(c->dom, r->t_loc, c->cfg.latency) <= now) {
        c->hit_head = r->next;
        if (!c->hit_head)
            c->hit_tail = 0;
        r->next = 0;
        r->is_reply = 1;
        gm_req_move(r, GM_LOC_CORE_REPLY, c->id, now);
        return r;
    }
    r = c->done_head;
    if (r) {
        c->done_head = r->next;
        if (!c->done_head)
            c->done_tail = 0;
        r->next = 0;
    }
    return r;
}

bool gm_l1d_busy(const gm_l1d *c)
{
    return c->outstanding || c->missq_count || c->mshr.used || c->hit_head || c->done_head;
}
