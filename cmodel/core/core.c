#include "core/core.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/hash.h"

#define RECS_PER_WARP 8

/* Active lanes. The portable build has no popcount instruction, and
 * __builtin_popcount became a libgcc call once per issued instruction. */
static inline uint32_t lanes(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (m * 0x01010101u) >> 24;
}

/* ---- scoreboard ---------------------------------------------------- */

static bool reg_pending_mem(const gm_warp *w, uint8_t r)
{
    return r != GM_REG_NONE && (w->pending[r >> 6] >> (r & 63)) & 1;
}

static void reg_set_pending(gm_warp *w, uint8_t r)
{
    if (r != GM_REG_NONE)
        w->pending[r >> 6] |= 1ULL << (r & 63);
}

static void reg_clear_pending(gm_warp *w, uint8_t r)
{
    if (r != GM_REG_NONE)
        w->pending[r >> 6] &= ~(1ULL << (r & 63));
}

/* Drops compute results that have been written by `cycle`. */
static void retire_compute(gm_warp *w, uint64_t cycle)
{
    uint8_t n = 0;
    for (uint8_t i = 0; i < w->ncompute; i++)
        if (w->compute[i].ready > cycle)
            w->compute[n++] = w->compute[i];
    w->ncompute = n;
}

static bool reg_busy(const gm_warp *w, uint8_t r)
{
    if (r == GM_REG_NONE)
        return false;
    if (reg_pending_mem(w, r))
        return true;
    for (uint8_t i = 0; i < w->ncompute; i++)
        if (w->compute[i].reg == r)
            return true;
    return false;
}

/* An instruction may issue when none of its sources is being written and
 * its destination has no write in flight (no WAW reordering). */
static bool inst_deps_ready(const gm_warp *w, const gm_inst *in)
{
    for (int i = 0; i < GM_MAX_SRC; i++)
        if (reg_busy(w, in->src[i]))
            return false;
    return !reg_busy(w, in->dst);
}

/* Remembers why the head instruction cannot issue, so the warp is not
 * re-examined before anything it waits for can have changed: a load
 * completing (GM_WS_WAITMEM) or a compute result being written (wake). */
static void note_blocked(gm_warp_state *ws, const gm_warp *w, const gm_inst *in)
{
    uint8_t regs[GM_MAX_SRC + 1] = {in->src[0], in->src[1], in->src[2], in->dst};
    uint64_t wake = 0;
    for (int i = 0; i < GM_MAX_SRC + 1; i++) {
        uint8_t r = regs[i];
        if (r == GM_REG_NONE)
            continue;
        if (reg_pending_mem(w, r)) {
            ws->flags |= GM_WS_WAITMEM;
            return;
        }
        for (uint8_t j = 0; j < w->ncompute; j++)
            if (w->compute[j].reg == r && w->compute[j].ready > wake)
                wake = w->compute[j].ready;
    }
    ws->wake = wake;
}

static uint64_t earliest_compute(const gm_warp *w)
{
    uint64_t t = UINT64_MAX;
    for (uint8_t i = 0; i < w->ncompute; i++)
        if (w->compute[i].ready < t)
            t = w->compute[i].ready;
    return t;
}

/* ---- instruction classes ------------------------------------------- */

static bool op_is_memory(uint8_t op)
{
    switch (op) {
    case GM_OP_GLOBAL_LD: case GM_OP_GLOBAL_ST: case GM_OP_ATOMIC:
    case GM_OP_LOCAL_LD: case GM_OP_LOCAL_ST: case GM_OP_TEX_LD:
    case GM_OP_CONST_LD:
        return true;
    default:
        return false;
    }
}

static uint8_t op_req_kind(uint8_t op)
{
    switch (op) {
    case GM_OP_GLOBAL_ST: case GM_OP_LOCAL_ST: return GM_REQ_STORE;
    case GM_OP_ATOMIC: return GM_REQ_ATOMIC;
    case GM_OP_TEX_LD: case GM_OP_CONST_LD: return GM_REQ_NONL1;
    default: return GM_REQ_LOAD;
    }
}

