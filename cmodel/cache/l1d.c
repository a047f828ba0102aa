#include "cache/l1d.h"

#include <assert.h>
#include <stdlib.h>

int gm_l1d_init(gm_l1d *c, const gm_cache_cfg *cfg, uint32_t id, gm_residency *res,
                gm_error *err)
{
    *c = (gm_l1d){0};
    if (cfg->line_bytes != GM_LINE_BYTES)
        return gm_fail(err, "L1D line of %u bytes: requests are %u B lines", cfg->line_bytes,
                       GM_LINE_BYTES);
    if (cfg->miss_queue == 0)
        return gm_fail(err, "L1D miss queue must hold at least 1 request");
    c->cfg = *cfg;
    c->id = id;
    c->last_access = UINT64_MAX;
    if (gm_cache_engine_init(&c->e, cfg, res, &c->tags, &c->mshr, &c->stats, err))
        return -1;
    c->missq = calloc(cfg->miss_queue, sizeof *c->missq);
    if (!c->missq) {
        gm_l1d_free(c);
        return gm_fail(err, "out of memory for L1D %u", id);
    }
    return 0;
}

void gm_l1d_free(gm_l1d *c)
{
    gm_cache_engine_free(&c->e);
    free(c->missq);
    c->missq = 0;
}

void gm_l1d_connect(gm_l1d *c, gm_l1d_ports ports)
{
    c->p = ports;
    gm_cache_engine_set_clock(&c->e, ports.fill_in->consumer);
}

/* ---- access ------------------------------------------------------------ */

static bool missq_full(const gm_l1d *c)
{
    return c->missq_count == c->cfg.miss_queue;
}

/* The verdict apart from the data port. */
static gm_l1d_fail check_state(const gm_l1d *c, const gm_req *r)
{
    if (r->kind != GM_REQ_LOAD)
        return missq_full(c) ? GM_L1D_FAIL_MISSQ : GM_L1D_OK;
    gm_cache_probe p = gm_cache_probe_read(&c->e, r->addr, r->sectors);
    if (p.fail != GM_CACHE_OK)
        return (gm_l1d_fail)p.fail;
    return p.outcome == GM_CACHE_MISS && missq_full(c) ? GM_L1D_FAIL_MISSQ : GM_L1D_OK;
}

gm_l1d_fail gm_l1d_check(const gm_l1d *c, const gm_req *r, gm_time now)
{
    if (c->last_access == now || gm_cache_port_busy(&c->e, now))
        return GM_L1D_FAIL_PORT;
    return check_state(c, r);
}

bool gm_l1d_can_access(const gm_l1d *c, const gm_req *r, gm_time now)
{
    return gm_l1d_check(c, r, now) == GM_L1D_OK;
}

void gm_l1d_count_refusal(gm_l1d *c, const gm_req *r, gm_time now)
{
    c->stats.res_fail[gm_l1d_check(c, r, now)]++;
}

/* Exact: a refusal for the same (addr, sectors, kind) with no change to
 * the tags, MSHRs or miss queue since would be found again; the data
 * port, which others may hold (a CCN steal), is looked at every time. */
bool gm_l1d_offer(gm_l1d *c, const gm_req *r, gm_time now)
{
    gm_l1d_fail why;
    if (c->last_access == now || gm_cache_port_busy(&c->e, now)) {
        why = GM_L1D_FAIL_PORT;
    } else if (c->memo_valid && c->memo_changes == c->changes && c->memo_addr == r->addr &&
               c->memo_sectors == r->sectors && c->memo_kind == r->kind) {
        why = (gm_l1d_fail)c->memo_fail;
    } else {
        why = check_state(c, r);
        if (why == GM_L1D_OK)
            return true;
        c->memo_valid = 1;
        c->memo_changes = c->changes;
        c->memo_addr = r->addr;
        c->memo_sectors = r->sectors;
        c->memo_kind = r->kind;
        c->memo_fail = (uint8_t)why;
    }
    c->stats.res_fail[why]++;
    return false;
}

