// gmsim-cosim: the gmsim command plus `run --rtl PATTERN`, which realizes
// the matching block instances of the simulated system (routers, CCN
// shadow tags, the SelRep RDD, the ATA tag arrays) by their Verilated RTL
// (docs/cosim.md). The RTL's outputs drive the system; the C block runs in
// shadow on the same inputs and every output field is compared every
// cycle (tb/common/twin.h; one adapter per block in tb/cosim/twin_*.h).
// The first divergence stops the run with its cycle, instance, port,
// field, expected and actual values and, by replaying the same
// deterministic run with tracing on, leaves an FST of that instance's
// last cycles.
#include <sys/wait.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fnmatch.h>
#include <memory>
#include <string>
#include <vector>

#include "common/twin.h"
#include "cosim/cosim.h"
#include "cosim/twin_ata.h"
#include "cosim/twin_dcl1q.h"
#include "cosim/twin_rdd.h"
#include "cosim/twin_router.h"
#include "cosim/twin_shadow.h"

extern "C" {
#include "cli/cli.h"
#include "system/system.h"
}

namespace gm_cosim {
namespace {

using gm_twin::Session;

constexpr uint64_t kWaveWindow = 200;  // cycles of FST before a divergence

// Everything one gmsim-cosim run holds; the gm_cli_ext argument. The
// blocks in report order; each adapter finds its own instances.
struct Run {
    Session s;
    std::vector<std::unique_ptr<gm_twin::Block>> blocks;
    double cpu0 = 0;
    const gm_cli_ext* base = nullptr;  // the embedding program's extension, or NULL

    Run()
    {
        blocks.push_back(std::make_unique<gm_twin::BlockOf<gm_twin::RouterTwin>>());
        blocks.push_back(std::make_unique<gm_twin::BlockOf<gm_twin::RddTwin>>());
        blocks.push_back(std::make_unique<gm_twin::BlockOf<gm_twin::ShadowTwin>>());
        blocks.push_back(std::make_unique<gm_twin::BlockOf<gm_twin::AtaTwin>>());
        blocks.push_back(std::make_unique<gm_twin::BlockOf<gm_twin::Dcl1qTwin>>());
    }
    size_t instances() const
    {
        size_t n = 0;
        for (const auto& b : blocks) n += b->instances().size();
        return n;
    }
};

double cpu_now()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

int attach(void* arg, gm_system* sys, const char* pattern, gm_error* err)
{
    Run* run = static_cast<Run*>(arg);
    Session* s = &run->s;
    s->sys = sys;
    s->ctx = std::make_unique<VerilatedContext>();
    s->ctx->fatalOnError(false);
    s->ctx->commandArgs(s->argc, s->argv);
    if (!s->wave_path.empty()) s->ctx->traceEverOn(true);
    for (auto& b : run->blocks)
        if (b->attach(s, pattern, err) != 0) return -1;
    if (run->instances() == 0)
        return gm_fail(err, "no router instance matches (see gmsim topology --table; "
                            "patterns: all, noc, noc1, noc2, or globs such as noc1-request-*; "
                            "blocks: ccn-shadow-*, ata.tags-*, dcl1q-*, selrep-rdd)");
    if (!s->replaying)
        for (const auto& b : run->blocks)
            if (!b->instances().empty())
                std::fprintf(stderr, "gmsim-cosim: %s\n", b->announce().c_str());
    run->cpu0 = cpu_now();
    return 0;
}

// Reruns this very command with tracing of the diverging instance from
// kWaveWindow cycles before the divergence; the run is deterministic, so
// it diverges again at the same cycle and stops there.
void replay_for_waveform(Session* s)
{
    std::string path = "cosim_" + s->diverged_name + ".fst";
    uint64_t from = s->diverged_cycle > kWaveWindow ? s->diverged_cycle - kWaveWindow : 0;
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("GM_COSIM_WAVE", path.c_str(), 1);
        setenv("GM_COSIM_WAVE_INSTANCE", s->diverged_name.c_str(), 1);
        setenv("GM_COSIM_WAVE_FROM", std::to_string(from).c_str(), 1);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(127);
        execv("/proc/self/exe", s->argv);
        _exit(127);
    }
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && access(path.c_str(), R_OK) == 0)
        std::fprintf(stderr, "waveform: %s (%s, network cycles %" PRIu64 "..%" PRIu64 ")\n",
                     path.c_str(), s->diverged_name.c_str(), from, s->diverged_cycle);
    else
        std::fprintf(stderr, "waveform: the replay did not write %s\n", path.c_str());
}

