/* gm_system: one whole GPU memory system, wired with gm_links and stepped
 * by the multi-clock scheduler. The system owns the clocks, the cores and
 * their CTA scheduler, the L2 slices, the DRAM channels, the run loop, the
 * watchdog and the conservation checks. What sits between the cores'
 * memory ports and the L2 slices is the design selected by [design] kind,
 * a plug-in (designs/design.h) the system knows only through its ops and
 * what it registers here: its clocked work per domain, its networks and
 * its L1-level caches. Everything a run needs lives here, so two systems
 * can coexist in one process. */
#ifndef GM_SYSTEM_SYSTEM_H
#define GM_SYSTEM_SYSTEM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cache/l1d.h"
#include "cache/residency.h"
#include "config/config.h"
#include "core/core.h"
#include "core/cta_sched.h"
#include "designs/design.h"
#include "dram/addr_map.h"
#include "dram/dram_channel.h"
#include "l2/l2_slice.h"
#include "noc/net.h"
#include "sim/clock.h"
#include "sim/link.h"
#include "sim/req.h"
#include "workload/workload.h"

typedef enum gm_run_status {
    GM_RUN_DONE = 0,      /* every kernel finished and the system drained */
    GM_RUN_MAX_CYCLES,    /* stopped at sim.max_cycles */
    GM_RUN_DEADLOCK,      /* the watchdog fired */
    GM_RUN_ERROR,         /* a conservation or drain check failed */
    GM_RUN_INTERRUPTED,   /* *interrupt became non-zero (a signal, in the CLI) */
} gm_run_status;

/* Copies-per-line samples (SPEC section 7). "L1" is whatever the design
 * registered with gm_system_add_l1 (an L1D, a DC-L1 node, ...). */
typedef struct gm_copies_stats {
    uint64_t samples;        /* periodic samples plus the end of the run */
    uint64_t resident_sum;   /* sum over samples of resident L1 lines */
    uint64_t distinct_sum;   /* sum over samples of distinct resident lines */
    uint64_t final_resident;
    uint64_t final_distinct;
    uint32_t max_copies;     /* most L1s holding one line, over samples and the end */
    uint32_t max_allowed;    /* the design's bound (set by its build) */
} gm_copies_stats;

typedef struct gm_kernel_record {
    char name[64];
    uint64_t start_cycle;
    uint64_t end_cycle;
    uint64_t warp_insts;
} gm_kernel_record;

struct gm_system;

typedef struct gm_progress {
    /* Called about once per interval_s wall-clock seconds when set (0:
     * every second). Only for reports: it never changes what is simulated. */
    void (*fn)(const struct gm_system *s, void *arg);
    void *arg;
    unsigned interval_s;
} gm_progress;

/* Clocked work a design registers for one clock domain. */
typedef struct gm_edge_hook {
    void (*fn)(void *ctx, gm_time now);
    void *ctx;
} gm_edge_hook;

/* One network instance of the design, in registration order. The
 * topology listing, co-simulation instance patterns, network statistics,
 * busy/drain checks and the watchdog's packet search all use this one list,
 * so they see exactly the routers a run simulates. */
typedef struct gm_net_ref {
    gm_net *net;
    const char *network;   /* its network's name: "noc" (baseline), "noc1", "noc2" */
    bool request;          /* request direction (else reply) */
    bool l2_side;          /* delivers to (request) or from (reply) the L2 slices */
    int domain;            /* clock domain index in s->clock */
} gm_net_ref;

#define GM_SYSTEM_MAX_HOOKS 8

/* An external initiator in a core's place (gm_system_set_core_driver). */
typedef struct gm_core_driver {
    void (*fn)(void *ctx, gm_core_port *port, gm_time now);
    void *ctx;
} gm_core_driver;

