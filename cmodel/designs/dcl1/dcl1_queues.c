#include "designs/dcl1/dcl1_queues.h"

#include <stdlib.h>
#include <string.h>

int gm_dcl1q_init(gm_dcl1q *q, uint32_t depth, gm_error *err)
{
    memset(q, 0, sizeof *q);
    if (depth < 1 || depth > GM_DCL1Q_MAX_DEPTH)
        return gm_fail(err, "DC-L1 node queues of %u entries: must be 1..%u", depth,
                       GM_DCL1Q_MAX_DEPTH);
    q->depth = depth;
    for (uint32_t i = 0; i < GM_DCL1Q_NQ; i++) {
        q->q[i].handle = calloc(depth, sizeof *q->q[i].handle);
        q->q[i].kind = calloc(depth, sizeof *q->q[i].kind);
        if (!q->q[i].handle || !q->q[i].kind) {
            gm_dcl1q_free(q);
            return gm_fail(err, "out of memory for DC-L1 node queues");
        }
    }
    return 0;
}

void gm_dcl1q_free(gm_dcl1q *q)
{
    for (uint32_t i = 0; i < GM_DCL1Q_NQ; i++) {
        free(q->q[i].handle);
        free(q->q[i].kind);
        q->q[i].handle = 0;
        q->q[i].kind = 0;
    }
}

/* ---- combinational functions of the registers (shared by eval and tick) -- */

static inline bool has(const gm_dcl1q *q, int i)
{
    return q->q[i].count != 0;
}

static inline bool room(const gm_dcl1q *q, int i)
{
    return q->q[i].count < q->depth;
}

static inline uint32_t head_handle(const gm_dcl1q *q, int i)
{
    return q->q[i].handle[q->q[i].head];
}

static inline uint8_t head_kind(const gm_dcl1q *q, int i)
{
    return q->q[i].kind[q->q[i].head];
}

static inline bool is_bypass_kind(uint8_t kind)
{
    return kind == GM_DCL1Q_ATOMIC || kind == GM_DCL1Q_NONL1;
}

/* Q1 head is an atomic or non-L1 request: it goes to Q3, not the cache. */
static inline bool q1_bypass(const gm_dcl1q *q)
{
    return has(q, GM_DCL1Q_Q1) && is_bypass_kind(head_kind(q, GM_DCL1Q_Q1));
}

/* Q4 head is a load reply: a line fill for the cache. */
static inline bool q4_fill(const gm_dcl1q *q)
{
    return has(q, GM_DCL1Q_Q4) && head_kind(q, GM_DCL1Q_Q4) == GM_DCL1Q_LOAD;
}

/* Q4 head goes straight to Q2 (store ACK, atomic or non-L1 reply). */
static inline bool q4_bypass(const gm_dcl1q *q)
{
    return has(q, GM_DCL1Q_Q4) && head_kind(q, GM_DCL1Q_Q4) != GM_DCL1Q_LOAD;
}

/* Q2 has one write port: the cache's reply wins when Q4 has no bypass
 * reply, or when the round-robin bit says it is the cache's turn. */
static inline bool rsp_ready(const gm_dcl1q *q)
{
    return room(q, GM_DCL1Q_Q2) && (!q4_bypass(q) || q->rr);
}

void gm_dcl1q_eval(const gm_dcl1q *q, gm_dcl1q_out *o)
{
    memset(o, 0, sizeof *o);
    o->n1_req_ready = room(q, GM_DCL1Q_Q1);
    if (has(q, GM_DCL1Q_Q2)) {
        o->n1_rep_valid = 1;
        o->n1_rep_handle = head_handle(q, GM_DCL1Q_Q2);
        o->n1_rep_kind = head_kind(q, GM_DCL1Q_Q2);
    }
    if (has(q, GM_DCL1Q_Q3)) {
        o->n2_req_valid = 1;
        o->n2_req_handle = head_handle(q, GM_DCL1Q_Q3);
        o->n2_req_kind = head_kind(q, GM_DCL1Q_Q3);
    }
    o->n2_rep_ready = room(q, GM_DCL1Q_Q4);
    if (has(q, GM_DCL1Q_Q1) && !q1_bypass(q)) {
        o->c_req_valid = 1;
        o->c_req_handle = head_handle(q, GM_DCL1Q_Q1);
        o->c_req_kind = head_kind(q, GM_DCL1Q_Q1);
    }
    o->c_miss_ready = room(q, GM_DCL1Q_Q3);
    if (q4_fill(q)) {
        o->c_fill_valid = 1;
        o->c_fill_handle = head_handle(q, GM_DCL1Q_Q4);
    }
    o->c_rsp_ready = rsp_ready(q);
}

/* ---- clock edge ------------------------------------------------------------ */

typedef struct fifo_op {
    bool pop;
    bool push;
    uint32_t handle;
    uint8_t kind;
} fifo_op;

