/* The [sharedl1] section: key rows, cross-key rules and the shared
 * cache's geometry (docs/designs/sharedl1.md section 5). */
#include "designs/sharedl1/sharedl1.h"

#define AS GM_SRC_ASSUMED

/* gm_sharedl1_grow order */
static const char *const grow_names[] = { "sets", "ways", NULL };
/* gm_sharedl1_links order */
static const char *const links_names[] = { "core", "group", NULL };

const gm_config_section gm_sharedl1_section = {
    "sharedl1", "Shared L1 (`[design] kind = sharedl1`): every SF consecutive cores share "
                "one L1 of SF x the [l1] size, one port per core, misses merged across the "
                "cores; request and reply crossbars to the L2 slices use the [noc] "
                "parameters (docs/designs/sharedl1.md)."
};

const gm_config_key gm_sharedl1_keys[GM_SHAREDL1_NKEYS] = {
    GM_CFG_U32("sharedl1", sharedl1.sf, "sf", 1, 1, 16, AS, "cores",
               "Sharing factor: cores per shared L1, 1, 2, 4, 8 or 16 (seed); must divide "
               "[core] num_cores."),
    GM_CFG_ENUM("sharedl1", sharedl1.grow, "grow", GM_SHAREDL1_SETS, grow_names, AS,
                "How a shared L1 holds SF x the [l1] size: SF x the sets, or SF x the ways."),
    GM_CFG_ENUM("sharedl1", sharedl1.l2_links, "l2_links", GM_SHAREDL1_LINKS_CORE, links_names,
                AS, "Links of a shared L1 to the request and reply crossbars: core (one "
                "pair per core, the crossbar ports SF private L1s had) or group (one pair "
                "per shared L1, a round-robin arbiter over its cores' misses)."),
    GM_CFG_U32("sharedl1", sharedl1.classify, "classify", 1, 0, 1, AS, "",
               "1: classify L1 misses as compulsory / capacity / conflict with a shadow "
               "fully associative LRU cache per shared L1 (no effect on timing)."),
};

int gm_sharedl1_validate(const gm_config *c, gm_error *err)
{
    const gm_sharedl1_cfg *s = &c->sharedl1;
    if (s->sf & (s->sf - 1))
        return gm_fail(err, "[sharedl1] sf = %u must be 1, 2, 4, 8 or 16", s->sf);
    if (c->core.num_cores % s->sf)
        return gm_fail(err, "[sharedl1] sf = %u must divide [core] num_cores = %u", s->sf,
                       c->core.num_cores);
    if (s->grow == GM_SHAREDL1_WAYS && c->l1.assoc * s->sf > 256)
        return gm_fail(err, "[sharedl1] grow = ways: %u x [l1] assoc = %u ways is more "
                            "than 256", s->sf, c->l1.assoc);
    if ((uint64_t)c->l1.size_bytes * s->sf > UINT32_MAX ||
        (uint64_t)c->l1.mshr_entries * s->sf > 1u << 20 ||
        (uint64_t)c->l1.mshr_merge * s->sf > 1u << 20)
        return gm_fail(err, "[sharedl1] sf = %u: the shared L1 (%u x [l1] size, MSHR "
                            "entries and merges) is too large", s->sf, s->sf);
    return 0;
}

gm_cache_cfg gm_sharedl1_cache_cfg(const gm_config *c)
{
    gm_cache_cfg g = c->l1;
    uint32_t sf = c->sharedl1.sf;
    g.size_bytes *= sf;
    if (c->sharedl1.grow == GM_SHAREDL1_WAYS)
        g.assoc *= sf;
    /* SF cores' worth of misses in flight, as SF private L1s would have */
    g.mshr_entries *= sf;
    g.mshr_merge *= sf;
    return g;
}
