#include "system/system.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static gm_link **link_ptrs(gm_link *l, uint32_t n)
{
    gm_link **p = calloc(n ? n : 1, sizeof *p);
    if (p)
        for (uint32_t i = 0; i < n; i++)
            p[i] = &l[i];
    return p;
}

/* The four common domains; the design adds its own in its build, and the
 * clock is finalized after it. Registration order is the tie-break order
 * of simultaneous edges. */
static int init_clocks(gm_system *s, gm_error *err)
{
    gm_clock *c = &s->clock;
    gm_clock_init(c);
    if ((s->dom_core = gm_clock_add(c, "core", s->cfg.core.clock_mhz, err)) < 0 ||
        (s->dom_icnt = gm_clock_add(c, "icnt", s->cfg.noc.clock_mhz, err)) < 0 ||
        (s->dom_l2 = gm_clock_add(c, "l2", s->cfg.l2.clock_mhz, err)) < 0 ||
        (s->dom_dram = gm_clock_add(c, "dram", s->cfg.dram.clock_mhz, err)) < 0)
        return -1;
    return 0;
}

static int init_links(gm_system *s, gm_error *err)
{
    const gm_config *cfg = &s->cfg;
    const gm_clock_domain *icnt = &s->clock.d[s->dom_icnt];
    const gm_clock_domain *l2 = &s->clock.d[s->dom_l2];
    const gm_clock_domain *dram = &s->clock.d[s->dom_dram];
    uint32_t ns = s->nslices;
    if (gm_link_array_new(&s->l2_in, ns, cfg->l2.in_queue, GM_SYNC_EDGES, l2, err) ||
        gm_link_array_new(&s->l2_out, ns, cfg->l2.out_queue, GM_SYNC_EDGES, icnt, err) ||
        gm_link_array_new(&s->l2_dram, ns, cfg->l2.dram_queue, GM_SYNC_EDGES, dram, err) ||
        /* Sized so a channel can always return what it accepted. */
        gm_link_array_new(&s->dram_l2, ns, cfg->dram.queue + 1, GM_SYNC_EDGES, l2, err))
        return -1;
    s->chan_in_ptrs = link_ptrs(s->l2_dram, ns);
    s->chan_out_ptrs = link_ptrs(s->dram_l2, ns);
    if (!s->chan_in_ptrs || !s->chan_out_ptrs)
        return gm_fail(err, "out of memory");
    return 0;
}

static int init_blocks(gm_system *s, gm_error *err)
{
    const gm_config *cfg = &s->cfg;
    s->cores = calloc(s->ncores, sizeof *s->cores);
    s->slices = calloc(s->nslices, sizeof *s->slices);
    s->chans = calloc(s->nchannels, sizeof *s->chans);
    s->core_driver = calloc(s->ncores, sizeof *s->core_driver);
    if (!s->cores || !s->slices || !s->chans || !s->core_driver)
        return gm_fail(err, "out of memory");

    for (uint32_t i = 0; i < s->ncores; i++)
        if (gm_core_init(&s->cores[i], cfg, i, &s->amap, &s->pool, err))
            return -1;
    for (uint32_t i = 0; i < s->nslices; i++) {
        if (gm_l2_slice_init(&s->slices[i], &cfg->l2, i, &s->pool, err) ||
            /* Sets are indexed within the lines this slice owns. */
            gm_l2_slice_set_interleave(&s->slices[i], cfg->dram.partition_bytes, s->nslices,
                                       err))
            return -1;
        gm_l2_slice_connect(&s->slices[i], (gm_l2_ports){.req_in = &s->l2_in[i],
                                                         .rep_out = &s->l2_out[i],
                                                         .dram_out = &s->l2_dram[i],
                                                         .dram_in = &s->dram_l2[i]});
    }
    uint32_t per = s->nslices / s->nchannels;
    for (uint32_t i = 0; i < s->nchannels; i++) {
        if (gm_dram_channel_init(&s->chans[i], &cfg->dram, i, err))
            return -1;
        if ((int64_t)i == cfg->sim.fault_stall_dram)
            gm_dram_channel_inject_stall(&s->chans[i]);
        gm_dram_channel_set_sector_access(&s->chans[i], cfg->l2.cache.sectored != 0);
        gm_dram_channel_connect(&s->chans[i], (gm_dram_ports){
            .req_in = &s->chan_in_ptrs[i * per], .rep_out = &s->chan_out_ptrs[i * per],
            .n = per});
    }
    return gm_cta_sched_init(&s->cta, &cfg->core, err);
}

