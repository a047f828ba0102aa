// Block lockstep co-simulation: one C golden model and one Verilated model
// of the same block, fed the same inputs every cycle, every output field
// compared every cycle (SPEC section 5).
//
// A block plugs in with a Bench class (tb/router/router_bench.h is the
// first one) and one registered (block, config) entry per Verilated
// parameterization; everything else lives here: options, the reset and
// clock sequence, the compare-and-stop loop, the FST waveform of the last
// cycles before a failure, coverage output, the pass/fail lines and the
// speed figures. See docs/verification.md, "Adding a block".
//
// Bench interface (VTop is the Verilated class; all cycles count from 0,
// the first cycle after reset):
//   using Config = ...;                       parameters of the block
//   Bench(const Options&, const Config&, VTop* top)   top is null in C-only mode
//   void drive_idle();                        RTL inputs during reset
//   void compare(uint64_t cycle, Checker&);   evaluate the C model's Moore
//                                             outputs, read the RTL's, compare
//   void step(uint64_t cycle);                choose this cycle's inputs, tick
//                                             the C model, drive the RTL inputs
//   std::string observe(uint64_t cycle);      after the edge: the environment
//                                             commits; returns an error or ""
//   bool done(uint64_t cycle);                stimulus over and everything drained
//   std::string final_check();                end-of-test drain checks, or ""
//   void summary(FILE*);                      one or two lines of statistics
//
// Failure lines start with "FAILURE:", a passing run prints
// "matched N cycles" and "TEST PASSED".
#ifndef GM_TB_LOCKSTEP_H
#define GM_TB_LOCKSTEP_H

#include <chrono>
#include <ctime>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

