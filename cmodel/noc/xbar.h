/* A crossbar network: one gm_router (n_in x n_out) with an injection NI on
 * every input and an ejection NI on every output (docs/noc.md section 7).
 * The baseline request network is 80x32 (cores -> L2 slices) and the reply
 * network 32x80.
 *
 * Packets are gm_req. Injection: the network consumes in[i]; a packet
 * enters when injection NI i has room (inject_queue packets), and is
 * moved to GM_LOC_NOC_REQ or GM_LOC_NOC_REP (r->is_reply), index i. Its
 * output port is dest(r, ctx), which must be < n_out. Ejection: when the
 * tail of a packet has been drained at output j, the network pushes the
 * gm_req to out[j] as soon as gm_link_can_push (the consumer calls
 * gm_req_move when it pops). Per (input, output) pair packets leave in the
 * order they entered.
 *
 * gm_xbar_tick must be called at every edge of the network's clock
 * domain; while gm_xbar_busy() is false and no link item is waiting, edges
 * may be skipped and accounted with gm_xbar_skip_idle(). */
#ifndef GM_NOC_XBAR_H
#define GM_NOC_XBAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "noc/ni.h"
#include "noc/router.h"
#include "sim/clock.h"
#include "sim/error.h"
#include "sim/link.h"
#include "sim/req.h"

typedef struct gm_xbar_ports {
    gm_link **in;    /* [n_in] injection links, items gm_req*; network consumes */
    gm_link **out;   /* [n_out] ejection links; network produces */
} gm_xbar_ports;

/* Statistics. Cycles are edges of the network clock. A link between an NI
 * and the router carries at most one flit per cycle, so its busy cycles
 * equal its flits and its utilization is flits / cycles. */
typedef struct gm_xbar_stats {
    uint64_t cycles;          /* network edges, ticked or skipped */
    uint64_t packets_in;      /* accepted by injection NIs */
    uint64_t packets_out;     /* pushed to ejection links */
    uint64_t flits_in;        /* flits sent by injection NIs into the router */
    uint64_t flits_out;       /* flits received by ejection NIs */
    uint64_t *in_flits;       /* [n_in]  busy cycles of link NI i -> router */
    uint64_t *out_flits;      /* [n_out] busy cycles of link router -> NI j */
    uint64_t *in_stall;       /* [n_in]  cycles NI i held a packet but sent no flit */
    uint64_t lat_sum;         /* packet latency, accepted -> pushed, network cycles */
    uint64_t lat_max;
} gm_xbar_stats;

/* A second implementation of the router (its Verilated RTL) that drives
 * the network in place of the C block during system co-simulation. Each
 * cycle the network calls eval for the twin's outputs, which it uses, and
 * tick with the same inputs it gives the C router, which keeps running in
 * shadow; compare() is then called with both outputs and returns 0 to go
 * on or non-zero to report a divergence (the network records it as a
 * fault and its drain check fails; the twin's owner decides whether to
 * stop at once). */
typedef struct gm_router_twin {
    void *ctx;
    void (*eval)(void *ctx, gm_router_out *out);
    void (*tick)(void *ctx, const gm_router_in *in);
    int (*compare)(void *ctx, uint64_t cycle, const gm_router_out *expected,
                   const gm_router_out *actual);
} gm_router_twin;

typedef struct gm_xbar {
    char name[32];
    uint32_t n_in, n_out;
    gm_noc_cfg cfg;
    uint32_t (*dest)(const gm_req *r, void *ctx);
    void *ctx;
    gm_xbar_ports ports;
    gm_router router;
    gm_router_in rin;         /* router input ports as driven this cycle */
    gm_router_out rout;       /* router output ports of this cycle */
    gm_ni_inject *inj;        /* [n_in] */
    gm_ni_eject *ej;          /* [n_out] */
    gm_noc_pkts pkts;         /* handle -> gm_req */
    uint64_t *inj_busy;       /* [words(n_in)] injection NIs not idle */
    uint64_t *ej_busy;        /* [words(n_out)] ejection NIs not idle */
    gm_xbar_stats st;
    char fault[160];          /* first misuse seen (bad destination), or "" */
    const gm_router_twin *twin; /* RTL co-simulation, or NULL */
    gm_router_out twin_out;   /* the twin's outputs of this cycle */
} gm_xbar;

int gm_xbar_init(gm_xbar *x, const char *name, uint32_t n_in, uint32_t n_out,
                 const gm_noc_cfg *cfg,
                 uint32_t (*dest)(const gm_req *r, void *ctx), void *ctx,
                 gm_error *err);
void gm_xbar_free(gm_xbar *x);
void gm_xbar_connect(gm_xbar *x, gm_xbar_ports ports);
/* One edge of the network clock at global time now. */
void gm_xbar_tick(gm_xbar *x, gm_time now);
/* Something inside: a packet, a flit, or a credit on its way back. */
bool gm_xbar_busy(const gm_xbar *x);
/* Accounts `edges` skipped edges while not busy (for cycles and
 * utilization). */
void gm_xbar_skip_idle(gm_xbar *x, uint64_t edges);

/* Realizes the router by `twin` from now on (see gm_router_twin); the C
 * router runs in shadow. Returns -1 when out of memory. */
int gm_xbar_attach_twin(gm_xbar *x, const gm_router_twin *twin, gm_error *err);

/* Packets inside the network: packets_in - packets_out. */
static inline uint64_t gm_xbar_inside(const gm_xbar *x)
{
    return x->st.packets_in - x->st.packets_out;
}

/* Fails, naming what is left, unless the network is empty: no packet,
 * flit or credit in flight, every credit counter back at vc_depth, no
 * protocol error and no fault. */
int gm_xbar_check_drained(const gm_xbar *x, gm_error *err);

/* Calls fn on every gm_req inside the network, in handle order. */
void gm_xbar_foreach_req(const gm_xbar *x,
                         void (*fn)(const gm_req *r, void *arg), void *arg);
/* If r is inside, writes where its flits are (e.g. "req xbar: inject NI 3
 * queue[0] 2/5 flits sent; router in 3 vc 1: 2 flits") to buf and returns
 * true; else returns false. */
bool gm_xbar_find_req(const gm_xbar *x, const gm_req *r, char *buf, size_t len);

#endif
