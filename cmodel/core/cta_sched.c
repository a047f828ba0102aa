#include "core/cta_sched.h"

#include <stdlib.h>
#include <string.h>

int gm_cta_sched_init(gm_cta_sched *s, const gm_core_cfg *cfg, gm_error *err)
{
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    s->last_core = calloc(cfg->clusters, sizeof *s->last_core);
    s->range_next = calloc(cfg->clusters, sizeof *s->range_next);
    s->range_end = calloc(cfg->clusters, sizeof *s->range_end);
    if (!s->last_core || !s->range_next || !s->range_end) {
        gm_cta_sched_free(s);
        return gm_fail(err, "CTA scheduler: out of memory");
    }
    return 0;
}

void gm_cta_sched_free(gm_cta_sched *s)
{
    free(s->last_core);
    free(s->range_next);
    free(s->range_end);
    s->last_core = s->range_next = s->range_end = 0;
}

void gm_cta_sched_start(gm_cta_sched *s, const gm_kernel *k)
{
    uint32_t nclusters = s->cfg->clusters;
    uint32_t cores_per = s->cfg->num_cores / nclusters;
    s->k = k;
    s->nctas = gm_kernel_ctas(k);
    s->next_cta = 0;
    s->issued = 0;
    /* Start so that the first visit is cluster 0, core 0. */
    s->last_cluster = nclusters - 1;
    uint32_t base = s->nctas / nclusters, extra = s->nctas % nclusters, at = 0;
    for (uint32_t c = 0; c < nclusters; c++) {
        s->last_core[c] = cores_per - 1;
        s->range_next[c] = at;
        at += base + (c < extra);
        s->range_end[c] = at;
    }
}

/* Tries the cores of cluster cl round robin for a unit of n CTAs.
 * Returns the core index or -1. */
static int pick_core(gm_cta_sched *s, gm_core *cores, uint32_t cl, uint32_t n)
{
    uint32_t cores_per = s->cfg->num_cores / s->cfg->clusters;
    for (uint32_t i = 1; i <= cores_per; i++) {
        uint32_t local = (s->last_core[cl] + i) % cores_per;
        gm_core *c = &cores[cl * cores_per + local];
        if (gm_core_can_take_ctas(c, s->k, n)) {
            s->last_core[cl] = local;
            return (int)(cl * cores_per + local);
        }
    }
    return -1;
}

static uint32_t issue_shared_order(gm_cta_sched *s, gm_core *cores, uint32_t unit)
{
    uint32_t nclusters = s->cfg->clusters, launched = 0, last_issuer = UINT32_MAX;
    for (uint32_t i = 1; i <= nclusters && s->next_cta < s->nctas; i++) {
        uint32_t cl = (s->last_cluster + i) % nclusters;
        uint32_t n = s->nctas - s->next_cta < unit ? s->nctas - s->next_cta : unit;
        int core = pick_core(s, cores, cl, n);
        if (core < 0)
            continue;
        for (uint32_t j = 0; j < n; j++)
            gm_core_launch_cta(&cores[core], s->k, s->next_cta++);
        launched += n;
        last_issuer = cl;
    }
    /* As GPGPU-Sim: the next pass starts after the last cluster that issued. */
    if (last_issuer != UINT32_MAX)
        s->last_cluster = last_issuer;
    return launched;
}

static uint32_t issue_distributed(gm_cta_sched *s, gm_core *cores)
{
    uint32_t launched = 0;
    for (uint32_t cl = 0; cl < s->cfg->clusters; cl++) {
        if (s->range_next[cl] == s->range_end[cl])
            continue;
        int core = pick_core(s, cores, cl, 1);
        if (core < 0)
            continue;
        gm_core_launch_cta(&cores[core], s->k, s->range_next[cl]++);
        launched++;
    }
    return launched;
}

uint32_t gm_cta_sched_tick(gm_cta_sched *s, gm_core *cores)
{
    if (!s->k || s->issued == s->nctas)
        return 0;
    uint32_t n;
    switch (s->cfg->cta_policy) {
    case GM_CTA_BLOCK:
        n = issue_shared_order(s, cores, s->cfg->cta_block);
        break;
    case GM_CTA_DISTRIBUTED:
        n = issue_distributed(s, cores);
        break;
    default:
        n = issue_shared_order(s, cores, 1);
        break;
    }
    s->issued += n;
    return n;
}
