#include "designs/ccn/ccn_node.h"

#include <assert.h>
#include <stdlib.h>

int gm_ccn_q_init(gm_ccn_q *q, uint32_t cap)
{
    *q = (gm_ccn_q){.cap = cap};
    q->e = calloc(cap, sizeof *q->e);
    return q->e ? 0 : -1;
}

void gm_ccn_q_free(gm_ccn_q *q)
{
    free(q->e);
    q->e = NULL;
}

void gm_ccn_q_push(gm_ccn_q *q, gm_req *r)
{
    assert(q->count < q->cap);
    q->e[(q->head + q->count) % q->cap] = r;
    q->count++;
}

gm_req *gm_ccn_q_pop(gm_ccn_q *q)
{
    assert(q->count);
    gm_req *r = q->e[q->head];
    q->head = (q->head + 1) % q->cap;
    q->count--;
    q->freed++;
    return r;
}

gm_ccn_route gm_ccn_route_miss(uint8_t kind, bool ccn_on, bool throttled, uint32_t cb_count,
                               uint32_t cb_cap)
{
    if (kind != GM_REQ_LOAD || !ccn_on)
        return GM_CCN_TO_L2_OTHER;
    if (throttled)
        return GM_CCN_TO_L2_THROTTLED;
    return cb_count < cb_cap ? GM_CCN_TO_CB : GM_CCN_TO_L2_FULL;
}

/* A new request or response leaves one slot free behind it. */
static bool slot_ok(uint32_t *unreserved, bool is_new)
{
    if (*unreserved < (is_new ? 2u : 1u))
        return false;
    (*unreserved)--;
    return true;
}

void gm_ccn_grant(uint32_t unreserved, bool pref_wants, bool pref_is_new, bool other_wants,
                  bool other_is_new, bool *a, bool *b)
{
    *a = pref_wants && slot_ok(&unreserved, pref_is_new);
    *b = other_wants && slot_ok(&unreserved, other_is_new);
}

gm_ccn_head gm_ccn_head_action(const gm_ccn_head_in *in)
{
    if (!in->present)
        return GM_CCN_HEAD_NONE;
    if (in->at_home)
        return in->went_round ? GM_CCN_HEAD_TO_L2 : GM_CCN_HEAD_FORWARD;
    if (!in->answer)
        return GM_CCN_HEAD_LOOKUP;
    if (!in->hit)
        return GM_CCN_HEAD_FORWARD;
    if (!in->respq_room)
        return GM_CCN_HEAD_STALL_RESPQ;
    if (!in->port_free)
        return GM_CCN_HEAD_STALL_PORT;
    return GM_CCN_HEAD_RESPOND;
}
