/* The [dcl1] section: the DC-L1 design's own configuration (its key rows,
 * defaults and cross-key rules are in dcl1_config.c; docs/designs/dcl1.md).
 * A plain struct with no dependencies, because gm_config embeds it. */
#ifndef GM_DESIGNS_DCL1_CFG_H
#define GM_DESIGNS_DCL1_CFG_H

#include <stdint.h>

/* How the DC-L1 nodes share the address space (docs/designs/dcl1.md). */
typedef enum gm_sharing {
    GM_SHARING_PRIVATE = 0,   /* PrY: each node private to cores/nodes cores */
    GM_SHARING_SHARED = 1,    /* ShY: one home node per line, any core reaches any node */
    GM_SHARING_CLUSTERED = 2, /* ShY+CZ: shared inside each of `clusters` clusters */
} gm_sharing;

/* Control bytes of a NoC#1 packet. */
typedef enum gm_noc1_header {
    GM_NOC1_HEADER_NOC = 0,   /* [noc] header_bytes, as NoC#2 and GPGPU-Sim */
    GM_NOC1_HEADER_NONE = 1,  /* none: the paper's Table I counts data only */
} gm_noc1_header;

typedef struct gm_dcl1_cfg {
    uint32_t nodes;          /* DC-L1 nodes Y */
    uint32_t sharing;        /* gm_sharing */
    uint32_t clusters;       /* Z (sharing = clustered) */
    uint32_t boost;          /* 1: NoC#1 at 2x [noc] clock_mhz */
    uint32_t node_size;      /* bytes per node; 0 = num_cores * l1.size / nodes */
    uint32_t node_assoc;     /* 0 = l1.assoc */
    uint32_t node_latency;   /* hit latency, core cycles */
    uint32_t node_mshr_entries; /* 0 = l1.mshr_entries * num_cores / nodes */
    uint32_t node_mshr_merge;   /* 0 = l1.mshr_merge * num_cores / nodes */
    uint32_t node_queue;     /* entries of each of Q1..Q4 */
    uint32_t node_port_bytes;/* data port per core cycle; 0 = l1.port_bytes */
    uint32_t noc1_flit_bytes;  /* NoC#1 link width; 0 = noc.flit_bytes */
    uint32_t noc1_header;      /* gm_noc1_header */
} gm_dcl1_cfg;

#endif
