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
    s->q_next = calloc(cfg->num_cores, sizeof *s->q_next);
    s->q_end = calloc(cfg->num_cores, sizeof *s->q_end);
    if (!s->last_core || !s->range_next || !s->range_end || !s->q_next || !s->q_end) {
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
    free(s->q_next);
    free(s->q_end);
    s->last_core = s->range_next = s->range_end = s->q_next = s->q_end = 0;
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
    gm_cta_clustered_split(s->q_next, s->q_end, s->cfg->num_cores, s->nctas);
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

void gm_cta_clustered_split(uint32_t *next, uint32_t *end, uint32_t ncores, uint32_t nctas)
{
    uint32_t per = (nctas + ncores - 1) / ncores;
    for (uint32_t c = 0; c < ncores; c++) {
        uint64_t lo = (uint64_t)c * per, hi = lo + per;
        next[c] = (uint32_t)(lo < nctas ? lo : nctas);
        end[c] = (uint32_t)(hi < nctas ? hi : nctas);
    }
}

/* The seed's pseudo-code: B_i.head = B_j.head; B_i.tail = (B_j.head +
 * B_j.tail) / 2; B_j.head = B_i.tail + 1, with inclusive tails: the
 * borrower takes the first ceil(r / 2) of the lender's r CTAs, the lender
 * keeps the rest, and both queues stay runs of consecutive CTAs. */
uint32_t gm_cta_clustered_take(uint32_t *next, uint32_t *end, uint32_t ncores, uint32_t i)
{
    if (next[i] == end[i]) {
        for (uint32_t k = 1; k < ncores; k++) {
            uint32_t j = (i + k) % ncores;
            uint32_t r = end[j] - next[j];
            if (!r)
                continue;
            uint32_t take = (r + 1) / 2;
            next[i] = next[j];
            end[i] = next[j] + take;
            next[j] += take;
            break;
        }
        if (next[i] == end[i])
            return UINT32_MAX;
    }
    return next[i]++;
}

static uint32_t issue_clustered(gm_cta_sched *s, gm_core *cores)
{
    uint32_t launched = 0, n = s->cfg->num_cores;
    for (uint32_t i = 0; i < n && s->issued + launched < s->nctas; i++) {
        if (!gm_core_can_take_cta(&cores[i], s->k))
            continue;
        uint32_t cta = gm_cta_clustered_take(s->q_next, s->q_end, n, i);
        if (cta == UINT32_MAX)
            break;
        gm_core_launch_cta(&cores[i], s->k, cta);
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
    case GM_CTA_CLUSTERED:
        n = issue_clustered(s, cores);
        break;
    default:
        n = issue_shared_order(s, cores, 1);
        break;
    }
    s->issued += n;
    return n;
}