static uint32_t op_latency(const gm_core_cfg *cfg, uint8_t op)
{
    switch (op) {
    case GM_OP_SFU: return cfg->lat_sfu;
    case GM_OP_DP: return cfg->lat_dp;
    case GM_OP_BRANCH: return cfg->lat_branch;
    case GM_OP_SHARED_LD: case GM_OP_SHARED_ST: return cfg->lat_shared;
    default: return cfg->lat_alu;
    }
}

/* ---- init ----------------------------------------------------------- */

int gm_core_init(gm_core *c, const gm_config *cfg, uint32_t id,
                 const gm_addr_map *amap, gm_req_pool *pool, gm_error *err)
{
    memset(c, 0, sizeof *c);
    c->id = id;
    c->cfg = &cfg->core;
    c->amap = amap;
    c->pool = pool;
    if (cfg->core.max_warps > GM_CORE_MAX_WARPS)
        return gm_fail(err, "[core] max_warps = %u: this build supports at most %d",
                       cfg->core.max_warps, GM_CORE_MAX_WARPS);
    if (cfg->core.max_ctas > GM_CORE_MAX_CTAS)
        return gm_fail(err, "[core] max_ctas = %u: this build supports at most %d",
                       cfg->core.max_ctas, GM_CORE_MAX_CTAS);
    if (cfg->core.schedulers > 8)
        return gm_fail(err, "[core] schedulers = %u: at most 8", cfg->core.schedulers);
    c->ldst = calloc(cfg->core.ldst_queue, sizeof *c->ldst);
    c->ibufs = calloc(cfg->core.max_warps, sizeof *c->ibufs);
    uint32_t nrecs = cfg->core.max_warps * RECS_PER_WARP;
    c->recs = calloc(nrecs, sizeof *c->recs);
    if (!c->ldst || !c->recs || !c->ibufs) {
        gm_core_free(c);
        return gm_fail(err, "core %u: out of memory", id);
    }
    for (uint32_t i = nrecs; i-- > 0;) {
        c->recs[i].next_free = c->free_recs;
        c->free_recs = &c->recs[i];
    }
    c->free_warps = cfg->core.max_warps;
    for (uint32_t i = 1; i < cfg->core.schedulers; i++)
        c->watches_all[i] = cfg->core.warp_sched == GM_SCHED_GTO;
    c->stats.event_hash = 0xcbf29ce484222325ULL;
    return 0;
}

void gm_core_free(gm_core *c)
{
    free(c->ldst);
    free(c->recs);
    free(c->ibufs);
    c->ldst = 0;
    c->recs = 0;
    c->ibufs = 0;
}

void gm_core_attach_port(gm_core *c, gm_core_port port)
{
    c->port = port;
}

/* ---- CTAs ------------------------------------------------------------ */

/* An event that can change the verdict of any scheduler's warps. */
static void shared_event(gm_core *c)
{
    c->events++;
    c->shared_events++;
}

/* Whether an issue needs an LD/ST queue slot or a memory record it cannot
 * have now. */
static bool ldst_blocked(const gm_core *c)
{
    return c->ldst_count == c->cfg->ldst_queue || !c->free_recs;
}

bool gm_core_can_take_ctas(const gm_core *c, const gm_kernel *k, uint32_t n)
{
    return c->resident_ctas + n <= c->cfg->max_ctas &&
           gm_kernel_warps_per_cta(k) * n <= c->free_warps;
}

bool gm_core_can_take_cta(const gm_core *c, const gm_kernel *k)
{
    return gm_core_can_take_ctas(c, k, 1);
}

