/* The shared-L1 design as a plug-in of the system: the build (shared L1s
 * behind the cores' ports, request and reply crossbars to the L2 slices)
 * and the design's statistics (docs/designs/sharedl1.md). */
#include "designs/sharedl1/sharedl1.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>

#include "designs/common.h"
#include "designs/sharedl1/sharedl1_cache.h"
#include "noc/net.h"
#include "system/system.h"

typedef struct sharedl1 {
    uint32_t ncores, nslices, sf, ngroups;
    uint32_t nlinks;             /* per shared L1: sf or 1 ([sharedl1] l2_links) */
    uint32_t nin;                /* ngroups * nlinks: crossbar ports on the L1 side */
    uint32_t grow;               /* gm_sharedl1_grow */
    gm_sl1 *l1;                  /* [ngroups] */
    gm_link *l1_req;             /* [nin] shared L1 -> request crossbar */
    gm_link *l1_rep;             /* [nin] reply crossbar -> shared L1 */
    gm_link **port_block;        /* the crossbars' port arrays, one allocation */
    gm_net req_net, rep_net;
} sharedl1;

/* ---- networks -------------------------------------------------------------- */

/* The reply crossbar's sink: the link of the requesting core's port. */
static uint32_t dest_link(const gm_req *r, void *ctx)
{
    const sharedl1 *d = ctx;
    return r->src / d->sf * d->nlinks + r->src % d->sf % d->nlinks;
}

static void tick_request_net(void *ctx, gm_time now)
{
    gm_net_tick(&((sharedl1 *)ctx)->req_net, now);
}

static void tick_reply_net(void *ctx, gm_time now)
{
    gm_net_tick(&((sharedl1 *)ctx)->rep_net, now);
}

static int build_networks(gm_system *s, sharedl1 *d, gm_error *err)
{
    uint32_t ng = d->nin, ns = d->nslices;
    d->port_block = calloc(2 * ((size_t)ng + ns), sizeof *d->port_block);
    if (!d->port_block)
        return gm_fail(err, "out of memory");
    gm_net_ports req = {d->port_block, d->port_block + ng};
    gm_net_ports rep = {req.out + ns, req.out + ns + ns};
    for (uint32_t g = 0; g < ng; g++) {
        req.in[g] = &d->l1_req[g];
        rep.out[g] = &d->l1_rep[g];
    }
    for (uint32_t j = 0; j < ns; j++) {
        req.out[j] = &s->l2_in[j];
        rep.in[j] = &s->l2_out[j];
    }
    const gm_noc_cfg *noc = &s->cfg.noc;
    if (gm_net_init_crossbar(&d->req_net, "request", ng, ns, noc, gm_dest_slice, NULL, err) ||
        gm_net_init_crossbar(&d->rep_net, "reply", ns, ng, noc, dest_link, d, err))
        return -1;
    gm_net_connect(&d->req_net, req);
    gm_net_connect(&d->rep_net, rep);
    int icnt = s->dom_icnt;
    if (gm_system_add_net(s, (gm_net_ref){&d->req_net, "noc", true, true, icnt}, err) ||
        gm_system_add_net(s, (gm_net_ref){&d->rep_net, "noc", false, true, icnt}, err) ||
        gm_system_on_edge(s, icnt, tick_request_net, d, err) ||
        gm_system_on_edge(s, icnt, tick_reply_net, d, err))
        return -1;
    return 0;
}

/* ---- ops ------------------------------------------------------------------- */

static void sharedl1_destroy(void *state)
{
    sharedl1 *d = state;
    if (d->l1)
        for (uint32_t g = 0; g < d->ngroups; g++)
            gm_sl1_free(&d->l1[g]);
    free(d->l1);
    gm_net_free(&d->req_net);
    gm_net_free(&d->rep_net);
    gm_link_array_free(d->l1_req, d->nin);
    gm_link_array_free(d->l1_rep, d->nin);
    free(d->port_block);
    free(d);
}

