/* The [sharedl1] section: the shared-L1 design's own configuration (key
 * rows and cross-key rules in sharedl1_config.c; docs/designs/sharedl1.md).
 * A plain struct with no dependencies, because gm_config embeds it. */
#ifndef GM_DESIGNS_SHAREDL1_CFG_H
#define GM_DESIGNS_SHAREDL1_CFG_H

#include <stdint.h>

/* How one shared L1 holds SF x the private capacity. */
typedef enum gm_sharedl1_grow {
    GM_SHAREDL1_SETS = 0,  /* SF x the sets of [l1], [l1] assoc ways */
    GM_SHAREDL1_WAYS = 1,  /* the sets of [l1], SF x [l1] assoc ways */
} gm_sharedl1_grow;

/* The shared L1's links to the L2 crossbars. */
typedef enum gm_sharedl1_links {
    GM_SHAREDL1_LINKS_CORE = 0,  /* one request and one reply link per core (SF per L1) */
    GM_SHAREDL1_LINKS_GROUP = 1, /* one of each per shared L1 */
} gm_sharedl1_links;

typedef struct gm_sharedl1_cfg {
    uint32_t sf;            /* sharing factor: cores per shared L1, 1/2/4/8/16 */
    uint32_t grow;          /* gm_sharedl1_grow */
    uint32_t l2_links;      /* gm_sharedl1_links */
    uint32_t classify;      /* 1: run the 3C miss classifier (never changes timing) */
} gm_sharedl1_cfg;

#endif