static void missq_push(gm_l1d *c, gm_req *r, gm_time now)
{
    assert(!missq_full(c));
    c->missq[(c->missq_head + c->missq_count) % c->cfg.miss_queue] = r;
    c->missq_count++;
    gm_req_move(r, GM_LOC_L1_MISSQ, c->id, now);
}

/* What each kind means here: loads are cached (a primary miss is the
 * line fetch), stores write-evict and go on, atomics and non-L1 requests
 * go on untouched, sized for the network. */
void gm_l1d_access(gm_l1d *c, gm_req *r, gm_time now)
{
    assert(gm_l1d_can_access(c, r, now));
    c->last_access = now;
    c->changes++;
    r->l1 = (uint16_t)c->id;
    gm_req_move(r, GM_LOC_L1, c->id, now);
    gm_cache_count_access(&c->e, r);
    uint32_t bytes = gm_tag_sector_count(r->sectors) * GM_SECTOR_BYTES;
    switch (r->kind) {
    case GM_REQ_LOAD: {
        gm_cache_probe p = gm_cache_probe_read(&c->e, r->addr, r->sectors);
        gm_cache_read(&c->e, &p, r, now);
        if (p.outcome == GM_CACHE_MISS)
            missq_push(c, r, now);
        break;
    }
    case GM_REQ_STORE:
        gm_cache_write_evict_sectors(&c->e, r->addr, r->sectors);
        r->req_bytes = bytes;
        r->reply_bytes = 0;
        missq_push(c, r, now);
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

static void complete(gm_l1d *c, gm_req *r, gm_time now)
{
    r->is_reply = 1;
    gm_req_move(r, GM_LOC_CORE_REPLY, c->id, now);
    gm_req_fifo_push(&c->done, r);
}

/* One reply per cycle from fill_in. A line fill writes the data array, so
 * it waits for the data port; other replies go straight to the core.
 * Out of line, as send_miss: most edges have neither to do, and then the
 * tick saves no registers. */
static __attribute__((noinline)) void take_reply(gm_l1d *c, gm_req *r, gm_time now)
{
    if (r->kind == GM_REQ_LOAD) {
        gm_cache_filled f;
        if (!gm_cache_fill(&c->e, r, gm_cache_fill_mask(&c->e, r), now, &f))
            return;
        c->changes++;
        gm_link_pop(c->p.fill_in, now);
        c->outstanding--;
        for (gm_req *w = f.waiters, *next; w; w = next) {
            next = w->next;
            complete(c, w, now);
        }
        return;
    }
    gm_link_pop(c->p.fill_in, now);
    c->outstanding--;
    complete(c, r, now);
}

static __attribute__((noinline)) void send_miss(gm_l1d *c, gm_time now)
{
    if (!gm_link_can_push(c->p.miss_out, now))
        return;
    gm_req *r = c->missq[c->missq_head];
    c->missq_head = (c->missq_head + 1) % c->cfg.miss_queue;
    c->missq_count--;
    c->changes++;
    gm_link_push(c->p.miss_out, r, now);
    c->outstanding++;
}

void gm_l1d_tick(gm_l1d *c, gm_time now)
{
    gm_req *r;
    if (c->outstanding && (r = gm_link_peek(c->p.fill_in, now)) != 0)
        take_reply(c, r, now);
    if (c->missq_count)
        send_miss(c, now);
}

gm_req *gm_l1d_pop_done(gm_l1d *c, gm_time now)
{
    gm_req *r = gm_cache_hit_pop(&c->e, now);
    if (r) {
        r->is_reply = 1;
        gm_req_move(r, GM_LOC_CORE_REPLY, c->id, now);
        return r;
    }
    return gm_req_fifo_pop(&c->done);
}

bool gm_l1d_busy(const gm_l1d *c)
{
    return c->outstanding || c->missq_count || gm_cache_busy(&c->e) ||
           !gm_req_fifo_empty(&c->done);
}
