/* The 3C classifier of one shared L1: every primary load miss is
 * compulsory (the line was never accessed by this cache before), capacity
 * (a fully associative LRU cache of the same number of lines, fed the same
 * access stream, would miss too) or conflict (the rest).
 *
 * It is a shadow: it sees the cache's accepted accesses and decides
 * nothing, so it cannot change timing. Stores write-evict in the real
 * cache and do the same in the shadow (the fully associative cache of the
 * definition has the cache's write policy).
 *
 * Storage: the shadow's lines are a doubly linked LRU list over a fixed
 * node array with a chained hash index; the set of lines ever seen is an
 * open-addressing hash set that grows (it only ever holds line numbers). */
#ifndef GM_DESIGNS_SHAREDL1_3C_H
#define GM_DESIGNS_SHAREDL1_3C_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

typedef enum gm_3c_class {
    GM_3C_HIT = 0,         /* the real cache hit (nothing to classify) */
    GM_3C_COMPULSORY,
    GM_3C_CAPACITY,
    GM_3C_CONFLICT,
    GM_3C_COUNT
} gm_3c_class;

typedef struct gm_3c_node {
    uint64_t line;
    int32_t prev, next;     /* LRU list, -1 = end */
    int32_t chain;          /* hash chain, -1 = end */
} gm_3c_node;

typedef struct gm_3c {
    /* shadow fully associative LRU cache */
    gm_3c_node *node;       /* [lines] */
    int32_t *bucket;        /* [nbuckets] chain heads, -1 = empty */
    uint32_t lines, used, nbuckets;
    int32_t mru, lru, free_head;
    /* lines ever accessed */
    uint64_t *seen;         /* open addressing, 0 = empty slot (stores line + 1) */
    uint64_t seen_cap, seen_used;
    uint64_t count[GM_3C_COUNT];
    bool oom;               /* the seen set could not grow: counts are no longer exact */
} gm_3c;

/* A shadow of `lines` lines (>= 1). */
int gm_3c_init(gm_3c *c, uint32_t lines, gm_error *err);
void gm_3c_free(gm_3c *c);
/* A load of line (any unique line number) that the real cache found as a
 * hit (real_miss false) or as a primary miss (true). Updates the shadow and
 * returns and counts the class; a hit is GM_3C_HIT. */
gm_3c_class gm_3c_load(gm_3c *c, uint64_t line, bool real_miss);
/* A load the real cache merged into a pending fetch: the line is touched
 * in the shadow and marked seen, and nothing is counted. */
void gm_3c_touch(gm_3c *c, uint64_t line);
/* A store: write-evict in the shadow too. */
void gm_3c_store(gm_3c *c, uint64_t line);

#endif
