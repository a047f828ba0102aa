#include "designs/ata/ata_node.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Why a lookup is refused, finer than gm_cache_fail: the design counts
 * bank conflicts, comparator-port and crossbar refusals apart. */
typedef enum refusal {
    R_OK = 0,
    R_BUSY,      /* the L1 already took a lookup this cycle */
    R_TAGPORT,   /* ata: the cluster's comparator ports are used up */
    R_BANK,      /* the data bank of the line is busy */
    R_MSHR,
    R_MERGE,
    R_SECTOR,
    R_MISSQ,     /* the request must go to L2 and the miss queue is full */
    R_XQ,        /* the request must cross the cluster crossbar and its queue is full */
} refusal;

static int fail_of(refusal why)
{
    switch (why) {
    case R_OK: return GM_CACHE_OK;
    case R_MSHR: return GM_CACHE_FAIL_MSHR;
    case R_MERGE: return GM_CACHE_FAIL_MERGE;
    case R_SECTOR: return GM_CACHE_FAIL_SECTOR;
    case R_MISSQ: case R_XQ: return GM_CACHE_FAIL_MISSQ;
    default: return GM_CACHE_FAIL_PORT;
    }
}

static refusal refusal_of_probe(uint8_t fail)
{
    switch (fail) {
    case GM_CACHE_FAIL_MSHR: return R_MSHR;
    case GM_CACHE_FAIL_MERGE: return R_MERGE;
    case GM_CACHE_FAIL_SECTOR: return R_SECTOR;
    default: return R_OK;
    }
}

int gm_ata_node_init(gm_ata_node *n, uint32_t id, uint32_t k, const gm_config *cfg,
                     gm_residency *res, gm_ata_tags *ata, gm_error *err)
{
    memset(n, 0, sizeof *n);
    const gm_cache_cfg *c = &cfg->l1;
    if (c->line_bytes != GM_LINE_BYTES)
        return gm_fail(err, "ata L1 line of %u bytes: requests are %u B lines", c->line_bytes,
                       GM_LINE_BYTES);
    if (c->miss_queue == 0)
        return gm_fail(err, "ata L1 miss queue must hold at least 1 request");
    n->id = id;
    n->k = k;
    n->local = id % k;
    n->org = cfg->ata.org;
    n->remote_fill = cfg->ata.remote_fill != 0;
    while ((1u << n->home_shift) < cfg->ata.home_granule)
        n->home_shift++;
    n->cfg = *c;
    n->ata = ata;
    n->nbanks = cfg->ata.banks;
    n->xq_cap = cfg->ata.xbar_queue;
    n->latency = c->latency;
    n->last_access = UINT64_MAX;
    /* at most max_warps * 8 memory instructions of a core are in flight
     * (core.c); twice that many slots keep the probe chains short */
    uint32_t slots = 16;
    while (slots < 16 * cfg->core.max_warps)
        slots <<= 1;
    n->inst = calloc(slots, sizeof *n->inst);
    if (!n->inst)
        return gm_fail(err, "out of memory for ata L1 %u", id);
    n->inst_mask = slots - 1;
    if (gm_cache_engine_init(&n->bank[0], c, res, &n->tags, &n->mshr, &n->cstats, err))
        return -1;
    for (uint32_t b = 1; b < n->nbanks; b++)
        if (gm_cache_engine_bind(&n->bank[b], c, res, &n->tags, &n->mshr, &n->cstats, err))
            return -1;
    return 0;
}

void gm_ata_node_free(gm_ata_node *n)
{
    gm_cache_engine_free(&n->bank[0]);
    free(n->inst);
    n->inst = NULL;
}

/* ---- per-instruction latency (the seed's L1 access latency) ------------------- */

static uint32_t inst_home(const gm_ata_node *n, const void *rec)
{
    return (uint32_t)(((uintptr_t)rec >> 4) * 0x9E3779B1u) & n->inst_mask;
}

