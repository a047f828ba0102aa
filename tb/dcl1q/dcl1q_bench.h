// Lockstep bench of the DC-L1 node queues: the C model gm_dcl1q
// (cmodel/designs/dcl1/dcl1_queues.h) against the Verilated gm_dcl1_queues
// (rtl/gm_dcl1_queues.sv). See tb/common/lockstep.h for the Bench
// interface.
//
// The environment plays the four neighbours of the block with seeded
// randomness: cores injecting requests (kind mix, bursts, idle stretches),
// NoC#1 and NoC#2 back-pressure, an L2 that answers every request it took
// after a random delay and out of order, and a cache that accepts, hits,
// misses, installs fills and returns load replies. It keeps every handshake
// legal (the RTL asserts them) and checks end to end that every request
// injected comes back to its core exactly once, with the reply kind its
// request implies, and that nothing is left at the end.
#ifndef GM_TB_DCL1Q_BENCH_H
#define GM_TB_DCL1Q_BENCH_H

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "../common/bench_knobs.h"
#include "../common/bench_rng.h"
#include "../common/lockstep.h"

extern "C" {
#include "designs/dcl1/dcl1_queues.h"
}

namespace gm_tb {

struct Dcl1qConfig {
    unsigned depth;
    unsigned mutation;  // Verilog parameter Mutation of this build (0: none)
};

// Stimulus probabilities in parts per 1000, drawn per seed; --knob k=v
// overrides.
struct Dcl1qKnobs {
    unsigned inj = 500;        // a core offers a request when Q1 has room
    unsigned atomic = 120;     // kind mix of requests: atomics
    unsigned nonl1 = 120;      // ... non-L1
    unsigned store = 200;      // ... stores (rest: loads)
    unsigned n1_ready = 700;   // NoC#1 takes the Q2 head
    unsigned n2_ready = 700;   // NoC#2 takes the Q3 head
    unsigned l2_rep = 400;     // L2 offers a reply (when it has one)
    unsigned accept = 700;     // the cache accepts the offered Q1 head
    unsigned miss = 400;       // ... and a load misses
    unsigned fill = 700;       // the cache installs the offered fill
    unsigned rsp = 600;        // the cache offers a load reply it has
    unsigned burst = 30;       // a burst of full-rate injection starts
    unsigned idle = 10;        // an idle stretch (no injection) starts
    unsigned garbage = 300;    // fields beside a 0 valid/accept bit carry junk
                               // (the block must ignore them)
    unsigned window = 64;      // requests in flight at most (0: no limit); the
                               // cores' MSHRs: without a bound a seed whose
                               // injection outruns its NoC#1 reply rate piles
                               // up an unbounded backlog that cannot drain