static int sharedl1_build(gm_system *s, void **state, gm_error *err)
{
    sharedl1 *d = calloc(1, sizeof *d);
    if (!d)
        return gm_fail(err, "out of memory");
    *state = d;
    const gm_config *cfg = &s->cfg;
    d->ncores = s->ncores;
    d->nslices = s->nslices;
    d->sf = cfg->sharedl1.sf;
    d->ngroups = d->ncores / d->sf;
    d->grow = cfg->sharedl1.grow;
    d->nlinks = cfg->sharedl1.l2_links == GM_SHAREDL1_LINKS_GROUP ? 1 : d->sf;
    d->nin = d->ngroups * d->nlinks;
    /* As the baseline's L1s: the cache keeps its own miss queues. */
    if (gm_link_array_new(&d->l1_req, d->nin, 2, GM_SYNC_EDGES, &s->clock.d[s->dom_icnt],
                          err) ||
        gm_link_array_new(&d->l1_rep, d->nin, cfg->noc.eject_queue, GM_SYNC_EDGES,
                          &s->clock.d[s->dom_core], err))
        return -1;
    d->l1 = calloc(d->ngroups, sizeof *d->l1);
    if (!d->l1)
        return gm_fail(err, "out of memory");
    gm_cache_cfg geom = gm_sharedl1_cache_cfg(cfg);
    for (uint32_t g = 0; g < d->ngroups; g++) {
        gm_sl1 *c = &d->l1[g];
        if (gm_sl1_init(c, &geom, g, d->sf, d->nlinks, cfg->sharedl1.classify != 0, &s->res,
                        err) ||
            gm_system_add_l1(s, &c->stats, err))
            return -1;
        gm_sl1_connect(c, (gm_sl1_links){.miss_out = &d->l1_req[g * d->nlinks],
                                         .fill_in = &d->l1_rep[g * d->nlinks]});
        for (uint32_t i = 0; i < d->sf; i++)
            gm_core_attach_port(&s->cores[g * d->sf + i],
                                (gm_core_port){&gm_sl1_core_port, &c->port[i],
                                               &c->port[i].outstanding});
    }
    /* One copy of a line per sharing group at most. */
    s->copies.max_allowed = d->ngroups;
    return build_networks(s, d, err);
}

static bool sharedl1_busy(const void *state)
{
    const sharedl1 *d = state;
    for (uint32_t g = 0; g < d->ngroups; g++)
        if (gm_sl1_busy(&d->l1[g]))
            return true;
    return false;
}

static int sharedl1_check_drained(const void *state, gm_error *err)
{
    const sharedl1 *d = state;
    if (gm_link_array_check_empty(d->l1_req, d->nin, "shared-L1->request-network", err) ||
        gm_link_array_check_empty(d->l1_rep, d->nin, "reply-network->shared-L1", err))
        return -1;
    for (uint32_t g = 0; g < d->ngroups; g++) {
        const gm_sl1 *c = &d->l1[g];
        if (gm_sl1_busy(c))
            return gm_fail(err, "drain check: shared L1 %u still holds requests", g);
        if (c->invariant_errors)
            return gm_fail(err, "shared L1 %u: %" PRIu64 " fills left a line in more than "
                                "one way of its set", g, c->invariant_errors);
    }
    return 0;
}

static void sharedl1_point_name(const void *state, char *buf, size_t len)
{
    const sharedl1 *d = state;
    snprintf(buf, len, "SF%u%s%s", d->sf, d->grow == GM_SHAREDL1_WAYS ? "-ways" : "",
             d->nlinks == 1 && d->sf > 1 ? "-1link" : "");
}

/* ---- statistics ------------------------------------------------------------- */

static double ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

static void put_u64(cJSON *o, const char *k, uint64_t v)
{
    cJSON_AddNumberToObject(o, k, (double)v);
}

typedef struct totals {
    uint64_t loads, hits, misses, merges, inter_merges, c3[GM_3C_COUNT], l2_requests;
    uint64_t fills_checked, invariant_errors, refusals, arb_waits;
} totals;

static totals sum_caches(const sharedl1 *d)
{
    totals t = {0};
    for (uint32_t g = 0; g < d->ngroups; g++) {
        const gm_sl1 *c = &d->l1[g];
        t.loads += c->stats.accesses[GM_REQ_LOAD];
        t.hits += c->stats.load_hits;
        t.misses += c->stats.load_misses;
        t.merges += c->stats.mshr_merges;
        t.l2_requests += c->l2_requests;
        t.fills_checked += c->fill_lines_checked;
        t.invariant_errors += c->invariant_errors;
        for (int k = 0; k < GM_3C_COUNT; k++)
            t.c3[k] += c->cls.count[k];
        for (uint32_t i = 0; i < d->sf; i++) {
            t.inter_merges += c->port[i].st.inter_merges;
            t.refusals += c->port[i].st.refusals;
            t.arb_waits += c->port[i].st.arb_waits;
        }
    }
    return t;
}

/* The seed's L2 contention: cycles requests at the L2 were refused and
 * retried (a head the slice could not serve, an arrival that found the
 * pipeline full). */