int finish(void* arg, gm_system* sys, gm_error* err)
{
    Run* run = static_cast<Run*>(arg);
    Session* s = &run->s;
    double cpu = cpu_now() - run->cpu0;
    for (auto& b : run->blocks)
        for (auto& t : b->instances()) t->trace_close();
    if (s->replaying) return s->divergence.empty() ? 0 : -1;
    // Blocks without a count of their own add to the router-cycles figure
    // (the CCN shadow tags always did).
    uint64_t cycles = 0;
    for (const auto& b : run->blocks)
        if (!b->own_count())
            for (const auto& t : b->instances()) cycles += t->compared;
    size_t instances = run->instances();
    std::fprintf(stderr,
                 "gmsim-cosim: %zu instance%s, %" PRIu64 " router-cycles compared, %.2f CPU s "
                 "in the run\n",
                 instances, instances == 1 ? "" : "s", cycles, cpu);
    uint64_t skipped = 0;
    for (const auto& b : run->blocks)
        for (const auto& t : b->instances()) skipped += t->edges_skipped();
    if (skipped)
        std::fprintf(stderr,
                     "gmsim-cosim: %" PRIu64 " RTL clock edges skipped as settled (outputs "
                     "still compared)\n",
                     skipped);
    for (const auto& b : run->blocks) {
        if (!b->own_count() || b->instances().empty()) continue;
        uint64_t n = 0;
        for (const auto& t : b->instances()) n += t->compared;
        std::fprintf(stderr, "gmsim-cosim: %" PRIu64 " %s compared\n", n, b->own_count());
    }
    if (s->divergence.empty()) {
        for (const auto& b : run->blocks)
            if (!b->instances().empty())
                std::fprintf(stderr, "gmsim-cosim: RTL matched %s every cycle\n", b->matched());
        return 0;
    }
    replay_for_waveform(s);
    // The run stopped with the divergence as its error (exit status 4);
    // fail here only if it somehow did not.
    return sys->status == GM_RUN_ERROR ? 0 : gm_fail(err, "%s", s->divergence.c_str());
}

int run_base(void* arg, gm_system* sys, const gm_workload* wl, gm_error* err)
{
    const gm_cli_ext* b = static_cast<Run*>(arg)->base;
    return b->run(b->arg, sys, wl, err);
}

const char kRunHelp[] =
    "\nCo-simulation (gmsim-cosim only):\n"
    "  --rtl PATTERN      realize the matching router instances by their Verilated\n"
    "                     RTL; the C router runs in shadow and every output field\n"
    "                     is compared every cycle. PATTERN: comma-separated items,\n"
    "                     'all', a network (noc, noc1, noc2) or a glob over the\n"
    "                     instance names of 'gmsim topology' (noc1-request-*);\n"
    "                     kind = ccn: ccn-shadow-<k> are the nodes' shadow tags.\n"
    "                     A divergence stops the run (exit 4) and leaves\n"
    "                     cosim_<instance>.fst. docs/cosim.md.\n"
    "                     'selrep-rdd': the SelRep design's RDD block.\n"
    "                     kind = ata: ata.tags-<z> is cluster z's aggregated tag\n"
    "                     array ('ata.*' every cluster). kind = dcl1: dcl1q-<k>\n"
    "                     are node k's four queues (not selected by 'all').\n";

}  // namespace
}  // namespace gm_cosim

namespace gm_cosim {

// The gmsim command line with --rtl; base (may be NULL) adds the caller's
// own extension: its run hook and help (the SystemC top, tb/systemc/).
int cli_main(int argc, char** argv, const gm_cli_ext* base)
{
    Run run;
    Session& s = run.s;
    s.argc = argc;
    s.argv = argv;
    if (const char* w = std::getenv("GM_COSIM_WAVE")) {
        s.wave_path = w;
        s.replaying = true;
        if (const char* n = std::getenv("GM_COSIM_WAVE_INSTANCE")) s.wave_instance = n;
        if (const char* f = std::getenv("GM_COSIM_WAVE_FROM")) s.wave_from = std::strtoull(f, nullptr, 10);
    }
    if (const char* e = std::getenv("GM_COSIM_EVAL_EVERY_EDGE"))
        s.eval_every_edge = *e && *e != '0';
    gm_cli_ext ext{};
    std::string help = kRunHelp;
    if (base) {
        ext = *base;
        if (base->run_help) help += base->run_help;
    }
    ext.run_help = help.c_str();
    ext.attach = attach;
    ext.finish = finish;
    // attach and finish take the Session; a base run hook keeps its own
    // argument, which the Run carries.
    run.base = base;
    if (base && base->run) ext.run = run_base;
    ext.arg = &run;
    int rc = gm_cli_main(argc, argv, &ext);
    for (auto& b : run.blocks) b->clear();  // the models before their context
    return rc;
}

}  // namespace gm_cosim

#ifndef GM_COSIM_NO_MAIN
int main(int argc, char** argv)
{
    return gm_cosim::cli_main(argc, argv, nullptr);
}
#endif
