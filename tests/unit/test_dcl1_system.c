/* Whole DC-L1 systems in one process: conservation through the nodes,
 * the copies bound checked during the run (and that the check fires),
 * the latency split adding up exactly, determinism, and the paper's
 * equivalences ShY+C1 = ShY and ShY+CY = PrY. Size tiny on the 80-core
 * design points of configs/dcl1/ (about half a second per run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "designs/dcl1/dcl1.h"
#include "system/system.h"
#include "stats/report.h"
#include "workload/workload.h"

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

static gm_system *make(const gm_config *c)
{
    gm_system *s = calloc(1, sizeof *s);
    gm_error err = {{0}};
    if (gm_system_init(s, c, &err) != 0)
        fail_msg("%s", err.msg);
    return s;
}

static void build(gm_workload *w, const char *name)
{
    gm_error err = {{0}};
    if (gm_workload_build(w, name, GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
}

static void run_ok(gm_system *s, const gm_workload *w)
{
    gm_error err = {{0}};
    if (gm_system_run(s, w, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s->status, GM_RUN_DONE);
}

static char *json_of(const gm_system *s, const char *wname)
{
    char *text = NULL;
    size_t len = 0;
    gm_error err = {{0}};
    FILE *f = open_memstream(&text, &len);
    gm_run_info info = {.workload = wname, .size = "tiny"};
    assert_int_equal(gm_stats_write_json(s, &info, f, &err), 0);
    fclose(f);
    return text;
}

static void destroy(gm_system *s)
{
    gm_system_free(s);
    free(s);
}

/* Every request goes through exactly one node: one Q1 entry and one Q2
 * entry per line request, a Q4 entry for every Q3 entry, one NoC#1
 * request and reply packet each, and the pool balances. */
static void check_conservation(const gm_system *s)
{
    const gm_dcl1 *d = s->design_state;
    uint64_t lines = 0, accesses = 0, q[4] = {0}, n1q = 0, n1r = 0, n2q = 0, n2r = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        lines += s->cores[i].stats.line_reqs;
    for (uint32_t i = 0; i < d->topo.nodes; i++) {
        for (int k = 0; k < GM_REQ_KIND_COUNT; k++)
            accesses += d->nodes[i].cache.stats.accesses[k];
        for (int k = 0; k < 4; k++)
            q[k] += d->nodes[i].q.st.pushes[k];
        assert_int_equal(d->nodes[i].q.st.protocol_errors, 0);
        assert_int_equal(d->nodes[i].cache.copies_violations, 0);
    }
    for (uint32_t z = 0; z < d->topo.clusters; z++) {
        n1q += d->n1_req[z].st.packets_out;
        n1r += d->n1_rep[z].st.packets_out;
    }
    for (uint32_t k = 0; k < d->topo.noc2_xbars; k++) {
        n2q += d->n2_req[k].st.packets_out;
        n2r += d->n2_rep[k].st.packets_out;
    }
    assert_true(lines > 0);
    assert_int_equal(accesses, lines);
    assert_int_equal(q[GM_DCL1Q_Q1], lines);
    assert_int_equal(q[GM_DCL1Q_Q2], lines);
    assert_int_equal(q[GM_DCL1Q_Q3], q[GM_DCL1Q_Q4]);
    assert_int_equal(n1q, lines);
    assert_int_equal(n1r, lines);
    assert_int_equal(n2q, q[GM_DCL1Q_Q3]);
    assert_int_equal(n2r, q[GM_DCL1Q_Q3]);
    assert_int_equal(s->pool.allocated, s->pool.completed);
}

/* The parts of the round trip are contiguous segments of each request's
 * life, so in clock ticks they sum exactly to the total. */
static void check_latency_split(const gm_system *s)
{
    uint64_t total = 0, parts = 0, n = 0;
    for (uint32_t i = 0; i < s->ncores; i++) {
        total += s->cores[i].stats.mem_latency_sum;
        parts += ((const gm_dcl1 *)s->design_state)->ports[i].reply_lat_sum;
        n += s->cores[i].stats.mem_latency_n;
    }
    const gm_dcl1 *d = s->design_state;
    uint64_t requests = 0, noc2 = 0, l2 = 0;
    for (uint32_t i = 0; i < d->topo.nodes; i++) {
        const gm_dcl1_lat *l = &d->nodes[i].lat;
        parts += l->noc1 + l->node + l->noc2 + l->l2 + l->dram;
        requests += l->requests;
        noc2 += l->noc2;
        l2 += l->l2;
    }
    assert_int_equal(parts, total);
    assert_int_equal(requests, n);
    assert_true(noc2 > 0 && l2 > 0);
}

static void test_design_points_conserve(void **state)
{
    (void)state;
    const char *files[] = {"pr80.ini", "pr40.ini", "pr10.ini", "sh40.ini", "sh40_c5.ini",
                           "sh40_c10.ini", "sh40_c20.ini", "sh40_c10_boost.ini",
                           "sh60_c10_boost.ini"};
    gm_workload w;
    build(&w, "reduction");
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        gm_config c;
        load(&c, files[i]);
        gm_system *s = make(&c);
        run_ok(s, &w);
        check_conservation(s);
        check_latency_split(s);
        assert_true(s->copies.max_copies <= ((const gm_dcl1 *)s->design_state)->topo.clusters);
        destroy(s);
    }
    gm_workload_free(&w);
}

