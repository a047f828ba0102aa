// Lockstep bench of the CCN shadow tags: the C model gm_shadow_tags
// (cmodel/designs/ccn/ccn_shadow.h) against the Verilated gm_shadow_tags
// (rtl/gm_shadow_tags.sv). See tb/common/lockstep.h for the Bench
// interface.
//
// The environment plays the L1 and the ring with seeded randomness: tag
// updates on both write ports (allocations and invalidations, often both
// ports on one entry, so the port order matters), lookups of tags drawn
// from a small per-run pool (so they hit often, including tags of all ones
// and zero), idle stretches, and junk on every field whose valid bit is 0.
// It also keeps its own copy of the array (a third model, written here)
// and checks every answer against it, so a bug common to the C and the
// RTL model is caught too.
#ifndef GM_TB_SHADOW_BENCH_H
#define GM_TB_SHADOW_BENCH_H

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../common/bench_knobs.h"
#include "../common/bench_rng.h"
#include "../common/lockstep.h"

extern "C" {
#include "designs/ccn/ccn_shadow.h"
}

namespace gm_tb {

struct ShadowConfig {
    unsigned sets, ways, tag_bits;
    unsigned mutation;  // Verilog parameter Mutation of this build (0: none)
};

// Stimulus probabilities in parts per 1000; --knob k=v overrides.
struct ShadowKnobs {
    unsigned wr0 = 400;      // write port 0 active
    unsigned wr1 = 300;      // write port 1 active
    unsigned same = 300;     // port 1 writes port 0's entry
    unsigned inval = 300;    // a write invalidates (else installs a tag)
    unsigned lookup = 700;   // a lookup is presented
    unsigned idle = 10;      // an idle stretch starts
    unsigned garbage = 300;  // junk on fields whose valid bit is 0

    std::string set(const std::string& kv) { return knob_set(*this, fields(), 1000, kv); }
    std::string describe() const { return knob_describe(*this, fields()); }
    static std::vector<KnobField<ShadowKnobs>> fields()
    {
        return {
            {"wr0", &ShadowKnobs::wr0},
            {"wr1", &ShadowKnobs::wr1},
            {"same", &ShadowKnobs::same},
            {"inval", &ShadowKnobs::inval},
            {"lookup", &ShadowKnobs::lookup},
            {"idle", &ShadowKnobs::idle},
            {"garbage", &ShadowKnobs::garbage},
        };
    }
};

struct ShadowRng : BenchRng {
    explicit ShadowRng(uint64_t seed) : BenchRng(seed, 7) {}
};

template <class VTop>
void shadow_put_inputs(VTop* top, const gm_shadow_tags_in& in)
{
    top->wr0_valid_i = in.wr0_valid;
    top->wr0_set_i = in.wr0_set;
    top->wr0_way_i = in.wr0_way;
    top->wr0_tag_valid_i = in.wr0_tag_valid;
    top->wr0_tag_i = in.wr0_tag;
    top->wr1_valid_i = in.wr1_valid;
    top->wr1_set_i = in.wr1_set;
    top->wr1_way_i = in.wr1_way;
    top->wr1_tag_valid_i = in.wr1_tag_valid;
    top->wr1_tag_i = in.wr1_tag;
    top->lk_valid_i = in.lk_valid;
    top->lk_set_i = in.lk_set;
    top->lk_tag_i = in.lk_tag;
}

template <class VTop>
void shadow_get_outputs(const VTop* top, gm_shadow_tags_out* o)
{
    o->lk_done = top->lk_done_o;
    o->lk_hit = top->lk_hit_o;
    o->lk_way = top->lk_way_o;
    o->steal = top->steal_o;
}

inline void shadow_compare(const gm_shadow_tags_out& e, const gm_shadow_tags_out& a,
                           Checker& chk)
{
    chk.expect("lk", 0, "lk_done", e.lk_done, a.lk_done);
    chk.expect("lk", 0, "lk_hit", e.lk_hit, a.lk_hit);
    chk.expect("lk", 0, "lk_way", e.lk_way, a.lk_way);
    chk.expect("steal", 0, "steal", e.steal, a.steal);
}

template <class VTop>
class ShadowBench {
public:
    using Config = ShadowConfig;

