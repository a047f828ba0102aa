/* gm_system: one whole GPU memory system, wired with gm_links and stepped
 * by the multi-clock scheduler. [design] design selects what sits between
 * the cores and the L2 slices:
 *   baseline  (SPEC section 3) cores with private L1Ds, a request and a
 *             reply crossbar;
 *   dcl1      lite cores with direct ports, NoC#1, DC-L1 nodes, NoC#2
 *             (designs/dcl1.h, docs/designs/dcl1.md).
 * L2 slices and DRAM channels are the same in both. Everything a run needs
 * lives here, so two systems can coexist in one process. */
#ifndef GM_SYSTEM_SYSTEM_H
#define GM_SYSTEM_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cache/residency.h"
#include "config/config.h"
#include "core/core.h"
#include "core/cta_sched.h"
#include "designs/dcl1/dcl1.h"
#include "dram/addr_map.h"
#include "dram/dram_channel.h"
#include "l2/l2_slice.h"
#include "noc/xbar.h"
#include "sim/clock.h"
#include "sim/link.h"
#include "sim/req.h"
#include "workload/workload.h"

typedef enum gm_run_status {
    GM_RUN_DONE = 0,      /* every kernel finished and the system drained */
    GM_RUN_MAX_CYCLES,    /* stopped at sim.max_cycles */
    GM_RUN_DEADLOCK,      /* the watchdog fired */
    GM_RUN_ERROR,         /* a conservation or drain check failed */
} gm_run_status;

/* Copies-per-line samples (SPEC section 7). "L1" is an L1D in the
 * baseline and a DC-L1 node in the dcl1 design. */
typedef struct gm_copies_stats {
    uint64_t samples;
    uint64_t resident_sum;   /* sum over samples of resident L1 lines */
    uint64_t distinct_sum;   /* sum over samples of distinct resident lines */
    uint64_t final_resident;
    uint64_t final_distinct;
    uint32_t max_copies;     /* most L1s holding one line, over samples and the end */
    uint32_t max_allowed;    /* the design's bound: cores (baseline), clusters (dcl1) */
} gm_copies_stats;

typedef struct gm_kernel_record {
    char name[64];
    uint64_t start_cycle;
    uint64_t end_cycle;
    uint64_t warp_insts;
} gm_kernel_record;

struct gm_system;

typedef struct gm_progress {
    /* Called about once per wall-clock second when set. */
    void (*fn)(const struct gm_system *s, void *arg);
    void *arg;
} gm_progress;

typedef struct gm_system {
    gm_config cfg;
    gm_clock clock;
    int dom_core, dom_icnt, dom_l2, dom_dram;
    int dom_noc1;            /* dcl1 with boost: NoC#1's own domain; else -1 */
    gm_req_pool pool;
    gm_addr_map amap;
    gm_residency res;

    uint32_t ncores, nslices, nchannels;
    gm_core *cores;
    gm_cta_sched cta;
    gm_xbar req_net, rep_net;  /* baseline only (zero for dcl1) */
    gm_dcl1 *dcl1;             /* dcl1 only (NULL for the baseline) */
    gm_l2_slice *slices;
    gm_dram_channel *chans;

    /* links, by producer -> consumer */
    gm_link *core_req;   /* [ncores] core L1 -> request network (dcl1: -> NoC#1) */
    gm_link *core_rep;   /* [ncores] reply network -> core (dcl1: NoC#1 ->) */
    gm_link *l2_in;      /* [nslices] request network -> L2 (dcl1: NoC#2 ->) */
    gm_link *l2_out;     /* [nslices] L2 -> reply network (dcl1: -> NoC#2) */
    gm_link *l2_dram;    /* [nslices] L2 -> DRAM channel */
    gm_link *dram_l2;    /* [nslices] DRAM channel -> L2 */
    gm_link **req_in_ptrs, **req_out_ptrs, **rep_in_ptrs, **rep_out_ptrs;
    gm_link **chan_in_ptrs, **chan_out_ptrs;

    /* run state */
    const gm_workload *wl;
    uint32_t kernel_index;
    uint32_t ctas_left;
    bool kernel_running;
    uint64_t core_cycle;         /* core-domain edges so far */
    uint64_t last_progress_cycle;
    uint64_t next_watchdog;
    uint64_t next_sample;
    gm_copies_stats copies;
    gm_kernel_record *krec;
    uint64_t event_hash;         /* FNV-1a over completed requests */
    gm_progress progress;
    char deadlock_report[1024];
    char stop_reason[512];       /* set by gm_system_request_stop */
    gm_run_status status;
} gm_system;

int gm_system_init(gm_system *s, const gm_config *cfg, gm_error *err);
void gm_system_free(gm_system *s);

/* Runs every kernel of wl to completion (or a stop condition). Returns 0
 * and sets s->status; -1 with err on an internal error. */
int gm_system_run(gm_system *s, const gm_workload *wl, gm_error *err);

/* Every crossbar of the system, in a fixed order: the baseline's request
 * and reply networks; for dcl1, NoC#1 request and reply per cluster, then
 * NoC#2 request and reply per crossbar. Each reports its network ("noc",
 * "noc1", "noc2"), its direction and the clock domain it ticks in. The
 * topology listing and the co-simulation's instance patterns use it, so
 * both see exactly the routers a run simulates. */
typedef struct gm_xbar_ref {
    gm_xbar *xbar;
    const char *network;   /* "noc" (baseline), "noc1", "noc2" */
    bool request;          /* request direction (else reply) */
    int domain;            /* clock domain index in s->clock */
} gm_xbar_ref;

uint32_t gm_system_xbar_count(const gm_system *s);
gm_xbar_ref gm_system_xbar_at(gm_system *s, uint32_t i);

/* Asks a running gm_system_run to stop after the current clock edge with
 * status GM_RUN_ERROR and reason as its error: how a co-simulation twin
 * stops the run at its first divergence. The first reason is kept. */
void gm_system_request_stop(gm_system *s, const char *reason);

/* Core-cycle duration in clock ticks, for converting latencies. */
static inline uint64_t gm_system_core_period(const gm_system *s)
{
    return s->clock.d[s->dom_core].period;
}

#endif
