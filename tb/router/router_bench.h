// Lockstep bench of the crossbar router: the C model (cmodel/noc/router.h)
// against the Verilated gm_router (rtl/gm_router.sv), with RouterDriver as
// the environment. See tb/common/lockstep.h for the Bench interface.
//
// Port mapping: C field `in[i].flit_vc` is Verilog port in_flit_vc_i bits
// [i*VCW +: VCW], and so on for every field (rtl/gm_router.sv header).
#ifndef GM_TB_ROUTER_BENCH_H
#define GM_TB_ROUTER_BENCH_H

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../common/lockstep.h"
#include "../common/vl_bits.h"
#include "router_driver.h"

extern "C" {
#include "noc/router.h"
}

namespace gm_tb {

struct RouterConfig {
    gm_router_cfg cfg;
    unsigned mutation;  // Verilog parameter Mutation of this build (0: none)
};

// Port widths of docs/noc.md section 2.
inline unsigned router_vcw(const gm_router_cfg& c)
{
    unsigned w = 0;
    while ((1u << w) < c.vcs) w++;
    return w ? w : 1;
}
inline unsigned router_dw(const gm_router_cfg& c)
{
    unsigned w = 0;
    while ((1u << w) < c.n_out) w++;
    return w ? w : 1;
}

// Writes the C input struct to the Verilated ports and reads the
// Verilated outputs into the C output struct; shared with the SystemC top
// through the same field order.
template <class VTop>
void router_put_inputs(VTop* top, const gm_router_cfg& c, const gm_router_in& in)
{
    const unsigned vcw = router_vcw(c), dw = router_dw(c);
    for (unsigned i = 0; i < c.n_in; i++) {
        const gm_router_flit& f = in.in[i];
        put_bits(top->in_flit_valid_i, i, 1, f.flit_valid);
        put_bits(top->in_flit_vc_i, i * vcw, vcw, f.flit_vc);
        put_bits(top->in_flit_head_i, i, 1, f.flit_head);
        put_bits(top->in_flit_tail_i, i, 1, f.flit_tail);
        put_bits(top->in_flit_dest_i, i * dw, dw, f.flit_dest);
        put_bits(top->in_flit_seq_i, i * 8, 8, f.flit_seq);
        put_bits(top->in_flit_payload_i, i * 32, 32, f.flit_payload);
    }
    for (unsigned o = 0; o < c.n_out; o++) {
        put_bits(top->out_credit_valid_i, o, 1, in.out[o].credit_valid);
        put_bits(top->out_credit_vc_i, o * vcw, vcw, in.out[o].credit_vc);
    }
}

template <class VTop>
void router_get_outputs(const VTop* top, const gm_router_cfg& c, gm_router_out* out)
{
    const unsigned vcw = router_vcw(c), dw = router_dw(c);
    for (unsigned o = 0; o < c.n_out; o++) {
        gm_router_flit& f = out->out[o];
        f.flit_valid = static_cast<uint8_t>(get_bits(top->out_flit_valid_o, o, 1));
        f.flit_vc = static_cast<uint8_t>(get_bits(top->out_flit_vc_o, o * vcw, vcw));
        f.flit_head = static_cast<uint8_t>(get_bits(top->out_flit_head_o, o, 1));
        f.flit_tail = static_cast<uint8_t>(get_bits(top->out_flit_tail_o, o, 1));
        f.flit_dest = static_cast<uint16_t>(get_bits(top->out_flit_dest_o, o * dw, dw));
        f.flit_seq = static_cast<uint8_t>(get_bits(top->out_flit_seq_o, o * 8, 8));
        f.flit_payload = static_cast<uint32_t>(get_bits(top->out_flit_payload_o, o * 32, 32));
    }
    for (unsigned i = 0; i < c.n_in; i++) {
        out->in[i].credit_valid = static_cast<uint8_t>(get_bits(top->in_credit_valid_o, i, 1));
        out->in[i].credit_vc = static_cast<uint8_t>(get_bits(top->in_credit_vc_o, i * vcw, vcw));
    }
}

// Compares every field of every port of one cycle.
inline void router_compare(const gm_router_cfg& c, const gm_router_out& exp,
                           const gm_router_out& act, Checker& chk)
{
    for (unsigned o = 0; o < c.n_out; o++) {
        const gm_router_flit &e = exp.out[o], &a = act.out[o];
        chk.expect("out", o, "flit_valid", e.flit_valid, a.flit_valid);
        chk.expect("out", o, "flit_vc", e.flit_vc, a.flit_vc);
        chk.expect("out", o, "flit_head", e.flit_head, a.flit_head);
        chk.expect("out", o, "flit_tail", e.flit_tail, a.flit_tail);
        chk.expect("out", o, "flit_dest", e.flit_dest, a.flit_dest);
        chk.expect("out", o, "flit_seq", e.flit_seq, a.flit_seq);
        chk.expect("out", o, "flit_payload", e.flit_payload, a.flit_payload);
    }
    for (unsigned i = 0; i < c.n_in; i++) {
        chk.expect("in", i, "credit_valid", exp.in[i].credit_valid, act.in[i].credit_valid);
        chk.expect("in", i, "credit_vc", exp.in[i].credit_vc, act.in[i].credit_vc);
    }
}

template <class VTop>
class RouterBench {
public:
    using Config = RouterConfig;

