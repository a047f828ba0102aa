/* SelRep decision logic: slice hash, replica routing, RDD and bandwidth
 * model (selrep_rdd.h; docs/designs/selrep.md sections 2 and 4). */
#include "designs/selrep/selrep_rdd.h"

#include <stdlib.h>
#include <string.h>

static bool pow2(uint32_t x)
{
    return x && !(x & (x - 1));
}

static uint32_t log2u(uint32_t x)
{
    uint32_t n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

int gm_selrep_geom_init(gm_selrep_geom *g, uint32_t slices, uint32_t mcs, uint32_t clusters,
                        uint32_t chunk_bytes, bool hash, gm_error *err)
{
    memset(g, 0, sizeof *g);
    if (!mcs || slices % mcs)
        return gm_fail(err, "[selrep] mc_routers = %u must divide [l2] slices = %u", mcs,
                       slices);
    uint32_t per = slices / mcs;
    if (!pow2(per) || per > GM_SELREP_MAX_SLICES)
        return gm_fail(err, "[selrep] slices per MC-router = %u must be a power of two "
                            "up to %u", per, GM_SELREP_MAX_SLICES);
    if (!pow2(clusters) || clusters > 64)
        return gm_fail(err, "[core] clusters = %u must be a power of two up to 64 for "
                            "selrep (replica groups split the SM-clusters)", clusters);
    if (hash && !pow2(slices))
        return gm_fail(err, "[selrep] hash = 1 needs a power-of-two [l2] slices (%u)", slices);
    if (!chunk_bytes)
        return gm_fail(err, "selrep: zero interleaving chunk");
    g->slices = slices;
    g->mcs = mcs;
    g->per_mc = per;
    g->clusters = clusters;
    g->chunk_bytes = chunk_bytes;
    g->hash = hash;
    g->slice_bits = hash ? log2u(slices) : 0;
    uint32_t maxd = per < clusters ? per : clusters;
    g->ndeg = log2u(maxd) + 1;
    if (g->ndeg > GM_SELREP_MAX_DEG)
        g->ndeg = GM_SELREP_MAX_DEG;
    return 0;
}

uint32_t gm_selrep_hash_slice(const gm_selrep_geom *g, uint64_t addr)
{
    uint64_t chunk = addr / g->chunk_bytes;
    if (!g->hash)
        return (uint32_t)(chunk % g->slices);
    uint32_t b = g->slice_bits;
    if (b == 0)
        return 0;
    uint64_t mask = ((uint64_t)1 << b) - 1;
    uint64_t h = chunk & mask;
    for (uint64_t hi = chunk >> b; hi; hi >>= b)
        h ^= hi & mask;
    return (uint32_t)h;
}

/* ---- RDD ---------------------------------------------------------------- */

int gm_selrep_rdd_init(gm_selrep_rdd *r, const gm_selrep_geom *g, uint32_t sets,
                       uint32_t ways, uint32_t counter_bits, bool capacity, gm_error *err)
{
    memset(r, 0, sizeof *r);
    if (!sets || !ways || counter_bits < 1 || counter_bits > 32)
        return gm_fail(err, "selrep RDD: bad geometry (%u sets, %u ways, %u-bit counters)",
                       sets, ways, counter_bits);
    r->e = calloc((size_t)sets * ways, sizeof *r->e);
    if (!r->e)
        return gm_fail(err, "out of memory");
    r->sets = sets;
    r->ways = ways;
    r->clusters = g->clusters;
    r->counter_max = counter_bits == 32 ? UINT32_MAX : (1u << counter_bits) - 1;
    r->capacity = capacity;
    for (uint32_t i = 0; i < sets * ways; i++)
        r->e[i].lru = i % ways;
    r->c.ndeg = g->ndeg;
    r->c.per_mc = g->per_mc;
    return 0;
}

void gm_selrep_rdd_free(gm_selrep_rdd *r)
{
    free(r->e);
    r->e = NULL;
}

static void sat_inc(uint32_t *x, uint32_t max)
{
    if (*x < max)
        (*x)++;
}

/* The ClusterID bits of the replica group of `cluster` under degree index
 * d: the clusters >> d clusters that share one replica. */
static uint64_t group_bits(uint32_t clusters, uint32_t cluster, uint32_t d)
{
    uint32_t n = clusters >> d;
    uint64_t ones = n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    return ones << (cluster / n * n);
}

void gm_selrep_rdd_access(gm_selrep_rdd *r, uint32_t set, uint64_t tag, uint32_t cluster)
{
    gm_selrep_rdd_entry *s = &r->e[(size_t)set * r->ways];
    sat_inc(&r->c.acc, r->counter_max);
    int32_t way = -1;
    for (uint32_t w = 0; w < r->ways; w++)
        if (s[w].valid && s[w].tag == tag)
            way = (int32_t)w;
    if (way >= 0) {
        for (uint32_t d = 0; d < r->c.ndeg; d++) {
            bool hit = (s[way].cluster_ids & group_bits(r->clusters, cluster, d)) != 0;
            /* A slice under degree 2^d holds the lines of 2^d home slices
             * for one cluster group: each gets ways / 2^d of a set. */
            if (r->capacity && s[way].lru >= (r->ways >> d))
                hit = false;
            if (hit)
                sat_inc(&r->c.hits[d], r->counter_max);
        }
        s[way].cluster_ids |= (uint64_t)1 << cluster;
    } else {
        for (uint32_t w = 0; w < r->ways; w++)
            if (s[w].lru == r->ways - 1)
                way = (int32_t)w;
        s[way] = (gm_selrep_rdd_entry){.tag = tag, .cluster_ids = (uint64_t)1 << cluster,
                                       .lru = s[way].lru, .valid = true};
    }
    uint32_t old = s[way].lru;
    for (uint32_t w = 0; w < r->ways; w++)
        if (s[w].lru < old)
            s[w].lru++;
    s[way].lru = 0;
}

void gm_selrep_rdd_count_request(gm_selrep_rdd *r, const gm_selrep_geom *g,
                                 uint32_t home_local, uint32_t cluster)
{
    for (uint32_t d = 0; d < r->c.ndeg; d++) {
        uint32_t t = gm_selrep_target(g, home_local, cluster, d);
        sat_inc(&r->c.req[d][t], r->counter_max);
    }
}

void gm_selrep_rdd_clear(gm_selrep_rdd *r)
{
    uint32_t ndeg = r->c.ndeg, per = r->c.per_mc;
    memset(&r->c, 0, sizeof r->c);
    r->c.ndeg = ndeg;
    r->c.per_mc = per;
}

/* ---- bandwidth model ---------------------------------------------------- */

static void req_sum_max(const gm_selrep_counters *c, uint32_t d, uint64_t *sum, uint64_t *max)
{
    *sum = 0;
    *max = 0;
    for (uint32_t i = 0; i < c->per_mc; i++) {
        *sum += c->req[d][i];
        if (c->req[d][i] > *max)
            *max = c->req[d][i];
    }
}

uint64_t gm_selrep_lsp(const gm_selrep_counters *c, uint32_t d)
{
    uint64_t sum, max;
    req_sum_max(c, d, &sum, &max);
    return max ? (sum << GM_SELREP_FRAC_BITS) / max : 0;
}

uint64_t gm_selrep_bandwidth(const gm_selrep_counters *c, uint32_t d, uint32_t b_llc,
                             uint32_t b_mem)
{
    uint64_t sum, max;
    req_sum_max(c, d, &sum, &max);
    /* No sampled access: H is 0/0, so the epoch predicts nothing and B = 0
     * for every degree, which keeps the degree in force (gm_selrep_pick). */
    if (!max || !c->acc)
        return 0;
    uint64_t acc = c->acc, hits = c->hits[d] < c->acc ? c->hits[d] : c->acc;
    uint64_t miss_llc = (acc - hits) * b_llc, miss_mem = acc * b_mem;
    uint64_t t = hits * b_llc + (miss_llc < miss_mem ? miss_llc : miss_mem);
    return ((sum * t) << GM_SELREP_FRAC_BITS) / (max * acc);
}

uint32_t gm_selrep_pick(const gm_selrep_counters *c, uint32_t b_llc, uint32_t b_mem,
                        uint32_t cand, uint32_t keep, uint64_t b[GM_SELREP_MAX_DEG])
{
    uint32_t best = keep;
    uint64_t best_b = 0;
    bool any = false;
    for (uint32_t d = 0; d < c->ndeg; d++) {
        uint64_t x = gm_selrep_bandwidth(c, d, b_llc, b_mem);
        if (b)
            b[d] = x;
        if (!(cand & (1u << d)) || !x)
            continue;
        if (!any || x > best_b) {
            best = d;
            best_b = x;
            any = true;
        }
    }
    return best;
}

uint32_t gm_selrep_max_counter_bits(uint32_t per_mc)
{
    /* sum R < per_mc * 2^b, T < 2^b * 2^10, times 2^16: needs
     * 2b + 26 + log2(per_mc) <= 64. */
    uint32_t l = log2u(per_mc);
    if (per_mc & (per_mc - 1))
        l++;
    return l + 26 >= 64 ? 0 : (64 - 26 - l) / 2;
}