    ShadowBench(const Options& opt, const ShadowConfig& cfg, VTop* top)
        : top_(top), use_c_(opt.mode != Mode::kRtlOnly || !top), cycles_(opt.cycles),
          cfg_(cfg), rng_(opt.seed), knobs_(knobs(opt)),
          valid_(static_cast<size_t>(cfg.sets) * cfg.ways, 0),
          tag_(static_cast<size_t>(cfg.sets) * cfg.ways, 0)
    {
        gm_error err;
        if (gm_shadow_tags_init(&model_, cfg.sets, cfg.ways, cfg.tag_bits, &err) != 0) {
            std::fprintf(stderr, "shadow bench: %s\n", err.msg);
            std::exit(2);
        }
        uint64_t mask = tag_mask();
        pool_ = {0, mask, 1 & mask, rng_.next() & mask, rng_.next() & mask, rng_.next() & mask};
        if (!opt.quiet)
            std::printf("shadow: %u sets x %u ways, %u-bit tags, mutation %u\n%s\n", cfg.sets,
                        cfg.ways, cfg.tag_bits, cfg.mutation, knobs_.describe().c_str());
    }
    ~ShadowBench() { gm_shadow_tags_free(&model_); }
    ShadowBench(const ShadowBench&) = delete;
    ShadowBench& operator=(const ShadowBench&) = delete;

    void drive_idle()
    {
        gm_shadow_tags_in zero{};
        shadow_put_inputs(top_, zero);
    }

    void compare(uint64_t, Checker& chk)
    {
        if (use_c_) gm_shadow_tags_eval(&model_, &c_out_);
        if (top_) shadow_get_outputs(top_, &rtl_out_);
        if (use_c_ && top_) shadow_compare(c_out_, rtl_out_, chk);
    }

    void step(uint64_t cycle)
    {
        seen_ = use_c_ ? c_out_ : rtl_out_;
        choose_inputs(cycle);
        if (use_c_) gm_shadow_tags_tick(&model_, &in_);
        if (top_) shadow_put_inputs(top_, in_);
    }

    // The environment's own model: the answer seen in this cycle must be
    // the one it predicted for the lookup of the last cycle; then this
    // cycle's writes and lookup are applied to it.
    std::string observe(uint64_t)
    {
        const gm_shadow_tags_out& o = seen_;
        if (o.lk_done != want_.lk_done || o.lk_hit != want_.lk_hit ||
            o.lk_way != want_.lk_way || o.steal != want_.steal) {
            char b[200];
            std::snprintf(b, sizeof b, "answer done %u hit %u way %u steal %u, the "
                          "environment's model expects %u %u %u %u", o.lk_done, o.lk_hit,
                          o.lk_way, o.steal, want_.lk_done, want_.lk_hit, want_.lk_way,
                          want_.steal);
            return b;
        }
        hits_ += o.lk_hit;
        lookups_ += o.lk_done;
        write(in_.wr0_valid, in_.wr0_set, in_.wr0_way, in_.wr0_tag_valid, in_.wr0_tag);
        write(in_.wr1_valid, in_.wr1_set, in_.wr1_way, in_.wr1_tag_valid, in_.wr1_tag);
        want_ = gm_shadow_tags_out{};
        if (in_.lk_valid) {
            want_.lk_done = 1;
            for (unsigned w = 0; w < cfg_.ways; w++) {
                size_t i = static_cast<size_t>(in_.lk_set) * cfg_.ways + w;
                if (valid_[i] && tag_[i] == (in_.lk_tag & tag_mask())) {
                    want_.lk_hit = want_.steal = 1;
                    want_.lk_way = static_cast<uint8_t>(w);
                    break;
                }
            }
        }
        return "";
    }

