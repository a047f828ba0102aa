/* The copies-per-line metric includes the end-of-run sample (SPEC section
 * 7): a run shorter than one sampling period reports the copies of the
 * lines it holds at the end, not 0, and a run whose last periodic sample
 * falls on its last cycle does not count that state twice. The expected
 * copies are counted here by walking every DC-L1 node's tag array, not
 * from the residency map the model keeps. Pr40 on gemm tiny: gemm's CTAs
 * read the same rows, so lines are replicated across nodes. */
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
#include "stats/report.h"
#include "system/system.h"
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

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Valid lines in all nodes (copies) and distinct line addresses among
 * them, from the tag arrays themselves. */
static void count_lines(const gm_dcl1 *d, uint64_t *copies, uint64_t *distinct)
{
    uint64_t n = 0, cap = 0;
    for (uint32_t i = 0; i < d->topo.nodes; i++)
        cap += (uint64_t)d->nodes[i].cache.tags.sets * d->nodes[i].cache.tags.assoc;
    uint64_t *addr = malloc(cap * sizeof *addr);
    assert_non_null(addr);
    for (uint32_t i = 0; i < d->topo.nodes; i++) {
        const gm_tag_array *t = &d->nodes[i].cache.tags;
        for (uint64_t w = 0; w < (uint64_t)t->sets * t->assoc; w++)
            if (t->line[w].used)
                addr[n++] = t->line[w].addr;
    }
    qsort(addr, n, sizeof *addr, cmp_u64);
    *copies = n;
    *distinct = 0;
    for (uint64_t i = 0; i < n; i++)
        if (i == 0 || addr[i] != addr[i - 1])
            (*distinct)++;
    free(addr);
}

static gm_system *run(const gm_config *c, const gm_workload *w)
{
    gm_system *s = calloc(1, sizeof *s);
    gm_error err = {{0}};
    if (gm_system_init(s, c, &err) != 0 || gm_system_run(s, w, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s->status, GM_RUN_DONE);
    return s;
}

static double reported_copies(const gm_system *s)
{
    gm_run_info info = {.workload = "gemm", .size = "tiny"};
    gm_run_result r;
    gm_stats_collect(s, &info, &r);
    return r.copies_per_line;
}

/* Shorter than one period: the only sample is the end of the run. */
static void test_run_shorter_than_period(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err = {{0}};
    if (gm_workload_build(&w, "gemm", GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
    gm_config c;
    load(&c, "pr40.ini");
    c.sim.sample_cycles = 1000000000;
    gm_system *s = run(&c, &w);
    assert_true(s->core_cycle < c.sim.sample_cycles);
    uint64_t copies, distinct;
    count_lines(s->design_state, &copies, &distinct);
    assert_true(distinct > 0);
    assert_true(copies > distinct);     /* replicated: the mean is above 1 */
    assert_int_equal(s->copies.samples, 1);
    double got = reported_copies(s);
    double want = (double)copies / (double)distinct;
    assert_true(got > 1.0);
    assert_true(got == want);
    gm_system_free(s);
    free(s);
    gm_workload_free(&w);
}

/* Periodic samples plus one at the end; a period that divides the run's
 * length puts a periodic sample on the last cycle, which must not count
 * twice. */
static void test_samples_counted_once(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err = {{0}};
    if (gm_workload_build(&w, "gemm", GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
    gm_config c;
    load(&c, "pr40.ini");
    c.sim.sample_cycles = 1000;
    gm_system *s = run(&c, &w);
    uint64_t len = s->core_cycle;
    assert_true(len > 2000);
    uint64_t periodic = len / 1000;
    assert_int_equal(s->copies.samples, periodic + (len % 1000 != 0));
    gm_system_free(s);
    free(s);

    c.sim.sample_cycles = len;  /* exactly one periodic sample, on the last cycle */
    s = run(&c, &w);
    assert_int_equal(s->core_cycle, len);
    assert_int_equal(s->copies.samples, 1);
    uint64_t copies, distinct;
    count_lines(s->design_state, &copies, &distinct);
    assert_int_equal(s->copies.resident_sum, copies);
    assert_int_equal(s->copies.distinct_sum, distinct);
    gm_system_free(s);
    free(s);
    gm_workload_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_shorter_than_period),
        cmocka_unit_test(test_samples_counted_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
