/* gm_link: a bounded FIFO between two blocks, with a latency, that makes
 * the order of evaluation within an edge irrelevant (modelling contract 2.2).
 *
 * - An item pushed at time t becomes visible to the consumer at the
 *   `latency`-th consumer edge strictly after t, so a consumer firing at the
 *   same instant (same domain, or a tie with another domain) never sees it.
 * - A slot freed by a pop at time t becomes visible to the producer only
 *   after t (a registered "ready"), so a producer firing at the same instant
 *   sees the occupancy of the start of the edge whichever block ran first.
 * With latency >= 2 across domains the link is the modelled asynchronous
 * FIFO of a clock-domain crossing (a two-flop synchronizer on the read side).
 * Items are opaque pointers (usually gm_req). */
#ifndef GM_SIM_LINK_H
#define GM_SIM_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/clock.h"
#include "sim/error.h"

typedef struct gm_link {
    void **item;
    gm_time *ready;
    uint32_t cap;
    uint32_t head;
    uint32_t count;
    uint32_t latency;                 /* consumer edges, >= 1 */
    const gm_clock_domain *consumer;
    gm_time last_pop_time;
    uint32_t pops_at_last_time;
    uint64_t pushes;                  /* statistics */
} gm_link;

/* cap >= 1, latency >= 1. Returns 0, or -1 when out of memory. */
int gm_link_init(gm_link *l, uint32_t cap, uint32_t latency,
                 const gm_clock_domain *consumer);
void gm_link_free(gm_link *l);

/* Two-flop synchronizer: the latency of every link that crosses between
 * blocks of the system (SPEC 2.3). */
#define GM_SYNC_EDGES 2u

/* n links of one kind (cap, latency, consumer) as one array. Returns 0, or
 * -1 with err (the array is then freed and *out NULL). */
int gm_link_array_new(gm_link **out, uint32_t n, uint32_t cap, uint32_t latency,
                      const gm_clock_domain *consumer, gm_error *err);
void gm_link_array_free(gm_link *l, uint32_t n);
/* Fails with "drain check: <what> link <i> still holds <k> items" unless
 * every link of the array is empty. */
int gm_link_array_check_empty(const gm_link *l, uint32_t n, const char *what, gm_error *err);

static inline bool gm_link_can_push(const gm_link *l, gm_time now)
{
    uint32_t hidden = l->last_pop_time == now ? l->pops_at_last_time : 0;
    return l->count + hidden < l->cap;
}

static inline uint32_t gm_link_free_slots(const gm_link *l, gm_time now)
{
    uint32_t hidden = l->last_pop_time == now ? l->pops_at_last_time : 0;
    return l->cap - l->count - hidden;
}

/* The caller must have checked gm_link_can_push at the same `now`. */
void gm_link_push(gm_link *l, void *it, gm_time now);

/* Head item if it is visible at `now`, else NULL. */
static inline void *gm_link_peek(const gm_link *l, gm_time now)
{
    if (l->count == 0 || l->ready[l->head] > now)
        return 0;
    return l->item[l->head];
}

void *gm_link_pop(gm_link *l, gm_time now);

static inline bool gm_link_empty(const gm_link *l)
{
    return l->count == 0;
}

/* i-th queued item from the head (visible or not), for the watchdog. */
static inline void *gm_link_at(const gm_link *l, uint32_t i)
{
    return l->item[(l->head + i) % l->cap];
}

#endif