    bool done(uint64_t cycle) { return cycle >= cycles_; }
    std::string final_check()
    {
        if (lookups_ > 100 && hits_ == 0) return "no lookup ever hit: the stimulus is broken";
        return "";
    }
    void summary(FILE* f)
    {
        std::fprintf(f, "stimulus: lookups %" PRIu64 " hits %" PRIu64 " writes %" PRIu64
                        " (same entry on both ports %" PRIu64 ")\n",
                     lookups_, hits_, writes_, same_);
    }

private:
    uint64_t tag_mask() const
    {
        return cfg_.tag_bits >= 64 ? ~0ull : (1ull << cfg_.tag_bits) - 1;
    }
    static ShadowKnobs knobs(const Options& opt)
    {
        ShadowKnobs k;
        ShadowRng r(opt.seed ^ 0x5AD0ull);
        k.wr0 = 100 + r.below(700);
        k.wr1 = r.below(600);
        k.lookup = 200 + r.below(800);
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
    void write(uint8_t en, uint16_t set, uint8_t way, uint8_t tv, uint64_t tag)
    {
        if (!en) return;
        size_t i = static_cast<size_t>(set) * cfg_.ways + way;
        valid_[i] = tv ? 1 : 0;
        tag_[i] = tag & tag_mask();
        writes_++;
    }
    uint64_t pick_tag() { return pool_[rng_.below(static_cast<unsigned>(pool_.size()))]; }
    void choose_inputs(uint64_t cycle)
    {
        in_ = gm_shadow_tags_in{};
        if (cycle >= cycles_) return;
        if (idle_left_ == 0 && rng_.chance(knobs_.idle)) idle_left_ = 10 + rng_.below(100);
        if (idle_left_) {
            idle_left_--;
            add_garbage();
            return;
        }
        if (rng_.chance(knobs_.wr0)) {
            in_.wr0_valid = 1;
            in_.wr0_set = static_cast<uint16_t>(rng_.below(cfg_.sets));
            in_.wr0_way = static_cast<uint8_t>(rng_.below(cfg_.ways));
            in_.wr0_tag_valid = !rng_.chance(knobs_.inval);
            in_.wr0_tag = pick_tag();
        }
        if (rng_.chance(knobs_.wr1)) {
            in_.wr1_valid = 1;
            bool same = in_.wr0_valid && rng_.chance(knobs_.same);
            same_ += same;
            in_.wr1_set = same ? in_.wr0_set : static_cast<uint16_t>(rng_.below(cfg_.sets));
            in_.wr1_way = same ? in_.wr0_way : static_cast<uint8_t>(rng_.below(cfg_.ways));
            in_.wr1_tag_valid = !rng_.chance(knobs_.inval);
            in_.wr1_tag = pick_tag();
        }
        if (rng_.chance(knobs_.lookup)) {
            in_.lk_valid = 1;
            // often the set just written, to meet the write forwarding
            in_.lk_set = in_.wr0_valid && rng_.chance(400)
                             ? in_.wr0_set
                             : static_cast<uint16_t>(rng_.below(cfg_.sets));
            in_.lk_tag = rng_.chance(300) && in_.wr0_valid ? in_.wr0_tag : pick_tag();
        }
        add_garbage();
    }
    // Junk (in range for the port's width and the array) on every field its
    // valid bit makes a don't-care.
    void add_garbage()
    {
        if (!rng_.chance(knobs_.garbage)) return;
        uint64_t x = rng_.next();
        if (!in_.wr0_valid) {
            in_.wr0_set = static_cast<uint16_t>(x % cfg_.sets);
            in_.wr0_way = static_cast<uint8_t>((x >> 16) % cfg_.ways);
            in_.wr0_tag_valid = (x >> 24) & 1;
            in_.wr0_tag = (x >> 25) & tag_mask();
        }
        if (!in_.wr1_valid) {
            in_.wr1_set = static_cast<uint16_t>((x >> 5) % cfg_.sets);
            in_.wr1_way = static_cast<uint8_t>((x >> 21) % cfg_.ways);
            in_.wr1_tag_valid = (x >> 29) & 1;
            in_.wr1_tag = (x >> 13) & tag_mask();
        }
        if (!in_.lk_valid) {
            in_.lk_set = static_cast<uint16_t>((x >> 33) % cfg_.sets);
            in_.lk_tag = pick_tag();
        }
    }

    VTop* top_;
    bool use_c_;
    uint64_t cycles_;
    ShadowConfig cfg_;
    ShadowRng rng_;
    ShadowKnobs knobs_;
    gm_shadow_tags model_{};
    gm_shadow_tags_in in_{};
    gm_shadow_tags_out c_out_{}, rtl_out_{}, seen_{}, want_{};
    std::vector<uint8_t> valid_;
    std::vector<uint64_t> tag_;
    std::vector<uint64_t> pool_;
    unsigned idle_left_ = 0;
    uint64_t hits_ = 0, lookups_ = 0, writes_ = 0, same_ = 0;
};

template <class VTop>
int run_shadow(const Options& opt, const ShadowConfig& cfg)
{
    return run_lockstep<VTop, ShadowBench<VTop>>(opt, cfg);
}

}  // namespace gm_tb

#endif
