#include "designs/ata/ata.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "designs/ata/ata_node.h"
#include "designs/common.h"
#include "noc/net.h"
#include "system/system.h"

typedef struct ata {
    uint32_t ncores, nslices, k, nclusters;
    uint32_t org;
    gm_ata_node *nodes;          /* [ncores], node i is core i's L1 */
    gm_ata_tags *tags;           /* [nclusters] */
    gm_ata_tblk *blks;           /* [nclusters] the tag arrays' RTL twin blocks */
    gm_tag_array **arrays;       /* [ncores] the tag arrays, cluster by cluster */
    gm_mshr **mshrs;             /* [ncores] the MSHR tables, likewise */
    gm_link *l2_req, *l2_rep;    /* [ncores] node <-> L2 networks */
    gm_link *xreq_in, *xreq_out; /* [ncores] node -> cluster request crossbar -> node */
    gm_link *xrep_in, *xrep_out; /* [ncores] node -> cluster reply crossbar -> node */
    gm_link **xptrs;             /* port arrays of the cluster crossbars */
    gm_core_l2_ports ports;
    gm_net req_net, rep_net;
    gm_net *xreq, *xrep;         /* [nclusters] */
} ata;

/* ---- routing ----------------------------------------------------------------- */

/* Cluster crossbars: a request to the L1 its node chose (r->block_handle),
 * a reply to the requesting core's L1. */
static uint32_t dest_target(const gm_req *r, void *ctx)
{
    (void)ctx;
    return r->block_handle;
}

static uint32_t dest_requester(const gm_req *r, void *ctx)
{
    return r->src % *(const uint32_t *)ctx;
}

/* L2 replies go to the L1 that holds the fetch (decoupled: the home). */
static uint32_t dest_l1(const gm_req *r, void *ctx)
{
    (void)ctx;
    return r->l1;
}

/* ---- clock edges --------------------------------------------------------------- */

static void tick_l2_nets(void *ctx, gm_time now)
{
    ata *a = ctx;
    gm_net_tick(&a->req_net, now);
    gm_net_tick(&a->rep_net, now);
}

static void tick_cluster_nets(void *ctx, gm_time now)
{
    ata *a = ctx;
    for (uint32_t z = 0; z < a->nclusters; z++) {
        gm_net_tick(&a->xreq[z], now);
        gm_net_tick(&a->xrep[z], now);
    }
}

/* ---- construction --------------------------------------------------------------- */

static int build_cluster_nets(gm_system *s, ata *a, gm_error *err)
{
    uint32_t k = a->k;
    char name[32];
    a->xreq = calloc(a->nclusters, sizeof *a->xreq);
    a->xrep = calloc(a->nclusters, sizeof *a->xrep);
    a->xptrs = calloc((size_t)a->ncores * 4, sizeof *a->xptrs);
    if (!a->xreq || !a->xrep || !a->xptrs)
        return gm_fail(err, "out of memory");
    for (uint32_t z = 0; z < a->nclusters; z++) {
        gm_link **q_in = a->xptrs + (size_t)z * 4 * k, **q_out = q_in + k;
        gm_link **p_in = q_out + k, **p_out = p_in + k;
        for (uint32_t i = 0; i < k; i++) {
            q_in[i] = &a->xreq_out[z * k + i];
            q_out[i] = &a->xreq_in[z * k + i];
            p_in[i] = &a->xrep_out[z * k + i];
            p_out[i] = &a->xrep_in[z * k + i];
        }
        snprintf(name, sizeof name, "cluster-request-%u", z);
        if (gm_net_init_crossbar(&a->xreq[z], name, k, k, &s->cfg.noc, dest_target, NULL, err))
            return -1;
        snprintf(name, sizeof name, "cluster-reply-%u", z);
        if (gm_net_init_crossbar(&a->xrep[z], name, k, k, &s->cfg.noc, dest_requester, &a->k,
                                 err))
            return -1;
        gm_net_connect(&a->xreq[z], (gm_net_ports){.in = q_in, .out = q_out});
        gm_net_connect(&a->xrep[z], (gm_net_ports){.in = p_in, .out = p_out});
        int icnt = s->dom_icnt;
        if (gm_system_add_net(s, (gm_net_ref){&a->xreq[z], "cluster", true, false, icnt},
                              err) ||
            gm_system_add_net(s, (gm_net_ref){&a->xrep[z], "cluster", false, false, icnt},
                              err))
            return -1;
    }
    return gm_system_on_edge(s, s->dom_icnt, tick_cluster_nets, a, err);
}

