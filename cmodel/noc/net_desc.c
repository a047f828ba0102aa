/* Network descriptions: checking them, minimal-hop routing, and the
 * builders of the topologies the designs use (docs/noc.md 9.1). */
#include "noc/net.h"
#include "noc/net_stops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gm_net_desc_alloc(gm_net_desc *d, const char *name, uint32_t n_routers,
                      uint32_t n_channels, uint32_t n_sources,
                      uint32_t n_sinks, gm_error *err)
{
    *d = (gm_net_desc){0};
    if (!name || strlen(name) >= GM_NET_NAME)
        return gm_fail(err, "network name missing or longer than %u bytes",
                       GM_NET_NAME - 1);
    memcpy(d->name, name, strlen(name) + 1);
    d->n_routers = n_routers;
    d->n_channels = n_channels;
    d->n_sources = n_sources;
    d->n_sinks = n_sinks;
    d->routers = calloc(n_routers ? n_routers : 1, sizeof *d->routers);
    d->channels = calloc(n_channels ? n_channels : 1, sizeof *d->channels);
    d->sources = calloc(n_sources ? n_sources : 1, sizeof *d->sources);
    d->sinks = calloc(n_sinks ? n_sinks : 1, sizeof *d->sinks);
    size_t routes = (size_t)n_routers * n_sinks;
    d->route = malloc((routes ? routes : 1) * sizeof *d->route);
    if (!d->routers || !d->channels || !d->sources || !d->sinks || !d->route) {
        gm_net_desc_free(d);
        return gm_fail(err, "%s: out of memory", name);
    }
    for (size_t k = 0; k < routes; k++)
        d->route[k] = GM_NET_NO_ROUTE;
    return 0;
}

void gm_net_desc_free(gm_net_desc *d)
{
    free(d->routers);
    free(d->channels);
    free(d->sources);
    free(d->sinks);
    free(d->route);
    *d = (gm_net_desc){0};
}

/* What drives a router input or is driven by a router output. */
typedef enum port_use {
    PORT_FREE = 0,
    PORT_SOURCE,      /* input: an injection NI */
    PORT_SINK,        /* output: an ejection NI */
    PORT_CHANNEL,     /* input: channel end; output: channel start */
} port_use;

typedef struct port_owner {
    uint32_t use;     /* port_use */
    uint32_t index;   /* source, sink or channel */
} port_owner;

/* Port maps of a description: who owns each router input and output. */
typedef struct port_map {
    uint32_t *in_base, *out_base;   /* [n_routers] */
    port_owner *in, *out;           /* [sum n_in], [sum n_out] */
} port_map;

static void port_map_free(port_map *m)
{
    free(m->in_base);
    free(m->out_base);
    free(m->in);
    free(m->out);
    *m = (port_map){0};
}

static const char *use_name(uint32_t use)
{
    switch (use) {
    case PORT_SOURCE: return "source";
    case PORT_SINK: return "sink";
    case PORT_CHANNEL: return "channel";
    default: return "nothing";
    }
}

/* Claims one port for (use, index); fails if it does not exist or is
 * taken. `what` names the claimer for the message. */
static int claim(const gm_net_desc *d, const port_map *m, bool input,
                 gm_net_port p, uint32_t use, uint32_t index,
                 const char *what, gm_error *err)
{
    const char *dir = input ? "input" : "output";
    if (p.router >= d->n_routers)
        return gm_fail(err, "%s: %s %u is on router %u, the net has %u routers",
                       d->name, what, index, p.router, d->n_routers);
    const gm_net_router_desc *r = &d->routers[p.router];
    uint32_t ports = input ? r->n_in : r->n_out;
    if (p.port >= ports)
        return gm_fail(err, "%s: %s %u is on %s %u of router %s, which has %u %ss",
                       d->name, what, index, dir, p.port, r->name, ports, dir);
    port_owner *o = (input ? m->in + m->in_base[p.router]
                           : m->out + m->out_base[p.router]) + p.port;
    if (o->use != PORT_FREE)
        return gm_fail(err, "%s: router %s %s %u is taken by %s %u and by %s %u",
                       d->name, r->name, dir, p.port, use_name(o->use), o->index,
                       what, index);
    *o = (port_owner){use, index};
    return 0;
}