/* The design wires the cores' ports and everything up to the L2 links. */
static int build_design(gm_system *s, gm_error *err)
{
    s->design = gm_design_of(&s->cfg);
    if (s->design->build(s, &s->design_state, err) != 0)
        return -1;
    for (uint32_t i = 0; i < s->ncores; i++)
        if (!s->cores[i].port.ops)
            return gm_fail(err, "design %s left core %u without a memory port",
                           s->design->name, i);
    return gm_clock_finalize(&s->clock, err);
}

int gm_system_init(gm_system *s, const gm_config *cfg, gm_error *err)
{
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->ncores = cfg->core.num_cores;
    s->nslices = cfg->l2.slices;
    s->nchannels = cfg->dram.channels;
    gm_req_pool_init(&s->pool);
    if (gm_config_validate(&s->cfg, err) || init_clocks(s, err) ||
        gm_addr_map_init(&s->amap, cfg->dram.partition_bytes, s->nslices, s->nchannels,
                         cfg->dram.banks, cfg->dram.bank_groups, cfg->dram.row_bytes,
                         cfg->dram.atom_bytes, err) ||
        gm_addr_map_set_hash(&s->amap, cfg->dram.slice_hash, cfg->dram.bank_hash, err) ||
        gm_residency_init(&s->res, err) || init_links(s, err) || init_blocks(s, err) ||
        build_design(s, err)) {
        gm_system_free(s);
        return -1;
    }
    return 0;
}

void gm_system_free(gm_system *s)
{
    if (s->design && s->design_state)
        s->design->destroy(s->design_state);
    if (s->cores)
        for (uint32_t i = 0; i < s->ncores; i++)
            gm_core_free(&s->cores[i]);
    if (s->slices)
        for (uint32_t i = 0; i < s->nslices; i++)
            gm_l2_slice_free(&s->slices[i]);
    if (s->chans)
        for (uint32_t i = 0; i < s->nchannels; i++)
            gm_dram_channel_free(&s->chans[i]);
    gm_cta_sched_free(&s->cta);
    gm_residency_free(&s->res);
    free(s->cores);
    free(s->slices);
    free(s->chans);
    free(s->core_driver);
    gm_link_array_free(s->l2_in, s->nslices);
    gm_link_array_free(s->l2_out, s->nslices);
    gm_link_array_free(s->l2_dram, s->nslices);
    gm_link_array_free(s->dram_l2, s->nslices);
    free(s->chan_in_ptrs);
    free(s->chan_out_ptrs);
    free(s->nets);
    free(s->l1);
    free(s->krec);
    gm_req_pool_free(&s->pool);
    memset(s, 0, sizeof *s);
}

/* ---- registration by the design ------------------------------------------ */

int gm_system_add_clock(gm_system *s, const char *name, uint32_t mhz, gm_error *err)
{
    return gm_clock_add(&s->clock, name, mhz, err);
}

int gm_system_on_edge(gm_system *s, int domain, void (*fn)(void *ctx, gm_time now),
                      void *ctx, gm_error *err)
{
    if (domain < 0 || domain >= GM_CLOCK_MAX_DOMAINS || domain >= s->clock.n)
        return gm_fail(err, "design %s: edge hook on unknown clock domain %d",
                       s->design->name, domain);
    if (s->nhooks[domain] == GM_SYSTEM_MAX_HOOKS)
        return gm_fail(err, "design %s: more than %u edge hooks on clock %s", s->design->name,
                       GM_SYSTEM_MAX_HOOKS, s->clock.d[domain].name);
    s->hooks[domain][s->nhooks[domain]++] = (gm_edge_hook){fn, ctx};
    return 0;
}

