/* gm_dcl1q: the queue and routing block of a DC-L1 node (DC-L1 seed,
 * Figure 3): four FIFOs of `depth` entries and the routing between them,
 * the two networks and the node's cache. It is the golden model of an RTL
 * twin, so it follows the block contract strictly (SPEC 2.1, 2.2):
 *
 *   gm_dcl1q_eval(q, out)  Moore outputs, from the registers only.
 *   gm_dcl1q_tick(q, in)   the clock edge: next registers from the
 *                          registers and the inputs sampled at the edge.
 *
 * The queues (Q1..Q4 of the paper):
 *   Q1  requests from cores (NoC#1)    head -> cache, or -> Q3 (bypass)
 *   Q2  replies to cores (NoC#1)       fed by the cache and by Q4 (bypass)
 *   Q3  requests to L2 (NoC#2)         fed by Q1 (misses, stores, bypass)
 *   Q4  replies from L2 (NoC#2)        head -> cache (line fill), or -> Q2
 *
 * Entries are a 32-bit packet handle (opaque to the block: the node maps
 * it to its request) and a 2-bit kind: 0 load, 1 store, 2 atomic, 3 non-L1
 * (the values of gm_req_kind). Loads and stores go through the cache;
 * atomics and non-L1 requests bypass it (Q1->Q3 and Q4->Q2). A load reply
 * in Q4 is a line fill for the cache; a store reply is its write ACK.
 *
 * Port fields, Verilog port = C field name, widths (HW = 32, KW = 2):
 *
 *   inputs (gm_dcl1q_in)
 *     n1_req_valid   1   a request from NoC#1 for Q1 (only when n1_req_ready)
 *     n1_req_handle  HW
 *     n1_req_kind    KW
 *     n1_rep_ready   1   NoC#1 reply side takes the Q2 head this cycle
 *     n2_req_ready   1   NoC#2 request side takes the Q3 head this cycle
 *     n2_rep_valid   1   a reply from NoC#2 for Q4 (only when n2_rep_ready)
 *     n2_rep_handle  HW
 *     n2_rep_kind    KW
 *     c_req_accept   1   the cache took the offered Q1 head (c_req_*)
 *     c_req_miss     1   ...and it goes to L2: it is pushed into Q3
 *                        (only when c_miss_ready)
 *     c_fill_accept  1   the cache installed the offered Q4 head (c_fill_*)
 *     c_rsp_valid    1   the cache has a load reply for Q2 (hit, or a
 *                        request completed by a fill)
 *     c_rsp_handle   HW
 *   outputs (gm_dcl1q_out)
 *     n1_req_ready   1   Q1 not full
 *     n1_rep_valid   1   Q2 not empty; n1_rep_handle HW, n1_rep_kind KW: its head
 *     n2_req_valid   1   Q3 not empty; n2_req_handle HW, n2_req_kind KW: its head
 *     n2_rep_ready   1   Q4 not full
 *     c_req_valid    1   Q1 head is a load or store; c_req_handle HW, c_req_kind KW
 *     c_miss_ready   1   Q3 not full (the cache may send the offered head to L2)
 *     c_fill_valid   1   Q4 head is a load reply (line fill); c_fill_handle HW
 *     c_rsp_ready    1   Q2 takes c_rsp this cycle
 * A field whose valid bit is 0 is 0. The exact cycle behaviour (which
 * registered value each decision reads, the Q2 arbitration) is written out
 * in docs/designs/dcl1.md section 2 and implemented in dcl1_queues.c. */
#ifndef GM_DESIGNS_DCL1_QUEUES_H
#define GM_DESIGNS_DCL1_QUEUES_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

#define GM_DCL1Q_MAX_DEPTH 64u
#define GM_DCL1Q_NQ 4u

/* Queue indices (Q1..Q4 of the paper are 0..3). */
enum { GM_DCL1Q_Q1 = 0, GM_DCL1Q_Q2 = 1, GM_DCL1Q_Q3 = 2, GM_DCL1Q_Q4 = 3 };

/* Entry kinds (2 bits), equal to gm_req_kind. */
enum { GM_DCL1Q_LOAD = 0, GM_DCL1Q_STORE = 1, GM_DCL1Q_ATOMIC = 2, GM_DCL1Q_NONL1 = 3 };