namespace gm_tb {

enum class Mode { kLockstep, kCOnly, kRtlOnly };

struct Options {
    std::string block;
    std::string config;
    uint64_t seed = 1;
    uint64_t cycles = 2000;        // stimulus cycles; then the drain phase
    uint64_t drain_max = 100000;   // a drain longer than this is a deadlock
    std::string wave;              // waveform file (default from block/config/seed)
    uint64_t wave_window = 200;    // cycles of waveform before a failure
    std::string coverage;          // coverage data file; empty: none
    Mode mode = Mode::kLockstep;
    bool bench = false;            // run C-only, RTL-only and lockstep, print speed
    bool expect_mismatch = false;  // mutation test: pass only if a mismatch is caught
    bool quiet = false;
    std::vector<std::string> knobs;  // "name=value" stimulus overrides
    int argc = 0;                  // the command line, for VerilatedContext
    char** argv = nullptr;         // (+verilator+... plusargs)
    bool user_rand_seed = false;   // +verilator+seed+ given on the command line
};

// Collects the field mismatches of one cycle.
class Checker {
public:
    void expect(const char* port, unsigned index, const char* field, uint64_t expected,
                uint64_t actual)
    {
        if (expected == actual) return;
        char buf[256];
        std::snprintf(buf, sizeof buf, "port %s[%u] field %s expected 0x%" PRIx64
                      " actual 0x%" PRIx64, port, index, field, expected, actual);
        lines_.emplace_back(buf);
    }
    bool failed() const { return !lines_.empty(); }
    const std::vector<std::string>& lines() const { return lines_; }

private:
    std::vector<std::string> lines_;
};

// One registered (block, config) pair: a Verilated parameterization.
struct Entry {
    std::string block;
    std::string config;
    std::string summary;
    std::function<int(const Options&)> run;
};
std::vector<Entry>& registry();
struct Registrar {
    explicit Registrar(Entry e) { registry().push_back(std::move(e)); }
};

// The Verilator random-reset seed used for a test seed (never 0, which
// would mean "from the system clock").
int rand_seed_for(uint64_t seed);
std::string default_wave_path(const Options& opt);
const char* mode_name(Mode m);

struct RunResult {
    bool ok = false;
    bool mismatch = false;        // failure was an output mismatch
    uint64_t cycles = 0;          // cycles compared (or simulated)
    uint64_t fail_cycle = 0;
    std::string why;              // first failure line
    double seconds = 0;           // wall clock
    double cpu_seconds = 0;       // this process's CPU time (robust on a loaded machine)
};

inline double cpu_now()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// The trace window of a rerun: cycles [from, to] are dumped.
struct TraceWindow {
    std::string path;
    uint64_t from = 0;
    uint64_t to = 0;
};

template <class VTop, class Bench>
RunResult run_once(const Options& opt, const typename Bench::Config& cfg, Mode mode,
                   const TraceWindow* tw, bool write_coverage)
{
    RunResult res;
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->debug(0);
    ctx->fatalOnError(false);  // an assertion stops the model; we report it
    ctx->commandArgs(opt.argc, opt.argv);
    if (!opt.user_rand_seed) ctx->randSeed(rand_seed_for(opt.seed));
#if VM_TRACE
    if (tw) ctx->traceEverOn(true);
#endif
    std::unique_ptr<VTop> top;
    if (mode != Mode::kCOnly) top = std::make_unique<VTop>(ctx.get(), "TOP");
    Options bopt = opt;
    bopt.mode = mode;
    Bench bench(bopt, cfg, top.get());

#if VM_TRACE
    std::unique_ptr<VerilatedFstC> tfp;
    if (tw && top) {
        tfp = std::make_unique<VerilatedFstC>();
        top->trace(tfp.get(), 99);
        tfp->open(tw->path.c_str());
    }
    auto tracing = [&](uint64_t cycle) {
        return tfp && cycle >= tw->from && cycle <= tw->to;
    };
    auto dump = [&](uint64_t cycle) {
        if (tracing(cycle)) tfp->dump(ctx->time());
    };
#else
    (void)tw;
    auto dump = [](uint64_t) {};
#endif

    // Reset: two rising edges with rst_ni low (synchronous reset). The C
    // model starts in its reset state. Coverage counts from the second edge
    // on: the jump from random initial values (+verilator+rand+reset+1/2)
    // to reset values at the first edge is not stimulus, while the reset
    // branch of every register still runs once more.
    if (top) {
        top->clk_i = 0;
        top->rst_ni = 0;
        bench.drive_idle();
        top->eval();
        for (int k = 0; k < 2; k++) {
#if VM_COVERAGE
            if (k == 1) ctx->coveragep()->zero();
#endif
            ctx->timeInc(5);
            top->clk_i = 1;
            top->eval();
            ctx->timeInc(5);
            top->clk_i = 0;
            top->eval();
        }
        top->rst_ni = 1;
        top->eval();
    }

    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_now();
    uint64_t cycle = 0;
    for (;; cycle++) {
        Checker chk;
        bench.compare(cycle, chk);
        if (chk.failed()) {
            res.mismatch = true;
            res.fail_cycle = cycle;
            res.why = "lockstep mismatch at cycle " + std::to_string(cycle) + ": " +
                      chk.lines()[0];
            if (!opt.quiet || !tw) {
                std::printf("FAILURE: lockstep mismatch at cycle %" PRIu64 " (%zu field%s)\n",
                            cycle, chk.lines().size(), chk.lines().size() == 1 ? "" : "s");
                size_t shown = 0;
                for (const auto& l : chk.lines()) {
                    if (shown++ == 32) {
                        std::printf("  ... %zu more\n", chk.lines().size() - 32);
                        break;
                    }
                    std::printf("  cycle %" PRIu64 ": %s\n", cycle, l.c_str());
                }
            }
            break;
        }
        bench.step(cycle);
        if (top) {
            // Inputs settle with the clock low, then the clock rises (the
            // order Verilator's examples use). Changing inputs and raising
            // the clock in one eval() is a race: flops then sample logic
            // still computed from the old inputs.
            top->eval();
            dump(cycle);
            ctx->timeInc(5);
            top->clk_i = 1;
            if (!std::getenv("GM_TB_NO_SETTLE")) top->eval();
            dump(cycle);
            if (ctx->gotFinish()) {
                // An assertion (or $fatal) fired at this edge.
                res.fail_cycle = cycle;
                res.why = "RTL assertion failed at the edge ending cycle " +
                          std::to_string(cycle);
                std::printf("FAILURE: %s (see the %%Error line above)\n", res.why.c_str());
                break;
            }
            ctx->timeInc(5);
            top->clk_i = 0;
            top->eval();
        }
        std::string err = bench.observe(cycle);
        if (!err.empty()) {
            res.fail_cycle = cycle;
            res.why = "checker at cycle " + std::to_string(cycle) + ": " + err;
            std::printf("FAILURE: %s\n", res.why.c_str());
            break;
        }
        if (bench.done(cycle)) {
            cycle++;
            res.ok = true;
            break;
        }
        if (cycle >= opt.cycles + opt.drain_max) {
            res.fail_cycle = cycle;
            res.why = "not drained " + std::to_string(opt.drain_max) +
                      " cycles after the stimulus ended (deadlock?)";
            std::printf("FAILURE: %s\n", res.why.c_str());
            break;
        }
        if (tw && cycle >= tw->to) break;  // rerun for the waveform: stop at the failure
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.cpu_seconds = cpu_now() - c0;
    res.cycles = cycle;
    if (res.ok) {
        std::string err = bench.final_check();
        if (!err.empty()) {
            res.ok = false;
            res.fail_cycle = cycle;
            res.why = "end of test: " + err;
            std::printf("FAILURE: %s\n", res.why.c_str());
        }
    }
    if (!tw && !opt.quiet) bench.summary(stdout);
#if VM_TRACE
    if (tfp) tfp->close();
#endif
    if (top) top->final();
#if VM_COVERAGE
    if (write_coverage && !opt.coverage.empty()) {
        std::error_code ec;  // the directory may not exist yet
        std::filesystem::create_directories(
            std::filesystem::path(opt.coverage).parent_path(), ec);
        ctx->coveragep()->write(opt.coverage.c_str());
    }
#else
    (void)write_coverage;
#endif
    return res;
}

// Runs one test as the options say; returns the process exit status.
template <class VTop, class Bench>
int run_lockstep(const Options& opt, const typename Bench::Config& cfg)
{
    if (opt.bench) {
        // Same seed, same stimulus (the models agree, so the environment
        // sees the same outputs): time the C model alone, the RTL alone and
        // both in lockstep.
        const Mode modes[] = {Mode::kCOnly, Mode::kRtlOnly, Mode::kLockstep};
        bool ok = true;
        for (Mode m : modes) {
            Options o = opt;
            o.quiet = true;
            RunResult r = run_once<VTop, Bench>(o, cfg, m, nullptr, false);
            std::printf("bench %s %s %-8s %8" PRIu64 " cycles  cpu %7.3f s %9.0f cycles/s"
                        "  (wall %7.3f s %9.0f cycles/s)%s\n",
                        opt.block.c_str(), opt.config.c_str(), mode_name(m), r.cycles,
                        r.cpu_seconds, r.cpu_seconds > 0 ? r.cycles / r.cpu_seconds : 0.0,
                        r.seconds, r.seconds > 0 ? r.cycles / r.seconds : 0.0,
                        r.ok ? "" : "  FAILED");
            ok = ok && r.ok;
        }
        return ok ? 0 : 1;
    }

    RunResult r = run_once<VTop, Bench>(opt, cfg, opt.mode, nullptr, true);
    if (r.ok) {
        std::printf("matched %" PRIu64 " cycles (%s %s seed %" PRIu64 ", %s)\n", r.cycles,
                    opt.block.c_str(), opt.config.c_str(), opt.seed, mode_name(opt.mode));
        if (opt.expect_mismatch) {
            std::printf("FAILURE: expected a lockstep mismatch (mutated RTL), none seen\n");
            return 1;
        }
        std::printf("TEST PASSED\n");
        return 0;
    }

    std::string wave_note = "no waveform (build without TRACE_FST, or C-only mode)";
    bool wave_ok = false;
#if VM_TRACE
    if (opt.mode != Mode::kCOnly) {
        // Replay the same seed with tracing on for the last cycles. The run
        // is deterministic (driver PRNG, C model, Verilator random-reset
        // seed), so the failure recurs at the same cycle.
        TraceWindow tw;
        tw.path = opt.wave.empty() ? default_wave_path(opt) : opt.wave;
        tw.to = r.fail_cycle;
        tw.from = r.fail_cycle > opt.wave_window ? r.fail_cycle - opt.wave_window : 0;
        Options o = opt;
        o.quiet = true;
        std::error_code rm_ec;  // a stale file must not pass for this run's waveform
        std::filesystem::remove(tw.path, rm_ec);
        RunResult again = run_once<VTop, Bench>(o, cfg, opt.mode, &tw, false);
        std::printf("waveform: %s (cycles %" PRIu64 "..%" PRIu64 "; cycle c has its inputs at"
                    " time 20+10c and ends with the rising edge at 25+10c)\n", tw.path.c_str(),
                    tw.from, tw.to);
        if (again.ok || again.fail_cycle != r.fail_cycle) {
            std::printf("note: the replay did not fail at the same cycle (%s)\n",
                        again.ok ? "it passed" : again.why.c_str());
            wave_note = "waveform replay did not reproduce the failure";
        } else {
            std::error_code ec;
            auto bytes = std::filesystem::file_size(tw.path, ec);
            wave_ok = !ec && bytes > 0;
            wave_note = "waveform " + tw.path + " (" +
                        (ec ? std::string("missing") : std::to_string(bytes) + " bytes") + ")";
        }
    }
#endif
    std::printf("reproduce: %s --block %s --config %s --seed %" PRIu64 " --cycles %" PRIu64
                " [same +verilator+ plusargs]\n", opt.argv && opt.argc ? opt.argv[0] : "gm_lockstep",
                opt.block.c_str(), opt.config.c_str(), opt.seed, opt.cycles);
    if (opt.expect_mismatch) {
        // A caught mutant must leave what a real failure leaves: the first
        // mismatch (cycle, port, field, expected, actual) and a waveform
        // that reproduces it. An assertion, a checker error or a deadlock
        // is not a lockstep catch.
        if (r.mismatch && wave_ok) {
            std::printf("mutation caught: %s; %s\nTEST PASSED\n", r.why.c_str(),
                        wave_note.c_str());
            return 0;
        }
        std::printf("FAILURE: mutant not caught by a lockstep mismatch with a waveform (%s; %s)\n",
                    r.mismatch ? "mismatch seen" : r.why.c_str(), wave_note.c_str());
    }
    return 1;
}

// The command-line entry point (tb/common/lockstep_main.cpp).
int lockstep_main(int argc, char** argv);

}  // namespace gm_tb

#endif