/* Appends one element to a growing array of n elements of size sz. */
static void *grow(void *base, uint32_t *cap, uint32_t n, size_t sz)
{
    if (n < *cap)
        return base;
    uint32_t c = *cap ? 2 * *cap : 8;
    void *p = realloc(base, c * sz);
    if (p)
        *cap = c;
    return p;
}

int gm_system_add_net(gm_system *s, gm_net_ref ref, gm_error *err)
{
    gm_net_ref *p = grow(s->nets, &s->nets_cap, s->nnets, sizeof *p);
    if (!p)
        return gm_fail(err, "out of memory");
    s->nets = p;
    s->nets[s->nnets++] = ref;
    return 0;
}

int gm_system_add_l1(gm_system *s, const gm_l1d_stats *st, gm_error *err)
{
    const gm_l1d_stats **p = grow(s->l1, &s->l1_cap, s->nl1, sizeof *p);
    if (!p)
        return gm_fail(err, "out of memory");
    s->l1 = p;
    s->l1[s->nl1++] = st;
    return 0;
}

void gm_system_set_dram_ports(gm_system *s, gm_link **req_in, gm_link **rep_out)
{
    uint32_t per = s->nslices / s->nchannels;
    for (uint32_t i = 0; i < s->nchannels; i++)
        gm_dram_channel_connect(&s->chans[i], (gm_dram_ports){
            .req_in = &req_in[i * per], .rep_out = &rep_out[i * per], .n = per});
}

/* ---- kernels ------------------------------------------------------------ */

static void start_kernel(gm_system *s)
{
    const gm_kernel *k = &s->wl->kernels[s->kernel_index];
    gm_cta_sched_start(&s->cta, k);
    s->ctas_left = gm_kernel_ctas(k);
    s->kernel_running = true;
    gm_kernel_record *r = &s->krec[s->kernel_index];
    snprintf(r->name, sizeof r->name, "%s", k->name);
    r->start_cycle = s->core_cycle;
}

static uint64_t total_warp_insts(const gm_system *s)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        n += s->cores[i].stats.warp_insts;
    return n;
}

static void finish_kernel(gm_system *s)
{
    gm_kernel_record *r = &s->krec[s->kernel_index];
    r->end_cycle = s->core_cycle;
    uint64_t before = 0;
    for (uint32_t i = 0; i < s->kernel_index; i++)
        before += s->krec[i].warp_insts;
    r->warp_insts = total_warp_insts(s) - before;
    s->kernel_running = false;
    s->kernel_index++;
}

/* ---- per-domain edges ---------------------------------------------------- */

static inline void run_hooks(gm_system *s, int d, gm_time now)
{
    for (uint32_t i = 0; i < s->nhooks[d]; i++)
        s->hooks[d][i].fn(s->hooks[d][i].ctx, now);
}

static void core_edge(gm_system *s, gm_time now)
{
    s->core_cycle++;
    if (!s->kernel_running && s->kernel_index < s->wl->nkernels)
        start_kernel(s);
    if (s->kernel_running)
        gm_cta_sched_tick(&s->cta, s->cores);
    uint32_t done = 0;
    if (s->ncore_drivers == 0) {
        for (uint32_t i = 0; i < s->ncores; i++)
            done += gm_core_tick(&s->cores[i], now);
    } else {
        /* A core with an external driver is not ticked: the driver uses
         * its port in the core's place, at the core's point in the edge. */
        for (uint32_t i = 0; i < s->ncores; i++) {
            if (s->core_driver[i].fn)
                s->core_driver[i].fn(s->core_driver[i].ctx, &s->cores[i].port, now);
            else
                done += gm_core_tick(&s->cores[i], now);
        }
    }
    run_hooks(s, s->dom_core, now);
    if (done) {
        s->ctas_left -= done;
        if (s->ctas_left == 0 && gm_cta_sched_all_issued(&s->cta))
            finish_kernel(s);
    }
}

