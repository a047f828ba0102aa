// Lockstep bench of the SelRep RDD: the C model gm_selrep_rddb
// (cmodel/designs/selrep/selrep_rddb.h) against the Verilated gm_selrep_rdd
// (rtl/gm_selrep_rdd.sv). See tb/common/lockstep.h for the Bench
// interface.
//
// The environment plays the MC-router: seeded random sampled-set accesses
// (tags from a small hot pool, so that hits and ClusterID sharing happen,
// or random over all TagW bits), request lanes with random homes and
// clusters, and epoch ends at random gaps, some of them long enough for
// every kind of counter to saturate. Each epoch gets random candidates,
// keep degree and bandwidths (0, 1 and 1023 included). Fields beside a 0
// valid carry junk the block must ignore. Every output is compared every
// cycle; the end-of-test check asks that the run saw counters saturate
// (knob need_sat=0 waives it) and that every decision was a candidate or
// the keep degree. Some epochs are empty (no sampled access, requests
// still counted; the third always is): their decision must be the keep
// degree, checked here apart from the C model, and a run must see one.
#ifndef GM_TB_SELREP_RDD_BENCH_H
#define GM_TB_SELREP_RDD_BENCH_H

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "../common/bench_knobs.h"
#include "../common/bench_rng.h"
#include "../common/lockstep.h"
#include "rdd_ports.h"

namespace gm_tb {

struct RddConfig {
    gm_selrep_rddb_params p;
    unsigned mutation;  // Verilog parameter Mutation of this build (0: none)
};

// Probabilities in parts per 1000; --knob k=v overrides.
struct RddKnobs {
    unsigned acc = 700;       // a sampled access this cycle
    unsigned hot = 800;       // ... its tag from the hot pool
    unsigned lane = 500;      // each request lane valid
    unsigned long_gap = 250;  // an epoch gap long enough to saturate counters
    unsigned short_max = 400; // other gaps: 1 .. short_max cycles
    unsigned full_cand = 700; // every degree a candidate
    unsigned garbage = 300;   // junk beside 0 valids
    unsigned need_sat = 1;    // final check: saturation was reached
    unsigned empty = 100;     // an epoch without sampled accesses

    std::string set(const std::string& kv) { return knob_set(*this, fields(), 100000, kv); }
    std::string describe() const { return knob_describe(*this, fields()); }
    static std::vector<KnobField<RddKnobs>> fields()
    {
        return {
            {"acc", &RddKnobs::acc},
            {"hot", &RddKnobs::hot},
            {"lane", &RddKnobs::lane},
            {"long_gap", &RddKnobs::long_gap},
            {"short_max", &RddKnobs::short_max},
            {"full_cand", &RddKnobs::full_cand},
            {"garbage", &RddKnobs::garbage},
            {"need_sat", &RddKnobs::need_sat},
            {"empty", &RddKnobs::empty},
        };
    }
};

struct RddRng : BenchRng {
    explicit RddRng(uint64_t seed) : BenchRng(seed, 7) {}
};

template <class VTop>
class RddBench {
public:
    using Config = RddConfig;

    RddBench(const Options& opt, const RddConfig& cfg, VTop* top)
        : top_(top), use_c_(opt.mode != Mode::kRtlOnly || !top), cycles_(opt.cycles),
          p_(cfg.p), rng_(opt.seed), knobs_(knobs(opt))
    {
        gm_error err;
        if (gm_selrep_rddb_init(&model_, &p_, &err) != 0) {
            std::fprintf(stderr, "selrep_rdd bench: %s\n", err.msg);
            std::exit(2);
        }
        slw_ = rdd_safe_clog2(p_.slices);
        clw_ = rdd_safe_clog2(p_.clusters);
        cnt_max_ = (1u << p_.counter_bits) - 1;
        tag_mask_ = p_.tag_bits >= 64 ? ~0ull : (1ull << p_.tag_bits) - 1;
        for (unsigned i = 0; i < 2 * p_.ways + 1; i++) hot_.push_back(rng_.next() & tag_mask_);
        next_epoch_ = 1 + rng_.below(knobs_.short_max ? knobs_.short_max : 1);
        if (!opt.quiet)
            std::printf("selrep_rdd: sets %u ways %u clusters %u slices %u degrees %u "
                        "counters %u bits tags %u bits lanes %u capacity %d mutation %u; "
                        "decision latency %u cycles\n%s\n",
                        p_.sets, p_.ways, p_.clusters, p_.slices, p_.ndeg, p_.counter_bits,
                        p_.tag_bits, p_.lanes, p_.capacity ? 1 : 0, cfg.mutation,
                        gm_selrep_rddb_latency(&model_), knobs_.describe().c_str());
    }
    ~RddBench() { gm_selrep_rddb_free(&model_); }
    RddBench(const RddBench&) = delete;
    RddBench& operator=(const RddBench&) = delete;