    RouterBench(const Options& opt, const RouterConfig& rc, VTop* top)
        : cfg_(rc.cfg), top_(top), use_c_(opt.mode != Mode::kRtlOnly || !top),
          driver_(rc.cfg, opt.seed, knobs(opt), opt.cycles)
    {
        gm_error err;
        if (gm_router_init(&model_, &cfg_, &err) != 0 ||
            gm_router_ports_init(&in_, &c_out_, &cfg_, &err) != 0 ||
            gm_router_ports_init(&scratch_in_, &rtl_out_, &cfg_, &err) != 0) {
            std::fprintf(stderr, "router bench: %s\n", err.msg);
            std::exit(2);
        }
        if (!opt.quiet) {
            std::printf("router: %ux%u vcs %u depth %u stages %u iters %u mutation %u\n",
                        cfg_.n_in, cfg_.n_out, cfg_.vcs, cfg_.depth, cfg_.stages, cfg_.iters,
                        rc.mutation);
            std::printf("%s\n", knobs(opt).describe().c_str());
        }
    }
    ~RouterBench()
    {
        gm_router_ports_free(&in_, &c_out_);
        gm_router_ports_free(&scratch_in_, &rtl_out_);
        gm_router_free(&model_);
    }
    RouterBench(const RouterBench&) = delete;
    RouterBench& operator=(const RouterBench&) = delete;

    void drive_idle() { router_put_inputs(top_, cfg_, scratch_in_); }  // all zero

    void compare(uint64_t cycle, Checker& chk)
    {
        (void)cycle;
        if (use_c_) gm_router_eval(&model_, &c_out_);
        if (top_) router_get_outputs(top_, cfg_, &rtl_out_);
        if (use_c_ && top_) router_compare(cfg_, c_out_, rtl_out_, chk);
    }

    void step(uint64_t cycle)
    {
        driver_.drive(cycle, visible(), &in_);
        if (use_c_) {
            gm_router_tick(&model_, &in_);
            count_grants();
        }
        if (top_) router_put_inputs(top_, cfg_, in_);
    }

    std::string observe(uint64_t cycle) { return driver_.commit(cycle, in_, visible()); }

    bool done(uint64_t cycle)
    {
        bool empty = driver_.drained(cycle) && (!use_c_ || gm_router_idle(&model_));
        quiet_cycles_ = empty ? quiet_cycles_ + 1 : 0;
        return quiet_cycles_ > 4;  // a few idle cycles compared after the drain
    }

    std::string final_check()
    {
        if (!driver_.drained(~0ull)) return driver_.pending_report();
        if (use_c_) {
            gm_error err;
            if (gm_router_check_drained(&model_, &err) != 0) return err.msg;
        }
        return "";
    }

    void summary(FILE* f)
    {
        const RouterDriverStats& s = driver_.stats();
        std::fprintf(f,
                     "stimulus: packets %" PRIu64 "/%" PRIu64 " flits in %" PRIu64 " out %" PRIu64
                     " credits up %" PRIu64 " down %" PRIu64 " idle-stretches %" PRIu64
                     " stalls %" PRIu64 " max-latency %" PRIu64 "\n",
                     s.packets_done, s.packets_made, s.flits_in, s.flits_out, s.credits_up,
                     s.credits_down, s.idle_stretches, s.stalls, s.max_latency);
        if (use_c_)
            std::fprintf(f,
                         "allocations (C): va %" PRIu64 " (iteration >= 1: %" PRIu64
                         ", >1 per port in a cycle: %" PRIu64 ") sa %" PRIu64
                         " active ticks %" PRIu64 "\n",
                         model_.va_grant_count, va_late_, va_multi_, model_.sa_grant_count,
                         model_.ticks_active);
    }

private:
    static RouterKnobs knobs(const Options& opt)
    {
        RouterKnobs k = RouterKnobs::random(opt.seed);
        for (const std::string& a : opt.knobs) {
            if (a == "help=1") {
                std::printf("%s", RouterKnobs::help().c_str());
                std::exit(0);
            }
            std::string err = k.set(a);
            if (!err.empty()) {
                std::fprintf(stderr, "%s\n", err.c_str());
                std::exit(2);
            }
        }
        return k;
    }

    const gm_router_out& visible() const { return use_c_ ? c_out_ : rtl_out_; }

    // Functional coverage of the allocator from the C observation record:
    // matches in later iSLIP iterations and ports granting several VCs at once.
    void count_grants()
    {
        uint32_t last_port = ~0u, same = 0;
        for (uint32_t k = 0; k < model_.n_va_grants; k++) {
            const gm_router_va_grant& g = model_.va_grants[k];
            if (g.iter) va_late_++;
            uint32_t port = g.out_vc / cfg_.vcs;
            same = port == last_port ? same + 1 : 0;
            if (same == 1) va_multi_++;
            last_port = port;
        }
    }

    gm_router_cfg cfg_;
    VTop* top_;
    bool use_c_;
    gm_router model_{};
    gm_router_in in_{}, scratch_in_{};
    gm_router_out c_out_{}, rtl_out_{};
    RouterDriver driver_;
    unsigned quiet_cycles_ = 0;
    uint64_t va_late_ = 0, va_multi_ = 0;
};

template <class VTop>
int run_router(const Options& opt, const RouterConfig& rc)
{
    return run_lockstep<VTop, RouterBench<VTop>>(opt, rc);
}

}  // namespace gm_tb

#endif
