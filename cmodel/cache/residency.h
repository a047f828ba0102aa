/* gm_residency: how many L1 caches hold each line, system-wide.
 *
 * The system owns one map and hands it to every L1; an L1 adds a line when
 * it installs it and removes it when the line is evicted or invalidated.
 * Two counters make the replication metrics O(1):
 *   total_resident_lines  sum over lines of the number of L1s holding it
 *                         (= valid lines in all L1s together)
 *   distinct_lines        lines held by at least one L1
 * copies per resident line = total / distinct, replicas = copies - 1; an L1
 * miss is a replication miss when gm_residency_count(line) > 0 at the miss.
 *
 * Open addressing with linear probing and backward-shift deletion (no
 * tombstones), grown to keep the load at most 1/2. Keys are 128 B line
 * numbers. */
#ifndef GM_CACHE_RESIDENCY_H
#define GM_CACHE_RESIDENCY_H

#include <stdint.h>

#include "sim/error.h"

typedef struct gm_residency {
    uint64_t *key;      /* line number + 1; 0 = empty slot */
    uint32_t *count;    /* L1s holding the line */
    uint32_t cap;       /* power of two */
    uint32_t shift;     /* 64 - log2(cap), for the hash */
    uint32_t distinct_lines;
    uint64_t total_resident_lines;
} gm_residency;

int gm_residency_init(gm_residency *r, gm_error *err);
void gm_residency_free(gm_residency *r);

/* L1s holding addr's line now. */
uint32_t gm_residency_count(const gm_residency *r, uint64_t addr);
/* One more L1 holds the line. Returns 0, or -1 when the table could not
 * grow (out of memory; the map is then unchanged). */
int gm_residency_add(gm_residency *r, uint64_t addr);
/* One L1 fewer holds the line; the line must be resident. */
void gm_residency_remove(gm_residency *r, uint64_t addr);

#endif
