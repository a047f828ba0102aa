/* gm_core: the trace-driven "lite" SIMT core.
 *
 * Warps issue from their per-warp instruction streams (workload.h) subject
 * to a register scoreboard; compute instructions hold their destination for
 * a per-class latency; memory instructions go to one LD/ST unit that
 * coalesces them (coalescer.h) and offers its memory port one line request
 * per cycle. The core knows no cache: what sits behind the port is the
 * design's (designs/): the baseline's private L1D front end, a DC-L1 lite
 * core's direct link into NoC#1, and whatever later designs put there. */
#ifndef GM_CORE_CORE_H
#define GM_CORE_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "core/coalescer.h"
#include "dram/addr_map.h"
#include "sim/req.h"
#include "workload/workload.h"

#define GM_CORE_MAX_WARPS 64
#define GM_CORE_MAX_CTAS 32
#define GM_WARP_IBUF 8       /* instructions buffered per warp (docs/performance.md 3.7) */
#define GM_WARP_COMPUTE 8    /* compute results in flight per warp */

/* The core's memory port, implemented by the design. Per core edge the
 * core calls, in this order: cycle (when set), pop_reply until it returns
 * NULL, then at most one offer/accept pair for the LD/ST head. A private
 * L1 does its own clocked work in cycle, so it evaluates in a fixed order
 * with its core. */
typedef struct gm_core_port_ops {
    void (*cycle)(void *ctx, gm_time now);
    /* The next request completed at now, or NULL. */
    gm_req *(*pop_reply)(void *ctx, gm_time now);
    /* Whether a request like probe (addr, sectors, kind) is accepted at
     * now. A port that refuses counts the refusal in its own statistics. */
    bool (*offer)(void *ctx, const gm_req *probe, gm_time now);
    /* Takes r; only right after offer() said yes for it. */
    void (*accept)(void *ctx, gm_req *r, gm_time now);
    /* Requests accepted and not yet returned, or other work inside. */
    bool (*busy)(const void *ctx);
} gm_core_port_ops;

typedef struct gm_core_port {
    const gm_core_port_ops *ops;
    void *ctx;
    /* Optional (may be NULL): the port's count of requests accepted and
     * not yet returned; while it is 0 the core skips pop_reply, which saves
     * an indirect call per core cycle on a port with nothing inside. */
    const uint32_t *outstanding;
} gm_core_port;

typedef struct gm_core_stats {
    uint64_t cycles;            /* core cycles with at least one resident warp */
    uint64_t warp_insts;        /* warp instructions issued */
    uint64_t thread_insts;      /* active lanes summed over issued instructions */
    uint64_t mem_insts;         /* global/local/atomic/tex/const warp instructions */
    uint64_t line_reqs;         /* coalesced 128 B line requests */
    uint64_t sector_reqs;       /* 32 B sectors requested */
    uint64_t stall_scoreboard;  /* scheduler slots lost to dependencies */
    uint64_t stall_ldst;        /* slots lost to a full LD/ST queue */
    uint64_t stall_barrier;     /* slots where every ready warp waited at a barrier */
    uint64_t idle_slots;        /* slots with no warp at all */
    uint64_t l1_refusals;       /* cycles the LD/ST unit was refused by its port */
    uint64_t ctas_done;
    uint64_t mem_latency_sum;   /* request creation to completion, in clock ticks */
    uint64_t mem_latency_n;
    uint64_t mem_latency_max;
    uint64_t event_hash;        /* FNV-1a over (request id, completion time) */
} gm_core_stats;

/* A memory instruction in flight: the warp's destination register stays
 * pending until every one of its line requests has come back. */
typedef struct gm_mem_rec {
    uint16_t warp;
    uint8_t dst;
    uint8_t is_store;
    uint32_t remaining;
    struct gm_mem_rec *next_free;
} gm_mem_rec;

typedef struct gm_compute_slot {
    uint8_t reg;
    uint64_t ready;  /* core cycle at which the result is written */
} gm_compute_slot;

/* What the schedulers look at every cycle, kept apart from gm_warp so the
 * scan over a scheduler's warps touches one small array. */
#define GM_WS_LIVE 0x1      /* slot holds a warp of a resident CTA */
#define GM_WS_EXITED 0x2
#define GM_WS_BARRIER 0x4
#define GM_WS_WAITMEM 0x8   /* head instruction needs a register a load will write */
#define GM_WS_DEPSOK 0x10   /* head instruction's registers are all available */
#define GM_WS_HEADMEM 0x20  /* head instruction goes to the LD/ST unit */

typedef struct gm_warp_state {
    uint64_t wake;          /* head instruction waits for compute results until then */
    uint8_t flags;
} gm_warp_state;

typedef struct gm_warp {
    uint8_t ncompute;
    uint16_t cta_slot;
    uint32_t outstanding;    /* memory instructions not yet complete */
    uint64_t age;            /* launch order, for GTO */
    gm_warp_gen gen;
    const gm_kernel *kernel;
    int ibuf_n, ibuf_pos;
    bool stream_done;
    uint64_t issued;         /* warp instructions issued (progress reports) */
    uint64_t pending[4];     /* registers waiting for memory */
    gm_compute_slot compute[GM_WARP_COMPUTE];
    gm_inst *ibuf;           /* GM_WARP_IBUF instructions, in gm_core.ibufs */
} gm_warp;

