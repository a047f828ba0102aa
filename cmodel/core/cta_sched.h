/* CTA (thread block) scheduler: hands the CTAs of one kernel to cores.
 *
 * Policies (config core.cta_policy), all issuing at most one dispatch unit
 * per cluster per core cycle, like GPGPU-Sim's issue_block2core:
 *  - rr:          two-level round robin. Clusters are visited starting one
 *                 past the cluster that issued last; inside a cluster, cores
 *                 are tried starting one past the core that took the
 *                 cluster's previous CTA. CTAs go out in linear id order.
 *  - block:       as rr, but the unit is cta_block consecutive CTAs and a
 *                 core takes it only when all of them fit at once.
 *  - distributed: the linear CTA range is split into one contiguous,
 *                 nearly equal range per cluster (the remainder goes to the
 *                 first clusters); a cluster's cores take CTAs only from
 *                 its own range, in order.
 *  - clustered:   (Choo et al., Algorithm 1) CTA w starts in the queue of
 *                 core w / ceil(nctas / num_cores), so consecutive CTAs
 *                 share a core. Every core cycle each core, in index
 *                 order, that can take a CTA takes the head of its own
 *                 queue; a core whose queue is empty first borrows the
 *                 first ceil(r / 2) of the r CTAs left in the queue of the
 *                 next core (in index order, wrapping) whose queue is not
 *                 empty. Clusters play no part. */
#ifndef GM_CORE_CTA_SCHED_H
#define GM_CORE_CTA_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "core/core.h"
#include "workload/workload.h"

typedef struct gm_cta_sched {
    const gm_core_cfg *cfg;
    const gm_kernel *k;
    uint32_t nctas;
    uint32_t next_cta;        /* rr / block: next CTA to hand out */
    uint32_t last_cluster;
    uint32_t *last_core;      /* per cluster, index inside the cluster */
    uint32_t *range_next;     /* distributed: per cluster */
    uint32_t *range_end;
    uint32_t *q_next;         /* clustered: per core, its queue [q_next, q_end) */
    uint32_t *q_end;
    uint32_t issued;
} gm_cta_sched;

int gm_cta_sched_init(gm_cta_sched *s, const gm_core_cfg *cfg, gm_error *err);
void gm_cta_sched_free(gm_cta_sched *s);
void gm_cta_sched_start(gm_cta_sched *s, const gm_kernel *k);
/* One core cycle of dispatch. Returns the number of CTAs launched. */
uint32_t gm_cta_sched_tick(gm_cta_sched *s, gm_core *cores);

/* The clustered policy's queues, apart from the cores so that its rule
 * can be checked on its own. Split: core c's queue is CTAs
 * [c * per, (c + 1) * per) clipped to nctas, per = ceil(nctas / ncores). */
void gm_cta_clustered_split(uint32_t *next, uint32_t *end, uint32_t ncores, uint32_t nctas);
/* Core i can take a CTA now: borrows if its queue is empty, then removes
 * and returns the head of its queue; UINT32_MAX when no queue has any. */
uint32_t gm_cta_clustered_take(uint32_t *next, uint32_t *end, uint32_t ncores, uint32_t i);

static inline bool gm_cta_sched_all_issued(const gm_cta_sched *s)
{
    return s->issued == s->nctas;
}

#endif
