/* The DC-L1 design as a plug-in of the system: the lite cores' direct
 * ports, the build (clocks, links, nodes, NoC#1 and NoC#2, what is
 * registered with the system) and the design's statistics. */
#include "designs/dcl1/dcl1.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "system/system.h"

/* ---- the lite core's direct port -------------------------------------------- */

static gm_req *port_pop_reply(void *ctx, gm_time now)
{
    gm_dcl1_port *p = ctx;
    if (!p->outstanding || p->took_at == now)
        return NULL;
    gm_req *r = gm_link_peek(p->rep_in, now);
    if (!r)
        return NULL;
    gm_link_pop(p->rep_in, now);
    p->took_at = now;
    p->outstanding--;
    p->reply_lat_sum += now - r->t_mark;
    return r;
}

static bool port_offer(void *ctx, const gm_req *probe, gm_time now)
{
    (void)probe;
    return gm_link_can_push(((gm_dcl1_port *)ctx)->req_out, now);
}

/* The request carries what the core sends and wants back; a DC-L1 node
 * changes reply_bytes to a whole line for its own fetch and back to this
 * size when it forwards the reply. */
static void port_accept(void *ctx, gm_req *r, gm_time now)
{
    gm_dcl1_port *p = ctx;
    uint32_t bytes = (uint32_t)__builtin_popcount(r->sectors & 0xfu) * GM_SECTOR_BYTES;
    switch (r->kind) {
    case GM_REQ_STORE: r->req_bytes = bytes; r->reply_bytes = 0; break;
    case GM_REQ_ATOMIC: r->req_bytes = bytes; r->reply_bytes = bytes; break;
    default: r->req_bytes = 0; r->reply_bytes = bytes; break; /* load, non-L1 */
    }
    gm_link_push(p->req_out, r, now);
    p->outstanding++;
}

static bool port_busy(const void *ctx)
{
    return ((const gm_dcl1_port *)ctx)->outstanding != 0;
}

/* No cycle hook: one indirect call less per core cycle (the port has no
 * clocked work; pop_reply keeps to one reply per cycle by its time). */
static const gm_core_port_ops direct_port = {
    .pop_reply = port_pop_reply,
    .offer = port_offer,
    .accept = port_accept,
    .busy = port_busy,
};

/* ---- build ------------------------------------------------------------------- */

static void tick_nodes(void *ctx, gm_time now)
{
    gm_dcl1_tick_nodes(ctx, now);
}

static void tick_noc1(void *ctx, gm_time now)
{
    gm_dcl1_tick_noc1(ctx, now);
}

static void tick_noc2(void *ctx, gm_time now)
{
    gm_dcl1_tick_noc2(ctx, now);
}

static int make_ports(gm_system *s, gm_dcl1 *d, const gm_clock_domain *noc1, gm_error *err)
{
    d->ncores = s->ncores;
    /* A lite core feeds NoC#1, whose injection NI queues. */
    if (gm_link_array_new(&d->core_req, d->ncores, 2, GM_SYNC_EDGES, noc1, err) ||
        gm_link_array_new(&d->core_rep, d->ncores, s->cfg.noc.eject_queue, GM_SYNC_EDGES,
                          &s->clock.d[s->dom_core], err))
        return -1;
    d->ports = calloc(d->ncores, sizeof *d->ports);
    if (!d->ports)
        return gm_fail(err, "out of memory");
    for (uint32_t i = 0; i < d->ncores; i++) {
        d->ports[i] = (gm_dcl1_port){.req_out = &d->core_req[i], .rep_in = &d->core_rep[i],
                                     .took_at = UINT64_MAX};
        gm_core_attach_port(&s->cores[i], (gm_core_port){&direct_port, &d->ports[i],
                                                         &d->ports[i].outstanding});
    }
    return 0;
}

/* NoC#1 and NoC#2 instances in a fixed order (per NoC#1 cluster, then
 * per NoC#2 crossbar: request, reply), and the edges that tick them. */
static int register_with_system(gm_system *s, gm_dcl1 *d, int dom_noc1, gm_error *err)
{
    const gm_dcl1_topo *t = &d->topo;
    for (uint32_t z = 0; z < t->clusters; z++)
        if (gm_system_add_net(s, (gm_net_ref){&d->n1_req[z], "noc1", true, false, dom_noc1},
                              err) ||
            gm_system_add_net(s, (gm_net_ref){&d->n1_rep[z], "noc1", false, false, dom_noc1},
                              err))
            return -1;
    for (uint32_t k = 0; k < t->noc2_xbars; k++)
        if (gm_system_add_net(s, (gm_net_ref){&d->n2_req[k], "noc2", true, true, s->dom_icnt},
                              err) ||
            gm_system_add_net(s, (gm_net_ref){&d->n2_rep[k], "noc2", false, true, s->dom_icnt},
                              err))
            return -1;
    for (uint32_t i = 0; i < t->nodes; i++)
        if (gm_system_add_l1(s, &d->nodes[i].cache.stats, err))
            return -1;
    /* NoC#2 before NoC#1 on a shared interconnect edge. */
    if (gm_system_on_edge(s, s->dom_core, tick_nodes, d, err) ||
        gm_system_on_edge(s, s->dom_icnt, tick_noc2, d, err) ||
        gm_system_on_edge(s, dom_noc1, tick_noc1, d, err))
        return -1;
    s->copies.max_allowed = t->max_copies;
    return 0;
}

