/* A general network of gm_router instances, built from a description
 * (docs/noc.md section 9). The description is data, in the manner of
 * BookSim's anynet: routers (each an N x M instance of the router block),
 * channels from a router output to a router input with a latency,
 * endpoints (sources: an injection NI on a router input, fed by a gm_link;
 * sinks: an ejection NI on a router output, pushing to a gm_link), and a
 * routing table route[router][sink] -> output port. The run loop does not
 * know the topology; builders fill descriptions for the topologies the
 * designs use (one crossbar, a unidirectional ring, a two-level
 * hierarchical crossbar).
 *
 * Packets are gm_req. dest(r, ctx) names the sink (< n_sinks); injection,
 * ejection, links and statistics are those of the crossbar network
 * (noc/xbar.h), of which a one-router gm_net is a bit-exact replacement.
 * All routers of a net share one gm_noc_cfg (VCs, VC depth, stages, iSLIP
 * iterations, flit size), so a router's input VC buffer is exactly as deep
 * as the credits of the router output that feeds it.
 *
 * gm_net_tick must be called at every edge of the network's clock domain;
 * while gm_net_busy() is false and no link item is waiting, edges may be
 * skipped and accounted with gm_net_skip_idle(). */
#ifndef GM_NOC_NET_H
#define GM_NOC_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "noc/ni.h"
#include "noc/ringstop.h"
#include "noc/router.h"
#include "sim/clock.h"
#include "sim/error.h"
#include "sim/link.h"
#include "sim/req.h"

#define GM_NET_NAME 48u           /* bytes of a net or router name, with NUL */
#define GM_NET_NO_ROUTE 0xFFFFu   /* route table: no packet for that sink here */
#define GM_NET_MAX_LATENCY 1024u  /* channel latency, network cycles */

/* ---- description ---- */

/* A router port: input port for sources and channel ends, output port for
 * sinks and channel starts. */
typedef struct gm_net_port {
    uint32_t router;
    uint32_t port;
} gm_net_port;

/* The block at a node. A net is all routers or all ring stops. A ring
 * stop (noc/ringstop.h) is 2 x 2: input and output 0 are its source and
 * sink, input and output 1 the ring; one stop alone is 1 x 1. Its channels
 * have latency >= 1, its source and sink need no NI, and the net's
 * vc_depth is its ring buffer depth in packets (docs/noc.md section 10). */
typedef enum gm_net_block {
    GM_NET_BLOCK_ROUTER = 0,
    GM_NET_BLOCK_RINGSTOP,
} gm_net_block;

typedef struct gm_net_router_desc {
    char name[GM_NET_NAME];  /* instance name ("noc1-request-3"), unique */
    uint32_t n_in, n_out;
    uint32_t kind;           /* gm_net_block; zeroed descriptions are routers */
} gm_net_router_desc;

/* Flits go from `from` (an output port) to `to` (an input port) and arrive
 * `latency` cycles after the upstream router drives them; credits come
 * back with the same latency. Latency 0 is a plain wire: the upstream
 * output register drives the downstream input, as between an NI and its
 * router. */
typedef struct gm_net_channel_desc {
    gm_net_port from;
    gm_net_port to;
    uint32_t latency;        /* 0..GM_NET_MAX_LATENCY */
} gm_net_channel_desc;

typedef struct gm_net_desc {
    char name[GM_NET_NAME];
    uint32_t n_routers, n_channels, n_sources, n_sinks;
    gm_net_router_desc *routers;     /* [n_routers] */
    gm_net_channel_desc *channels;   /* [n_channels] */
    gm_net_port *sources;            /* [n_sources] router input of injection NI i */
    gm_net_port *sinks;              /* [n_sinks] router output of ejection NI j */
    uint16_t *route;                 /* [n_routers * n_sinks]: route[r * n_sinks + j]
                                        is the output port of router r towards
                                        sink j, or GM_NET_NO_ROUTE */
} gm_net_desc;

/* Allocates a description with zeroed routers, channels and endpoints and
 * every route entry GM_NET_NO_ROUTE, for the caller to fill. */
