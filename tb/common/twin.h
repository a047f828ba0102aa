// RTL twins inside a system run (gmsim-cosim, gmsim-sc-rtl; docs/cosim.md):
// the one framework every co-simulated block goes through.
//
// A C block with an RTL twin exposes a hook of the shape
//   struct { void *ctx; eval(ctx, out*); tick(ctx, const in*);
//            compare(ctx, cycle, const expected*, const actual*); }
// (gm_router_twin, gm_shadow_twin, gm_selrep_rdd_twin, gm_ata_tblk_twin):
// the system takes the twin's outputs in place of the C block's, clocks it
// with the inputs it gives the C block, and hands both outputs to compare.
// Everything around that is here, written once: the Verilated model behind
// the port structs (VlModel), the registry of Verilated parameterizations,
// the per-instance callbacks, the first-failure record that stops the run,
// the waveform replay, and the report lines.
//
// A block plugs in with an adapter A (tb/cosim/twin_*.h), a struct of
// static members:
//   using In, Out, Hook, Params;      port structs, C hook, parameters
//   kModel, kNoun, kUnit, kFieldCount, kMatched, kOwnCount: report wording
//   put(VTop*, Params, In), get(VTop*, Params, Out*), put_idle(VTop*, Params)
//   kEvalFall                         evaluate the falling edge on its own
//   kSkipSettled                      may skip an edge that provably changes
//                                     nothing (VlModel::clock; only for a
//                                     model whose whole state is its root)
//   kCompareAfterTick                 the C side calls compare after tick
//                                     (the outputs of the edge just made)
//   same(Params, Params), text(Params)
//   compare(Params, expected, actual, Checker&)   every output field
//   find(System, pattern, std::vector<Found<A>>*, err)   matching instances
//   announce(n, first)                the "in RTL" line
#ifndef GM_TB_TWIN_H
#define GM_TB_TWIN_H

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fnmatch.h>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "common/lockstep.h"

extern "C" {
#include "sim/error.h"
#include "system/system.h"
}

namespace gm_twin {

// A Verilated model of a block behind its C port structs.
template <class In, class Out>
class Rtl {
public:
    virtual ~Rtl() = default;
    // Two rising edges with rst_ni low, then rst_ni high.
    virtual void reset() = 0;
    // The Moore outputs of the current state.
    virtual void outputs(Out* out) = 0;
    // The rising edge that ends cycle `cycle`, with these inputs. The cycle
    // only timestamps the waveform (10 time units a cycle, so a divergence
    // at cycle N is at time 10*N in the FST) and $time.
    virtual void clock(const In& in, uint64_t cycle) = 0;
    // Starts an FST of this instance (Verilated with tracing).
    virtual void trace_open(const std::string& path) = 0;
    virtual void trace_close() = 0;
    // Lets clock() skip the edges that provably change nothing (where the
    // adapter allows it); the count of those it skipped.
    virtual void allow_skip(bool on) = 0;
    virtual uint64_t edges_skipped() const = 0;
};

// The Verilated class VTop of block adapter A as an Rtl.
template <class VTop, class A>
class VlModel final : public Rtl<typename A::In, typename A::Out> {
public:
    VlModel(VerilatedContext* ctx, const typename A::Params& p)
        : ctx_(ctx), p_(p), top_(std::make_unique<VTop>(ctx, "TOP"))
    {
    }
    ~VlModel() override
    {
        trace_close();
        top_->final();
    }

    void reset() override
    {
        A::put_idle(top_.get(), p_);
        top_->clk_i = 0;
        top_->rst_ni = 0;
        top_->eval();
        for (int k = 0; k < 2; k++) {
            top_->clk_i = 1;
            top_->eval();
            top_->clk_i = 0;
            top_->eval();
        }
        top_->rst_ni = 1;
        top_->eval();
    }

    void outputs(typename A::Out* out) override { A::get(top_.get(), p_, out); }

    void clock(const typename A::In& in, uint64_t cycle) override
    {
        A::put(top_.get(), p_, in);
        if (skip_) {
            if (settled_ && !tracing() && root_same_as_snapshot()) {
                skipped_++;
                return;
            }
            take_snapshot();
        }
        edge(cycle);
        if (skip_) settled_ = root_same_as_snapshot();
    }

