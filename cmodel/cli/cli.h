/* The gmsim command line, callable from more than one executable: gmsim
 * itself (main.c) and the co-simulation build gmsim-cosim (tb/cosim/),
 * which adds `run --rtl PATTERN` through an extension. */
#ifndef GM_CLI_CLI_H
#define GM_CLI_CLI_H

#include "system/system.h"
#include "sim/error.h"

typedef struct gm_cli_ext {
    /* Lines appended to `run --help`. */
    const char *run_help;
    /* Called for `run --rtl PATTERN` after the system is built and before
     * it runs: realizes the matching instances by their RTL. Returns 0, or
     * -1 with err (a pattern that matches nothing is an error). */
    int (*attach)(void *arg, gm_system *s, const char *pattern, gm_error *err);
    /* Called after the run (whatever its status) with the system still
     * built: prints the co-simulation summary; non-zero fails the run. */
    int (*finish)(void *arg, gm_system *s, gm_error *err);
    /* When set, runs the built system in place of gm_system_run (same
     * contract: 0, or -1 with err; s->status set): how the SystemC top
     * (tb/systemc/) runs `gmsim run` inside SystemC. */
    int (*run)(void *arg, gm_system *s, const gm_workload *wl, gm_error *err);
    void *arg;
} gm_cli_ext;

/* Parses argv as the gmsim command and runs it; returns the exit status.
 * ext may be NULL (no --rtl). */
int gm_cli_main(int argc, char **argv, const gm_cli_ext *ext);

#endif
