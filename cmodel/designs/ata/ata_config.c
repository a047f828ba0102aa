/* The [ata] section: key rows and cross-key rules of the ATA-Cache design
 * (docs/designs/ata.md section 3). */
#include "designs/ata/ata.h"

#define AS GM_SRC_ASSUMED

/* gm_ata_org order */
static const char *const org_names[] = { "private", "decoupled", "ata", NULL };

const gm_config_section gm_ata_section = {
    "ata", "ATA-Cache (`[design] kind = ata`): per cluster of [core] num_cores / clusters "
           "cores, L1s whose tag arrays are aggregated, a cluster crossbar between the L1s "
           "and request/reply crossbars to the L2 slices (docs/designs/ata.md). The cluster "
           "crossbars use the [noc] parameters."
};

const gm_config_key gm_ata_keys[GM_ATA_NKEYS] = {
    GM_CFG_ENUM("ata", ata.org, "org", GM_ATA_ATA, org_names, AS,
                "L1 organization inside a cluster: private (own L1 only), decoupled "
                "(address-sliced shared L1, one home L1 per line, the seed's "
                "decoupled-sharing comparator), ata (aggregated tag array: local hit, "
                "remote hit over the cluster crossbar, or L2)."),
    GM_CFG_U32("ata", ata.banks, "banks", 4, 1, GM_ATA_MAX_BANKS, AS, "banks",
               "Data-array banks per L1 (seed Table II: 4); line-interleaved, each "
               "[l1] port_bytes wide."),
    GM_CFG_U32("ata", ata.tag_ports, "tag_ports", 0, 0, GM_ATA_MAX_CLUSTER, AS, "requests",
               "org = ata: loads the aggregated tag array of a cluster looks up per core "
               "cycle (the seed is silent); 0 = one per core of the cluster."),
    GM_CFG_U32("ata", ata.remote_fill, "remote_fill", 1, 0, 1, AS, "",
               "org = ata: 1 fills a remote hit's data into the local L1 when it returns "
               "(seed Fig. 7a); 0 hands it to the core without a local copy."),
    GM_CFG_U32("ata", ata.home_granule, "home_granule", 128, 128, 1u << 20, AS, "bytes",
               "org = decoupled: consecutive bytes with the same home L1 (a power of two "
               ">= the 128 B line); home = (addr / home_granule) mod cluster size."),
    GM_CFG_U32("ata", ata.xbar_queue, "xbar_queue", 8, 1, 1024, AS, "requests",
               "Requests of one L1 waiting for the cluster request crossbar (remote reads, "
               "decoupled home accesses); a full queue refuses the core's request."),
};

int gm_ata_validate(const gm_config *c, gm_error *err)
{
    const gm_ata_cfg *a = &c->ata;
    uint32_t nc = c->core.num_cores, z = c->core.clusters;
    if (z == 0 || nc % z)
        return gm_fail(err, "[core] clusters = %u must divide num_cores = %u for ata", z, nc);
    if (nc / z > GM_ATA_MAX_CLUSTER)
        return gm_fail(err, "ata: %u cores per cluster, at most %u (hit vectors are 32 bits)",
                       nc / z, GM_ATA_MAX_CLUSTER);
    if (a->home_granule & (a->home_granule - 1))
        return gm_fail(err, "[ata] home_granule = %u must be a power of two", a->home_granule);
    if (a->tag_ports > nc / z)
        return gm_fail(err, "[ata] tag_ports = %u exceeds the %u cores of a cluster",
                       a->tag_ports, nc / z);
    uint32_t sets = c->l1.size_bytes / (c->l1.line_bytes * c->l1.assoc);
    if (a->banks > sets * c->l1.assoc)
        return gm_fail(err, "[ata] banks = %u exceeds the %u lines of an L1", a->banks,
                       sets * c->l1.assoc);
    return 0;
}
