#include "designs/dcl1/dcl1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The links at a node cross clock domains (GM_SYNC_EDGES); their 2
 * entries only cover the synchronizer, the buffering is Q1..Q4 and the
 * network interfaces. */
#define NODE_LINK_CAP 2u

/* ---- destination functions ---------------------------------------------------- */

static uint32_t dest_home(const gm_req *r, void *ctx)
{
    return gm_dcl1_home(ctx, r->addr);
}

static uint32_t dest_core_in_cluster(const gm_req *r, void *ctx)
{
    const gm_dcl1_topo *t = ctx;
    return r->src % t->n;
}

/* A request reaching NoC#2 crossbar k must be for one of its slices; if
 * not, the home bits and the slice interleaving disagree and the crossbar
 * records the bad port as a fault (reported by the drain check). */
static uint32_t dest_slice(const gm_req *r, void *ctx)
{
    const gm_dcl1_xctx *x = ctx;
    if (gm_dcl1_noc2_xbar_of_slice(x->t, r->slice) != x->k)
        return UINT32_MAX;
    return gm_dcl1_noc2_port_of_slice(x->t, r->slice);
}

static uint32_t dest_node(const gm_req *r, void *ctx)
{
    const gm_dcl1_xctx *x = ctx;
    if (gm_dcl1_noc2_xbar_of_node(x->t, r->l1) != x->k)
        return UINT32_MAX;
    return gm_dcl1_noc2_port_of_node(x->t, r->l1);
}

/* ---- construction ------------------------------------------------------------- */

/* Node global index of NoC#2 crossbar k, port p (and the same for slices:
 * the numbering is symmetric). */
static uint32_t noc2_member(const gm_dcl1_topo *t, uint32_t k, uint32_t p)
{
    return t->partitioned ? p * t->m + k : p;
}

static int build_noc1(gm_dcl1 *d, const gm_dcl1_env *env, gm_link ***next, gm_error *err)
{
    const gm_dcl1_topo *t = &d->topo;
    gm_noc_cfg noc1 = gm_dcl1_noc1_cfg(env->cfg);
    char name[32];
    d->n1_req = calloc(t->clusters, sizeof *d->n1_req);
    d->n1_rep = calloc(t->clusters, sizeof *d->n1_rep);
    if (!d->n1_req || !d->n1_rep)
        return gm_fail(err, "out of memory");
    for (uint32_t z = 0; z < t->clusters; z++) {
        gm_link **rq_in = *next, **rq_out = rq_in + t->n;
        gm_link **rp_in = rq_out + t->m, **rp_out = rp_in + t->m;
        *next = rp_out + t->n;
        for (uint32_t i = 0; i < t->n; i++) {
            rq_in[i] = &d->core_req[z * t->n + i];
            rp_out[i] = &d->core_rep[z * t->n + i];
        }
        for (uint32_t j = 0; j < t->m; j++) {
            rq_out[j] = &d->node_in[z * t->m + j];
            rp_in[j] = &d->node_out[z * t->m + j];
        }
        snprintf(name, sizeof name, "noc1-request-%u", z);
        if (gm_net_init_crossbar(&d->n1_req[z], name, t->n, t->m, &noc1, dest_home,
                         &d->topo, err))
            return -1;
        snprintf(name, sizeof name, "noc1-reply-%u", z);
        if (gm_net_init_crossbar(&d->n1_rep[z], name, t->m, t->n, &noc1,
                         dest_core_in_cluster, &d->topo, err))
            return -1;
        gm_net_connect(&d->n1_req[z], (gm_net_ports){.in = rq_in, .out = rq_out});
        gm_net_connect(&d->n1_rep[z], (gm_net_ports){.in = rp_in, .out = rp_out});
    }
    return 0;
}

