#include "designs/sharedl1/sharedl1_cache.h"

#include <assert.h>
#include <stdlib.h>

int gm_sl1_init(gm_sl1 *c, const gm_cache_cfg *cfg, uint32_t id, uint32_t sf,
                uint32_t nlinks, bool classify, gm_residency *res, gm_error *err)
{
    *c = (gm_sl1){0};
    if (cfg->line_bytes != GM_LINE_BYTES)
        return gm_fail(err, "shared L1 line of %u bytes: requests are %u B lines",
                       cfg->line_bytes, GM_LINE_BYTES);
    if (cfg->miss_queue == 0)
        return gm_fail(err, "shared L1 miss queue must hold at least 1 request");
    if (sf == 0 || (nlinks != 1 && nlinks != sf))
        return gm_fail(err, "shared L1 with %u ports and %u links", sf, nlinks);
    c->cfg = *cfg;
    c->id = id;
    c->sf = sf;
    c->nlinks = nlinks;
    c->port = calloc(sf, sizeof *c->port);
    c->arb_last = calloc(nlinks, sizeof *c->arb_last);
    c->sent = calloc(nlinks, sizeof *c->sent);
    if (!c->port || !c->arb_last || !c->sent) {
        gm_sl1_free(c);
        return gm_fail(err, "out of memory for shared L1 %u", id);
    }
    for (uint32_t l = 0; l < nlinks; l++)
        c->arb_last[l] = sf - 1; /* the first grant goes to the link's lowest port */
    for (uint32_t i = 0; i < sf; i++) {
        gm_sl1_port *p = &c->port[i];
        p->c = c;
        p->index = i;
        p->last_access = UINT64_MAX;
        int rc = i == 0 ? gm_cache_engine_init(&p->e, cfg, res, &c->tags, &c->mshr,
                                               &c->stats, err)
                        : gm_cache_engine_bind(&p->e, cfg, res, &c->tags, &c->mshr,
                                               &c->stats, err);
        if (rc) {
            gm_sl1_free(c);
            return -1;
        }
        p->missq = calloc(cfg->miss_queue, sizeof *p->missq);
        if (!p->missq) {
            gm_sl1_free(c);
            return gm_fail(err, "out of memory for shared L1 %u", id);
        }
    }
    c->classify = classify;
    if (classify && gm_3c_init(&c->cls, cfg->size_bytes / cfg->line_bytes, err)) {
        gm_sl1_free(c);
        return -1;
    }
    return 0;
}

void gm_sl1_free(gm_sl1 *c)
{
    if (c->port) {
        /* bound engines first: port 0's owns the storage */
        for (uint32_t i = c->sf; i-- > 0;) {
            gm_cache_engine_free(&c->port[i].e);
            free(c->port[i].missq);
        }
    }
    free(c->port);
    free(c->arb_last);
    free(c->sent);
    c->port = NULL;
    c->arb_last = c->sent = NULL;
    gm_3c_free(&c->cls);
}

void gm_sl1_connect(gm_sl1 *c, gm_sl1_links links)
{
    c->p = links;
    for (uint32_t i = 0; i < c->sf; i++)
        gm_cache_engine_set_clock(&c->port[i].e, links.fill_in[0].consumer);
}

/* ---- access --------------------------------------------------------------- */

static bool missq_full(const gm_sl1 *c, const gm_sl1_port *p)
{
    return p->missq_count == c->cfg.miss_queue;
}

gm_cache_fail gm_sl1_check(const gm_sl1 *c, uint32_t i, const gm_req *r, gm_time now)
{
    const gm_sl1_port *p = &c->port[i];
    if (p->last_access == now || gm_cache_port_busy(&p->e, now))
        return GM_CACHE_FAIL_PORT;
    if (r->kind != GM_REQ_LOAD)
        return missq_full(c, p) ? GM_CACHE_FAIL_MISSQ : GM_CACHE_OK;
    gm_cache_probe pr = gm_cache_probe_read(&p->e, r->addr, r->sectors);
    if (pr.fail != GM_CACHE_OK)
        return (gm_cache_fail)pr.fail;
    return pr.outcome == GM_CACHE_MISS && missq_full(c, p) ? GM_CACHE_FAIL_MISSQ
                                                             : GM_CACHE_OK;
}