static int build_l2_nets(gm_system *s, ata *a, gm_error *err)
{
    const gm_noc_cfg *noc = &s->cfg.noc;
    uint32_t nc = a->ncores, ns = a->nslices;
    if (gm_core_l2_ports_init(&a->ports, s, a->l2_req, a->l2_rep, err) ||
        gm_net_init_crossbar(&a->req_net, "request", nc, ns, noc, gm_dest_slice, NULL, err) ||
        gm_net_init_crossbar(&a->rep_net, "reply", ns, nc, noc, dest_l1, NULL, err))
        return -1;
    gm_net_connect(&a->req_net, a->ports.req);
    gm_net_connect(&a->rep_net, a->ports.rep);
    int icnt = s->dom_icnt;
    if (gm_system_add_net(s, (gm_net_ref){&a->req_net, "noc", true, true, icnt}, err) ||
        gm_system_add_net(s, (gm_net_ref){&a->rep_net, "noc", false, true, icnt}, err))
        return -1;
    return gm_system_on_edge(s, icnt, tick_l2_nets, a, err);
}

static void ata_destroy(void *state)
{
    ata *a = state;
    if (a->nodes)
        for (uint32_t i = 0; i < a->ncores; i++)
            gm_ata_node_free(&a->nodes[i]);
    free(a->nodes);
    free(a->tags);
    if (a->blks)
        for (uint32_t z = 0; z < a->nclusters; z++)
            gm_ata_tblk_free(&a->blks[z]);
    free(a->blks);
    free(a->arrays);
    free(a->mshrs);
    gm_net_free(&a->req_net);
    gm_net_free(&a->rep_net);
    for (uint32_t z = 0; z < a->nclusters; z++) {
        if (a->xreq)
            gm_net_free(&a->xreq[z]);
        if (a->xrep)
            gm_net_free(&a->xrep[z]);
    }
    free(a->xreq);
    free(a->xrep);
    free(a->xptrs);
    gm_link_array_free(a->l2_req, a->ncores);
    gm_link_array_free(a->l2_rep, a->ncores);
    gm_link_array_free(a->xreq_in, a->ncores);
    gm_link_array_free(a->xreq_out, a->ncores);
    gm_link_array_free(a->xrep_in, a->ncores);
    gm_link_array_free(a->xrep_out, a->ncores);
    gm_core_l2_ports_free(&a->ports);
    free(a);
}

