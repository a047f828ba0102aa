/* gm_l2_slice: one slice of the shared L2 (DC-L1 baseline: 128 KB, 8-way,
 * 128 B lines of 4 sectors, write-back, 120-cycle latency).
 *
 * A request from req_in enters a fixed-latency pipeline (cfg->cache.latency
 * L2 cycles, one request accepted per cycle, at most `latency` in flight);
 * at its exit the tag stage serves the head in order:
 *   load / non-L1   the needed sectors valid: reply; else fetch the whole
 *                   line from DRAM, or with cfg->cache.sectored only the
 *                   missing sectors (MSHR; merge into a pending fetch that
 *                   brings every missing sector, else wait for its fill)
 *   store           write-allocate without fetch: set the sectors valid and
 *                   dirty (allocating the line if absent), reply an ACK
 *   atomic          executed here: needs its sectors valid (fetch on miss),
 *                   then marks them dirty and replies
 * A fill from DRAM installs the line (the fetched sectors valid, dirty
 * ones kept), applies the waiting atomics and replies to every waiting request.
 * Dirty victims leave as GM_REQ_WRITEBACK requests. Details, the order of
 * the stages within an edge and every statistic: docs/caches.md.
 *
 * The clock domain is taken from req_in->consumer (the slice consumes
 * req_in, so that is its own domain). */
#ifndef GM_L2_L2_SLICE_H
#define GM_L2_L2_SLICE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/mshr.h"
#include "cache/tag_array.h"
#include "config/config.h"
#include "sim/error.h"
#include "sim/link.h"
#include "sim/req.h"

typedef struct gm_l2_ports {
    gm_link *req_in;    /* requests from the request network */
    gm_link *rep_out;   /* replies to the reply network */
    gm_link *dram_out;  /* line reads (the primary request itself) and write-backs */
    gm_link *dram_in;   /* reads and write-backs returned by the DRAM channel */
} gm_l2_ports;

/* Why the head of the pipeline could not be served this cycle. */
typedef enum gm_l2_fail {
    GM_L2_FAIL_MSHR = 0,    /* no MSHR entry free */
    GM_L2_FAIL_MERGE,       /* the pending fetch's merge list is full */
    GM_L2_FAIL_WB,          /* write-back buffer has no unreserved slot */
    GM_L2_FAIL_DRAM_OUT,    /* dram_out full or already used this cycle */
    GM_L2_FAIL_REP_OUT,     /* rep_out full or already used this cycle */
    GM_L2_FAIL_ALLOC,       /* request pool out of memory (write-back) */
    GM_L2_FAIL_SECTOR,      /* sectored: the line's pending fetch lacks a needed sector */
    GM_L2_FAIL_COUNT
} gm_l2_fail;

typedef struct gm_l2_stats {
    uint64_t accesses[GM_REQ_KIND_COUNT]; /* requests served at the tag stage, by kind */
    uint64_t hits[GM_REQ_KIND_COUNT];     /* needed sectors valid (stores: line present) */
    uint64_t misses[GM_REQ_KIND_COUNT];   /* line absent, new fetch (stores: allocated) */
    uint64_t sector_misses;    /* line present, a needed sector not valid: new fetch */
    uint64_t mshr_merges;      /* merged into a pending fetch of the line */
    /* sector level, reads (loads, non-L1, atomics): every sector a read
     * needs is exactly one of hit, merged, missed (docs/stats.md) */
    uint64_t sector_hits;      /* needed sectors valid at the access */
    uint64_t sector_merges;    /* missing sectors a pending fetch brings */
    uint64_t sectors_missed;   /* sectors fetched from DRAM by new fetches */
    uint64_t fill_sectors;     /* sectors installed by DRAM fills */
    uint64_t atomics;          /* atomics executed */
    uint64_t dram_reads;       /* line reads sent to DRAM */
    uint64_t fills;            /* lines returned by DRAM and installed */
    uint64_t writebacks;       /* dirty victims sent to DRAM */
    uint64_t writeback_sectors;/* dirty sectors they carried */
    uint64_t evictions;        /* valid lines replaced */
    uint64_t res_fail[GM_L2_FAIL_COUNT]; /* head stall cycles by reason */
    uint64_t input_stalls;     /* cycles a request on req_in waited for a full pipeline */
    uint64_t fill_stalls;      /* cycles a fill on dram_in waited (replies pending, no memory) */
} gm_l2_stats;

typedef struct gm_l2_slice {
    gm_l2_cfg cfg;
    uint32_t id;
    gm_req_pool *pool;
    gm_l2_ports p;
    const gm_clock_domain *dom;
    gm_tag_array tags;
    gm_mshr mshr;
    gm_req *pipe_head, *pipe_tail;  /* latency pipeline, arrival order */
    uint32_t pipe_count, pipe_cap;
    gm_req *rep_head, *rep_tail;    /* replies released by a fill */
    uint32_t rep_count;
    gm_req *wb_head, *wb_tail;      /* write-backs waiting for dram_out */
    uint32_t wb_count;
    uint32_t wb_cap;                /* mshr_entries (reserved for fills) + miss_queue */
    uint32_t dram_pending;          /* reads and write-backs DRAM has not returned */
    gm_l2_stats stats;
} gm_l2_slice;

int gm_l2_slice_init(gm_l2_slice *s, const gm_l2_cfg *cfg, uint32_t id, gm_req_pool *pool,
                     gm_error *err);
/* The global interleaving that sends lines to this slice: chunks of
 * chunk_bytes dealt round robin over `owners` slices (the address map's
 * partition_bytes and slice count). Sets are then indexed by the
 * slice-local address; without this call they are indexed by the global
 * line number, which with 256 B interleaving over 32 slices leaves all but
 * 4 of 128 sets unused. Call after init, before the first tick. */
int gm_l2_slice_set_interleave(gm_l2_slice *s, uint32_t chunk_bytes, uint32_t owners,
                               gm_error *err);
void gm_l2_slice_free(gm_l2_slice *s);
void gm_l2_slice_connect(gm_l2_slice *s, gm_l2_ports ports);
/* One L2-clock edge. */
void gm_l2_slice_tick(gm_l2_slice *s, gm_time now);
/* Anything in the pipeline, MSHRs, reply or write-back queues, or at DRAM. */
bool gm_l2_slice_busy(const gm_l2_slice *s);

#endif
