/* The ring-stop half of gm_net (net_stops.c), called by net.c and
 * net_desc.c only: a net whose blocks are ring stops has no NIs and no
 * router pipeline; its channels carry whole packets (docs/noc.md 10). */
#ifndef GM_NOC_NET_STOPS_H
#define GM_NOC_NET_STOPS_H

#include "noc/net.h"

/* Ring-stop rules of a description (all blocks one kind, stops 2 x 2 with
 * port 0 local and port 1 ring, channels ring to ring with latency >= 1). */
int gm_net_stops_desc_check(const gm_net_desc *d, gm_error *err);
bool gm_net_desc_has_stops(const gm_net_desc *d);

/* net.c: packet h leaves the net into sink link l (which has room):
 * latency and packet statistics, push, handle released. */
void gm_net_push_packet(gm_net *n, uint32_t h, gm_link *l, gm_time now);

int gm_net_stops_init(gm_net *n, gm_error *err);
void gm_net_stops_free(gm_net *n);
void gm_net_stops_tick(gm_net *n, gm_time now);
bool gm_net_stops_busy(const gm_net *n);
int gm_net_stops_check_drained(const gm_net *n, gm_error *err);
/* Appends where packet `handle` is in the stops to buf (after `used`
 * bytes); returns the new length. */
size_t gm_net_stops_find(const gm_net *n, uint32_t handle, char *buf, size_t len,
                         size_t used);

#endif