void gm_core_launch_cta(gm_core *c, const gm_kernel *k, uint32_t cta)
{
    uint32_t n = gm_kernel_warps_per_cta(k);
    uint32_t slot = 0;
    while (c->ctas[slot].live)
        slot++;
    gm_cta_slot *s = &c->ctas[slot];
    *s = (gm_cta_slot){.live = true, .cta = cta, .nwarps = n, .warps_left = n};
    uint32_t wi = 0;
    for (uint32_t i = 0; i < n; i++, wi++) {
        while (c->ws[wi].flags & GM_WS_LIVE)
            wi++;
        gm_warp *w = &c->warps[wi];
        memset(w, 0, sizeof *w);
        w->ibuf = c->ibufs[wi];
        c->ws[wi] = (gm_warp_state){.flags = GM_WS_LIVE};
        w->cta_slot = (uint16_t)slot;
        w->age = c->next_age++;
        w->kernel = k;
        w->gen.cta = cta;
        w->gen.warp = i;
        s->warp_mask |= 1ULL << wi;
        /* The newest warp is the youngest: it goes last. */
        uint32_t sched = wi % c->cfg->schedulers;
        c->age_order[sched][c->age_count[sched]++] = (uint8_t)wi;
    }
    c->resident_ctas++;
    c->free_warps -= n;
    c->live_warps += n;
    shared_event(c);
}

/* ---- barrier ---------------------------------------------------------- */

static void release_barrier_if_complete(gm_core *c, gm_cta_slot *s)
{
    if (s->at_barrier < s->warps_left)
        return;
    for (uint64_t m = s->warp_mask; m; m &= m - 1)
        c->ws[__builtin_ctzll(m)].flags &= (uint8_t)~GM_WS_BARRIER;
    s->at_barrier = 0;
    shared_event(c);
}

static void age_order_remove(gm_core *c, uint32_t wi)
{
    uint32_t sched = wi % c->cfg->schedulers;
    uint8_t *o = c->age_order[sched];
    uint32_t n = c->age_count[sched], i = 0;
    while (o[i] != wi)
        i++;
    memmove(&o[i], &o[i + 1], n - i - 1);
    c->age_count[sched] = n - 1;
}

static uint32_t finish_warp_if_done(gm_core *c, gm_warp *w)
{
    uint32_t wi = (uint32_t)(w - c->warps);
    if (!(c->ws[wi].flags & GM_WS_EXITED) || w->outstanding)
        return 0;
    gm_cta_slot *s = &c->ctas[w->cta_slot];
    c->ws[wi].flags = 0;
    shared_event(c);
    s->warp_mask &= ~(1ULL << wi);
    s->insts += w->issued;
    age_order_remove(c, wi);
    c->free_warps++;
    c->live_warps--;
    if (--s->warps_left) {
        /* The barrier no longer waits for this warp. */
        release_barrier_if_complete(c, s);
        return 0;
    }
    s->live = false;
    c->resident_ctas--;
    c->stats.ctas_done++;
    c->cta_insts_done += s->insts;
    return 1;
}

/* ---- instruction fetch from the stream ------------------------------- */

static const gm_inst *warp_next_inst(gm_warp *w)
{
    if (w->ibuf_pos == w->ibuf_n) {
        if (w->stream_done)
            return 0;
        w->ibuf_n = w->kernel->gen(w->kernel, &w->gen, w->ibuf, GM_WARP_IBUF);
        w->ibuf_pos = 0;
        if (w->ibuf_n == 0) {
            w->stream_done = true;
            return 0;
        }
    }
    return &w->ibuf[w->ibuf_pos];
}

/* ---- issue ------------------------------------------------------------ */

typedef enum issue_result { ISSUED, STALL_DEP, STALL_LDST, STALL_BARRIER, NO_INST } issue_result;
_Static_assert(ISSUED < STALL_DEP && STALL_DEP < STALL_LDST && STALL_LDST < STALL_BARRIER &&
                   STALL_BARRIER < NO_INST,
               "stall_merge takes the least verdict");