static int build_noc2(gm_dcl1 *d, const gm_dcl1_env *env, gm_link ***next, gm_error *err)
{
    const gm_dcl1_topo *t = &d->topo;
    uint32_t kn = t->noc2_xbars, ni = t->noc2_in, no = t->noc2_out;
    char name[32];
    d->n2_req = calloc(kn, sizeof *d->n2_req);
    d->n2_rep = calloc(kn, sizeof *d->n2_rep);
    d->n2_ctx = calloc(kn, sizeof *d->n2_ctx);
    if (!d->n2_req || !d->n2_rep || !d->n2_ctx)
        return gm_fail(err, "out of memory");
    for (uint32_t k = 0; k < kn; k++) {
        gm_link **rq_in = *next, **rq_out = rq_in + ni;
        gm_link **rp_in = rq_out + no, **rp_out = rp_in + no;
        *next = rp_out + ni;
        for (uint32_t p = 0; p < ni; p++) {
            rq_in[p] = &d->node_l2[noc2_member(t, k, p)];
            rp_out[p] = &d->l2_node[noc2_member(t, k, p)];
        }
        for (uint32_t p = 0; p < no; p++) {
            rq_out[p] = &env->l2_in[noc2_member(t, k, p)];
            rp_in[p] = &env->l2_out[noc2_member(t, k, p)];
        }
        d->n2_ctx[k] = (gm_dcl1_xctx){.t = &d->topo, .k = k};
        snprintf(name, sizeof name, "noc2-request-%u", k);
        if (gm_net_init_crossbar(&d->n2_req[k], name, ni, no, &env->cfg->noc, dest_slice,
                         &d->n2_ctx[k], err))
            return -1;
        snprintf(name, sizeof name, "noc2-reply-%u", k);
        if (gm_net_init_crossbar(&d->n2_rep[k], name, no, ni, &env->cfg->noc, dest_node,
                         &d->n2_ctx[k], err))
            return -1;
        gm_net_connect(&d->n2_req[k], (gm_net_ports){.in = rq_in, .out = rq_out});
        gm_net_connect(&d->n2_rep[k], (gm_net_ports){.in = rp_in, .out = rp_out});
    }
    return 0;
}

int gm_dcl1_init(gm_dcl1 *d, const gm_dcl1_env *env, gm_error *err)
{
    const gm_dcl1_topo *t = &d->topo;
    gm_dcl1_node_cache(env->cfg, &d->node_cfg);
    uint32_t y = t->nodes;
    if (gm_link_array_new(&d->node_in, y, NODE_LINK_CAP, GM_SYNC_EDGES, env->core, err) ||
        gm_link_array_new(&d->node_out, y, NODE_LINK_CAP, GM_SYNC_EDGES, env->noc1, err) ||
        gm_link_array_new(&d->node_l2, y, NODE_LINK_CAP, GM_SYNC_EDGES, env->icnt, err) ||
        gm_link_array_new(&d->l2_node, y, NODE_LINK_CAP, GM_SYNC_EDGES, env->core, err))
        return -1;
    d->nodes = calloc(y, sizeof *d->nodes);
    if (!d->nodes)
        return gm_fail(err, "out of memory");
    for (uint32_t i = 0; i < y; i++) {
        if (gm_dcl1_node_init(&d->nodes[i], i, &d->node_cfg, env->cfg->dcl1.node_queue,
                              env->res, t->max_copies, t->home_granule, t->m, env->core,
                              err))
            return -1;
        gm_dcl1_node_connect(&d->nodes[i], (gm_dcl1_node_ports){
            .req_in = &d->node_in[i], .rep_out = &d->node_out[i],
            .l2_out = &d->node_l2[i], .l2_in = &d->l2_node[i]});
    }
    size_t nptr = (size_t)t->clusters * 2 * (t->n + t->m) +
                  (size_t)t->noc2_xbars * 2 * (t->noc2_in + t->noc2_out);
    d->ptrs = calloc(nptr, sizeof *d->ptrs);
    if (!d->ptrs)
        return gm_fail(err, "out of memory");
    gm_link **next = d->ptrs;
    return build_noc1(d, env, &next, err) || build_noc2(d, env, &next, err) ? -1 : 0;
}