static void l2_edge(gm_system *s, gm_time now)
{
    for (uint32_t i = 0; i < s->nslices; i++)
        gm_l2_slice_tick(&s->slices[i], now);
}

static void dram_edge(gm_system *s, gm_time now)
{
    for (uint32_t i = 0; i < s->nchannels; i++)
        gm_dram_channel_tick(&s->chans[i], now);
}

/* ---- watchdog, sampling ---------------------------------------------------- */

#define WD_PLACES 8

/* The oldest request by time at its current place, and the places that
 * hold the most requests (a stuck block usually shows up as a pile). */
typedef struct stuck_scan {
    const gm_req *oldest;
    struct stuck_place { uint8_t loc; uint32_t index; uint64_t n; } place[WD_PLACES];
    uint32_t nplaces;
    uint64_t other;
} stuck_scan;

static void scan_req(const gm_req *r, void *arg)
{
    stuck_scan *o = arg;
    if (!o->oldest || r->t_loc < o->oldest->t_loc ||
        (r->t_loc == o->oldest->t_loc && r->id < o->oldest->id))
        o->oldest = r;
    for (uint32_t i = 0; i < o->nplaces; i++)
        if (o->place[i].loc == r->loc && o->place[i].index == r->loc_index) {
            o->place[i].n++;
            return;
        }
    if (o->nplaces < WD_PLACES)
        o->place[o->nplaces++] = (struct stuck_place){r->loc, r->loc_index, 1};
    else
        o->other++;
}

/* GM_LOC_NODE is whatever the design calls the nodes of its L1 level. */
static const char *loc_name(const gm_system *s, uint8_t loc)
{
    if (loc == GM_LOC_NODE && s->design->node_name)
        return s->design->node_name;
    return gm_loc_name(loc);
}

static void format_places(const gm_system *s, const stuck_scan *o, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    /* Largest piles first; ties in discovery (request id) order. */
    bool used[WD_PLACES] = {0};
    for (uint32_t k = 0; k < o->nplaces && at < len; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < o->nplaces; i++)
            if (!used[i] && (best == UINT32_MAX || o->place[i].n > o->place[best].n))
                best = i;
        used[best] = true;
        at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu64 " in %s %u", k ? ", " : "",
                               o->place[best].n, loc_name(s, o->place[best].loc),
                               o->place[best].index);
    }
    if (o->other && at < len)
        snprintf(buf + at, len - at, ", %" PRIu64 " elsewhere", o->other);
}

/* Where r sits inside a network or another block of the design. */
static bool find_req(const gm_system *s, const gm_req *r, char *buf, size_t len)
{
    if (r->loc == GM_LOC_NOC_REQ || r->loc == GM_LOC_NOC_REP)
        for (uint32_t i = 0; i < s->nnets; i++)
            if (gm_net_find_req(s->nets[i].net, r, buf, len))
                return true;
    return s->design->find_req && s->design->find_req(s->design_state, r, buf, len);
}

/* ---- the watchdog's bound ------------------------------------------------ */

/* docs/reliability.md, "Configurations that cannot make progress": the
 * built-in bound, the fewest requests assumed to be served ahead of a
 * waiting one (256 x the baseline's longest hold, a DRAM access of 376
 * core cycles, stays under 100000), and the longest time between two
 * looks. */
#define WD_MIN_CYCLES 100000u
#define WD_MIN_AHEAD 256u
#define WD_MAX_INTERVAL 25000u

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* cycles of a clock of mhz, as core cycles, rounded up */
static uint64_t as_core_cycles(const gm_config *c, uint64_t cycles, uint32_t mhz)
{
    return ceil_div(cycles * c->core.clock_mhz, mhz);
}

/* The longest one request can hold one resource, in core cycles: a DRAM
 * access held back once by every timing constraint (tRCD or tRCDWR, not
 * both) and moving its line; a packet of a line and a header crossing a
 * router at the rate its VC's credits allow (a credit is back about
 * router_stages + 3 cycles after its flit left, so a VC shallower than
 * that sends only vc_depth flits per round trip); an L2 or L1 access
 * (latency, then the line through the data port); the longest compute
 * latency. */
