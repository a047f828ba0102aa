/* gm_config: every tunable of a gmsim system. Filled from layered INI files
 * and -o overrides by config.c; each key, with unit, default and allowed
 * range, is in the key table of config_keys.c and in docs/config.md.
 * Blocks read only their own sub-struct. */
#ifndef GM_CONFIG_CONFIG_H
#define GM_CONFIG_CONFIG_H

#include <stdint.h>

#include "designs/dcl1/dcl1_cfg.h"
#include "designs/selrep/selrep_cfg.h"
#include "designs/sharedl1/sharedl1_cfg.h"
#include "designs/ccn/ccn_cfg.h"
#include "designs/ata/ata_cfg.h"
#include "sim/error.h"

typedef enum gm_warp_sched { GM_SCHED_GTO = 0, GM_SCHED_LRR = 1 } gm_warp_sched;

typedef enum gm_cta_policy {
    GM_CTA_RR = 0,          /* two-level round robin: clusters, then cores */
    GM_CTA_BLOCK = 1,       /* cta_block consecutive CTAs to one core */
    GM_CTA_DISTRIBUTED = 2, /* contiguous CTA range per cluster */
    GM_CTA_CLUSTERED = 3,   /* consecutive CTAs per core, idle cores borrow (Choo et al.) */
} gm_cta_policy;

typedef enum gm_dram_sched { GM_DRAM_FRFCFS = 0, GM_DRAM_FCFS = 1 } gm_dram_sched;
/* [dram] slice_hash and bank_hash (dram/addr_map.h, docs/dram.md 1.1) */
typedef enum gm_addr_hash { GM_ADDR_LINEAR = 0, GM_ADDR_PAE = 1 } gm_addr_hash;

typedef struct gm_core_cfg {
    uint32_t num_cores;      /* 80 */
    uint32_t clusters;       /* cores are grouped into clusters (CTA scheduling) */
    uint32_t clock_mhz;      /* 1400 */
    uint32_t max_warps;      /* warp slots per core, 48 */
    uint32_t max_ctas;       /* resident CTAs per core */
    uint32_t schedulers;     /* warp schedulers per core, each issues 1 inst/cycle */
    uint32_t warp_sched;     /* gm_warp_sched */
    uint32_t cta_policy;     /* gm_cta_policy */
    uint32_t cta_block;      /* CTAs per dispatch under the block policy */
    uint32_t ldst_queue;     /* memory instructions waiting for the coalescer */
    /* compute latency per opcode class, core cycles */
    uint32_t lat_alu;
    uint32_t lat_sfu;
    uint32_t lat_dp;         /* double precision */
    uint32_t lat_branch;
    uint32_t lat_shared;     /* shared memory access */
    uint32_t lat_const;      /* constant cache hit */
} gm_core_cfg;

typedef struct gm_cache_cfg {
    uint32_t size_bytes;
    uint32_t assoc;
    uint32_t line_bytes;     /* 128 */
    uint32_t latency;        /* hit latency, cycles of the owning domain */
    uint32_t mshr_entries;
    uint32_t mshr_merge;     /* requests merged per MSHR entry */
    uint32_t miss_queue;     /* entries waiting to leave towards the next level */
    uint32_t port_bytes;     /* data port width, bytes per cycle */
    uint32_t sectored;       /* 1: misses fetch and fills install only the missing
                                32 B sectors; 0: whole lines (default) */
} gm_cache_cfg;

typedef struct gm_noc_cfg {
    uint32_t clock_mhz;      /* 700 */
    uint32_t flit_bytes;     /* 32 */
    uint32_t vcs;            /* VCs per port, 4 */
    uint32_t vc_depth;       /* flits per VC, 4 */
    uint32_t header_bytes;   /* control bytes added to every packet, 8 */
    uint32_t router_stages;  /* router pipeline depth, >= 1 */
    uint32_t islip_iters;    /* iSLIP iterations per allocation */
    uint32_t inject_queue;   /* packets waiting in a network interface */
    uint32_t eject_queue;    /* packets reassembled and waiting at an output */
} gm_noc_cfg;

