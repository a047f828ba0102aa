/* The gmsim command line: run, list-workloads, list-designs, bench, topology, trace. */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/designs_cmd.h"
#include "cli/topology_cmd.h"
#include "cli/trace_cmd.h"
#include "config/config.h"
#include "sim/outfile.h"
#include "sim/version.h"
#include "system/system.h"
#include "stats/report.h"
#include "workload/trace_read.h"
#include "workload/walk.h"
#include "workload/workload.h"

#define MAX_CONFIGS 16
#define MAX_OVERRIDES 64

static const char *const default_workloads[] = {"gemm", "atax", "reduction"};

typedef struct run_opts {
    const char *configs[MAX_CONFIGS];
    int nconfigs;
    const char *overrides[MAX_OVERRIDES];
    int noverrides;
    const char *workload;
    const char *stats_path;
    gm_size size;
    uint64_t seed;
    int seed_set;
    uint64_t max_cycles;
    int max_cycles_set;
    int quiet;
    int progress;         /* PROGRESS_AUTO, 0 off, or every N seconds */
    const char *rtl;      /* --rtl PATTERN (co-simulation build only) */
} run_opts;

/* The progress line: on a terminal, rewritten once a second. */
#define PROGRESS_AUTO (-1)
#define PROGRESS_MAX_S 86400

static void usage_main(FILE *f)
{
    fputs("usage: gmsim [COMMAND] [OPTIONS]\n"
          "\n"
          "gmsim is a cycle-level model of a GPU memory system (cores, L1, crossbar\n"
          "networks, L2 slices, GDDR5 DRAM).\n"
          "\n"
          "commands:\n"
          "  run             simulate one workload on one configuration\n"
          "  list-workloads  show the built-in workloads\n"
          "  list-designs    show the designs [design] kind selects\n"
          "  bench           measure simulation speed (80-core baseline, GEMM small)\n"
          "  trace           write a workload as Accel-Sim traces (export), summarise one (info)\n"
          "  topology        list the routers of every network a configuration builds\n"
          "  config          print the effective configuration (INI) or its hash\n"
          "  version         print the revision gmsim was built from\n"
          "  (none)          the default job: the baseline on gemm, atax and reduction\n"
          "                  at size small, printed as a table\n"
          "\n"
          "Run 'gmsim COMMAND --help' for a command's options.\n",
          f);
}

static void usage_run(FILE *f, const gm_cli_ext *ext)
{
    fputs("usage: gmsim run --workload NAME [options]\n"
          "\n"
          "  --config FILE      INI configuration; repeat to layer files (later wins).\n"
          "                     Without it the built-in baseline (configs/baseline.ini).\n"
          "  -o SECTION.KEY=V   override one key after the files; repeatable\n"
          "  --workload NAME    a built-in workload (see list-workloads), or\n"
          "                     trace:PATH/kernelslist.g for Accel-Sim traces (tracer\n"
          "                     versions 1-5, plain or .xz; docs/traces.md)\n"
          "  --size S           tiny | small | standard | fill (default small)\n"
          "  --seed N           seed of every random choice, 0 to 2^64-1\n"
          "                     (default: sim.seed)\n"
          "  --stats FILE       write statistics as JSON; FILE is replaced only once the\n"
          "                     whole JSON is written. '-' writes the JSON alone to\n"
          "                     stdout (the table then goes to stderr)\n"
          "  --max-cycles N     stop after N core cycles, 0 to 2^64-1 (0 = no limit)\n"
          "  --quiet            no table\n"
          "  --progress N       a progress line with an ETA on stderr every N seconds,\n"
          "                     1 to 86400, one line each (default: on a terminal only,\n"
          "                     rewritten every second); 0: none\n"
          "  --help             this text\n"
          "\n"
          "Numbers are decimal or 0x hexadecimal. Exit status: 0 finished; 1 bad input\n"
          "or an output file that cannot be written; 2 deadlock; 3 stopped at max\n"
          "cycles; 4 internal check failed; 130/143 interrupted by SIGINT/SIGTERM (the\n"
          "statistics so far are written, status \"interrupted\"; a second signal exits\n"
          "at once) (docs/reliability.md).\n",
          f);
    if (ext && ext->run_help)
        fputs(ext->run_help, f);
}