static void dcl1_destroy(void *state)
{
    gm_dcl1_free(state);
    free(state);
}

static int dcl1_build(gm_system *s, void **state, gm_error *err)
{
    gm_dcl1 *d = calloc(1, sizeof *d);
    if (!d)
        return gm_fail(err, "out of memory");
    *state = d;
    if (gm_dcl1_topo_init(&d->topo, &s->cfg, err) != 0)
        return -1;
    /* +Boost: NoC#1 in its own domain at twice the interconnect clock;
     * without boost NoC#1 runs on the interconnect clock. */
    int dom_noc1 = s->dom_icnt;
    if (s->cfg.dcl1.boost &&
        (dom_noc1 = gm_system_add_clock(s, "noc1", 2 * s->cfg.noc.clock_mhz, err)) < 0)
        return -1;
    const gm_clock_domain *noc1 = &s->clock.d[dom_noc1];
    gm_dcl1_env env = {
        .cfg = &s->cfg, .res = &s->res,
        .core = &s->clock.d[s->dom_core], .icnt = &s->clock.d[s->dom_icnt], .noc1 = noc1,
        .l2_in = s->l2_in, .l2_out = s->l2_out,
    };
    if (make_ports(s, d, noc1, err) || gm_dcl1_init(d, &env, err))
        return -1;
    return register_with_system(s, d, dom_noc1, err);
}

static bool dcl1_busy(const void *state)
{
    return gm_dcl1_busy(state);
}

static int dcl1_check_drained(const void *state, gm_error *err)
{
    return gm_dcl1_check_drained(state, err);
}

static void dcl1_point_name(const void *state, char *buf, size_t len)
{
    gm_dcl1_topo_name(&((const gm_dcl1 *)state)->topo, buf, len);
}

/* ---- statistics ------------------------------------------------------------- */

static double ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

static void put_u64(cJSON *o, const char *k, uint64_t v)
{
    cJSON_AddNumberToObject(o, k, (double)v);
}

static void json_topology(const gm_dcl1 *d, cJSON *o)
{
    const gm_dcl1_topo *t = &d->topo;
    static const char *const sharing[] = {"private", "shared", "clustered"};
    cJSON_AddStringToObject(o, "sharing", sharing[t->sharing < 3 ? t->sharing : 0]);
    put_u64(o, "l1_caches", t->nodes);
    put_u64(o, "nodes", t->nodes);
    put_u64(o, "clusters", t->clusters);
    put_u64(o, "nodes_per_cluster", t->m);
    put_u64(o, "cores_per_cluster", t->n);
    put_u64(o, "boost", t->boost);
    put_u64(o, "home_granule_bytes", t->home_granule);
    cJSON_AddStringToObject(o, "noc2_layout", t->partitioned ? "partitioned" : "full");
    cJSON *c = cJSON_AddObjectToObject(o, "node_cache");
    put_u64(c, "size_bytes", d->node_cfg.size_bytes);
    put_u64(c, "assoc", d->node_cfg.assoc);
    put_u64(c, "latency", d->node_cfg.latency);
    put_u64(c, "mshr_entries", d->node_cfg.mshr_entries);
    put_u64(c, "mshr_merge", d->node_cfg.mshr_merge);
    put_u64(c, "port_bytes", d->node_cfg.port_bytes);
}

static void json_queues(const gm_system *s, const gm_dcl1 *d, cJSON *o)
{
    uint32_t y = d->topo.nodes;
    cJSON *q = cJSON_AddObjectToObject(o, "queues");
    put_u64(q, "depth", s->cfg.dcl1.node_queue);
    static const char *const qnames[GM_DCL1Q_NQ] = {"q1", "q2", "q3", "q4"};
    for (uint32_t qi = 0; qi < GM_DCL1Q_NQ; qi++) {
        uint64_t sum = 0, pushes = 0;
        uint32_t mx = 0;
        for (uint32_t i = 0; i < y; i++) {
            const gm_dcl1q_stats *st = &d->nodes[i].q.st;
            sum += st->occ_sum[qi];
            pushes += st->pushes[qi];
            if (st->occ_max[qi] > mx)
                mx = st->occ_max[qi];
        }
        cJSON *e = cJSON_AddObjectToObject(q, qnames[qi]);
        /* idle node cycles are skipped; their occupancy is 0 */
        cJSON_AddNumberToObject(e, "avg_occupancy", ratio(sum, (uint64_t)y * s->core_cycle));
        put_u64(e, "max_occupancy", mx);
        put_u64(e, "pushes", pushes);
    }
}