int gm_net_desc_alloc(gm_net_desc *d, const char *name, uint32_t n_routers,
                      uint32_t n_channels, uint32_t n_sources,
                      uint32_t n_sinks, gm_error *err);
void gm_net_desc_free(gm_net_desc *d);

/* Checks a description: sizes, every router port connected to exactly one
 * source, sink or channel end, channels between existing ports, every
 * route entry a port that leads to its sink, every sink reachable from
 * every source. gm_net_init calls it; errors name the router and port. */
int gm_net_desc_check(const gm_net_desc *d, gm_error *err);

/* Fills the route table with minimal-hop routes over the channels (ties
 * go to the lowest output port); entries of routers that cannot reach a
 * sink are GM_NET_NO_ROUTE. For descriptions without a hand-made table. */
int gm_net_desc_route_min_hops(gm_net_desc *d, gm_error *err);

/* One router n_src x n_sink named `name`: source i on input i, sink j on
 * output j. The crossbar network of noc/xbar.h. */
int gm_net_desc_crossbar(gm_net_desc *d, const char *name, uint32_t n_src,
                         uint32_t n_sink, gm_error *err);

/* A unidirectional ring of `nodes` stops, routers "<name>-<k>" of 2 x 2:
 * input 0 is source k (local injection), input 1 the ring input; output 0
 * is sink k (local ejection), output 1 the ring output, joined to the ring
 * input of stop k+1 (GM_NET_RING_UP) or k-1 (GM_NET_RING_DOWN), modulo
 * nodes, by a channel of `latency`. A packet goes round in that direction
 * until its sink's stop. One stop is a 1 x 1 router. Multi-hop routes on a
 * ring can deadlock (docs/noc.md 9.7): a bidirectional ring is two nets,
 * and designs forward hop by hop. */
typedef enum gm_net_ring_dir {
    GM_NET_RING_UP = 0,      /* stop k -> stop (k + 1) mod nodes */
    GM_NET_RING_DOWN,        /* stop k -> stop (k - 1) mod nodes */
} gm_net_ring_dir;
int gm_net_desc_ring(gm_net_desc *d, const char *name, uint32_t nodes,
                     gm_net_ring_dir dir, uint32_t latency, gm_error *err);
/* Makes every node of a description a ring stop (after gm_net_desc_ring). */
void gm_net_desc_use_ring_stops(gm_net_desc *d);

/* Two-level crossbar: n_first first-level routers "<name>-l1-<g>" of
 * src_per_first x n_second hold the sources (source i on router
 * i / src_per_first, input i % src_per_first); n_second second-level
 * routers "<name>-l2-<k>" of n_first x sink_per_second hold the sinks
 * (sink j on router j / sink_per_second, output j % sink_per_second);
 * output k of first-level router g is joined to input g of second-level
 * router k by a channel of `latency`. The reply direction of the same
 * hardware is this builder with the roles swapped (the groups of sinks of
 * the request net are the first level). */
int gm_net_desc_hier_xbar(gm_net_desc *d, const char *name, uint32_t n_first,
                          uint32_t src_per_first, uint32_t n_second,
                          uint32_t sink_per_second, uint32_t latency,
                          gm_error *err);

/* ---- the network ---- */

typedef struct gm_net_ports {
    gm_link **in;    /* [n_sources] injection links, items gm_req*; net consumes */
    gm_link **out;   /* [n_sinks] ejection links; net produces */
} gm_net_ports;

/* Statistics; cycles are edges of the network clock. The fields up to
 * lat_max mean what they mean for gm_xbar_stats, with sources for inputs
 * and sinks for outputs. A channel carries at most one flit per cycle, so
 * chan_flits[c] / cycles is its utilization. */
