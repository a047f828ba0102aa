/* gm_dcl1: the DC-L1 part of a gm_system (design = dcl1): the nodes, the
 * crossbars of NoC#1 (cores <-> nodes) and NoC#2 (nodes <-> L2 slices),
 * and the links around the nodes, built from the topology of
 * dcl1_topo.h. The system keeps owning the cores (direct ports), the L2
 * slices, DRAM and the links at the cores and at the L2 slices; gm_dcl1
 * plugs its networks between them. docs/designs/dcl1.md. */
#ifndef GM_DESIGNS_DCL1_H
#define GM_DESIGNS_DCL1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache/residency.h"
#include "config/config.h"
#include "designs/dcl1/dcl1_node.h"
#include "designs/dcl1/dcl1_topo.h"
#include "noc/xbar.h"
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
    gm_link *core_req;      /* [cores] core -> NoC#1 (consumer: noc1) */
    gm_link *core_rep;      /* [cores] NoC#1 -> core */
    gm_link *l2_in;         /* [slices] NoC#2 -> L2 */
    gm_link *l2_out;        /* [slices] L2 -> NoC#2 */
} gm_dcl1_env;

typedef struct gm_dcl1 {
    gm_dcl1_topo topo;
    gm_cache_cfg node_cfg;
    gm_dcl1_node *nodes;        /* [nodes] */
    gm_xbar *n1_req, *n1_rep;   /* [clusters] */
    gm_xbar *n2_req, *n2_rep;   /* [noc2_xbars] */
    gm_dcl1_xctx *n2_ctx;       /* [noc2_xbars] */
    gm_link *node_in;           /* [nodes] NoC#1 request -> node */
    gm_link *node_out;          /* [nodes] node -> NoC#1 reply */
    gm_link *node_l2;           /* [nodes] node -> NoC#2 request */
    gm_link *l2_node;           /* [nodes] NoC#2 reply -> node */
    gm_link **ptrs;             /* every crossbar's port arrays, one block */
} gm_dcl1;

int gm_dcl1_init(gm_dcl1 *d, const gm_dcl1_env *env, gm_error *err);
void gm_dcl1_free(gm_dcl1 *d);

/* Core-clock edge: every node. */
void gm_dcl1_tick_nodes(gm_dcl1 *d, gm_time now);
/* NoC#1 clock edge (the interconnect clock, or twice it with boost). */
void gm_dcl1_tick_noc1(gm_dcl1 *d, gm_time now);
/* Interconnect clock edge: NoC#2. */
void gm_dcl1_tick_noc2(gm_dcl1 *d, gm_time now);

bool gm_dcl1_busy(const gm_dcl1 *d);
/* Conservation at the end of a run: nodes, node links and every
 * crossbar empty; no copy-limit violation at any install. */
int gm_dcl1_check_drained(const gm_dcl1 *d, gm_error *err);
/* gm_xbar_find_req over every crossbar of both NoCs. */
bool gm_dcl1_find_req(const gm_dcl1 *d, const gm_req *r, char *buf, size_t len);

#endif