static int ata_build(gm_system *s, void **state, gm_error *err)
{
    ata *a = calloc(1, sizeof *a);
    if (!a)
        return gm_fail(err, "out of memory");
    *state = a;
    const gm_config *cfg = &s->cfg;
    a->ncores = s->ncores;
    a->nslices = s->nslices;
    a->nclusters = cfg->core.clusters;
    a->k = a->ncores / a->nclusters;
    a->org = cfg->ata.org;
    const gm_clock_domain *core = &s->clock.d[s->dom_core], *icnt = &s->clock.d[s->dom_icnt];
    uint32_t nc = a->ncores;
    if (gm_link_array_new(&a->l2_req, nc, 2, GM_SYNC_EDGES, icnt, err) ||
        gm_link_array_new(&a->l2_rep, nc, cfg->noc.eject_queue, GM_SYNC_EDGES, core, err) ||
        gm_link_array_new(&a->xreq_out, nc, 2, GM_SYNC_EDGES, icnt, err) ||
        gm_link_array_new(&a->xreq_in, nc, cfg->noc.eject_queue, GM_SYNC_EDGES, core, err) ||
        gm_link_array_new(&a->xrep_out, nc, 2, GM_SYNC_EDGES, icnt, err) ||
        gm_link_array_new(&a->xrep_in, nc, cfg->noc.eject_queue, GM_SYNC_EDGES, core, err))
        return -1;
    a->nodes = calloc(nc, sizeof *a->nodes);
    a->tags = calloc(a->nclusters, sizeof *a->tags);
    a->arrays = calloc(nc, sizeof *a->arrays);
    a->mshrs = calloc(nc, sizeof *a->mshrs);
    a->blks = calloc(a->nclusters, sizeof *a->blks);
    if (!a->nodes || !a->tags || !a->arrays || !a->mshrs || !a->blks)
        return gm_fail(err, "out of memory");
    uint32_t ports = cfg->ata.tag_ports ? cfg->ata.tag_ports : a->k;
    for (uint32_t z = 0; z < a->nclusters; z++)
        a->tags[z] = (gm_ata_tags){.arrays = a->arrays + (size_t)z * a->k,
                                   .mshrs = a->mshrs + (size_t)z * a->k, .k = a->k,
                                   .ports = ports, .cycle = UINT64_MAX};
    for (uint32_t i = 0; i < nc; i++) {
        gm_ata_node *n = &a->nodes[i];
        if (gm_ata_node_init(n, i, a->k, cfg, &s->res, &a->tags[i / a->k], err) ||
            gm_system_add_l1(s, &n->cstats, err))
            return -1;
        a->arrays[i] = &n->tags;
        a->mshrs[i] = &n->mshr;
        gm_ata_node_connect(n, (gm_ata_node_ports){
            .l2_out = &a->l2_req[i], .l2_in = &a->l2_rep[i],
            .xreq_out = &a->xreq_out[i], .xreq_in = &a->xreq_in[i],
            .xrep_out = &a->xrep_out[i], .xrep_in = &a->xrep_in[i]}, core);
        gm_core_attach_port(&s->cores[i], (gm_core_port){&gm_ata_node_port, n,
                                                         &n->outstanding});
    }
    /* The C block of rtl/gm_ata_tags.sv per cluster, in step with the tag
     * arrays (gm_ata_tags_mirror): the arrays' geometry, full-width tags,
     * one lookup port. */
    for (uint32_t z = 0; z < a->nclusters; z++) {
        const gm_tag_array *t0 = &a->nodes[z * a->k].tags;
        if (gm_ata_tblk_init(&a->blks[z], a->k, t0->sets, t0->assoc, GM_ATA_TBLK_MAX_TAG, 1,
                             GM_TAG_SECTORS, err))
            return -1;
        a->tags[z].blk = &a->blks[z];
    }
    s->copies.max_allowed = a->org == GM_ATA_DECOUPLED ? a->nclusters : nc;
    return build_l2_nets(s, a, err) || build_cluster_nets(s, a, err) ? -1 : 0;
}

static bool ata_busy(const void *state)
{
    const ata *a = state;
    for (uint32_t i = 0; i < a->ncores; i++)
        if (gm_ata_node_busy(&a->nodes[i]))
            return true;
    return false;
}

static int ata_check_drained(const void *state, gm_error *err)
{
    const ata *a = state;
    uint32_t nc = a->ncores;
    if (gm_link_array_check_empty(a->l2_req, nc, "L1->request-network", err) ||
        gm_link_array_check_empty(a->l2_rep, nc, "reply-network->L1", err) ||
        gm_link_array_check_empty(a->xreq_out, nc, "L1->cluster-request", err) ||
        gm_link_array_check_empty(a->xreq_in, nc, "cluster-request->L1", err) ||
        gm_link_array_check_empty(a->xrep_out, nc, "L1->cluster-reply", err) ||
        gm_link_array_check_empty(a->xrep_in, nc, "cluster-reply->L1", err))
        return -1;
    for (uint32_t i = 0; i < nc; i++)
        if (gm_ata_node_check_drained(&a->nodes[i], err))
            return -1;
    for (uint32_t z = 0; z < a->nclusters; z++)
        if (a->tags[z].blk_mismatches)
            return gm_fail(err, "invariant: the tag-array block of cluster %u disagreed with "
                                "the L1 tag arrays %llu times", z,
                           (unsigned long long)a->tags[z].blk_mismatches);
    return 0;
}

