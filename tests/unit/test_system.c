/* Whole-system properties that need no shell: two systems in one process
 * do not disturb each other (no global state), run control statuses, the
 * watchdog on an injected fault, and the progress estimate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "system/system.h"
#include "stats/report.h"
#include "workload/workload.h"

static void small_config(gm_config *c)
{
    const char *src = getenv("GM_SOURCE_DIR");
    char path[1024];
    gm_error err = {{0}};
    assert_non_null(src);
    snprintf(path, sizeof path, "%s/configs/small.ini", src);
    gm_config_defaults(c);
    if (gm_config_load_file(c, path, &err) != 0)
        fail_msg("%s", err.msg);
}

/* Runs wl on a fresh system and returns its statistics JSON (malloc'd). */
static char *run_json(gm_system *s, const gm_workload *wl)
{
    gm_error err = {{0}};
    if (gm_system_run(s, wl, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s->status, GM_RUN_DONE);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gm_run_info info = {.workload = wl->name, .size = "tiny"};
    assert_int_equal(gm_stats_write_json(s, &info, f, &err), 0);
    fclose(f);
    return text;
}

static void build(gm_workload *w, const char *name)
{
    gm_error err = {{0}};
    if (gm_workload_build(w, name, GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
}

/* Two systems alive at once, of different shapes, run one after the other:
 * each gives exactly what it gives alone. */
static void test_two_systems_in_one_process(void **state)
{
    (void)state;
    gm_config small, wide;
    small_config(&small);
    small_config(&wide);
    wide.core.num_cores = 16;
    wide.core.clusters = 16;
    gm_workload wa, wb;
    build(&wa, "gemm");
    build(&wb, "reduction");
    gm_error err = {{0}};

    gm_system *alone = calloc(1, sizeof *alone);
    assert_int_equal(gm_system_init(alone, &small, &err), 0);
    char *ref_a = run_json(alone, &wa);
    gm_system_free(alone);
    assert_int_equal(gm_system_init(alone, &wide, &err), 0);
    char *ref_b = run_json(alone, &wb);
    gm_system_free(alone);
    free(alone);

    gm_system *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_int_equal(gm_system_init(a, &small, &err), 0);
    assert_int_equal(gm_system_init(b, &wide, &err), 0);
    char *got_b = run_json(b, &wb);
    char *got_a = run_json(a, &wa);
    assert_string_equal(got_a, ref_a);
    assert_string_equal(got_b, ref_b);
    /* and the two workloads really differ, so the comparison means something */
    assert_true(strcmp(got_a, got_b) != 0);

    gm_system_free(a);
    gm_system_free(b);
    free(a);
    free(b);
    free(ref_a);
    free(ref_b);
    free(got_a);
    free(got_b);
    gm_workload_free(&wa);
    gm_workload_free(&wb);
}

static void test_max_cycles_stops(void **state)
{
    (void)state;
    gm_config c;
    small_config(&c);
    c.sim.max_cycles = 1000;
    gm_workload w;
    build(&w, "gemm");
    gm_system *s = calloc(1, sizeof *s);
    gm_error err = {{0}};
    assert_int_equal(gm_system_init(s, &c, &err), 0);
    assert_int_equal(gm_system_run(s, &w, &err), 0);
    assert_int_equal(s->status, GM_RUN_MAX_CYCLES);
    assert_int_equal(s->core_cycle, 1000);
    gm_system_free(s);
    free(s);
    gm_workload_free(&w);
}

/* A channel that never issues: the watchdog must fire within about one
 * bound (it checks every quarter bound) and point at the channel. */
static void test_watchdog_names_stuck_channel(void **state)
{
    (void)state;
    gm_config c;
    small_config(&c);
    c.sim.fault_stall_dram = 0;
    c.sim.watchdog_cycles = 8000;
    gm_workload w;
    build(&w, "reduction");
    gm_system *s = calloc(1, sizeof *s);
    gm_error err = {{0}};
    assert_int_equal(gm_system_init(s, &c, &err), 0);
    assert_int_equal(gm_system_run(s, &w, &err), 0);
    assert_int_equal(s->status, GM_RUN_DEADLOCK);
    assert_true(s->core_cycle <= 8000 + 8000 / 4 + 2000);
    assert_non_null(strstr(s->deadlock_report, "deadlock: request #"));
    assert_non_null(strstr(s->deadlock_report, "in DRAM controller 0"));
    gm_system_free(s);
    free(s);
    gm_workload_free(&w);
}

static uint32_t resident_ctas(const gm_system *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        n += s->cores[i].resident_ctas;
    return n;
}

static uint64_t finished_ctas(const gm_system *s)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < s->ncores; i++)
        n += s->cores[i].stats.ctas_done;
    return n;
}

/* The progress estimate behind the ETA (docs/performance.md, "Progress and
 * ETA"): gemm's 16 CTAs on 2 cores of 2 CTAs each run in four waves of
 * alike CTAs. At every core cycle the estimate lies between the finished
 * CTAs and those plus the resident ones, is 0 until the first finishes and
 * is the whole grid at the end. When the first CTA finishes, its wave is
 * nearly done too: extrapolating the cycles so far by the estimate must
 * predict the run's length better than by finished CTAs alone, and
 * within a quarter. Cycles, not seconds: the same run gives the same
 * figures. */
static void test_ctas_progress_counts_work_in_flight(void **state)
{
    (void)state;
    gm_config c;
    small_config(&c);
    c.core.num_cores = 2;
    c.core.clusters = 2;
    c.core.max_ctas = 2;
    gm_workload w;
    build(&w, "gemm");
    uint64_t total = 0;
    for (uint32_t k = 0; k < w.nkernels; k++)
        total += gm_kernel_ctas(&w.kernels[k]);
    assert_true(total >= 4 * 2 * 2);
    gm_system *s = calloc(1, sizeof *s);
    gm_error err = {{0}};
    assert_int_equal(gm_system_init(s, &c, &err), 0);
    assert_int_equal(gm_system_run_begin(s, &w, &err), 0);
    uint64_t seen = UINT64_MAX, first_cycle = 0, first_done = 0;
    double first_work = 0;
    enum { MAX_PRED = 1 << 18 };
    uint64_t *pred_cycle = calloc(MAX_PRED, sizeof *pred_cycle);
    double *pred_work = calloc(MAX_PRED, sizeof *pred_work);
    assert_true(pred_cycle && pred_work);
    uint32_t n_pred = 0;
    int rc;
    while ((rc = gm_system_step(s, &err)) == 1) {
        if (s->core_cycle == seen)
            continue;
        seen = s->core_cycle;
        uint64_t done = finished_ctas(s);
        double work = gm_system_ctas_progress(s);
        if (!done) {
            assert_true(work == 0);
            continue;
        }
        assert_true(work >= (double)done);
        assert_true(work <= (double)(done + resident_ctas(s)) + 1e-9);
        if (!first_done) {
            first_cycle = s->core_cycle;
            first_done = done;
            first_work = work;
        }
        if (n_pred < MAX_PRED) {
            pred_cycle[n_pred] = s->core_cycle;
            pred_work[n_pred++] = work;
        }
    }
    assert_int_equal(rc, 0);
    assert_int_equal(gm_system_run_end(s, &err), 0);
    assert_int_equal(s->status, GM_RUN_DONE);
    assert_true(gm_system_ctas_progress(s) == (double)total);
    double cycles = (double)s->core_cycle;
    double by_work = (double)first_cycle * (double)total / first_work;
    double by_done = (double)first_cycle * (double)total / (double)first_done;
    double err_work = by_work / cycles - 1, err_done = by_done / cycles - 1;
    print_message("first CTA at cycle %llu of %.0f: total predicted %.0f from the "
                  "estimate (%.1f CTAs), %.0f from %llu finished\n",
                  (unsigned long long)first_cycle, cycles, by_work, first_work, by_done,
                  (unsigned long long)first_done);
    assert_true(err_work * err_work < err_done * err_done);
    assert_true(err_work > -0.25 && err_work < 0.25);
    /* and at every later cycle too: a wave just launched counts for what
     * it has done, not for its CTAs */
    assert_true(n_pred < MAX_PRED);
    double worst = 0;
    for (uint32_t i = 0; i < n_pred; i++) {
        double e = (double)pred_cycle[i] * (double)total / pred_work[i] / cycles - 1;
        if (e * e > worst * worst)
            worst = e;
    }
    print_message("worst prediction of the run's length after the first CTA: %+.1f %%\n",
                  100 * worst);
    assert_true(worst > -0.25 && worst < 0.25);
    free(pred_cycle);
    free(pred_work);
    gm_system_free(s);
    free(s);
    gm_workload_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_systems_in_one_process),
        cmocka_unit_test(test_max_cycles_stops),
        cmocka_unit_test(test_watchdog_names_stuck_channel),
        cmocka_unit_test(test_ctas_progress_counts_work_in_flight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