static void missq_push(gm_sl1 *c, gm_sl1_port *p, gm_req *r, gm_time now)
{
    assert(!missq_full(c, p));
    p->missq[(p->missq_head + p->missq_count) % c->cfg.miss_queue] = r;
    p->missq_count++;
    gm_req_move(r, GM_LOC_L1_MISSQ, c->id, now);
}

/* A read that joins a fetch another core of the group started is the
 * seed's inter-core coalescing. */
static bool other_core_fetch(const gm_sl1 *c, int32_t entry, const gm_req *r)
{
    const gm_req *primary = gm_mshr_entry_at(&c->mshr, entry)->primary;
    return primary && primary->src != r->src;
}

/* As gm_l1d_access: loads are cached, stores write-evict and go on,
 * atomics and non-L1 requests go on untouched, sized for the network. */
void gm_sl1_access(gm_sl1 *c, uint32_t i, gm_req *r, gm_time now)
{
    gm_sl1_port *p = &c->port[i];
    assert(gm_sl1_check(c, i, r, now) == GM_CACHE_OK);
    p->last_access = now;
    p->outstanding++;
    p->st.accesses++;
    r->l1 = (uint16_t)c->id;
    gm_req_move(r, GM_LOC_L1, c->id, now);
    gm_cache_count_access(&p->e, r);
    uint32_t bytes = gm_tag_sector_count(r->sectors) * GM_SECTOR_BYTES;
    switch (r->kind) {
    case GM_REQ_LOAD: {
        gm_cache_probe pr = gm_cache_probe_read(&p->e, r->addr, r->sectors);
        if (pr.outcome == GM_CACHE_MERGE && other_core_fetch(c, pr.entry, r))
            p->st.inter_merges++;
        if (c->classify) {
            if (pr.outcome == GM_CACHE_MERGE)
                gm_3c_touch(&c->cls, r->addr);
            else
                gm_3c_load(&c->cls, r->addr, pr.outcome == GM_CACHE_MISS);
        }
        gm_cache_read(&p->e, &pr, r, now);
        if (pr.outcome == GM_CACHE_MISS)
            missq_push(c, p, r, now);
        break;
    }
    case GM_REQ_STORE:
        if (c->classify)
            gm_3c_store(&c->cls, r->addr);
        gm_cache_write_evict_sectors(&p->e, r->addr, r->sectors);
        r->req_bytes = bytes;
        r->reply_bytes = 0;
        missq_push(c, p, r, now);
        break;
    case GM_REQ_ATOMIC:
        r->req_bytes = bytes;
        r->reply_bytes = bytes;
        missq_push(c, p, r, now);
        break;
    default: /* non-L1: instruction, texture, constant */
        r->req_bytes = 0;
        r->reply_bytes = bytes;
        missq_push(c, p, r, now);
        break;
    }
}

/* ---- clock edge ------------------------------------------------------------ */

static uint32_t port_of(const gm_sl1 *c, const gm_req *r)
{
    return r->src - c->id * c->sf;
}

static void complete(gm_sl1 *c, gm_req *r, gm_time now)
{
    r->is_reply = 1;
    gm_req_move(r, GM_LOC_CORE_REPLY, c->id, now);
    gm_req_fifo_push(&c->port[port_of(c, r)].done, r);
}

/* The invariant of a sharing group: its one cache holds a line in at most
 * one way (a second copy would mean two fills of one line, i.e. a miss
 * that did not merge). Checked on every allocating fill: one set scan. */
static void check_one_copy(gm_sl1 *c, uint64_t addr)
{
    const gm_tag_array *t = &c->tags;
    const gm_tag_line *set = &t->line[(size_t)gm_tag_set(t, addr) * t->assoc];
    uint32_t n = 0;
    for (uint32_t w = 0; w < t->assoc; w++)
        n += set[w].used && set[w].addr == addr;
    c->fill_lines_checked++;
    if (n != 1)
        c->invariant_errors++;
}

/* One reply per cycle. A line fill writes the data array through the port
 * of the core whose miss fetched the line, so it waits for that port. */
static void take_reply(gm_sl1 *c, uint32_t l, gm_time now)
{
    gm_link *in = &c->p.fill_in[l];
    gm_req *r = gm_link_peek(in, now);
    if (!r)
        return;
    if (r->kind == GM_REQ_LOAD) {
        gm_cache_engine *e = &c->port[port_of(c, r)].e;
        gm_cache_filled f;
        if (!gm_cache_fill(e, r, gm_cache_fill_mask(e, r), now, &f))
            return;
        gm_link_pop(in, now);
        c->sent[l]--;
        if (f.allocated)
            check_one_copy(c, r->addr);
        for (gm_req *w = f.waiters, *next; w; w = next) {
            next = w->next;
            complete(c, w, now);
        }
        return;
    }
    gm_link_pop(in, now);
    c->sent[l]--;
    complete(c, r, now);
}

