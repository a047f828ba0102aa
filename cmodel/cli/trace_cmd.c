/* gmsim trace export: a workload as Accel-Sim traces, read back and
 * compared with the original; gmsim trace info: what a workload (a trace
 * or a built-in) contains. */
#define _GNU_SOURCE
#include "cli/trace_cmd.h"
#include "cli/options.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "workload/trace_read.h"
#include "workload/trace_write.h"
#include "workload/walk.h"
#include "workload/workload.h"

static void usage_trace(FILE *f)
{
    fputs("usage: gmsim trace export --workload NAME --out DIR [--size S] [--seed N] [--force]\n"
          "                          [--no-verify]\n"
          "       gmsim trace info --workload NAME [--size S] [--seed N]\n"
          "\n"
          "export  writes DIR/kernelslist.g and DIR/kernel-<n>.traceg (Accel-Sim tracer\n"
          "        version 4) for a workload, then reads them back and checks that the\n"
          "        instruction streams are identical. Run the result with\n"
          "        gmsim run --workload trace:DIR/kernelslist.g\n"
          "info    prints the kernels of a workload and its instruction counts.\n"
          "\n"
          "  --workload NAME  a built-in workload or trace:PATH/kernelslist.g\n"
          "  --size S         tiny | small | standard | fill (default small; traces\n"
          "                   ignore it)\n"
          "  --seed N         seed of the workload, 0 to 2^64-1, decimal or 0x hex\n"
          "                   (default: sim.seed of the built-in configuration, as\n"
          "                   gmsim run)\n"
          "  --out DIR        output directory, created with its parents if missing; it\n"
          "                   must be empty, and may not be the directory of the trace\n"
          "                   being read\n"
          "  --force          export into a non-empty DIR: kernelslist.g and the kernel\n"
          "                   files are replaced, stale kernel-N.traceg files removed,\n"
          "                   other files kept\n"
          "  --no-verify      do not read the trace back\n"
          "\n"
          "The files are written to temporaries and renamed into place when all are\n"
          "written: a failed export leaves DIR as it was.\n"
          "\n"
          "Exit status: 0 done; 1 bad input or I/O error; 4 the trace read back differs\n"
          "from the workload (other than in read-only flags, which only warn).\n"
          "The format and the opcode mapping: docs/traces.md.\n",
          f);
}

typedef struct trace_opts {
    const char *workload;
    const char *out;
    gm_size size;
    uint64_t seed;
    int verify;
    int force;
} trace_opts;

static int parse_opts(int argc, char **argv, trace_opts *o)
{
    static const struct option longopts[] = {
        {"workload", required_argument, 0, 'w'}, {"out", required_argument, 0, 'o'},
        {"size", required_argument, 0, 's'},     {"seed", required_argument, 0, 'S'},
        {"no-verify", no_argument, 0, 'n'},      {"help", no_argument, 0, 'h'},
        {"force", no_argument, 0, 'f'},          {0, 0, 0, 0}};
    gm_config cfg;
    gm_config_defaults(&cfg);
    *o = (trace_opts){.size = GM_SIZE_SMALL, .seed = cfg.sim.seed, .verify = 1};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", longopts, 0)) != -1) {
        switch (ch) {
        case 'w': o->workload = optarg; break;
        case 'o': o->out = optarg; break;
        case 's':
            if (gm_size_parse(optarg, &o->size) != 0) {
                fprintf(stderr, "gmsim trace: --size %s: must be %s\n", optarg, gm_size_choices());
                return 1;
            }
            break;
        case 'S':
            if (gm_cli_parse_u64("gmsim trace", "--seed", optarg, 0, UINT64_MAX, &o->seed) != 0)
                return 1;
            break;
        case 'n': o->verify = 0; break;
        case 'f': o->force = 1; break;
        case 'h': usage_trace(stdout); return -1;
        default: usage_trace(stderr); return 1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gmsim trace: unexpected argument '%s'\n", argv[optind]);
        return 1;
    }
    if (!o->workload) {
        fprintf(stderr, "gmsim trace: --workload is required\n");
        return 1;
    }
    return 0;
}

static int verify(const gm_workload *w, const char *dir)
{
    char path[4096];
    gm_error err = {{0}};
    gm_workload back;
    gm_trace_diff d;
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    if (gm_trace_workload_build(&back, path, &err) != 0) {
        fprintf(stderr, "gmsim trace: reading the trace back: %s\n", err.msg);
        return 4;
    }
    int rc = gm_trace_compare(w, &back, &d, &err);
    if (rc == 0)
        rc = gm_trace_workload_check(&back, &err);
    gm_workload_free(&back);
    if (rc != 0) {
        fprintf(stderr, "gmsim trace: comparing: %s\n", err.msg);
        return 4;
    }
    uint64_t other = d.shape + d.length + d.op + d.mask + d.regs + d.width + d.addr;
    if (other) {
        fprintf(stderr,
                "gmsim trace: the trace read back differs: %" PRIu64 " kernel shapes, %" PRIu64
                " warp lengths, %" PRIu64 " opcodes, %" PRIu64 " masks, %" PRIu64
                " registers, %" PRIu64 " widths, %" PRIu64 " addresses; first: %s\n",
                d.shape, d.length, d.op, d.mask, d.regs, d.width, d.addr, d.first);
        return 4;
    }
    if (d.flags) {
        fprintf(stderr,
                "gmsim trace: warning: %" PRIu64 " instructions get a different read-only "
                "flag from the trace's 128 B line rule (docs/traces.md): %" PRIu64
                " lose it, %" PRIu64 " gain it; first: %s\n",
                d.flags, d.ro_only_a, d.ro_only_b, d.first);
        printf("read back: %" PRIu64 " instructions, identical except %" PRIu64
               " read-only flags\n", d.insts, d.flags);
        return 0;
    }
    printf("read back: %" PRIu64 " instructions, identical\n", d.insts);
    return 0;
}