typedef struct gm_dcl1q_in {
    uint8_t n1_req_valid;
    uint32_t n1_req_handle;
    uint8_t n1_req_kind;
    uint8_t n1_rep_ready;
    uint8_t n2_req_ready;
    uint8_t n2_rep_valid;
    uint32_t n2_rep_handle;
    uint8_t n2_rep_kind;
    uint8_t c_req_accept;
    uint8_t c_req_miss;
    uint8_t c_fill_accept;
    uint8_t c_rsp_valid;
    uint32_t c_rsp_handle;
} gm_dcl1q_in;

typedef struct gm_dcl1q_out {
    uint8_t n1_req_ready;
    uint8_t n1_rep_valid;
    uint32_t n1_rep_handle;
    uint8_t n1_rep_kind;
    uint8_t n2_req_valid;
    uint32_t n2_req_handle;
    uint8_t n2_req_kind;
    uint8_t n2_rep_ready;
    uint8_t c_req_valid;
    uint32_t c_req_handle;
    uint8_t c_req_kind;
    uint8_t c_miss_ready;
    uint8_t c_fill_valid;
    uint32_t c_fill_handle;
    uint8_t c_rsp_ready;
} gm_dcl1q_out;

/* One FIFO: a ring of `depth` entries. */
typedef struct gm_dcl1q_fifo {
    uint32_t *handle;   /* [depth] */
    uint8_t *kind;      /* [depth] */
    uint32_t head;      /* index of the oldest entry */
    uint32_t count;     /* entries held, 0..depth */
} gm_dcl1q_fifo;

typedef struct gm_dcl1q_stats {
    uint64_t ticks;                       /* edges ticked (idle edges may be skipped) */
    uint64_t occ_sum[GM_DCL1Q_NQ];        /* occupancy at the start of each ticked edge */
    uint32_t occ_max[GM_DCL1Q_NQ];
    uint64_t pushes[GM_DCL1Q_NQ];
    uint64_t bypass_q1_q3;                /* atomics and non-L1 requests, Q1 -> Q3 */
    uint64_t bypass_q4_q2;                /* their replies and store ACKs, Q4 -> Q2 */
    uint64_t protocol_errors;             /* an input violated the handshake: must stay 0 */
} gm_dcl1q_stats;

typedef struct gm_dcl1q {
    uint32_t depth;
    /* ---- registers: exactly the state of the RTL twin ---- */
    gm_dcl1q_fifo q[GM_DCL1Q_NQ];
    uint8_t rr;          /* Q2 arbitration: 0 = Q4 bypass first, 1 = cache first */
    /* ---- not state ---- */
    gm_dcl1q_stats st;
} gm_dcl1q;

/* A second implementation of the block (its Verilated RTL) for system
 * co-simulation, shaped as gm_router_twin (noc/net.h): while one is
 * attached to a node, the node drives its network and cache from the
 * twin's outputs (eval), clocks it with the inputs it gives the C block
 * (tick), and compare() gets both outputs every ticked edge, returning
 * non-zero on a divergence (the twin's owner stops the run). */
typedef struct gm_dcl1q_twin {
    void *ctx;
    void (*eval)(void *ctx, gm_dcl1q_out *out);
    void (*tick)(void *ctx, const gm_dcl1q_in *in);
    int (*compare)(void *ctx, uint64_t cycle, const gm_dcl1q_out *expected,
                   const gm_dcl1q_out *actual);
} gm_dcl1q_twin;

/* depth 1..GM_DCL1Q_MAX_DEPTH. */
int gm_dcl1q_init(gm_dcl1q *q, uint32_t depth, gm_error *err);
void gm_dcl1q_free(gm_dcl1q *q);
void gm_dcl1q_eval(const gm_dcl1q *q, gm_dcl1q_out *out);
void gm_dcl1q_tick(gm_dcl1q *q, const gm_dcl1q_in *in);

/* Every queue empty: a tick with all-zero inputs changes nothing, so the
 * owner may skip it. */
static inline bool gm_dcl1q_idle(const gm_dcl1q *q)
{
    return (q->q[0].count | q->q[1].count | q->q[2].count | q->q[3].count) == 0;
}

#endif
