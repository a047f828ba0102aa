/* gm_l1d: the private L1 data cache of a core (DC-L1 baseline), a front
 * end over the cache engine (cache_engine.h).
 *
 * 128 B lines of 4 sectors, exact LRU, write-evict, no-write-allocate,
 * allocate-on-fill, MSHRs with merging, a fixed hit latency and a data
 * port of cfg->port_bytes bytes per cycle. Loads are cached; stores
 * invalidate a hit line and go to L2; atomics and non-L1 requests bypass
 * the cache. What the front end adds to the engine: the links to the
 * network, a miss queue in front of miss_out, one access per cycle, the
 * sizes of what it sends, and the list of requests completed by replies.
 * Full behaviour and statistics: docs/caches.md section 4.4.
 *
 * Per core-clock edge the owner calls, in this order:
 *   gm_l1d_tick(now)                 fills and acks in, misses out
 *   gm_l1d_pop_done(now) until NULL  completed requests back to the core
 *   gm_l1d_can_access / gm_l1d_access (at most one accepted access)
 * The clock domain is taken from fill_in->consumer: fill_in is consumed by
 * the L1, so its consumer domain is the L1's own. */
#ifndef GM_CACHE_L1D_H
#define GM_CACHE_L1D_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache_engine.h"
#include "cache/mshr.h"
#include "cache/req_fifo.h"
#include "cache/residency.h"
#include "cache/tag_array.h"
#include "config/config.h"
#include "sim/error.h"
#include "sim/link.h"
#include "sim/req.h"

typedef struct gm_l1d_ports {
    gm_link *miss_out;  /* to the request network; the L1 is the producer */
    gm_link *fill_in;   /* replies: line fills, store ACKs, atomic/non-L1 data */
} gm_l1d_ports;

/* Why an access is refused: the engine's reasons (GPGPU-Sim's
 * reservation-fail reasons), under the L1's names. */
typedef enum gm_l1d_fail {
    GM_L1D_OK = GM_CACHE_OK,
    GM_L1D_FAIL_PORT = GM_CACHE_FAIL_PORT,   /* an access was already taken this cycle or
                                                the data port is busy */
    GM_L1D_FAIL_MSHR = GM_CACHE_FAIL_MSHR,   /* load miss, no MSHR entry free */
    GM_L1D_FAIL_MERGE = GM_CACHE_FAIL_MERGE, /* load miss to a pending line whose merge
                                                list is full */
    GM_L1D_FAIL_MISSQ = GM_CACHE_FAIL_MISSQ, /* the request needs the miss queue and it
                                                is full */
    GM_L1D_FAIL_SECTOR = GM_CACHE_FAIL_SECTOR, /* sectored: the pending fetch of the line
                                                  lacks a missing sector */
    GM_L1D_FAIL_COUNT = GM_CACHE_FAIL_COUNT
} gm_l1d_fail;

/* The engine's counters (cache_engine.h); res_fail is indexed by gm_l1d_fail. */
typedef gm_cache_stats gm_l1d_stats;

typedef struct gm_l1d {
    gm_cache_cfg cfg;
    uint32_t id;
    gm_l1d_ports p;
    gm_tag_array tags;         /* the engine's, kept here for the L1's users */
    gm_mshr mshr;              /* the engine's */
    gm_cache_engine e;
    gm_req **missq;            /* ring of cfg.miss_queue requests */
    uint32_t missq_head, missq_count;
    gm_req_fifo done;          /* completed by a fill or a reply */
    uint32_t outstanding;      /* requests sent on miss_out, reply not yet back */
    gm_time last_access;       /* edge of the last accepted access */
    /* The last refused offer and why (docs/architecture.md, "Exact
     * shortcuts"): a stalled LD/ST unit offers the same line every cycle,
     * and apart from the data port the verdict depends only on the tags,
     * the MSHRs and the miss queue, which change only through this file;
     * `changes` counts those changes. */
    uint64_t changes;
    uint64_t memo_changes;
    uint64_t memo_addr;
    uint8_t memo_sectors, memo_kind, memo_valid;
    uint8_t memo_fail;         /* gm_l1d_fail, never GM_L1D_OK or _PORT */
    gm_l1d_stats stats;
} gm_l1d;

int gm_l1d_init(gm_l1d *c, const gm_cache_cfg *cfg, uint32_t id, gm_residency *res,
                gm_error *err);
void gm_l1d_free(gm_l1d *c);
void gm_l1d_connect(gm_l1d *c, gm_l1d_ports ports);

/* Why r would be refused at now, or GM_L1D_OK. Pure: counts nothing. */
gm_l1d_fail gm_l1d_check(const gm_l1d *c, const gm_req *r, gm_time now);
/* gm_l1d_check(...) == GM_L1D_OK. Counts nothing. */
bool gm_l1d_can_access(const gm_l1d *c, const gm_req *r, gm_time now);
/* Counts a refusal of r in stats.res_fail (call when can_access said no
 * and the access is given up for this cycle). */
void gm_l1d_count_refusal(gm_l1d *c, const gm_req *r, gm_time now);
/* can_access and count_refusal in one check: whether r would be
 * accepted at now; a refusal is counted. */
bool gm_l1d_offer(gm_l1d *c, const gm_req *r, gm_time now);
/* Accepts r; only after gm_l1d_can_access(c, r, now) returned true.
 * r->addr, sectors, kind and src must be set. */
void gm_l1d_access(gm_l1d *c, gm_req *r, gm_time now);
/* check + access, or count the refusal. Returns whether r was accepted. */
bool gm_l1d_try_access(gm_l1d *c, gm_req *r, gm_time now);

void gm_l1d_tick(gm_l1d *c, gm_time now);
/* Next request that is complete at now, or NULL. */
gm_req *gm_l1d_pop_done(gm_l1d *c, gm_time now);
/* Anything in flight: MSHRs, miss queue, hit pipeline, done list, replies. */
bool gm_l1d_busy(const gm_l1d *c);

#endif
