/* gm_mshr: miss status holding registers keyed by line address.
 *
 * An entry stands for one outstanding fetch of a line. It remembers the
 * primary request (the one sent to the next level) and a FIFO of merged
 * (secondary) requests linked through gm_req.next. max_merge bounds the
 * requests per entry, primary included (GPGPU-Sim's m_max_merged). The
 * primary is kept apart from the list so that its `next` field stays free
 * while it travels (queues and links may use it).
 *
 * Lookup is a chained hash over the entries (power-of-two buckets, at least
 * twice the entry count), so it stays O(1) for large tables. */
#ifndef GM_CACHE_MSHR_H
#define GM_CACHE_MSHR_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/req_fifo.h"
#include "sim/error.h"
#include "sim/req.h"

typedef struct gm_mshr_entry {
    uint64_t addr;
    gm_req *primary;
    gm_req_fifo merged; /* merged requests, oldest first */
    uint32_t count;     /* requests held: primary (if any) + merged */
    uint8_t fetch;      /* sectors the fetch brings: every sector unless a sectored
                           cache engine narrows it to the missing ones */
    uint8_t asked;      /* sectors the primary asked for, given back at the fill */
    int32_t next;       /* hash chain when in use, free list when not */
    uint8_t in_use;
} gm_mshr_entry;

typedef struct gm_mshr {
    gm_mshr_entry *e;
    int32_t *bucket;    /* head entry of each hash chain, -1 = empty */
    uint32_t nbuckets;  /* power of two */
    uint32_t entries;
    uint32_t max_merge;
    uint32_t used;
    int32_t free_head;
} gm_mshr;

/* entries >= 1, max_merge >= 1. */
int gm_mshr_init(gm_mshr *m, uint32_t entries, uint32_t max_merge, gm_error *err);
void gm_mshr_free(gm_mshr *m);

/* Entry index tracking addr's line, or -1. */
int32_t gm_mshr_lookup(const gm_mshr *m, uint64_t addr);

static inline bool gm_mshr_full(const gm_mshr *m)
{
    return m->used == m->entries;
}

static inline bool gm_mshr_can_merge(const gm_mshr *m, int32_t idx)
{
    return m->e[idx].count < m->max_merge;
}

static inline const gm_mshr_entry *gm_mshr_entry_at(const gm_mshr *m, int32_t idx)
{
    return &m->e[idx];
}

/* New entry for addr (which must not have one) with the given primary
 * (may be NULL when the fetch is not one of the waiting requests).
 * Returns the entry index, or -1 when every entry is in use. */
int32_t gm_mshr_allocate(gm_mshr *m, uint64_t addr, gm_req *primary);
/* Appends r to entry idx. Returns 0, or -1 when the entry is full. */
int gm_mshr_merge(gm_mshr *m, int32_t idx, gm_req *r);
/* Frees entry idx and returns every request it held, primary first, then
 * the merged ones in arrival order, linked through next (NULL-terminated).
 * Call it when the primary is back and no longer linked anywhere. */
gm_req *gm_mshr_release(gm_mshr *m, int32_t idx);

#endif