static uint64_t longest_hold(const gm_config *c)
{
    const gm_dram_timing *t = &c->dram.t;
    uint64_t dram = 0;
    for (uint8_t p = 1; p <= GM_DRAM_NPARAMS; p++)
        if (p != GM_DRAM_T(tREFI))
            dram += gm_dram_param(t, p);
    uint32_t rcdwr = gm_dram_param(t, GM_DRAM_T(tRCDWR));
    dram -= t->tRCD < rcdwr ? t->tRCD : rcdwr;
    dram += (uint64_t)(GM_LINE_BYTES / c->dram.atom_bytes - 1) * t->tBURST;
    uint64_t flits = ceil_div((uint64_t)c->noc.header_bytes + GM_LINE_BYTES, c->noc.flit_bytes);
    uint64_t noc = flits * ceil_div(c->noc.router_stages + 3u, c->noc.vc_depth);
    uint64_t l2 = c->l2.cache.latency + ceil_div(GM_LINE_BYTES, c->l2.cache.port_bytes);
    uint64_t l1 = c->l1.latency + ceil_div(GM_LINE_BYTES, c->l1.port_bytes);
    const gm_core_cfg *k = &c->core;
    uint64_t compute = max_u64(max_u64(k->lat_alu, k->lat_sfu), max_u64(k->lat_dp, k->lat_branch));
    compute = max_u64(compute, max_u64(k->lat_shared, k->lat_const));
    uint64_t h = max_u64(as_core_cycles(c, dram, c->dram.clock_mhz),
                         as_core_cycles(c, noc, c->noc.clock_mhz));
    h = max_u64(h, as_core_cycles(c, l2, c->l2.clock_mhz));
    return max_u64(h, max_u64(l1, compute));
}

/* Requests that may be served before a waiting one: all those that can
 * queue for one DRAM channel (its slices' input queues, MSHRs and DRAM
 * queues, and the channel's own queue), or one from every core at a
 * network output, and never fewer than WD_MIN_AHEAD. */
static uint64_t requests_ahead(const gm_config *c)
{
    uint64_t per = c->l2.slices / c->dram.channels;
    uint64_t chan = per * ((uint64_t)c->l2.in_queue + c->l2.cache.mshr_entries +
                           c->l2.dram_queue) + c->dram.queue;
    return max_u64(max_u64(WD_MIN_AHEAD, c->core.num_cores), chan);
}

uint64_t gm_system_ctas_done(const gm_system *s)
{
    uint64_t done = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        done += s->cores[i].stats.ctas_done;
    return done;
}

double gm_system_ctas_progress(const gm_system *s)
{
    uint64_t done = gm_system_ctas_done(s), insts = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        insts += s->cores[i].cta_insts_done;
    if (!done)
        return 0;
    double mean = (double)insts / (double)done, work = (double)done;
    for (uint32_t i = 0; i < s->ncores; i++) {
        const gm_core *c = &s->cores[i];
        for (uint32_t k = 0; k < GM_CORE_MAX_CTAS; k++) {
            if (!c->ctas[k].live)
                continue;
            uint64_t issued = c->ctas[k].insts;
            for (uint64_t m = c->ctas[k].warp_mask; m; m &= m - 1)
                issued += c->warps[__builtin_ctzll(m)].issued;
            double own = (double)issued;
            work += own >= mean ? 1.0 : own / mean;
        }
    }
    return work;
}

uint64_t gm_system_watchdog_cycles(const gm_config *c)
{
    if (c->sim.watchdog_cycles)
        return c->sim.watchdog_cycles;
    return max_u64(WD_MIN_CYCLES, requests_ahead(c) * longest_hold(c));
}

/* ---- a workload the system can run ----------------------------------------- */

