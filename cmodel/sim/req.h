/* gm_req: one memory transaction as it travels from a core's coalescer to
 * DRAM and back. The same object is the request and, later, its reply
 * (is_reply flips), so "every request gets exactly one reply" is checked by
 * counting pool allocations against completions.
 *
 * Requests live in a pool owned by the system (no global state). The `loc`
 * fields are updated at every hand-off so the deadlock watchdog can say
 * where a stuck request is. */
#ifndef GM_SIM_REQ_H
#define GM_SIM_REQ_H

#include <stdint.h>

#include "sim/clock.h"

#define GM_LINE_BYTES 128u
#define GM_SECTOR_BYTES 32u
#define GM_SECTORS_PER_LINE 4u

typedef enum gm_req_kind {
    GM_REQ_LOAD = 0,   /* global load through L1 */
    GM_REQ_STORE,      /* global store: write-evict at L1, write-back at L2 */
    GM_REQ_ATOMIC,     /* executed at L2; bypasses L1 */
    GM_REQ_NONL1,      /* instruction/texture/constant miss: bypasses L1 */
    GM_REQ_WRITEBACK,  /* L2 dirty eviction to DRAM (never leaves the L2 side) */
    GM_REQ_KIND_COUNT
} gm_req_kind;

/* Where a request is, for the watchdog and the latency breakdown. */
typedef enum gm_loc {
    GM_LOC_FREE = 0,
    GM_LOC_CORE,        /* core LD/ST unit, before L1 */
    GM_LOC_L1,          /* L1 pipeline or MSHR */
    GM_LOC_L1_MISSQ,    /* L1 miss queue, waiting for the request network */
    GM_LOC_NOC_REQ,     /* request network (injection, routers, ejection) */
    GM_LOC_L2_IN,       /* L2 slice input queue */
    GM_LOC_L2,          /* L2 pipeline or MSHR */
    GM_LOC_DRAM,        /* DRAM controller queue or bank */
    GM_LOC_L2_OUT,      /* L2 reply queue, waiting for the reply network */
    GM_LOC_NOC_REP,     /* reply network */
    GM_LOC_CORE_REPLY,  /* back at the core, L1 fill / writeback of registers */
    GM_LOC_NODE,        /* a node of the design's L1 level (a DC-L1 node, ...);
                           the watchdog names it with the design's node_name */
    GM_LOC_COUNT
} gm_loc;

const char *gm_loc_name(gm_loc loc);
const char *gm_req_kind_name(gm_req_kind kind);

typedef struct gm_req {
    uint64_t id;            /* unique per system, in creation order */
    uint64_t addr;          /* 128 B line address (low 7 bits zero) */
    uint8_t kind;           /* gm_req_kind */
    uint8_t sectors;        /* 4-bit mask of the 32 B sectors asked for */
    uint8_t is_reply;
    uint8_t loc;            /* gm_loc */
    uint8_t flags;          /* GM_INST_* of the instruction that made it (read-only data) */
    uint16_t src;           /* requesting core (network source of the request) */
    uint16_t l1;            /* the L1-level cache instance that handles it (an L1D, a
                               DC-L1 node, ...), set by the design's blocks */
    uint16_t slice;         /* L2 slice */
    uint16_t warp;          /* warp slot in the core */
    uint32_t loc_index;     /* which instance of loc (core, slice, channel, ...) */
    uint32_t req_bytes;     /* payload of the request packet (store data) */
    uint32_t reply_bytes;   /* payload of the reply packet */
    gm_time t_create;       /* time stamps for latency statistics */
    gm_time t_loc;          /* when it arrived at loc */
    gm_time t_l2;           /* arrival at the L2 slice */
    gm_time t_dram;         /* sent to DRAM (0 if it never went) */
    gm_time t_dram_done;
    gm_time t_mark;         /* a design's latency split: start of the current segment
                               (DC-L1: docs/designs/dcl1.md section 7); the system
                               never reads it */
    void *owner;            /* opaque back-pointer for the block that waits */
    struct gm_req *next;    /* intrusive list (MSHR merge lists, free list) */
    uint32_t block_handle;  /* the handle a design block with fixed-width ports (the
                               DC-L1 node queues) carries for it while it is inside */
} gm_req;

typedef struct gm_req_pool {
    gm_req **chunks;
    uint32_t nchunks;
    gm_req *free_list;
    uint64_t next_id;
    uint64_t allocated;     /* total ever allocated */
    uint64_t completed;     /* total returned */
    uint64_t live;          /* allocated - completed */
} gm_req_pool;

void gm_req_pool_init(gm_req_pool *p);
void gm_req_pool_free(gm_req_pool *p);
/* Returns a zeroed request with a fresh id, or NULL when out of memory. */
gm_req *gm_req_alloc(gm_req_pool *p, gm_time now);
void gm_req_release(gm_req_pool *p, gm_req *r);

static inline void gm_req_move(gm_req *r, gm_loc loc, uint32_t index, gm_time now)
{
    r->loc = (uint8_t)loc;
    r->loc_index = index;
    r->t_loc = now;
}

/* Calls fn on every live request (for the watchdog and drain checks). */
void gm_req_pool_foreach_live(const gm_req_pool *p,
                              void (*fn)(const gm_req *, void *), void *arg);

#endif