static bool ata_find_req(const void *state, const gm_req *r, char *buf, size_t len)
{
    const ata *a = state;
    if (r->loc != GM_LOC_NODE || r->loc_index >= a->ncores)
        return false;
    snprintf(buf, len, "ata L1 %u (crossbar queue, remote read or reply queue)",
             (unsigned)r->loc_index);
    return true;
}

static const char *const org_point[] = { "private", "decoupled", "ATA" };

static void ata_point_name(const void *state, char *buf, size_t len)
{
    const ata *a = state;
    snprintf(buf, len, "%s", org_point[a->org]);
}

static void sum_stats(const ata *a, gm_ata_stats *t)
{
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < a->ncores; i++) {
        const gm_ata_stats *s = &a->nodes[i].st;
        t->local_hits += s->local_hits;
        t->local_merges += s->local_merges;
        t->remote_hits += s->remote_hits;
        t->remote_merges += s->remote_merges;
        t->l2_misses += s->l2_misses;
        t->remote_stale += s->remote_stale;
        t->l2_while_pending += s->l2_while_pending;
        t->remote_served += s->remote_served;
        for (uint32_t p = 0; p <= GM_ATA_MAX_CLUSTER; p++)
            t->hv_pop[p] += s->hv_pop[p];
        t->bank_conflicts += s->bank_conflicts;
        t->tag_port_refusals += s->tag_port_refusals;
        t->xbar_refusals += s->xbar_refusals;
        t->load_lat_sum += s->load_lat_sum;
        t->load_lat_n += s->load_lat_n;
        if (s->load_lat_max > t->load_lat_max)
            t->load_lat_max = s->load_lat_max;
        t->inst_lat_sum += s->inst_lat_sum;
        t->inst_lat_n += s->inst_lat_n;
        if (s->inst_lat_max > t->inst_lat_max)
            t->inst_lat_max = s->inst_lat_max;
        t->inst_untracked += s->inst_untracked;
        t->invariant_violations += s->invariant_violations;
    }
}

/* Flit-cycles used over flit-cycles offered, summed over the cluster
 * crossbars' output ports. */
static double xbar_utilization(const ata *a, bool request)
{
    uint64_t busy = 0, offered = 0;
    for (uint32_t z = 0; z < a->nclusters; z++) {
        const gm_net *n = request ? &a->xreq[z] : &a->xrep[z];
        for (uint32_t j = 0; j < a->k; j++)
            busy += n->st.out_flits[j];
        offered += n->st.cycles * a->k;
    }
    return offered ? (double)busy / (double)offered : 0.0;
}

static void ata_stats_json(const gm_system *s, const void *state, cJSON *design, cJSON *root)
{
    (void)s;
    (void)root;
    const ata *a = state;
    gm_ata_stats t;
    sum_stats(a, &t);
    char name[16];
    ata_point_name(a, name, sizeof name);
    cJSON_AddStringToObject(design, "org", name);
    cJSON_AddNumberToObject(design, "l1_caches", a->ncores);
    cJSON_AddNumberToObject(design, "cluster_size", a->k);
    cJSON_AddNumberToObject(design, "local_hits", (double)t.local_hits);
    cJSON_AddNumberToObject(design, "local_merges", (double)t.local_merges);
    cJSON_AddNumberToObject(design, "remote_hits", (double)t.remote_hits);
    cJSON_AddNumberToObject(design, "remote_merges", (double)t.remote_merges);
    cJSON_AddNumberToObject(design, "remote_dirty_to_l2", (double)t.remote_stale);
    cJSON_AddNumberToObject(design, "l2_misses", (double)t.l2_misses);
    cJSON_AddNumberToObject(design, "l2_misses_pending_elsewhere", (double)t.l2_while_pending);
    cJSON_AddNumberToObject(design, "remote_served", (double)t.remote_served);
    cJSON *hv = cJSON_AddArrayToObject(design, "hit_vector_population");
    for (uint32_t p = 0; p <= a->k; p++)
        cJSON_AddItemToArray(hv, cJSON_CreateNumber((double)t.hv_pop[p]));
    cJSON_AddNumberToObject(design, "bank_conflicts", (double)t.bank_conflicts);
    cJSON_AddNumberToObject(design, "tag_port_refusals", (double)t.tag_port_refusals);
    cJSON_AddNumberToObject(design, "xbar_refusals", (double)t.xbar_refusals);
    cJSON_AddNumberToObject(design, "xbar_request_utilization", xbar_utilization(a, true));
    cJSON_AddNumberToObject(design, "xbar_reply_utilization", xbar_utilization(a, false));
    cJSON_AddNumberToObject(design, "l1_load_latency_avg",
                            t.load_lat_n ? (double)t.load_lat_sum / (double)t.load_lat_n : 0.0);
    cJSON_AddNumberToObject(design, "l1_load_latency_max", (double)t.load_lat_max);
    cJSON_AddNumberToObject(design, "l1_access_latency_avg",
                            t.inst_lat_n ? (double)t.inst_lat_sum / (double)t.inst_lat_n : 0.0);
    cJSON_AddNumberToObject(design, "l1_access_latency_max", (double)t.inst_lat_max);
    cJSON_AddNumberToObject(design, "l1_access_latency_instructions", (double)t.inst_lat_n);
    cJSON_AddNumberToObject(design, "l1_access_latency_untracked", (double)t.inst_untracked);
    cJSON_AddNumberToObject(design, "invariant_violations", (double)t.invariant_violations);
    uint64_t checks = 0, mismatches = 0;
    for (uint32_t z = 0; z < a->nclusters; z++) {
        checks += a->tags[z].blk_checks;
        mismatches += a->tags[z].blk_mismatches;
    }
    cJSON_AddNumberToObject(design, "tag_block_checks", (double)checks);
    cJSON_AddNumberToObject(design, "tag_block_mismatches", (double)mismatches);
}

