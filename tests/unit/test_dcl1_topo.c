/* DC-L1 topology: the crossbars every named design point builds (sizes
 * from the paper's Table I and section VI text), the wiring of a request
 * from a core to its node and on to its L2 slice and back, the home bits,
 * which node reaches which L2 slices, and the configuration errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "designs/dcl1/dcl1_topo.h"
#include "designs/dcl1/dcl1.h"
#include "system/system.h"
#include "dram/addr_map.h"
#include "sim/prng.h"

static void load(gm_config *c, const char *rel)
{
    const char *src = getenv("GM_SOURCE_DIR");
    char path[1024];
    gm_error err = {{0}};
    assert_non_null(src);
    gm_config_defaults(c);
    snprintf(path, sizeof path, "%s/configs/dcl1/%s", src, rel);
    if (gm_config_load_file(c, path, &err) != 0 || gm_config_validate(c, &err) != 0)
        fail_msg("%s: %s", rel, err.msg);
}

typedef struct point {
    const char *file;
    uint32_t z, m, n;          /* clusters, nodes per cluster, cores per cluster */
    uint32_t n1_count, n1_in, n1_out;
    uint32_t n2_count, n2_in, n2_out;
    const char *name;
} point;

/* Table I (PrY: N x 1 crossbars in NoC#1, one Y x 32 in NoC#2), section V
 * (Sh40: 80x40 and 40x32), section VI (Sh40+C10: ten 8x4 in NoC#1, four
 * 10x8 in NoC#2; ShY+CZ in general Z NxM and M ZxO, O = L/M), section
 * VIII-A (Sh60+C10 on 120 cores, 48 slices). */
static const point points[] = {
    {"pr80.ini", 80, 1, 1, 80, 1, 1, 1, 80, 32, "Pr80"},
    {"pr40.ini", 40, 1, 2, 40, 2, 1, 1, 40, 32, "Pr40"},
    {"pr20.ini", 20, 1, 4, 20, 4, 1, 1, 20, 32, "Pr20"},
    {"pr10.ini", 10, 1, 8, 10, 8, 1, 1, 10, 32, "Pr10"},
    {"sh40.ini", 1, 40, 80, 1, 80, 40, 1, 40, 32, "Sh40"},
    {"sh40_c5.ini", 5, 8, 16, 5, 16, 8, 8, 5, 4, "Sh40+C5"},
    {"sh40_c10.ini", 10, 4, 8, 10, 8, 4, 4, 10, 8, "Sh40+C10"},
    {"sh40_c20.ini", 20, 2, 4, 20, 4, 2, 2, 20, 16, "Sh40+C20"},
    {"sh40_c10_boost.ini", 10, 4, 8, 10, 8, 4, 4, 10, 8, "Sh40+C10+Boost"},
    {"sh60_c10_boost.ini", 10, 6, 12, 10, 12, 6, 6, 10, 8, "Sh60+C10+Boost"},
};
#define NPOINTS (sizeof points / sizeof points[0])

static void test_topology_of_design_points(void **state)
{
    (void)state;
    for (size_t i = 0; i < NPOINTS; i++) {
        const point *p = &points[i];
        gm_config c;
        load(&c, p->file);
        gm_dcl1_topo t;
        gm_error err = {{0}};
        assert_int_equal(gm_dcl1_topo_init(&t, &c, &err), 0);
        assert_int_equal(t.clusters, p->z);
        assert_int_equal(t.m, p->m);
        assert_int_equal(t.n, p->n);
        assert_int_equal(t.noc2_xbars, p->n2_count);
        assert_int_equal(t.noc2_in, p->n2_in);
        assert_int_equal(t.noc2_out, p->n2_out);
        assert_int_equal(t.max_copies, p->z);
        char name[48];
        gm_dcl1_topo_name(&t, name, sizeof name);
        assert_string_equal(name, p->name);
    }
}

/* Follow a request through the crossbars actually built: core -> NoC#1
 * request input -> (dest) -> the node's input link -> NoC#2 request input
 * -> (dest) -> the L2 slice's input link; and the reply back. */