    void drive_idle()
    {
        gm_selrep_rddb_in zero{};
        put_inputs(zero);
    }

    void compare(uint64_t, Checker& chk)
    {
        if (use_c_) gm_selrep_rddb_eval(&model_, &c_out_);
        if (top_) get_outputs(&rtl_out_);
        if (!(use_c_ && top_)) return;
        rdd_compare(c_out_, rtl_out_, chk);
    }

    void step(uint64_t cycle)
    {
        const gm_selrep_rddb_out& o = use_c_ ? c_out_ : rtl_out_;
        seen_ = o;
        choose_inputs(cycle, o);
        if (use_c_) gm_selrep_rddb_tick(&model_, &in_);
        if (top_) put_inputs(in_);
    }

    std::string observe(uint64_t)
    {
        const gm_selrep_rddb_out& o = seen_;
        if (o.bw_valid) {
            stats_.results++;
            if (o.bw_acc == cnt_max_) stats_.sat_acc++;
            if (o.bw_hits == cnt_max_) stats_.sat_hits++;
            if (o.bw_max == cnt_max_) stats_.sat_req++;
            if (o.bw != 0) stats_.nonzero_bw++;
            if (o.bw_acc == 0 && o.bw_max != 0) blind_ = true;
        }
        if (o.deg_valid) {
            stats_.decisions++;
            if (o.deg >= p_.ndeg) return "decided degree index " + std::to_string(o.deg);
            if (pending_.empty()) return "a decision without an epoch";
            unsigned cand = pending_.front().first, keep = pending_.front().second;
            pending_.erase(pending_.begin());
            if (!((cand >> o.deg) & 1u) && o.deg != keep)
                return "decided degree index " + std::to_string(o.deg) +
                       ", neither a candidate nor the keep degree";
            if (blind_) {
                stats_.blind++;
                if (o.deg != keep)
                    return "an epoch with requests but no sampled access decided degree index " +
                           std::to_string(o.deg) + ", not the keep degree " +
                           std::to_string(keep);
            }
            blind_ = false;
            if (o.deg != keep) stats_.changes++;
            stats_.by_deg[o.deg]++;
        }
        return "";
    }

    bool done(uint64_t cycle)
    {
        return cycle >= cycles_ && !seen_.busy && !in_.epoch;
    }

    std::string final_check()
    {
        if (stats_.decisions == 0) return "no decision completed";
        if (knobs_.need_sat && (stats_.sat_acc == 0 || stats_.sat_req == 0 || stats_.sat_hits == 0))
            return "the stimulus never saturated the access, hit and request counters "
                   "(raise --cycles or knob long_gap)";
        if (knobs_.empty && stats_.blind == 0)
            return "no epoch had requests without a sampled access (raise knob empty or lane)";
        return "";
    }

