/* The [dcl1] section: key rows, derived node cache, cross-key rules and
 * clocks of the DC-L1 design (docs/designs/dcl1.md section 3). */
#include "designs/dcl1/dcl1.h"

#include <inttypes.h>
#include <stddef.h>

#include "sim/req.h"

#define AS GM_SRC_ASSUMED
#define M GM_CFG_M

/* Resource bounds (docs/reliability.md, "Resource bounds"). A node is
 * the L1s of a few cores put together (the paper's nodes hold 32 to
 * 256 KB and a few hundred MSHRs); the totals over all nodes are those of
 * the L1 level: capacity as [core] num_cores x [l1] size (config.c), MSHRs
 * as the most [core] num_cores x [l1] mshr_entries can give (1024 x 4096).
 * Each node MSHR costs about 56 bytes, each cached line about 24. */
#define MAX_NODE_BYTES (64u * M)
#define MAX_NODE_MSHRS 65536u
#define MAX_TOTAL_NODE_BYTES (UINT64_C(1) << 30)
#define MAX_TOTAL_NODE_MSHRS (UINT64_C(1) << 22)

/* gm_sharing order */
static const char *const sharing_names[] = { "private", "shared", "clustered", NULL };
/* gm_noc1_header order */
static const char *const noc1_header_names[] = { "noc", "none", NULL };

const gm_config_section gm_dcl1_section = {
    "dcl1", "DC-L1 (`[design] kind = dcl1`): the L1D is removed from the cores and the L1 "
            "capacity is put into DC-L1 nodes between two networks (docs/designs/dcl1.md). "
            "NoC#1 and NoC#2 use the [noc] parameters."
};

const gm_config_key gm_dcl1_keys[GM_DCL1_NKEYS] = {
    GM_CFG_U32("dcl1", dcl1.nodes, "nodes", 40, 1, 1024, AS, "nodes",
               "DC-L1 nodes Y (the paper's chosen 40); at most num_cores."),
    GM_CFG_ENUM("dcl1", dcl1.sharing, "sharing", GM_SHARING_PRIVATE, sharing_names, AS,
                "PrY: a node private to num_cores/nodes cores; ShY: one home node per line; "
                "ShY+CZ: shared inside each of `clusters` clusters."),
    GM_CFG_U32("dcl1", dcl1.clusters, "clusters", 1, 1, 1024, AS, "clusters",
               "Clusters Z for sharing = clustered (1 = ShY, nodes = PrY); must be 1 "
               "otherwise."),
    GM_CFG_U32("dcl1", dcl1.boost, "boost", 0, 0, 1, AS, "",
               "1: NoC#1 in its own clock domain at 2x [noc] clock_mhz (the paper's +Boost)."),
    GM_CFG_SIZE("dcl1", dcl1.node_size, "node_size", 0, 0, MAX_NODE_BYTES, AS,
                "Cache of one node; 0 = num_cores * [l1] size / nodes (total L1 capacity "
                "kept); nodes * node_size at most 1G."),
    GM_CFG_U32("dcl1", dcl1.node_assoc, "node_assoc", 0, 0, 64, AS, "ways",
               "Associativity of a node; 0 = [l1] assoc."),
    GM_CFG_U32("dcl1", dcl1.node_latency, "node_latency", 30, 0, 4096, AS, "core cycles",
               "Node hit latency (paper section VIII: 30 for a node of twice the L1)."),
    GM_CFG_U32("dcl1", dcl1.node_mshr_entries, "node_mshr_entries", 0, 0, MAX_NODE_MSHRS,
               AS, "entries",
               "MSHRs of a node; 0 = [l1] mshr_entries * num_cores / nodes; nodes * "
               "node_mshr_entries at most 4M."),
    GM_CFG_U32("dcl1", dcl1.node_mshr_merge, "node_mshr_merge", 0, 0, 1024, AS, "requests",
               "Requests merged per node MSHR; 0 = [l1] mshr_merge * num_cores / nodes."),
    GM_CFG_U32("dcl1", dcl1.node_queue, "node_queue", 4, 1, 64, AS, "entries",
               "Entries of each node queue Q1..Q4 (paper: four 128 B entries)."),
    GM_CFG_SIZE("dcl1", dcl1.node_port_bytes, "node_port_bytes", 0, 0, 4096, AS,
                "Data port of a node per core cycle; 0 = [l1] port_bytes."),
    /* The paper's Table I counts NoC#1 bandwidth as data only ("no control
     * metadata"); gmsim's packets carry [noc] header_bytes like GPGPU-Sim's.
     * These two keys let a study take either view on NoC#1 alone. */
    GM_CFG_ENUM("dcl1", dcl1.noc1_header, "noc1_header", GM_NOC1_HEADER_NOC, noc1_header_names,
                AS, "Control bytes of every NoC#1 packet (flits = ceil((header + payload) / "
                "flit)): `noc` = [noc] header_bytes; `none` = the paper's Table I (no "
                "control metadata)."),
    GM_CFG_SIZE("dcl1", dcl1.noc1_flit_bytes, "noc1_flit_bytes", 0, 0, 4096, AS,
                "NoC#1 flit (link) width; 0 = [noc] flit_bytes; otherwise at least 4."),
};