static void check_wiring(const gm_system *s, const point *p)
{
    const gm_dcl1 *d = s->design_state;
    const gm_dcl1_topo *t = &d->topo;
    assert_non_null(d);
    for (uint32_t z = 0; z < t->clusters; z++) {
        assert_int_equal(d->n1_req[z].n_sources, p->n1_in);
        assert_int_equal(d->n1_req[z].n_sinks, p->n1_out);
        assert_int_equal(d->n1_rep[z].n_sources, p->n1_out);
        assert_int_equal(d->n1_rep[z].n_sinks, p->n1_in);
    }
    for (uint32_t k = 0; k < t->noc2_xbars; k++) {
        assert_int_equal(d->n2_req[k].n_sources, p->n2_in);
        assert_int_equal(d->n2_req[k].n_sinks, p->n2_out);
        assert_int_equal(d->n2_rep[k].n_sources, p->n2_out);
        assert_int_equal(d->n2_rep[k].n_sinks, p->n2_in);
    }
    gm_prng rng;
    gm_prng_seed(&rng, 3, 0);
    for (int trial = 0; trial < 2000; trial++) {
        uint32_t core = (uint32_t)gm_prng_below(&rng, s->ncores);
        uint64_t addr = (gm_prng_next(&rng) & 0xffffffffull) & ~127ull;
        gm_req r = {.addr = addr, .src = (uint16_t)core,
                    .slice = (uint16_t)gm_addr_slice(&s->amap, addr)};
        uint32_t node = gm_dcl1_node_for(t, core, addr);
        r.l1 = (uint16_t)node;
        /* NoC#1 request */
        const gm_net *x = &d->n1_req[core / t->n];
        assert_ptr_equal(x->ports.in[core % t->n], &d->core_req[core]);
        uint32_t o = x->dest(&r, x->ctx);
        assert_true(o < x->n_sinks);
        assert_ptr_equal(x->ports.out[o], &d->node_in[node]);
        /* NoC#2 request: the node's crossbar leads to the line's slice */
        uint32_t k = gm_dcl1_noc2_xbar_of_node(t, node);
        x = &d->n2_req[k];
        assert_ptr_equal(x->ports.in[gm_dcl1_noc2_port_of_node(t, node)], &d->node_l2[node]);
        o = x->dest(&r, x->ctx);
        assert_true(o < x->n_sinks);
        assert_ptr_equal(x->ports.out[o], &s->l2_in[r.slice]);
        assert_true(gm_dcl1_node_reaches_slice(t, node, r.slice));
        /* NoC#2 reply */
        x = &d->n2_rep[k];
        assert_ptr_equal(x->ports.in[gm_dcl1_noc2_port_of_slice(t, r.slice)],
                         &s->l2_out[r.slice]);
        o = x->dest(&r, x->ctx);
        assert_true(o < x->n_sinks);
        assert_ptr_equal(x->ports.out[o], &d->l2_node[node]);
        /* NoC#1 reply */
        x = &d->n1_rep[core / t->n];
        assert_ptr_equal(x->ports.in[node % t->m], &d->node_out[node]);
        o = x->dest(&r, x->ctx);
        assert_ptr_equal(x->ports.out[o], &d->core_rep[core]);
    }
}

static void test_wiring_of_design_points(void **state)
{
    (void)state;
    for (size_t i = 0; i < NPOINTS; i++) {
        gm_config c;
        load(&c, points[i].file);
        gm_system *s = calloc(1, sizeof *s);
        gm_error err = {{0}};
        if (gm_system_init(s, &c, &err) != 0)
            fail_msg("%s: %s", points[i].file, err.msg);
        check_wiring(s, &points[i]);
        /* boost gives NoC#1 its own clock at twice the interconnect's */
        for (uint32_t k = 0; k < gm_system_net_count(s); k++) {
            gm_net_ref r = gm_system_net_at(s, k);
            bool noc1 = strcmp(r.network, "noc1") == 0;
            if (c.dcl1.boost && noc1) {
                assert_int_not_equal(r.domain, s->dom_icnt);
                assert_int_equal(s->clock.d[r.domain].mhz, 2 * c.noc.clock_mhz);
            } else {
                assert_int_equal(r.domain, s->dom_icnt);
            }
        }
        gm_system_free(s);
        free(s);
    }
}