typedef struct gm_cta_slot {
    bool live;
    uint32_t cta;            /* linear CTA id */
    uint32_t nwarps;
    uint32_t warps_left;     /* warps that have not finished */
    uint32_t at_barrier;
    uint64_t warp_mask;      /* warp slots of the CTA's live warps */
    uint64_t insts;          /* warp instructions of its finished warps (progress reports) */
} gm_cta_slot;

/* One memory instruction waiting in the LD/ST unit. */
typedef struct gm_ldst_entry {
    gm_mem_rec *rec;
    uint8_t kind;            /* gm_req_kind */
    uint8_t flags;
    uint32_t nlines;
    uint32_t next_line;
    gm_coalesced co;
} gm_ldst_entry;

typedef struct gm_core {
    uint32_t id;
    const gm_core_cfg *cfg;
    const gm_addr_map *amap;
    gm_req_pool *pool;
    gm_core_port port;       /* the memory system, as the design wires it */
    uint64_t cycle;          /* core cycles seen by this core */
    uint64_t next_age;
    uint32_t resident_ctas;
    uint64_t cta_insts_done; /* warp instructions of the CTAs finished here;
                                for progress reports, not a statistic */
    uint32_t free_warps;
    uint32_t live_warps;
    uint32_t last_issued[8]; /* per scheduler */
    /* Per scheduler, its live warps oldest first (GTO's search order). */
    uint8_t age_order[8][GM_CORE_MAX_WARPS];
    uint32_t age_count[8];
    gm_warp_state ws[GM_CORE_MAX_WARPS];
    gm_warp warps[GM_CORE_MAX_WARPS];
    /* Instruction buffers apart from the warps: they are large (addresses)
     * and touched only at the head, so the warps stay compact. */
    gm_inst (*ibufs)[GM_WARP_IBUF];
    gm_cta_slot ctas[GM_CORE_MAX_CTAS];
    gm_ldst_entry *ldst;     /* ring of cfg->ldst_queue entries */
    uint32_t ldst_head, ldst_count;
    gm_mem_rec *recs;
    gm_mem_rec *free_recs;
    /* Idle schedulers sleep (docs/architecture.md, "Exact shortcuts"):
     * `events` counts everything that can change a warp's issue verdict
     * other than time (an issue, a completed request, an LD/ST queue
     * slot freed, a CTA launched, a warp finished, a barrier released).
     * A scheduler whose whole pass issued nothing records why, the
     * event count, and the first cycle a compute result it waits for is
     * written; until either moves, every pass would find the same. */
    uint64_t events;
    /* Most events touch one scheduler's warps or none, so a scheduler
     * that looks only at its own warps watches fewer counters:
     * shared_events (a CTA launched, a warp finished, a barrier
     * released, the LD/ST queue or the memory records no longer full)
     * and own_events[s] (a load of one of scheduler s's warps done). */
    uint64_t shared_events;
    uint64_t own_events[8];
    /* GTO starts each scheduler's "last issued" at warp 0, which is
     * scheduler 0's: until it issues a warp of its own, a scheduler also
     * looks at that warp and must see every event, as before. */
    bool watches_all[8];
    uint64_t sleep_until[8];
    uint64_t sleep_events[8];
    /* The stall statistic a sleeping slot adds to, as its byte offset in
     * `stats` (an offset, not a pointer, so that a core can be copied). */
    uint16_t sleep_stat[8];
    /* Every scheduler asleep: `events` when that was seen, and the first
     * cycle one of them wakes (0: not all asleep). */
    uint64_t nap_events;
    uint64_t nap_until;
    uint64_t last_progress;  /* cycle of the last issue or completion */
    /* What the LD/ST head is offered as: only addr, sectors and kind are
     * ever set, so the rest stays zero from init (building a zeroed
     * gm_req per offer cost 2% of a run). */
    gm_req probe;
    bool probe_live;         /* probe holds the LD/ST head's next line */
    uint32_t pending_finish; /* CTAs finished during this cycle's issue */
    gm_core_stats stats;
} gm_core;

int gm_core_init(gm_core *c, const gm_config *cfg, uint32_t id,
                 const gm_addr_map *amap, gm_req_pool *pool, gm_error *err);
void gm_core_free(gm_core *c);
/* Wires the memory port; before the first tick. */
void gm_core_attach_port(gm_core *c, gm_core_port port);

/* Whether n CTAs of kernel k fit in the free warp and CTA slots now. */
bool gm_core_can_take_ctas(const gm_core *c, const gm_kernel *k, uint32_t n);
bool gm_core_can_take_cta(const gm_core *c, const gm_kernel *k);
void gm_core_launch_cta(gm_core *c, const gm_kernel *k, uint32_t cta);

/* One core-clock edge. Returns the number of CTAs that finished. */
uint32_t gm_core_tick(gm_core *c, gm_time now);

/* Anything resident or in flight (warps, LD/ST queue, the port). */
bool gm_core_busy(const gm_core *c);

#endif
