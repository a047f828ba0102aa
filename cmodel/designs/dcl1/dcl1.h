/* The DC-L1 design ([design] kind = dcl1, docs/designs/dcl1.md): every
 * core's memory port is a direct link into NoC#1 (a "lite core" with no
 * L1D); NoC#1 crossbars take requests to the DC-L1 nodes (the L1 capacity,
 * decoupled from the cores), NoC#2 crossbars join the nodes to the L2
 * slices. gm_dcl1 is the design's state: the nodes, both NoCs and every
 * link from the cores' ports to the L2 slices' links, built from the
 * topology of dcl1_topo.h. */
#ifndef GM_DESIGNS_DCL1_H
#define GM_DESIGNS_DCL1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache/residency.h"
#include "config/config.h"
#include "config/config_keys.h"
#include "designs/design.h"
#include "designs/dcl1/dcl1_node.h"
#include "designs/dcl1/dcl1_topo.h"
#include "noc/net.h"
#include "sim/clock.h"
#include "sim/link.h"

/* Destination context of one NoC#2 crossbar. */
typedef struct gm_dcl1_xctx {
    const gm_dcl1_topo *t;
    uint32_t k;             /* which NoC#2 crossbar */
} gm_dcl1_xctx;

/* The links of the system a gm_dcl1 connects to, and its clocks. */
typedef struct gm_dcl1_env {
    const gm_config *cfg;
    gm_residency *res;
    const gm_clock_domain *core, *icnt, *noc1;
    gm_link *l2_in;         /* [slices] NoC#2 -> L2 */
    gm_link *l2_out;        /* [slices] L2 -> NoC#2 */
} gm_dcl1_env;

/* A lite core's memory port: no L1D, no MSHRs. The LD/ST unit's line
 * request goes straight into NoC#1 when the link has room; one reply per
 * core cycle comes back. */
typedef struct gm_dcl1_port {
    gm_link *req_out;       /* core -> NoC#1 */
    gm_link *rep_in;        /* NoC#1 -> core */
    uint32_t outstanding;   /* requests sent, reply not yet back */
    gm_time took_at;        /* edge of the last reply taken (one per cycle) */
    /* Ticks from the request leaving its node (gm_req.t_mark) to its
     * completion at the core: the NoC#1 reply part of the round trip
     * (docs/designs/dcl1.md, latency split). */
    uint64_t reply_lat_sum;
} gm_dcl1_port;

typedef struct gm_dcl1 {
    gm_dcl1_topo topo;
    uint32_t ncores;
    gm_dcl1_port *ports;        /* [ncores] */
    gm_link *core_req;          /* [ncores] core -> NoC#1 */
    gm_link *core_rep;          /* [ncores] NoC#1 -> core */
    gm_cache_cfg node_cfg;
    gm_dcl1_node *nodes;        /* [nodes] */
    gm_net *n1_req, *n1_rep;   /* [clusters] */
    gm_net *n2_req, *n2_rep;   /* [noc2_xbars] */
    gm_dcl1_xctx *n2_ctx;       /* [noc2_xbars] */
    gm_link *node_in;           /* [nodes] NoC#1 request -> node */
    gm_link *node_out;          /* [nodes] node -> NoC#1 reply */
    gm_link *node_l2;           /* [nodes] node -> NoC#2 request */
    gm_link *l2_node;           /* [nodes] NoC#2 reply -> node */
    gm_link **ptrs;             /* every crossbar's port arrays, one block */
} gm_dcl1;

extern const gm_design_ops gm_dcl1_design;

/* System co-simulation of the nodes' queue blocks (docs/cosim.md), as
 * gm_ccn_shadow_* for the CCN shadow tags: how many (0 when the system is
 * not kind = dcl1), node k's queue depth, and attaching an RTL twin to
 * node k's queues (before the run; twin must outlive it). */
struct gm_system;
uint32_t gm_dcl1_queue_count(const struct gm_system *s);
uint32_t gm_dcl1_queue_depth(const struct gm_system *s, uint32_t k);
int gm_dcl1_queue_attach_twin(struct gm_system *s, uint32_t k, const gm_dcl1q_twin *twin,
                              gm_error *err);

/* The [dcl1] section (dcl1_config.c). */
extern const gm_config_section gm_dcl1_section;
#define GM_DCL1_NKEYS 13
extern const gm_config_key gm_dcl1_keys[GM_DCL1_NKEYS];
int gm_dcl1_validate(const gm_config *c, gm_error *err);
/* [noc] with NoC#1's own header and flit width ([dcl1] noc1_*). */
gm_noc_cfg gm_dcl1_noc1_cfg(const gm_config *c);
unsigned gm_dcl1_extra_clocks(const gm_config *c, uint32_t mhz[4]);
/* The cache of one DC-L1 node with every derived value filled in (size,
 * assoc, MSHRs and port width from [l1] when the [dcl1] key is 0;
 * latency in core cycles). Valid after gm_dcl1_validate succeeded. */
void gm_dcl1_node_cache(const gm_config *c, gm_cache_cfg *out);

/* Builds nodes and both NoCs around the core links (d->core_req/rep,
 * already made) and env's L2 links. */
int gm_dcl1_init(gm_dcl1 *d, const gm_dcl1_env *env, gm_error *err);
void gm_dcl1_free(gm_dcl1 *d);

/* Core-clock edge: every node. */
void gm_dcl1_tick_nodes(gm_dcl1 *d, gm_time now);
/* NoC#1 clock edge (the interconnect clock, or twice it with boost). */
void gm_dcl1_tick_noc1(gm_dcl1 *d, gm_time now);
/* Interconnect clock edge: NoC#2. */
void gm_dcl1_tick_noc2(gm_dcl1 *d, gm_time now);

/* The nodes and their links (the networks are the system's to check). */
bool gm_dcl1_busy(const gm_dcl1 *d);
/* Conservation at the end of a run: core and node links and the nodes
 * empty; no copy-limit violation at any install. */
int gm_dcl1_check_drained(const gm_dcl1 *d, gm_error *err);

#endif