/* Slot of rec, or of the empty slot where it would go. */
static uint32_t inst_find(const gm_ata_node *n, const void *rec)
{
    uint32_t i = inst_home(n, rec);
    while (n->inst[i].rec && n->inst[i].rec != rec)
        i = (i + 1) & n->inst_mask;
    return i;
}

/* A load request accepted: the first of its instruction starts the clock. */
static void inst_start(gm_ata_node *n, const gm_req *r, gm_time now)
{
    if (r->kind != GM_REQ_LOAD || !r->owner)
        return;
    uint32_t i = inst_find(n, r->owner);
    if (n->inst[i].rec)
        return;
    if (2 * (n->inst_used + 1) > n->inst_mask + 1) {
        n->st.inst_untracked++;
        return;
    }
    n->inst[i] = (gm_ata_inst){.rec = r->owner, .first = now};
    n->inst_used++;
}

/* Removes slot i, shifting later entries of its probe chain back. */
static void inst_delete(gm_ata_node *n, uint32_t i)
{
    for (uint32_t j = i;;) {
        j = (j + 1) & n->inst_mask;
        if (!n->inst[j].rec)
            break;
        uint32_t k = inst_home(n, n->inst[j].rec);
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays)
            continue;
        n->inst[i] = n->inst[j];
        i = j;
    }
    n->inst[i].rec = NULL;
    n->inst_used--;
}

/* r goes back to its core now. The core counts the instruction's requests
 * down as it takes them (gm_mem_rec.remaining, core/core.h): r is the
 * instruction's last when one is left. */
static void inst_reply(gm_ata_node *n, const gm_req *r, gm_time now)
{
    if (r->kind != GM_REQ_LOAD || !r->owner ||
        ((const gm_mem_rec *)r->owner)->remaining != 1)
        return;
    uint32_t i = inst_find(n, r->owner);
    if (!n->inst[i].rec)
        return; /* untracked */
    uint64_t lat = (now - n->inst[i].first) / n->dom->period;
    n->st.inst_lat_sum += lat;
    n->st.inst_lat_n++;
    if (lat > n->st.inst_lat_max)
        n->st.inst_lat_max = lat;
    inst_delete(n, i);
}

void gm_ata_node_connect(gm_ata_node *n, gm_ata_node_ports p, const gm_clock_domain *core)
{
    n->p = p;
    n->dom = core;
    for (uint32_t b = 0; b < n->nbanks; b++)
        gm_cache_engine_set_clock(&n->bank[b], core);
}

static gm_cache_engine *bank_for(gm_ata_node *n, uint64_t addr)
{
    return &n->bank[gm_ata_bank_of(n, addr)];
}

static const gm_cache_engine *bank_for_const(const gm_ata_node *n, uint64_t addr)
{
    return &n->bank[gm_ata_bank_of(n, addr)];
}

/* Does the request leave for its home node (decoupled) instead of being
 * looked up here? */
static bool goes_home(const gm_ata_node *n, const gm_req *r)
{
    return n->org == GM_ATA_DECOUPLED &&
           (r->kind == GM_REQ_LOAD || r->kind == GM_REQ_STORE) &&
           gm_ata_home_of(n, r->addr) != n->local;
}

/* Hit vector of a load over the whole cluster (bit local included); 0 in
 * the organizations without an aggregated tag array. */
static uint32_t hit_vector(const gm_ata_node *n, const gm_req *r)
{
    return n->org == GM_ATA_ATA ? gm_ata_hit_vector(n->ata, r->addr, r->sectors) : 0;
}