typedef struct gm_system {
    gm_config cfg;
    gm_clock clock;
    int dom_core, dom_icnt, dom_l2, dom_dram;
    gm_req_pool pool;
    gm_addr_map amap;
    gm_residency res;

    uint32_t ncores, nslices, nchannels;
    gm_core *cores;
    gm_cta_sched cta;
    gm_l2_slice *slices;
    gm_dram_channel *chans;
    gm_core_driver *core_driver;  /* [ncores]; fn NULL: the core itself */
    uint32_t ncore_drivers;       /* how many are set */
    /* While true a run does not end when the workload is done and the
     * system quiet: an external initiator may still send (SystemC top). */
    bool hold_open;

    /* links around the L2 slices, by producer -> consumer */
    gm_link *l2_in;      /* [nslices] design -> L2 */
    gm_link *l2_out;     /* [nslices] L2 -> design */
    gm_link *l2_dram;    /* [nslices] L2 -> DRAM channel */
    gm_link *dram_l2;    /* [nslices] DRAM channel -> L2 */
    gm_link **chan_in_ptrs, **chan_out_ptrs;

    /* the design and what it registered */
    const gm_design_ops *design;
    void *design_state;
    gm_edge_hook hooks[GM_CLOCK_MAX_DOMAINS][GM_SYSTEM_MAX_HOOKS];
    uint32_t nhooks[GM_CLOCK_MAX_DOMAINS];
    gm_net_ref *nets;
    uint32_t nnets, nets_cap;
    const gm_l1d_stats **l1;  /* the L1-level caches' statistics */
    uint32_t nl1, l1_cap;

    /* run state */
    const gm_workload *wl;
    uint32_t kernel_index;
    uint32_t ctas_left;
    bool kernel_running;
    uint64_t core_cycle;         /* core-domain edges so far */
    uint64_t last_progress_cycle;
    uint64_t next_watchdog;
    uint64_t wd_interval;        /* core cycles between watchdog looks */
    double next_report;          /* wall time of the next progress report */
    uint64_t next_sample;
    gm_copies_stats copies;
    gm_kernel_record *krec;
    uint64_t event_hash;         /* FNV-1a over completed requests */
    gm_progress progress;
    /* Set by the owner (or NULL): when *interrupt becomes non-zero the run
     * stops at the next core-cycle boundary with GM_RUN_INTERRUPTED, its
     * statistics those of the cycles simulated so far. A signal handler
     * may write it. */
    volatile sig_atomic_t *interrupt;
    char deadlock_report[1024];
    char stop_reason[512];       /* set by gm_system_request_stop */
    gm_run_status status;
} gm_system;

int gm_system_init(gm_system *s, const gm_config *cfg, gm_error *err);
void gm_system_free(gm_system *s);

/* Runs every kernel of wl to completion (or a stop condition). Returns 0
 * and sets s->status; -1 with err on an internal error, or at once (status
 * GM_RUN_ERROR) when gm_system_check_workload rejects wl. */
int gm_system_run(gm_system *s, const gm_workload *wl, gm_error *err);
/* gm_system_run in three parts, for an owner that interleaves the run
 * with other work (the SystemC top, tb/systemc/): begin (as run's start;
 * -1 with err when wl is rejected), then step once per clock edge (1
 * while the run goes on, 0 when it ended with s->status set, -1 with err),
 * then end (final samples and the drain checks). gm_system_run is exactly
 * begin, step until it stops, end. */
int gm_system_run_begin(gm_system *s, const gm_workload *wl, gm_error *err);
int gm_system_step(gm_system *s, gm_error *err);
int gm_system_run_end(gm_system *s, gm_error *err);
/* The time of the edge the next gm_system_step processes: the earliest
 * next edge, ties to the lowest domain index (sim/clock.h). */
static inline gm_time gm_system_next_edge(const gm_system *s)
{
    gm_time t = s->clock.d[0].next;
    for (int d = 1; d < s->clock.n; d++)
        if (s->clock.d[d].next < t)
            t = s->clock.d[d].next;
    return t;
}
/* Replaces core `core`'s tick by fn(ctx, port, now) at every core edge,
 * at the core's place in the edge (fn NULL: the core again). The driver
 * uses the design's port as the core would (core.h: cycle, pop_reply,
 * then at most one offer/accept); the core's own warps do not run, so the
 * workload must launch nothing there (a workload of no kernels). */
