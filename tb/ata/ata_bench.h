// Lockstep bench of the aggregated tag array: the C model gm_ata_tblk
// (cmodel/designs/ata/ata_tagblk.h) against the Verilated gm_ata_tags
// (rtl/gm_ata_tags.sv). See tb/common/lockstep.h for the Bench interface.
//
// The environment plays the cluster's L1s with seeded randomness: every
// cycle each request port may look up a (set, tag, sector mask) and each
// array may receive a fill, a touch or an invalidate. Tags come from a
// small pool per set (a little more than the ways), so lookups hit, fills
// replace, and the LRU order decides which line goes; sector masks are
// random so that the sector check matters. Fields beside a 0 valid bit
// carry junk (the block must ignore them). Besides the every-cycle
// compare, the bench keeps its own count of hits and evictions.
#ifndef GM_TB_ATA_BENCH_H
#define GM_TB_ATA_BENCH_H

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../common/bench_knobs.h"
#include "../common/bench_rng.h"
#include "../common/lockstep.h"
#include "../common/vl_bits.h"

extern "C" {
#include "designs/ata/ata_tagblk.h"
}

namespace gm_tb {

struct AtaConfig {
    unsigned arrays, sets, ways, tag_bits, ports, sectors;
    unsigned mutation;  // Verilog parameter Mutation of this build (0: none)
};

// Stimulus probabilities in parts per 1000, drawn per seed; --knob k=v
// overrides.
struct AtaKnobs {
    unsigned req = 600;      // a port looks up
    unsigned upd = 500;      // an array gets an update
    unsigned fill = 600;     // ... which is a fill (else touch or invalidate)
    unsigned inval = 150;    // ... an invalidate
    unsigned pool = 0;       // tags per set in the pool; 0 = ways + ways / 2 + 1
    unsigned garbage = 300;  // junk beside a 0 valid bit

    std::string set(const std::string& kv) { return knob_set(*this, fields(), 100000, kv); }
    std::string describe() const { return knob_describe(*this, fields()); }
    static std::vector<KnobField<AtaKnobs>> fields()
    {
        return {
            {"req", &AtaKnobs::req},
            {"upd", &AtaKnobs::upd},
            {"fill", &AtaKnobs::fill},
            {"inval", &AtaKnobs::inval},
            {"pool", &AtaKnobs::pool},
            {"garbage", &AtaKnobs::garbage},
        };
    }
};

struct AtaRng : BenchRng {
    explicit AtaRng(uint64_t seed) : BenchRng(seed, 7) {}
};

inline unsigned ata_safe_clog2(unsigned n)
{
    unsigned w = 1;
    while ((1u << w) < n) w++;
    return n > 1 ? w : 1;
}

template <class VTop>
void ata_put_inputs(VTop* top, const AtaConfig& c, const gm_ata_tblk_in& in)
{
    const unsigned sw = ata_safe_clog2(c.sets);
    for (unsigned p = 0; p < c.ports; p++) {
        put_bits(top->req_valid_i, p, 1, in.req_valid[p]);
        put_bits(top->req_set_i, p * sw, sw, in.req_set[p]);
        put_bits(top->req_tag_i, p * c.tag_bits, c.tag_bits, in.req_tag[p]);
        put_bits(top->req_sectors_i, p * c.sectors, c.sectors, in.req_sectors[p]);
    }
    for (unsigned n = 0; n < c.arrays; n++) {
        put_bits(top->upd_valid_i, n, 1, in.upd_valid[n]);
        put_bits(top->upd_op_i, n * 2, 2, in.upd_op[n]);
        put_bits(top->upd_set_i, n * sw, sw, in.upd_set[n]);
        put_bits(top->upd_tag_i, n * c.tag_bits, c.tag_bits, in.upd_tag[n]);
        put_bits(top->upd_sectors_i, n * c.sectors, c.sectors, in.upd_sectors[n]);
    }
}

template <class VTop>
void ata_get_outputs(const VTop* top, const AtaConfig& c, gm_ata_tblk_out* o)
{
    *o = gm_ata_tblk_out{};
    for (unsigned p = 0; p < c.ports; p++) {
        o->hit_valid[p] = static_cast<uint8_t>(get_bits(top->hit_valid_o, p, 1));
        o->hit_vec[p] = static_cast<uint32_t>(get_bits(top->hit_vec_o, p * c.arrays, c.arrays));
    }
    for (unsigned n = 0; n < c.arrays; n++) {
        o->evict_valid[n] = static_cast<uint8_t>(get_bits(top->evict_valid_o, n, 1));
        o->evict_tag[n] = get_bits(top->evict_tag_o, n * c.tag_bits, c.tag_bits);
    }
}

inline void ata_compare(const AtaConfig& c, const gm_ata_tblk_out& e, const gm_ata_tblk_out& a,
                        Checker& chk)
{
    for (unsigned p = 0; p < c.ports; p++) {
        chk.expect("hit", p, "hit_valid", e.hit_valid[p], a.hit_valid[p]);
        chk.expect("hit", p, "hit_vec", e.hit_vec[p], a.hit_vec[p]);
    }
    for (unsigned n = 0; n < c.arrays; n++) {
        chk.expect("evict", n, "evict_valid", e.evict_valid[n], a.evict_valid[n]);
        chk.expect("evict", n, "evict_tag", e.evict_tag[n], a.evict_tag[n]);
    }
}

template <class VTop>
class AtaBench {
public:
    using Config = AtaConfig;