/* A lookup in this L1 (by its own core, or by another core at its home). */
static refusal lookup_check(const gm_ata_node *n, const gm_req *r, gm_time now, bool own)
{
    if (n->last_access == now)
        return R_BUSY;
    if (r->kind != GM_REQ_LOAD)
        return n->missq_n < n->cfg.miss_queue ? R_OK : R_MISSQ;
    if (own && n->org == GM_ATA_ATA && !gm_ata_tags_port_free(n->ata, now))
        return R_TAGPORT;
    const gm_cache_engine *e = bank_for_const(n, r->addr);
    gm_cache_probe p = gm_cache_probe_read(e, r->addr, r->sectors);
    if (p.outcome == GM_CACHE_HIT && gm_cache_port_busy(e, now))
        return R_BANK;
    if (p.fail != GM_CACHE_OK)
        return refusal_of_probe(p.fail);
    if (p.outcome != GM_CACHE_MISS)
        return R_OK;
    uint32_t remote = hit_vector(n, r) & ~(1u << n->local);
    if (remote)
        return n->xq_n < n->xq_cap ? R_OK : R_XQ;
    return n->missq_n < n->cfg.miss_queue ? R_OK : R_MISSQ;
}

static refusal check(const gm_ata_node *n, const gm_req *r, gm_time now)
{
    if (goes_home(n, r)) {
        if (n->last_access == now)
            return R_BUSY;
        return n->xq_n < n->xq_cap ? R_OK : R_XQ;
    }
    return lookup_check(n, r, now, true);
}

int gm_ata_node_check(const gm_ata_node *n, const gm_req *r, gm_time now)
{
    return fail_of(check(n, r, now));
}

static void count_refusal(gm_ata_node *n, refusal why)
{
    n->cstats.res_fail[fail_of(why)]++;
    if (why == R_BANK)
        n->st.bank_conflicts++;
    else if (why == R_TAGPORT)
        n->st.tag_port_refusals++;
    else if (why == R_XQ)
        n->st.xbar_refusals++;
}

static void to_l2(gm_ata_node *n, gm_req *r, gm_time now)
{
    gm_req_move(r, GM_LOC_L1_MISSQ, n->id, now);
    gm_req_fifo_push(&n->missq, r);
    n->missq_n++;
}

static void to_xbar(gm_ata_node *n, gm_req *r, uint32_t target, gm_time now)
{
    r->block_handle = target; /* the cluster request crossbar routes on it */
    gm_req_move(r, GM_LOC_NODE, n->id, now);
    gm_req_fifo_push(&n->xq, r);
    n->xq_n++;
}

/* Whether another L1 of the cluster has a fetch of addr's line pending. */
static bool pending_elsewhere(const gm_ata_node *n, uint64_t addr)
{
    for (uint32_t j = 0; j < n->k; j++)
        if (j != n->local && gm_mshr_lookup(n->ata->mshrs[j], addr) >= 0)
            return true;
    return false;
}

/* The load lookup: local hit, local merge, remote hit (ata) or L2. */
static void lookup_load(gm_ata_node *n, gm_req *r, bool own, gm_time now)
{
    gm_cache_engine *e = bank_for(n, r->addr);
    gm_cache_probe p = gm_cache_probe_read(e, r->addr, r->sectors);
    int32_t remote = -1;
    if (n->org == GM_ATA_ATA) {
        uint32_t hv = gm_ata_hit_vector(n->ata, r->addr, r->sectors);
        gm_ata_tags_check(n->ata, r->addr, r->sectors, hv);
        gm_ata_tags_take_port(n->ata, now);
        uint32_t pop = 0;
        for (uint32_t v = hv; v; v &= v - 1)
            pop++;
        n->st.hv_pop[pop]++;
        if (p.outcome == GM_CACHE_MISS)
            remote = gm_ata_pick_remote(hv, n->local, n->k);
        if (remote >= 0) {
            /* The invariant of a remote hit, checked apart from the hit
             * vector: the target's tags hold the line with the sectors. */
            const gm_tag_array *t = n->ata->arrays[remote];
            int32_t way = gm_tag_probe(t, r->addr);
            if (way < 0 || !gm_tag_has_sectors(t, way, r->sectors))
                n->st.invariant_violations++;
        }
    }
    gm_cache_read(e, &p, r, now);
    if (p.outcome == GM_CACHE_HIT)
        gm_ata_tags_mirror(n->ata, n->local, GM_ATA_OP_TOUCH, r->addr, 0, UINT64_MAX);
    switch (p.outcome) {
    case GM_CACHE_HIT:
        if (own)
            n->st.local_hits++;
        else
            n->st.remote_hits++;
        break;
    case GM_CACHE_MERGE:
        if (own)
            n->st.local_merges++;
        else
            n->st.remote_merges++;
        break;
    default:
        if (remote >= 0) {
            n->st.remote_hits++;
            to_xbar(n, r, (uint32_t)remote, now);
        } else {
            n->st.l2_misses++;
            if (n->org == GM_ATA_ATA && pending_elsewhere(n, r->addr))
                n->st.l2_while_pending++;
            to_l2(n, r, now);
        }
        break;
    }
}

