/* gm_dcl1_cache: the cache of a DC-L1 node (the paper's DC-L1$), a front
 * end over the cache engine (cache/cache_engine.h), modelled at
 * transaction level. It has no links: it talks only to its node's queue
 * block (dcl1_queues.h) through the c_* port fields, which the node
 * (dcl1_node.c) translates between packet handles and gm_req.
 *
 * Policy as the baseline L1D (docs/caches.md section 4.5): 128 B lines of 4
 * sectors, exact LRU, write-evict, no-write-allocate, allocate on fill, a
 * data port of cfg.port_bytes per core cycle, hit latency cfg.latency
 * core cycles. MSHRs with merging: a load miss to a line that already has
 * an outstanding fetch in this node joins that fetch's entry (up to
 * cfg.mshr_merge requests per entry) and sends nothing to L2. What the
 * front end adds to the engine: Q3 room decides whether a miss or a store
 * is taken, an output buffer of pending_cap replies (hits and requests a
 * fill completed, handed to Q2 oldest-ready first), replies at the size
 * asked, the copies limit check, and set indexing by home.
 *
 * Per node cycle the node calls, in this order:
 *   gm_dcl1_cache_response(now)      the reply offered to Q2 (c_rsp_*), from
 *                                    the state at the start of the cycle;
 *                                    gm_dcl1_cache_pop_response when Q2 took it
 *   gm_dcl1_cache_fill(r, now)       the Q4 head, a line fill (c_fill_*)
 *   gm_dcl1_cache_access(r, ...)     the Q1 head, a load or store (c_req_*)
 * A fill and an access both need the data port; the fill goes first, so a
 * cycle with a fill takes no access. */
#ifndef GM_DESIGNS_DCL1_CACHE_H
#define GM_DESIGNS_DCL1_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache_engine.h"
#include "cache/l1d.h"
#include "cache/mshr.h"
#include "cache/req_fifo.h"
#include "cache/residency.h"
#include "cache/tag_array.h"
#include "config/config.h"
#include "sim/clock.h"
#include "sim/error.h"
#include "sim/req.h"

/* Result of offering the Q1 head. */
typedef enum gm_dcl1_access {
    GM_DCL1_REFUSED = 0,  /* stays at the head of Q1 */
    GM_DCL1_KEPT,         /* accepted: a hit in the pipeline, or merged into an MSHR */
    GM_DCL1_TO_L2,        /* accepted: a primary load miss or a store, into Q3 */
} gm_dcl1_access;

typedef struct gm_dcl1_cache {
    gm_cache_cfg cfg;
    uint32_t id;
    uint32_t copies_limit;      /* a line may be in at most this many nodes */
    gm_tag_array tags;          /* the engine's, kept here for the node's users */
    gm_mshr mshr;               /* the engine's (the node's drain check reads used) */
    gm_cache_engine e;          /* clocked by the node's clock (core) */
    gm_req_fifo fwd;            /* requests completed by a fill, ready at once */
    uint32_t pending;           /* requests in the hit pipeline and in fwd */
    uint32_t pending_cap;       /* no access is taken while pending >= this
                                   (the node uses the latency: a stalled pipeline) */
    /* Statistics in the L1D's terms, so the report treats nodes as L1s;
     * res_fail[GM_L1D_FAIL_MISSQ] counts refusals for a full Q3. */
    gm_l1d_stats stats;
    uint64_t output_full;       /* cycles the Q1 head was refused: pending >= pending_cap */
    uint64_t copies_violations; /* installs that left a line in more than copies_limit nodes */
} gm_dcl1_cache;

/* cfg: the node cache (gm_config_node_cache); pending_cap >= 1. */
int gm_dcl1_cache_init(gm_dcl1_cache *c, const gm_cache_cfg *cfg, uint32_t id,
                       gm_residency *res, uint32_t copies_limit, uint32_t pending_cap,
                       const gm_clock_domain *dom, gm_error *err);
/* A node that is the home of only some lines (ShY, ShY+CZ: one of `homes`
 * nodes, chosen by (address / granule) mod homes) indexes its sets by the
 * node-local address, with the home digit removed, so all its sets are
 * used (as an L2 slice does; gm_tag_array_set_interleave). */
int gm_dcl1_cache_set_homes(gm_dcl1_cache *c, uint32_t granule, uint32_t homes,
                            gm_error *err);
void gm_dcl1_cache_free(gm_dcl1_cache *c);

/* The reply the cache offers Q2 at now: of the oldest hit whose latency
 * has elapsed and the oldest request completed by a fill, the one that
 * became ready first (the fill's on a tie); NULL if none. */
gm_req *gm_dcl1_cache_response(const gm_dcl1_cache *c, gm_time now);
/* Removes the request gm_dcl1_cache_response returned. */
void gm_dcl1_cache_pop_response(gm_dcl1_cache *c, gm_time now);

/* Installs the line of load reply r when the data port is free; the
 * request and every request merged with it become replies at their
 * requested size (32 B per sector asked). Returns whether r was taken. */
bool gm_dcl1_cache_fill(gm_dcl1_cache *c, gm_req *r, gm_time now);

/* Offers the Q1 head r (load or store). q3_room: Q3 has a free entry. */
gm_dcl1_access gm_dcl1_cache_access(gm_dcl1_cache *c, gm_req *r, bool q3_room, gm_time now);

/* Counts an atomic or non-L1 request that bypassed the cache, so the
 * statistics see every request the node handled. */
void gm_dcl1_cache_count_bypass(gm_dcl1_cache *c, const gm_req *r);

/* Replies still to be handed to Q2. */
static inline bool gm_dcl1_cache_has_output(const gm_dcl1_cache *c)
{
    return c->pending != 0;
}

#endif
