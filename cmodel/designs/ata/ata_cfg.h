/* The [ata] section: the ATA-Cache design's own configuration (key rows
 * and cross-key rules in ata_config.c; docs/designs/ata.md). A plain
 * struct with no dependencies, because gm_config embeds it. */
#ifndef GM_DESIGNS_ATA_CFG_H
#define GM_DESIGNS_ATA_CFG_H

#include <stdint.h>

/* How the L1s of a cluster are shared (docs/designs/ata.md section 2). */
typedef enum gm_ata_org {
    GM_ATA_PRIVATE = 0,   /* each core uses only its own L1 */
    GM_ATA_DECOUPLED = 1, /* address-sliced: every line has one home L1 in the cluster */
    GM_ATA_ATA = 2,       /* aggregated tag array: local, remote or L2 per hit vector */
} gm_ata_org;

#define GM_ATA_MAX_CLUSTER 32u /* hit vectors are 32-bit */
#define GM_ATA_MAX_BANKS 16u

typedef struct gm_ata_cfg {
    uint32_t org;          /* gm_ata_org */
    uint32_t banks;        /* data-array banks per L1 */
    uint32_t tag_ports;    /* requests the aggregated tag array of a cluster takes per
                              core cycle; 0 = one per core of the cluster */
    uint32_t remote_fill;  /* 1: a remote hit's data is filled into the local L1 */
    uint32_t home_granule; /* decoupled: bytes of consecutive addresses with one home */
    uint32_t xbar_queue;   /* requests of an L1 waiting for the cluster request crossbar */
} gm_ata_cfg;

#endif
