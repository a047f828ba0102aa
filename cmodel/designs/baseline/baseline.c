#include "designs/baseline/baseline.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cache/l1d.h"
#include "designs/common.h"
#include "noc/net.h"
#include "system/system.h"

typedef struct baseline {
    uint32_t ncores, nslices;
    gm_l1d *l1;                  /* [ncores] */
    gm_link *core_req;           /* [ncores] L1 miss queue -> request crossbar */
    gm_link *core_rep;           /* [ncores] reply crossbar -> L1 */
    gm_core_l2_ports ports;      /* port arrays of both crossbars */
    gm_net req_net, rep_net;
} baseline;

/* ---- networks -------------------------------------------------------------- */

static void tick_request_net(void *ctx, gm_time now)
{
    gm_net_tick(&((baseline *)ctx)->req_net, now);
}

static void tick_reply_net(void *ctx, gm_time now)
{
    gm_net_tick(&((baseline *)ctx)->rep_net, now);
}

static int build_networks(gm_system *s, baseline *b, gm_error *err)
{
    const gm_noc_cfg *noc = &s->cfg.noc;
    uint32_t nc = b->ncores, ns = b->nslices;
    if (gm_core_l2_ports_init(&b->ports, s, b->core_req, b->core_rep, err) ||
        gm_net_init_crossbar(&b->req_net, "request", nc, ns, noc, gm_dest_slice, NULL, err) ||
        gm_net_init_crossbar(&b->rep_net, "reply", ns, nc, noc, gm_dest_core, NULL, err))
        return -1;
    gm_net_connect(&b->req_net, b->ports.req);
    gm_net_connect(&b->rep_net, b->ports.rep);
    int icnt = s->dom_icnt;
    if (gm_system_add_net(s, (gm_net_ref){&b->req_net, "noc", true, true, icnt}, err) ||
        gm_system_add_net(s, (gm_net_ref){&b->rep_net, "noc", false, true, icnt}, err) ||
        gm_system_on_edge(s, icnt, tick_request_net, b, err) ||
        gm_system_on_edge(s, icnt, tick_reply_net, b, err))
        return -1;
    return 0;
}

/* ---- ops ------------------------------------------------------------------- */

static void baseline_destroy(void *state)
{
    baseline *b = state;
    if (b->l1)
        for (uint32_t i = 0; i < b->ncores; i++)
            gm_l1d_free(&b->l1[i]);
    free(b->l1);
    gm_net_free(&b->req_net);
    gm_net_free(&b->rep_net);
    gm_link_array_free(b->core_req, b->ncores);
    gm_link_array_free(b->core_rep, b->ncores);
    gm_core_l2_ports_free(&b->ports);
    free(b);
}

static int baseline_build(gm_system *s, void **state, gm_error *err)
{
    baseline *b = calloc(1, sizeof *b);
    if (!b)
        return gm_fail(err, "out of memory");
    *state = b;
    b->ncores = s->ncores;
    b->nslices = s->nslices;
    const gm_config *cfg = &s->cfg;
    /* The L1 keeps its own miss queue; the crossing itself needs little. */
    if (gm_link_array_new(&b->core_req, b->ncores, 2, GM_SYNC_EDGES,
                          &s->clock.d[s->dom_icnt], err) ||
        gm_link_array_new(&b->core_rep, b->ncores, cfg->noc.eject_queue, GM_SYNC_EDGES,
                          &s->clock.d[s->dom_core], err))
        return -1;
    b->l1 = calloc(b->ncores, sizeof *b->l1);
    if (!b->l1)
        return gm_fail(err, "out of memory");
    for (uint32_t i = 0; i < b->ncores; i++) {
        if (gm_l1d_init(&b->l1[i], &cfg->l1, i, &s->res, err) ||
            gm_system_add_l1(s, &b->l1[i].stats, err))
            return -1;
        gm_l1d_connect(&b->l1[i], (gm_l1d_ports){.miss_out = &b->core_req[i],
                                                 .fill_in = &b->core_rep[i]});
        gm_core_attach_port(&s->cores[i], (gm_core_port){&gm_l1d_core_port, &b->l1[i], NULL});
    }
    s->copies.max_allowed = b->ncores;
    return build_networks(s, b, err);
}

static bool baseline_busy(const void *state)
{
    (void)state; /* the L1s answer through their cores' ports */
    return false;
}

static int baseline_check_drained(const void *state, gm_error *err)
{
    const baseline *b = state;
    if (gm_link_array_check_empty(b->core_req, b->ncores, "L1->request-network", err) ||
        gm_link_array_check_empty(b->core_rep, b->ncores, "reply-network->L1", err))
        return -1;
    return 0;
}

static void baseline_point_name(const void *state, char *buf, size_t len)
{
    (void)state;
    snprintf(buf, len, "baseline");
}

static void baseline_stats_json(const gm_system *s, const void *state, cJSON *design,
                                cJSON *root)
{
    (void)state;
    (void)root;
    cJSON_AddNumberToObject(design, "l1_caches", s->ncores);
}

const gm_design_ops gm_baseline_design = {
    .name = "baseline",
    .summary = "private L1D per core; request and reply crossbars to the L2 slices "
               "(DC-L1 seed Table II)",
    .l1_noun = "L1s",
    .build = baseline_build,
    .destroy = baseline_destroy,
    .busy = baseline_busy,
    .check_drained = baseline_check_drained,
    .stats_json = baseline_stats_json,
    .point_name = baseline_point_name,
};