typedef struct gm_net_stats {
    uint64_t cycles;          /* network edges, ticked or skipped */
    uint64_t packets_in;      /* accepted by injection NIs */
    uint64_t packets_out;     /* pushed to ejection links */
    uint64_t flits_in;        /* flits sent by injection NIs into routers */
    uint64_t flits_out;       /* flits received by ejection NIs */
    uint64_t *in_flits;       /* [n_sources] busy cycles of link NI i -> router */
    uint64_t *out_flits;      /* [n_sinks] busy cycles of link router -> NI j */
    uint64_t *in_stall;       /* [n_sources] cycles NI i held a packet but sent no flit */
    uint64_t lat_sum;         /* packet latency, accepted -> pushed, network cycles */
    uint64_t lat_max;
    uint64_t *chan_flits;     /* [n_channels] flits delivered by channel c */
} gm_net_stats;

/* A second implementation of the router (its Verilated RTL) that drives
 * the network in place of a C router instance during system
 * co-simulation. Each cycle the network calls eval for the twin's outputs,
 * which it uses, and tick with the same inputs it gives the C router,
 * which keeps running in shadow; compare() is then called with both
 * outputs and returns 0 to go on or non-zero to report a divergence (the
 * network records it as a fault and its drain check fails; the twin's
 * owner decides whether to stop at once). */
typedef struct gm_router_twin {
    void *ctx;
    void (*eval)(void *ctx, gm_router_out *out);
    void (*tick)(void *ctx, const gm_router_in *in);
    int (*compare)(void *ctx, uint64_t cycle, const gm_router_out *expected,
                   const gm_router_out *actual);
} gm_router_twin;

/* One router instance. `out` holds the outputs that drive the rest of the
 * network in the current cycle (the twin's when one is attached); they are
 * valid only in cycles where the router is live. */
typedef struct gm_net_router {
    char name[GM_NET_NAME];
    gm_router r;
    gm_router_in in;          /* input ports as driven this cycle */
    gm_router_out out;        /* output ports of this cycle */
    uint16_t *route;          /* [n_sinks] output port towards each sink */
    uint32_t *sinks;          /* sinks on this router's outputs, ascending */
    uint32_t n_sinks;
    bool live;                /* not idle at the start of this cycle */
    bool inputs;              /* some input valid this cycle */
    const gm_router_twin *twin; /* RTL co-simulation, or NULL */
    gm_router_out shadow;     /* the C router's outputs while a twin drives */
} gm_net_router;

/* An endpoint's view of its router, resolved once for speed. */
typedef struct gm_net_src {
    gm_net_router *router;
    gm_router_flit *flit;           /* the router input the NI drives */
    const gm_router_credit *credit; /* the router's credit output to the NI */
    const uint16_t *route;          /* the router's route table */
} gm_net_src;

typedef struct gm_net_sink {
    gm_net_router *router;
    gm_router_credit *credit;       /* the router's out_credit input the NI drives */
    const gm_router_flit *flit;     /* the router output the NI takes */
} gm_net_sink;

typedef struct gm_net_chan {
    uint32_t from, out_port, to, in_port, latency;
    gm_router_flit *fl;       /* [latency] flits on their way, by arrival slot */
    gm_router_credit *cr;     /* [latency] credits on their way back */
    uint32_t pos;             /* slot that arrives this cycle */
    uint32_t in_flight;       /* valid flits plus credits in the slots */
} gm_net_chan;

/* A ring stop instance with the ports it is driven with this cycle. */
typedef struct gm_net_stop {
    gm_ringstop s;
    gm_ringstop_in in;
    gm_ringstop_out out;
    uint32_t src, sink;       /* source and sink on the stop, or UINT32_MAX */
} gm_net_stop;