/* A lookup in this L1; lookup_check said yes. */
static void lookup(gm_ata_node *n, gm_req *r, bool own, gm_time now)
{
    n->last_access = now;
    r->l1 = (uint16_t)n->id;
    gm_req_move(r, GM_LOC_L1, n->id, now);
    gm_cache_count_access(&n->bank[0], r);
    uint32_t bytes = gm_tag_sector_count(r->sectors) * GM_SECTOR_BYTES;
    switch (r->kind) {
    case GM_REQ_LOAD:
        lookup_load(n, r, own, now);
        break;
    case GM_REQ_STORE:
        gm_cache_write_evict(&n->bank[0], r->addr);
        gm_ata_tags_mirror(n->ata, n->local, GM_ATA_OP_INVAL, r->addr, 0, UINT64_MAX);
        r->req_bytes = bytes;
        r->reply_bytes = 0;
        to_l2(n, r, now);
        break;
    case GM_REQ_ATOMIC:
        r->req_bytes = bytes;
        r->reply_bytes = bytes;
        to_l2(n, r, now);
        break;
    default: /* non-L1: instruction, texture, constant */
        r->req_bytes = 0;
        r->reply_bytes = bytes;
        to_l2(n, r, now);
        break;
    }
}

/* ---- the core port ---------------------------------------------------------- */

bool gm_ata_node_offer(void *node, const gm_req *probe, gm_time now)
{
    gm_ata_node *n = node;
    refusal why = check(n, probe, now);
    if (why == R_OK)
        return true;
    count_refusal(n, why);
    return false;
}

void gm_ata_node_accept(void *node, gm_req *r, gm_time now)
{
    gm_ata_node *n = node;
    assert(check(n, r, now) == R_OK);
    n->outstanding++;
    r->t_mark = now;
    inst_start(n, r, now);
    if (goes_home(n, r)) {
        uint32_t home = gm_ata_home_of(n, r->addr);
        n->last_access = now; /* the core's one request this cycle */
        r->l1 = (uint16_t)(n->id - n->local + home);
        r->req_bytes = r->kind == GM_REQ_STORE
                           ? gm_tag_sector_count(r->sectors) * GM_SECTOR_BYTES : 0;
        r->reply_bytes = r->kind == GM_REQ_LOAD
                             ? gm_tag_sector_count(r->sectors) * GM_SECTOR_BYTES : 0;
        to_xbar(n, r, home, now);
        return;
    }
    lookup(n, r, true, now);
}

gm_req *gm_ata_node_pop_reply(void *node, gm_time now)
{
    gm_ata_node *n = node;
    gm_req *r = gm_req_fifo_pop(&n->done);
    if (r) {
        n->outstanding--;
        inst_reply(n, r, now);
    }
    return r;
}

bool gm_ata_node_busy(const void *node)
{
    const gm_ata_node *n = node;
    if (n->outstanding || n->mshr.used || n->missq_n || n->xq_n ||
        !gm_req_fifo_empty(&n->rq) || !gm_req_fifo_empty(&n->rpipe) ||
        !gm_req_fifo_empty(&n->done))
        return true;
    for (uint32_t b = 0; b < n->nbanks; b++)
        if (gm_cache_busy(&n->bank[b]))
            return true;
    return false;
}