/* Under Sh40 a line lives in at most one node and under Sh40+C10 in at
 * most ten, checked by the run itself at every sample (every 100 cycles
 * here); gemm reads the same rows from every CTA, so there are lines to
 * replicate. */
static void test_copies_bound_during_run(void **state)
{
    (void)state;
    gm_workload w;
    build(&w, "gemm");
    const char *files[] = {"sh40.ini", "sh40_c10.ini"};
    uint32_t bound[] = {1, 10};
    for (int i = 0; i < 2; i++) {
        gm_config c;
        load(&c, files[i]);
        c.sim.sample_cycles = 100;
        gm_system *s = make(&c);
        assert_int_equal(s->copies.max_allowed, bound[i]);
        run_ok(s, &w);
        assert_true(s->copies.samples > 50);
        assert_true(s->copies.max_copies >= 1);
        assert_true(s->copies.max_copies <= bound[i]);
        check_conservation(s);
        check_latency_split(s);
        destroy(s);
    }
    gm_workload_free(&w);
}

/* The check fires: Pr40 replicates gemm's shared rows across nodes, so a
 * bound of 1 copy imposed on it must stop the run with an error. */
static void test_copies_check_fires(void **state)
{
    (void)state;
    gm_workload w;
    build(&w, "gemm");
    gm_config c;
    load(&c, "pr40.ini");
    c.sim.sample_cycles = 100;
    gm_system *s = make(&c);
    s->copies.max_allowed = 1;
    gm_error err = {{0}};
    assert_int_equal(gm_system_run(s, &w, &err), -1);
    assert_int_equal(s->status, GM_RUN_ERROR);
    assert_non_null(strstr(err.msg, "invariant"));
    assert_non_null(strstr(err.msg, "DC-L1 nodes"));
    destroy(s);
    gm_workload_free(&w);
}

static uint64_t hash_of(const gm_config *c, const gm_workload *w, uint64_t *cycles)
{
    gm_system *s = make(c);
    run_ok(s, w);
    gm_run_info info = {.workload = "x", .size = "tiny"};
    gm_run_result r;
    gm_stats_collect(s, &info, &r);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < s->ncores; i++)
        h = h * 31 + s->cores[i].stats.event_hash;
    *cycles = r.core_cycles;
    destroy(s);
    return h;
}

/* ShY+C1 builds ShY and ShY+CY builds PrY (the paper's "C1 = Sh40, C40 =
 * Pr40"): same decisions at the same times. */
static void test_cluster_extremes(void **state)
{
    (void)state;
    gm_workload w;
    build(&w, "reduction");
    gm_config a, b;
    uint64_t ca, cb;
    load(&a, "sh40.ini");
    load(&b, "sh40_c10.ini");
    b.dcl1.clusters = 1;
    assert_true(hash_of(&a, &w, &ca) == hash_of(&b, &w, &cb));
    assert_int_equal(ca, cb);
    load(&a, "pr40.ini");
    load(&b, "sh40_c10.ini");
    b.dcl1.clusters = 40;
    assert_true(hash_of(&a, &w, &ca) == hash_of(&b, &w, &cb));
    assert_int_equal(ca, cb);
    /* and a real clustering differs from both */
    load(&b, "sh40_c10.ini");
    uint64_t cc;
    uint64_t h10 = hash_of(&b, &w, &cc);
    assert_true(h10 != hash_of(&a, &w, &ca));
    gm_workload_free(&w);
}

/* Same inputs, same bytes; two DC-L1 systems of different shapes alive
 * in one process do not disturb each other. */
static void test_determinism_and_isolation(void **state)
{
    (void)state;
    gm_workload w;
    build(&w, "reduction");
    gm_config c1, c2;
    load(&c1, "sh40_c10_boost.ini");
    load(&c2, "pr20.ini");
    gm_system *a = make(&c1);
    run_ok(a, &w);
    char *ref = json_of(a, "reduction");
    destroy(a);
    a = make(&c1);
    gm_system *b = make(&c2);
    run_ok(b, &w);
    run_ok(a, &w);
    char *again = json_of(a, "reduction");
    char *other = json_of(b, "reduction");
    assert_string_equal(ref, again);
    assert_true(strcmp(ref, other) != 0);
    assert_non_null(strstr(ref, "\"latency_split\""));
    free(ref);
    free(again);
    free(other);
    destroy(a);
    destroy(b);
    gm_workload_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design_points_conserve),
        cmocka_unit_test(test_copies_bound_during_run),
        cmocka_unit_test(test_copies_check_fires),
        cmocka_unit_test(test_cluster_extremes),
        cmocka_unit_test(test_determinism_and_isolation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