static uint64_t l2_contention(const gm_system *s)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < s->nslices; i++) {
        const gm_l2_stats *st = &s->slices[i].stats;
        n += st->input_stalls;
        for (int k = 0; k < GM_L2_FAIL_COUNT; k++)
            n += st->res_fail[k];
    }
    return n;
}

static void sharedl1_stats_json(const gm_system *s, const void *state, cJSON *design,
                                cJSON *root)
{
    (void)root;
    const sharedl1 *d = state;
    const gm_sl1 *c0 = &d->l1[0];
    totals t = sum_caches(d);
    put_u64(design, "sf", d->sf);
    cJSON_AddStringToObject(design, "grow",
                            s->cfg.sharedl1.grow == GM_SHAREDL1_WAYS ? "ways" : "sets");
    put_u64(design, "l1_caches", d->ngroups);
    put_u64(design, "l2_links_per_l1", d->nlinks);
    put_u64(design, "l1_size_bytes", c0->cfg.size_bytes);
    put_u64(design, "l1_sets", c0->tags.sets);
    put_u64(design, "l1_assoc", c0->tags.assoc);
    put_u64(design, "load_accesses", t.loads);
    put_u64(design, "load_hits", t.hits);
    cJSON_AddNumberToObject(design, "hit_rate", ratio(t.hits, t.loads));
    /* a load merged into a pending fetch sends nothing to the L2 either */
    cJSON_AddNumberToObject(design, "hit_rate_with_merges", ratio(t.hits + t.merges, t.loads));
    put_u64(design, "load_misses", t.misses);
    put_u64(design, "mshr_merges", t.merges);
    put_u64(design, "inter_core_merges", t.inter_merges);
    cJSON *m = cJSON_AddObjectToObject(design, "miss_3c");
    cJSON_AddBoolToObject(m, "classified", s->cfg.sharedl1.classify != 0);
    put_u64(m, "compulsory", t.c3[GM_3C_COMPULSORY]);
    put_u64(m, "capacity", t.c3[GM_3C_CAPACITY]);
    put_u64(m, "conflict", t.c3[GM_3C_CONFLICT]);
    put_u64(design, "memory_accesses", t.l2_requests);
    put_u64(design, "l2_contention", l2_contention(s));
    put_u64(design, "port_refusals", t.refusals);
    put_u64(design, "miss_arbiter_waits", t.arb_waits);
    put_u64(design, "fills_checked", t.fills_checked);
    put_u64(design, "invariant_errors", t.invariant_errors);
    /* per core port: accepted accesses and their share of core cycles */
    cJSON *acc = cJSON_AddArrayToObject(design, "port_accesses");
    cJSON *util = cJSON_AddArrayToObject(design, "port_utilization");
    for (uint32_t g = 0; g < d->ngroups; g++)
        for (uint32_t i = 0; i < d->sf; i++) {
            uint64_t a = d->l1[g].port[i].st.accesses;
            cJSON_AddItemToArray(acc, cJSON_CreateNumber((double)a));
            cJSON_AddItemToArray(util, cJSON_CreateNumber(ratio(a, s->core_cycle)));
        }
}

static void sharedl1_stats_text(const gm_system *s, const void *state, FILE *f)
{
    const sharedl1 *d = state;
    totals t = sum_caches(d);
    fprintf(f, "  design                 shared L1 SF%u (%u L1s), hit rate %.4f, "
               "%" PRIu64 " inter-core merges, 3C %" PRIu64 "/%" PRIu64 "/%" PRIu64
               ", %" PRIu64 " memory accesses, L2 contention %" PRIu64 "\n",
            d->sf, d->ngroups, ratio(t.hits, t.loads), t.inter_merges,
            t.c3[GM_3C_COMPULSORY], t.c3[GM_3C_CAPACITY], t.c3[GM_3C_CONFLICT],
            t.l2_requests, l2_contention(s));
}

const gm_design_ops gm_sharedl1_design = {
    .name = "sharedl1",
    .summary = "shared L1: SF cores share one L1 of SF x the size, one port per core, "
               "inter-core miss merging; crossbars to the L2 slices (Choo et al.)",
    .l1_noun = "shared L1s",
    .section = &gm_sharedl1_section,
    .keys = gm_sharedl1_keys,
    .nkeys = GM_SHAREDL1_NKEYS,
    .validate = gm_sharedl1_validate,
    .build = sharedl1_build,
    .destroy = sharedl1_destroy,
    .busy = sharedl1_busy,
    .check_drained = sharedl1_check_drained,
    .stats_json = sharedl1_stats_json,
    .stats_text = sharedl1_stats_text,
    .point_name = sharedl1_point_name,
};