const gm_core_port_ops gm_ata_node_port = {
    .cycle = gm_ata_node_cycle,
    .pop_reply = gm_ata_node_pop_reply,
    .offer = gm_ata_node_offer,
    .accept = gm_ata_node_accept,
    .busy = gm_ata_node_busy,
};

/* ---- the clock edge ------------------------------------------------------------ */

/* r is complete here: to the core if it is this node's, else back over the
 * reply crossbar to its core (decoupled: a home serving another core). */
static void finish(gm_ata_node *n, gm_req *r, gm_time now)
{
    if (r->src == n->id) {
        r->is_reply = 1;
        gm_req_move(r, GM_LOC_CORE_REPLY, n->id, now);
        if (r->kind == GM_REQ_LOAD) {
            uint64_t lat = (now - r->t_mark) / n->dom->period;
            n->st.load_lat_sum += lat;
            n->st.load_lat_n++;
            if (lat > n->st.load_lat_max)
                n->st.load_lat_max = lat;
        }
        gm_req_fifo_push(&n->done, r);
    } else {
        gm_req_move(r, GM_LOC_NODE, n->id, now);
        gm_req_fifo_push(&n->rq, r);
    }
}

/* Installs (or, without remote_fill, only releases) the fetch r is the
 * primary of and finishes every request waiting on it. False when the
 * data bank is busy: r stays where it is. */
static bool fill(gm_ata_node *n, gm_req *r, bool install, gm_time now)
{
    gm_req *w;
    if (install) {
        gm_cache_engine *e = bank_for(n, r->addr);
        gm_cache_filled f;
        uint8_t mask = gm_cache_fill_mask(e, r);
        if (!gm_cache_fill(e, r, mask, now, &f)) {
            n->st.bank_conflicts++;
            return false;
        }
        gm_ata_tags_mirror(n->ata, n->local, GM_ATA_OP_FILL, r->addr, mask,
                           f.allocated && f.victim.evicted ? f.victim.addr / GM_LINE_BYTES
                                                           : UINT64_MAX);
        w = f.waiters;
    } else {
        int32_t entry = gm_mshr_lookup(&n->mshr, r->addr);
        assert(entry >= 0 && gm_mshr_entry_at(&n->mshr, entry)->primary == r);
        r->sectors = gm_mshr_entry_at(&n->mshr, entry)->asked;
        w = gm_mshr_release(&n->mshr, entry);
    }
    for (gm_req *next; w; w = next) {
        next = w->next;
        finish(n, w, now);
    }
    return true;
}

static void take_l2_reply(gm_ata_node *n, gm_time now)
{
    gm_req *r = gm_link_peek(n->p.l2_in, now);
    if (!r)
        return;
    if (r->kind == GM_REQ_LOAD) {
        if (!fill(n, r, true, now))
            return;
        gm_link_pop(n->p.l2_in, now);
        return;
    }
    gm_link_pop(n->p.l2_in, now);
    finish(n, r, now);
}

static void take_xbar_reply(gm_ata_node *n, gm_time now)
{
    gm_req *r = gm_link_peek(n->p.xrep_in, now);
    if (!r)
        return;
    if (n->org == GM_ATA_ATA) { /* a remote read's data, for a fetch of this L1 */
        if (!fill(n, r, n->remote_fill, now))
            return;
        gm_link_pop(n->p.xrep_in, now);
        return;
    }
    gm_link_pop(n->p.xrep_in, now); /* decoupled: a home's answer */
    finish(n, r, now);
}

/* ata: a remote read of this L1's data array. The tags were compared when
 * the request was looked up; if the line lost the sectors since (a write
 * evicted it, or it was replaced) the request goes on to L2 from here. */
