#include "designs/dcl1/dcl1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two-flop synchronizer at every clock-domain crossing (as system.c). The
 * links at a node are such crossings; their 2 entries only cover the
 * synchronizer, the buffering is Q1..Q4 and the network interfaces. */
#define SYNC_EDGES 2u
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
    if (gm_dcl1_noc2_xbar_of_node(x->t, r->node) != x->k)
        return UINT32_MAX;
    return gm_dcl1_noc2_port_of_node(x->t, r->node);
}

/* ---- construction ------------------------------------------------------------- */

static int make_links(gm_link **out, uint32_t n, uint32_t cap, const gm_clock_domain *consumer,
                      gm_error *err)
{
    *out = calloc(n, sizeof **out);
    if (!*out)
        return gm_fail(err, "out of memory");
    for (uint32_t i = 0; i < n; i++)
        if (gm_link_init(&(*out)[i], cap, SYNC_EDGES, consumer) != 0)
            return gm_fail(err, "out of memory");
    return 0;
}

static void free_links(gm_link *l, uint32_t n)
{
    if (!l)
        return;
    for (uint32_t i = 0; i < n; i++)
        gm_link_free(&l[i]);
    free(l);
}

/* Node global index of NoC#2 crossbar k, port p (and the same for slices:
 * the numbering is symmetric). */
static uint32_t noc2_member(const gm_dcl1_topo *t, uint32_t k, uint32_t p)
{
    return t->partitioned ? p * t->m + k : p;
}

static int build_noc1(gm_dcl1 *d, const gm_dcl1_env *env, gm_link ***next, gm_error *err)
{
    const gm_dcl1_topo *t = &d->topo;
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
            rq_in[i] = &env->core_req[z * t->n + i];
            rp_out[i] = &env->core_rep[z * t->n + i];
        }
        for (uint32_t j = 0; j < t->m; j++) {
            rq_out[j] = &d->node_in[z * t->m + j];
            rp_in[j] = &d->node_out[z * t->m + j];
        }
        snprintf(name, sizeof name, "noc1-request-%u", z);
        if (gm_xbar_init(&d->n1_req[z], name, t->n, t->m, &env->cfg->noc, dest_home,
                         &d->topo, err))
            return -1;
        snprintf(name, sizeof name, "noc1-reply-%u", z);
        if (gm_xbar_init(&d->n1_rep[z], name, t->m, t->n, &env->cfg->noc,
                         dest_core_in_cluster, &d->topo, err))
            return -1;
        gm_xbar_connect(&d->n1_req[z], (gm_xbar_ports){.in = rq_in, .out = rq_out});
        gm_xbar_connect(&d->n1_rep[z], (gm_xbar_ports){.in = rp_in, .out = rp_out});
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
        if (gm_xbar_init(&d->n2_req[k], name, ni, no, &env->cfg->noc, dest_slice,
                         &d->n2_ctx[k], err))
            return -1;
        snprintf(name, sizeof name, "noc2-reply-%u", k);
        if (gm_xbar_init(&d->n2_rep[k], name, no, ni, &env->cfg->noc, dest_node,
                         &d->n2_ctx[k], err))
            return -1;
        gm_xbar_connect(&d->n2_req[k], (gm_xbar_ports){.in = rq_in, .out = rq_out});
        gm_xbar_connect(&d->n2_rep[k], (gm_xbar_ports){.in = rp_in, .out = rp_out});
    }
    return 0;
}

