#include "cache/tag_array.h"

#include <assert.h>
#include <stdlib.h>

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

int gm_tag_array_init(gm_tag_array *t, uint32_t size_bytes, uint32_t line_bytes,
                      uint32_t assoc, gm_error *err)
{
    *t = (gm_tag_array){0};
    if (!is_pow2(line_bytes) || line_bytes < GM_TAG_SECTORS)
        return gm_fail(err, "cache line of %u bytes: must be a power of two >= %u",
                       line_bytes, GM_TAG_SECTORS);
    if (assoc == 0)
        return gm_fail(err, "cache associativity must be at least 1");
    uint64_t set_bytes = (uint64_t)line_bytes * assoc;
    if (size_bytes == 0 || size_bytes % set_bytes != 0)
        return gm_fail(err,
                       "cache of %u bytes is not a positive multiple of line (%u B) x ways (%u)",
                       size_bytes, line_bytes, assoc);
    t->sets = (uint32_t)(size_bytes / set_bytes);
    t->assoc = assoc;
    t->line_bytes = line_bytes;
    while ((1u << t->line_shift) < line_bytes)
        t->line_shift++;
    t->set_mask = is_pow2(t->sets) ? t->sets - 1 : 0;
    /* With one set the mask is 0, which the modulo path handles (n % 1). */
    size_t ways = (size_t)t->sets * assoc;
    t->line = calloc(ways, sizeof *t->line);
    t->key = malloc(ways * sizeof *t->key);
    if (!t->line || !t->key) {
        gm_tag_array_free(t);
        return gm_fail(err, "out of memory for a %u-set tag array", t->sets);
    }
    for (size_t i = 0; i < ways; i++)
        t->key[i] = GM_TAG_NO_LINE;
    return 0;
}

int gm_tag_array_set_interleave(gm_tag_array *t, uint32_t chunk_bytes, uint32_t owners,
                                gm_error *err)
{
    if (chunk_bytes == 0 || chunk_bytes % t->line_bytes != 0)
        return gm_fail(err, "interleaving chunk of %u bytes: must be a positive multiple of"
                            " the %u B line", chunk_bytes, t->line_bytes);
    if (owners == 0)
        return gm_fail(err, "interleaving over 0 owners");
    t->il_lines = owners > 1 ? chunk_bytes / t->line_bytes : 0;
    t->il_owners = owners;
    return 0;
}

void gm_tag_array_free(gm_tag_array *t)
{
    free(t->line);
    free(t->key);
    t->line = 0;
    t->key = 0;
}

static inline uint64_t line_addr(const gm_tag_array *t, uint64_t addr)
{
    return addr & ~(uint64_t)(t->line_bytes - 1);
}

int32_t gm_tag_probe(const gm_tag_array *t, uint64_t addr)
{
    uint64_t a = line_addr(t, addr);
    uint32_t base = gm_tag_set(t, a) * t->assoc;
    const uint64_t *k = &t->key[base];
    for (uint32_t i = 0; i < t->assoc; i++)
        if (k[i] == a)
            return (int32_t)(base + i);
    return -1;
}

void gm_tag_touch(gm_tag_array *t, int32_t idx)
{
    t->line[idx].last_use = ++t->stamp;
}

int32_t gm_tag_lookup(gm_tag_array *t, uint64_t addr)
{
    int32_t idx = gm_tag_probe(t, addr);
    if (idx >= 0)
        gm_tag_touch(t, idx);
    return idx;
}

int32_t gm_tag_victim_way(const gm_tag_array *t, uint64_t addr)
{
    uint32_t base = gm_tag_set(t, line_addr(t, addr)) * t->assoc;
    const gm_tag_line *w = &t->line[base];
    uint32_t best = 0;
    for (uint32_t i = 0; i < t->assoc; i++) {
        if (!w[i].used)
            return (int32_t)(base + i);
        if (w[i].last_use < w[best].last_use)
            best = i;
    }
    return (int32_t)(base + best);
}

int32_t gm_tag_allocate(gm_tag_array *t, uint64_t addr, gm_tag_victim *v)
{
    assert(gm_tag_probe(t, addr) < 0);
    int32_t idx = gm_tag_victim_way(t, addr);
    gm_tag_line *l = &t->line[idx];
    if (v)
        *v = (gm_tag_victim){.evicted = l->used, .addr = l->addr,
                             .valid = l->used ? l->valid : 0,
                             .dirty = l->used ? l->dirty : 0};
    if (!l->used)
        t->lines_used++;
    l->used = 1;
    l->addr = line_addr(t, addr);
    t->key[idx] = l->addr;
    l->valid = 0;
    l->dirty = 0;
    l->last_use = ++t->stamp;
    if (t->on_update)
        t->on_update(t->on_update_ctx, idx, l);
    return idx;
}

void gm_tag_invalidate(gm_tag_array *t, int32_t idx)
{
    gm_tag_line *l = &t->line[idx];
    if (l->used)
        t->lines_used--;
    l->used = 0;
    t->key[idx] = GM_TAG_NO_LINE;
    l->valid = 0;
    l->dirty = 0;
    l->last_use = 0;
    if (t->on_update)
        t->on_update(t->on_update_ctx, idx, l);
}
