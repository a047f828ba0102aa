/* One CCN node (seed section 4.2, Figure 5): the CCN buffer, the ReqQ and
 * the RespQ of one L1, and the rules that move requests between them.
 *
 * The queues hold gm_req pointers. While a load miss is in the CCN its
 * r->block_handle counts hops: the low 16 bits are the request's hops on
 * the request ring, the high 16 bits the response's hops back on the
 * response ring, so a request is at node (src + req_hops) mod n and a
 * response at node (src + req_hops - resp_hops) mod n.
 *
 * Slots of a ReqQ or RespQ are reserved when a request is sent towards it
 * (a forwarded one while it is still on the ring), so the ring's ejection
 * never finds a queue full; a slot freed in a cycle can be reserved again
 * from the next cycle on. The rules that decide who gets a slot, and what
 * the ReqQ head does, are pure functions here, so that unit tests state
 * them without a system (tests/unit/test_ccn.c). */
#ifndef GM_DESIGNS_CCN_NODE_H
#define GM_DESIGNS_CCN_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "designs/ccn/ccn_rt.h"
#include "designs/ccn/ccn_shadow.h"
#include "sim/req.h"

/* A bounded FIFO of requests. */
typedef struct gm_ccn_q {
    gm_req **e;
    uint32_t cap, head, count;
    uint32_t resv;      /* count + requests on their way in (ReqQ, RespQ) */
    uint32_t freed;     /* slots popped this cycle, released at its end */
} gm_ccn_q;

int gm_ccn_q_init(gm_ccn_q *q, uint32_t cap);
void gm_ccn_q_free(gm_ccn_q *q);
static inline gm_req *gm_ccn_q_head(const gm_ccn_q *q)
{
    return q->count ? q->e[q->head] : 0;
}
static inline gm_req *gm_ccn_q_at(const gm_ccn_q *q, uint32_t i)
{
    return q->e[(q->head + i) % q->cap];
}
void gm_ccn_q_push(gm_ccn_q *q, gm_req *r);
gm_req *gm_ccn_q_pop(gm_ccn_q *q);
/* Slots neither held nor reserved. */
static inline uint32_t gm_ccn_q_unreserved(const gm_ccn_q *q)
{
    return q->cap - q->resv;
}

/* ---- the rules ---- */

/* Where a load miss from the L1 goes (seed 4.2, 4.4). */
typedef enum gm_ccn_route {
    GM_CCN_TO_CB = 0,          /* into the CCN buffer */
    GM_CCN_TO_L2_FULL,         /* the CCN buffer is full: straight to L2 */
    GM_CCN_TO_L2_THROTTLED,    /* the throttler bypasses the CCN: straight to L2 */
    GM_CCN_TO_L2_OTHER,        /* not a load (stores, atomics, non-L1), or no CCN */
} gm_ccn_route;

gm_ccn_route gm_ccn_route_miss(uint8_t kind, bool ccn_on, bool throttled, uint32_t cb_count,
                               uint32_t cb_cap);

/* The two writers of a ReqQ in one cycle: the forwarded request from the
 * preceding node (older, preferred) and the new one from this node's CCN
 * buffer. A forwarded request needs one unreserved slot; a new one needs
 * two, so that one slot is left free whatever the new request does (the
 * bubble that keeps the ring from filling: docs/designs/ccn.md 4). The
 * RespQ is the mirror: a new local response (preferred) and the forwarded
 * one; the new one keeps the bubble. Returns through *a (preferred) and
 * *b (other) whether each is granted. */
void gm_ccn_grant(uint32_t unreserved, bool pref_wants, bool pref_is_new, bool other_wants,
                  bool other_is_new, bool *a, bool *b);

/* What the ReqQ head does this cycle. */
typedef enum gm_ccn_head {
    GM_CCN_HEAD_NONE = 0,      /* empty */
    GM_CCN_HEAD_TO_L2,         /* back home after a full round: leave for L2 */
    GM_CCN_HEAD_FORWARD,       /* at home and new, or a shadow miss: next node */
    GM_CCN_HEAD_LOOKUP,        /* present the shadow-tag lookup (answered next cycle) */
    GM_CCN_HEAD_RESPOND,       /* shadow hit, data port free, RespQ room: answer */
    GM_CCN_HEAD_STALL_RESPQ,   /* shadow hit but no RespQ room: the head waits */
    GM_CCN_HEAD_STALL_PORT,    /* shadow hit but the L1 data port is busy */
} gm_ccn_head;

typedef struct gm_ccn_head_in {
    bool present;              /* a request is at the head */
    bool at_home;              /* this node is its requester's */
    bool went_round;           /* it has hopped (so at home it came back) */
    bool answer;               /* the shadow tags answer a lookup of it this cycle */
    bool hit;                  /* ... with a hit on a line still valid in the L1 */
    bool respq_room;           /* the RespQ grants a new local response */
    bool port_free;            /* the L1 data array is free this cycle */
} gm_ccn_head_in;

gm_ccn_head gm_ccn_head_action(const gm_ccn_head_in *in);

/* Hop fields of r->block_handle (see above). */
static inline uint32_t gm_ccn_req_hops(const gm_req *r)
{
    return r->block_handle & 0xFFFFu;
}
static inline uint32_t gm_ccn_resp_hops(const gm_req *r)
{
    return r->block_handle >> 16;
}

#endif
