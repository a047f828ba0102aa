/* The SelRep LLC's decision logic, free of the system so that tests (and a
 * later RTL twin) can drive it alone (docs/designs/selrep.md):
 *
 *  - the PAE-style slice hash and the replica routing of a request,
 *  - the Replication Degree Directory (RDD): sampled sets of tags with a
 *    ClusterID bit vector each, a hit counter per degree, an access
 *    counter, and per degree one request counter per slice of its
 *    MC-router; saturating counters of `counter_bits` bits,
 *  - the epoch-end bandwidth model B = LSP * (H*B_LLC + min((1-H)*B_LLC,
 *    B_mem)) in exact integer arithmetic.
 *
 * Degrees are 1, 2, 4, ... up to max_degree (the smaller of SM-clusters
 * and slices per MC-router), indexed by their log2. */
#ifndef GM_DESIGNS_SELREP_RDD_H
#define GM_DESIGNS_SELREP_RDD_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

#define GM_SELREP_MAX_DEG 8u       /* degree indices 0..7: degrees up to 128 */
#define GM_SELREP_MAX_SLICES 64u   /* slices per MC-router the RDD counts */
#define GM_SELREP_FRAC_BITS 16u    /* fractional bits of the bandwidth B */

/* ---- geometry, hash and routing ---- */

typedef struct gm_selrep_geom {
    uint32_t slices;          /* L2 slices, all MC-routers */
    uint32_t mcs;             /* MC-routers */
    uint32_t per_mc;          /* slices per MC-router */
    uint32_t clusters;        /* SM-clusters (SM-routers) */
    uint32_t ndeg;            /* degrees 1 .. 1 << (ndeg - 1) */
    uint32_t chunk_bytes;     /* interleaving chunk ([dram] partition_bytes) */
    uint32_t slice_bits;      /* log2(slices) when hashing, else 0 */
    bool hash;
} gm_selrep_geom;

/* Fails unless slices and clusters split evenly and, when hashing, the
 * slice count is a power of two; per_mc and clusters must be powers of
 * two (degrees divide both). */
int gm_selrep_geom_init(gm_selrep_geom *g, uint32_t slices, uint32_t mcs, uint32_t clusters,
                        uint32_t chunk_bytes, bool hash, gm_error *err);

/* PAE-style XOR hash on chunk numbers: the low log2(slices) bits of the
 * chunk XOR every higher log2(slices)-bit digit. For every value of the
 * high digits it permutes the low digit, so it is a bijection on chunks
 * and deals every aligned group of `slices` chunks one to each slice. */
uint32_t gm_selrep_hash_slice(const gm_selrep_geom *g, uint64_t addr);

/* The slice that serves a replicable request of `cluster` for a line whose
 * home is `home`, under degree 1 << deg: the MC-router's slices split into
 * 1 << deg replica groups of per_mc >> deg slices, the clusters into as
 * many groups; cluster group k uses the slice of group k at the home's
 * offset within its group. deg 0 gives home. */
static inline uint32_t gm_selrep_target(const gm_selrep_geom *g, uint32_t home,
                                        uint32_t cluster, uint32_t deg)
{
    uint32_t span = g->per_mc >> deg;
    uint32_t group = cluster / (g->clusters >> deg);
    return home - home % g->per_mc + home % span + group * span;
}

/* ---- the RDD ---- */

typedef struct gm_selrep_rdd_entry {
    uint64_t tag;             /* line address */
    uint64_t cluster_ids;     /* bit c: SM-cluster c accessed it since insertion */
    uint32_t lru;             /* 0 = most recent */
    bool valid;
} gm_selrep_rdd_entry;

/* What the RDD hands the model at an epoch end. */
typedef struct gm_selrep_counters {
    uint32_t ndeg, per_mc;
    uint32_t acc;                                   /* sampled accesses */
    uint32_t hits[GM_SELREP_MAX_DEG];               /* predicted hits per degree */
    uint32_t req[GM_SELREP_MAX_DEG][GM_SELREP_MAX_SLICES]; /* R_i per degree */
} gm_selrep_counters;

typedef struct gm_selrep_rdd {
    uint32_t sets, ways, clusters;
    uint32_t counter_max;     /* (1 << counter_bits) - 1 */
    bool capacity;            /* hit under degree d also needs lru < ways / d */
    gm_selrep_rdd_entry *e;   /* [sets * ways] */
    gm_selrep_counters c;
} gm_selrep_rdd;

int gm_selrep_rdd_init(gm_selrep_rdd *r, const gm_selrep_geom *g, uint32_t sets,
                       uint32_t ways, uint32_t counter_bits, bool capacity, gm_error *err);
void gm_selrep_rdd_free(gm_selrep_rdd *r);
/* A read-only access of `cluster` to sampled set `set`: counts the access
 * and the degrees it would hit under, then updates tags, ClusterIDs and
 * LRU (insertion at most recent, the least recent way replaced). */
void gm_selrep_rdd_access(gm_selrep_rdd *r, uint32_t set, uint64_t tag, uint32_t cluster);
/* A read-only request whose home is local slice `home_local` of the RDD's
 * MC-router: counts, per degree, the slice it would be sent to. */
void gm_selrep_rdd_count_request(gm_selrep_rdd *r, const gm_selrep_geom *g,
                                 uint32_t home_local, uint32_t cluster);
/* Clears the counters (tags and ClusterIDs stay) for the next epoch. */
void gm_selrep_rdd_clear(gm_selrep_rdd *r);

/* ---- the bandwidth model ---- */

/* B of degree index d as an unsigned fixed-point number with
 * GM_SELREP_FRAC_BITS fractional bits, rounded down:
 *   floor( (sum R * T) * 2^16 / (max R * acc) ),
 *   T = hits * b_llc + min((acc - hits) * b_llc, acc * b_mem),
 * which is LSP * (H * B_LLC + min((1-H) * B_LLC, B_mem)) with LSP = sum R /
 * max R and H = hits / acc. B is 0 without a sampled access (no hit rate
 * to predict) or without a request. */
uint64_t gm_selrep_bandwidth(const gm_selrep_counters *c, uint32_t d, uint32_t b_llc,
                             uint32_t b_mem);
/* LSP of degree index d, same fixed point (0 without requests). */
uint64_t gm_selrep_lsp(const gm_selrep_counters *c, uint32_t d);
/* The degree index among those in `cand` (bit d: degree index d may be
 * chosen) with the largest B; ties go to the smallest degree (least
 * capacity given up). Returns `keep` when every B is 0 (no request or no
 * sampled access in the epoch). b[]
 * (may be NULL) gets B of every degree index. */
uint32_t gm_selrep_pick(const gm_selrep_counters *c, uint32_t b_llc, uint32_t b_mem,
                        uint32_t cand, uint32_t keep, uint64_t b[GM_SELREP_MAX_DEG]);
/* The largest counter width for which no intermediate of
 * gm_selrep_bandwidth can overflow 64 bits with per_mc slices and
 * bandwidths up to GM_SELREP_MAX_BW. */
#define GM_SELREP_MAX_BW 1023u
uint32_t gm_selrep_max_counter_bits(uint32_t per_mc);

#endif
