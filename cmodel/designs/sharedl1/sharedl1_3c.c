#include "designs/sharedl1/sharedl1_3c.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

int gm_3c_init(gm_3c *c, uint32_t lines, gm_error *err)
{
    memset(c, 0, sizeof *c);
    if (lines == 0)
        return gm_fail(err, "3C classifier: a cache of 0 lines");
    c->lines = lines;
    c->nbuckets = 1;
    while (c->nbuckets < 2 * lines)
        c->nbuckets <<= 1;
    c->seen_cap = 1024;
    c->node = calloc(lines, sizeof *c->node);
    c->bucket = malloc(c->nbuckets * sizeof *c->bucket);
    c->seen = calloc(c->seen_cap, sizeof *c->seen);
    if (!c->node || !c->bucket || !c->seen) {
        gm_3c_free(c);
        return gm_fail(err, "3C classifier: out of memory for %u lines", lines);
    }
    for (uint32_t i = 0; i < c->nbuckets; i++)
        c->bucket[i] = -1;
    /* free list through next */
    for (uint32_t i = 0; i < lines; i++)
        c->node[i].next = i + 1 < lines ? (int32_t)(i + 1) : -1;
    c->free_head = 0;
    c->mru = c->lru = -1;
    return 0;
}

void gm_3c_free(gm_3c *c)
{
    free(c->node);
    free(c->bucket);
    free(c->seen);
    c->node = NULL;
    c->bucket = NULL;
    c->seen = NULL;
}

/* ---- lines ever seen ------------------------------------------------------ */

static bool seen_grow(gm_3c *c)
{
    uint64_t cap = c->seen_cap * 2;
    uint64_t *n = calloc(cap, sizeof *n);
    if (!n)
        return false;
    for (uint64_t i = 0; i < c->seen_cap; i++) {
        uint64_t v = c->seen[i];
        if (!v)
            continue;
        uint64_t h = mix(v) & (cap - 1);
        while (n[h])
            h = (h + 1) & (cap - 1);
        n[h] = v;
    }
    free(c->seen);
    c->seen = n;
    c->seen_cap = cap;
    return true;
}

/* Marks line seen; returns whether it was seen before. */
static bool seen_insert(gm_3c *c, uint64_t line)
{
    uint64_t v = line + 1, h = mix(v) & (c->seen_cap - 1);
    while (c->seen[h]) {
        if (c->seen[h] == v)
            return true;
        h = (h + 1) & (c->seen_cap - 1);
    }
    /* keep the load factor at most 1/2 so probes stay short */
    if (2 * (c->seen_used + 1) > c->seen_cap) {
        if (!seen_grow(c)) {
            c->oom = true;
            return false;
        }
        return seen_insert(c, line);
    }
    c->seen[h] = v;
    c->seen_used++;
    return false;
}

/* ---- the fully associative LRU shadow ------------------------------------ */

static uint32_t bucket_of(const gm_3c *c, uint64_t line)
{
    return (uint32_t)(mix(line) & (c->nbuckets - 1));
}

static int32_t fa_find(const gm_3c *c, uint64_t line)
{
    for (int32_t i = c->bucket[bucket_of(c, line)]; i >= 0; i = c->node[i].chain)
        if (c->node[i].line == line)
            return i;
    return -1;
}

static void list_unlink(gm_3c *c, int32_t i)
{
    gm_3c_node *n = &c->node[i];
    if (n->prev >= 0)
        c->node[n->prev].next = n->next;
    else
        c->mru = n->next;
    if (n->next >= 0)
        c->node[n->next].prev = n->prev;
    else
        c->lru = n->prev;
}

static void list_push_mru(gm_3c *c, int32_t i)
{
    c->node[i].prev = -1;
    c->node[i].next = c->mru;
    if (c->mru >= 0)
        c->node[c->mru].prev = i;
    c->mru = i;
    if (c->lru < 0)
        c->lru = i;
}

static void chain_unlink(gm_3c *c, int32_t i)
{
    int32_t *p = &c->bucket[bucket_of(c, c->node[i].line)];
    while (*p != i)
        p = &c->node[*p].chain;
    *p = c->node[i].chain;
}

static void fa_remove(gm_3c *c, int32_t i)
{
    list_unlink(c, i);
    chain_unlink(c, i);
    c->node[i].next = c->free_head;
    c->free_head = i;
    c->used--;
}

/* Accesses line in the shadow; returns whether it hit. A miss installs
 * the line as MRU, evicting the LRU line when full. */
static bool fa_access(gm_3c *c, uint64_t line)
{
    int32_t i = fa_find(c, line);
    if (i >= 0) {
        list_unlink(c, i);
        list_push_mru(c, i);
        return true;
    }
    if (c->used == c->lines)
        fa_remove(c, c->lru);
    i = c->free_head;
    c->free_head = c->node[i].next;
    c->used++;
    c->node[i].line = line;
    uint32_t b = bucket_of(c, line);
    c->node[i].chain = c->bucket[b];
    c->bucket[b] = i;
    list_push_mru(c, i);
    return false;
}

/* ---- classification ------------------------------------------------------ */

gm_3c_class gm_3c_load(gm_3c *c, uint64_t line, bool real_miss)
{
    bool seen = seen_insert(c, line);
    bool fa_hit = fa_access(c, line);
    gm_3c_class k = GM_3C_HIT;
    if (real_miss)
        k = !seen ? GM_3C_COMPULSORY : !fa_hit ? GM_3C_CAPACITY : GM_3C_CONFLICT;
    c->count[k]++;
    return k;
}

void gm_3c_touch(gm_3c *c, uint64_t line)
{
    seen_insert(c, line);
    fa_access(c, line);
}

void gm_3c_store(gm_3c *c, uint64_t line)
{
    int32_t i = fa_find(c, line);
    if (i >= 0)
        fa_remove(c, i);
}
