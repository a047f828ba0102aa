/* Pieces several designs share (designs/design.h): the private L1D as a
 * core's memory port, and the port arrays of a request/reply network pair
 * between the cores' links and the L2 slices' links. */
#ifndef GM_DESIGNS_COMMON_H
#define GM_DESIGNS_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/l1d.h"
#include "core/core.h"
#include "noc/net.h"
#include "sim/error.h"
#include "sim/link.h"
#include "sim/req.h"

struct gm_system;

/* A private L1D as a core's port: ctx is the gm_l1d. A design that must
 * see each request as it is accepted (SelRep picks the slice there) uses
 * these with an accept of its own that ends in gm_l1d_access. */
void gm_l1d_port_cycle(void *l1, gm_time now);
gm_req *gm_l1d_port_pop_reply(void *l1, gm_time now);
bool gm_l1d_port_offer(void *l1, const gm_req *probe, gm_time now);
void gm_l1d_port_accept(void *l1, gm_req *r, gm_time now);
bool gm_l1d_port_busy(const void *l1);
extern const gm_core_port_ops gm_l1d_core_port;

/* Sinks of the request network (r->slice) and of the reply network (r->src). */
uint32_t gm_dest_slice(const gm_req *r, void *ctx);
uint32_t gm_dest_core(const gm_req *r, void *ctx);

/* The link arrays of a request network (cores -> L2 slices) and a reply
 * network (L2 slices -> cores), one allocation. */
typedef struct gm_core_l2_ports {
    gm_net_ports req, rep;
    gm_link **block;
} gm_core_l2_ports;

int gm_core_l2_ports_init(gm_core_l2_ports *p, const struct gm_system *s, gm_link *core_req,
                          gm_link *core_rep, gm_error *err);
void gm_core_l2_ports_free(gm_core_l2_ports *p);

#endif