/* --config FILE and -o SECTION.KEY=V, which run and topology share.
 * Returns 1 when ch was one of them, 0 when not, -1 (message printed)
 * when there are too many. */
static int config_option(run_opts *o, const char *cmd, int ch, const char *arg)
{
    if (ch == 'c') {
        if (o->nconfigs == MAX_CONFIGS) {
            fprintf(stderr, "%s: at most %d --config files\n", cmd, MAX_CONFIGS);
            return -1;
        }
        o->configs[o->nconfigs++] = arg;
        return 1;
    }
    if (ch == 'o') {
        if (o->noverrides == MAX_OVERRIDES) {
            fprintf(stderr, "%s: at most %d -o overrides\n", cmd, MAX_OVERRIDES);
            return -1;
        }
        o->overrides[o->noverrides++] = arg;
        return 1;
    }
    return 0;
}

static int build_config(const run_opts *o, gm_config *cfg)
{
    gm_error err = {{0}};
    gm_config_defaults(cfg);
    for (int i = 0; i < o->nconfigs; i++)
        if (gm_config_load_file(cfg, o->configs[i], &err) != 0)
            goto fail;
    for (int i = 0; i < o->noverrides; i++)
        if (gm_config_set(cfg, o->overrides[i], &err) != 0)
            goto fail;
    if (o->seed_set)
        cfg->sim.seed = o->seed;
    if (o->max_cycles_set)
        cfg->sim.max_cycles = o->max_cycles;
    if (gm_config_validate(cfg, &err) != 0)
        goto fail;
    return 0;
fail:
    fprintf(stderr, "gmsim: %s\n", err.msg);
    return -1;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct progress_state {
    double t0;               /* CPU seconds at the start of the run */
    uint64_t total_ctas;     /* of every launch */
    int lines;               /* one line per report, not one rewritten line */
} progress_state;

/* The ETA assumes the work still to do costs what the work done did, in
 * CTAs (the unit of work known ahead for built-in kernels and traces
 * alike: the grids are in the headers), counting the CTAs in flight by
 * how far they have got (gm_system_ctas_progress). */
static void show_progress(const gm_system *s, void *arg)
{
    const progress_state *p = arg;
    double dt = cpu_seconds() - p->t0;
    uint64_t ctas = gm_system_ctas_done(s);
    double work = gm_system_ctas_progress(s);
    char eta[32] = "?";
    if (work > 0 && work <= (double)p->total_ctas) {
        uint64_t left = (uint64_t)(dt * ((double)p->total_ctas - work) / work + 0.5);
        snprintf(eta, sizeof eta, "%" PRIu64 ":%02u:%02u", left / 3600,
                 (unsigned)(left / 60 % 60), (unsigned)(left % 60));
    }
    fprintf(stderr, "%s[gmsim] cycle %" PRIu64 "  kernel %u/%u  CTAs %" PRIu64 "/%" PRIu64
                    " (%.1f%%)  %.0f cycles/s  CPU %.0f s  ETA %s%s",
            p->lines ? "" : "\r", s->core_cycle,
            s->kernel_index + (s->kernel_running ? 1 : 0), s->wl->nkernels, ctas,
            p->total_ctas, p->total_ctas ? 100.0 * (double)ctas / (double)p->total_ctas : 0.0,
            dt > 0 ? s->core_cycle / dt : 0.0, dt, eta, p->lines ? "\n" : " ");
    fflush(stderr);
}

static uint64_t workload_ctas(const gm_workload *w)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < w->nkernels; i++)
        n += gm_kernel_ctas(&w->kernels[i]);
    return n;
}

/* The one piece of process-wide state: the signal that asked the run to
 * stop (SIGINT or SIGTERM), written by the handler and read by the run
 * loop through gm_system.interrupt. The library itself has none. */
static volatile sig_atomic_t interrupt_signal;

