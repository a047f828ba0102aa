#include "cache/mshr.h"

#include <assert.h>
#include <stdlib.h>

#include "cache/tag_array.h"

static uint32_t bucket_of(const gm_mshr *m, uint64_t addr)
{
    /* Fibonacci hashing of the line number; the top bits are well mixed. */
    uint64_t h = (addr >> 5) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32) & (m->nbuckets - 1);
}

int gm_mshr_init(gm_mshr *m, uint32_t entries, uint32_t max_merge, gm_error *err)
{
    *m = (gm_mshr){0};
    if (entries == 0 || entries > (1u << 24))
        return gm_fail(err, "MSHR entries %u: must be 1..%u", entries, 1u << 24);
    if (max_merge == 0)
        return gm_fail(err, "MSHR merge limit must be at least 1");
    m->nbuckets = 1;
    while (m->nbuckets < 2 * entries)
        m->nbuckets <<= 1;
    m->e = calloc(entries, sizeof *m->e);
    m->bucket = malloc(m->nbuckets * sizeof *m->bucket);
    if (!m->e || !m->bucket) {
        gm_mshr_free(m);
        return gm_fail(err, "out of memory for %u MSHR entries", entries);
    }
    for (uint32_t i = 0; i < m->nbuckets; i++)
        m->bucket[i] = -1;
    for (uint32_t i = 0; i < entries; i++)
        m->e[i].next = i + 1 < entries ? (int32_t)(i + 1) : -1;
    m->free_head = 0;
    m->entries = entries;
    m->max_merge = max_merge;
    return 0;
}

void gm_mshr_free(gm_mshr *m)
{
    free(m->e);
    free(m->bucket);
    m->e = 0;
    m->bucket = 0;
}

int32_t gm_mshr_lookup(const gm_mshr *m, uint64_t addr)
{
    for (int32_t i = m->bucket[bucket_of(m, addr)]; i >= 0; i = m->e[i].next)
        if (m->e[i].addr == addr)
            return i;
    return -1;
}

int32_t gm_mshr_allocate(gm_mshr *m, uint64_t addr, gm_req *primary)
{
    assert(gm_mshr_lookup(m, addr) < 0);
    int32_t i = m->free_head;
    if (i < 0)
        return -1;
    gm_mshr_entry *e = &m->e[i];
    m->free_head = e->next;
    uint32_t b = bucket_of(m, addr);
    *e = (gm_mshr_entry){.addr = addr, .primary = primary, .count = primary ? 1 : 0,
                         .next = m->bucket[b], .in_use = 1, .fetch = GM_TAG_ALL_SECTORS,
                         .asked = primary ? primary->sectors : 0};
    m->bucket[b] = i;
    m->used++;
    return i;
}

int gm_mshr_merge(gm_mshr *m, int32_t idx, gm_req *r)
{
    gm_mshr_entry *e = &m->e[idx];
    assert(e->in_use);
    if (e->count >= m->max_merge)
        return -1;
    gm_req_fifo_push(&e->merged, r);
    e->count++;
    return 0;
}

gm_req *gm_mshr_release(gm_mshr *m, int32_t idx)
{
    gm_mshr_entry *e = &m->e[idx];
    assert(e->in_use);
    int32_t *p = &m->bucket[bucket_of(m, e->addr)];
    while (*p != idx)
        p = &m->e[*p].next;
    *p = e->next;

    gm_req *list = e->merged.head;
    if (e->primary) {
        e->primary->next = list;
        list = e->primary;
    }
    *e = (gm_mshr_entry){.next = m->free_head};
    m->free_head = idx;
    m->used--;
    return list;
}
