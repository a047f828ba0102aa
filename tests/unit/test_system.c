/* Whole-system properties that need no shell: two systems in one process
 * do not disturb each other (no global state), run control statuses, and
 * the watchdog on an injected fault. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_systems_in_one_process),
        cmocka_unit_test(test_max_cycles_stops),
        cmocka_unit_test(test_watchdog_names_stuck_channel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