int gm_system_check_workload(const gm_system *s, const gm_workload *wl, gm_error *err)
{
    const gm_core_cfg *k = &s->cfg.core;
    for (uint32_t i = 0; i < wl->nkernels; i++) {
        const gm_kernel *kn = &wl->kernels[i];
        uint32_t ctas = gm_kernel_ctas(kn), warps = gm_kernel_warps_per_cta(kn);
        if (ctas == 0 || warps == 0)
            return gm_fail(err, "kernel %u (%s) has %s: it could never finish", i, kn->name,
                           ctas == 0 ? "a grid of no CTAs" : "CTAs of no threads");
        /* gm_core_can_take_ctas: the CTA slots and the warp slots of one
         * core; the block policy places cta_block CTAs at once (fewer only
         * for the last ones), cta_block <= max_ctas being a config rule */
        if (warps > k->max_warps)
            return gm_fail(err,
                           "kernel %u (%s) has CTAs of %u threads, %u warps, and a CTA runs "
                           "on one core: [core] max_warps = %u must be at least %u",
                           i, kn->name, gm_kernel_threads_per_cta(kn), warps, k->max_warps,
                           warps);
        uint32_t unit = k->cta_policy == GM_CTA_BLOCK ? k->cta_block : 1;
        if (unit > ctas)
            unit = ctas;
        if ((uint64_t)unit * warps > k->max_warps)
            return gm_fail(err,
                           "kernel %u (%s) has CTAs of %u warps, and [core] cta_policy = block "
                           "places [core] cta_block = %u of them on one core at once: %u "
                           "warps, more than [core] max_warps = %u (lower cta_block to %u, or "
                           "raise max_warps to %u)",
                           i, kn->name, warps, unit, unit * warps, k->max_warps,
                           k->max_warps / warps, unit * warps);
    }
    return 0;
}

/* A request that has not moved for watchdog_cycles core cycles means the
 * system is stuck: report the oldest such request and where it sits. */
static bool watchdog_check(gm_system *s, gm_time now)
{
    uint64_t period = gm_system_core_period(s);
    uint64_t bound = gm_system_watchdog_cycles(&s->cfg);
    stuck_scan o = {0};
    gm_req_pool_foreach_live(&s->pool, scan_req, &o);
    if (o.oldest) {
        const gm_req *r = o.oldest;
        uint64_t waited = (now - r->t_loc) / period;
        if (waited < bound)
            return false;
        char where[160] = "";
        char buf[140];
        if (find_req(s, r, buf, sizeof buf))
            snprintf(where, sizeof where, " [%s]", buf);
        char places[320];
        format_places(s, &o, places, sizeof places);
        const char *from = r->kind == GM_REQ_WRITEBACK ? "write-back from L2 slice" : "from core";
        uint32_t from_id = r->kind == GM_REQ_WRITEBACK ? r->slice : r->src;
        snprintf(s->deadlock_report, sizeof s->deadlock_report,
                 "deadlock: request #%" PRIu64 " (%s of line 0x%" PRIx64 " %s %u warp %u"
                 " to L2 slice %u%s) has been in the %s %u%s for %" PRIu64
                 " core cycles (created at core cycle %" PRIu64 "); %" PRIu64
                 " requests in flight: %s",
                 r->id, gm_req_kind_name(r->kind), r->addr, from, from_id, r->warp, r->slice,
                 r->is_reply ? ", reply" : "", loc_name(s, r->loc), r->loc_index, where, waited,
                 r->t_create / period, s->pool.live, places);
        return true;
    }
    uint64_t last = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        if (s->cores[i].last_progress > last)
            last = s->cores[i].last_progress;
    if (s->kernel_running && s->core_cycle - last >= bound) {
        snprintf(s->deadlock_report, sizeof s->deadlock_report,
                 "deadlock: no warp issued and no request completed for %" PRIu64
                 " core cycles in kernel %u (%s); %u CTAs unfinished, no request in flight",
                 s->core_cycle - last, s->kernel_index,
                 s->wl->kernels[s->kernel_index].name, s->ctas_left);
        return true;
    }
    return false;
}

/* The most L1s (DC-L1 nodes) holding one line now, and that line. */
static uint32_t residency_max(const gm_residency *r, uint64_t *line)
{
    uint32_t best = 0;
    *line = 0;
    for (uint32_t i = 0; i < r->cap; i++)
        if (r->key[i] && r->count[i] > best) {
            best = r->count[i];
            *line = (r->key[i] - 1) * GM_LINE_BYTES;
        }
    return best;
}