/* First SIGINT/SIGTERM: stop at the next core cycle and write what was
 * simulated; a second one: exit at once. */
static void on_interrupt(int sig)
{
    if (interrupt_signal)
        _exit(128 + sig);
    interrupt_signal = sig;
}

/* Only while a simulation runs; elsewhere a signal ends gmsim as usual. */
static void catch_interrupts(bool on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_interrupt : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int exit_code(gm_run_status st)
{
    switch (st) {
    case GM_RUN_DONE: return 0;
    case GM_RUN_DEADLOCK: return 2;
    case GM_RUN_MAX_CYCLES: return 3;
    case GM_RUN_INTERRUPTED: return 128 + interrupt_signal; /* 130 SIGINT, 143 SIGTERM */
    default: return 4;
    }
}

/* The size a run reports: --size does not apply to traces. */
static const char *size_label(const char *wname, gm_size size)
{
    return strncmp(wname, GM_TRACE_PREFIX, strlen(GM_TRACE_PREFIX)) == 0 ? "trace"
                                                                          : gm_size_name(size);
}

/* Writes the statistics JSON into stats (opened before the run) and
 * commits it. Returns 0 or 1 (message printed). */
static int write_stats(const gm_system *s, const gm_run_info *info, gm_outfile *stats)
{
    gm_error err = {{0}};
    if (gm_stats_write_json(s, info, stats->f, &err) != 0) {
        fprintf(stderr, "gmsim: --stats %s: %s%s\n", stats->path, err.msg,
                stats->tmp ? " (the file is unchanged)" : "");
        gm_outfile_discard(stats);
        return 1;
    }
    if (gm_outfile_commit(stats, &err) != 0) {
        fprintf(stderr, "gmsim: --stats %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* Simulates one workload; fills the result for the caller's table.
 * stats, when not NULL, is open and is committed or discarded here. */
static int simulate_one(const gm_config *cfg, const char *wname, gm_size size,
                        gm_outfile *stats, int quiet, int progress, gm_run_result *res,
                        const gm_cli_ext *ext, const char *rtl)
{
    gm_error err = {{0}};
    gm_workload wl;
    if (gm_workload_build(&wl, wname, size, cfg->sim.seed, &err) != 0) {
        fprintf(stderr, "gmsim: workload %s: %s\n", wname, err.msg);
        if (stats)
            gm_outfile_discard(stats);
        return 1;
    }
    gm_system *s = malloc(sizeof *s);
    if (!s || gm_system_init(s, cfg, &err) != 0) {
        fprintf(stderr, "gmsim: %s\n", s ? err.msg : "out of memory");
        free(s);
        gm_workload_free(&wl);
        if (stats)
            gm_outfile_discard(stats);
        return 1;
    }
    /* A kernel the system cannot run is bad input, found before the run. */
    if (gm_system_check_workload(s, &wl, &err) != 0) {
        fprintf(stderr, "gmsim: workload %s: %s\n", wname, err.msg);
        gm_system_free(s);
        free(s);
        gm_workload_free(&wl);
        if (stats)
            gm_outfile_discard(stats);
        return 1;
    }
    progress_state ps = {.t0 = cpu_seconds(), .total_ctas = workload_ctas(&wl),
                         .lines = progress > 0};
    double t0 = ps.t0;
    if (progress > 0 || (progress == PROGRESS_AUTO && isatty(STDERR_FILENO)))
        s->progress = (gm_progress){.fn = show_progress, .arg = &ps,
                                    .interval_s = progress > 0 ? progress : 1};
    if (rtl && ext->attach(ext->arg, s, rtl, &err) != 0) {
        fprintf(stderr, "gmsim: --rtl %s: %s\n", rtl, err.msg);
        gm_system_free(s);
        free(s);
        gm_workload_free(&wl);
        if (stats)
            gm_outfile_discard(stats);
        return 1;
    }
    s->interrupt = &interrupt_signal;
    /* An extension may run the system itself (the SystemC top steps it
     * from a SystemC process); it must behave as gm_system_run. */
    int rc = ext && ext->run ? ext->run(ext->arg, s, &wl, &err) : gm_system_run(s, &wl, &err);
    double cpu = cpu_seconds() - t0;
    if (s->progress.fn && !ps.lines)
        fputs("\r\033[K", stderr);
    if (s->progress.fn && ps.lines)
        show_progress(s, &ps);   /* the last line: a short run shows one too */
    if (rc != 0)
        fprintf(stderr, "gmsim: %s\n", err.msg);
    if (s->status == GM_RUN_DEADLOCK)
        fprintf(stderr, "gmsim: %s\n", s->deadlock_report);
    if (s->status == GM_RUN_MAX_CYCLES)
        fprintf(stderr, "gmsim: stopped at the cycle limit (%" PRIu64 " core cycles)\n",
                s->core_cycle);
    if (s->status == GM_RUN_INTERRUPTED)
        fprintf(stderr, "gmsim: interrupted by %s at core cycle %" PRIu64 "%s%s\n",
                interrupt_signal == SIGTERM ? "SIGTERM" : "SIGINT", s->core_cycle,
                stats ? "; statistics so far written to " : "", stats ? stats->path : "");

    gm_run_info info = {.workload = wname, .size = size_label(wname, size), .cpu_seconds = cpu};
    gm_stats_collect(s, &info, res);
    /* With the JSON on stdout, stdout carries nothing else. */
    FILE *table = stats && stats->f == stdout ? stderr : stdout;
    int out_rc = stats ? write_stats(s, &info, stats) : 0;
    if (!quiet)
        gm_stats_print_summary(s, &info, table);
    int code = rc != 0 ? 4 : exit_code(s->status);
    if (rtl && ext->finish && ext->finish(ext->arg, s, &err) != 0) {
        fprintf(stderr, "gmsim: %s\n", err.msg);
        code = code ? code : 4;
    }
    gm_system_free(s);
    free(s);
    gm_workload_free(&wl);
    return code ? code : out_rc;
}

/* simulate_one with SIGINT/SIGTERM caught from before the workload is
 * built, so a signal at any moment of a run ends it with its statistics. */
static int simulate(const gm_config *cfg, const char *wname, gm_size size, gm_outfile *stats,
                    int quiet, int progress, gm_run_result *res, const gm_cli_ext *ext,
                    const char *rtl)
{
    catch_interrupts(true);
    int rc = simulate_one(cfg, wname, size, stats, quiet, progress, res, ext, rtl);
    catch_interrupts(false);
    return rc;
}

static int cmd_run(int argc, char **argv, const gm_cli_ext *ext)
{
    run_opts o = {.size = GM_SIZE_SMALL, .progress = PROGRESS_AUTO};
    static const struct option longopts[] = {
        {"config", required_argument, 0, 'c'},  {"workload", required_argument, 0, 'w'},
        {"size", required_argument, 0, 's'},    {"seed", required_argument, 0, 'S'},
        {"stats", required_argument, 0, 'j'},   {"max-cycles", required_argument, 0, 'm'},
        {"quiet", no_argument, 0, 'q'},         {"help", no_argument, 0, 'h'},
        {"rtl", required_argument, 0, 'r'},     {"progress", required_argument, 0, 'P'},
        {0, 0, 0, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "o:h", longopts, 0)) != -1) {
        int used = config_option(&o, "gmsim run", ch, optarg);
        if (used < 0)
            return 1;
        if (used)
            continue;
        switch (ch) {
        case 'w': o.workload = optarg; break;
        case 's':
            if (gm_size_parse(optarg, &o.size) != 0) {
                fprintf(stderr, "gmsim run: --size %s: must be %s\n", optarg, gm_size_choices());
                return 1;
            }
            break;
        case 'S':
            if (gm_cli_parse_u64("gmsim run", "--seed", optarg, 0, UINT64_MAX, &o.seed) != 0)
                return 1;
            o.seed_set = 1;
            break;
        case 'j': o.stats_path = optarg; break;
        case 'm':
            if (gm_cli_parse_u64("gmsim run", "--max-cycles", optarg, 0, UINT64_MAX,
                                 &o.max_cycles) != 0)
                return 1;
            o.max_cycles_set = 1;
            break;
        case 'q': o.quiet = 1; break;
        case 'P': {
            uint64_t n;
            if (gm_cli_parse_u64("gmsim run", "--progress", optarg, 0, PROGRESS_MAX_S, &n) != 0)
                return 1;
            o.progress = (int)n;
            break;
        }
        case 'r':
            if (!ext || !ext->attach) {
                fprintf(stderr, "gmsim run: --rtl needs the co-simulation build: gmsim-cosim "
                                "(cmake -DGM_RTL=ON, docs/verification.md)\n");
                return 1;
            }
            o.rtl = optarg;
            break;
        case 'h': usage_run(stdout, ext); return 0;
        default: usage_run(stderr, ext); return 1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gmsim run: unexpected argument '%s'\n", argv[optind]);
        return 1;
    }
    if (!o.workload) {
        fprintf(stderr, "gmsim run: --workload is required (see 'gmsim list-workloads')\n");
        return 1;
    }
    gm_config cfg;
    if (build_config(&o, &cfg) != 0)
        return 1;
    /* The statistics file is opened (as a temporary beside it) before the
     * run, so an unwritable path fails now and not after hours. */
    gm_outfile stats;
    if (o.stats_path) {
        gm_error err = {{0}};
        if (gm_outfile_open(&stats, o.stats_path, &err) != 0) {
            fprintf(stderr, "gmsim run: --stats %s\n", err.msg);
            return 1;
        }
    }
    gm_run_result res;
    return simulate(&cfg, o.workload, o.size, o.stats_path ? &stats : NULL, o.quiet,
                    o.progress, &res, ext, o.rtl);
}

static int cmd_list(int argc, char **argv)
{
    gm_size size = GM_SIZE_SMALL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: gmsim list-workloads [--size tiny|small|standard|fill]\n\n"
                 "Lists the built-in workloads: suite, replication class, and at the\n"
                 "given size (default small) the launches, CTAs, warps, warp instructions\n"
                 "and global memory instructions, counted by generating the streams.");
            return 0;
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (gm_size_parse(argv[++i], &size) != 0) {
                fprintf(stderr, "gmsim list-workloads: --size %s: must be %s\n",
                        argv[i], gm_size_choices());
                return 1;
            }
        } else {
            fprintf(stderr, "gmsim list-workloads: unexpected argument '%s'\n", argv[i]);
            return 1;
        }
    }
    return gm_stats_list_workloads(stdout, size) == 0 ? 0 : 4;
}

/* The arguments of a command that only builds a configuration: --config,
 * -o, one flag of its own and --help. Returns 0 to go on, 1 when --help was
 * printed, -1 on a bad argument (already reported). */
static int config_command_args(int argc, char **argv, const char *cmd, const char *flag_name,
                               const char *usage, run_opts *o, int *flag)
{
    const struct option longopts[] = {{"config", required_argument, 0, 'c'},
                                      {flag_name, no_argument, 0, 'F'},
                                      {"help", no_argument, 0, 'h'},
                                      {0, 0, 0, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "o:h", longopts, 0)) != -1) {
        int used = config_option(o, cmd, ch, optarg);
        if (used < 0)
            return -1;
        if (used)
            continue;
        switch (ch) {
        case 'F': *flag = 1; break;
        case 'h': puts(usage); return 1;
        default: return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", cmd, argv[optind]);
        return -1;
    }
    return 0;
}

static int cmd_topology(int argc, char **argv)
{
    run_opts o = {0};
    int table = 0;
    int rc = config_command_args(
        argc, argv, "gmsim topology", "table",
        "usage: gmsim topology [--config FILE]... [-o SECTION.KEY=V]... [--table]\n\n"
        "Builds the system of the configuration (without running anything) and\n"
        "prints, per network and direction (noc_req/noc_rep for the baseline,\n"
        "noc1_req/noc1_rep/noc2_req/noc2_rep for DC-L1), its clock and its\n"
        "routers grouped by size (inputs x outputs, count, VCs, VC depth, flit\n"
        "bytes) and the instance names, as JSON; --table prints a summary table.\n"
        "scripts/noc-area reads the JSON to sum synthesized router areas.",
        &o, &table);
    if (rc != 0)
        return rc < 0;
    gm_config cfg;
    if (build_config(&o, &cfg) != 0)
        return 1;
    gm_error err = {{0}};
    const char *name = o.nconfigs ? o.configs[o.nconfigs - 1] : "(built-in baseline)";
    if (gm_topology_print(&cfg, name, table, stdout, &err) != 0) {
        fprintf(stderr, "gmsim topology: %s\n", err.msg);
        return 4;
    }
    return 0;
}

/* gmsim config: the effective configuration of --config files and -o
 * overrides, as INI text (what the statistics echo) or its hash (what a
 * result store compares). */
static int cmd_config(int argc, char **argv)
{
    run_opts o = {0};
    int hash = 0;
    int rc = config_command_args(
        argc, argv, "gmsim config", "hash",
        "usage: gmsim config [--config FILE]... [-o SECTION.KEY=V]... [--hash]\n\n"
        "Loads and validates the configuration as `gmsim run` would and prints it\n"
        "as INI text, every key written out, or with --hash its hash (the\n"
        "statistics' config_hash: equal for equal values of every key).",
        &o, &hash);
    if (rc != 0)
        return rc < 0;
    gm_config cfg;
    if (build_config(&o, &cfg) != 0)
        return 1;
    if (hash) {
        printf("0x%016" PRIx64 "\n", gm_config_hash(&cfg));
        return 0;
    }
    char *text = gm_config_to_ini(&cfg);
    if (!text) {
        fputs("gmsim config: out of memory\n", stderr);
        return 4;
    }
    fputs(text, stdout);
    free(text);
    return 0;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Generation speed: each kernel's whole warp-instruction stream is
 * produced without simulating it, so the figure bounds what the workload
 * library can cost a run. */
static int bench_generation(const char *only, gm_size size)
{
    gm_error err = {{0}};
    uint64_t total_insts = 0;
    double total_s = 0, min_rate = 0;
    const char *slowest = "";

    printf("workload generation benchmark, size %s (whole stream, chunks of 16)\n",
           gm_size_name(size));
    printf("%-14s %14s %10s %18s\n", "workload", "warp insts", "CPU s", "M insts / CPU s");
    for (size_t i = 0; i < gm_workload_catalogue_size(); i++) {
        const gm_workload_info *info = gm_workload_catalogue_at(i);
        if (only && strcmp(only, info->name) != 0)
            continue;
        gm_workload_bench_result r;
        if (gm_workload_bench(info->name, size, &r, &err) != 0) {
            fprintf(stderr, "gmsim bench: %s\n", err.msg);
            return 1;
        }
        double rate = r.insts_per_sec / 1e6;
        printf("%-14s %14" PRIu64 " %10.3f %18.1f\n", info->name, r.insts, r.seconds, rate);
        total_insts += r.insts;
        total_s += r.seconds;
        if (!*slowest || rate < min_rate) {
            min_rate = rate;
            slowest = info->name;
        }
    }
    if (!*slowest) {
        fprintf(stderr, "gmsim bench: --workload %s: no such workload (see gmsim list-workloads)\n",
                only);
        return 1;
    }
    printf("%-14s %14" PRIu64 " %10.3f %18.1f\n", "all", total_insts, total_s,
           total_s > 0 ? total_insts / total_s / 1e6 : 0.0);
    printf("slowest: %s at %.1f M warp insts per CPU second\n", slowest, min_rate);
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    /* The stream older revisions ran as gemm, so that speeds compare
     * across revisions (catalogue.c, "frozen"). */
    const char *wname = "gemm_reload";
    const char *only = NULL;
    gm_size size = GM_SIZE_SMALL;
    int generation = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: gmsim bench [--workload NAME] [--size S]\n"
                 "       gmsim bench --generation [--workload NAME] [--size S]\n\n"
                 "Runs the 80-core baseline (built-in defaults) on GEMM size small and prints\n"
                 "simulated core cycles per CPU second, 32 B sector requests per CPU second\n"
                 "and peak resident memory. The default workload is gemm_reload: GEMM as\n"
                 "gmsim ran it before 2026-12-07 (C reloaded every k), kept so that figures\n"
                 "compare across revisions.\n\n"
                 "--generation times the workload library alone: every catalogue kernel\n"
                 "(or NAME) generates its whole stream at size S (default small) and the\n"
                 "warp instructions generated per CPU second are printed per kernel.");
            return 0;
        } else if (strcmp(argv[i], "--generation") == 0) {
            generation = 1;
        } else if (strcmp(argv[i], "--workload") == 0 && i + 1 < argc) {
            only = argv[i + 1];
            wname = argv[++i];
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (gm_size_parse(argv[++i], &size) != 0) {
                fprintf(stderr, "gmsim bench: --size %s: must be %s\n", argv[i], gm_size_choices());
                return 1;
            }
        } else {
            fprintf(stderr, "gmsim bench: unexpected argument '%s'\n", argv[i]);
            return 1;
        }
    }
    if (generation)
        return bench_generation(only, size);
    gm_config cfg;
    gm_config_defaults(&cfg);
    gm_run_result r;
    int rc = simulate(&cfg, wname, size, NULL, 1, 0, &r, NULL, NULL);
    if (rc != 0)
        return rc;
    printf("benchmark: baseline (%u cores), %s size %s\n", cfg.core.num_cores, wname,
           gm_size_name(size));
    printf("  simulated core cycles      %" PRIu64 "\n", r.core_cycles);
    printf("  warp instructions          %" PRIu64 "\n", r.warp_insts);
    printf("  32 B sector requests       %" PRIu64 "\n", r.sector_reqs);
    printf("  CPU seconds                %.3f\n", r.cpu_seconds);
    printf("  core cycles per CPU second %.0f\n", r.core_cycles / r.cpu_seconds);
    printf("  sector requests per CPU s  %.0f\n", r.sector_reqs / r.cpu_seconds);
    printf("  warp insts per CPU second  %.0f\n", r.warp_insts / r.cpu_seconds);
    printf("  peak RSS                   %.1f MB\n", peak_rss_kb() / 1024.0);
    return 0;
}

