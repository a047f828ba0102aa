/* Multi-clock scheduler (modelling contract 2.4).
 *
 * Each domain has an integer frequency in MHz. Global time is an integer
 * count of ticks of 1/L microseconds, L = lcm of all domain frequencies, so
 * edge k of domain d happens at exactly k * (L / f_d) ticks. Ordering edges by
 * that time is the same as "edge k of a before edge j of b iff
 * k*f_b < j*f_a"; equal times are broken by domain index (registration
 * order), which is the fixed domain order of the contract. Edge 0 of every
 * domain is at time 0, so the first edge to fire is domain 0's edge 0. */
#ifndef GM_SIM_CLOCK_H
#define GM_SIM_CLOCK_H

#include <stdint.h>

#include "sim/error.h"

#define GM_CLOCK_MAX_DOMAINS 8

typedef uint64_t gm_time;

typedef struct gm_clock_domain {
    const char *name;
    uint32_t mhz;
    uint64_t period;  /* ticks between edges */
    uint64_t cycle;   /* edges already fired */
    gm_time next;     /* time of the next edge */
} gm_clock_domain;

typedef struct gm_clock {
    int n;
    gm_clock_domain d[GM_CLOCK_MAX_DOMAINS];
    uint64_t ticks_per_us; /* L */
    gm_time now;           /* time of the edge being processed */
} gm_clock;

void gm_clock_init(gm_clock *c);
/* Returns the domain index, or -1 with err set. */
int gm_clock_add(gm_clock *c, const char *name, uint32_t mhz, gm_error *err);
/* Computes L and periods; call after the last gm_clock_add. */
int gm_clock_finalize(gm_clock *c, gm_error *err);
/* Advances to the next edge: sets c->now, returns the domain that fires and
 * counts the edge in that domain's cycle. */
int gm_clock_advance(gm_clock *c);
/* Jumps domain d forward so its next edge is the first at or after t
 * (used to skip idle stretches; edges skipped are still counted). */
void gm_clock_skip_to(gm_clock *c, int d, gm_time t);

/* Time of the first edge of domain d that comes `edges` edges strictly
 * after time t (edges >= 1). Used for latencies and synchronizers. */
static inline gm_time gm_clock_edge_after(const gm_clock_domain *d, gm_time t,
                                          uint32_t edges)
{
    return (t / d->period + edges) * d->period;
}

#endif