    std::string set(const std::string& kv) { return knob_set(*this, fields(), 1000, kv); }
    std::string describe() const { return knob_describe(*this, fields()); }
    static std::vector<KnobField<Dcl1qKnobs>> fields()
    {
        return {
            {"inj", &Dcl1qKnobs::inj},
            {"atomic", &Dcl1qKnobs::atomic},
            {"nonl1", &Dcl1qKnobs::nonl1},
            {"store", &Dcl1qKnobs::store},
            {"n1_ready", &Dcl1qKnobs::n1_ready},
            {"n2_ready", &Dcl1qKnobs::n2_ready},
            {"l2_rep", &Dcl1qKnobs::l2_rep},
            {"accept", &Dcl1qKnobs::accept},
            {"miss", &Dcl1qKnobs::miss},
            {"fill", &Dcl1qKnobs::fill},
            {"rsp", &Dcl1qKnobs::rsp},
            {"burst", &Dcl1qKnobs::burst},
            {"idle", &Dcl1qKnobs::idle},
            {"garbage", &Dcl1qKnobs::garbage},
            {"window", &Dcl1qKnobs::window},
        };
    }
};

struct Dcl1qRng : BenchRng {
    explicit Dcl1qRng(uint64_t seed) : BenchRng(seed, 1) {}
};

template <class VTop>
void dcl1q_put_inputs(VTop* top, const gm_dcl1q_in& in)
{
    top->n1_req_valid_i = in.n1_req_valid;
    top->n1_req_handle_i = in.n1_req_handle;
    top->n1_req_kind_i = in.n1_req_kind;
    top->n1_rep_ready_i = in.n1_rep_ready;
    top->n2_req_ready_i = in.n2_req_ready;
    top->n2_rep_valid_i = in.n2_rep_valid;
    top->n2_rep_handle_i = in.n2_rep_handle;
    top->n2_rep_kind_i = in.n2_rep_kind;
    top->c_req_accept_i = in.c_req_accept;
    top->c_req_miss_i = in.c_req_miss;
    top->c_fill_accept_i = in.c_fill_accept;
    top->c_rsp_valid_i = in.c_rsp_valid;
    top->c_rsp_handle_i = in.c_rsp_handle;
}

template <class VTop>
void dcl1q_get_outputs(const VTop* top, gm_dcl1q_out* o)
{
    o->n1_req_ready = top->n1_req_ready_o;
    o->n1_rep_valid = top->n1_rep_valid_o;
    o->n1_rep_handle = top->n1_rep_handle_o;
    o->n1_rep_kind = top->n1_rep_kind_o;
    o->n2_req_valid = top->n2_req_valid_o;
    o->n2_req_handle = top->n2_req_handle_o;
    o->n2_req_kind = top->n2_req_kind_o;
    o->n2_rep_ready = top->n2_rep_ready_o;
    o->c_req_valid = top->c_req_valid_o;
    o->c_req_handle = top->c_req_handle_o;
    o->c_req_kind = top->c_req_kind_o;
    o->c_miss_ready = top->c_miss_ready_o;
    o->c_fill_valid = top->c_fill_valid_o;
    o->c_fill_handle = top->c_fill_handle_o;
    o->c_rsp_ready = top->c_rsp_ready_o;
}

inline void dcl1q_compare(const gm_dcl1q_out& e, const gm_dcl1q_out& a, Checker& chk)
{
#define GM_DCL1Q_FIELD(port, f) chk.expect(port, 0, #f, e.f, a.f)
    GM_DCL1Q_FIELD("n1_req", n1_req_ready);
    GM_DCL1Q_FIELD("n1_rep", n1_rep_valid);
    GM_DCL1Q_FIELD("n1_rep", n1_rep_handle);
    GM_DCL1Q_FIELD("n1_rep", n1_rep_kind);
    GM_DCL1Q_FIELD("n2_req", n2_req_valid);
    GM_DCL1Q_FIELD("n2_req", n2_req_handle);
    GM_DCL1Q_FIELD("n2_req", n2_req_kind);
    GM_DCL1Q_FIELD("n2_rep", n2_rep_ready);
    GM_DCL1Q_FIELD("c_req", c_req_valid);
    GM_DCL1Q_FIELD("c_req", c_req_handle);
    GM_DCL1Q_FIELD("c_req", c_req_kind);
    GM_DCL1Q_FIELD("c_miss", c_miss_ready);
    GM_DCL1Q_FIELD("c_fill", c_fill_valid);
    GM_DCL1Q_FIELD("c_fill", c_fill_handle);
    GM_DCL1Q_FIELD("c_rsp", c_rsp_ready);
#undef GM_DCL1Q_FIELD
}

template <class VTop>
class Dcl1qBench {
public:
    using Config = Dcl1qConfig;

