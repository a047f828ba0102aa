#include "designs/ccn/ccn_rt.h"

void gm_ccn_rt_init(gm_ccn_rt *rt, uint32_t sample, uint32_t period, uint32_t hmin_pct)
{
    *rt = (gm_ccn_rt){.sample = sample, .period = period, .hmin_pct = hmin_pct,
                      .sampling = true, .epochs = 1};
}

static void end_sample(gm_ccn_rt *rt)
{
    rt->sampling = false;
    /* hits / total < Hmin / 100, cross-multiplied: exact. */
    if (rt->n_total && rt->n_hits * 100 < (uint64_t)rt->hmin_pct * rt->n_total) {
        rt->throttled = true;
        rt->throttled_epochs++;
    }
}

void gm_ccn_rt_advance(gm_ccn_rt *rt, uint64_t insts)
{
    for (;;) {
        if (rt->sampling && insts >= rt->epoch_start + rt->sample)
            end_sample(rt);
        if (insts < rt->epoch_start + rt->period)
            return;
        /* a new epoch: sample again from its first instruction */
        rt->epoch_start += rt->period;
        rt->epochs++;
        rt->sampling = true;
        rt->throttled = false;
        rt->n_total = rt->n_hits = 0;
    }
}

void gm_ccn_rt_injected(gm_ccn_rt *rt)
{
    if (rt->sampling)
        rt->n_total++;
}

void gm_ccn_rt_hit(gm_ccn_rt *rt)
{
    if (rt->sampling)
        rt->n_hits++;
}