    void summary(FILE* f)
    {
        std::fprintf(f,
                     "stimulus: accesses %" PRIu64 " request lanes %" PRIu64 " epochs %" PRIu64
                     " decisions %" PRIu64 " (changed %" PRIu64 "), results %" PRIu64
                     " (B > 0: %" PRIu64 "), saturated acc %" PRIu64 " hits %" PRIu64
                     " req %" PRIu64 ", empty epochs %" PRIu64 "\n",
                     stats_.accesses, stats_.lanes, stats_.epochs, stats_.decisions,
                     stats_.changes, stats_.results, stats_.nonzero_bw, stats_.sat_acc,
                     stats_.sat_hits, stats_.sat_req, stats_.blind);
        std::fprintf(f, "decisions by degree index:");
        for (unsigned d = 0; d < p_.ndeg; d++) std::fprintf(f, " %" PRIu64, stats_.by_deg[d]);
        std::fprintf(f, "\n");
    }

private:
    struct Stats {
        uint64_t accesses = 0, lanes = 0, epochs = 0, decisions = 0, changes = 0, results = 0,
                 nonzero_bw = 0, sat_acc = 0, sat_hits = 0, sat_req = 0, blind = 0;
        uint64_t by_deg[GM_SELREP_MAX_DEG] = {};
    };

    RddKnobs knobs(const Options& opt)
    {
        RddKnobs k;
        RddRng r(opt.seed ^ 0x5E1Eull);
        k.acc = 300 + r.below(700);
        k.hot = 500 + r.below(500);
        k.lane = 100 + r.below(900);
        k.garbage = r.chance(500) ? r.below(1000) : 0;
        for (const std::string& a : opt.knobs) {
            std::string err = k.set(a);
            if (!err.empty()) {
                std::fprintf(stderr, "%s\n", err.c_str());
                std::exit(2);
            }
        }
        return k;
    }

    // Cycles to the next epoch end: short, or long enough for the access
    // counter to pass its maximum at this access rate.
    // A long epoch also concentrates its stimulus (tags from a pool that
    // fits a set, so nearly every access hits; homes mostly one slice) so
    // that hit and request counters saturate too, not only the access
    // counter.
    uint64_t gap()
    {
        // The second epoch is always a long one (when long_gap > 0), so
        // that every run of the default length saturates.
        sat_ = knobs_.long_gap && (stats_.epochs == 1 || rng_.chance(knobs_.long_gap));
        empty_ = !sat_ && knobs_.empty && (stats_.epochs == 2 || rng_.chance(knobs_.empty));
        if (empty_) return 50 + rng_.below(knobs_.short_max ? knobs_.short_max : 1);
        if (sat_) {
            // Twice the counter range: with every lane valid the sum of a
            // degree's request counters then passes half its maximum.
            uint64_t need = (uint64_t)(cnt_max_ + 1);
            sat_home_ = rng_.below(p_.slices);
            // The decision's own cycles count too: inputs wait while busy.
            return gm_selrep_rddb_latency(&model_) + 2 * need +
                   rng_.below(static_cast<unsigned>(need / 2 + 1)) + 1;
        }
        // Some medium epochs, so that products such as max * acc take
        // values between those of short and saturating epochs.
        if (rng_.chance(150)) return 400 + rng_.below(6000);
        return 1 + rng_.below(knobs_.short_max ? knobs_.short_max : 1);
    }

    uint16_t bandwidth()
    {
        switch (rng_.below(8)) {
        case 0: return 0;
        case 1: return 1;
        case 2: return 1023;
        default: return static_cast<uint16_t>(rng_.below(1024));
        }
    }