    void allow_skip(bool on) override
    {
        skip_ = on && A::kSkipSettled;
        settled_ = false;
        if (skip_) snapshot_.resize(sizeof(*top_->rootp));
    }
    uint64_t edges_skipped() const override { return skipped_; }

    void trace_open(const std::string& path) override
    {
#if VM_TRACE
        if (tfp_) return;
        tfp_ = std::make_unique<VerilatedFstC>();
        top_->trace(tfp_.get(), 99);
        tfp_->open(path.c_str());
#else
        (void)path;
#endif
    }

    void trace_close() override
    {
#if VM_TRACE
        if (tfp_) tfp_->close();
        tfp_.reset();
#endif
    }

private:
    // The rising edge: inputs settle with the clock low, then the clock
    // rises.
    void edge(uint64_t cycle)
    {
        ctx_->time(cycle * 10);
        top_->eval();  // inputs settle with the clock low (tb/common/lockstep.h)
        dump();
        ctx_->time(cycle * 10 + 5);
        top_->clk_i = 1;
        top_->eval();
        dump();
        // Without kEvalFall the falling edge is not evaluated on its own:
        // no logic runs on it, and the next clock() evaluates it together
        // with the new inputs (for a router about a third of the RTL's time).
        top_->clk_i = 0;
        if (A::kEvalFall) top_->eval();
    }

    // Skipping an edge is exact, not a guess. For a model whose design is
    // inlined into its root (no submodule objects, no random values drawn
    // at run time, no heap members; tb/cosim/CMakeLists.txt checks this,
    // docs/cosim.md "Speed" argues it) everything eval() reads and writes
    // is the bytes of the root object (inputs, registers, combinational
    // values, trigger history), and eval() is a function of them. If an
    // edge left those bytes as it found them (settled_), an edge that
    // starts from the same bytes, i.e. the same inputs put in, computes the
    // same function of the same bytes and leaves them unchanged again:
    // skipping it changes nothing, outputs included. $time is not in the
    // root but only stamps messages and the waveform, and no edge is
    // skipped while tracing.
    void take_snapshot() { std::memcpy(snapshot_.data(), top_->rootp, snapshot_.size()); }
    bool root_same_as_snapshot() const
    {
        return std::memcmp(snapshot_.data(), top_->rootp, snapshot_.size()) == 0;
    }
    bool tracing() const
    {
#if VM_TRACE
        return tfp_ != nullptr;
#else
        return false;
#endif
    }

    void dump()
    {
#if VM_TRACE
        if (tfp_) tfp_->dump(ctx_->time());
#endif
    }

    VerilatedContext* ctx_;
    typename A::Params p_;
    std::unique_ptr<VTop> top_;
    bool skip_ = false;     // allow_skip() on an adapter with kSkipSettled
    bool settled_ = false;  // the last edge left the root unchanged
    std::vector<unsigned char> snapshot_;  // the root before the last edge
    uint64_t skipped_ = 0;
#if VM_TRACE
    std::unique_ptr<VerilatedFstC> tfp_;
#endif
};

// One Verilated parameterization of adapter A's block, registered at
// static initialization by the generated model files (tb/cosim/*.cpp.in).
template <class A>
struct Kind {
    typename A::Params params;
    std::string prefix;  // Verilated class, e.g. Vgmsim_cosim_80x32
    std::function<std::unique_ptr<Rtl<typename A::In, typename A::Out>>(VerilatedContext*)> make;
};

template <class A>
std::vector<Kind<A>>& registry()
{
    static std::vector<Kind<A>> r;
    return r;
}

template <class A>
struct Registrar {
    explicit Registrar(Kind<A> k) { registry<A>().push_back(std::move(k)); }
};

// Registers VTop as the model of A's block with parameters p.
template <class VTop, class A>
Kind<A> vl_kind(const typename A::Params& p, const char* prefix)
{
    return Kind<A>{p, prefix, [p](VerilatedContext* ctx) {
                       return std::unique_ptr<Rtl<typename A::In, typename A::Out>>(
                           std::make_unique<VlModel<VTop, A>>(ctx, p));
                   }};
}

// Everything one co-simulated run holds.
struct Session {
    int argc = 0;
    char** argv = nullptr;
    std::unique_ptr<VerilatedContext> ctx;
    gm_system* sys = nullptr;
    std::string divergence;     // first failure (mismatch or RTL assertion), or ""
    std::string diverged_name;  // its instance
    uint64_t diverged_cycle = 0;
    // Replay for the waveform (set from the environment by the parent).
    std::string wave_path, wave_instance;
    uint64_t wave_from = 0;
    bool replaying = false;
    // GM_COSIM_EVAL_EVERY_EDGE set: no edge is skipped (VlModel::clock),
    // for measuring what skipping saves.
    bool eval_every_edge = false;

