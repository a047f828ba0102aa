/* The aggregated tag array of one cluster (ATA seed section III-B), as the
 * C side of rtl/gm_ata_tags.sv: the tag arrays of the cluster's K L1s,
 * compared in parallel against one request, giving a hit vector with bit k
 * set when L1 k holds the request's line with every asked sector valid.
 *
 * The tag arrays themselves stay in the L1s' cache engines (one LRU, one
 * residency map); this block only reads them. The seed's banking (each set
 * in its own bank, so K requests to K different sets never conflict) and
 * its tag selectors are what make "every array compared for every request
 * in the same cycle" true; the only limit the seed leaves is how many
 * requests the array takes per cycle, [ata] tag_ports, counted here. */
#ifndef GM_DESIGNS_ATA_TAGS_H
#define GM_DESIGNS_ATA_TAGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/mshr.h"
#include "cache/tag_array.h"
#include "designs/ata/ata_tagblk.h"
#include "sim/clock.h"

typedef struct gm_ata_tags {
    gm_tag_array *const *arrays; /* [k] the L1s' tag arrays, in cluster order */
    gm_mshr *const *mshrs;       /* [k] their MSHR tables, for statistics only (a line
                                    being fetched is not in the hit vector) */
    uint32_t k;
    uint32_t ports;              /* requests per cycle */
    /* The RTL twin's C block (ata_tagblk.h) kept in step with the arrays:
     * every tag change of an L1 is applied to it through its update port,
     * and every lookup's hit vector and every fill's victim are compared
     * with it. NULL: not kept. */
    gm_ata_tblk *blk;
    uint64_t blk_checks, blk_mismatches;
    /* System co-simulation: the block's RTL, whose outputs then stand for
     * the block's (the C block runs in shadow), or NULL. The block is
     * clocked once per tag change or lookup, not every core cycle, so a
     * twin's cycle is the block's edge count, `edges`. */
    const gm_ata_tblk_twin *twin;
    uint64_t edges;
    gm_time cycle;               /* edge the count below belongs to */
    uint32_t used;               /* requests taken at `cycle` */
} gm_ata_tags;

/* Bit i: arrays[i] holds addr's line with every sector of `need` valid. */
uint32_t gm_ata_hit_vector(const gm_ata_tags *t, uint64_t addr, uint8_t need);

/* Whether a request can take a comparator port at now; take_port takes it. */
static inline bool gm_ata_tags_port_free(const gm_ata_tags *t, gm_time now)
{
    return t->cycle != now || t->used < t->ports;
}

static inline void gm_ata_tags_take_port(gm_ata_tags *t, gm_time now)
{
    if (t->cycle != now) {
        t->cycle = now;
        t->used = 0;
    }
    t->used++;
}

/* Applies a tag change of array n (GM_ATA_OP_*) to the block; for a fill
 * that replaced a line, victim_line is the line address / 128 the tag
 * array evicted (else UINT64_MAX), compared with the block's choice. */
void gm_ata_tags_mirror(gm_ata_tags *t, uint32_t n, uint8_t op, uint64_t addr,
                        uint8_t sectors, uint64_t victim_line);
/* Compares hit vector hv of (addr, need) with the block's. */
void gm_ata_tags_check(gm_ata_tags *t, uint64_t addr, uint8_t need, uint32_t hv);

/* The remote L1 a request from `local` reads on a local miss with hit
 * vector hv: the first set bit after local, going round (local+1, ...,
 * k-1, 0, ..., local-1), so the remote reads of one cluster spread over
 * its L1s instead of piling on the lowest index. -1 when hv has no bit
 * other than local. */
int32_t gm_ata_pick_remote(uint32_t hv, uint32_t local, uint32_t k);

#endif