    Dcl1qBench(const Options& opt, const Dcl1qConfig& cfg, VTop* top)
        : top_(top), use_c_(opt.mode != Mode::kRtlOnly || !top), cycles_(opt.cycles),
          rng_(opt.seed), knobs_(knobs(opt))
    {
        gm_error err;
        if (gm_dcl1q_init(&model_, cfg.depth, &err) != 0) {
            std::fprintf(stderr, "dcl1q bench: %s\n", err.msg);
            std::exit(2);
        }
        if (!opt.quiet) {
            std::printf("dcl1q: depth %u mutation %u\n%s\n", cfg.depth, cfg.mutation,
                        knobs_.describe().c_str());
        }
    }
    ~Dcl1qBench() { gm_dcl1q_free(&model_); }
    Dcl1qBench(const Dcl1qBench&) = delete;
    Dcl1qBench& operator=(const Dcl1qBench&) = delete;

    void drive_idle()
    {
        gm_dcl1q_in zero{};
        dcl1q_put_inputs(top_, zero);
    }

    void compare(uint64_t, Checker& chk)
    {
        if (use_c_) gm_dcl1q_eval(&model_, &c_out_);
        if (top_) dcl1q_get_outputs(top_, &rtl_out_);
        if (use_c_ && top_) dcl1q_compare(c_out_, rtl_out_, chk);
    }

    void step(uint64_t cycle)
    {
        choose_inputs(cycle, visible());
        if (use_c_) gm_dcl1q_tick(&model_, &in_);
        if (top_) dcl1q_put_inputs(top_, in_);
    }

    // The edge happened: the environment commits what it handed over and
    // took, judged from the outputs it saw before the edge.
    std::string observe(uint64_t cycle)
    {
        const gm_dcl1q_out& o = seen_;
        if (in_.n1_req_valid) {
            outstanding_[in_.n1_req_handle] = in_.n1_req_kind;
            stats_.injected++;
        }
        if (o.n1_rep_valid && in_.n1_rep_ready) {
            auto it = outstanding_.find(o.n1_rep_handle);
            if (it == outstanding_.end())
                return "reply for handle 0x" + hex(o.n1_rep_handle) +
                       " that is not outstanding (lost, duplicated or corrupted)";
            unsigned want = it->second == GM_DCL1Q_LOAD ? 0u : it->second;
            if (o.n1_rep_kind != want)
                return "reply for handle 0x" + hex(o.n1_rep_handle) + " has kind " +
                       std::to_string(o.n1_rep_kind) + ", its request implies " +
                       std::to_string(want);
            outstanding_.erase(it);
            stats_.returned++;
        }
        if (o.n2_req_valid && in_.n2_req_ready) {
            l2_.push_back({o.n2_req_handle, o.n2_req_kind, cycle + 1 + rng_.below(24)});
            stats_.to_l2++;
        }
        if (in_.n2_rep_valid) l2_.erase(l2_.begin() + static_cast<long>(l2_pick_));
        if (o.c_req_valid && in_.c_req_accept) {
            stats_.cache_accepts++;
            if (!in_.c_req_miss) rsp_.push_back(o.c_req_handle);  // a load hit
        }
        if (o.c_fill_valid && in_.c_fill_accept) rsp_.push_back(o.c_fill_handle);
        if (in_.c_rsp_valid && o.c_rsp_ready) {
            rsp_.pop_front();
            stats_.cache_replies++;
        }
        if (o.c_rsp_ready == 0 && in_.c_rsp_valid) stats_.rsp_blocked++;
        return "";
    }

    bool done(uint64_t cycle)
    {
        bool empty = cycle >= cycles_ && outstanding_.empty() &&
                     (!use_c_ || gm_dcl1q_idle(&model_));
        quiet_ = empty ? quiet_ + 1 : 0;
        return quiet_ > 4;
    }

    std::string final_check()
    {
        if (!outstanding_.empty())
            return std::to_string(outstanding_.size()) + " requests never returned";
        if (use_c_ && model_.st.protocol_errors)
            return "the C model counted " + std::to_string(model_.st.protocol_errors) +
                   " handshake errors of the environment";
        return "";
    }

