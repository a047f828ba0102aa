/* gm_cache_engine: the one cache controller of the model. Front ends
 * (gm_l1d, gm_dcl1_cache, later ATA, CCN, shared L1) decide what an
 * access means; the engine does the mechanics they share:
 *
 *   tags       set-associative, exact LRU, a sector-valid mask per line
 *              (gm_tag_array)
 *   MSHRs      one entry per line being fetched, merging later reads of
 *              the line up to cfg.mshr_merge requests (gm_mshr)
 *   data port  cfg.port_bytes per cycle; a hit reads, a fill writes, and
 *              nothing else can use the port until they are done
 *   hits       a FIFO pipeline: a hit leaves cfg.latency cycles after the
 *              edge it was accepted at
 *   fills      install the line (LRU victim, residency map), release the
 *              MSHR entry and hand back every request it completes
 *
 * The engine has no links and no queues towards the next level: whether
 * a request may go there, and how, is the front end's business. It never
 * moves a request (gm_req_move); the hit latency counts from r->t_loc,
 * which the front end sets to the access edge.
 *
 * Storage. The tag array, the MSHR table and the statistics live in the
 * front end's struct, where its users read them (a drain check reads
 * mshr.used, the report reads stats); the engine is bound to them by
 * pointer. gm_cache_engine_init builds the tags and MSHRs and owns them;
 * gm_cache_engine_bind attaches a further engine to storage that exists
 * (several ports into one cache: one engine per port, one tag array, one
 * MSHR table, so misses of all ports merge).
 *
 * Reads are probed, then taken: gm_cache_probe_read is pure (LRU, port,
 * MSHRs untouched), so a front end can ask, refuse, and ask again next
 * cycle; gm_cache_read commits what the probe found. The data port is a
 * separate reservation (gm_cache_port_busy / gm_cache_use_port), so a
 * front end can steal a port cycle for a lookup that is not an access.
 *
 * Full description, per-cycle order and how to write a front end:
 * docs/caches.md section 4. */
#ifndef GM_CACHE_ENGINE_H
#define GM_CACHE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/mshr.h"
#include "cache/req_fifo.h"
#include "cache/residency.h"
#include "cache/tag_array.h"
#include "config/config.h"
#include "sim/clock.h"
#include "sim/error.h"
#include "sim/req.h"

/* Why an access is refused (GPGPU-Sim's reservation-fail reasons). */
typedef enum gm_cache_fail {
    GM_CACHE_OK = 0,
    GM_CACHE_FAIL_PORT,     /* the data port is busy (or the front end's one access
                               per cycle is taken) */
    GM_CACHE_FAIL_MSHR,     /* read miss, no MSHR entry free */
    GM_CACHE_FAIL_MERGE,    /* read miss to a pending line whose entry is full */
    GM_CACHE_FAIL_MISSQ,    /* the request must go to the next level and the front
                               end has no room for it */
    GM_CACHE_FAIL_SECTOR,   /* sectored: read to a pending line whose fetch lacks some
                               of the missing sectors; retried after the fill */
    GM_CACHE_FAIL_COUNT
} gm_cache_fail;

/* Counters of one cache, in L1 terms (the report sums them over L1s and
 * DC-L1 nodes alike). The engine counts what it does; the front end counts
 * accesses it takes and refusals it decides. */
