/* gm_dcl1_node: one DC-L1 node (DC-L1 seed, Figure 3): the queue block
 * (dcl1_queues.h, the RTL-twin part), the node cache (dcl1_cache.h) and
 * the glue that connects them to the four links of the node. The glue
 * maps gm_req <-> 32-bit packet handles (a handle lives while its request
 * is inside the node), stamps the round-trip latency split and keeps the
 * watchdog position (GM_LOC_NODE, index = node id) up to date.
 *
 * One node cycle (gm_dcl1_node_tick, core clock), in this order:
 *   1. gm_dcl1q_eval: the queue block's Moore outputs.
 *   2. Network inputs: when n1_req_ready, the head of req_in (if visible)
 *      is popped and driven on n1_req_*; when n2_rep_ready, the head of
 *      l2_in on n2_rep_*. n1_rep_ready / n2_req_ready are
 *      gm_link_can_push of rep_out / l2_out.
 *   3. Cache: its reply (c_rsp_*, taken off the cache when c_rsp_ready),
 *      then the fill (c_fill_valid -> c_fill_accept), then the access
 *      (c_req_valid -> c_req_accept, c_req_miss).
 *   4. gm_dcl1q_tick with those inputs.
 *   5. The Q2 head that left (n1_rep_valid && n1_rep_ready) is pushed into
 *      rep_out and the Q3 head that left into l2_out; their handles are
 *      freed.
 * A node whose queues are empty, whose cache has no reply pending and
 * whose input links are empty skips the cycle (nothing could change). */
#ifndef GM_DESIGNS_DCL1_NODE_H
#define GM_DESIGNS_DCL1_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "designs/dcl1/dcl1_cache.h"
#include "designs/dcl1/dcl1_queues.h"
#include "noc/ni.h"
#include "sim/link.h"
#include "sim/req.h"

typedef struct gm_dcl1_node_ports {
    gm_link *req_in;   /* NoC#1 request network -> Q1 (the node consumes) */
    gm_link *rep_out;  /* Q2 -> NoC#1 reply network (the node produces) */
    gm_link *l2_out;   /* Q3 -> NoC#2 request network */
    gm_link *l2_in;    /* NoC#2 reply network -> Q4 */
} gm_dcl1_node_ports;

/* Round-trip latency split, summed over requests, in clock ticks
 * (docs/designs/dcl1.md section 6). The NoC#1 reply part is summed by the
 * core (gm_core_stats.direct_reply_lat_sum). */
typedef struct gm_dcl1_lat {
    uint64_t noc1;     /* creation at the core -> arrival in Q1 */
    uint64_t node;     /* in the node: Q1 -> Q3 out, and Q4 in (or Q1) -> Q2 out */
    uint64_t noc2;     /* Q3 out -> L2 pipeline, and NoC#2 reply acceptance -> Q4 */
    uint64_t l2;       /* L2 pipeline -> NoC#2 reply acceptance, less DRAM */
    uint64_t dram;     /* accepted by the DRAM controller -> returned to L2 */
    uint64_t requests; /* requests that entered the node */
} gm_dcl1_lat;

typedef struct gm_dcl1_node {
    uint32_t id;
    gm_dcl1q q;
    gm_dcl1_cache cache;
    gm_noc_pkts handles;       /* handle -> request, while inside the node */
    gm_dcl1_node_ports p;
    gm_dcl1_lat lat;
    uint64_t handle_errors;    /* the handle table could not grow: must stay 0 */
    const gm_dcl1q_twin *twin; /* co-simulation: the queues' RTL drives, the C runs in shadow */
} gm_dcl1_node;

/* homes: the nodes that share the address space with this one (M), each
 * the home of the lines with (address / home_granule) mod homes equal to
 * its index; 1 for a private node. */
int gm_dcl1_node_init(gm_dcl1_node *n, uint32_t id, const gm_cache_cfg *cache,
                      uint32_t queue_depth, gm_residency *res, uint32_t copies_limit,
                      uint32_t home_granule, uint32_t homes,
                      const gm_clock_domain *core, gm_error *err);
void gm_dcl1_node_free(gm_dcl1_node *n);
void gm_dcl1_node_connect(gm_dcl1_node *n, gm_dcl1_node_ports ports);
void gm_dcl1_node_tick(gm_dcl1_node *n, gm_time now);
/* Anything queued, handled, or waiting in an input link. Outstanding
 * misses alone are not "busy": their replies arrive on l2_in. */
bool gm_dcl1_node_busy(const gm_dcl1_node *n);
/* Fails, naming what is left, unless queues, cache MSHRs and replies,
 * and the handle table are empty and no protocol error was seen. */
int gm_dcl1_node_check_drained(const gm_dcl1_node *n, gm_error *err);

#endif
