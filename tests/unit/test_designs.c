/* The design registry and the plug-in contract (designs/design.h): every
 * registered design is named consistently, owns the keys of its section,
 * builds a system that gives every core a port and registers its
 * networks and L1-level caches, and runs a kernel to a drained end; two
 * systems of different designs live in one process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "config/config_keys.h"
#include "designs/design.h"
#include "system/system.h"
#include "workload/workload.h"

static void test_registry_is_consistent(void **state)
{
    (void)state;
    assert_true(gm_design_count() >= 2);
    size_t n = 0;
    while (gm_design_names[n])
        n++;
    assert_int_equal(n, gm_design_count());
    for (size_t i = 0; i < gm_design_count(); i++) {
        const gm_design_ops *d = gm_design_at(i);
        assert_string_equal(d->name, gm_design_names[i]);
        assert_ptr_equal(gm_design_find(d->name), d);
        assert_non_null(d->summary);
        assert_non_null(d->l1_noun);
        assert_non_null(d->build);
        assert_non_null(d->destroy);
        assert_non_null(d->busy);
        assert_non_null(d->check_drained);
        assert_non_null(d->point_name);
        /* its keys live in its own section, never in a generic one */
        for (size_t k = 0; k < d->nkeys; k++) {
            assert_non_null(d->section);
            assert_string_equal(d->keys[k].section, d->section->name);
            assert_ptr_equal(gm_config_key_find(d->section->name, d->keys[k].name),
                             &d->keys[k]);
        }
        if (d->section)
            assert_ptr_equal(gm_config_section_find(d->section->name), d->section);
    }
    assert_null(gm_design_find("nosuch"));
    assert_null(gm_design_at(gm_design_count()));
    /* the generic [design] section holds only the selector */
    for (size_t i = 0; i < gm_config_nkeys; i++)
        if (strcmp(gm_config_keys[i].section, "design") == 0)
            assert_string_equal(gm_config_keys[i].name, "kind");
}

/* configs/small.ini with design i; DC-L1 as Sh4+C2 to fit 8 cores. */
static void design_config(gm_config *c, size_t i)
{
    const char *src = getenv("GM_SOURCE_DIR");
    char path[1024];
    gm_error err = {{0}};
    assert_non_null(src);
    snprintf(path, sizeof path, "%s/configs/small.ini", src);
    gm_config_defaults(c);
    if (gm_config_load_file(c, path, &err) != 0)
        fail_msg("%s", err.msg);
    char kind[64];
    snprintf(kind, sizeof kind, "design.kind=%s", gm_design_at(i)->name);
    const char *sets[] = { kind, "dcl1.nodes=4", "dcl1.sharing=clustered",
                           "dcl1.clusters=2" };
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
        if (gm_config_set(c, sets[k], &err) != 0)
            fail_msg("%s: %s", sets[k], err.msg);
}

static void test_every_design_builds_and_drains(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err = {{0}};
    if (gm_workload_build(&w, "gemm", GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
    for (size_t i = 0; i < gm_design_count(); i++) {
        gm_config c;
        design_config(&c, i);
        gm_system *s = calloc(1, sizeof *s);
        if (gm_system_init(s, &c, &err) != 0)
            fail_msg("%s: %s", gm_design_at(i)->name, err.msg);
        assert_ptr_equal(s->design, gm_design_at(i));
        for (uint32_t k = 0; k < s->ncores; k++)
            assert_non_null(s->cores[k].port.ops);
        assert_true(gm_system_net_count(s) >= 2);
        assert_true(s->nl1 >= 1);
        assert_true(s->copies.max_allowed >= 1);
        if (gm_system_run(s, &w, &err) != 0)
            fail_msg("%s: %s", gm_design_at(i)->name, err.msg);
        assert_int_equal(s->status, GM_RUN_DONE);
        assert_int_equal(s->pool.live, 0);
        assert_true(s->pool.completed > 0);
        /* every registered network delivered what it took */
        for (uint32_t k = 0; k < gm_system_net_count(s); k++) {
            gm_net_ref r = gm_system_net_at(s, k);
            assert_int_equal(r.net->st.packets_in, r.net->st.packets_out);
        }
        gm_system_free(s);
        free(s);
    }
    gm_workload_free(&w);
}

/* Two designs' systems alive at once, stepped one after the other, give
 * the same results as each alone: no state is shared between systems. */
static void test_two_designs_in_one_process(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err = {{0}};
    if (gm_workload_build(&w, "reduction", GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
    uint64_t alone[2], together[2];
    gm_system *s[2];
    for (size_t i = 0; i < 2; i++) {
        gm_config c;
        design_config(&c, i);
        s[i] = calloc(1, sizeof *s[i]);
        assert_int_equal(gm_system_init(s[i], &c, &err), 0);
        assert_int_equal(gm_system_run(s[i], &w, &err), 0);
        alone[i] = s[i]->core_cycle;
        gm_system_free(s[i]);
    }
    for (size_t i = 0; i < 2; i++) {
        gm_config c;
        design_config(&c, i);
        assert_int_equal(gm_system_init(s[i], &c, &err), 0);
    }
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(gm_system_run(s[i], &w, &err), 0);
        together[i] = s[i]->core_cycle;
    }
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(alone[i], together[i]);
        gm_system_free(s[i]);
        free(s[i]);
    }
    assert_true(alone[0] != alone[1]); /* two different designs really ran */
    gm_workload_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_is_consistent),
        cmocka_unit_test(test_every_design_builds_and_drains),
        cmocka_unit_test(test_two_designs_in_one_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