typedef struct gm_cache_stats {
    uint64_t accesses[GM_REQ_KIND_COUNT]; /* accepted accesses by kind */
    uint64_t sectors[GM_REQ_KIND_COUNT];  /* sectors of the accepted accesses */
    uint64_t load_hits;
    uint64_t load_misses;      /* primary misses: allocated an MSHR, fetched a line */
    uint64_t mshr_merges;      /* load misses merged into a pending fetch (hit-reserved) */
    uint64_t write_evicts;     /* stores that hit and invalidated the line */
    uint64_t store_misses;     /* stores to absent lines (not allocated) */
    uint64_t fills;            /* lines installed */
    uint64_t evictions;        /* valid lines replaced by a fill */
    uint64_t res_fail[GM_CACHE_FAIL_COUNT]; /* refusals by reason */
    uint64_t port_busy_cycles; /* data-port cycles used by hits and fills */
    uint64_t fill_port_waits;  /* cycles a fill waited for the data port */
    uint64_t miss_resident_elsewhere; /* primary misses whose line another cache held */
    uint64_t residency_errors; /* residency map could not grow (out of memory) */
    /* sector level (loads; docs/stats.md): every sector a load asks for is
     * exactly one of hit, merge, miss */
    uint64_t sector_hits;      /* asked sectors valid at the access */
    uint64_t sector_merges;    /* missing sectors a pending fetch brings (pending hits) */
    uint64_t sector_misses;    /* missing sectors of primary misses */
    uint64_t sector_miss_lines;/* primary misses to a resident line (GPGPU-Sim SECTOR_MISS) */
    uint64_t fill_sectors;     /* sectors installed by fills */
} gm_cache_stats;

typedef struct gm_cache_engine {
    /* bound at init; the storage belongs to the front end */
    gm_tag_array *tags;
    gm_mshr *mshr;
    gm_cache_stats *st;
    gm_residency *res;          /* lines held by all caches together; may be NULL */
    const gm_clock_domain *dom; /* the cache's clock: port and latency count its edges */
    /* registered state */
    gm_time port_free_at;       /* first edge the data port is free */
    gm_time hit_ready;          /* when hits.head leaves the pipeline */
    gm_req_fifo hits;           /* hits in the latency pipeline, in access order */
    /* configuration */
    uint32_t latency;           /* hit latency, cycles of dom */
    uint32_t port_cycles[GM_TAG_SECTORS + 1]; /* data-port cycles to move n sectors */
    uint32_t sector_bytes;      /* line / GM_TAG_SECTORS */
    bool sectored;              /* cfg.sectored: fetch and fill the missing sectors only */
    bool owns_storage;          /* init built tags and mshr: free frees them */
} gm_cache_engine;

/* Builds *tags (cfg size, assoc, line) and *mshr (cfg entries, merge
 * limit), binds the engine to them, to *st and to res (may be NULL).
 * Uses cfg.latency and cfg.port_bytes (>= 1); the clock may come later
 * (gm_cache_engine_set_clock) but before the first access. On failure
 * nothing is left allocated. */
int gm_cache_engine_init(gm_cache_engine *e, const gm_cache_cfg *cfg, gm_residency *res,
                         gm_tag_array *tags, gm_mshr *mshr, gm_cache_stats *st,
                         gm_error *err);
/* Binds an engine to tags and MSHRs that another engine built (a second
 * port into the same cache). cfg gives this port's latency and width. */
int gm_cache_engine_bind(gm_cache_engine *e, const gm_cache_cfg *cfg, gm_residency *res,
                         gm_tag_array *tags, gm_mshr *mshr, gm_cache_stats *st,
                         gm_error *err);
/* Frees the tags and MSHRs if this engine built them. Safe on a zeroed
 * engine and after a failed init. */
void gm_cache_engine_free(gm_cache_engine *e);

static inline void gm_cache_engine_set_clock(gm_cache_engine *e, const gm_clock_domain *dom)
{
    e->dom = dom;
}

/* ---- data port ----------------------------------------------------------- */

static inline bool gm_cache_port_busy(const gm_cache_engine *e, gm_time now)
{
    return e->port_free_at > now;
}

/* Data-port cycles to move the sectors of mask. */
static inline uint32_t gm_cache_port_cycles(const gm_cache_engine *e, uint8_t mask)
{
    return e->port_cycles[gm_tag_sector_count(mask)];
}

/* Holds the data port for `cycles` edges from now (the port must be
 * free): no hit or fill can use it before. */
void gm_cache_use_port(gm_cache_engine *e, uint32_t cycles, gm_time now);