/* The [noc] parameters NoC#1 is built with: [noc], with the [dcl1] packet
 * format keys applied. */
gm_noc_cfg gm_dcl1_noc1_cfg(const gm_config *c)
{
    gm_noc_cfg n = c->noc;
    if (c->dcl1.noc1_header == GM_NOC1_HEADER_NONE)
        n.header_bytes = 0;
    if (c->dcl1.noc1_flit_bytes)
        n.flit_bytes = c->dcl1.noc1_flit_bytes;
    return n;
}

unsigned gm_dcl1_extra_clocks(const gm_config *c, uint32_t mhz[4])
{
    if (!c->dcl1.boost)
        return 0;
    mhz[0] = 2 * c->noc.clock_mhz;
    return 1;
}

static uint64_t div_ceil_u64(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* Node cache size before the range check (may not fit 32 bits). */
static uint64_t node_size_u64(const gm_config *c)
{
    if (c->dcl1.node_size)
        return c->dcl1.node_size;
    return (uint64_t)c->core.num_cores * c->l1.size_bytes / c->dcl1.nodes;
}

void gm_dcl1_node_cache(const gm_config *c, gm_cache_cfg *out)
{
    const gm_dcl1_cfg *d = &c->dcl1;
    uint64_t per = (uint64_t)c->core.num_cores;
    *out = (gm_cache_cfg){0};
    out->size_bytes = (uint32_t)node_size_u64(c);
    out->assoc = d->node_assoc ? d->node_assoc : c->l1.assoc;
    out->line_bytes = c->l1.line_bytes;
    out->latency = d->node_latency;
    out->mshr_entries = d->node_mshr_entries
                            ? d->node_mshr_entries
                            : (uint32_t)div_ceil_u64(c->l1.mshr_entries * per, d->nodes);
    out->mshr_merge = d->node_mshr_merge
                          ? d->node_mshr_merge
                          : (uint32_t)div_ceil_u64(c->l1.mshr_merge * per, d->nodes);
    out->miss_queue = d->node_queue;
    out->port_bytes = d->node_port_bytes ? d->node_port_bytes : c->l1.port_bytes;
    out->sectored = c->l1.sectored;
}

/* Cross-key rules of the DC-L1 topology (docs/designs/dcl1.md section 3),
 * checked when [dcl1] kind = dcl1. */
int gm_dcl1_validate(const gm_config *c, gm_error *err)
{
    const gm_dcl1_cfg *d = &c->dcl1;
    uint32_t cores = c->core.num_cores, y = d->nodes, z = d->clusters, l = c->l2.slices;
    if (y > cores)
        return gm_fail(err, "[dcl1] nodes = %u exceeds [core] num_cores = %u (a node "
                            "aggregates the L1s of one or more cores)", y, cores);
    switch (d->sharing) {
    case GM_SHARING_PRIVATE:
    case GM_SHARING_SHARED:
        if (z != 1)
            return gm_fail(err, "[dcl1] clusters = %u is only used with [dcl1] sharing = "
                                "clustered; with sharing = %s it must be 1",
                           z, d->sharing == GM_SHARING_PRIVATE ? "private" : "shared");
        if (d->sharing == GM_SHARING_PRIVATE && cores % y != 0)
            return gm_fail(err, "[dcl1] nodes = %u does not divide [core] num_cores = %u "
                                "(sharing = private gives every node num_cores / nodes cores)",
                           y, cores);
        break;
    default:
        if (z > y || y % z != 0)
            return gm_fail(err, "[dcl1] nodes = %u is not a multiple of [dcl1] clusters "
                                "= %u (every cluster has nodes / clusters nodes)", y, z);
        if (cores % z != 0)
            return gm_fail(err, "[dcl1] clusters = %u does not divide [core] num_cores = %u "
                                "(every cluster has num_cores / clusters cores)", z, cores);
        /* With one cluster the design is ShY (full NoC#2), so the rule
         * below is only for Z > 1: node i of a cluster reaches only the
         * slices of its address range, which needs M | L. */
        if (z > 1 && l % (y / z) != 0)
            return gm_fail(err, "[l2] slices = %u is not a multiple of the %u nodes per cluster "
                                "([dcl1] nodes / [dcl1] clusters = %u / %u): the home "
                                "bits of a line must select a whole group of L2 slices",
                           l, y / z, y, z);
        break;
    }
    uint64_t size = node_size_u64(c);
    uint32_t assoc = d->node_assoc ? d->node_assoc : c->l1.assoc;
    if (!d->node_size && (uint64_t)cores * c->l1.size_bytes % y != 0)
        return gm_fail(err, "[core] num_cores * [l1] size = %" PRIu64 " does not divide into "
                            "[dcl1] nodes = %u equal nodes; set [dcl1] node_size",
                       (uint64_t)cores * c->l1.size_bytes, y);
    if (size > MAX_NODE_BYTES)
        return gm_fail(err, "[dcl1] node_size (num_cores * [l1] size / nodes = %" PRIu64
                            ") exceeds 64M; set [dcl1] node_size or use more nodes", size);
    if ((uint64_t)y * size > MAX_TOTAL_NODE_BYTES)
        return gm_fail(err, "[dcl1] nodes x node_size = %u x %" PRIu64 " = %" PRIu64
                            " bytes: the nodes together must be at most 1G (%" PRIu64
                            " bytes)", y, size, (uint64_t)y * size, MAX_TOTAL_NODE_BYTES);
    if (size == 0 || size % ((uint64_t)GM_LINE_BYTES * assoc) != 0)
        return gm_fail(err, "[dcl1] node_size = %" PRIu64 " is not a positive multiple of "
                            "[l1] line * [dcl1] node_assoc = %u * %u (a whole number of sets)",
                       size, GM_LINE_BYTES, assoc);
    gm_cache_cfg nc;
    gm_dcl1_node_cache(c, &nc);
    if (d->node_port_bytes && d->node_port_bytes < 4)
        return gm_fail(err, "[dcl1] node_port_bytes = %u: must be 0 ([l1] port_bytes) or "
                            "at least 4", d->node_port_bytes);
    if (d->noc1_flit_bytes && d->noc1_flit_bytes < 4)
        return gm_fail(err, "[dcl1] noc1_flit_bytes = %u: must be 0 ([noc] flit_bytes) or "
                            "at least 4", d->noc1_flit_bytes);
    if (nc.mshr_entries > MAX_NODE_MSHRS)
        return gm_fail(err, "[dcl1] node_mshr_entries (derived: [l1] mshr_entries * num_cores "
                            "/ nodes = %u) exceeds %u; set [dcl1] node_mshr_entries",
                       nc.mshr_entries, MAX_NODE_MSHRS);
    if ((uint64_t)y * nc.mshr_entries > MAX_TOTAL_NODE_MSHRS)
        return gm_fail(err, "[dcl1] nodes x node_mshr_entries = %u x %u = %" PRIu64
                            ": the nodes together may have at most %" PRIu64 " MSHRs (4M)",
                       y, nc.mshr_entries, (uint64_t)y * nc.mshr_entries,
                       MAX_TOTAL_NODE_MSHRS);
    return 0;
}

