#include "designs/dcl1/dcl1_topo.h"

#include <stdio.h>
#include <string.h>

#include "sim/req.h"

int gm_dcl1_topo_init(gm_dcl1_topo *t, const gm_config *cfg, gm_error *err)
{
    const gm_dcl1_cfg *d = &cfg->dcl1;
    memset(t, 0, sizeof *t);
    t->sharing = d->sharing;
    t->cores = cfg->core.num_cores;
    t->nodes = d->nodes;
    t->slices = cfg->l2.slices;
    t->boost = d->boost != 0;
    if (t->nodes == 0 || t->nodes > t->cores)
        return gm_fail(err, "[dcl1] nodes = %u: must be 1..[core] num_cores", t->nodes);

    uint32_t z = d->clusters;
    /* ShY+C1 is ShY, ShY+CY is PrY (the paper's C1 and C40). */
    if (d->sharing == GM_SHARING_SHARED || (d->sharing == GM_SHARING_CLUSTERED && z == 1)) {
        t->clusters = 1;
        t->m = t->nodes;
        t->partitioned = false;
        t->home_granule = GM_LINE_BYTES;
    } else if (d->sharing == GM_SHARING_PRIVATE) {
        t->clusters = t->nodes;
        t->m = 1;
        t->partitioned = true;
        t->home_granule = GM_LINE_BYTES; /* unused: one home */
    } else {
        if (z == 0 || t->nodes % z || t->cores % z)
            return gm_fail(err, "[dcl1] clusters = %u must divide [dcl1] nodes = %u and "
                                "[core] num_cores = %u", z, t->nodes, t->cores);
        t->clusters = z;
        t->m = t->nodes / z;
        t->partitioned = true;
        t->home_granule = cfg->dram.partition_bytes;
    }
    if (t->cores % t->clusters)
        return gm_fail(err, "[core] num_cores = %u does not divide into %u equal groups of "
                            "cores (one per [dcl1] cluster or private node)",
                       t->cores, t->clusters);
    t->n = t->cores / t->clusters;
    if (t->partitioned && t->slices % t->m)
        return gm_fail(err, "[l2] slices = %u is not a multiple of the %u nodes per cluster",
                       t->slices, t->m);
    t->noc2_xbars = t->partitioned ? t->m : 1;
    t->noc2_in = t->partitioned ? t->clusters : t->nodes;
    t->noc2_out = t->partitioned ? t->slices / t->m : t->slices;
    t->max_copies = t->clusters;
    return 0;
}

void gm_dcl1_topo_name(const gm_dcl1_topo *t, char *buf, uint32_t len)
{
    const char *boost = t->boost ? "+Boost" : "";
    if (t->sharing == GM_SHARING_PRIVATE)
        snprintf(buf, len, "Pr%u%s", t->nodes, boost);
    else if (t->sharing == GM_SHARING_SHARED || t->clusters == 1)
        snprintf(buf, len, "Sh%u%s", t->nodes, boost);
    else
        snprintf(buf, len, "Sh%u+C%u%s", t->nodes, t->clusters, boost);
}
