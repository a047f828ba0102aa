/* gm_tag_array: the tag store of a set-associative, sectored cache.
 *
 * Lines are line_bytes long (a power of two, 4 sectors each); a line is in
 * set (line number) % sets, so any positive set count works, not only
 * powers of two. Each way records the full line address, a last-use stamp
 * for exact LRU, a sector-valid mask and a sector-dirty mask.
 *
 * An array that only ever sees one owner's share of an interleaved address
 * space (an L2 slice, a home-sliced DC-L1 node) would use only a few sets
 * if indexed by the global line number. gm_tag_array_set_interleave makes
 * the line number the dense owner-local one: with chunks of chunk_bytes
 * dealt round robin over `owners`, local = (chunk / owners) * chunk_bytes +
 * addr % chunk_bytes (the partition bits removed, as GPGPU-Sim's L2 does).
 *
 * Replacement: an unused way if the set has one (lowest way first), else
 * the way with the smallest last-use stamp. Stamps come from one counter
 * per array that increases on every touch and allocation, so the order is
 * exact and there are no ties between used ways.
 *
 * Used by the L1D, the L2 slices and the designs' caches (ATA tag arrays,
 * CCN shadow tags); the array holds no data and knows nothing of MSHRs. */
#ifndef GM_CACHE_TAG_ARRAY_H
#define GM_CACHE_TAG_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

#define GM_TAG_SECTORS 4u
#define GM_TAG_ALL_SECTORS 0xfu
/* No line address has its low bits set (lines are at least 4 B). */
#define GM_TAG_NO_LINE UINT64_MAX

typedef struct gm_tag_line {
    uint64_t addr;      /* line address (low log2(line_bytes) bits zero) */
    uint64_t last_use;  /* LRU stamp; larger is more recent */
    uint8_t used;       /* the way holds a line (tag valid) */
    uint8_t valid;      /* sector-valid mask */
    uint8_t dirty;      /* sector-dirty mask, always a subset of valid */
} gm_tag_line;

typedef struct gm_tag_array {
    gm_tag_line *line;  /* sets * assoc ways, set-major */
    /* Per way, the line address if the way is used, else GM_TAG_NO_LINE:
     * a probe compares one packed word per way (a set of 8 ways is one
     * 64 B cache line instead of three), written with used and addr. */
    uint64_t *key;
    uint32_t sets;
    uint32_t assoc;
    uint32_t line_bytes;
    uint32_t line_shift;
    uint64_t set_mask;  /* sets - 1 when sets is a power of two, else 0 */
    uint32_t il_lines;  /* interleave chunk in lines (0 = no interleave) */
    uint32_t il_owners; /* owners the chunks are dealt over */
    uint64_t stamp;     /* source of last-use stamps */
    uint32_t lines_used;
    /* Optional observer of tag updates (allocate, invalidate): a copy of
     * the tags kept elsewhere (CCN shadow tags) is written with every
     * update, as the hardware writes both arrays. NULL: none. */
    void (*on_update)(void *ctx, int32_t idx, const struct gm_tag_line *l);
    void *on_update_ctx;
} gm_tag_array;

/* What an allocation pushed out. */
typedef struct gm_tag_victim {
    bool evicted;       /* a used way was replaced */
    uint64_t addr;
    uint8_t valid;
    uint8_t dirty;
} gm_tag_victim;

/* sets = size_bytes / (line_bytes * assoc); size_bytes must be a positive
 * multiple of line_bytes * assoc, line_bytes a power of two >= 4. */
int gm_tag_array_init(gm_tag_array *t, uint32_t size_bytes, uint32_t line_bytes,
                      uint32_t assoc, gm_error *err);
void gm_tag_array_free(gm_tag_array *t);

/* Index by the owner-local address (see above). chunk_bytes must be a
 * positive multiple of line_bytes, owners >= 1. */
int gm_tag_array_set_interleave(gm_tag_array *t, uint32_t chunk_bytes, uint32_t owners,
                                gm_error *err);

static inline uint32_t gm_tag_set(const gm_tag_array *t, uint64_t addr)
{
    uint64_t n = addr >> t->line_shift;
    if (t->il_lines) {
        uint64_t chunk = n / t->il_lines;
        n = chunk / t->il_owners * t->il_lines + n % t->il_lines;
    }
    return (uint32_t)(t->set_mask ? n & t->set_mask : n % t->sets);
}

static inline gm_tag_line *gm_tag_line_at(gm_tag_array *t, int32_t idx)
{
    return &t->line[idx];
}

static inline const gm_tag_line *gm_tag_line_const(const gm_tag_array *t, int32_t idx)
{
    return &t->line[idx];
}

/* Index of the way holding addr's line, or -1. No LRU update. */
int32_t gm_tag_probe(const gm_tag_array *t, uint64_t addr);
/* Makes way idx the most recently used of its set. */
void gm_tag_touch(gm_tag_array *t, int32_t idx);
/* gm_tag_probe, then gm_tag_touch on a hit. */
int32_t gm_tag_lookup(gm_tag_array *t, uint64_t addr);
/* The way gm_tag_allocate(addr) would take, without changing anything
 * (lets a block check a dirty victim's write-back can leave first). */
int32_t gm_tag_victim_way(const gm_tag_array *t, uint64_t addr);
/* Installs addr's line (which must not be present) in the way chosen by
 * gm_tag_victim_way, with no sector valid or dirty, as most recently used.
 * Describes the replaced line in *v (v may be NULL). Returns the way. */
int32_t gm_tag_allocate(gm_tag_array *t, uint64_t addr, gm_tag_victim *v);
/* Frees way idx (its valid and dirty sectors are lost). */
void gm_tag_invalidate(gm_tag_array *t, int32_t idx);

/* Sectors in a mask (its low GM_TAG_SECTORS bits). Nibble m of the
 * constant is popcount(m): one shift, no popcount instruction needed. */
static inline uint32_t gm_tag_sector_count(uint8_t mask)
{
    return (uint32_t)(0x4332322132212110ull >> (4u * (mask & GM_TAG_ALL_SECTORS))) & 0xfu;
}

/* True when every sector of mask is valid in way idx. */
static inline bool gm_tag_has_sectors(const gm_tag_array *t, int32_t idx, uint8_t mask)
{
    return (t->line[idx].valid & mask) == mask;
}

#endif
