/* The DC-L1 topology as arithmetic: which node a core's request goes to,
 * and the shape and port numbering of every crossbar of NoC#1 and NoC#2,
 * derived from the [design] keys (docs/designs/dcl1.md section 3).
 *
 * Every design is described by Z clusters of M nodes and N cores:
 *   PrY      Z = Y, M = 1, N = cores / Y   node = core / N
 *   ShY      Z = 1, M = Y, N = cores       node = home(addr)
 *   ShY+CZ   Z,     M = Y / Z, N = cores / Z
 *            node = cluster(core) * M + home(addr), cluster = core / N
 * (ShY+C1 is ShY and ShY+CY is PrY.)
 *
 * NoC#1: Z crossbars, request N x M (input = core % N, output = home),
 * reply M x N (output = core % N).
 * NoC#2, "partitioned" (PrY, ShY+CZ with Z > 1): M crossbars; crossbar k
 * connects node k of every cluster (input = cluster) to the O = L / M L2
 * slices s with s % M == k (output = s / M); reply crossbars mirrored.
 * NoC#2, "full" (ShY): one Y x L crossbar (input = node, output = slice).
 *
 * Home node: home(addr) = (addr / G) % M, G the home granule:
 *   ShY        G = 128 B (the line): the home bits are the ceil(log2 Y)
 *              bits just above the line offset when Y is a power of two
 *   ShY+CZ     G = [dram] partition_bytes (256 B): the home bits are the
 *              low bits of the L2 slice index, so home(addr) = slice % M
 *              and node k's lines live exactly in its O slices.
 * Non-power-of-two M use the remainder of the whole quotient (like the L2
 * slice selection), not a few bits, so every home gets an equal share. */
#ifndef GM_DESIGNS_DCL1_TOPO_H
#define GM_DESIGNS_DCL1_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "sim/error.h"

typedef struct gm_dcl1_topo {
    uint32_t sharing;       /* gm_sharing as configured */
    uint32_t cores;         /* X */
    uint32_t nodes;         /* Y */
    uint32_t slices;        /* L */
    uint32_t clusters;      /* Z */
    uint32_t m;             /* nodes per cluster */
    uint32_t n;             /* cores per cluster */
    bool partitioned;       /* NoC#2 is M crossbars Z x O (else one Y x L) */
    uint32_t noc2_xbars;    /* M if partitioned, else 1 */
    uint32_t noc2_in;       /* inputs of each NoC#2 request crossbar */
    uint32_t noc2_out;      /* outputs of each NoC#2 request crossbar */
    uint32_t home_granule;  /* G, bytes */
    uint32_t max_copies;    /* a line is resident in at most this many nodes: Z */
    bool boost;             /* NoC#1 at 2x the interconnect clock */
} gm_dcl1_topo;

/* From a configuration that passed gm_config_validate with design = dcl1. */
int gm_dcl1_topo_init(gm_dcl1_topo *t, const gm_config *cfg, gm_error *err);

/* Home node of addr inside its cluster, 0..m-1. */
static inline uint32_t gm_dcl1_home(const gm_dcl1_topo *t, uint64_t addr)
{
    return (uint32_t)((addr / t->home_granule) % t->m);
}

static inline uint32_t gm_dcl1_cluster_of_core(const gm_dcl1_topo *t, uint32_t core)
{
    return core / t->n;
}

/* The node (global index) that serves core's request for addr. */
static inline uint32_t gm_dcl1_node_for(const gm_dcl1_topo *t, uint32_t core, uint64_t addr)
{
    return gm_dcl1_cluster_of_core(t, core) * t->m + gm_dcl1_home(t, addr);
}

/* NoC#2 crossbar and its port for a node (request input / reply output)
 * and for an L2 slice (request output / reply input). */
static inline uint32_t gm_dcl1_noc2_xbar_of_node(const gm_dcl1_topo *t, uint32_t node)
{
    return t->partitioned ? node % t->m : 0;
}

static inline uint32_t gm_dcl1_noc2_port_of_node(const gm_dcl1_topo *t, uint32_t node)
{
    return t->partitioned ? node / t->m : node;
}

static inline uint32_t gm_dcl1_noc2_xbar_of_slice(const gm_dcl1_topo *t, uint32_t slice)
{
    return t->partitioned ? slice % t->m : 0;
}

static inline uint32_t gm_dcl1_noc2_port_of_slice(const gm_dcl1_topo *t, uint32_t slice)
{
    return t->partitioned ? slice / t->m : slice;
}

/* Whether node has a NoC#2 path to slice. */
static inline bool gm_dcl1_node_reaches_slice(const gm_dcl1_topo *t, uint32_t node,
                                              uint32_t slice)
{
    return gm_dcl1_noc2_xbar_of_node(t, node) == gm_dcl1_noc2_xbar_of_slice(t, slice);
}

/* Short design name, e.g. "Pr40", "Sh40", "Sh40+C10+Boost". */
void gm_dcl1_topo_name(const gm_dcl1_topo *t, char *buf, uint32_t len);

#endif