/* Node i of a cluster reaches exactly O = L / M slices, the M nodes of a
 * cluster split the L slices between them, and a wrongly homed request
 * is refused by NoC#2 (its crossbar does not lead to that slice). */
static void test_nodes_reach_their_slices(void **state)
{
    (void)state;
    gm_config c;
    load(&c, "sh40_c10.ini");
    gm_dcl1_topo t;
    gm_error err = {{0}};
    assert_int_equal(gm_dcl1_topo_init(&t, &c, &err), 0);
    for (uint32_t z = 0; z < t.clusters; z++) {
        uint32_t owner[32];
        memset(owner, 0xff, sizeof owner);
        for (uint32_t i = 0; i < t.m; i++) {
            uint32_t node = z * t.m + i, reach = 0;
            for (uint32_t s = 0; s < 32; s++)
                if (gm_dcl1_node_reaches_slice(&t, node, s)) {
                    reach++;
                    assert_int_equal(owner[s], 0xffffffffu);
                    owner[s] = i;
                    assert_int_equal(s % 4, i); /* slices i, i+4, ..., i+28 */
                }
            assert_int_equal(reach, 8);
        }
        for (uint32_t s = 0; s < 32; s++)
            assert_int_not_equal(owner[s], 0xffffffffu);
    }
    /* shared and private designs reach every slice from every node */
    load(&c, "sh40.ini");
    assert_int_equal(gm_dcl1_topo_init(&t, &c, &err), 0);
    for (uint32_t s = 0; s < 32; s++)
        assert_true(gm_dcl1_node_reaches_slice(&t, 39, s));
}

/* Home bits. ShY: the line number mod Y, i.e. for Y = 2^k the k bits just
 * above the 128 B line offset. ShY+CZ: the low bits of the L2 slice index,
 * i.e. the bits just above the 256 B partition offset. */
static void test_home_bits(void **state)
{
    (void)state;
    gm_config c;
    gm_dcl1_topo t;
    gm_error err = {{0}};
    gm_prng rng;
    gm_prng_seed(&rng, 11, 0);

    load(&c, "sh40.ini");
    c.dcl1.nodes = 32;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    assert_int_equal(gm_dcl1_topo_init(&t, &c, &err), 0);
    for (int i = 0; i < 10000; i++) {
        uint64_t a = gm_prng_next(&rng) & 0xffffffffffull;
        assert_int_equal(gm_dcl1_home(&t, a), (a >> 7) & 31);
        /* the byte offset inside the line never matters */
        assert_int_equal(gm_dcl1_home(&t, a), gm_dcl1_home(&t, a & ~127ull));
    }

    /* 40 nodes: 6 home bits would give 64 codes; the remainder of the
     * whole line number gives every node the same share */
    load(&c, "sh40.ini");
    assert_int_equal(gm_dcl1_topo_init(&t, &c, &err), 0);
    uint32_t share[40] = {0};
    for (uint64_t line = 0; line < 40 * 1000; line++)
        share[gm_dcl1_home(&t, line * 128 + 5)]++;
    for (int i = 0; i < 40; i++)
        assert_int_equal(share[i], 1000);

    gm_addr_map am;
    const char *clustered[] = {"sh40_c10.ini", "sh40_c5.ini", "sh40_c20.ini",
                               "sh60_c10_boost.ini"};
    for (int f = 0; f < 4; f++) {
        load(&c, clustered[f]);
        assert_int_equal(gm_dcl1_topo_init(&t, &c, &err), 0);
        assert_int_equal(gm_addr_map_init(&am, c.dram.partition_bytes, c.l2.slices,
                                          c.dram.channels, c.dram.banks, c.dram.bank_groups,
                                          c.dram.row_bytes, c.dram.atom_bytes, &err), 0);
        for (int i = 0; i < 10000; i++) {
            uint64_t a = gm_prng_next(&rng) & 0xffffffffffull;
            assert_int_equal(gm_dcl1_home(&t, a), gm_addr_slice(&am, a) % t.m);
            if (t.m == 4)
                assert_int_equal(gm_dcl1_home(&t, a), (a >> 8) & 3);
        }
    }
}

/* ---- configuration errors ------------------------------------------------------ */

