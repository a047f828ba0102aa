/* gm_sl1: one shared L1 of the shared-L1 design, a front end over the
 * cache engine (cache/cache_engine.h) serving the SF cores of its sharing
 * group through SF ports (docs/designs/sharedl1.md section 3).
 *
 * One tag array and one MSHR table hold SF x the private capacity; each
 * core port is an engine bound to them (gm_cache_engine_bind), with its
 * own data port and hit pipeline, so every core may access once per cycle
 * and a read miss of one core merges into another core's pending fetch
 * (inter-core coalescing). Per port the block keeps what gm_l1d keeps per
 * core (a miss queue, the completed list). Towards the L2 it has nlinks
 * network links each way ([sharedl1] l2_links): SF (one pair per core, the
 * wires SF private L1s had) or 1 (one pair for the group); port i uses
 * link i % nlinks.
 *
 *   miss path   the miss queues of a link's ports meet at a round-robin
 *               arbiter that puts at most one request per cycle on the
 *               link; the pointer advances past the port granted, and only
 *               when one is granted (with SF links each has one port)
 *   fill path   one reply per cycle per link; a line fill writes the
 *               data array through the port of the core whose miss fetched
 *               it (waits while that port is busy) and completes every
 *               merged request, each on its own core's port
 *
 * With SF = 1 this is gm_l1d step for step (the system test
 * sharedl1_points checks it against the baseline design).
 *
 * Per core-clock edge: port 0's core calls gm_sl1_tick (fills in, one
 * miss out) before any core of the group accesses; then each core pops its
 * completed requests and offers at most one access on its own port. */
#ifndef GM_DESIGNS_SHAREDL1_CACHE_H
#define GM_DESIGNS_SHAREDL1_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache_engine.h"
#include "cache/mshr.h"
#include "cache/req_fifo.h"
#include "cache/residency.h"
#include "cache/tag_array.h"
#include "config/config.h"
#include "core/core.h"
#include "designs/sharedl1/sharedl1_3c.h"
#include "sim/error.h"
#include "sim/link.h"
#include "sim/req.h"

struct gm_sl1;

/* What one port counts (the cache's own counters are in gm_sl1.stats). */
typedef struct gm_sl1_port_stats {
    uint64_t accesses;        /* accepted accesses (all kinds) */
    uint64_t refusals;        /* offers refused */
    uint64_t inter_merges;    /* loads merged into another core's pending fetch */
    uint64_t arb_waits;       /* cycles its miss-queue head lost the arbiter */
} gm_sl1_port_stats;

/* One core's port: ctx of its gm_core_port. */
typedef struct gm_sl1_port {
    struct gm_sl1 *c;
    uint32_t index;           /* 0 .. sf-1 inside the group */
    gm_cache_engine e;        /* bound to the cache's tags and MSHRs */
    gm_req **missq;           /* ring of cfg.miss_queue requests */
    uint32_t missq_head, missq_count;
    gm_req_fifo done;         /* completed by a fill or a reply */
    uint32_t outstanding;     /* accepted from the core, not yet handed back */
    gm_time last_access;
    gm_sl1_port_stats st;
} gm_sl1_port;

typedef struct gm_sl1_links {
    gm_link *miss_out;        /* [nlinks] to the request network; the cache produces */
    gm_link *fill_in;         /* [nlinks] replies: fills, store ACKs, atomic/non-L1 data */
} gm_sl1_links;

typedef struct gm_sl1 {
    gm_cache_cfg cfg;         /* the shared cache's geometry (SF x [l1] size) */
    uint32_t id;              /* group index; first core = id * sf */
    uint32_t sf;
    uint32_t nlinks;          /* 1 or sf */
    gm_sl1_links p;
    gm_tag_array tags;
    gm_mshr mshr;
    gm_sl1_port *port;        /* [sf]; port[0].e owns tags and mshr */
    uint32_t *arb_last;       /* [nlinks] port granted last by the link's arbiter */
    uint32_t *sent;           /* [nlinks] requests sent on the link, reply not back */
    bool classify;
    gm_3c cls;
    gm_cache_stats stats;
    uint64_t l2_requests;     /* requests sent towards the L2 (misses, stores, ...) */
    uint64_t fill_lines_checked; /* fills after which the line's set was checked */
    uint64_t invariant_errors;   /* a line held by more than one way of its set */
} gm_sl1;

/* cfg: the shared cache's geometry (already SF x [l1]); res may be NULL. */
int gm_sl1_init(gm_sl1 *c, const gm_cache_cfg *cfg, uint32_t id, uint32_t sf,
                uint32_t nlinks, bool classify, gm_residency *res, gm_error *err);
void gm_sl1_free(gm_sl1 *c);
/* fill_in[0]'s consumer is the cache's clock domain. */
void gm_sl1_connect(gm_sl1 *c, gm_sl1_links links);

/* Why port i would refuse r at now (GM_CACHE_OK if it takes it). Pure. */
gm_cache_fail gm_sl1_check(const gm_sl1 *c, uint32_t i, const gm_req *r, gm_time now);
/* Accepts r on port i, right after gm_sl1_check said OK. r->src, addr,
 * sectors and kind must be set. */
void gm_sl1_access(gm_sl1 *c, uint32_t i, gm_req *r, gm_time now);
/* Fills and replies in, one request out through the arbiter. */
void gm_sl1_tick(gm_sl1 *c, gm_time now);
/* Port i's next completed request at now, or NULL. */
gm_req *gm_sl1_pop_done(gm_sl1 *c, uint32_t i, gm_time now);
bool gm_sl1_busy(const gm_sl1 *c);

/* The core port (ctx: gm_sl1_port). */
extern const gm_core_port_ops gm_sl1_core_port;

#endif