int gm_dcl1_init(gm_dcl1 *d, const gm_dcl1_env *env, gm_error *err)
{
    memset(d, 0, sizeof *d);
    if (gm_dcl1_topo_init(&d->topo, env->cfg, err) != 0)
        return -1;
    const gm_dcl1_topo *t = &d->topo;
    gm_config_node_cache(env->cfg, &d->node_cfg);
    uint32_t y = t->nodes;
    if (make_links(&d->node_in, y, NODE_LINK_CAP, env->core, err) ||
        make_links(&d->node_out, y, NODE_LINK_CAP, env->noc1, err) ||
        make_links(&d->node_l2, y, NODE_LINK_CAP, env->icnt, err) ||
        make_links(&d->l2_node, y, NODE_LINK_CAP, env->core, err))
        goto fail;
    d->nodes = calloc(y, sizeof *d->nodes);
    if (!d->nodes) {
        gm_fail(err, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < y; i++) {
        if (gm_dcl1_node_init(&d->nodes[i], i, &d->node_cfg, env->cfg->design.node_queue,
                              env->res, t->max_copies, t->home_granule, t->m, env->core,
                              err))
            goto fail;
        gm_dcl1_node_connect(&d->nodes[i], (gm_dcl1_node_ports){
            .req_in = &d->node_in[i], .rep_out = &d->node_out[i],
            .l2_out = &d->node_l2[i], .l2_in = &d->l2_node[i]});
    }
    size_t nptr = (size_t)t->clusters * 2 * (t->n + t->m) +
                  (size_t)t->noc2_xbars * 2 * (t->noc2_in + t->noc2_out);
    d->ptrs = calloc(nptr, sizeof *d->ptrs);
    if (!d->ptrs) {
        gm_fail(err, "out of memory");
        goto fail;
    }
    gm_link **next = d->ptrs;
    if (build_noc1(d, env, &next, err) || build_noc2(d, env, &next, err))
        goto fail;
    return 0;
fail:
    gm_dcl1_free(d);
    return -1;
}

void gm_dcl1_free(gm_dcl1 *d)
{
    const gm_dcl1_topo *t = &d->topo;
    if (d->nodes)
        for (uint32_t i = 0; i < t->nodes; i++)
            gm_dcl1_node_free(&d->nodes[i]);
    for (uint32_t z = 0; z < t->clusters; z++) {
        if (d->n1_req)
            gm_xbar_free(&d->n1_req[z]);
        if (d->n1_rep)
            gm_xbar_free(&d->n1_rep[z]);
    }
    for (uint32_t k = 0; k < t->noc2_xbars; k++) {
        if (d->n2_req)
            gm_xbar_free(&d->n2_req[k]);
        if (d->n2_rep)
            gm_xbar_free(&d->n2_rep[k]);
    }
    free(d->nodes);
    free(d->n1_req);
    free(d->n1_rep);
    free(d->n2_req);
    free(d->n2_rep);
    free(d->n2_ctx);
    free_links(d->node_in, t->nodes);
    free_links(d->node_out, t->nodes);
    free_links(d->node_l2, t->nodes);
    free_links(d->l2_node, t->nodes);
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
        gm_xbar_tick(&d->n1_req[z], now);
        gm_xbar_tick(&d->n1_rep[z], now);
    }
}

void gm_dcl1_tick_noc2(gm_dcl1 *d, gm_time now)
{
    for (uint32_t k = 0; k < d->topo.noc2_xbars; k++) {
        gm_xbar_tick(&d->n2_req[k], now);
        gm_xbar_tick(&d->n2_rep[k], now);
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
    for (uint32_t z = 0; z < t->clusters; z++)
        if (gm_xbar_busy(&d->n1_req[z]) || gm_xbar_busy(&d->n1_rep[z]))
            return true;
    for (uint32_t k = 0; k < t->noc2_xbars; k++)
        if (gm_xbar_busy(&d->n2_req[k]) || gm_xbar_busy(&d->n2_rep[k]))
            return true;
    return false;
}

static int check_links_empty(const gm_link *l, uint32_t n, const char *what, gm_error *err)
{
    for (uint32_t i = 0; i < n; i++)
        if (!gm_link_empty(&l[i]))
            return gm_fail(err, "drain check: %s link %u still holds %u items", what, i,
                           l[i].count);
    return 0;
}

int gm_dcl1_check_drained(const gm_dcl1 *d, gm_error *err)
{
    const gm_dcl1_topo *t = &d->topo;
    if (check_links_empty(d->node_in, t->nodes, "NoC#1->node", err) ||
        check_links_empty(d->node_out, t->nodes, "node->NoC#1", err) ||
        check_links_empty(d->node_l2, t->nodes, "node->NoC#2", err) ||
        check_links_empty(d->l2_node, t->nodes, "NoC#2->node", err))
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
    for (uint32_t z = 0; z < t->clusters; z++)
        if (gm_xbar_check_drained(&d->n1_req[z], err) ||
            gm_xbar_check_drained(&d->n1_rep[z], err))
            return -1;
    for (uint32_t k = 0; k < t->noc2_xbars; k++)
        if (gm_xbar_check_drained(&d->n2_req[k], err) ||
            gm_xbar_check_drained(&d->n2_rep[k], err))
            return -1;
    return 0;
}

bool gm_dcl1_find_req(const gm_dcl1 *d, const gm_req *r, char *buf, size_t len)
{
    const gm_dcl1_topo *t = &d->topo;
    for (uint32_t z = 0; z < t->clusters; z++)
        if (gm_xbar_find_req(&d->n1_req[z], r, buf, len) ||
            gm_xbar_find_req(&d->n1_rep[z], r, buf, len))
            return true;
    for (uint32_t k = 0; k < t->noc2_xbars; k++)
        if (gm_xbar_find_req(&d->n2_req[k], r, buf, len) ||
            gm_xbar_find_req(&d->n2_rep[k], r, buf, len))
            return true;
    return false;
}