/* ---- reads -------------------------------------------------------------- */

/* What a read of a line finds. */
typedef enum gm_cache_outcome {
    GM_CACHE_HIT = 0,   /* the line is here with every sector asked */
    GM_CACHE_MERGE,     /* a fetch of the line is pending: join it */
    GM_CACHE_MISS,      /* a new fetch (primary miss) */
} gm_cache_outcome;

typedef struct gm_cache_probe {
    int32_t way;        /* tag-array index of the line, -1 when absent */
    int32_t entry;      /* MSHR entry fetching the line, -1 when none (not
                           looked up on a hit) */
    uint8_t missing;    /* sectors asked for that are not valid here */
    uint8_t outcome;    /* gm_cache_outcome */
    uint8_t fail;       /* gm_cache_fail: why the engine cannot take the read
                           now (MERGE or MSHR); GM_CACHE_OK when it can */
} gm_cache_probe;

/* Looks a read of `sectors` of addr's line up, changing nothing. The
 * data port is not looked at (gm_cache_port_busy), nor the way out: a
 * MISS must be sent by the front end, which refuses it (FAIL_MISSQ) when
 * it has no room; a HIT or MERGE sends nothing. Inline: a front end asks
 * every cycle, and mostly only wants outcome and fail. */
static inline gm_cache_probe gm_cache_probe_read(const gm_cache_engine *e, uint64_t addr,
                                                 uint8_t sectors)
{
    gm_cache_probe p = {.way = gm_tag_probe(e->tags, addr), .entry = -1,
                        .missing = sectors, .outcome = GM_CACHE_MISS, .fail = GM_CACHE_OK};
    if (p.way >= 0) {
        p.missing = sectors & (uint8_t)~gm_tag_line_const(e->tags, p.way)->valid;
        if (!p.missing) {
            p.outcome = GM_CACHE_HIT;
            return p;
        }
    }
    p.entry = gm_mshr_lookup(e->mshr, addr);
    if (p.entry >= 0) {
        p.outcome = GM_CACHE_MERGE;
        if (p.missing & (uint8_t)~gm_mshr_entry_at(e->mshr, p.entry)->fetch)
            p.fail = GM_CACHE_FAIL_SECTOR; /* only a sectored fetch lacks sectors */
        else if (!gm_mshr_can_merge(e->mshr, p.entry))
            p.fail = GM_CACHE_FAIL_MERGE;
    } else if (gm_mshr_full(e->mshr)) {
        p.fail = GM_CACHE_FAIL_MSHR;
    }
    return p;
}

/* Takes read r as probe p (fail == OK) found it, with nothing changed
 * since. HIT: LRU touch, the data port reads the asked sectors, r enters
 * the hit pipeline (ready cfg.latency edges after r->t_loc). MERGE: r
 * joins the line's MSHR entry. MISS: a new MSHR entry with r as primary,
 * and r becomes the fetch; the front end sends it. Line mode: the fetch
 * of the whole line (req_bytes 0, reply_bytes line_bytes; r->sectors
 * keeps what was asked). Sectored: the fetch of the missing sectors only
 * (r->sectors = p->missing, reply_bytes their bytes); the entry keeps
 * what r asked and the fill gives it back.
 * Counts load_hits, mshr_merges or load_misses (and miss_resident_elsewhere),
 * and the sector counters. */
void gm_cache_read(gm_cache_engine *e, const gm_cache_probe *p, gm_req *r, gm_time now);

/* ---- the hit pipeline ---------------------------------------------------- */

/* Oldest hit still in the pipeline, or NULL. */
static inline gm_req *gm_cache_hit_head(const gm_cache_engine *e)
{
    return e->hits.head;
}

/* When the oldest hit leaves the pipeline (gm_cache_hit_head non-NULL). */
static inline gm_time gm_cache_hit_ready_at(const gm_cache_engine *e)
{
    return e->hit_ready;
}