/* Averages over every request, in core cycles; the parts add up to
 * core.avg_mem_latency. */
static void json_latency_split(const gm_system *s, const gm_dcl1 *d, cJSON *o)
{
    gm_dcl1_lat lat = {0};
    uint64_t n = 0, total = 0, noc1_rep = 0;
    for (uint32_t i = 0; i < d->topo.nodes; i++) {
        const gm_dcl1_lat *l = &d->nodes[i].lat;
        lat.noc1 += l->noc1;
        lat.node += l->node;
        lat.noc2 += l->noc2;
        lat.l2 += l->l2;
        lat.dram += l->dram;
    }
    for (uint32_t i = 0; i < s->ncores; i++) {
        n += s->cores[i].stats.mem_latency_n;
        total += s->cores[i].stats.mem_latency_sum;
        noc1_rep += d->ports[i].reply_lat_sum;
    }
    double den = (double)n * (double)gm_system_core_period(s);
    cJSON *l = cJSON_AddObjectToObject(o, "latency_split");
    put_u64(l, "requests", n);
    cJSON_AddNumberToObject(l, "noc1", den > 0 ? (double)(lat.noc1 + noc1_rep) / den : 0.0);
    cJSON_AddNumberToObject(l, "node", den > 0 ? (double)lat.node / den : 0.0);
    cJSON_AddNumberToObject(l, "noc2", den > 0 ? (double)lat.noc2 / den : 0.0);
    cJSON_AddNumberToObject(l, "l2", den > 0 ? (double)lat.l2 / den : 0.0);
    cJSON_AddNumberToObject(l, "dram", den > 0 ? (double)lat.dram / den : 0.0);
    cJSON_AddNumberToObject(l, "total", den > 0 ? (double)total / den : 0.0);
}

static void dcl1_stats_json(const gm_system *s, const void *state, cJSON *design, cJSON *root)
{
    (void)root;
    const gm_dcl1 *d = state;
    json_topology(d, design);
    json_queues(s, d, design);
    uint64_t b13 = 0, b42 = 0, outfull = 0, perr = 0;
    for (uint32_t i = 0; i < d->topo.nodes; i++) {
        const gm_dcl1_node *n = &d->nodes[i];
        b13 += n->q.st.bypass_q1_q3;
        b42 += n->q.st.bypass_q4_q2;
        perr += n->q.st.protocol_errors;
        outfull += n->cache.output_full;
    }
    put_u64(design, "bypass_q1_to_q3", b13);
    put_u64(design, "bypass_q4_to_q2", b42);
    put_u64(design, "cache_output_full_cycles", outfull);
    put_u64(design, "queue_protocol_errors", perr);
    json_latency_split(s, d, design);
}

static void dcl1_stats_text(const gm_system *s, const void *state, FILE *f)
{
    (void)s;
    const gm_dcl1 *d = state;
    char name[48];
    gm_dcl1_topo_name(&d->topo, name, sizeof name);
    fprintf(f, "  design                 DC-L1 %s (%u nodes; L1 figures are the nodes')\n",
            name, d->topo.nodes);
}

/* ---- co-simulation hooks ----------------------------------------------------- */

static gm_dcl1 *dcl1_of(const gm_system *s)
{
    return s->design == &gm_dcl1_design ? s->design_state : NULL;
}

uint32_t gm_dcl1_queue_count(const gm_system *s)
{
    const gm_dcl1 *d = dcl1_of(s);
    return d ? d->topo.nodes : 0;
}

uint32_t gm_dcl1_queue_depth(const gm_system *s, uint32_t k)
{
    const gm_dcl1 *d = dcl1_of(s);
    return d && k < d->topo.nodes ? d->nodes[k].q.depth : 0;
}

int gm_dcl1_queue_attach_twin(gm_system *s, uint32_t k, const gm_dcl1q_twin *twin,
                              gm_error *err)
{
    gm_dcl1 *d = dcl1_of(s);
    if (!d || k >= d->topo.nodes)
        return gm_fail(err, "no DC-L1 node queue instance %u", k);
    d->nodes[k].twin = twin;
    return 0;
}

const gm_design_ops gm_dcl1_design = {
    .name = "dcl1",
    .summary = "decoupled L1: lite cores, DC-L1 nodes between NoC#1 and NoC#2 "
               "(PrY, ShY, ShY+CZ, +Boost)",
    .l1_noun = "DC-L1 nodes",
    .node_name = "DC-L1 node",
    .section = &gm_dcl1_section,
    .keys = gm_dcl1_keys,
    .nkeys = GM_DCL1_NKEYS,
    .validate = gm_dcl1_validate,
    .extra_clocks = gm_dcl1_extra_clocks,
    .build = dcl1_build,
    .destroy = dcl1_destroy,
    .busy = dcl1_busy,
    .check_drained = dcl1_check_drained,
    .stats_json = dcl1_stats_json,
    .stats_text = dcl1_stats_text,
    .point_name = dcl1_point_name,
};