typedef struct gm_net {
    char name[GM_NET_NAME];
    uint32_t n_routers, n_channels, n_sources, n_sinks;
    gm_noc_cfg cfg;
    uint32_t (*dest)(const gm_req *r, void *ctx);  /* sink of a packet */
    void *ctx;
    gm_net_ports ports;
    gm_net_router *routers;   /* [n_routers] */
    gm_net_chan *chans;       /* [n_channels] */
    gm_net_port *src_at;      /* [n_sources] router and input port */
    gm_net_port *sink_at;     /* [n_sinks] router and output port */
    gm_net_src *src;          /* [n_sources] */
    gm_net_sink *sink;        /* [n_sinks] */
    gm_ni_inject *inj;        /* [n_sources] */
    gm_ni_eject *ej;          /* [n_sinks] */
    gm_noc_pkts pkts;         /* handle -> packet; its .src is the source,
                                 .dst the sink */
    uint64_t *inj_busy;       /* [words(n_sources)] injection NIs not idle */
    uint64_t *ej_busy;        /* [words(n_sinks)] ejection NIs not idle */
    bool direct;              /* one router, source i on input i, sink j on output j */
    gm_net_stop *stops;       /* [n_routers] when the blocks are ring stops (the
                                 routers then hold only names and port counts,
                                 and there are no NIs), else NULL */
    gm_net_stats st;
    char fault[160];          /* first misuse seen (bad sink, twin divergence), or "" */
} gm_net;

/* Builds the network of a description (checked by gm_net_desc_check; the
 * description may be freed afterwards). The net takes the description's
 * name. */
int gm_net_init(gm_net *n, const gm_net_desc *desc, const gm_noc_cfg *cfg,
                uint32_t (*dest)(const gm_req *r, void *ctx), void *ctx,
                gm_error *err);
/* gm_net_desc_crossbar + gm_net_init: one n_src x n_sink router named
 * `name`, source i on input i, sink j on output j. */
int gm_net_init_crossbar(gm_net *n, const char *name, uint32_t n_src, uint32_t n_sink,
                         const gm_noc_cfg *cfg, uint32_t (*dest)(const gm_req *r, void *ctx),
                         void *ctx, gm_error *err);
void gm_net_free(gm_net *n);
void gm_net_connect(gm_net *n, gm_net_ports ports);
/* One edge of the network clock at global time now. */
void gm_net_tick(gm_net *n, gm_time now);
/* Something inside: a packet, a flit, or a credit on its way back. */
bool gm_net_busy(const gm_net *n);
/* Accounts `edges` skipped edges while not busy. */
void gm_net_skip_idle(gm_net *n, uint64_t edges);

/* Realizes router instance `router` by `twin` from now on (see
 * gm_router_twin); the C router runs in shadow. Returns -1 for a bad index,
 * a ring stop (it has no twin) or when out of memory. */
int gm_net_attach_twin(gm_net *n, uint32_t router, const gm_router_twin *twin,
                       gm_error *err);

/* Router instances, for topology listings and co-simulation patterns. */
static inline uint32_t gm_net_router_count(const gm_net *n)
{
    return n->n_routers;
}
static inline const char *gm_net_router_name(const gm_net *n, uint32_t k)
{
    return n->routers[k].name;
}
static inline void gm_net_router_ports(const gm_net *n, uint32_t k,
                                       uint32_t *n_in, uint32_t *n_out)
{
    *n_in = n->routers[k].r.cfg.n_in;
    *n_out = n->routers[k].r.cfg.n_out;
}
static inline bool gm_net_router_is_stop(const gm_net *n, uint32_t k)
{
    return n->stops != NULL && k < n->n_routers;
}
static inline const gm_router_cfg *gm_net_router_cfg(const gm_net *n, uint32_t k)
{
    return &n->routers[k].r.cfg;
}

/* Packets inside the network: packets_in - packets_out. */
static inline uint64_t gm_net_inside(const gm_net *n)
{
    return n->st.packets_in - n->st.packets_out;
}

/* Fails, naming what is left, unless the network is empty: no packet,
 * flit or credit in an NI, router or channel, every credit counter back
 * at vc_depth, no protocol error and no fault. */
int gm_net_check_drained(const gm_net *n, gm_error *err);

/* Calls fn on every gm_req inside the network, in handle order. */
void gm_net_foreach_req(const gm_net *n,
                        void (*fn)(const gm_req *r, void *arg), void *arg);
/* If r is inside, writes where its flits are (inject queue, router input
 * VC or output stage, channel, ejection buffer, reassembly, done queue)
 * to buf and returns true; else returns false. */
bool gm_net_find_req(const gm_net *n, const gm_req *r, char *buf, size_t len);

#endif