/* Records a sample and checks the design's bound on copies (a line in at
 * most one node under ShY, at most Z under ShY+CZ). Returns -1 with err
 * when the bound is broken. */
static int sample_copies(gm_system *s, gm_error *err)
{
    s->copies.samples++;
    s->copies.resident_sum += s->res.total_resident_lines;
    s->copies.distinct_sum += s->res.distinct_lines;
    uint64_t line;
    uint32_t most = residency_max(&s->res, &line);
    if (most > s->copies.max_copies)
        s->copies.max_copies = most;
    if (most > s->copies.max_allowed)
        return gm_fail(err, "invariant: at core cycle %" PRIu64 " line 0x%" PRIx64
                            " is resident in %u %s; this design allows at most %u",
                       s->core_cycle, line, most, s->design->l1_noun,
                       s->copies.max_allowed);
    return 0;
}

static bool system_quiet(const gm_system *s)
{
    if (s->pool.live)
        return false;
    for (uint32_t i = 0; i < s->ncores; i++)
        if (gm_core_busy(&s->cores[i]))
            return false;
    for (uint32_t i = 0; i < s->nslices; i++)
        if (gm_l2_slice_busy(&s->slices[i]))
            return false;
    for (uint32_t i = 0; i < s->nchannels; i++)
        if (gm_dram_channel_busy(&s->chans[i]))
            return false;
    for (uint32_t i = 0; i < s->nnets; i++)
        if (gm_net_busy(s->nets[i].net))
            return false;
    return !s->design->busy(s->design_state);
}

/* Conservation at the end of a run: every request got its reply, every
 * queue is empty, every credit is home. */