void gm_system_set_core_driver(gm_system *s, uint32_t core,
                               void (*fn)(void *ctx, gm_core_port *port, gm_time now), void *ctx);
/* Whether every kernel of wl can run here: a CTA must fit one core (its
 * warps in [core] max_warps; under cta_policy = block, cta_block CTAs at
 * once) and a kernel needs CTAs and threads. Returns 0, or -1 with err
 * naming the kernel, what it needs and the [core] key: bad input, to be
 * reported before simulating (gmsim exits 1). */
int gm_system_check_workload(const gm_system *s, const gm_workload *wl, gm_error *err);
/* The watchdog's bound in core cycles: [sim] watchdog_cycles when set,
 * else max(100000, requests that may be served ahead x the longest one
 * request can hold a resource), derived from c (docs/reliability.md). c
 * must be valid. */
uint64_t gm_system_watchdog_cycles(const gm_config *c);

/* CTAs finished so far, over every core and kernel. */
uint64_t gm_system_ctas_done(const gm_system *s);

/* The work done so far, in CTAs, for progress reports: every finished CTA
 * counts 1, every resident one the warp instructions it has issued over
 * the finished CTAs' mean, at most 1. Counting only finished CTAs lags by
 * a whole wave when a grid fills the machine: the first CTAs finish when
 * hundreds more are nearly done. Instructions rather than cycles lived,
 * because the first CTAs to finish are the fastest of their wave, not the
 * shortest. 0 until a CTA has finished. Reads the system only. */
double gm_system_ctas_progress(const gm_system *s);

/* ---- for designs, at build time (designs/design.h) ---- */

/* Adds a clock domain of the design's own (after the four common ones;
 * registration order is the tie-break of simultaneous edges). Only from
 * the design's build; the system finalizes the clock after it. Returns
 * the domain index, or -1 with err. */
int gm_system_add_clock(gm_system *s, const char *name, uint32_t mhz, gm_error *err);
/* fn(ctx, now) at every edge of domain, after the system's own blocks of
 * that domain (cores, L2 slices, DRAM channels), in registration order. */
int gm_system_on_edge(gm_system *s, int domain, void (*fn)(void *ctx, gm_time now),
                      void *ctx, gm_error *err);
/* Registers a network instance (see gm_net_ref); the design still ticks
 * it from one of its edge hooks. Its routers are what co-simulation
 * patterns and `gmsim topology` see (gm_net_router_count / _name). */
int gm_system_add_net(gm_system *s, gm_net_ref ref, gm_error *err);
/* The L2 <-> DRAM wiring. By default DRAM channel c takes the links of
 * slices c*per .. c*per+per-1 (s->l2_dram, s->dram_l2; per = nslices /
 * nchannels) directly. A design whose slices must reach other channels
 * (SelRep's replicas) puts a network of its own in between: it consumes
 * s->l2_dram[] and produces into s->dram_l2[] (which the system still
 * checks at the end of a run), and gives the channels links of its own
 * with this call: channel c takes req_in[c*per + k] and returns on
 * rep_out[c*per + k], k < per (a channel returns every request on the link
 * it came from). The design ticks that network and answers for its own
 * links in busy and check_drained. Only from the design's build. */
void gm_system_set_dram_ports(gm_system *s, gm_link **req_in, gm_link **rep_out);
/* Registers the statistics of one L1-level cache. */
int gm_system_add_l1(gm_system *s, const gm_l1d_stats *st, gm_error *err);

static inline uint32_t gm_system_net_count(const gm_system *s)
{
    return s->nnets;
}

static inline gm_net_ref gm_system_net_at(const gm_system *s, uint32_t i)
{
    return s->nets[i];
}

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