static void apply(gm_dcl1q *q, int i, const fifo_op *op)
{
    gm_dcl1q_fifo *f = &q->q[i];
    uint32_t head = f->head, count = f->count;
    if (op->push) {
        /* the write slot follows the entries held at the start of the edge */
        uint32_t slot = (head + count) % q->depth;
        f->handle[slot] = op->handle;
        f->kind[slot] = op->kind & 3u;
        q->st.pushes[i]++;
    }
    if (op->pop) {
        f->handle[head] = 0;
        f->kind[head] = 0;
        f->head = (head + 1) % q->depth;
    }
    f->count = count + (op->push ? 1u : 0u) - (op->pop ? 1u : 0u);
}

void gm_dcl1q_tick(gm_dcl1q *q, const gm_dcl1q_in *in)
{
    fifo_op op[GM_DCL1Q_NQ];
    memset(op, 0, sizeof op);

    q->st.ticks++;
    for (uint32_t i = 0; i < GM_DCL1Q_NQ; i++) {
        q->st.occ_sum[i] += q->q[i].count;
        if (q->q[i].count > q->st.occ_max[i])
            q->st.occ_max[i] = q->q[i].count;
    }

    /* Every decision below reads the registers as they were at the start of
     * the edge (has/room/head of the current state), never an update made
     * earlier in this function: the updates are collected in op[] and
     * applied at the end. */

    /* Q1 head: bypass to Q3, or handed to the cache. */
    bool c_req_valid = has(q, GM_DCL1Q_Q1) && !q1_bypass(q);
    if (in->c_req_accept && !c_req_valid)
        q->st.protocol_errors++;
    if (in->c_req_accept && c_req_valid && in->c_req_miss && !room(q, GM_DCL1Q_Q3))
        q->st.protocol_errors++;
    if (q1_bypass(q) && room(q, GM_DCL1Q_Q3)) {
        op[GM_DCL1Q_Q1].pop = true;
        op[GM_DCL1Q_Q3] = (fifo_op){.push = true, .handle = head_handle(q, GM_DCL1Q_Q1),
                                    .kind = head_kind(q, GM_DCL1Q_Q1)};
        q->st.bypass_q1_q3++;
    } else if (in->c_req_accept && c_req_valid) {
        op[GM_DCL1Q_Q1].pop = true;
        if (in->c_req_miss && room(q, GM_DCL1Q_Q3))
            op[GM_DCL1Q_Q3] = (fifo_op){.push = true, .handle = head_handle(q, GM_DCL1Q_Q1),
                                        .kind = head_kind(q, GM_DCL1Q_Q1)};
    }

    /* Q3 head leaves to NoC#2. */
    if (has(q, GM_DCL1Q_Q3) && in->n2_req_ready)
        op[GM_DCL1Q_Q3].pop = true;

    /* A reply from NoC#2 enters Q4. */
    if (in->n2_rep_valid) {
        if (!room(q, GM_DCL1Q_Q4))
            q->st.protocol_errors++;
        else
            op[GM_DCL1Q_Q4] = (fifo_op){.push = true, .handle = in->n2_rep_handle,
                                        .kind = in->n2_rep_kind};
    }

    /* Q2's single write port: cache reply or Q4 bypass reply. */
    bool q4b = q4_bypass(q);
    bool grant_c = in->c_rsp_valid && rsp_ready(q);
    bool grant_q4 = q4b && room(q, GM_DCL1Q_Q2) && !grant_c;
    if (grant_c)
        op[GM_DCL1Q_Q2] = (fifo_op){.push = true, .handle = in->c_rsp_handle,
                                    .kind = GM_DCL1Q_LOAD};
    else if (grant_q4)
        op[GM_DCL1Q_Q2] = (fifo_op){.push = true, .handle = head_handle(q, GM_DCL1Q_Q4),
                                    .kind = head_kind(q, GM_DCL1Q_Q4)};

    /* Q4 head: installed by the cache, or moved to Q2. */
    if (in->c_fill_accept && !q4_fill(q))
        q->st.protocol_errors++;
    if (grant_q4) {
        op[GM_DCL1Q_Q4].pop = true;
        q->st.bypass_q4_q2++;
    } else if (in->c_fill_accept && q4_fill(q)) {
        op[GM_DCL1Q_Q4].pop = true;
    }

    /* Q2 head leaves to NoC#1. */
    if (has(q, GM_DCL1Q_Q2) && in->n1_rep_ready)
        op[GM_DCL1Q_Q2].pop = true;

    /* A request from NoC#1 enters Q1. */
    if (in->n1_req_valid) {
        if (!room(q, GM_DCL1Q_Q1)) {
            q->st.protocol_errors++;
        } else {
            op[GM_DCL1Q_Q1].push = true;
            op[GM_DCL1Q_Q1].handle = in->n1_req_handle;
            op[GM_DCL1Q_Q1].kind = in->n1_req_kind;
        }
    }

    /* Round robin of Q2's write port: after a contended cycle the loser
     * goes first next time. */
    if (grant_c && q4b)
        q->rr = 0;
    else if (grant_q4 && in->c_rsp_valid)
        q->rr = 1;

    /* Most edges move one or two queues; the others keep their registers. */
    for (int i = 0; i < (int)GM_DCL1Q_NQ; i++)
        if (op[i].push || op[i].pop)
            apply(q, i, &op[i]);
}