/* Removes and returns the oldest hit whose latency has elapsed at now, or
 * NULL (hits leave in access order). Asked every cycle: inline, and the
 * head's ready edge is computed once, when it becomes the head. */
static inline gm_req *gm_cache_hit_pop(gm_cache_engine *e, gm_time now)
{
    if (gm_req_fifo_empty(&e->hits) || e->hit_ready > now)
        return 0;
    gm_req *r = gm_req_fifo_pop(&e->hits);
    if (!gm_req_fifo_empty(&e->hits))
        e->hit_ready = gm_clock_edge_after(e->dom, e->hits.head->t_loc, e->latency);
    return r;
}

/* ---- writes -------------------------------------------------------------- */

/* Drops addr's line if present (sectors lost, residency map updated).
 * Returns whether it was present. */
bool gm_cache_invalidate(gm_cache_engine *e, uint64_t addr);

/* Write-evict, no-write-allocate (baseline L1, DC-L1): a write to a
 * present line invalidates it (write_evicts), a write to an absent line
 * allocates nothing (store_misses). MSHRs are not looked at: the model
 * carries no data, so a write passing a pending fill changes nothing. */
void gm_cache_write_evict(gm_cache_engine *e, uint64_t addr);
/* The same for a store writing `sectors`. Line mode: gm_cache_write_evict.
 * Sectored: evicts only the written sectors (GPGPU-Sim 4's sector cache
 * invalidates the store's sector mask), the line when none is left; a
 * write_evict when some written sector was valid, else a store_miss. */
void gm_cache_write_evict_sectors(gm_cache_engine *e, uint64_t addr, uint8_t sectors);

/* ---- fills --------------------------------------------------------------- */

/* What a fill did. */
typedef struct gm_cache_filled {
    gm_req *waiters;      /* the requests it completes: the primary, then the
                             merged ones in arrival order, linked through next */
    int32_t way;          /* where the line is now */
    bool allocated;       /* the line was absent: a way was allocated */
    bool tracked;         /* ... and the residency map now counts this copy */
    gm_tag_victim victim; /* what the allocation replaced (victim.evicted) */
} gm_cache_filled;

/* The sectors the fill of primary r installs: the MSHR entry's fetch
 * (every sector in line mode). */
static inline uint8_t gm_cache_fill_mask(const gm_cache_engine *e, const gm_req *r)
{
    int32_t entry = gm_mshr_lookup(e->mshr, r->addr);
    return entry >= 0 ? gm_mshr_entry_at(e->mshr, entry)->fetch : GM_TAG_ALL_SECTORS;
}

/* Writes reply r's `sectors` into the data array and completes the MSHR
 * entry r is the primary of. Needs the data port: when it is busy at now,
 * counts fill_port_waits and returns false (the reply waits where it is).
 * Otherwise holds the port for the sectors written, installs the line (an
 * absent line takes the LRU way as MRU and enters the residency map; a
 * present one is touched), marks `sectors` valid, releases the entry into
 * out->waiters and returns true. Counts fills and evictions.
 * r->sectors is given back what r asked for. The merged requests are
 * completed: each was taken only if the fetch brought its missing sectors
 * (gm_cache_probe_read's FAIL_SECTOR). Front ends pass gm_cache_fill_mask. */
bool gm_cache_fill(gm_cache_engine *e, gm_req *r, uint8_t sectors, gm_time now,
                   gm_cache_filled *out);

/* ---- counting ------------------------------------------------------------ */

/* Counts an access the front end accepted (or handled around the cache:
 * bypasses), by kind and sectors. */
static inline void gm_cache_count_access(gm_cache_engine *e, const gm_req *r)
{
    e->st->accesses[r->kind]++;
    e->st->sectors[r->kind] += gm_tag_sector_count(r->sectors);
}

/* Anything in the engine: MSHR entries or hits in the pipeline. */
static inline bool gm_cache_busy(const gm_cache_engine *e)
{
    return e->mshr->used || e->hits.head;
}

#endif
