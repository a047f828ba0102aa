#include "cache/residency.h"

#include <assert.h>
#include <stdlib.h>

#define INITIAL_CAP 4096u
#define LINE_SHIFT 7 /* keys are 128 B line numbers */

static inline uint64_t key_of(uint64_t addr)
{
    return (addr >> LINE_SHIFT) + 1;
}

static inline uint32_t home_of(const gm_residency *r, uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> r->shift);
}

static int alloc_table(gm_residency *r, uint32_t cap)
{
    r->key = calloc(cap, sizeof *r->key);
    r->count = calloc(cap, sizeof *r->count);
    if (!r->key || !r->count) {
        free(r->key);
        free(r->count);
        r->key = 0;
        r->count = 0;
        return -1;
    }
    r->cap = cap;
    r->shift = 64;
    for (uint32_t c = cap; c > 1; c >>= 1)
        r->shift--;
    return 0;
}

int gm_residency_init(gm_residency *r, gm_error *err)
{
    *r = (gm_residency){0};
    if (alloc_table(r, INITIAL_CAP) != 0)
        return gm_fail(err, "out of memory for the L1 residency map");
    return 0;
}

void gm_residency_free(gm_residency *r)
{
    free(r->key);
    free(r->count);
    *r = (gm_residency){0};
}

/* Slot holding key, or the empty slot where it would go. */
static uint32_t find_slot(const gm_residency *r, uint64_t key)
{
    uint32_t mask = r->cap - 1;
    uint32_t i = home_of(r, key);
    while (r->key[i] && r->key[i] != key)
        i = (i + 1) & mask;
    return i;
}

static int grow(gm_residency *r)
{
    gm_residency old = *r;
    if (old.cap > UINT32_MAX / 2 || alloc_table(r, old.cap * 2) != 0) {
        *r = old;
        return -1;
    }
    for (uint32_t i = 0; i < old.cap; i++) {
        if (!old.key[i])
            continue;
        uint32_t j = find_slot(r, old.key[i]);
        r->key[j] = old.key[i];
        r->count[j] = old.count[i];
    }
    free(old.key);
    free(old.count);
    return 0;
}

uint32_t gm_residency_count(const gm_residency *r, uint64_t addr)
{
    uint32_t i = find_slot(r, key_of(addr));
    return r->key[i] ? r->count[i] : 0;
}

int gm_residency_add(gm_residency *r, uint64_t addr)
{
    uint64_t key = key_of(addr);
    uint32_t i = find_slot(r, key);
    if (!r->key[i]) {
        if (2 * (r->distinct_lines + 1) > r->cap) {
            if (grow(r) != 0)
                return -1;
            i = find_slot(r, key);
        }
        r->key[i] = key;
        r->count[i] = 0;
        r->distinct_lines++;
    }
    r->count[i]++;
    r->total_resident_lines++;
    return 0;
}

void gm_residency_remove(gm_residency *r, uint64_t addr)
{
    uint32_t mask = r->cap - 1;
    uint32_t i = find_slot(r, key_of(addr));
    assert(r->key[i] && r->count[i] > 0);
    if (!r->key[i])
        return;
    r->total_resident_lines--;
    if (--r->count[i])
        return;
    r->distinct_lines--;
    /* Backward-shift deletion: pull later members of the probe run into the
     * hole when the hole lies between their home slot and where they are. */
    for (uint32_t j = (i + 1) & mask; r->key[j]; j = (j + 1) & mask) {
        uint32_t h = home_of(r, r->key[j]);
        if (((j - h) & mask) >= ((j - i) & mask)) {
            r->key[i] = r->key[j];
            r->count[i] = r->count[j];
            i = j;
        }
    }
    r->key[i] = 0;
    r->count[i] = 0;
}