static int check_routers(const gm_net_desc *d, gm_error *err)
{
    if (d->n_routers < 1 || d->n_sources < 1 || d->n_sinks < 1)
        return gm_fail(err, "%s: a network needs at least one router, source and "
                            "sink (has %u, %u, %u)",
                       d->name, d->n_routers, d->n_sources, d->n_sinks);
    for (uint32_t k = 0; k < d->n_routers; k++) {
        const gm_net_router_desc *r = &d->routers[k];
        if (!memchr(r->name, 0, sizeof r->name) || !r->name[0])
            return gm_fail(err, "%s: router %u has no name", d->name, k);
        if (r->n_in < 1 || r->n_in > GM_ROUTER_MAX_PORTS || r->n_out < 1 ||
            r->n_out > GM_ROUTER_MAX_PORTS)
            return gm_fail(err, "%s: router %s is %ux%u, outside 1..%u", d->name,
                           r->name, r->n_in, r->n_out, GM_ROUTER_MAX_PORTS);
        for (uint32_t q = 0; q < k; q++)
            if (strcmp(d->routers[q].name, r->name) == 0)
                return gm_fail(err, "%s: two routers are named %s", d->name, r->name);
    }
    return 0;
}

static int build_port_map(const gm_net_desc *d, port_map *m, gm_error *err)
{
    *m = (port_map){0};
    m->in_base = calloc(d->n_routers, sizeof *m->in_base);
    m->out_base = calloc(d->n_routers, sizeof *m->out_base);
    uint32_t n_in = 0, n_out = 0;
    if (m->in_base && m->out_base)
        for (uint32_t k = 0; k < d->n_routers; k++) {
            m->in_base[k] = n_in;
            m->out_base[k] = n_out;
            n_in += d->routers[k].n_in;
            n_out += d->routers[k].n_out;
        }
    m->in = calloc(n_in ? n_in : 1, sizeof *m->in);
    m->out = calloc(n_out ? n_out : 1, sizeof *m->out);
    if (!m->in_base || !m->out_base || !m->in || !m->out)
        return gm_fail(err, "%s: out of memory", d->name);
    for (uint32_t i = 0; i < d->n_sources; i++)
        if (claim(d, m, true, d->sources[i], PORT_SOURCE, i, "source", err))
            return -1;
    for (uint32_t j = 0; j < d->n_sinks; j++)
        if (claim(d, m, false, d->sinks[j], PORT_SINK, j, "sink", err))
            return -1;
    for (uint32_t c = 0; c < d->n_channels; c++) {
        const gm_net_channel_desc *ch = &d->channels[c];
        if (claim(d, m, false, ch->from, PORT_CHANNEL, c, "channel", err) ||
            claim(d, m, true, ch->to, PORT_CHANNEL, c, "channel", err))
            return -1;
        if (ch->latency > GM_NET_MAX_LATENCY)
            return gm_fail(err, "%s: channel %u has latency %u, at most %u",
                           d->name, c, ch->latency, GM_NET_MAX_LATENCY);
    }
    for (uint32_t k = 0; k < d->n_routers; k++) {
        const gm_net_router_desc *r = &d->routers[k];
        for (uint32_t p = 0; p < r->n_in; p++)
            if (m->in[m->in_base[k] + p].use == PORT_FREE)
                return gm_fail(err, "%s: router %s input %u is not connected "
                                    "(no source or channel)", d->name, r->name, p);
        for (uint32_t p = 0; p < r->n_out; p++)
            if (m->out[m->out_base[k] + p].use == PORT_FREE)
                return gm_fail(err, "%s: router %s output %u is not connected "
                                    "(no sink or channel)", d->name, r->name, p);
    }
    return 0;
}

/* Follows the table from router r towards sink j; every hop must go on
 * towards j and reach it within n_routers channels. */
static int check_path(const gm_net_desc *d, const port_map *m, uint32_t r,
                      uint32_t j, gm_error *err)
{
    uint32_t at = r;
    for (uint32_t hops = 0; hops <= d->n_routers; hops++) {
        const gm_net_router_desc *rd = &d->routers[at];
        uint32_t p = d->route[(size_t)at * d->n_sinks + j];
        if (p == GM_NET_NO_ROUTE)
            return gm_fail(err, "%s: route to sink %u from router %s leads to router %s, "
                                "which has no route to it",
                           d->name, j, d->routers[r].name, rd->name);
        if (p >= rd->n_out)
            return gm_fail(err, "%s: route table sends sink %u at router %s to output %u, "
                                "the router has %u outputs",
                           d->name, j, rd->name, p, rd->n_out);
        const port_owner *o = &m->out[m->out_base[at] + p];
        if (o->use == PORT_SINK) {
            if (o->index == j)
                return 0;
            return gm_fail(err, "%s: route table sends sink %u at router %s to output %u, "
                                "which is sink %u (no path to sink %u that way)",
                           d->name, j, rd->name, p, o->index, j);
        }
        at = d->channels[o->index].to.router;
    }
    return gm_fail(err, "%s: routing loop: sink %u from router %s is not reached in %u hops",
                   d->name, j, d->routers[r].name, d->n_routers);
}