void gm_dcl1_free(gm_dcl1 *d)
{
    const gm_dcl1_topo *t = &d->topo;
    if (d->nodes)
        for (uint32_t i = 0; i < t->nodes; i++)
            gm_dcl1_node_free(&d->nodes[i]);
    for (uint32_t z = 0; z < t->clusters; z++) {
        if (d->n1_req)
            gm_net_free(&d->n1_req[z]);
        if (d->n1_rep)
            gm_net_free(&d->n1_rep[z]);
    }
    for (uint32_t k = 0; k < t->noc2_xbars; k++) {
        if (d->n2_req)
            gm_net_free(&d->n2_req[k]);
        if (d->n2_rep)
            gm_net_free(&d->n2_rep[k]);
    }
    free(d->nodes);
    free(d->n1_req);
    free(d->n1_rep);
    free(d->n2_req);
    free(d->n2_rep);
    free(d->n2_ctx);
    gm_link_array_free(d->node_in, t->nodes);
    gm_link_array_free(d->node_out, t->nodes);
    gm_link_array_free(d->node_l2, t->nodes);
    gm_link_array_free(d->l2_node, t->nodes);
    gm_link_array_free(d->core_req, d->ncores);
    gm_link_array_free(d->core_rep, d->ncores);
    free(d->ports);
    free(d->ptrs);
    memset(d, 0, sizeof *d);
}

/* ---- clock edges -------------------------------------------------------------- */

void gm_dcl1_tick_nodes(gm_dcl1 *d, gm_time now)
{
    for (uint32_t i = 0; i < d->topo.nodes; i++)
        gm_dcl1_node_tick(&d->nodes[i], now);
}

void gm_dcl1_tick_noc1(gm_dcl1 *d, gm_time now)
{
    for (uint32_t z = 0; z < d->topo.clusters; z++) {
        gm_net_tick(&d->n1_req[z], now);
        gm_net_tick(&d->n1_rep[z], now);
    }
}

void gm_dcl1_tick_noc2(gm_dcl1 *d, gm_time now)
{
    for (uint32_t k = 0; k < d->topo.noc2_xbars; k++) {
        gm_net_tick(&d->n2_req[k], now);
        gm_net_tick(&d->n2_rep[k], now);
    }
}

/* ---- checks ------------------------------------------------------------------- */

bool gm_dcl1_busy(const gm_dcl1 *d)
{
    const gm_dcl1_topo *t = &d->topo;
    for (uint32_t i = 0; i < t->nodes; i++)
        if (gm_dcl1_node_busy(&d->nodes[i]) || !gm_link_empty(&d->node_out[i]) ||
            !gm_link_empty(&d->node_l2[i]))
            return true;
    return false;
}

int gm_dcl1_check_drained(const gm_dcl1 *d, gm_error *err)
{
    const gm_dcl1_topo *t = &d->topo;
    if (gm_link_array_check_empty(d->core_req, d->ncores, "core->NoC#1", err) ||
        gm_link_array_check_empty(d->core_rep, d->ncores, "NoC#1->core", err) ||
        gm_link_array_check_empty(d->node_in, t->nodes, "NoC#1->node", err) ||
        gm_link_array_check_empty(d->node_out, t->nodes, "node->NoC#1", err) ||
        gm_link_array_check_empty(d->node_l2, t->nodes, "node->NoC#2", err) ||
        gm_link_array_check_empty(d->l2_node, t->nodes, "NoC#2->node", err))
        return -1;
    for (uint32_t i = 0; i < t->nodes; i++) {
        if (gm_dcl1_node_check_drained(&d->nodes[i], err))
            return -1;
        if (d->nodes[i].cache.copies_violations)
            return gm_fail(err, "invariant: DC-L1 node %u installed %llu lines that were then "
                                "resident in more than %u nodes",
                           i, (unsigned long long)d->nodes[i].cache.copies_violations,
                           t->max_copies);
    }
    return 0;
}