static void expect_error(gm_config *c, const char *a, const char *b)
{
    gm_error err = {{0}};
    assert_int_equal(gm_config_validate(c, &err), -1);
    if (!strstr(err.msg, a) || (b && !strstr(err.msg, b)))
        fail_msg("error \"%s\" does not name \"%s\" / \"%s\"", err.msg, a, b ? b : "");
}

static void test_config_errors(void **state)
{
    (void)state;
    gm_config c;
    gm_error err = {{0}};

    load(&c, "pr40.ini");
    c.dcl1.nodes = 30;          /* 80 cores into 30 private nodes */
    expect_error(&c, "[dcl1] nodes = 30", "[core] num_cores");

    load(&c, "sh40_c10.ini");
    c.dcl1.clusters = 2;        /* M = 20 nodes, 32 slices */
    expect_error(&c, "[l2] slices = 32", "[dcl1] clusters");

    load(&c, "sh40_c10.ini");
    c.dcl1.clusters = 3;
    expect_error(&c, "[dcl1] nodes = 40", "[dcl1] clusters = 3");

    load(&c, "sh40_c10.ini");
    c.dcl1.nodes = 30;          /* 3 nodes per cluster and 80 cores in 10 clusters: */
    expect_error(&c, "[l2] slices = 32", "nodes per cluster");

    load(&c, "sh40_c10.ini");
    c.dcl1.clusters = 16;       /* divides nodes? 40 % 16 */
    expect_error(&c, "[dcl1] clusters = 16", NULL);

    load(&c, "sh40.ini");
    c.dcl1.clusters = 4;
    expect_error(&c, "[dcl1] clusters = 4", "[dcl1] sharing");

    load(&c, "sh40.ini");
    c.dcl1.nodes = 81;
    expect_error(&c, "[dcl1] nodes = 81", "[core] num_cores = 80");

    load(&c, "sh40.ini");
    c.dcl1.nodes = 48;          /* 80 * 16 KB / 48 is not whole */
    expect_error(&c, "[dcl1] nodes = 48", "node_size");

    load(&c, "sh40.ini");
    c.dcl1.node_size = 1000;
    expect_error(&c, "[dcl1] node_size = 1000", NULL);

    load(&c, "sh40.ini");
    c.dcl1.node_port_bytes = 2;
    expect_error(&c, "[dcl1] node_port_bytes", NULL);

    /* the baseline ignores the DC-L1 keys beyond their ranges */
    load(&c, "baseline.ini");
    c.dcl1.nodes = 30;
    c.dcl1.clusters = 7;
    assert_int_equal(gm_config_validate(&c, &err), 0);

    /* ShY+C1 is ShY and ShY+CY is PrY: both valid whatever L */
    load(&c, "sh40_c10.ini");
    c.dcl1.clusters = 1;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    c.dcl1.clusters = 40;
    assert_int_equal(gm_config_validate(&c, &err), 0);
}

/* Derived node caches keep the total L1 capacity and scale the MSHRs. */
static void test_node_cache_derivation(void **state)
{
    (void)state;
    gm_config c;
    gm_cache_cfg nc;
    load(&c, "pr10.ini");
    gm_dcl1_node_cache(&c, &nc);
    assert_int_equal(nc.size_bytes * 10, 80 * 16 * 1024);
    assert_int_equal(nc.assoc, c.l1.assoc);
    assert_int_equal(nc.latency, 34);
    assert_int_equal(nc.mshr_entries, c.l1.mshr_entries * 8);
    assert_int_equal(nc.port_bytes, c.l1.port_bytes);
    load(&c, "sh60_c10_boost.ini");
    gm_dcl1_node_cache(&c, &nc);
    assert_int_equal(nc.size_bytes, 32 * 1024);
    c.dcl1.node_size = 64 * 1024;
    c.dcl1.node_assoc = 8;
    c.dcl1.node_port_bytes = 64;
    gm_dcl1_node_cache(&c, &nc);
    assert_int_equal(nc.size_bytes, 64 * 1024);
    assert_int_equal(nc.assoc, 8);
    assert_int_equal(nc.port_bytes, 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topology_of_design_points),
        cmocka_unit_test(test_wiring_of_design_points),
        cmocka_unit_test(test_nodes_reach_their_slices),
        cmocka_unit_test(test_home_bits),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_node_cache_derivation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
