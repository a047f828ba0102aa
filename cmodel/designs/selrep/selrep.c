/* The SelRep LLC design as a plug-in of the system: the L1 port that
 * routes each request to its (home or replica) slice, the H-Xbar, the
 * crossbars between each MC-router's slices and its stack's channels, the
 * RDD and epoch logic, the kernel-boundary flush of replicas and the
 * design's statistics (docs/designs/selrep.md). */
#include "designs/selrep/selrep.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cache/l1d.h"
#include "designs/common.h"
#include "designs/selrep/selrep_rdd.h"
#include "designs/selrep/selrep_rddb.h"
#include "noc/net.h"
#include "system/system.h"
#include "workload/workload.h"


/* Request lanes of the RDD block: requests it counts per core cycle
 * (**choice**, docs/designs/selrep.md section 4); more wait in a queue. */
#define RDD_LANES 4u
/* Bits of the line address the RDD keeps as a tag: 2^32 lines of 128 B
 * are 512 GB, so no two lines of a run alias. */
#define RDD_TAG_BITS 32u

typedef struct rdd_acc {
    uint32_t set;
    uint64_t tag;
    uint8_t cluster;
} rdd_acc;

typedef struct rdd_req {
    uint8_t home, cluster;
} rdd_req;

typedef struct selrep selrep;

typedef struct selrep_port {
    selrep *d;
    gm_l1d *l1;
    uint32_t core;
} selrep_port;

typedef struct epoch_rec {
    uint64_t cycle;
    uint32_t degree;                    /* index chosen */
    uint32_t acc;
    uint32_t hits[GM_SELREP_MAX_DEG];
    uint64_t lsp[GM_SELREP_MAX_DEG];    /* fixed point, GM_SELREP_FRAC_BITS */
    uint64_t bw[GM_SELREP_MAX_DEG];
} epoch_rec;

typedef struct selrep_stats {
    uint64_t llc_requests;          /* requests entering the request network */
    uint64_t ro_requests;           /* of which read-only loads */
    uint64_t replica_requests;      /* read-only loads sent to a slice other than home */
    uint64_t replicas_created;      /* line fetches by a slice other than the home */
    uint64_t replicas_flushed;      /* replicas invalidated at kernel boundaries */
    uint64_t placement_checks;      /* runs of the placement invariant */
    uint64_t flushes;
    uint64_t rdd_accesses;
    uint64_t rdd_backlog_max;       /* observations waiting for the RDD block's ports */
    uint64_t epochs;
    uint64_t degree_epochs[GM_SELREP_MAX_DEG];  /* epochs decided per degree */
    uint64_t degree_cycles[GM_SELREP_MAX_DEG];  /* core cycles in force per degree */
    uint64_t *slice_requests;       /* [nslices] */
} selrep_stats;

struct selrep {
    gm_system *s;
    gm_selrep_cfg cfg;
    gm_selrep_geom g;
    gm_selrep_rddb rdd;             /* the RDD block (selrep_rddb.h, RTL twin) */
    const gm_selrep_rdd_twin *twin; /* co-simulation: its RTL, or NULL */
    uint64_t rdd_cycles;            /* cycles the block has been clocked */
    rdd_acc *acc_q;                 /* observations for its ports, FIFO */
    rdd_req *req_q;
    uint32_t acc_head, acc_len, acc_cap, req_head, req_len, req_cap;
    epoch_rec cur_rec;              /* the epoch being decided */
    uint32_t *sampled;              /* [rdd_sets] slice set index of each RDD set */
    uint32_t ncores, nslices, nchannels, per_chan, chans_per_mc, cores_per_cluster;
    gm_l1d *l1;
    selrep_port *ports;
    gm_link *core_req, *core_rep;   /* [ncores] */
    gm_core_l2_ports net_ports; /* port arrays of the H-Xbar pair */
    gm_net req_net, rep_net;
    bool req_init, rep_init;
    /* MC crossbars: slices <-> channel ports of the same MC-router */
    gm_link *chan_in, *chan_out;    /* [nslices]: channel c port k at c*per_chan + k */
    gm_link **chan_in_ptrs, **chan_out_ptrs;
    uint32_t *rr_req;               /* [nslices] per channel port: last slice served */
    uint32_t *rr_rep;               /* [nslices] per slice: last channel port served */
    uint8_t *used;                  /* [nslices] scratch: one item per link per edge */
    uint64_t *last_seen;            /* [ncores] id of the last request observed */
    /* degree state (indices: degree = 1 << index) */
    uint32_t cur, pending, max_since_flush, private_left;
    bool has_pending;
    uint64_t apply_at, next_epoch, next_check;
    uint32_t kernel_seen;
    char invariant[256];
    epoch_rec *log;
    uint32_t nlog;
    selrep_stats st;
};

static uint32_t home_of(const selrep *d, uint64_t addr)
{
    return gm_selrep_hash_slice(&d->g, addr);
}

