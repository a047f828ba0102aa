/* The [selrep] section: key rows and cross-key rules of the SelRep LLC
 * design (docs/designs/selrep.md section 6). */
#include "designs/selrep/selrep.h"

#include "designs/selrep/selrep_rdd.h"

#define AS GM_SRC_ASSUMED

/* gm_selrep_org order */
static const char *const org_names[] = { "shared", "private", "static", "selrep", "adaptive",
                                         NULL };
/* gm_selrep_fault order */
static const char *const fault_names[] = { "none", "replicate_all", "over_degree", NULL };

const gm_config_section gm_selrep_section = {
    "selrep", "SelRep LLC (`[design] kind = selrep`): private L1Ds, an H-Xbar of SM-routers "
              "and MC-routers, LLC slices that may hold replicas of read-only lines, a "
              "crossbar per MC-router to the channels of its HBM stack "
              "(docs/designs/selrep.md). The H-Xbar uses the [noc] parameters."
};

const gm_config_key gm_selrep_keys[GM_SELREP_NKEYS] = {
    GM_CFG_ENUM("selrep", selrep.org, "org", GM_SELREP_SHARED, org_names, AS,
                "LLC organization: shared (home slice only), private (read-only lines "
                "replicated per SM-cluster), static (`degree`; BSR picks the best offline), "
                "selrep (degree per epoch from the RDD), adaptive (shared or private)."),
    GM_CFG_U32("selrep", selrep.mc_routers, "mc_routers", 1, 1, 64, AS, "routers",
               "MC-routers, one per HBM stack (configs/selrep: the seed's 4); slices and "
               "channels split evenly."),
    GM_CFG_U32("selrep", selrep.degree, "degree", 1, 1, 64, AS, "slices",
               "org = static: replication degree, a power of two up to min(clusters, "
               "slices per MC-router)."),
    GM_CFG_U32("selrep", selrep.hash, "hash", 1, 0, 1, AS, "",
               "1: PAE-style XOR hash of chunk numbers to slices; 0: the linear map."),
    GM_CFG_U32("selrep", selrep.epoch_cycles, "epoch_cycles", 20000, 1, 1u << 30, AS,
               "core cycles", "Epoch length (seed: 20 K cycles)."),
    GM_CFG_U32("selrep", selrep.prop_delay, "prop_delay", 32, 0, 1u << 20, AS, "core cycles",
               "From an epoch's decision to its use by every router (seed: a few tens)."),
    GM_CFG_U32("selrep", selrep.rdd_sets, "rdd_sets", 2, 1, 64, AS, "sets",
               "Sampled sets of the RDD (seed: 2); ways = [l2] assoc."),
    GM_CFG_U32("selrep", selrep.rdd_capacity, "rdd_capacity", 1, 0, 1, AS, "",
               "1: a predicted hit under degree d also needs LRU position < ways / d "
               "(replicas share a set); 0: ClusterID match only, as the seed's text."),
    GM_CFG_U32("selrep", selrep.counter_bits, "counter_bits", 16, 4, 32, AS, "bits",
               "Width of the RDD's saturating counters (seed: 16)."),
    GM_CFG_U32("selrep", selrep.b_llc, "b_llc", 448, 1, GM_SELREP_MAX_BW, AS, "100 MB/s",
               "B_LLC: one slice's bandwidth (32 B x 1400 MHz = 44.8 GB/s)."),
    GM_CFG_U32("selrep", selrep.b_mem, "b_mem", 94, 1, GM_SELREP_MAX_BW, AS, "100 MB/s",
               "B_mem: one slice's share of DRAM bandwidth (600 GB/s / 64 = 9.4 GB/s)."),
    GM_CFG_U32("selrep", selrep.adaptive_period, "adaptive_period", 4, 1, 1u << 20, AS,
               "epochs", "org = adaptive: epochs spent private before one shared epoch "
               "re-samples."),
    GM_CFG_U32("selrep", selrep.link_latency, "link_latency", 1, 0, 1024, AS, "icnt cycles",
               "Channel latency between SM-routers and MC-routers."),
    GM_CFG_U32("selrep", selrep.rdd_mc, "rdd_mc", 0, 0, 63, AS, "router",
               "The MC-router holding the RDD; it samples sets of its first slice."),
    GM_CFG_ENUM("selrep", selrep.fault, "fault", GM_SELREP_FAULT_NONE, fault_names,
                GM_SRC_RUN, "Fault injection for tests: replicate_all sends every load, "
                "not only read-only ones, to its replica slice; over_degree routes read-only "
                "loads by the largest degree. The run-time invariants must stop the run."),
    GM_CFG_U32("selrep", selrep.epoch_log, "epoch_log", 4096, 0, 1u << 20, GM_SRC_RUN,
               "epochs", "Epochs whose decision, LSP and bandwidth per degree the "
               "statistics list (the first ones); the degree histograms count every epoch."),
};

int gm_selrep_validate(const gm_config *c, gm_error *err)
{
    const gm_selrep_cfg *s = &c->selrep;
    gm_selrep_geom g;
    if (gm_selrep_geom_init(&g, c->l2.slices, s->mc_routers, c->core.clusters,
                            c->dram.partition_bytes, s->hash != 0, err))
        return -1;
    if (c->core.num_cores % c->core.clusters)
        return gm_fail(err, "[core] clusters = %u must divide num_cores = %u for selrep",
                       c->core.clusters, c->core.num_cores);
    if (c->dram.channels % s->mc_routers)
        return gm_fail(err, "[selrep] mc_routers = %u must divide [dram] channels = %u",
                       s->mc_routers, c->dram.channels);
    uint32_t maxd = 1u << (g.ndeg - 1);
    if (s->degree & (s->degree - 1) || s->degree > maxd)
        return gm_fail(err, "[selrep] degree = %u must be a power of two up to %u "
                            "(min of clusters and slices per MC-router)", s->degree, maxd);
    uint32_t bits = gm_selrep_max_counter_bits(g.per_mc);
    if (s->counter_bits > bits)
        return gm_fail(err, "[selrep] counter_bits = %u could overflow the bandwidth model "
                            "with %u slices per MC-router (at most %u)", s->counter_bits,
                       g.per_mc, bits);
    if (s->rdd_mc >= s->mc_routers)
        return gm_fail(err, "[selrep] rdd_mc = %u must be below mc_routers = %u", s->rdd_mc,
                       s->mc_routers);
    uint32_t sets = c->l2.cache.size_bytes / (c->l2.cache.line_bytes * c->l2.cache.assoc);
    if (s->rdd_sets > sets)
        return gm_fail(err, "[selrep] rdd_sets = %u exceeds the %u sets of a slice",
                       s->rdd_sets, sets);
    return 0;
}