    AtaBench(const Options& opt, const AtaConfig& cfg, VTop* top)
        : top_(top), cfg_(cfg), use_c_(opt.mode != Mode::kRtlOnly || !top),
          cycles_(opt.cycles), rng_(opt.seed), knobs_(knobs(opt, cfg))
    {
        gm_error err;
        if (gm_ata_tblk_init(&model_, cfg.arrays, cfg.sets, cfg.ways, cfg.tag_bits, cfg.ports,
                             cfg.sectors, &err) != 0) {
            std::fprintf(stderr, "ata bench: %s\n", err.msg);
            std::exit(2);
        }
        if (!opt.quiet) {
            std::printf("ata: %u arrays x %u sets x %u ways, tag %u bits, %u ports, %u sectors, "
                        "mutation %u\n%s\n", cfg.arrays, cfg.sets, cfg.ways, cfg.tag_bits,
                        cfg.ports, cfg.sectors, cfg.mutation, knobs_.describe().c_str());
        }
    }
    ~AtaBench() { gm_ata_tblk_free(&model_); }
    AtaBench(const AtaBench&) = delete;
    AtaBench& operator=(const AtaBench&) = delete;

    void drive_idle()
    {
        gm_ata_tblk_in zero{};
        ata_put_inputs(top_, cfg_, zero);
    }

    void compare(uint64_t, Checker& chk)
    {
        if (use_c_) gm_ata_tblk_eval(&model_, &c_out_);
        if (top_) ata_get_outputs(top_, cfg_, &rtl_out_);
        if (use_c_ && top_) ata_compare(cfg_, c_out_, rtl_out_, chk);
    }

    void step(uint64_t cycle)
    {
        choose_inputs(cycle);
        if (use_c_) gm_ata_tblk_tick(&model_, &in_);
        if (top_) ata_put_inputs(top_, cfg_, in_);
    }

    std::string observe(uint64_t)
    {
        const gm_ata_tblk_out& o = use_c_ ? c_out_ : rtl_out_;
        for (unsigned p = 0; p < cfg_.ports; p++) {
            if (!o.hit_valid[p] && o.hit_vec[p])
                return "port " + std::to_string(p) + " drives a hit vector without a request";
            if (o.hit_valid[p]) {
                stats_.lookups++;
                if (o.hit_vec[p]) stats_.hits++;
                if (o.hit_vec[p] & (o.hit_vec[p] - 1)) stats_.multi++;
            }
        }
        for (unsigned n = 0; n < cfg_.arrays; n++) stats_.evictions += o.evict_valid[n];
        for (unsigned n = 0; n < cfg_.arrays; n++)
            if (in_.upd_valid[n]) stats_.updates[in_.upd_op[n] % 3]++;
        return "";
    }

    bool done(uint64_t cycle) { return cycle >= cycles_ + 2; }

    std::string final_check()
    {
        // A stimulus that never hit or never evicted would prove little.
        if (cycles_ >= 2000 && (stats_.hits == 0 || stats_.evictions == 0))
            return "stimulus too weak: " + std::to_string(stats_.hits) + " hits, " +
                   std::to_string(stats_.evictions) + " evictions";
        return "";
    }

    void summary(FILE* f)
    {
        std::fprintf(f,
                     "stimulus: lookups %" PRIu64 " hitting %" PRIu64 " (in several arrays %"
                     PRIu64 ") fills %" PRIu64 " touches %" PRIu64 " invalidates %" PRIu64
                     " evictions %" PRIu64 "\n",
                     stats_.lookups, stats_.hits, stats_.multi, stats_.updates[GM_ATA_OP_FILL],
                     stats_.updates[GM_ATA_OP_TOUCH], stats_.updates[GM_ATA_OP_INVAL],
                     stats_.evictions);
    }

private:
    struct Stats {
        uint64_t lookups = 0, hits = 0, multi = 0, evictions = 0;
        uint64_t updates[3] = {0, 0, 0};
    };

