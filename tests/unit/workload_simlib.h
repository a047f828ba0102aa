/* One tiny run through the whole simulator on configs/small.ini, for the
 * workload stream tests that end with an end-to-end run: it must finish
 * and retire exactly the instructions the walker counts. Include after
 * <cmocka.h>; needs GM_SOURCE_DIR (set by ctest). */
#ifndef GM_TESTS_WORKLOAD_SIMLIB_H
#define GM_TESTS_WORKLOAD_SIMLIB_H

#include <stdio.h>
#include <stdlib.h>

#include "config/config.h"
#include "system/system.h"
#include "workload/walk.h"
#include "workload/workload.h"

static inline void simulate_tiny_small(const char *name)
{
    const char *src = getenv("GM_SOURCE_DIR");
    char path[1024];
    gm_config cfg;
    gm_error err = {{0}};
    gm_workload w;
    assert_non_null(src);
    snprintf(path, sizeof path, "%s/configs/small.ini", src);
    gm_config_defaults(&cfg);
    if (gm_config_load_file(&cfg, path, &err))
        fail_msg("%s", err.msg);
    if (gm_workload_build(&w, name, GM_SIZE_TINY, 1, &err))
        fail_msg("%s", err.msg);
    gm_workload_counts wc;
    assert_int_equal(gm_workload_count(&w, &wc, &err), 0);
    gm_system *s = calloc(1, sizeof *s);
    assert_non_null(s);
    if (gm_system_init(s, &cfg, &err))
        fail_msg("%s", err.msg);
    if (gm_system_run(s, &w, &err))
        fail_msg("%s: %s", name, err.msg);
    if (s->status != GM_RUN_DONE)
        fail_msg("%s: run status %d", name, (int)s->status);
    /* every instruction the walker counts retires, no more */
    uint64_t retired = 0;
    for (uint32_t k = 0; k < w.nkernels; k++)
        retired += s->krec[k].warp_insts;
    assert_int_equal(retired, wc.insts);
    gm_system_free(s);
    free(s);
    gm_workload_free(&w);
}

#endif