    // Records the first failure of the run and asks the system to stop
    // after the current edge; later ones (other instances in the same
    // edge) are only printed.
    void record_failure(const std::string& name, uint64_t cycle, const std::string& what)
    {
        if (!divergence.empty()) return;
        divergence = what;
        diverged_name = name;
        diverged_cycle = cycle;
        gm_system_request_stop(sys, divergence.c_str());
    }
};

// PATTERN items are comma-separated; "all" matches every instance of a
// block that takes part in "all", anything else is a glob over instance
// names, or, where an adapter says so, a group name (a network).
inline bool pattern_item(const std::string& pattern, const std::function<bool(const std::string&)>& f)
{
    size_t start = 0;
    while (start <= pattern.size()) {
        size_t end = pattern.find(',', start);
        if (end == std::string::npos) end = pattern.size();
        if (f(pattern.substr(start, end - start))) return true;
        start = end + 1;
    }
    return false;
}

inline bool glob_matches(const std::string& pattern, const char* name)
{
    return pattern_item(pattern, [name](const std::string& item) {
        return item == "all" || (!item.empty() && fnmatch(item.c_str(), name, 0) == 0);
    });
}

// One instance of a block that matches a pattern: its name, parameters
// and how to hand the C side its hook.
template <class A>
struct Found {
    std::string name;
    typename A::Params params;
    std::function<int(const typename A::Hook*, gm_error*)> attach;
};

// What the session knows of an instance in RTL, whatever its block.
class Instance {
public:
    virtual ~Instance() = default;
    virtual void trace_close() = 0;
    virtual uint64_t edges_skipped() const = 0;
    Session* s = nullptr;
    std::string name;
    uint64_t compared = 0;
    uint64_t cycle = 0;  // cycle of the last compare (the current one)
    bool tracing = false;
};

// One instance in RTL: the C hook's callbacks over an Rtl model.
template <class A>
class Twin final : public Instance {
public:
    using In = typename A::In;
    using Out = typename A::Out;

    typename A::Params params{};
    std::unique_ptr<Rtl<In, Out>> rtl;
    typename A::Hook hook{};

    void trace_close() override { rtl->trace_close(); }
    uint64_t edges_skipped() const override { return rtl->edges_skipped(); }

    static void eval(void* ctx, Out* out) { static_cast<Twin*>(ctx)->rtl->outputs(out); }

    static void tick(void* ctx, const In* in)
    {
        Twin* t = static_cast<Twin*>(ctx);
        Session* s = t->s;
        // The cycle this edge ends: the last compared one, or for a block
        // compared after its edge (kCompareAfterTick) the one after it.
        uint64_t cycle = A::kCompareAfterTick && t->compared ? t->cycle + 1 : t->cycle;
        if (!t->tracing && !s->wave_path.empty() && t->name == s->wave_instance &&
            cycle >= s->wave_from) {
            t->rtl->trace_open(s->wave_path);
            t->tracing = true;
        }
        t->rtl->clock(*in, cycle);
        // A failed RTL assertion is reported by Verilator; with
        // fatalOnError off it is noticed here so that it stops the run
        // with the instance named, like a divergence.
        if (s->ctx->gotError() || s->ctx->gotFinish()) {
            char msg[240];
            std::snprintf(msg, sizeof msg,
                          "co-simulation: RTL of %s stopped at %s %" PRIu64
                          " (%s; Verilator printed why on stdout)",
                          t->name.c_str(), A::kUnit, cycle,
                          s->ctx->gotError() ? "assertion or $error" : "$finish");
            s->record_failure(t->name, cycle, msg);
        }
    }

