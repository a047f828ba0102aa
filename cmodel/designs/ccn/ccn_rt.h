/* gm_ccn_rt: the request throttler of one core (seed section 4.4).
 *
 * A core's execution is cut into epochs of `period` thread instructions
 * (tP). For the first `sample` instructions of an epoch (tS) the core's
 * load misses go to the CCN and the throttler counts the requests it
 * injected (Ntotal) and the CCN hits among them (Nhits). When the sample
 * ends it compares, in integers, Nhits * 100 against Hmin% * Ntotal: below
 * Hmin the core sends its misses straight to L2 until the epoch ends
 * (a throttled epoch); otherwise it keeps using the CCN. A sample without
 * any request gives no evidence and leaves the core on the CCN (**choice**,
 * docs/designs/ccn.md). Counts reset at every epoch. Only the routing of
 * the core's own misses changes: its shadow tags still answer others. */
#ifndef GM_DESIGNS_CCN_RT_H
#define GM_DESIGNS_CCN_RT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gm_ccn_rt {
    uint32_t sample, period, hmin_pct;
    uint64_t epoch_start;    /* instruction count at which the current epoch began */
    bool sampling;           /* inside the first `sample` instructions */
    bool throttled;          /* the rest of this epoch bypasses the CCN */
    uint64_t n_total, n_hits;/* this epoch's sample */
    uint64_t epochs;         /* epochs begun */
    uint64_t throttled_epochs;
} gm_ccn_rt;

void gm_ccn_rt_init(gm_ccn_rt *rt, uint32_t sample, uint32_t period, uint32_t hmin_pct);
/* Brings the throttler to instruction count insts (non-decreasing): ends
 * the sample, starts epochs. */
void gm_ccn_rt_advance(gm_ccn_rt *rt, uint64_t insts);
/* Whether a load miss goes to the CCN now. */
static inline bool gm_ccn_rt_use_ccn(const gm_ccn_rt *rt)
{
    return !rt->throttled;
}
/* A request of this core entered the CCN / was answered by a remote L1
 * (counted only while sampling). */
void gm_ccn_rt_injected(gm_ccn_rt *rt);
void gm_ccn_rt_hit(gm_ccn_rt *rt);

#endif
