// gmsim-cosim: the gmsim command plus `run --rtl PATTERN`, which realizes
// the matching router instances of the simulated system by their Verilated
// RTL (docs/cosim.md). The RTL drives the network; the C router runs in
// shadow on the same inputs (cmodel/noc/net.c) and every
// output field is compared every network cycle. The first divergence stops
// the run with its cycle, instance, port, field, expected and actual values
// and, by replaying the same deterministic run with tracing on, leaves an
// FST of that instance's last cycles.
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

#include "cosim/cosim.h"
#include "cosim/cosim_shadow.h"
#include "router/router_bench.h"
#include "selrep_rdd/rdd_ports.h"
#include "shadow/shadow_bench.h"

extern "C" {
#include "cli/cli.h"
#include "designs/ccn/ccn.h"
#include "designs/selrep/selrep.h"
#include "system/system.h"
#include "noc/net.h"
}

namespace gm_cosim {

std::vector<ModelKind>& model_registry()
{
    static std::vector<ModelKind> r;
    return r;
}

std::vector<RddModelKind>& rdd_model_registry()
{
    static std::vector<RddModelKind> r;
    return r;
}

std::vector<ShadowKind>& shadow_registry()
{
    static std::vector<ShadowKind> r;
    return r;
}

namespace {

constexpr uint64_t kWaveWindow = 200;  // network cycles of FST before a divergence

bool same_cfg(const gm_router_cfg& a, const gm_router_cfg& b)
{
    return a.n_in == b.n_in && a.n_out == b.n_out && a.vcs == b.vcs && a.depth == b.depth &&
           a.stages == b.stages && a.iters == b.iters;
}

std::string cfg_text(const gm_router_cfg& c)
{
    char b[96];
    std::snprintf(b, sizeof b, "%ux%u vcs %u depth %u stages %u iters %u", c.n_in, c.n_out, c.vcs,
                  c.depth, c.stages, c.iters);
    return b;
}

struct Twin;
struct RddTwin;
struct ShadowTwin;

// Everything one co-simulated run holds; the gm_cli_ext argument.
struct Session {
    int argc = 0;
    char** argv = nullptr;
    std::unique_ptr<VerilatedContext> ctx;
    std::vector<std::unique_ptr<Twin>> twins;
    std::unique_ptr<RddTwin> rdd;  // the SelRep RDD in RTL (--rtl selrep-rdd), or null
    std::vector<std::unique_ptr<ShadowTwin>> shadows;  // CCN shadow tags
    gm_system* sys = nullptr;
    std::string divergence;      // first failure (mismatch or RTL assertion), or ""
    std::string diverged_name;   // its instance
    uint64_t diverged_cycle = 0;
    double cpu0 = 0;
    // Replay for the waveform (set from the environment by the parent).
    std::string wave_path, wave_instance;
    uint64_t wave_from = 0;
    bool replaying = false;
    const gm_cli_ext* base = nullptr;  // the embedding program's extension, or NULL
};

// One instance: the gm_router_twin callbacks over an RtlRouter.
struct Twin {
    Session* s = nullptr;
    std::string name;
    gm_router_cfg cfg{};
    std::unique_ptr<RtlRouter> rtl;
    gm_router_twin hook{};
    uint64_t compared = 0;
    uint64_t cycle = 0;  // network cycle of the last compare (the current one)
    bool tracing = false;
};

// Records the first failure of the run and asks the system to stop after
// the current edge; later ones (other instances in the same edge) are
// only printed.
void record_failure_of(Session* s, const std::string& name, uint64_t cycle,
                       const std::string& what)
{
    if (!s->divergence.empty()) return;
    s->divergence = what;
    s->diverged_name = name;
    s->diverged_cycle = cycle;
    gm_system_request_stop(s->sys, s->divergence.c_str());
}

// A router or shadow-tag twin's failure: both carry their Session and name.
template <class T>
void record_failure(T* t, uint64_t cycle, const std::string& what)
{
    record_failure_of(t->s, t->name, cycle, what);
}

// The SelRep RDD instance: the gm_selrep_rdd_twin callbacks over an RtlRdd.
// Its cycle is the design's count of RDD (core) cycles.
struct RddTwin {
    Session* s = nullptr;
    std::string name = "selrep-rdd";
    std::unique_ptr<RtlRdd> rtl;
    gm_selrep_rdd_twin hook{};
    uint64_t compared = 0;
    uint64_t cycle = 0;
    bool tracing = false;
};

void rdd_eval(void* ctx, gm_selrep_rddb_out* out)
{
    static_cast<RddTwin*>(ctx)->rtl->outputs(out);
}

void rdd_tick(void* ctx, const gm_selrep_rddb_in* in)
{
    RddTwin* t = static_cast<RddTwin*>(ctx);
    Session* s = t->s;
    if (!t->tracing && !s->wave_path.empty() && t->name == s->wave_instance &&
        t->cycle >= s->wave_from) {
        t->rtl->trace_open(s->wave_path);
        t->tracing = true;
    }
    t->rtl->clock(*in, t->cycle);
    if (s->ctx->gotError() || s->ctx->gotFinish())
        record_failure_of(s, t->name, t->cycle,
                          "co-simulation: RTL of selrep-rdd stopped at cycle " +
                              std::to_string(t->cycle) + " (assertion or $finish)");
}

int rdd_compare(void* ctx, uint64_t cycle, const gm_selrep_rddb_out* expected,
                const gm_selrep_rddb_out* actual)
{
    RddTwin* t = static_cast<RddTwin*>(ctx);
    t->compared++;
    t->cycle = cycle;
    gm_tb::Checker chk;
    gm_tb::rdd_compare(*expected, *actual, chk);
    if (!chk.failed()) return 0;
    for (const auto& l : chk.lines())
        std::fprintf(stderr, "FAILURE: %s cycle %" PRIu64 ": %s\n", t->name.c_str(), cycle,
                     l.c_str());
    record_failure_of(t->s, t->name, cycle,
                      "co-simulation: RTL of selrep-rdd diverged from the C block at cycle " +
                          std::to_string(cycle) + ": " + chk.lines()[0]);
    return 1;
}

bool same_params(const gm_selrep_rddb_params& a, const gm_selrep_rddb_params& b)
{
    return a.sets == b.sets && a.ways == b.ways && a.clusters == b.clusters &&
           a.slices == b.slices && a.ndeg == b.ndeg && a.counter_bits == b.counter_bits &&
           a.tag_bits == b.tag_bits && a.lanes == b.lanes && a.capacity == b.capacity;
}

std::string params_text(const gm_selrep_rddb_params& p)
{
    char b[160];
    std::snprintf(b, sizeof b, "sets %u ways %u clusters %u slices %u degrees %u counters %u "
                  "tags %u lanes %u capacity %d", p.sets, p.ways, p.clusters, p.slices, p.ndeg,
                  p.counter_bits, p.tag_bits, p.lanes, p.capacity ? 1 : 0);
    return b;
}

bool pattern_has(const std::string& pattern, const std::string& want)
{
    size_t start = 0;
    while (start <= pattern.size()) {
        size_t end = pattern.find(',', start);
        if (end == std::string::npos) end = pattern.size();
        if (pattern.compare(start, end - start, want) == 0) return true;
        start = end + 1;
    }
    return false;
}

int attach_rdd(Session* s, gm_system* sys, gm_error* err)
{
    gm_selrep_rddb_params p;
    if (gm_selrep_rdd_params(sys, &p, err) != 0) return -1;
    const RddModelKind* k = nullptr;
    for (const RddModelKind& m : rdd_model_registry())
        if (same_params(m.params, p)) k = &m;
    if (!k) {
        std::string built;
        for (const RddModelKind& m : rdd_model_registry()) built += "\n  " + params_text(m.params);
        return gm_fail(err, "no Verilated RDD with %s; gmsim-cosim was built with:%s\n"
                            "(add it to tb/cosim/CMakeLists.txt)", params_text(p).c_str(),
                       built.c_str());
    }
    auto t = std::make_unique<RddTwin>();
    t->s = s;
    t->rtl = k->make(s->ctx.get());
    t->rtl->reset();
    t->hook = gm_selrep_rdd_twin{t.get(), rdd_eval, rdd_tick, rdd_compare};
    if (gm_selrep_attach_rdd_twin(sys, &t->hook, err) != 0) return -1;
    s->rdd = std::move(t);
    return 0;
}

void twin_eval(void* ctx, gm_router_out* out)
{
    static_cast<Twin*>(ctx)->rtl->outputs(out);
}

void twin_tick(void* ctx, const gm_router_in* in)
{
    Twin* t = static_cast<Twin*>(ctx);
    Session* s = t->s;
    if (!t->tracing && !s->wave_path.empty() && t->name == s->wave_instance &&
        t->cycle >= s->wave_from) {
        t->rtl->trace_open(s->wave_path);
        t->tracing = true;
    }
    t->rtl->clock(*in, t->cycle);
    // A failed RTL assertion is reported by Verilator on stderr; with
    // fatalOnError off it is noticed here so that it stops the run with
    // the instance named, like a divergence.
    if (s->ctx->gotError() || s->ctx->gotFinish()) {
        char msg[200];
        std::snprintf(msg, sizeof msg,
                      "co-simulation: RTL of %s stopped at network cycle %" PRIu64
                      " (%s; Verilator printed why on stdout)",
                      t->name.c_str(), t->cycle,
                      s->ctx->gotError() ? "assertion or $error" : "$finish");
        record_failure(t, t->cycle, msg);
    }
}

int twin_compare(void* ctx, uint64_t cycle, const gm_router_out* expected,
                 const gm_router_out* actual)
{
    Twin* t = static_cast<Twin*>(ctx);
    t->compared++;
    t->cycle = cycle;
    gm_tb::Checker chk;
    gm_tb::router_compare(t->cfg, *expected, *actual, chk);
    if (!chk.failed()) return 0;
    for (const auto& l : chk.lines())
        std::fprintf(stderr, "FAILURE: %s cycle %" PRIu64 ": %s\n", t->name.c_str(), cycle,
                     l.c_str());
    char head[160];
    std::snprintf(head, sizeof head,
                  "co-simulation: RTL of %s diverged from the C router at network cycle "
                  "%" PRIu64 " (%zu field%s): ",
                  t->name.c_str(), cycle, chk.lines().size(), chk.lines().size() == 1 ? "" : "s");
    record_failure(t, cycle, head + chk.lines()[0]);
    return 1;
}

// One CCN shadow tag instance: the gm_shadow_twin callbacks over an
// RtlShadow. Its cycles are the design's core cycles.
struct ShadowTwin {
    Session* s = nullptr;
    std::string name;
    std::unique_ptr<RtlShadow> rtl;
    gm_shadow_twin hook{};
    uint64_t compared = 0;
    uint64_t cycle = 0;
    bool tracing = false;
};

void shadow_eval(void* ctx, gm_shadow_tags_out* out)
{
    static_cast<ShadowTwin*>(ctx)->rtl->outputs(out);
}

void shadow_tick(void* ctx, const gm_shadow_tags_in* in)
{
    ShadowTwin* t = static_cast<ShadowTwin*>(ctx);
    Session* s = t->s;
    if (!t->tracing && !s->wave_path.empty() && t->name == s->wave_instance &&
        t->cycle >= s->wave_from) {
        t->rtl->trace_open(s->wave_path);
        t->tracing = true;
    }
    t->rtl->clock(*in, t->cycle);
    if (s->ctx->gotError() || s->ctx->gotFinish()) {
        char msg[200];
        std::snprintf(msg, sizeof msg,
                      "co-simulation: RTL of %s stopped at cycle %" PRIu64
                      " (%s; Verilator printed why on stdout)",
                      t->name.c_str(), t->cycle,
                      s->ctx->gotError() ? "assertion or $error" : "$finish");
        record_failure(t, t->cycle, msg);
    }
}

int shadow_compare(void* ctx, uint64_t cycle, const gm_shadow_tags_out* expected,
                   const gm_shadow_tags_out* actual)
{
    ShadowTwin* t = static_cast<ShadowTwin*>(ctx);
    t->compared++;
    t->cycle = cycle;
    gm_tb::Checker chk;
    gm_tb::shadow_compare(*expected, *actual, chk);
    if (!chk.failed()) return 0;
    for (const auto& l : chk.lines())
        std::fprintf(stderr, "FAILURE: %s cycle %" PRIu64 ": %s\n", t->name.c_str(), cycle,
                     l.c_str());
    char head[160];
    std::snprintf(head, sizeof head,
                  "co-simulation: RTL of %s diverged from the C shadow tags at cycle "
                  "%" PRIu64 " (%zu field%s): ",
                  t->name.c_str(), cycle, chk.lines().size(), chk.lines().size() == 1 ? "" : "s");
    record_failure(t, cycle, head + chk.lines()[0]);
    return 1;
}

bool item_matches(const std::string& pattern, const char* name)
{
    size_t start = 0;
    while (start <= pattern.size()) {
        size_t end = pattern.find(',', start);
        if (end == std::string::npos) end = pattern.size();
        std::string item = pattern.substr(start, end - start);
        if (item == "all" || (!item.empty() && fnmatch(item.c_str(), name, 0) == 0))
            return true;
        start = end + 1;
    }
    return false;
}

// The CCN nodes' shadow tags matching the pattern ("all", or a glob over
// ccn-shadow-<k>).
int attach_shadows(Session* s, gm_system* sys, const char* pattern, gm_error* err)
{
    for (uint32_t k = 0; k < gm_ccn_shadow_count(sys); k++) {
        char name[48];
        gm_ccn_shadow_name(sys, k, name, sizeof name);
        if (!item_matches(pattern, name)) continue;
        uint32_t sets, ways, bits;
        gm_ccn_shadow_size(sys, k, &sets, &ways, &bits);
        const ShadowKind* kind = nullptr;
        std::string built;
        for (const ShadowKind& sk : shadow_registry()) {
            if (sk.sets == sets && sk.ways == ways && sk.tag_bits == bits) kind = &sk;
            built += "\n  " + std::to_string(sk.sets) + " sets x " + std::to_string(sk.ways) +
                     " ways, " + std::to_string(sk.tag_bits) + "-bit tags";
        }
        if (!kind)
            return gm_fail(err, "no Verilated shadow tags of %u sets x %u ways, %u-bit tags "
                                "(instance %s); gmsim-cosim was built with:%s\n(add the size "
                                "to tb/cosim/CMakeLists.txt)", sets, ways, bits, name,
                           built.c_str());
        auto t = std::make_unique<ShadowTwin>();
        t->s = s;
        t->name = name;
        t->rtl = kind->make(s->ctx.get());
        t->rtl->reset();
        t->hook = gm_shadow_twin{t.get(), shadow_eval, shadow_tick, shadow_compare};
        if (gm_ccn_shadow_attach_twin(sys, k, &t->hook, err) != 0) return -1;
        s->shadows.push_back(std::move(t));
    }
    return 0;
}

// PATTERN: comma-separated items; "all" is every router, a network name
// (noc, noc1, noc2) every router of that network, anything else a glob
// over instance names (gmsim topology lists them).
bool pattern_matches(const std::string& pattern, const gm_net_ref& r, const char* router)
{
    size_t start = 0;
    while (start <= pattern.size()) {
        size_t end = pattern.find(',', start);
        if (end == std::string::npos) end = pattern.size();
        std::string item = pattern.substr(start, end - start);
        if (item == "all" || item == r.network ||
            (!item.empty() && fnmatch(item.c_str(), router, 0) == 0))
            return true;
        start = end + 1;
    }
    return false;
}

const ModelKind* find_model(const gm_router_cfg& c)
{
    for (const ModelKind& k : model_registry())
        if (same_cfg(k.cfg, c)) return &k;
    return nullptr;
}

std::string built_models()
{
    std::string s;
    for (const ModelKind& k : model_registry()) s += "\n  " + cfg_text(k.cfg);
    return s;
}

double cpu_now()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

int attach(void* arg, gm_system* sys, const char* pattern, gm_error* err)
{
    Session* s = static_cast<Session*>(arg);
    s->sys = sys;
    s->ctx = std::make_unique<VerilatedContext>();
    s->ctx->fatalOnError(false);
    s->ctx->commandArgs(s->argc, s->argv);
    if (!s->wave_path.empty()) s->ctx->traceEverOn(true);
    for (uint32_t i = 0; i < gm_system_net_count(sys); i++) {
        gm_net_ref r = gm_system_net_at(sys, i);
        for (uint32_t rk = 0; rk < gm_net_router_count(r.net); rk++) {
            const char* name = gm_net_router_name(r.net, rk);
            if (!pattern_matches(pattern, r, name)) continue;
            const gm_router_cfg& c = *gm_net_router_cfg(r.net, rk);
            const ModelKind* k = find_model(c);
            if (!k) {
                std::string msg = "no Verilated model of " + cfg_text(c) + " (instance " +
                                  name + "); gmsim-cosim was built with:" + built_models() +
                                  "\n(add the size to tb/cosim/CMakeLists.txt)";
                return gm_fail(err, "%s", msg.c_str());
            }
            auto t = std::make_unique<Twin>();
            t->s = s;
            t->name = name;
            t->cfg = c;
            t->rtl = k->make(s->ctx.get());
            t->rtl->reset();
            t->hook = gm_router_twin{t.get(), twin_eval, twin_tick, twin_compare};
            if (gm_net_attach_twin(r.net, rk, &t->hook, err) != 0) return -1;
            s->twins.push_back(std::move(t));
        }
    }
    if (pattern_has(pattern, "selrep-rdd") && attach_rdd(s, sys, err) != 0) return -1;
    if (attach_shadows(s, sys, pattern, err) != 0) return -1;
    if (s->twins.empty() && !s->rdd && s->shadows.empty())
        return gm_fail(err, "no router instance matches (see gmsim topology --table; "
                            "patterns: all, noc, noc1, noc2, or globs such as noc1-request-*)");
    if (!s->replaying && !s->twins.empty())
        std::fprintf(stderr, "gmsim-cosim: %zu router instance%s in RTL (%s ...)\n",
                     s->twins.size(), s->twins.size() == 1 ? "" : "s",
                     s->twins.front()->name.c_str());
    if (!s->replaying && s->rdd)
        std::fprintf(stderr, "gmsim-cosim: the SelRep RDD in RTL (selrep-rdd)\n");
    if (!s->replaying && !s->shadows.empty())
        std::fprintf(stderr, "gmsim-cosim: %zu shadow tag instance%s in RTL (%s ...)\n",
                     s->shadows.size(), s->shadows.size() == 1 ? "" : "s",
                     s->shadows.front()->name.c_str());
    s->cpu0 = cpu_now();
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
    Session* s = static_cast<Session*>(arg);
    double cpu = cpu_now() - s->cpu0;
    for (auto& t : s->twins) t->rtl->trace_close();
    if (s->rdd) s->rdd->rtl->trace_close();
    for (auto& t : s->shadows) t->rtl->trace_close();
    if (s->replaying) return s->divergence.empty() ? 0 : -1;
    uint64_t cycles = 0;
    for (const auto& t : s->twins) cycles += t->compared;
    for (const auto& t : s->shadows) cycles += t->compared;
    size_t instances = s->twins.size() + s->shadows.size() + (s->rdd ? 1 : 0);
    std::fprintf(stderr,
                 "gmsim-cosim: %zu instance%s, %" PRIu64 " router-cycles compared, %.2f CPU s "
                 "in the run\n",
                 instances, instances == 1 ? "" : "s", cycles, cpu);
    if (s->rdd)
        std::fprintf(stderr, "gmsim-cosim: %" PRIu64 " RDD cycles compared\n",
                     s->rdd->compared);
    if (s->divergence.empty()) {
        if (!s->twins.empty())
            std::fprintf(stderr, "gmsim-cosim: RTL matched the C routers every cycle\n");
        if (s->rdd)
            std::fprintf(stderr, "gmsim-cosim: RTL matched the C RDD every cycle\n");
        if (!s->shadows.empty())
            std::fprintf(stderr, "gmsim-cosim: RTL matched the C shadow tags every cycle\n");
        return 0;
    }
    replay_for_waveform(s);
    // The run stopped with the divergence as its error (exit status 4);
    // fail here only if it somehow did not.
    return sys->status == GM_RUN_ERROR ? 0 : gm_fail(err, "%s", s->divergence.c_str());
}

int run_base(void* arg, gm_system* sys, const gm_workload* wl, gm_error* err)
{
    const gm_cli_ext* b = static_cast<Session*>(arg)->base;
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
    "                     'selrep-rdd': the SelRep design's RDD block.\n";

}  // namespace
}  // namespace gm_cosim

namespace gm_cosim {

// The gmsim command line with --rtl; base (may be NULL) adds the caller's
// own extension: its run hook and help (the SystemC top, tb/systemc/).
int cli_main(int argc, char** argv, const gm_cli_ext* base)
{
    Session s;
    s.argc = argc;
    s.argv = argv;
    if (const char* w = std::getenv("GM_COSIM_WAVE")) {
        s.wave_path = w;
        s.replaying = true;
        if (const char* n = std::getenv("GM_COSIM_WAVE_INSTANCE")) s.wave_instance = n;
        if (const char* f = std::getenv("GM_COSIM_WAVE_FROM")) s.wave_from = std::strtoull(f, nullptr, 10);
    }
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
    // argument, which the Session carries.
    s.base = base;
    if (base && base->run) ext.run = run_base;
    ext.arg = &s;
    int rc = gm_cli_main(argc, argv, &ext);
    s.twins.clear();  // the models before their context
    s.rdd.reset();
    s.shadows.clear();
    return rc;
}

}  // namespace gm_cosim

#ifndef GM_COSIM_NO_MAIN
int main(int argc, char** argv)
{
    return gm_cosim::cli_main(argc, argv, nullptr);
}
#endif