static int check_routes(const gm_net_desc *d, const port_map *m, gm_error *err)
{
    for (uint32_t r = 0; r < d->n_routers; r++)
        for (uint32_t j = 0; j < d->n_sinks; j++)
            if (d->route[(size_t)r * d->n_sinks + j] != GM_NET_NO_ROUTE &&
                check_path(d, m, r, j, err) != 0)
                return -1;
    for (uint32_t i = 0; i < d->n_sources; i++) {
        uint32_t r = d->sources[i].router;
        for (uint32_t j = 0; j < d->n_sinks; j++)
            if (d->route[(size_t)r * d->n_sinks + j] == GM_NET_NO_ROUTE)
                return gm_fail(err, "%s: sink %u is unreachable from source %u "
                                    "(router %s has no route to it)",
                               d->name, j, i, d->routers[r].name);
    }
    return 0;
}

int gm_net_desc_check(const gm_net_desc *d, gm_error *err)
{
    if (check_routers(d, err) != 0)
        return -1;
    port_map m;
    int rc = build_port_map(d, &m, err);
    if (rc == 0)
        rc = check_routes(d, &m, err);
    port_map_free(&m);
    if (rc == 0 && gm_net_desc_has_stops(d))
        rc = gm_net_stops_desc_check(d, err);
    return rc;
}

int gm_net_desc_route_min_hops(gm_net_desc *d, gm_error *err)
{
    if (check_routers(d, err) != 0)
        return -1;
    uint32_t *dist = malloc(d->n_routers * sizeof *dist);
    if (!dist)
        return gm_fail(err, "%s: out of memory", d->name);
    for (uint32_t j = 0; j < d->n_sinks; j++) {
        gm_net_port s = d->sinks[j];
        if (s.router >= d->n_routers) {
            free(dist);
            return gm_fail(err, "%s: sink %u is on router %u, the net has %u routers",
                           d->name, j, s.router, d->n_routers);
        }
        for (uint32_t r = 0; r < d->n_routers; r++) {
            dist[r] = UINT32_MAX;
            d->route[(size_t)r * d->n_sinks + j] = GM_NET_NO_ROUTE;
        }
        dist[s.router] = 0;
        d->route[(size_t)s.router * d->n_sinks + j] = (uint16_t)s.port;
        /* Level by level, backwards over the channels: a router one hop
         * further takes the lowest output port that reaches level `lv`. */
        for (uint32_t lv = 0;; lv++) {
            bool grew = false;
            for (uint32_t c = 0; c < d->n_channels; c++) {
                const gm_net_channel_desc *ch = &d->channels[c];
                if (ch->from.router >= d->n_routers || ch->to.router >= d->n_routers ||
                    dist[ch->to.router] != lv)
                    continue;
                uint32_t v = ch->from.router;
                uint16_t *rt = &d->route[(size_t)v * d->n_sinks + j];
                if (dist[v] == UINT32_MAX ||
                    (dist[v] == lv + 1 && ch->from.port < *rt)) {
                    dist[v] = lv + 1;
                    *rt = (uint16_t)ch->from.port;
                    grew = true;
                }
            }
            if (!grew)
                break;
        }
    }
    free(dist);
    return 0;
}

/* Formats a router name, failing instead of truncating. */
static int router_name(gm_net_desc *d, uint32_t k, const char *fmt, uint32_t a,
                       gm_error *err)
{
    int len = snprintf(d->routers[k].name, GM_NET_NAME, fmt, d->name, a);
    if (len < 0 || (uint32_t)len >= GM_NET_NAME)
        return gm_fail(err, "%s: router names would exceed %u bytes", d->name,
                       GM_NET_NAME - 1);
    return 0;
}

int gm_net_desc_crossbar(gm_net_desc *d, const char *name, uint32_t n_src,
                         uint32_t n_sink, gm_error *err)
{
    if (gm_net_desc_alloc(d, name, 1, 0, n_src, n_sink, err) != 0)
        return -1;
    memcpy(d->routers[0].name, d->name, sizeof d->name);
    d->routers[0].n_in = n_src;
    d->routers[0].n_out = n_sink;
    for (uint32_t i = 0; i < n_src; i++)
        d->sources[i] = (gm_net_port){0, i};
    for (uint32_t j = 0; j < n_sink; j++) {
        d->sinks[j] = (gm_net_port){0, j};
        d->route[j] = (uint16_t)j;
    }
    return 0;
}