    static int compare(void* ctx, uint64_t cycle, const Out* expected, const Out* actual)
    {
        Twin* t = static_cast<Twin*>(ctx);
        t->compared++;
        t->cycle = cycle;
        gm_tb::Checker chk;
        A::compare(t->params, *expected, *actual, chk);
        if (!chk.failed()) return 0;
        for (const auto& l : chk.lines())
            std::fprintf(stderr, "FAILURE: %s cycle %" PRIu64 ": %s\n", t->name.c_str(), cycle,
                         l.c_str());
        char head[240];
        size_t n = chk.lines().size();
        if (A::kFieldCount)
            std::snprintf(head, sizeof head,
                          "co-simulation: RTL of %s diverged from %s at %s %" PRIu64
                          " (%zu field%s): ",
                          t->name.c_str(), A::kNoun, A::kUnit, cycle, n, n == 1 ? "" : "s");
        else
            std::snprintf(head, sizeof head,
                          "co-simulation: RTL of %s diverged from %s at %s %" PRIu64 ": ",
                          t->name.c_str(), A::kNoun, A::kUnit, cycle);
        t->s->record_failure(t->name, cycle, head + chk.lines()[0]);
        return 1;
    }
};

// The instances of one block in RTL; the session holds one per adapter.
class Block {
public:
    virtual ~Block() = default;
    virtual int attach(Session* s, const std::string& pattern, gm_error* err) = 0;
    virtual const std::vector<std::unique_ptr<Instance>>& instances() const = 0;
    virtual void clear() = 0;
    // Report wording (see the adapter fields of the same names).
    virtual std::string announce() const = 0;
    virtual const char* matched() const = 0;
    virtual const char* own_count() const = 0;
};

template <class A>
class BlockOf final : public Block {
public:
    int attach(Session* s, const std::string& pattern, gm_error* err) override
    {
        std::vector<Found<A>> found;
        if (A::find(s->sys, pattern, &found, err) != 0) return -1;
        for (Found<A>& f : found) {
            const Kind<A>* kind = nullptr;
            std::string built;
            for (const Kind<A>& k : registry<A>()) {
                if (A::same(k.params, f.params)) kind = &k;
                built += "\n  " + A::text(k.params);
            }
            if (!kind) {
                std::string msg = std::string("no Verilated ") + A::kModel + " " +
                                  A::text(f.params) + " (instance " + f.name +
                                  "); gmsim-cosim was built with:" + built +
                                  "\n(add the size to tb/cosim/CMakeLists.txt)";
                return gm_fail(err, "%s", msg.c_str());
            }
            auto t = std::make_unique<Twin<A>>();
            t->s = s;
            t->name = f.name;
            t->params = f.params;
            t->rtl = kind->make(s->ctx.get());
            t->rtl->reset();
            t->rtl->allow_skip(!s->eval_every_edge);
            t->hook = typename A::Hook{t.get(), &Twin<A>::eval, &Twin<A>::tick,
                                       &Twin<A>::compare};
            if (f.attach(&t->hook, err) != 0) return -1;
            twins_.push_back(std::move(t));
        }
        return 0;
    }
    const std::vector<std::unique_ptr<Instance>>& instances() const override { return twins_; }
    void clear() override { twins_.clear(); }
    std::string announce() const override
    {
        return twins_.empty() ? "" : A::announce(twins_.size(), twins_.front()->name);
    }
    const char* matched() const override { return A::kMatched; }
    const char* own_count() const override { return A::kOwnCount; }

private:
    std::vector<std::unique_ptr<Instance>> twins_;
};

inline std::string plural(size_t n, const char* one)
{
    return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

}  // namespace gm_twin

#endif