static void ldst_enqueue(gm_core *c, gm_warp *w, uint32_t wi, const gm_inst *in)
{
    gm_ldst_entry *e = &c->ldst[(c->ldst_head + c->ldst_count) % c->cfg->ldst_queue];
    c->ldst_count++;
    gm_coalesce(in, &e->co);
    e->kind = op_req_kind(in->op);
    e->flags = in->flags;
    e->nlines = e->co.n;
    e->next_line = 0;
    gm_mem_rec *rec = c->free_recs;
    c->free_recs = rec->next_free;
    rec->warp = (uint16_t)wi;
    rec->dst = e->kind == GM_REQ_STORE ? GM_REG_NONE : in->dst;
    rec->is_store = e->kind == GM_REQ_STORE;
    rec->remaining = e->nlines;
    e->rec = rec;
    reg_set_pending(w, rec->dst);
    w->outstanding++;
    c->stats.mem_insts++;
    c->stats.line_reqs += e->co.n;
    c->stats.sector_reqs += e->co.nsectors;
}

/* The verdict of the four flags that decide it alone, indexed by
 * flags & (LIVE | EXITED | BARRIER | WAITMEM): not live or exited gives
 * NO_INST, else at a barrier STALL_BARRIER, else waiting on memory
 * STALL_DEP; ISSUED means the wake cycle and the head must be looked at.
 * One load instead of three tests per warp of a scheduler's scan. */
static const uint8_t flag_verdict[16] = {
    NO_INST, ISSUED, NO_INST, NO_INST, NO_INST, STALL_BARRIER, NO_INST, NO_INST,
    NO_INST, STALL_DEP, NO_INST, NO_INST, NO_INST, STALL_BARRIER, NO_INST, NO_INST,
};

/* The cheap part of try_issue: the verdict for a warp that is known to
 * be waiting, without touching its instruction buffer. */
static inline issue_result quick_verdict(const gm_core *c, const gm_warp_state *ws)
{
    uint8_t f = ws->flags;
    issue_result v = (issue_result)flag_verdict[f & 0xf];
    if (v != ISSUED)
        return v;
    if (c->cycle < ws->wake)
        return STALL_DEP;
    /* Registers only ever become available, so a head instruction found
     * ready stays ready until it issues. */
    if ((f & (GM_WS_DEPSOK | GM_WS_HEADMEM)) == (GM_WS_DEPSOK | GM_WS_HEADMEM) &&
        ldst_blocked(c))
        return STALL_LDST;
    return ISSUED; /* meaning: look closer */
}

static issue_result try_issue(gm_core *c, uint32_t wi)
{
    gm_warp *w = &c->warps[wi];
    gm_warp_state *ws = &c->ws[wi];
    issue_result q = quick_verdict(c, ws);
    if (q != ISSUED)
        return q;
    const gm_inst *in = warp_next_inst(w);
    if (!in) {
        /* A stream that ends without EXIT ends as if it had one. */
        ws->flags |= GM_WS_EXITED;
        c->pending_finish += finish_warp_if_done(c, w);
        return NO_INST;
    }
    if (!(ws->flags & GM_WS_DEPSOK)) {
        retire_compute(w, c->cycle);
        if (!inst_deps_ready(w, in)) {
            note_blocked(ws, w, in);
            return STALL_DEP;
        }
        ws->flags |= GM_WS_DEPSOK | (op_is_memory(in->op) ? GM_WS_HEADMEM : 0);
    }
    if (op_is_memory(in->op)) {
        if (ldst_blocked(c))
            return STALL_LDST;
        if (in->mask)
            ldst_enqueue(c, w, wi, in);
    } else if (in->op == GM_OP_BARRIER) {
        gm_cta_slot *s = &c->ctas[w->cta_slot];
        ws->flags |= GM_WS_BARRIER;
        s->at_barrier++;
        release_barrier_if_complete(c, s);
    } else if (in->op == GM_OP_EXIT) {
        ws->flags |= GM_WS_EXITED;
        c->pending_finish += finish_warp_if_done(c, w);
    } else if (in->dst != GM_REG_NONE) {
        retire_compute(w, c->cycle);
        if (w->ncompute == GM_WARP_COMPUTE) {
            ws->wake = earliest_compute(w);
            return STALL_DEP;
        }
        w->compute[w->ncompute++] = (gm_compute_slot){
            .reg = in->dst, .ready = c->cycle + op_latency(c->cfg, in->op)};
    }
    c->stats.warp_insts++;
    w->issued++;
    c->stats.thread_insts += lanes(in->mask);
    w->ibuf_pos++;
    ws->flags &= (uint8_t)~(GM_WS_DEPSOK | GM_WS_HEADMEM);
    return ISSUED;
}

