/* The [ccn] section: the CCN design's own configuration (key rows and
 * cross-key rules in ccn_config.c; docs/designs/ccn.md). A plain struct
 * with no dependencies, because gm_config embeds it. */
#ifndef GM_DESIGNS_CCN_CFG_H
#define GM_DESIGNS_CCN_CFG_H

#include <stdint.h>

/* Which CCN (the seed's section 5.1 and 5.3). */
typedef enum gm_ccn_variant {
    GM_CCN_B = 0,      /* CCN-B: ring, queues, shadow tags */
    GM_CCN_RT = 1,     /* CCN-RT: CCN-B plus the request throttler */
    GM_CCN_IDEAL = 2,  /* remote hits at zero latency, no CCN overhead (upper bound) */
    GM_CCN_OFF = 3,    /* the ring is built but every miss goes to L2 (the baseline) */
} gm_ccn_variant;

/* What the rings are built of (docs/designs/ccn.md section 2). */
typedef enum gm_ccn_ring {
    GM_CCN_RING_STOP = 0,    /* ring stops: a hop is L + 1 cycles, as the seed's */
    GM_CCN_RING_ROUTER = 1,  /* the VC router block: a hop is at least 11 + L */
} gm_ccn_ring;

typedef struct gm_ccn_cfg {
    uint32_t variant;        /* gm_ccn_variant */
    uint32_t hop_latency;    /* ring channel latency, core cycles (seed: 1..5) */
    uint32_t cb_entries;     /* CCN buffer (seed: 8) */
    uint32_t reqq_entries;   /* ReqQ (seed: 8) */
    uint32_t respq_entries;  /* RespQ (seed: 8) */
    uint32_t tag_bits;       /* shadow tag width (seed Table II(b): 26) */
    uint32_t rt_sample;      /* tS, thread instructions per core (seed: 1 M) */
    uint32_t rt_period;      /* tP, thread instructions per core (seed: 10 M) */
    uint32_t rt_hmin_pct;    /* Hmin, percent (seed: 5) */
    uint32_t cb_timeout;     /* a CCN buffer head that waited this many core cycles goes
                                to L2 instead; 0: it waits for the ring however long */
    uint32_t steal_cycles;   /* L1 data-array cycles a remote hit takes (seed: one) */
    uint32_t check_every;    /* shadow == L1 tags checked every this many core cycles;
                                0: never */
    uint32_t ring;           /* gm_ccn_ring */
    uint32_t stop_depth;     /* ring stop buffer, packets; 0: 2 hop_latency + 2 */
} gm_ccn_cfg;

#endif