    static AtaKnobs knobs(const Options& opt, const AtaConfig& cfg)
    {
        AtaKnobs k;
        AtaRng r(opt.seed ^ 0xA7A7ull);
        k.req = 200 + r.below(800);
        k.upd = 100 + r.below(700);
        k.fill = 300 + r.below(600);
        k.inval = r.below(300);
        k.pool = cfg.ways + cfg.ways / 2 + 1 + r.below(3);
        k.garbage = r.chance(500) ? r.below(1000) : 0;
        for (const std::string& a : opt.knobs) {
            std::string err = k.set(a);
            if (!err.empty()) {
                std::fprintf(stderr, "%s\n", err.c_str());
                std::exit(2);
            }
        }
        if (k.pool == 0) k.pool = cfg.ways + cfg.ways / 2 + 1;
        return k;
    }

    uint64_t tag_mask() const
    {
        return cfg_.tag_bits >= 64 ? ~0ull : (1ull << cfg_.tag_bits) - 1;
    }

    // A tag of the pool of set s: distinct for each (s, i) where the tag
    // width allows, with high bits that toggle.
    uint64_t pool_tag(unsigned s, unsigned i) const
    {
        uint64_t t = (static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull) ^ (s * 0x51ull);
        return t & tag_mask();
    }

    uint8_t random_mask()
    {
        uint8_t m = static_cast<uint8_t>(rng_.next() & ((1u << cfg_.sectors) - 1));
        return m ? m : 1;
    }

    void choose_inputs(uint64_t cycle)
    {
        in_ = gm_ata_tblk_in{};
        bool stimulus = cycle < cycles_;
        for (unsigned p = 0; p < cfg_.ports; p++) {
            if (stimulus && rng_.chance(knobs_.req)) {
                unsigned s = rng_.below(cfg_.sets);
                in_.req_valid[p] = 1;
                in_.req_set[p] = s;
                in_.req_tag[p] = pool_tag(s, rng_.below(knobs_.pool));
                in_.req_sectors[p] = rng_.chance(500)
                                         ? static_cast<uint8_t>((1u << cfg_.sectors) - 1)
                                         : random_mask();
            } else if (rng_.chance(knobs_.garbage)) {
                uint64_t x = rng_.next();
                in_.req_set[p] = static_cast<uint32_t>(x % cfg_.sets);
                in_.req_tag[p] = (x >> 8) & tag_mask();
                in_.req_sectors[p] = static_cast<uint8_t>((x >> 40) & ((1u << cfg_.sectors) - 1));
            }
        }
        for (unsigned n = 0; n < cfg_.arrays; n++) {
            if (stimulus && rng_.chance(knobs_.upd)) {
                unsigned s = rng_.below(cfg_.sets);
                in_.upd_valid[n] = 1;
                unsigned x = rng_.below(1000);
                in_.upd_op[n] = x < knobs_.fill ? GM_ATA_OP_FILL
                                : x < knobs_.fill + knobs_.inval ? GM_ATA_OP_INVAL
                                                                 : GM_ATA_OP_TOUCH;
                in_.upd_set[n] = s;
                in_.upd_tag[n] = pool_tag(s, rng_.below(knobs_.pool));
                in_.upd_sectors[n] = random_mask();
            } else if (rng_.chance(knobs_.garbage)) {
                uint64_t x = rng_.next();
                in_.upd_op[n] = static_cast<uint8_t>(x & 3u);
                in_.upd_set[n] = static_cast<uint32_t>((x >> 2) % cfg_.sets);
                in_.upd_tag[n] = (x >> 9) & tag_mask();
                in_.upd_sectors[n] =
                    static_cast<uint8_t>((x >> 50) & ((1u << cfg_.sectors) - 1));
            }
        }
    }

    VTop* top_;
    AtaConfig cfg_;
    bool use_c_;
    uint64_t cycles_;
    AtaRng rng_;
    AtaKnobs knobs_;
    gm_ata_tblk model_{};
    gm_ata_tblk_in in_{};
    gm_ata_tblk_out c_out_{}, rtl_out_{};
    Stats stats_;
};

template <class VTop>
int run_ata(const Options& opt, const AtaConfig& cfg)
{
    return run_lockstep<VTop, AtaBench<VTop>>(opt, cfg);
}

}  // namespace gm_tb

#endif