static void ata_stats_text(const gm_system *s, const void *state, FILE *f)
{
    (void)s;
    const ata *a = state;
    gm_ata_stats t;
    sum_stats(a, &t);
    char name[16];
    ata_point_name(a, name, sizeof name);
    fprintf(f, "  design                 ATA-Cache %s (clusters of %u): loads local %" PRIu64
               "+%" PRIu64 " merged, remote %" PRIu64 "+%" PRIu64 " merged, L2 %" PRIu64
               ", remote dirty->L2 %" PRIu64 ", L1 access latency %.1f\n",
            name, a->k, t.local_hits, t.local_merges, t.remote_hits, t.remote_merges,
            t.l2_misses, t.remote_stale,
            t.inst_lat_n ? (double)t.inst_lat_sum / (double)t.inst_lat_n : 0.0);
}

/* ---- co-simulation hooks ----------------------------------------------------- */

static ata *ata_of(const gm_system *s)
{
    return s->design == &gm_ata_design ? s->design_state : NULL;
}

uint32_t gm_ata_tags_count(const gm_system *s)
{
    const ata *a = ata_of(s);
    return a ? a->nclusters : 0;
}

const gm_ata_tblk *gm_ata_tags_block(const gm_system *s, uint32_t z)
{
    const ata *a = ata_of(s);
    return a && z < a->nclusters ? &a->blks[z] : NULL;
}

int gm_ata_tags_attach_twin(gm_system *s, uint32_t z, const gm_ata_tblk_twin *twin,
                            gm_error *err)
{
    ata *a = ata_of(s);
    if (!a || z >= a->nclusters)
        return gm_fail(err, "no ATA tag array instance %u", z);
    a->tags[z].twin = twin;
    return 0;
}

const gm_design_ops gm_ata_design = {
    .name = "ata",
    .summary = "ATA-Cache: per cluster, L1s with an aggregated tag array, a cluster "
               "crossbar for remote hits; org private / decoupled-sharing / ata "
               "(ATA seed Table II)",
    .l1_noun = "L1s",
    .node_name = "ata L1",
    .section = &gm_ata_section,
    .keys = gm_ata_keys,
    .nkeys = GM_ATA_NKEYS,
    .validate = gm_ata_validate,
    .build = ata_build,
    .destroy = ata_destroy,
    .busy = ata_busy,
    .check_drained = ata_check_drained,
    .find_req = ata_find_req,
    .stats_json = ata_stats_json,
    .stats_text = ata_stats_text,
    .point_name = ata_point_name,
};