/* A slot that issued nothing is charged to the first applicable reason:
 * some warp waited on the scoreboard, else on the LD/ST queue, else at a
 * barrier; idle only when no warp had an instruction to offer. The enum
 * is in that order with NO_INST last, so merging is taking the least. */
static inline issue_result stall_merge(issue_result worst, issue_result r)
{
    return r < worst ? r : worst;
}

/* Warps are split among schedulers by slot index (slot % schedulers).
 * GTO: keep issuing from the warp that issued last; when it cannot, try
 * the others oldest first (launch order). LRR: start one past the warp
 * that issued last and go round. One instruction per scheduler per cycle. */
static issue_result schedule_gto(gm_core *c, uint32_t sched)
{
    uint32_t nw = c->cfg->max_warps;
    uint32_t last = c->last_issued[sched];
    issue_result worst = NO_INST;
    if (last < nw) {
        issue_result r = try_issue(c, last);
        if (r == ISSUED)
            return ISSUED;
        worst = stall_merge(worst, r);
    }
    const uint8_t *order = c->age_order[sched];
    uint32_t n = c->age_count[sched];
    for (uint32_t i = 0; i < n; i++) {
        if (order[i] == last)
            continue;
        issue_result r = quick_verdict(c, &c->ws[order[i]]);
        if (r != ISSUED) {
            worst = stall_merge(worst, r);
            continue;
        }
        r = try_issue(c, order[i]);
        if (r == ISSUED) {
            c->last_issued[sched] = order[i];
            c->watches_all[sched] = false;
            return ISSUED;
        }
        worst = stall_merge(worst, r);
    }
    return worst;
}

static issue_result schedule_lrr(gm_core *c, uint32_t sched)
{
    uint32_t nsched = c->cfg->schedulers, nw = c->cfg->max_warps;
    uint32_t count = (nw - sched + nsched - 1) / nsched;
    uint32_t last = c->last_issued[sched];
    uint32_t pos = last < nw ? (last - sched) / nsched : count - 1;
    issue_result worst = NO_INST;
    for (uint32_t k = 1; k <= count; k++) {
        uint32_t wi = sched + ((pos + k) % count) * nsched;
        issue_result r = try_issue(c, wi);
        if (r == ISSUED) {
            c->last_issued[sched] = wi;
            return ISSUED;
        }
        worst = stall_merge(worst, r);
    }
    return worst;
}

/* The first cycle at which a warp of sched that waits only for a compute
 * result can be looked at again (UINT64_MAX: none does). Warps waiting on
 * memory, a barrier or the LD/ST queue wait for an event (gm_core.events). */
static uint64_t compute_wake(const gm_core *c, uint32_t sched)
{
    uint64_t until = UINT64_MAX;
    const uint8_t *o = c->age_order[sched];
    for (uint32_t i = 0; i < c->age_count[sched]; i++) {
        const gm_warp_state *ws = &c->ws[o[i]];
        if (!(ws->flags & GM_WS_LIVE) ||
            (ws->flags & (GM_WS_EXITED | GM_WS_BARRIER | GM_WS_WAITMEM)))
            continue;
        if (ws->wake > c->cycle && ws->wake < until)
            until = ws->wake;
    }
    return until;
}

/* The events scheduler sched sleeps on. Another scheduler's issue cannot
 * wake a scheduler that looks only at its own warps: it takes LD/ST
 * slots and memory records, which only keeps them waiting, and what an
 * issue releases (a barrier, a finished warp) is a shared event. */