static int check_drained(const gm_system *s, gm_error *err)
{
    if (s->pool.allocated != s->pool.completed)
        return gm_fail(err, "conservation: %" PRIu64 " requests created, %" PRIu64
                            " completed", s->pool.allocated, s->pool.completed);
    if (gm_link_array_check_empty(s->l2_in, s->nslices, "network->L2", err) ||
        gm_link_array_check_empty(s->l2_out, s->nslices, "L2->network", err) ||
        gm_link_array_check_empty(s->l2_dram, s->nslices, "L2->DRAM", err) ||
        gm_link_array_check_empty(s->dram_l2, s->nslices, "DRAM->L2", err))
        return -1;
    for (uint32_t i = 0; i < s->nnets; i++)
        if (gm_net_check_drained(s->nets[i].net, err))
            return -1;
    return s->design->check_drained(s->design_state, err);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double progress_interval(const gm_system *s)
{
    return s->progress.interval_s ? (double)s->progress.interval_s : 1.0;
}

int gm_system_run_begin(gm_system *s, const gm_workload *wl, gm_error *err)
{
    s->wl = wl;
    s->krec = calloc(wl->nkernels ? wl->nkernels : 1, sizeof *s->krec);
    if (!s->krec)
        return gm_fail(err, "out of memory");
    if (gm_system_check_workload(s, wl, err) != 0) {
        s->status = GM_RUN_ERROR;
        return -1;
    }
    /* Four looks per bound, and one at least every WD_MAX_INTERVAL core
     * cycles (the progress report rides on them). */
    uint64_t wd_interval = gm_system_watchdog_cycles(&s->cfg) / 4;
    if (wd_interval > WD_MAX_INTERVAL)
        wd_interval = WD_MAX_INTERVAL;
    if (wd_interval == 0)
        wd_interval = 1;
    s->wd_interval = wd_interval;
    s->next_watchdog = wd_interval;
    s->next_sample = s->cfg.sim.sample_cycles;
    s->next_report = s->progress.fn ? wall_seconds() + progress_interval(s) : 0;
    return 0;
}

/* One clock edge of a run (the body of gm_system_run's loop): 1 while the
 * run goes on, 0 when it ended with s->status set, -1 with err (status
 * GM_RUN_ERROR). Inlined into gm_system_run so the pure-C loop costs what
 * it did before the split. */
static inline int run_edge(gm_system *s, gm_error *err)
{
    int d = gm_clock_advance(&s->clock);
    gm_time now = s->clock.now;
    if (d == s->dom_core) {
        core_edge(s, now);
        if (s->core_cycle >= s->next_sample && s->cfg.sim.sample_cycles) {
            s->next_sample += s->cfg.sim.sample_cycles;
            if (sample_copies(s, err) != 0) {
                s->status = GM_RUN_ERROR;
                return -1;
            }
        }
        if (s->core_cycle >= s->next_watchdog) {
            s->next_watchdog += s->wd_interval;
            if (watchdog_check(s, now)) {
                s->status = GM_RUN_DEADLOCK;
                return 0;
            }
            if (s->progress.fn && wall_seconds() >= s->next_report) {
                s->progress.fn(s, s->progress.arg);
                s->next_report = wall_seconds() + progress_interval(s);
            }
        }
        /* An external initiator (gm_system_set_core_driver) may still
         * send, so a run with one ends only when its owner says so. */
        if (s->kernel_index == s->wl->nkernels && !s->hold_open && system_quiet(s)) {
            s->status = GM_RUN_DONE;
            return 0;
        }
        if (s->cfg.sim.max_cycles && s->core_cycle >= s->cfg.sim.max_cycles) {
            s->status = GM_RUN_MAX_CYCLES;
            return 0;
        }
        if (s->interrupt && *s->interrupt) {
            s->status = GM_RUN_INTERRUPTED;
            return 0;
        }
    } else {
        if (d == s->dom_l2)
            l2_edge(s, now);
        else if (d == s->dom_dram)
            dram_edge(s, now);
        run_hooks(s, d, now);
    }
    if (s->stop_reason[0]) {
        s->status = GM_RUN_ERROR;
        return gm_fail(err, "%s", s->stop_reason);
    }
    return 1;
}

int gm_system_step(gm_system *s, gm_error *err)
{
    return run_edge(s, err);
}

int gm_system_run_end(gm_system *s, gm_error *err)
{
    s->copies.final_resident = s->res.total_resident_lines;
    s->copies.final_distinct = s->res.distinct_lines;
    /* SPEC 7 averages the periodic samples and the end of the run; without
     * the end a run shorter than one period would average nothing. A
     * periodic sample taken on this very cycle is not counted twice. */
    bool sampled_now = s->cfg.sim.sample_cycles &&
                       s->next_sample - s->cfg.sim.sample_cycles == s->core_cycle &&
                       s->copies.samples;
    if (!sampled_now) {
        s->copies.samples++;
        s->copies.resident_sum += s->res.total_resident_lines;
        s->copies.distinct_sum += s->res.distinct_lines;
    }
    uint64_t line;
    uint32_t most = residency_max(&s->res, &line);
    if (most > s->copies.max_copies)
        s->copies.max_copies = most;
    if (s->status == GM_RUN_DONE && check_drained(s, err) != 0) {
        s->status = GM_RUN_ERROR;
        return -1;
    }
    return 0;
}

int gm_system_run(gm_system *s, const gm_workload *wl, gm_error *err)
{
    if (gm_system_run_begin(s, wl, err) != 0)
        return -1;
    int rc;
    while ((rc = run_edge(s, err)) == 1)
        ;
    if (rc < 0)
        return -1;
    return gm_system_run_end(s, err);
}

void gm_system_set_core_driver(gm_system *s, uint32_t core,
                               void (*fn)(void *ctx, gm_core_port *port, gm_time now), void *ctx)
{
    s->core_driver[core] = (gm_core_driver){fn, ctx};
    s->ncore_drivers = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        s->ncore_drivers += s->core_driver[i].fn != NULL;
}

void gm_system_request_stop(gm_system *s, const char *reason)
{
    if (!s->stop_reason[0])
        snprintf(s->stop_reason, sizeof s->stop_reason, "%s", reason && *reason ? reason : "stop requested");
}
