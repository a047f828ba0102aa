/* The [selrep] section: the SelRep LLC design's own configuration (key
 * rows and cross-key rules in selrep_config.c; docs/designs/selrep.md).
 * A plain struct with no dependencies, because gm_config embeds it. */
#ifndef GM_DESIGNS_SELREP_CFG_H
#define GM_DESIGNS_SELREP_CFG_H

#include <stdint.h>

/* LLC organization (docs/designs/selrep.md section 3). */
typedef enum gm_selrep_org {
    GM_SELREP_SHARED = 0,   /* one home slice per line (degree 1) */
    GM_SELREP_PRIVATE = 1,  /* read-only lines replicated per SM-cluster (full degree) */
    GM_SELREP_STATIC = 2,   /* a fixed degree (`degree`); BSR is the best of these */
    GM_SELREP_SELREP = 3,   /* degree chosen per epoch by the RDD and bandwidth model */
    GM_SELREP_ADAPTIVE = 4, /* all-or-nothing: shared or private, periodic return */
} gm_selrep_org;

/* [selrep] fault: fault injection that shows the run-time invariants catch
 * what they guard (tests/system/selrep_invariants.sh), as [sim]
 * fault_stall_dram does for the watchdog. */
typedef enum gm_selrep_fault {
    GM_SELREP_FAULT_NONE = 0,
    GM_SELREP_FAULT_REPLICATE_ALL = 1, /* every load may be sent to a replica slice */
    GM_SELREP_FAULT_OVER_DEGREE = 2,   /* read-only loads use the largest degree,
                                        * whatever degree is in force */
} gm_selrep_fault;

typedef struct gm_selrep_cfg {
    uint32_t org;            /* gm_selrep_org */
    uint32_t mc_routers;     /* MC-routers (= HBM stacks); slices and channels split evenly */
    uint32_t degree;         /* org = static: replication degree, a power of two */
    uint32_t hash;           /* 1: PAE-style XOR slice hash; 0: the system's linear map */
    uint32_t epoch_cycles;   /* core cycles per epoch */
    uint32_t prop_delay;     /* core cycles from an epoch's decision to its use */
    uint32_t rdd_sets;       /* sampled sets */
    uint32_t rdd_capacity;   /* 1: a replica hit also needs LRU position < ways / degree */
    uint32_t counter_bits;   /* width of the RDD's saturating counters */
    uint32_t b_llc;          /* bandwidth of one LLC slice, any unit (<= 1023) */
    uint32_t b_mem;          /* one slice's share of DRAM bandwidth, same unit */
    uint32_t adaptive_period;/* adaptive: epochs in private before re-sampling as shared */
    uint32_t link_latency;   /* H-Xbar SM-router <-> MC-router channel, icnt cycles */
    uint32_t rdd_mc;         /* the MC-router that holds the RDD */
    uint32_t fault;          /* gm_selrep_fault: break a rule on purpose (tests) */
    uint32_t epoch_log;      /* epochs kept in the statistics' epoch_log */
} gm_selrep_cfg;

#endif