static uint64_t sleep_key(const gm_core *c, uint32_t sched)
{
    if (c->watches_all[sched])
        return c->events;
    return c->shared_events + c->own_events[sched];
}

/* The statistic a slot that issued nothing is charged to. */
static uint64_t *stall_counter(gm_core *c, issue_result r)
{
    switch (r) {
    case STALL_DEP: return &c->stats.stall_scoreboard;
    case STALL_LDST: return &c->stats.stall_ldst;
    case STALL_BARRIER: return &c->stats.stall_barrier;
    default: return &c->stats.idle_slots;
    }
}

_Static_assert(sizeof(gm_core_stats) <= UINT16_MAX, "sleep_stat holds an offset in gm_core_stats");

static inline uint64_t *sleep_counter(gm_core *c, uint32_t sched)
{
    return (uint64_t *)((char *)&c->stats + c->sleep_stat[sched]);
}

/* One issue slot. A pass that issues nothing leaves every warp of the
 * scheduler in a state only an event or time can change (a head found
 * blocked records WAITMEM or its wake cycle), so until one of them
 * happens the next passes would give the same verdict: the scheduler
 * sleeps and charges the slot to the recorded reason. A pass during
 * which an event happened (a warp finished, a barrier released) is not
 * recorded. Exact: docs/architecture.md, "Exact shortcuts". */
static void schedule(gm_core *c, uint32_t sched)
{
    if (c->sleep_events[sched] == sleep_key(c, sched) && c->cycle < c->sleep_until[sched]) {
        (*sleep_counter(c, sched))++;
        return;
    }
    uint64_t before = c->events;
    issue_result r = c->cfg->warp_sched == GM_SCHED_GTO ? schedule_gto(c, sched)
                                                        : schedule_lrr(c, sched);
    if (r == ISSUED) {
        c->events++;
        /* The issue may have switched which key this scheduler
         * watches: the old record must not match it by chance. */
        c->sleep_until[sched] = 0;
        c->last_progress = c->cycle;
        return;
    }
    if (c->events == before) {
        c->sleep_events[sched] = sleep_key(c, sched);
        c->sleep_until[sched] = compute_wake(c, sched);
        c->sleep_stat[sched] = (uint16_t)((char *)stall_counter(c, r) - (char *)&c->stats);
    }
    (*stall_counter(c, r))++;
}

/* When every scheduler sleeps, the whole core naps: every key a
 * scheduler sleeps on moves only together with `events`, so while
 * `events` stays put and the cycle is before the first wake, each
 * scheduler would take its sleeping path. Checked once per core instead
 * of once per scheduler. Exact: docs/architecture.md, "Exact shortcuts". */
static void note_nap(gm_core *c)
{
    uint64_t until = UINT64_MAX;
    for (uint32_t s = 0; s < c->cfg->schedulers; s++) {
        if (c->sleep_events[s] != sleep_key(c, s)) {
            until = 0;
            break;
        }
        if (c->sleep_until[s] < until)
            until = c->sleep_until[s];
    }
    c->nap_events = c->events;
    c->nap_until = until;
}

/* ---- LD/ST unit: one line request per cycle into the L1 --------------- */

static inline gm_req *new_line_request(gm_core *c, const gm_ldst_entry *e,
                                       const gm_coalesced_line *ln, gm_time now)
{
    gm_req *r = gm_req_alloc(c->pool, now);
    r->addr = ln->addr;
    r->sectors = ln->sectors;
    r->kind = e->kind;
    r->src = (uint16_t)c->id;
    r->warp = e->rec->warp;
    r->slice = (uint16_t)gm_addr_slice(c->amap, ln->addr);
    r->owner = e->rec;
    r->flags = e->flags;
    return r;
}

static inline void ldst_advance(gm_core *c, gm_ldst_entry *e)
{
    if (e->next_line == e->nlines) {
        bool was_blocked = ldst_blocked(c);
        c->ldst_head = (c->ldst_head + 1) % c->cfg->ldst_queue;
        c->ldst_count--;
        if (was_blocked && !ldst_blocked(c))
            shared_event(c);
        else
            c->events++;
    }
}