/* Round robin over the miss queues of link l's ports (i % nlinks == l):
 * the first non-empty one after the last port granted goes, if the link
 * takes a request this cycle. */
static void send_miss(gm_sl1 *c, uint32_t l, gm_time now)
{
    uint32_t pick = UINT32_MAX;
    for (uint32_t k = 1; k <= c->sf; k++) {
        uint32_t i = (c->arb_last[l] + k) % c->sf;
        if (i % c->nlinks == l && c->port[i].missq_count) {
            pick = i;
            break;
        }
    }
    if (pick == UINT32_MAX)
        return;
    gm_link *out = &c->p.miss_out[l];
    bool granted = gm_link_can_push(out, now);
    for (uint32_t i = l; i < c->sf; i += c->nlinks)
        if (c->port[i].missq_count && !(granted && i == pick))
            c->port[i].st.arb_waits++;
    if (!granted)
        return;
    gm_sl1_port *p = &c->port[pick];
    gm_req *r = p->missq[p->missq_head];
    p->missq_head = (p->missq_head + 1) % c->cfg.miss_queue;
    p->missq_count--;
    gm_link_push(out, r, now);
    c->sent[l]++;
    c->l2_requests++;
    c->arb_last[l] = pick;
}

void gm_sl1_tick(gm_sl1 *c, gm_time now)
{
    for (uint32_t l = 0; l < c->nlinks; l++) {
        if (c->sent[l])
            take_reply(c, l, now);
        send_miss(c, l, now);
    }
}

gm_req *gm_sl1_pop_done(gm_sl1 *c, uint32_t i, gm_time now)
{
    gm_sl1_port *p = &c->port[i];
    gm_req *r = gm_cache_hit_pop(&p->e, now);
    if (r) {
        r->is_reply = 1;
        gm_req_move(r, GM_LOC_CORE_REPLY, c->id, now);
    } else {
        r = gm_req_fifo_pop(&p->done);
    }
    if (r)
        p->outstanding--;
    return r;
}

bool gm_sl1_busy(const gm_sl1 *c)
{
    if (c->mshr.used)
        return true;
    for (uint32_t l = 0; l < c->nlinks; l++)
        if (c->sent[l])
            return true;
    for (uint32_t i = 0; i < c->sf; i++) {
        const gm_sl1_port *p = &c->port[i];
        if (p->outstanding || p->missq_count || p->e.hits.head || !gm_req_fifo_empty(&p->done))
            return true;
    }
    return false;
}

/* ---- the core's port -------------------------------------------------------- */

/* Port 0's core ticks first in the group (cores tick in index order), so
 * the cache's fills and its one miss per cycle happen there, before any of
 * the group's cores pops or accesses in this cycle. */
static void port_cycle(void *ctx, gm_time now)
{
    gm_sl1_port *p = ctx;
    if (p->index == 0)
        gm_sl1_tick(p->c, now);
}

static gm_req *port_pop_reply(void *ctx, gm_time now)
{
    gm_sl1_port *p = ctx;
    return gm_sl1_pop_done(p->c, p->index, now);
}

static bool port_offer(void *ctx, const gm_req *probe, gm_time now)
{
    gm_sl1_port *p = ctx;
    gm_cache_fail why = gm_sl1_check(p->c, p->index, probe, now);
    if (why == GM_CACHE_OK)
        return true;
    p->c->stats.res_fail[why]++;
    p->st.refusals++;
    return false;
}

static void port_accept(void *ctx, gm_req *r, gm_time now)
{
    gm_sl1_port *p = ctx;
    gm_sl1_access(p->c, p->index, r, now);
}

static bool port_busy(const void *ctx)
{
    const gm_sl1_port *p = ctx;
    return p->outstanding != 0;
}

const gm_core_port_ops gm_sl1_core_port = {
    .cycle = port_cycle,
    .pop_reply = port_pop_reply,
    .offer = port_offer,
    .accept = port_accept,
    .busy = port_busy,
};