static uint32_t log2u(uint32_t x)
{
    uint32_t n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

/* ---- the core's port: its private L1D, and the routing computation ------ */

static void port_cycle(void *ctx, gm_time now)
{
    gm_l1d_port_cycle(((selrep_port *)ctx)->l1, now);
}

static gm_req *port_pop_reply(void *ctx, gm_time now)
{
    return gm_l1d_port_pop_reply(((selrep_port *)ctx)->l1, now);
}

static bool port_offer(void *ctx, const gm_req *probe, gm_time now)
{
    return gm_l1d_port_offer(((selrep_port *)ctx)->l1, probe, now);
}

/* The request's slice is chosen here, with the degree in force when it
 * enters the memory system: home for everything except read-only loads. */
static void port_accept(void *ctx, gm_req *r, gm_time now)
{
    selrep_port *p = ctx;
    selrep *d = p->d;
    uint32_t home = home_of(d, r->addr);
    bool ro = r->kind == GM_REQ_LOAD &&
              ((r->flags & GM_INST_READ_ONLY) || d->cfg.fault == GM_SELREP_FAULT_REPLICATE_ALL);
    uint32_t cluster = p->core / d->cores_per_cluster;
    uint32_t deg = d->cfg.fault == GM_SELREP_FAULT_OVER_DEGREE ? d->g.ndeg - 1 : d->cur;
    r->slice = (uint16_t)(ro ? gm_selrep_target(&d->g, home, cluster, deg) : home);
    gm_l1d_access(p->l1, r, now);
}

static bool port_busy(const void *ctx)
{
    return gm_l1d_busy(((const selrep_port *)ctx)->l1);
}

static const gm_core_port_ops selrep_port_ops = {
    .cycle = port_cycle,
    .pop_reply = port_pop_reply,
    .offer = port_offer,
    .accept = port_accept,
    .busy = port_busy,
};

/* ---- RDD observation at the MC-router ------------------------------------ */

/* Appends a slot to a FIFO of observations (an array from `head`, `len`
 * long), compacting or growing it; false only when out of memory, and
 * then the observation is lost (counted nowhere: it cannot happen in the
 * sizes gmsim runs). */
static bool push_obs(void **q, size_t elem, uint32_t *head, uint32_t *len, uint32_t *cap)
{
    if (*head && *head + *len == *cap) {
        memmove(*q, (char *)*q + (size_t)*head * elem, (size_t)*len * elem);
        *head = 0;
    }
    if (*len == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 64;
        void *n = realloc(*q, (size_t)ncap * elem);
        if (!n)
            return false;
        *q = n;
        *cap = ncap;
    }
    (*len)++;
    return true;
}

static bool rdd_active(const selrep *d)
{
    return d->cfg.org == GM_SELREP_SELREP ||
           (d->cfg.org == GM_SELREP_ADAPTIVE && d->cur == 0);
}

/* Every request that leaves an L1 for the LLC, once: the RDD (MC-router rdd_mc)
 * and the per-slice counters see it as it enters the request network. */
static void observe(selrep *d, const gm_req *r)
{
    d->st.llc_requests++;
    d->st.slice_requests[r->slice]++;
    if (r->kind != GM_REQ_LOAD || !(r->flags & GM_INST_READ_ONLY))
        return;
    d->st.ro_requests++;
    uint32_t home = home_of(d, r->addr);
    if (r->slice != home)
        d->st.replica_requests++;
    uint32_t first = d->cfg.rdd_mc * d->g.per_mc;
    if (!rdd_active(d) || home / d->g.per_mc != d->cfg.rdd_mc)
        return;
    uint32_t cluster = r->src / d->cores_per_cluster;
    if (!push_obs((void **)&d->req_q, sizeof *d->req_q, &d->req_head, &d->req_len,
                  &d->req_cap))
        return;
    d->req_q[d->req_head + d->req_len - 1] =
        (rdd_req){.home = (uint8_t)(home % d->g.per_mc), .cluster = (uint8_t)cluster};
    if (home != first)
        return;     /* the sampled sets are those of the router's first slice */
    uint32_t set = gm_tag_set(&d->s->slices[first].tags, r->addr);
    for (uint32_t k = 0; k < d->cfg.rdd_sets; k++)
        if (d->sampled[k] == set &&
            push_obs((void **)&d->acc_q, sizeof *d->acc_q, &d->acc_head, &d->acc_len,
                     &d->acc_cap)) {
            d->acc_q[d->acc_head + d->acc_len - 1] =
                (rdd_acc){.set = k, .tag = r->addr / d->s->cfg.l2.cache.line_bytes,
                          .cluster = (uint8_t)cluster};
            d->st.rdd_accesses++;
        }
}

static void icnt_observe(void *ctx, gm_time now)
{
    selrep *d = ctx;
    for (uint32_t i = 0; i < d->ncores; i++) {
        const gm_req *r = gm_link_peek(&d->core_req[i], now);
        if (r && r->id != d->last_seen[i]) {
            d->last_seen[i] = r->id;
            observe(d, r);
        }
    }
}

static void tick_request_net(void *ctx, gm_time now)
{
    gm_net_tick(&((selrep *)ctx)->req_net, now);
}

static void tick_reply_net(void *ctx, gm_time now)
{
    gm_net_tick(&((selrep *)ctx)->rep_net, now);
}

/* ---- the MC-routers' crossbars between slices and channels --------------- */

/* Transaction level: every channel port takes at most one request per DRAM
 * cycle from the slices of its MC-router, round robin from one past the
 * slice it served last; every slice takes at most one returned item per
 * cycle from the channel ports of its MC-router, likewise. */
static void mcx_requests(selrep *d, gm_time now)
{
    gm_system *s = d->s;
    uint32_t per_mc = d->g.per_mc;
    memset(d->used, 0, d->nslices);
    for (uint32_t q = 0; q < d->nslices; q++) {
        gm_link *out = &d->chan_in[q];
        if (!gm_link_can_push(out, now))
            continue;
        uint32_t c = q / d->per_chan, k = q % d->per_chan, mc = c / d->chans_per_mc;
        for (uint32_t t = 1; t <= per_mc; t++) {
            uint32_t j = mc * per_mc + (d->rr_req[q] + t) % per_mc;
            if (d->used[j])
                continue;
            gm_req *r = gm_link_peek(&s->l2_dram[j], now);
            if (!r)
                continue;
            uint32_t h = home_of(d, r->addr);
            if (h / d->per_chan != c || h % d->per_chan != k)
                continue;
            gm_link_pop(&s->l2_dram[j], now);
            d->used[j] = 1;
            d->rr_req[q] = j % per_mc;
            if (r->kind != GM_REQ_WRITEBACK && j != h) {
                d->st.replicas_created++;
                /* Only read-only loads may make a replica (section 3). */
                if ((r->kind != GM_REQ_LOAD || !(r->flags & GM_INST_READ_ONLY)) &&
                    !d->invariant[0]) {
                    snprintf(d->invariant, sizeof d->invariant,
                             "invariant: slice %u fetches line 0x%" PRIx64 " (home %u) for a "
                             "request that is not a read-only load (kind %d flags 0x%x)", j,
                             r->addr, h, (int)r->kind, (unsigned)r->flags);
                    gm_system_request_stop(s, d->invariant);
                }
            }
            gm_req_move(r, GM_LOC_DRAM, c, now);
            gm_link_push(out, r, now);
            break;
        }
    }
}

static void mcx_replies(selrep *d, gm_time now)
{
    gm_system *s = d->s;
    uint32_t ports = d->chans_per_mc * d->per_chan;
    memset(d->used, 0, d->nslices);
    for (uint32_t j = 0; j < d->nslices; j++) {
        gm_link *out = &s->dram_l2[j];
        if (!gm_link_can_push(out, now))
            continue;
        uint32_t mc = j / d->g.per_mc;
        for (uint32_t t = 1; t <= ports; t++) {
            uint32_t q = mc * ports + (d->rr_rep[j] + t) % ports;
            if (d->used[q])
                continue;
            gm_req *r = gm_link_peek(&d->chan_out[q], now);
            if (!r || r->slice != j)
                continue;
            gm_link_pop(&d->chan_out[q], now);
            d->used[q] = 1;
            d->rr_rep[j] = q % ports;
            gm_req_move(r, GM_LOC_L2, j, now);
            gm_link_push(out, r, now);
            break;
        }
    }
}

static void dram_crossbars(void *ctx, gm_time now)
{
    selrep *d = ctx;
    mcx_replies(d, now);
    mcx_requests(d, now);
}

/* ---- replicas: invariant and kernel-boundary flush ------------------------ */

/* A line may sit only in its home slice or in a slice its home reaches
 * under the largest degree in force since the last flush (replicas die by
 * replacement or at the flush), so no line has more copies than that
 * degree. Returns false and records the first violation. */
static bool check_placement(selrep *d)
{
    const gm_system *s = d->s;
    uint32_t span = d->g.per_mc >> d->max_since_flush;
    d->st.placement_checks++;
    for (uint32_t j = 0; j < d->nslices; j++) {
        const gm_tag_array *t = &s->slices[j].tags;
        for (uint32_t i = 0; i < t->sets * t->assoc; i++) {
            const gm_tag_line *l = &t->line[i];
            if (!l->used)
                continue;
            uint32_t h = home_of(d, l->addr);
            if (h / d->g.per_mc == j / d->g.per_mc && h % span == j % span)
                continue;
            snprintf(d->invariant, sizeof d->invariant,
                     "invariant: at core cycle %" PRIu64 " line 0x%" PRIx64 " (home slice %u) "
                     "is in slice %u, not reachable under degree %u",
                     s->core_cycle, l->addr, h, j, 1u << d->max_since_flush);
            return false;
        }
    }
    return true;
}

/* Replicas are clean (only read-only loads make them), so dropping them
 * loses nothing; the next kernel may store to what this one only read. */
static void flush_replicas(selrep *d)
{
    gm_system *s = d->s;
    for (uint32_t j = 0; j < d->nslices; j++) {
        gm_tag_array *t = &s->slices[j].tags;
        for (uint32_t i = 0; i < t->sets * t->assoc; i++)
            if (t->line[i].used && home_of(d, t->line[i].addr) != j) {
                gm_tag_invalidate(t, (int32_t)i);
                d->st.replicas_flushed++;
            }
    }
    d->st.flushes++;
    d->max_since_flush = d->cur;
}

/* ---- epochs ------------------------------------------------------------- */

static void set_degree(selrep *d, uint32_t deg)
{
    if (deg == d->cur && !d->has_pending)
        return;
    if (d->cfg.prop_delay == 0) {
        d->cur = deg;
        d->has_pending = false;
        if (deg > d->max_since_flush)
            d->max_since_flush = deg;
        return;
    }
    d->pending = deg;
    d->has_pending = true;
    d->apply_at = d->s->core_cycle + d->cfg.prop_delay;
}

/* A decided epoch: statistics, the log, and the degree after prop_delay. */
static void epoch_decided(selrep *d, uint32_t deg)
{
    if (d->cfg.org == GM_SELREP_ADAPTIVE && d->cur == 0 && deg == d->g.ndeg - 1)
        d->private_left = d->cfg.adaptive_period;
    d->st.epochs++;
    d->st.degree_epochs[deg]++;
    d->cur_rec.degree = deg;
    if (d->nlog < d->cfg.epoch_log)
        d->log[d->nlog++] = d->cur_rec;
    set_degree(d, deg);
}

/* One core cycle of the RDD block: its outputs of this cycle (a degree's
 * result, the decision), then the edge with the oldest waiting
 * observations and, at an epoch end, the start of a decision. While the
 * block is busy (gm_selrep_rddb_latency cycles) observations wait in the
 * queues; an epoch end waits for it too (never, when epoch_cycles is
 * longer than the latency). */
static void rdd_cycle(selrep *d, bool epoch_due)
{
    gm_selrep_rddb_out o;
    gm_selrep_rddb_eval(&d->rdd, &o);
    if (d->twin) {
        /* the RTL drives; the C block runs in shadow and is compared */
        gm_selrep_rddb_out c = o;
        d->twin->eval(d->twin->ctx, &o);
        if (d->twin->compare(d->twin->ctx, d->rdd_cycles, &c, &o) != 0)
            o = c;   /* the owner stops the run; keep the model consistent */
    }
    if (o.bw_valid) {
        epoch_rec *e = &d->cur_rec;
        uint32_t k = o.bw_deg;
        e->acc = o.bw_acc;
        e->hits[k] = o.bw_hits;
        e->lsp[k] = o.bw_max ? ((uint64_t)o.bw_sum << GM_SELREP_FRAC_BITS) / o.bw_max : 0;
        e->bw[k] = o.bw;
    }
    if (o.deg_valid)
        epoch_decided(d, o.deg);
    gm_selrep_rddb_in in = {0};
    if (!o.busy) {
        if (d->acc_len) {
            const rdd_acc *a = &d->acc_q[d->acc_head++];
            d->acc_len--;
            in.acc_valid = 1;
            in.acc_set = a->set;
            in.acc_tag = a->tag & (((uint64_t)1 << RDD_TAG_BITS) - 1);
            in.acc_cluster = a->cluster;
        }
        for (uint32_t k = 0; k < RDD_LANES && d->req_len; k++) {
            const rdd_req *r = &d->req_q[d->req_head++];
            d->req_len--;
            in.req_valid[k] = 1;
            in.req_home[k] = r->home;
            in.req_cluster[k] = r->cluster;
        }
        if (!d->acc_len)
            d->acc_head = 0;
        if (!d->req_len)
            d->req_head = 0;
        if (epoch_due) {
            uint32_t top = d->g.ndeg - 1;
            in.epoch = 1;
            /* adaptive, sampling as shared: all or nothing */
            in.cand = (uint8_t)(d->cfg.org == GM_SELREP_SELREP ? (1u << d->g.ndeg) - 1
                                                                : 1u | (1u << top));
            in.keep = (uint8_t)(d->cfg.org == GM_SELREP_SELREP ? d->cur : 0);
            in.b_llc = (uint16_t)d->cfg.b_llc;
            in.b_mem = (uint16_t)d->cfg.b_mem;
            d->cur_rec = (epoch_rec){.cycle = d->s->core_cycle};
        }
    }
    uint64_t backlog = (uint64_t)d->acc_len + d->req_len;
    if (backlog > d->st.rdd_backlog_max)
        d->st.rdd_backlog_max = backlog;
    gm_selrep_rddb_tick(&d->rdd, &in);
    if (d->twin)
        d->twin->tick(d->twin->ctx, &in);
    d->rdd_cycles++;
}

static void epoch_end(selrep *d)
{
    /* adaptive, private: no sampling; back to shared after the period to
     * see all clusters again */
    if (--d->private_left == 0) {
        d->st.epochs++;
        d->st.degree_epochs[0]++;
        d->cur_rec = (epoch_rec){.cycle = d->s->core_cycle, .degree = 0};
        if (d->nlog < d->cfg.epoch_log)
            d->log[d->nlog++] = d->cur_rec;
        set_degree(d, 0);
    } else {
        d->st.epochs++;
        d->st.degree_epochs[d->cur]++;
        d->cur_rec = (epoch_rec){.cycle = d->s->core_cycle, .degree = d->cur};
        if (d->nlog < d->cfg.epoch_log)
            d->log[d->nlog++] = d->cur_rec;
    }
}

static void core_edge(void *ctx, gm_time now)
{
    (void)now;
    selrep *d = ctx;
    gm_system *s = d->s;
    if (d->has_pending && s->core_cycle >= d->apply_at) {
        d->cur = d->pending;
        d->has_pending = false;
        if (d->cur > d->max_since_flush)
            d->max_since_flush = d->cur;
    }
    d->st.degree_cycles[d->cur]++;
    /* The placement invariant also runs every epoch_cycles cycles, in
     * every organization, not only at kernel boundaries. */
    if (s->core_cycle >= d->next_check) {
        d->next_check += d->cfg.epoch_cycles;
        if (!d->invariant[0] && !check_placement(d))
            gm_system_request_stop(s, d->invariant);
    }
    if (s->kernel_index != d->kernel_seen) {
        d->kernel_seen = s->kernel_index;
        if (!d->invariant[0] && !check_placement(d))
            gm_system_request_stop(s, d->invariant);
        flush_replicas(d);
    }
    if (d->cfg.org != GM_SELREP_SELREP && d->cfg.org != GM_SELREP_ADAPTIVE)
        return;
    bool due = s->core_cycle >= d->next_epoch;
    if (due && !rdd_active(d)) {
        d->next_epoch += d->cfg.epoch_cycles;
        epoch_end(d);
        due = false;
    }
    gm_selrep_rddb_out o;
    gm_selrep_rddb_eval(&d->rdd, &o);
    if (d->twin)
        d->twin->eval(d->twin->ctx, &o);
    /* the edge starts the decision only when the block is free */
    bool start = due && !o.busy;
    if (start)
        d->next_epoch += d->cfg.epoch_cycles;
    rdd_cycle(d, start);
}

/* ---- build ----------------------------------------------------------------- */

static int build_hxbar(gm_system *s, selrep *d, gm_error *err)
{
    const gm_noc_cfg *noc = &s->cfg.noc;
    uint32_t cl = d->g.clusters, mcs = d->g.mcs;
    if (gm_core_l2_ports_init(&d->net_ports, s, d->core_req, d->core_rep, err))
        return -1;
    gm_net_desc desc;
    int rc = gm_net_desc_hier_xbar(&desc, "request", cl, d->cores_per_cluster, mcs,
                                   d->g.per_mc, d->cfg.link_latency, err);
    if (rc == 0) {
        rc = gm_net_init(&d->req_net, &desc, noc, gm_dest_slice, NULL, err);
        d->req_init = rc == 0;
        gm_net_desc_free(&desc);
    }
    if (rc)
        return -1;
    rc = gm_net_desc_hier_xbar(&desc, "reply", mcs, d->g.per_mc, cl, d->cores_per_cluster,
                               d->cfg.link_latency, err);
    if (rc == 0) {
        rc = gm_net_init(&d->rep_net, &desc, noc, gm_dest_core, NULL, err);
        d->rep_init = rc == 0;
        gm_net_desc_free(&desc);
    }
    if (rc)
        return -1;
    gm_net_connect(&d->req_net, d->net_ports.req);
    gm_net_connect(&d->rep_net, d->net_ports.rep);
    int icnt = s->dom_icnt;
    if (gm_system_add_net(s, (gm_net_ref){&d->req_net, "hxbar", true, true, icnt}, err) ||
        gm_system_add_net(s, (gm_net_ref){&d->rep_net, "hxbar", false, true, icnt}, err) ||
        gm_system_on_edge(s, icnt, icnt_observe, d, err) ||
        gm_system_on_edge(s, icnt, tick_request_net, d, err) ||
        gm_system_on_edge(s, icnt, tick_reply_net, d, err))
        return -1;
    return 0;
}

static int build_dram_crossbars(gm_system *s, selrep *d, gm_error *err)
{
    const gm_clock_domain *dram = &s->clock.d[s->dom_dram];
    uint32_t n = d->nslices;
    if (gm_link_array_new(&d->chan_in, n, s->cfg.l2.dram_queue, 1, dram, err) ||
        /* Sized so a channel can always return what it accepted. */
        gm_link_array_new(&d->chan_out, n, s->cfg.dram.queue + 1, 1, dram, err))
        return -1;
    d->chan_in_ptrs = calloc(n, sizeof *d->chan_in_ptrs);
    d->chan_out_ptrs = calloc(n, sizeof *d->chan_out_ptrs);
    d->rr_req = calloc(n, sizeof *d->rr_req);
    d->rr_rep = calloc(n, sizeof *d->rr_rep);
    d->used = calloc(n, 1);
    if (!d->chan_in_ptrs || !d->chan_out_ptrs || !d->rr_req || !d->rr_rep || !d->used)
        return gm_fail(err, "out of memory");
    for (uint32_t q = 0; q < n; q++) {
        d->chan_in_ptrs[q] = &d->chan_in[q];
        d->chan_out_ptrs[q] = &d->chan_out[q];
        /* first visits start at offset 0 */
        d->rr_req[q] = d->g.per_mc - 1;
        d->rr_rep[q] = d->chans_per_mc * d->per_chan - 1;
    }
    gm_system_set_dram_ports(s, d->chan_in_ptrs, d->chan_out_ptrs);
    return gm_system_on_edge(s, s->dom_dram, dram_crossbars, d, err);
}

static uint32_t initial_degree(const selrep *d)
{
    switch (d->cfg.org) {
    case GM_SELREP_PRIVATE: return d->g.ndeg - 1;
    case GM_SELREP_STATIC: return log2u(d->cfg.degree);
    default: return 0;
    }
}

static void selrep_destroy(void *state)
{
    selrep *d = state;
    if (d->l1)
        for (uint32_t i = 0; i < d->ncores; i++)
            gm_l1d_free(&d->l1[i]);
    free(d->l1);
    free(d->ports);
    if (d->req_init)
        gm_net_free(&d->req_net);
    if (d->rep_init)
        gm_net_free(&d->rep_net);
    gm_link_array_free(d->core_req, d->ncores);
    gm_link_array_free(d->core_rep, d->ncores);
    gm_link_array_free(d->chan_in, d->nslices);
    gm_link_array_free(d->chan_out, d->nslices);
    gm_core_l2_ports_free(&d->net_ports);
    free(d->chan_in_ptrs);
    free(d->chan_out_ptrs);
    free(d->rr_req);
    free(d->rr_rep);
    free(d->used);
    free(d->last_seen);
    free(d->sampled);
    free(d->acc_q);
    free(d->req_q);
    free(d->log);
    free(d->st.slice_requests);
    gm_selrep_rddb_free(&d->rdd);
    free(d);
}

static int selrep_build(gm_system *s, void **state, gm_error *err)
{
    selrep *d = calloc(1, sizeof *d);
    if (!d)
        return gm_fail(err, "out of memory");
    *state = d;
    const gm_config *cfg = &s->cfg;
    d->s = s;
    d->cfg = cfg->selrep;
    d->ncores = s->ncores;
    d->nslices = s->nslices;
    d->nchannels = s->nchannels;
    d->per_chan = s->nslices / s->nchannels;
    d->chans_per_mc = s->nchannels / d->cfg.mc_routers;
    d->cores_per_cluster = cfg->core.num_cores / cfg->core.clusters;
    if (gm_selrep_geom_init(&d->g, s->nslices, d->cfg.mc_routers, cfg->core.clusters,
                            cfg->dram.partition_bytes, d->cfg.hash != 0, err))
        return -1;
    gm_selrep_rddb_params rp = {
        .sets = d->cfg.rdd_sets, .ways = cfg->l2.cache.assoc, .clusters = d->g.clusters,
        .slices = d->g.per_mc, .ndeg = d->g.ndeg, .counter_bits = d->cfg.counter_bits,
        .tag_bits = RDD_TAG_BITS, .lanes = RDD_LANES, .capacity = d->cfg.rdd_capacity != 0,
    };
    if (gm_selrep_rddb_init(&d->rdd, &rp, err))
        return -1;
    uint32_t sets = s->slices[0].tags.sets;
    d->sampled = calloc(d->cfg.rdd_sets, sizeof *d->sampled);
    d->last_seen = calloc(d->ncores, sizeof *d->last_seen);
    d->log = calloc(d->cfg.epoch_log ? d->cfg.epoch_log : 1, sizeof *d->log);
    d->st.slice_requests = calloc(d->nslices, sizeof *d->st.slice_requests);
    d->l1 = calloc(d->ncores, sizeof *d->l1);
    d->ports = calloc(d->ncores, sizeof *d->ports);
    if (!d->sampled || !d->last_seen || !d->log || !d->st.slice_requests || !d->l1 ||
        !d->ports)
        return gm_fail(err, "out of memory");
    for (uint32_t k = 0; k < d->cfg.rdd_sets; k++)
        d->sampled[k] = k * (sets / d->cfg.rdd_sets);
    for (uint32_t i = 0; i < d->ncores; i++)
        d->last_seen[i] = UINT64_MAX;
    d->cur = d->max_since_flush = initial_degree(d);
    d->next_epoch = d->cfg.epoch_cycles;
    d->next_check = d->cfg.epoch_cycles;
    if (gm_link_array_new(&d->core_req, d->ncores, 2, GM_SYNC_EDGES,
                          &s->clock.d[s->dom_icnt], err) ||
        gm_link_array_new(&d->core_rep, d->ncores, cfg->noc.eject_queue, GM_SYNC_EDGES,
                          &s->clock.d[s->dom_core], err))
        return -1;
    for (uint32_t i = 0; i < d->ncores; i++) {
        if (gm_l1d_init(&d->l1[i], &cfg->l1, i, &s->res, err) ||
            gm_system_add_l1(s, &d->l1[i].stats, err))
            return -1;
        gm_l1d_connect(&d->l1[i], (gm_l1d_ports){.miss_out = &d->core_req[i],
                                                 .fill_in = &d->core_rep[i]});
        d->ports[i] = (selrep_port){.d = d, .l1 = &d->l1[i], .core = i};
        gm_core_attach_port(&s->cores[i], (gm_core_port){&selrep_port_ops, &d->ports[i], NULL});
    }
    s->copies.max_allowed = d->ncores;
    if (build_hxbar(s, d, err) || build_dram_crossbars(s, d, err) ||
        gm_system_on_edge(s, s->dom_core, core_edge, d, err))
        return -1;
    return 0;
}

static bool selrep_busy(const void *state)
{
    const selrep *d = state;
    for (uint32_t q = 0; q < d->nslices; q++)
        if (!gm_link_empty(&d->chan_in[q]) || !gm_link_empty(&d->chan_out[q]))
            return true;
    return false;
}

static int selrep_check_drained(const void *state, gm_error *err)
{
    selrep *d = (selrep *)state;
    if (gm_link_array_check_empty(d->core_req, d->ncores, "L1->H-Xbar", err) ||
        gm_link_array_check_empty(d->core_rep, d->ncores, "H-Xbar->L1", err) ||
        gm_link_array_check_empty(d->chan_in, d->nslices, "MC crossbar->DRAM", err) ||
        gm_link_array_check_empty(d->chan_out, d->nslices, "DRAM->MC crossbar", err))
        return -1;
    if (d->invariant[0] || !check_placement(d))
        return gm_fail(err, "%s", d->invariant);
    return 0;
}

/* ---- statistics ------------------------------------------------------------ */

static const char *const org_label[] = { "Shared", "Private", "Static", "SelRep", "Adaptive" };

static void selrep_point_name(const void *state, char *buf, size_t len)
{
    const selrep *d = state;
    if (d->cfg.org == GM_SELREP_STATIC)
        snprintf(buf, len, "Static-d%u", d->cfg.degree);
    else
        snprintf(buf, len, "%s", org_label[d->cfg.org]);
}

static cJSON *u64_array(const uint64_t *v, uint32_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

static double fixed(uint64_t x)
{
    return (double)x / (double)(1u << GM_SELREP_FRAC_BITS);
}

/* Flits on the H-Xbar by level: into the SM- (request) or MC-routers
 * (reply), over the long links between the levels, out of the network. */
static cJSON *net_levels(const gm_net *n)
{
    cJSON *o = cJSON_CreateObject();
    uint64_t between = 0;
    for (uint32_t c = 0; c < n->n_channels; c++)
        between += n->st.chan_flits[c];
    cJSON_AddNumberToObject(o, "inject_flits", (double)n->st.flits_in);
    cJSON_AddNumberToObject(o, "level_link_flits", (double)between);
    cJSON_AddNumberToObject(o, "eject_flits", (double)n->st.flits_out);
    double cap = (double)n->n_channels * (double)n->st.cycles;
    cJSON_AddNumberToObject(o, "level_link_utilization", cap > 0 ? (double)between / cap : 0);
    /* one flit per terminal link per network cycle at most */
    double in_cap = (double)n->n_sources * (double)n->st.cycles;
    double out_cap = (double)n->n_sinks * (double)n->st.cycles;
    cJSON_AddNumberToObject(o, "inject_utilization",
                            in_cap > 0 ? (double)n->st.flits_in / in_cap : 0);
    cJSON_AddNumberToObject(o, "eject_utilization",
                            out_cap > 0 ? (double)n->st.flits_out / out_cap : 0);
    return o;
}

/* Per HBM channel: the system's dram object only has the totals. The
 * bandwidth is the report's formula (column commands x atom over the
 * channel's own cycles at the DRAM clock). */
static cJSON *hbm_channels(const gm_system *s)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < s->nchannels; i++) {
        const gm_dram_stats *st = &s->chans[i].stats;
        uint64_t acc = st->row_hits + st->row_misses + st->row_conflicts;
        double bytes = (double)(st->rd_cmds + st->wr_cmds) * s->cfg.dram.atom_bytes;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "reads", (double)st->reads);
        cJSON_AddNumberToObject(o, "writes", (double)st->writes);
        cJSON_AddNumberToObject(o, "row_hit_rate", acc ? (double)st->row_hits / (double)acc : 0);
        cJSON_AddNumberToObject(o, "bandwidth_gbs",
                                st->cycles ? bytes * s->cfg.dram.clock_mhz /
                                                 (double)st->cycles / 1e3
                                           : 0);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static void selrep_stats_json(const gm_system *s, const void *state, cJSON *design,
                              cJSON *root)
{
    (void)root;
    const selrep *d = state;
    const selrep_stats *st = &d->st;
    char name[32];
    selrep_point_name(d, name, sizeof name);
    cJSON_AddStringToObject(design, "org", name);
    cJSON_AddNumberToObject(design, "l1_caches", s->ncores);
    cJSON_AddNumberToObject(design, "max_degree", 1u << (d->g.ndeg - 1));
    cJSON_AddNumberToObject(design, "final_degree", 1u << d->cur);
    /* LLC hit rate over every served access (loads, stores, atomics) */
    uint64_t acc = 0, hits = 0;
    for (uint32_t j = 0; j < s->nslices; j++)
        for (uint32_t k = 0; k < GM_REQ_KIND_COUNT; k++) {
            acc += s->slices[j].stats.accesses[k];
            hits += s->slices[j].stats.hits[k];
        }
    cJSON_AddNumberToObject(design, "llc_accesses", (double)acc);
    cJSON_AddNumberToObject(design, "llc_hits", (double)hits);
    cJSON_AddNumberToObject(design, "llc_hit_rate", acc ? (double)hits / (double)acc : 0);
    cJSON_AddNumberToObject(design, "llc_requests", (double)st->llc_requests);
    cJSON_AddNumberToObject(design, "ro_requests", (double)st->ro_requests);
    cJSON_AddNumberToObject(design, "replica_requests", (double)st->replica_requests);
    cJSON_AddNumberToObject(design, "replicas_created", (double)st->replicas_created);
    cJSON_AddNumberToObject(design, "replicas_flushed", (double)st->replicas_flushed);
    /* Evictions of replicas by replacement, without a hook in the cache
     * engine: every replica is created by one fetch and leaves by the
     * kernel-boundary flush, by replacement, or not at all (resident at
     * the end); nothing else invalidates a non-home line. */
    uint64_t resident = 0;
    for (uint32_t j = 0; j < s->nslices; j++) {
        const gm_tag_array *t = &s->slices[j].tags;
        for (uint32_t i = 0; i < t->sets * t->assoc; i++)
            resident += t->line[i].used && home_of(d, t->line[i].addr) != j;
    }
    cJSON_AddNumberToObject(design, "replicas_resident", (double)resident);
    cJSON_AddNumberToObject(design, "replicas_evicted",
                            (double)st->replicas_created - (double)st->replicas_flushed -
                                (double)resident);
    cJSON_AddNumberToObject(design, "placement_checks", (double)st->placement_checks);
    cJSON_AddItemToObject(design, "hbm_channels", hbm_channels(s));
    cJSON_AddNumberToObject(design, "flushes", (double)st->flushes);
    cJSON_AddNumberToObject(design, "rdd_accesses", (double)st->rdd_accesses);
    cJSON_AddNumberToObject(design, "rdd_backlog_max", (double)st->rdd_backlog_max);
    cJSON_AddNumberToObject(design, "rdd_latency", gm_selrep_rddb_latency(&d->rdd));
    cJSON_AddNumberToObject(design, "epochs", (double)st->epochs);
    /* degree histograms, index k = degree 2^k */
    cJSON_AddItemToObject(design, "degree_epochs", u64_array(st->degree_epochs, d->g.ndeg));
    cJSON_AddItemToObject(design, "degree_cycles", u64_array(st->degree_cycles, d->g.ndeg));
    cJSON_AddItemToObject(design, "slice_requests", u64_array(st->slice_requests, d->nslices));
    uint64_t max = 0, sum = 0;
    for (uint32_t j = 0; j < d->nslices; j++) {
        sum += st->slice_requests[j];
        if (st->slice_requests[j] > max)
            max = st->slice_requests[j];
    }
    /* max over mean: 1 when balanced, nslices when one slice gets all */
    cJSON_AddNumberToObject(design, "slice_imbalance",
                            sum ? (double)max * d->nslices / (double)sum : 0);
    cJSON *hx = cJSON_AddObjectToObject(design, "hxbar");
    cJSON_AddItemToObject(hx, "request", net_levels(&d->req_net));
    cJSON_AddItemToObject(hx, "reply", net_levels(&d->rep_net));
    cJSON *log = cJSON_AddArrayToObject(design, "epoch_log");
    for (uint32_t i = 0; i < d->nlog; i++) {
        const epoch_rec *e = &d->log[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "cycle", (double)e->cycle);
        cJSON_AddNumberToObject(o, "degree", 1u << e->degree);
        cJSON_AddNumberToObject(o, "rdd_accesses", e->acc);
        cJSON *h = cJSON_AddArrayToObject(o, "hits");
        cJSON *l = cJSON_AddArrayToObject(o, "lsp");
        cJSON *b = cJSON_AddArrayToObject(o, "bandwidth");
        for (uint32_t k = 0; k < d->g.ndeg; k++) {
            cJSON_AddItemToArray(h, cJSON_CreateNumber(e->hits[k]));
            cJSON_AddItemToArray(l, cJSON_CreateNumber(fixed(e->lsp[k])));
            cJSON_AddItemToArray(b, cJSON_CreateNumber(fixed(e->bw[k])));
        }
        cJSON_AddItemToArray(log, o);
    }
}

static void selrep_stats_text(const gm_system *s, const void *state, FILE *f)
{
    (void)s;
    const selrep *d = state;
    char name[32];
    selrep_point_name(d, name, sizeof name);
    fprintf(f, "  design                 SelRep LLC %s (%u MC-routers, degree now %u, "
               "%" PRIu64 " epochs, %" PRIu64 " replica requests)\n",
            name, d->g.mcs, 1u << d->cur, d->st.epochs, d->st.replica_requests);
}

const gm_design_ops gm_selrep_design = {
    .name = "selrep",
    .summary = "SelRep LLC: private L1Ds, H-Xbar, LLC slices with shared / private / static "
               "/ selective / adaptive replication of read-only lines, per-stack crossbars "
               "to HBM (SelRep seed Table I)",
    .l1_noun = "L1s",
    .section = &gm_selrep_section,
    .keys = gm_selrep_keys,
    .nkeys = GM_SELREP_NKEYS,
    .validate = gm_selrep_validate,
    .build = selrep_build,
    .destroy = selrep_destroy,
    .busy = selrep_busy,
    .check_drained = selrep_check_drained,
    .stats_json = selrep_stats_json,
    .stats_text = selrep_stats_text,
    .point_name = selrep_point_name,
};

/* ---- co-simulation ---------------------------------------------------------- */

static selrep *rdd_owner(const gm_system *s, gm_error *err)
{
    if (s->design != &gm_selrep_design) {
        gm_fail(err, "selrep-rdd: the system's design is not selrep");
        return NULL;
    }
    selrep *d = s->design_state;
    if (d->cfg.org != GM_SELREP_SELREP && d->cfg.org != GM_SELREP_ADAPTIVE) {
        gm_fail(err, "selrep-rdd: [selrep] org has no RDD (only selrep and adaptive)");
        return NULL;
    }
    return d;
}

int gm_selrep_rdd_params(const gm_system *s, gm_selrep_rddb_params *p, gm_error *err)
{
    const selrep *d = rdd_owner(s, err);
    if (!d)
        return -1;
    *p = d->rdd.p;
    return 0;
}

int gm_selrep_attach_rdd_twin(gm_system *s, const gm_selrep_rdd_twin *twin, gm_error *err)
{
    selrep *d = rdd_owner(s, err);
    if (!d)
        return -1;
    d->twin = twin;
    return 0;
}