/* The LD/ST head is offered to the port until it takes it; a refused head
 * is offered again next cycle. The probe keeps the line it was built for
 * (probe_live) until the head moves, so a repeated offer does not reach
 * into the queue entry, which is large and, with 80 cores ticked in turn,
 * seldom still in the data cache. */
static void ldst_cycle(gm_core *c, gm_time now)
{
    if (!c->ldst_count)
        return;
    gm_ldst_entry *e;
    if (!c->probe_live) {
        e = &c->ldst[c->ldst_head];
        if (e->next_line == e->nlines) {
            ldst_advance(c, e);
            return;
        }
        const gm_coalesced_line *ln = &e->co.line[e->next_line];
        c->probe.addr = ln->addr;
        c->probe.sectors = ln->sectors;
        c->probe.kind = e->kind;
        c->probe_live = true;
    }
    if (!c->port.ops->offer(c->port.ctx, &c->probe, now)) {
        c->stats.l1_refusals++;
        return;
    }
    e = &c->ldst[c->ldst_head];
    c->port.ops->accept(c->port.ctx, new_line_request(c, e, &e->co.line[e->next_line], now), now);
    e->next_line++;
    c->probe_live = false;
    ldst_advance(c, e);
}

/* A line request came back: the instruction completes with its last one.
 * Kept out of line: inlined into gm_core_tick's reply loop it costs 1.5%
 * more instructions per run (callgrind, baseline gemm small). */
static __attribute__((noinline)) uint32_t complete_request(gm_core *c, gm_req *r, gm_time now)
{
    gm_mem_rec *rec = r->owner;
    uint64_t lat = now - r->t_create; /* ticks; the report converts */
    c->stats.mem_latency_sum += lat;
    c->stats.mem_latency_n++;
    if (lat > c->stats.mem_latency_max)
        c->stats.mem_latency_max = lat;
    c->stats.event_hash = gm_fnv1a_u64(gm_fnv1a_u64(c->stats.event_hash, r->id), now);
    gm_req_release(c->pool, r);
    c->last_progress = c->cycle;
    c->events++;
    if (--rec->remaining)
        return 0;
    gm_warp *w = &c->warps[rec->warp];
    reg_clear_pending(w, rec->dst);
    c->ws[rec->warp].flags &= (uint8_t)~GM_WS_WAITMEM;
    c->own_events[rec->warp % c->cfg->schedulers]++;
    w->outstanding--;
    bool was_blocked = ldst_blocked(c);
    rec->next_free = c->free_recs;
    c->free_recs = rec;
    if (was_blocked && !ldst_blocked(c))
        c->shared_events++; /* events counted above */
    return finish_warp_if_done(c, w);
}

uint32_t gm_core_tick(gm_core *c, gm_time now)
{
    uint32_t done = 0;
    c->cycle++;
    const gm_core_port_ops *port = c->port.ops;
    if (port->cycle)
        port->cycle(c->port.ctx, now);
    gm_req *r;
    if (!c->port.outstanding || *c->port.outstanding)
        while ((r = port->pop_reply(c->port.ctx, now)) != 0)
            done += complete_request(c, r, now);
    if (!c->live_warps && !c->ldst_count)
        return done;
    c->stats.cycles++;
    ldst_cycle(c, now);
    if (c->events == c->nap_events && c->cycle < c->nap_until) {
        for (uint32_t s = 0; s < c->cfg->schedulers; s++)
            (*sleep_counter(c, s))++;
        return done;
    }
    c->pending_finish = 0;
    for (uint32_t s = 0; s < c->cfg->schedulers; s++)
        schedule(c, s);
    note_nap(c);
    done += c->pending_finish;
    return done;
}

bool gm_core_busy(const gm_core *c)
{
    if (c->live_warps || c->ldst_count)
        return true;
    return c->port.ops->busy(c->port.ctx);
}