    void summary(FILE* f)
    {
        std::fprintf(f,
                     "stimulus: requests %" PRIu64 " returned %" PRIu64 " to L2 %" PRIu64
                     " cache accepts %" PRIu64 " cache replies %" PRIu64
                     " cache replies held back %" PRIu64 "\n",
                     stats_.injected, stats_.returned, stats_.to_l2, stats_.cache_accepts,
                     stats_.cache_replies, stats_.rsp_blocked);
        std::fprintf(f, "environment now: outstanding %zu, in L2 %zu, cache replies waiting %zu\n",
                     outstanding_.size(), l2_.size(), rsp_.size());
        if (use_c_)
            std::fprintf(f, "queues (C): counts now %u/%u/%u/%u rr %u\n", model_.q[0].count,
                         model_.q[1].count, model_.q[2].count, model_.q[3].count, model_.rr);
        if (use_c_)
            std::fprintf(f, "queues (C): bypass Q1->Q3 %" PRIu64 " Q4->Q2 %" PRIu64
                            " max occupancy %u/%u/%u/%u\n",
                         model_.st.bypass_q1_q3, model_.st.bypass_q4_q2, model_.st.occ_max[0],
                         model_.st.occ_max[1], model_.st.occ_max[2], model_.st.occ_max[3]);
    }

private:
    struct L2Entry {
        uint32_t handle;
        uint8_t kind;
        uint64_t ready_at;
    };
    struct Stats {
        uint64_t injected = 0, returned = 0, to_l2 = 0, cache_accepts = 0, cache_replies = 0,
                 rsp_blocked = 0;
    };

    static Dcl1qKnobs knobs(const Options& opt)
    {
        Dcl1qKnobs k;
        Dcl1qRng r(opt.seed ^ 0xD1C1ull);
        // Per-seed variety around the defaults: some seeds saturate the
        // queues, others starve them.
        k.inj = 100 + r.below(900);
        k.n1_ready = 150 + r.below(850);
        k.n2_ready = 150 + r.below(850);
        k.accept = 200 + r.below(800);
        k.rsp = 200 + r.below(800);
        k.garbage = r.chance(500) ? r.below(1000) : 0;
        // Mostly enough in flight to fill every queue (16 entries at depth
        // 4, plus L2 and the cache); sometimes a nearly serial core.
        k.window = r.chance(200) ? 1 + r.below(8) : 16 + r.below(240);
        for (const std::string& a : opt.knobs) {
            std::string err = k.set(a);
            if (!err.empty()) {
                std::fprintf(stderr, "%s\n", err.c_str());
                std::exit(2);
            }
        }
        return k;
    }

    static std::string hex(uint32_t v)
    {
        char b[16];
        std::snprintf(b, sizeof b, "%08x", v);
        return b;
    }

    const gm_dcl1q_out& visible() const { return use_c_ ? c_out_ : rtl_out_; }

    uint8_t request_kind()
    {
        unsigned x = rng_.below(1000);
        if (x < knobs_.atomic) return GM_DCL1Q_ATOMIC;
        if (x < knobs_.atomic + knobs_.nonl1) return GM_DCL1Q_NONL1;
        if (x < knobs_.atomic + knobs_.nonl1 + knobs_.store) return GM_DCL1Q_STORE;
        return GM_DCL1Q_LOAD;
    }