static void serve_remote(gm_ata_node *n, gm_req *r, gm_time now)
{
    uint8_t need = n->cfg.sectored ? r->sectors : GM_TAG_ALL_SECTORS;
    int32_t way = gm_tag_probe(&n->tags, r->addr);
    if (way < 0 || !gm_tag_has_sectors(&n->tags, way, need)) {
        if (n->missq_n == n->cfg.miss_queue)
            return;
        gm_link_pop(n->p.xreq_in, now);
        n->st.remote_stale++;
        to_l2(n, r, now);
        return;
    }
    gm_cache_engine *e = bank_for(n, r->addr);
    if (gm_cache_port_busy(e, now)) {
        n->st.bank_conflicts++;
        return;
    }
    gm_link_pop(n->p.xreq_in, now);
    gm_tag_touch(&n->tags, way);
    gm_ata_tags_mirror(n->ata, n->local, GM_ATA_OP_TOUCH, r->addr, 0, UINT64_MAX);
    gm_cache_use_port(e, gm_cache_port_cycles(e, r->sectors), now);
    n->st.remote_served++;
    gm_req_move(r, GM_LOC_NODE, n->id, now);
    gm_req_fifo_push(&n->rpipe, r);
}

static void take_xbar_request(gm_ata_node *n, gm_time now)
{
    gm_req *r = gm_link_peek(n->p.xreq_in, now);
    if (!r)
        return;
    if (n->org == GM_ATA_ATA) {
        serve_remote(n, r, now);
        return;
    }
    /* decoupled: this node is r's home; it looks r up as its own core would
     * (its tag port first: remote requests are older than the core's). */
    refusal why = lookup_check(n, r, now, false);
    if (why != R_OK) {
        if (why == R_BANK)
            n->st.bank_conflicts++;
        return;
    }
    gm_link_pop(n->p.xreq_in, now);
    lookup(n, r, false, now);
}

static void drain(gm_req_fifo *q, uint32_t *count, gm_link *l, gm_time now)
{
    if (gm_req_fifo_empty(q) || !gm_link_can_push(l, now))
        return;
    gm_link_push(l, gm_req_fifo_pop(q), now);
    if (count)
        (*count)--;
}

void gm_ata_node_cycle(void *node, gm_time now)
{
    gm_ata_node *n = node;
    take_l2_reply(n, now);
    take_xbar_reply(n, now);
    take_xbar_request(n, now);
    for (uint32_t b = 0; b < n->nbanks; b++)
        for (gm_req *r; (r = gm_cache_hit_pop(&n->bank[b], now));)
            finish(n, r, now);
    while (!gm_req_fifo_empty(&n->rpipe) &&
           gm_clock_edge_after(n->dom, n->rpipe.head->t_loc, n->latency) <= now) {
        gm_req *r = gm_req_fifo_pop(&n->rpipe);
        gm_req_move(r, GM_LOC_NODE, n->id, now);
        gm_req_fifo_push(&n->rq, r);
    }
    drain(&n->missq, &n->missq_n, n->p.l2_out, now);
    drain(&n->xq, &n->xq_n, n->p.xreq_out, now);
    drain(&n->rq, NULL, n->p.xrep_out, now);
}

int gm_ata_node_check_drained(const gm_ata_node *n, gm_error *err)
{
    if (n->inst_used)
        return gm_fail(err, "drain check: ata L1 %u still times %u load instructions",
                       n->id, n->inst_used);
    if (gm_ata_node_busy(n))
        return gm_fail(err, "drain check: ata L1 %u still holds requests (outstanding %u, "
                            "MSHRs %u, miss queue %u, crossbar queue %u)",
                       n->id, n->outstanding, n->mshr.used, n->missq_n, n->xq_n);
    if (n->st.invariant_violations)
        return gm_fail(err, "invariant: ata L1 %u counted %llu remote hits whose target L1 "
                            "did not hold the line", n->id,
                       (unsigned long long)n->st.invariant_violations);
    return 0;
}