typedef struct gm_l2_cfg {
    uint32_t slices;         /* 32 */
    uint32_t clock_mhz;      /* 700 */
    gm_cache_cfg cache;      /* per slice */
    uint32_t in_queue;       /* requests from the network */
    uint32_t out_queue;      /* replies to the network */
    uint32_t dram_queue;     /* misses and write-backs to DRAM */
} gm_l2_cfg;

typedef struct gm_dram_timing {
    /* all in DRAM command-clock cycles */
    uint32_t tRCD, tRP, tRAS, tRC, tCL, tWL;
    uint32_t tCCDS, tCCDL, tRRDS, tRRDL, tFAW;
    uint32_t tWTRS, tWTRL, tRTW, tWR, tRTP;
    uint32_t tREFI, tRFC;
    uint32_t tBURST;         /* data-bus cycles of one column command */
    uint32_t tRCDWR;         /* activate to write; 0 = tRCD (tRCD is then
                                activate to any column command) */
} gm_dram_timing;

typedef struct gm_dram_cfg {
    uint32_t channels;       /* 16 */
    uint32_t clock_mhz;      /* 924 (command clock) */
    uint32_t banks;          /* 16 */
    uint32_t bank_groups;    /* 4 */
    uint32_t atom_bytes;     /* bytes moved by one column command */
    uint32_t row_bytes;      /* page size of the channel */
    uint32_t queue;          /* controller request queue entries */
    uint32_t sched;          /* gm_dram_sched */
    uint32_t partition_bytes;/* global interleaving chunk, 256 */
    gm_dram_timing t;
    uint32_t standard;       /* index into gm_dram_standard_names
                                (dram/dram_standard.h): 0 gddr5, 1 hbm */
    uint32_t slice_hash;     /* gm_addr_hash of the slice (and channel) digit */
    uint32_t bank_hash;      /* gm_addr_hash of the bank digit */
} gm_dram_cfg;

typedef struct gm_sim_cfg {
    uint64_t seed;
    uint64_t max_cycles;     /* core cycles; 0 = no limit */
    uint64_t watchdog_cycles;/* core cycles a request may wait before deadlock */
    uint64_t sample_cycles;  /* copies-per-line sampling interval, core cycles */
    int64_t fault_stall_dram;/* fault injection: DRAM channel that never
                                issues a command (-1 = none); for testing
                                the deadlock watchdog */
} gm_sim_cfg;

typedef struct gm_design_cfg {
    uint32_t kind;           /* index into the design registry (designs/design.h) */
} gm_design_cfg;

typedef struct gm_config {
    gm_core_cfg core;
    gm_cache_cfg l1;
    gm_noc_cfg noc;
    gm_l2_cfg l2;
    gm_dram_cfg dram;
    gm_sim_cfg sim;
    gm_design_cfg design;
    /* Each design's own section (designs/<name>/). */
    gm_dcl1_cfg dcl1;
    gm_selrep_cfg selrep;
    gm_sharedl1_cfg sharedl1;
    gm_ccn_cfg ccn;
    gm_ata_cfg ata;
} gm_config;

/* Built-in defaults: the DC-L1 Table II baseline. */
void gm_config_defaults(gm_config *c);
/* Applies one INI file on top of c. Errors name file, line and key. */
int gm_config_load_file(gm_config *c, const char *path, gm_error *err);
/* Applies "section.key=value". */
int gm_config_set(gm_config *c, const char *assignment, gm_error *err);
/* Checks cross-key constraints (impossible combinations). */
int gm_config_validate(const gm_config *c, gm_error *err);
/* Writes the effective configuration as INI text (for the stats file and
 * for reproducing a run). Returns a malloc'd string. */
char *gm_config_to_ini(const gm_config *c);
/* FNV-1a 64 of gm_config_to_ini's text: two configurations have the same
 * hash when every key has the same value, however they were written
 * (files, layering, -o overrides). 0 when out of memory. */
uint64_t gm_config_hash(const gm_config *c);

#endif