int gm_net_desc_ring(gm_net_desc *d, const char *name, uint32_t nodes,
                     gm_net_ring_dir dir, uint32_t latency, gm_error *err)
{
    if (nodes < 1 || nodes > GM_ROUTER_MAX_PORTS)
        return gm_fail(err, "%s: a ring has 1..%u stops, not %u", name ? name : "ring",
                       GM_ROUTER_MAX_PORTS, nodes);
    uint32_t ring = nodes > 1;   /* one stop has no ring ports */
    if (gm_net_desc_alloc(d, name, nodes, ring ? nodes : 0, nodes, nodes, err) != 0)
        return -1;
    for (uint32_t k = 0; k < nodes; k++) {
        if (router_name(d, k, "%s-%u", k, err) != 0) {
            gm_net_desc_free(d);
            return -1;
        }
        d->routers[k].n_in = 1 + ring;
        d->routers[k].n_out = 1 + ring;
        d->sources[k] = (gm_net_port){k, 0};
        d->sinks[k] = (gm_net_port){k, 0};
        if (ring) {
            uint32_t next = dir == GM_NET_RING_UP ? (k + 1) % nodes
                                                  : (k + nodes - 1) % nodes;
            d->channels[k] = (gm_net_channel_desc){
                .from = {k, 1}, .to = {next, 1}, .latency = latency,
            };
        }
        for (uint32_t j = 0; j < nodes; j++)
            d->route[(size_t)k * nodes + j] = j == k ? 0 : 1;
    }
    return 0;
}

void gm_net_desc_use_ring_stops(gm_net_desc *d)
{
    for (uint32_t k = 0; k < d->n_routers; k++)
        d->routers[k].kind = GM_NET_BLOCK_RINGSTOP;
}

int gm_net_desc_hier_xbar(gm_net_desc *d, const char *name, uint32_t n_first,
                          uint32_t src_per_first, uint32_t n_second,
                          uint32_t sink_per_second, uint32_t latency,
                          gm_error *err)
{
    if (n_first < 1 || src_per_first < 1 || n_second < 1 || sink_per_second < 1)
        return gm_fail(err, "%s: hierarchical crossbar %u x %u sources, %u x %u sinks: "
                            "every size must be >= 1",
                       name ? name : "net", n_first, src_per_first, n_second,
                       sink_per_second);
    uint32_t n_src = n_first * src_per_first, n_sink = n_second * sink_per_second;
    if (gm_net_desc_alloc(d, name, n_first + n_second, n_first * n_second, n_src,
                          n_sink, err) != 0)
        return -1;
    for (uint32_t g = 0; g < n_first; g++) {
        if (router_name(d, g, "%s-l1-%u", g, err) != 0) {
            gm_net_desc_free(d);
            return -1;
        }
        d->routers[g].n_in = src_per_first;
        d->routers[g].n_out = n_second;
        for (uint32_t k = 0; k < n_second; k++)
            d->channels[g * n_second + k] = (gm_net_channel_desc){
                .from = {g, k}, .to = {n_first + k, g}, .latency = latency,
            };
        for (uint32_t j = 0; j < n_sink; j++)
            d->route[(size_t)g * n_sink + j] = (uint16_t)(j / sink_per_second);
    }
    for (uint32_t k = 0; k < n_second; k++) {
        uint32_t r = n_first + k;
        if (router_name(d, r, "%s-l2-%u", k, err) != 0) {
            gm_net_desc_free(d);
            return -1;
        }
        d->routers[r].n_in = n_first;
        d->routers[r].n_out = sink_per_second;
        for (uint32_t q = 0; q < sink_per_second; q++) {
            uint32_t j = k * sink_per_second + q;
            d->route[(size_t)r * n_sink + j] = (uint16_t)q;
        }
    }
    for (uint32_t i = 0; i < n_src; i++)
        d->sources[i] = (gm_net_port){i / src_per_first, i % src_per_first};
    for (uint32_t j = 0; j < n_sink; j++)
        d->sinks[j] = (gm_net_port){n_first + j / sink_per_second, j % sink_per_second};
    return 0;
}


int gm_net_init_crossbar(gm_net *n, const char *name, uint32_t n_src, uint32_t n_sink,
                         const gm_noc_cfg *cfg, uint32_t (*dest)(const gm_req *r, void *ctx),
                         void *ctx, gm_error *err)
{
    gm_net_desc d;
    if (gm_net_desc_crossbar(&d, name, n_src, n_sink, err) != 0)
        return -1;
    int rc = gm_net_init(n, &d, cfg, dest, ctx, err);
    gm_net_desc_free(&d);
    return rc;
}