    void choose_inputs(uint64_t cycle, const gm_selrep_rddb_out& o)
    {
        in_ = gm_selrep_rddb_in{};
        bool stim = cycle < cycles_;
        if (stim && !empty_ && (sat_ || rng_.chance(knobs_.acc))) {
            in_.acc_valid = 1;
            in_.acc_set = rng_.below(p_.sets);
            unsigned pool = sat_ ? (p_.ways < 4 ? p_.ways : 4) : (unsigned)hot_.size();
            in_.acc_tag = (sat_ || rng_.chance(knobs_.hot)) ? hot_[rng_.below(pool)]
                                                            : (rng_.next() & tag_mask_);
            in_.acc_cluster = static_cast<uint8_t>(rng_.below(p_.clusters));
            if (!o.busy) stats_.accesses++;
        }
        for (unsigned k = 0; k < p_.lanes; k++) {
            if (stim && (sat_ || rng_.chance(knobs_.lane))) {
                in_.req_valid[k] = 1;
                in_.req_home[k] = static_cast<uint8_t>(
                    sat_ && rng_.chance(900) ? sat_home_ : rng_.below(p_.slices));
                in_.req_cluster[k] = static_cast<uint8_t>(rng_.below(p_.clusters));
                if (!o.busy) stats_.lanes++;
            }
        }
        if (stim && !o.busy && cycle >= next_epoch_) {
            in_.epoch = 1;
            unsigned all = (1u << p_.ndeg) - 1;
            in_.cand = static_cast<uint8_t>(rng_.chance(knobs_.full_cand) ? all
                                                                          : rng_.below(all + 1));
            in_.keep = static_cast<uint8_t>(rng_.below(p_.ndeg));
            in_.b_llc = bandwidth();
            in_.b_mem = bandwidth();
            pending_.push_back({in_.cand, in_.keep});
            stats_.epochs++;
            next_epoch_ = cycle + gap();
        }
        if (rng_.chance(knobs_.garbage)) {
            uint64_t x = rng_.next();
            if (!in_.acc_valid) {
                in_.acc_set = static_cast<uint32_t>(x & 0xffff);   // masked to SetW below
                in_.acc_tag = x;
                in_.acc_cluster = static_cast<uint8_t>(x >> 40);
            }
            for (unsigned k = 0; k < p_.lanes; k++)
                if (!in_.req_valid[k]) {
                    in_.req_home[k] = static_cast<uint8_t>(x >> (8 + k));
                    in_.req_cluster[k] = static_cast<uint8_t>(x >> (16 + k));
                }
            if (!in_.epoch) {
                in_.cand = static_cast<uint8_t>(x >> 24);
                in_.keep = static_cast<uint8_t>(x >> 32);
                in_.b_llc = static_cast<uint16_t>((x >> 44) & 1023);
                in_.b_mem = static_cast<uint16_t>((x >> 54) & 1023);
            }
            // Junk is only what the port can carry: the C model sees the
            // same field widths as the RTL.
            unsigned setw = rdd_safe_clog2(p_.sets), degw = rdd_safe_clog2(p_.ndeg);
            if (!in_.acc_valid) {
                in_.acc_set &= (1u << setw) - 1;
                in_.acc_tag &= tag_mask_;
                in_.acc_cluster &= (1u << clw_) - 1;
            }
            for (unsigned k = 0; k < p_.lanes; k++) {
                in_.req_home[k] &= (1u << slw_) - 1;
                in_.req_cluster[k] &= (1u << clw_) - 1;
            }
            if (!in_.epoch) {
                in_.cand &= (1u << p_.ndeg) - 1;
                in_.keep &= (1u << degw) - 1;
            }
        }
    }

    void put_inputs(const gm_selrep_rddb_in& in) { rdd_put_inputs(top_, p_, in); }
    void get_outputs(gm_selrep_rddb_out* o) { rdd_get_outputs(top_, o); }

    VTop* top_;
    bool use_c_;
    uint64_t cycles_;
    gm_selrep_rddb_params p_;
    RddRng rng_;
    RddKnobs knobs_;
    gm_selrep_rddb model_{};
    gm_selrep_rddb_in in_{};
    gm_selrep_rddb_out c_out_{}, rtl_out_{}, seen_{};
    unsigned slw_ = 1, clw_ = 1;
    uint32_t cnt_max_ = 0;
    uint64_t tag_mask_ = 0;
    std::vector<uint64_t> hot_;
    uint64_t next_epoch_ = 0;
    std::vector<std::pair<unsigned, unsigned>> pending_;  // (cand, keep) of epochs started
    bool sat_ = false;
    bool empty_ = false;  // this epoch gets no sampled access
    bool blind_ = false;  // the decision under way has requests but acc = 0
    unsigned sat_home_ = 0;  // the slice a long epoch's requests mostly go to  // this epoch is long: concentrate the stimulus to saturate
    Stats stats_;
};

template <class VTop>
int run_rdd(const Options& opt, const RddConfig& cfg)
{
    return run_lockstep<VTop, RddBench<VTop>>(opt, cfg);
}

}  // namespace gm_tb

#endif
