/* One L1 of the ATA design (docs/designs/ata.md section 4): the L1 of one
 * core, a front end over the cache engine with `banks` data-array banks
 * (one engine per bank, bound to one tag array and one MSHR table), and
 * the core's memory port. Per organization ([ata] org):
 *
 *   private    a load is looked up in the node's own tags; hit, merge into
 *              a pending fetch, or a miss to L2.
 *   ata        a load that misses the local tags (and has no local fetch to
 *              join) takes the hit vector of the cluster's aggregated tag
 *              array; with a remote holder it allocates a local MSHR and
 *              reads the remote data array over the cluster request
 *              crossbar; the data comes back on the reply crossbar and is
 *              filled locally. A remote line that lost the sectors by the
 *              time the read arrives (written: write-evict; or replaced)
 *              sends the request on to L2 from the remote node.
 *   decoupled  loads and stores go to the line's home node in the cluster
 *              (through the request crossbar unless home is local), which
 *              does the access as its own; replies for another core go
 *              back on the reply crossbar.
 * Stores write-evict in the node that takes them and go to L2 (in ata and
 * private: the local node only); atomics and non-L1 requests go to L2 from
 * the local node untouched.
 *
 * Per core-clock edge the core calls cycle (gm_ata_node_cycle), pops
 * replies, then offers and accepts at most one request. */
#ifndef GM_DESIGNS_ATA_NODE_H
#define GM_DESIGNS_ATA_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache_engine.h"
#include "cache/mshr.h"
#include "cache/req_fifo.h"
#include "cache/tag_array.h"
#include "config/config.h"
#include "core/core.h"
#include "designs/ata/ata_cfg.h"
#include "designs/ata/ata_tags.h"
#include "sim/error.h"
#include "sim/link.h"

/* The design's counters of one node (docs/stats.md, "design" for ata).
 * Every load accepted from a core is counted once, in the node that looked
 * it up, as exactly one of local_hits, local_merges, remote_hits,
 * remote_merges or l2_misses (decoupled: "remote" = served by a home node
 * that is not the requester's). */
typedef struct gm_ata_stats {
    uint64_t local_hits;      /* every asked sector valid in the requester's L1 */
    uint64_t local_merges;    /* joined a pending fetch of the requester's L1 */
    uint64_t remote_hits;     /* ata: read from a remote L1 per the hit vector;
                                 decoupled: hit in a home node of another core */
    uint64_t remote_merges;   /* decoupled: joined a pending fetch of another home */
    uint64_t l2_misses;       /* sent to L2 at lookup (a primary miss everywhere) */
    uint64_t l2_while_pending;/* ata: of those, loads whose line another L1 of the cluster
                                 was fetching (not in the hit vector: no valid sectors) */
    uint64_t remote_stale;    /* ata: remote read found the line gone (the seed's
                                 "remote dirty"), sent on to L2 */
    uint64_t remote_served;   /* remote reads this node's data array served */
    uint64_t hv_pop[GM_ATA_MAX_CLUSTER + 1]; /* ata loads by hit-vector population */
    uint64_t bank_conflicts;  /* accesses refused or delayed by a busy data bank */
    uint64_t tag_port_refusals; /* ata: refused for want of a comparator port */
    uint64_t xbar_refusals;   /* refused because the crossbar queue was full */
    uint64_t load_lat_sum;    /* load accept -> reply to the core, core cycles */
    uint64_t load_lat_n;
    uint64_t load_lat_max;
    uint64_t inst_lat_sum;    /* the seed's L1 access latency: per load instruction, its
                                 first line request's acceptance by the L1 to its last
                                 request's reply, core cycles */
    uint64_t inst_lat_n;
    uint64_t inst_lat_max;
    uint64_t inst_untracked;  /* load instructions the table had no room for */
    uint64_t invariant_violations; /* remote hits whose target did not hold the line */
} gm_ata_stats;

/* A load instruction with requests at this L1: the core's record of it
 * (gm_req.owner, a gm_mem_rec) and when its first request was accepted. */