    // Every input of one cycle from the outputs before the edge; every
    // handshake kept legal.
    void choose_inputs(uint64_t cycle, const gm_dcl1q_out& o)
    {
        seen_ = o;
        in_ = gm_dcl1q_in{};
        bool stimulus = cycle < cycles_;
        if (stimulus && idle_left_ == 0 && burst_left_ == 0) {
            if (rng_.chance(knobs_.idle)) idle_left_ = 20 + rng_.below(200);
            else if (rng_.chance(knobs_.burst)) burst_left_ = 5 + rng_.below(40);
        }
        bool inject = stimulus && idle_left_ == 0 &&
                      (burst_left_ > 0 || rng_.chance(knobs_.inj));
        if (idle_left_) idle_left_--;
        if (burst_left_) burst_left_--;
        bool window_open = knobs_.window == 0 || outstanding_.size() < knobs_.window;
        if (inject && window_open && o.n1_req_ready) {
            in_.n1_req_valid = 1;
            // Multiplying by an odd constant is a bijection mod 2^32: the
            // handles stay unique while every bit of them toggles.
            in_.n1_req_handle = next_id_++ * 0x9E3779B1u;
            in_.n1_req_kind = request_kind();
        }
        in_.n1_rep_ready = rng_.chance(knobs_.n1_ready);
        in_.n2_req_ready = rng_.chance(knobs_.n2_ready);

        // L2 answers one of the requests whose delay has passed, any of them.
        if (o.n2_rep_ready && !l2_.empty() && rng_.chance(knobs_.l2_rep)) {
            size_t pick = rng_.below(static_cast<unsigned>(l2_.size()));
            if (l2_[pick].ready_at <= cycle) {
                l2_pick_ = pick;
                in_.n2_rep_valid = 1;
                in_.n2_rep_handle = l2_[pick].handle;
                in_.n2_rep_kind = l2_[pick].kind;
            }
        }

        // The cache: loads hit or miss; stores always go on to L2
        // (write-evict, no-write-allocate); a miss needs room in Q3.
        if (o.c_req_valid && rng_.chance(knobs_.accept)) {
            bool miss = o.c_req_kind == GM_DCL1Q_STORE || rng_.chance(knobs_.miss);
            if (!miss || o.c_miss_ready) {
                in_.c_req_accept = 1;
                in_.c_req_miss = miss;
            }
        }
        in_.c_fill_accept = o.c_fill_valid && rng_.chance(knobs_.fill);
        if (!rsp_.empty() && (rsp_offered_ || rng_.chance(knobs_.rsp))) {
            in_.c_rsp_valid = 1;  // once offered, held until taken
            in_.c_rsp_handle = rsp_.front();
        }
        rsp_offered_ = in_.c_rsp_valid && !o.c_rsp_ready;
        add_garbage();
    }

    // Junk on every input field that its valid (or accept) bit makes a
    // don't-care: the C model ignores them, so must the RTL.
    void add_garbage()
    {
        if (!rng_.chance(knobs_.garbage)) return;
        uint64_t x = rng_.next();
        if (!in_.n1_req_valid) {
            in_.n1_req_handle = static_cast<uint32_t>(x);
            in_.n1_req_kind = static_cast<uint8_t>((x >> 32) & 3u);
        }
        if (!in_.n2_rep_valid) {
            in_.n2_rep_handle = static_cast<uint32_t>(x >> 16);
            in_.n2_rep_kind = static_cast<uint8_t>((x >> 48) & 3u);
        }
        if (!in_.c_req_accept) in_.c_req_miss = static_cast<uint8_t>((x >> 50) & 1u);
        if (!in_.c_rsp_valid) in_.c_rsp_handle = static_cast<uint32_t>(x >> 24);
    }

    VTop* top_;
    bool use_c_;
    uint64_t cycles_;
    Dcl1qRng rng_;
    Dcl1qKnobs knobs_;
    gm_dcl1q model_{};
    gm_dcl1q_in in_{};
    gm_dcl1q_out c_out_{}, rtl_out_{}, seen_{};
    std::unordered_map<uint32_t, uint8_t> outstanding_;  // handle -> request kind
    std::vector<L2Entry> l2_;                            // requests L2 holds
    size_t l2_pick_ = 0;
    std::deque<uint32_t> rsp_;                           // load replies the cache holds
    bool rsp_offered_ = false;
    unsigned idle_left_ = 0, burst_left_ = 0, quiet_ = 0;
    uint32_t next_id_ = 1;
    Stats stats_;
};

template <class VTop>
int run_dcl1q(const Options& opt, const Dcl1qConfig& cfg)
{
    return run_lockstep<VTop, Dcl1qBench<VTop>>(opt, cfg);
}

}  // namespace gm_tb

#endif