static int cmd_default(void)
{
    gm_config cfg;
    gm_config_defaults(&cfg);
    gm_run_result res[sizeof default_workloads / sizeof *default_workloads];
    size_t n = sizeof default_workloads / sizeof *default_workloads;
    printf("gmsim default job: baseline (%u cores, %u L2 slices, %u DRAM channels), size small\n\n",
           cfg.core.num_cores, cfg.l2.slices, cfg.dram.channels);
    for (size_t i = 0; i < n; i++) {
        int rc = simulate(&cfg, default_workloads[i], GM_SIZE_SMALL, NULL, 1, PROGRESS_AUTO,
                          &res[i], NULL, NULL);
        if (rc != 0)
            return rc;
    }
    gm_stats_print_table(res, n, stdout);
    return 0;
}

int gm_cli_main(int argc, char **argv, const gm_cli_ext *ext)
{
    /* A write past a file-size limit (ulimit -f) then fails with EFBIG,
     * which the output code reports, instead of killing the process
     * halfway through a file. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2)
        return cmd_default();
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1, ext);
    if (strcmp(cmd, "list-workloads") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(cmd, "list-designs") == 0)
        return gm_cmd_list_designs(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "topology") == 0)
        return cmd_topology(argc - 1, argv + 1);
    if (strcmp(cmd, "trace") == 0)
        return gm_cmd_trace(argc - 1, argv + 1);
    if (strcmp(cmd, "config") == 0)
        return cmd_config(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("gmsim %s\n", gm_version());
        return 0;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage_main(stdout);
        return 0;
    }
    fprintf(stderr, "gmsim: unknown command '%s'\n\n", cmd);
    usage_main(stderr);
    return 1;
}