typedef struct gm_ata_inst {
    const void *rec;
    gm_time first;
} gm_ata_inst;

typedef struct gm_ata_node_ports {
    gm_link *l2_out;     /* to the L2 request network */
    gm_link *l2_in;      /* from the L2 reply network (fills, acks, data) */
    gm_link *xreq_out;   /* to the cluster request crossbar */
    gm_link *xreq_in;    /* from it: remote reads (ata), home accesses (decoupled) */
    gm_link *xrep_out;   /* to the cluster reply crossbar */
    gm_link *xrep_in;    /* from it: remote data (ata), completions (decoupled) */
} gm_ata_node_ports;

typedef struct gm_ata_node {
    uint32_t id;               /* = its core's id */
    uint32_t local;            /* index in its cluster */
    uint32_t k;                /* cores per cluster */
    uint32_t org;              /* gm_ata_org */
    uint32_t home_shift;       /* log2 [ata] home_granule */
    bool remote_fill;
    gm_cache_cfg cfg;
    gm_ata_tags *ata;          /* the cluster's aggregated tag array */
    gm_ata_node_ports p;
    gm_tag_array tags;
    gm_mshr mshr;
    uint32_t nbanks;
    gm_cache_engine bank[GM_ATA_MAX_BANKS]; /* bank[0] owns tags and mshr */
    uint32_t latency;          /* hit latency, core cycles */
    const gm_clock_domain *dom;
    /* queues; every request in one is owned by this node until it leaves */
    gm_req_fifo missq;         /* to L2, at most cfg.miss_queue */
    uint32_t missq_n;
    gm_req_fifo xq;            /* to the request crossbar, at most xq_cap */
    uint32_t xq_n, xq_cap;
    gm_req_fifo rq;            /* to the reply crossbar; bounded by what the node took */
    gm_req_fifo rpipe;         /* remote reads in the data-array pipeline */
    gm_req_fifo done;          /* completed, for the core */
    uint32_t outstanding;      /* accepted from the core, not yet given back */
    gm_time last_access;       /* edge of the last tag lookup of this L1 */
    gm_ata_inst *inst;         /* open addressing by record pointer, inst_mask + 1 slots */
    uint32_t inst_mask, inst_used;
    gm_cache_stats cstats;     /* the L1 statistics (system "l1") */
    gm_ata_stats st;
} gm_ata_node;

int gm_ata_node_init(gm_ata_node *n, uint32_t id, uint32_t k, const gm_config *cfg,
                     gm_residency *res, gm_ata_tags *ata, gm_error *err);
void gm_ata_node_free(gm_ata_node *n);
void gm_ata_node_connect(gm_ata_node *n, gm_ata_node_ports p, const gm_clock_domain *core);

/* The data bank of addr's line: consecutive lines in consecutive banks. */
static inline uint32_t gm_ata_bank_of(const gm_ata_node *n, uint64_t addr)
{
    return (uint32_t)((addr / GM_LINE_BYTES) % n->nbanks);
}

/* The home L1 (cluster index) of addr under org = decoupled. */
static inline uint32_t gm_ata_home_of(const gm_ata_node *n, uint64_t addr)
{
    return (uint32_t)((addr >> n->home_shift) % n->k);
}

/* The core port (core/core.h). */
void gm_ata_node_cycle(void *node, gm_time now);
gm_req *gm_ata_node_pop_reply(void *node, gm_time now);
bool gm_ata_node_offer(void *node, const gm_req *probe, gm_time now);
void gm_ata_node_accept(void *node, gm_req *r, gm_time now);
bool gm_ata_node_busy(const void *node);
extern const gm_core_port_ops gm_ata_node_port;

/* Why r would be refused at now (gm_cache_fail), or GM_CACHE_OK. Pure. */
int gm_ata_node_check(const gm_ata_node *n, const gm_req *r, gm_time now);
int gm_ata_node_check_drained(const gm_ata_node *n, gm_error *err);

#endif