static int cmd_export(int argc, char **argv)
{
    trace_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!o.out) {
        fprintf(stderr, "gmsim trace export: --out DIR is required\n");
        return 1;
    }
    gm_error err = {{0}};
    gm_workload w;
    gm_trace_export_stats st;
    size_t plen = strlen(GM_TRACE_PREFIX);
    const char *source = strncmp(o.workload, GM_TRACE_PREFIX, plen) == 0 ? o.workload + plen : NULL;
    if (gm_trace_export_check(o.out, source, o.force, &err) != 0) {
        fprintf(stderr, "gmsim trace export: --out %s\n", err.msg);
        return 1;
    }
    if (gm_workload_build(&w, o.workload, o.size, o.seed, &err) != 0) {
        fprintf(stderr, "gmsim trace: workload %s: %s\n", o.workload, err.msg);
        return 1;
    }
    if (gm_trace_export(&w, o.out, &st, &err) != 0) {
        fprintf(stderr, "gmsim trace: %s\n", err.msg);
        gm_workload_free(&w);
        return 1;
    }
    printf("wrote %s/kernelslist.g: %u kernels, %" PRIu64 " warps, %" PRIu64
           " instructions, %" PRIu64 " bytes\n",
           o.out, st.kernels, st.warps, st.insts, st.bytes);
    rc = o.verify ? verify(&w, o.out) : 0;
    gm_workload_free(&w);
    return rc;
}

static const char *const op_names[GM_OP_COUNT] = {
    "alu", "sfu", "dp", "branch", "shared_ld", "shared_st", "barrier", "global_ld",
    "global_st", "atomic", "local_ld", "local_st", "tex_ld", "const_ld", "exit"};

static int count_read_only(const gm_kernel *k, uint32_t ki, const gm_warp_gen *g,
                           const gm_inst *in, int n, void *arg)
{
    (void)k;
    (void)ki;
    (void)g;
    for (int i = 0; i < n; i++)
        *(uint64_t *)arg += in[i].op == GM_OP_GLOBAL_LD && (in[i].flags & GM_INST_READ_ONLY);
    return 0;
}

static int cmd_info(int argc, char **argv)
{
    trace_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    gm_error err = {{0}};
    gm_workload w;
    gm_workload_counts c;
    uint64_t ro = 0;
    int lazy = 0;   /* streamed */
    if (gm_workload_build(&w, o.workload, o.size, o.seed, &err) != 0) {
        fprintf(stderr, "gmsim trace: workload %s: %s\n", o.workload, err.msg);
        return 1;
    }
    if (gm_workload_count(&w, &c, &err) != 0 ||
        gm_workload_walk(&w, 64, count_read_only, &ro, &err) != 0 ||
        gm_trace_workload_check(&w, &err) != 0) {
        fprintf(stderr, "gmsim trace: %s\n", err.msg);
        gm_workload_free(&w);
        return 1;
    }
    int is_trace = gm_trace_workload_info(&w, &lazy);
    printf("workload %s: %u kernels%s\n", o.workload, w.nkernels,
           is_trace ? (lazy ? " (trace, streamed)" : " (trace, resident)") : "");
    for (uint32_t i = 0; i < w.nkernels; i++) {
        const gm_kernel *k = &w.kernels[i];
        printf("  %u %-32s grid (%u,%u,%u) block (%u,%u,%u)\n", i + 1, k->name, k->grid.x,
               k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z);
    }
    printf("CTAs %" PRIu64 ", warps %" PRIu64 ", warp instructions %" PRIu64
           ", thread instructions %" PRIu64 "\n",
           c.ctas, c.warps, c.insts, c.thread_insts);
    for (int op = 0; op < GM_OP_COUNT; op++)
        if (c.by_op[op])
            printf("  %-10s %" PRIu64 "\n", op_names[op], c.by_op[op]);
    printf("read-only global loads %" PRIu64 " of %" PRIu64 "\n", ro, c.by_op[GM_OP_GLOBAL_LD]);
    gm_workload_free(&w);
    return 0;
}

int gm_cmd_trace(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage_trace(argc < 2 ? stderr : stdout);
        return argc < 2 ? 1 : 0;
    }
    if (strcmp(argv[1], "export") == 0)
        return cmd_export(argc - 1, argv + 1);
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc - 1, argv + 1);
    fprintf(stderr, "gmsim trace: unknown subcommand '%s'\n\n", argv[1]);
    usage_trace(stderr);
    return 1;
}
