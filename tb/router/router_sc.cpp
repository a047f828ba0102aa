// SystemC top: the Verilated router (verilator --sc, an SC_MODULE) and the
// C golden model wrapped as an SC_MODULE with the same pins, side by side on
// the same input signals, driven by the RouterDriver environment. Every
// output field of both is compared every cycle, as in the C++ lockstep
// harness. This is the starting point for users who put the router into a
// SystemC virtual platform: CRouterSc is a drop-in twin of Vrouter_sc.
//
//   gm_router_sc [--seed N] [--cycles N] [+verilator+rand+reset+N ...]
//
// Timing: one sc_clock (10 ns, rising edge first at 0). Both models act at
// the rising edge; the environment samples the outputs and drives the next
// inputs at the falling edge, so inputs never change with the clock.
// The parameterization is fixed at build time (GM_SC_* definitions, see
// tb/CMakeLists.txt).
#include <systemc.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "Vrouter_sc.h"
#include "verilated.h"
#include "router/router_bench.h"  // router_compare, Checker
#include "router/router_driver.h"

extern "C" {
#include "noc/router.h"
}

namespace {

using gm_tb::RouterDriver;
using gm_tb::RouterKnobs;

// The C++ type Verilator chose for a pin (bool, uint32_t, uint64_t or
// sc_bv<W> by width); the C model's pins use the same types.
template <class P>
using pin_t = typename std::remove_reference_t<P>::data_type;  // members are references
#define GM_PIN(name) pin_t<decltype(Vrouter_sc::name)>

uint64_t mask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

// Field [lsb +: w] of a pin value, for every pin type.
inline uint64_t get_field(bool v, unsigned, unsigned) { return v; }
inline uint64_t get_field(uint32_t v, unsigned lsb, unsigned w) { return (v >> lsb) & mask(w); }
inline uint64_t get_field(uint64_t v, unsigned lsb, unsigned w) { return (v >> lsb) & mask(w); }
template <int W>
uint64_t get_field(const sc_bv<W>& v, unsigned lsb, unsigned w)
{
    return v.range(lsb + w - 1, lsb).to_uint64();
}
inline void set_field(bool& v, unsigned, unsigned, uint64_t x) { v = x & 1; }
inline void set_field(uint32_t& v, unsigned lsb, unsigned w, uint64_t x)
{
    v = static_cast<uint32_t>((v & ~(mask(w) << lsb)) | ((x & mask(w)) << lsb));
}
inline void set_field(uint64_t& v, unsigned lsb, unsigned w, uint64_t x)
{
    v = (v & ~(mask(w) << lsb)) | ((x & mask(w)) << lsb);
}
template <int W>
void set_field(sc_bv<W>& v, unsigned lsb, unsigned w, uint64_t x)
{
    v.range(lsb + w - 1, lsb) = sc_bv<64>(static_cast<sc_dt::uint64>(x)).range(w - 1, 0);
}

unsigned width_of(unsigned n)
{
    unsigned w = 0;
    while ((1u << w) < n) w++;
    return w ? w : 1;
}

const gm_router_cfg kCfg = {GM_SC_N_IN, GM_SC_N_OUT, GM_SC_VCS, GM_SC_DEPTH, GM_SC_STAGES,
                            GM_SC_ITERS};
const unsigned kVcw = width_of(GM_SC_VCS);
const unsigned kDw = width_of(GM_SC_N_OUT);

// The router's pins as signals; one set of inputs, one set of outputs per model.
struct RouterInSignals {
    sc_signal<GM_PIN(in_flit_valid_i)> in_flit_valid;
    sc_signal<GM_PIN(in_flit_vc_i)> in_flit_vc;
    sc_signal<GM_PIN(in_flit_head_i)> in_flit_head;
    sc_signal<GM_PIN(in_flit_tail_i)> in_flit_tail;
    sc_signal<GM_PIN(in_flit_dest_i)> in_flit_dest;
    sc_signal<GM_PIN(in_flit_seq_i)> in_flit_seq;
    sc_signal<GM_PIN(in_flit_payload_i)> in_flit_payload;
    sc_signal<GM_PIN(out_credit_valid_i)> out_credit_valid;
    sc_signal<GM_PIN(out_credit_vc_i)> out_credit_vc;

    void write(const gm_router_in& in)
    {
        GM_PIN(in_flit_valid_i) valid{}, head{}, tail{};
        GM_PIN(in_flit_vc_i) vc{};
        GM_PIN(in_flit_dest_i) dest{};
        GM_PIN(in_flit_seq_i) seq{};
        GM_PIN(in_flit_payload_i) payload{};
        for (unsigned i = 0; i < kCfg.n_in; i++) {
            const gm_router_flit& f = in.in[i];
            set_field(valid, i, 1, f.flit_valid);
            set_field(vc, i * kVcw, kVcw, f.flit_vc);
            set_field(head, i, 1, f.flit_head);
            set_field(tail, i, 1, f.flit_tail);
            set_field(dest, i * kDw, kDw, f.flit_dest);
            set_field(seq, i * 8, 8, f.flit_seq);
            set_field(payload, i * 32, 32, f.flit_payload);
        }
        GM_PIN(out_credit_valid_i) cvalid{};
        GM_PIN(out_credit_vc_i) cvc{};
        for (unsigned o = 0; o < kCfg.n_out; o++) {
            set_field(cvalid, o, 1, in.out[o].credit_valid);
            set_field(cvc, o * kVcw, kVcw, in.out[o].credit_vc);
        }
        in_flit_valid.write(valid);
        in_flit_vc.write(vc);
        in_flit_head.write(head);
        in_flit_tail.write(tail);
        in_flit_dest.write(dest);
        in_flit_seq.write(seq);
        in_flit_payload.write(payload);
        out_credit_valid.write(cvalid);
        out_credit_vc.write(cvc);
    }
};

struct RouterOutSignals {
    sc_signal<GM_PIN(out_flit_valid_o)> out_flit_valid;
    sc_signal<GM_PIN(out_flit_vc_o)> out_flit_vc;
    sc_signal<GM_PIN(out_flit_head_o)> out_flit_head;
    sc_signal<GM_PIN(out_flit_tail_o)> out_flit_tail;
    sc_signal<GM_PIN(out_flit_dest_o)> out_flit_dest;
    sc_signal<GM_PIN(out_flit_seq_o)> out_flit_seq;
    sc_signal<GM_PIN(out_flit_payload_o)> out_flit_payload;
    sc_signal<GM_PIN(in_credit_valid_o)> in_credit_valid;
    sc_signal<GM_PIN(in_credit_vc_o)> in_credit_vc;

    void read(gm_router_out* out) const
    {
        for (unsigned o = 0; o < kCfg.n_out; o++) {
            gm_router_flit& f = out->out[o];
            f.flit_valid = static_cast<uint8_t>(get_field(out_flit_valid.read(), o, 1));
            f.flit_vc = static_cast<uint8_t>(get_field(out_flit_vc.read(), o * kVcw, kVcw));
            f.flit_head = static_cast<uint8_t>(get_field(out_flit_head.read(), o, 1));
            f.flit_tail = static_cast<uint8_t>(get_field(out_flit_tail.read(), o, 1));
            f.flit_dest = static_cast<uint16_t>(get_field(out_flit_dest.read(), o * kDw, kDw));
            f.flit_seq = static_cast<uint8_t>(get_field(out_flit_seq.read(), o * 8, 8));
            f.flit_payload = static_cast<uint32_t>(get_field(out_flit_payload.read(), o * 32, 32));
        }
        for (unsigned i = 0; i < kCfg.n_in; i++) {
            out->in[i].credit_valid = static_cast<uint8_t>(get_field(in_credit_valid.read(), i, 1));
            out->in[i].credit_vc =
                static_cast<uint8_t>(get_field(in_credit_vc.read(), i * kVcw, kVcw));
        }
    }
};

// The C golden model as an SC_MODULE with the Verilated model's pins.
SC_MODULE(CRouterSc) {
    sc_in<bool> clk_i;
    sc_in<bool> rst_ni;
    sc_in<GM_PIN(in_flit_valid_i)> in_flit_valid_i;
    sc_in<GM_PIN(in_flit_vc_i)> in_flit_vc_i;
    sc_in<GM_PIN(in_flit_head_i)> in_flit_head_i;
    sc_in<GM_PIN(in_flit_tail_i)> in_flit_tail_i;
    sc_in<GM_PIN(in_flit_dest_i)> in_flit_dest_i;
    sc_in<GM_PIN(in_flit_seq_i)> in_flit_seq_i;
    sc_in<GM_PIN(in_flit_payload_i)> in_flit_payload_i;
    sc_in<GM_PIN(out_credit_valid_i)> out_credit_valid_i;
    sc_in<GM_PIN(out_credit_vc_i)> out_credit_vc_i;
    sc_out<GM_PIN(out_flit_valid_o)> out_flit_valid_o;
    sc_out<GM_PIN(out_flit_vc_o)> out_flit_vc_o;
    sc_out<GM_PIN(out_flit_head_o)> out_flit_head_o;
    sc_out<GM_PIN(out_flit_tail_o)> out_flit_tail_o;
    sc_out<GM_PIN(out_flit_dest_o)> out_flit_dest_o;
    sc_out<GM_PIN(out_flit_seq_o)> out_flit_seq_o;
    sc_out<GM_PIN(out_flit_payload_o)> out_flit_payload_o;
    sc_out<GM_PIN(in_credit_valid_o)> in_credit_valid_o;
    sc_out<GM_PIN(in_credit_vc_o)> in_credit_vc_o;

    SC_CTOR(CRouterSc)
    {
        gm_error err;
        if (gm_router_init(&model_, &kCfg, &err) != 0 ||
            gm_router_ports_init(&in_, &out_, &kCfg, &err) != 0) {
            std::fprintf(stderr, "CRouterSc: %s\n", err.msg);
            std::exit(2);
        }
        SC_METHOD(edge);
        sensitive << clk_i.pos();
        dont_initialize();
    }
    ~CRouterSc()
    {
        gm_router_ports_free(&in_, &out_);
        gm_router_free(&model_);
    }

    // Rising edge: synchronous reset, or one tick; then the Moore outputs.
    void edge()
    {
        if (!rst_ni.read()) {
            gm_error err;
            gm_router_free(&model_);
            if (gm_router_init(&model_, &kCfg, &err) != 0) std::exit(2);
        } else {
            for (unsigned i = 0; i < kCfg.n_in; i++) {
                gm_router_flit& f = in_.in[i];
                f.flit_valid = static_cast<uint8_t>(get_field(in_flit_valid_i.read(), i, 1));
                f.flit_vc = static_cast<uint8_t>(get_field(in_flit_vc_i.read(), i * kVcw, kVcw));
                f.flit_head = static_cast<uint8_t>(get_field(in_flit_head_i.read(), i, 1));
                f.flit_tail = static_cast<uint8_t>(get_field(in_flit_tail_i.read(), i, 1));
                f.flit_dest = static_cast<uint16_t>(get_field(in_flit_dest_i.read(), i * kDw, kDw));
                f.flit_seq = static_cast<uint8_t>(get_field(in_flit_seq_i.read(), i * 8, 8));
                f.flit_payload =
                    static_cast<uint32_t>(get_field(in_flit_payload_i.read(), i * 32, 32));
            }
            for (unsigned o = 0; o < kCfg.n_out; o++) {
                in_.out[o].credit_valid =
                    static_cast<uint8_t>(get_field(out_credit_valid_i.read(), o, 1));
                in_.out[o].credit_vc =
                    static_cast<uint8_t>(get_field(out_credit_vc_i.read(), o * kVcw, kVcw));
            }
            gm_router_tick(&model_, &in_);
        }
        gm_router_eval(&model_, &out_);
        GM_PIN(out_flit_valid_o) valid{}, head{}, tail{};
        GM_PIN(out_flit_vc_o) vc{};
        GM_PIN(out_flit_dest_o) dest{};
        GM_PIN(out_flit_seq_o) seq{};
        GM_PIN(out_flit_payload_o) payload{};
        for (unsigned o = 0; o < kCfg.n_out; o++) {
            const gm_router_flit& f = out_.out[o];
            set_field(valid, o, 1, f.flit_valid);
            set_field(vc, o * kVcw, kVcw, f.flit_vc);
            set_field(head, o, 1, f.flit_head);
            set_field(tail, o, 1, f.flit_tail);
            set_field(dest, o * kDw, kDw, f.flit_dest);
            set_field(seq, o * 8, 8, f.flit_seq);
            set_field(payload, o * 32, 32, f.flit_payload);
        }
        GM_PIN(in_credit_valid_o) cvalid{};
        GM_PIN(in_credit_vc_o) cvc{};
        for (unsigned i = 0; i < kCfg.n_in; i++) {
            set_field(cvalid, i, 1, out_.in[i].credit_valid);
            set_field(cvc, i * kVcw, kVcw, out_.in[i].credit_vc);
        }
        out_flit_valid_o.write(valid);
        out_flit_vc_o.write(vc);
        out_flit_head_o.write(head);
        out_flit_tail_o.write(tail);
        out_flit_dest_o.write(dest);
        out_flit_seq_o.write(seq);
        out_flit_payload_o.write(payload);
        in_credit_valid_o.write(cvalid);
        in_credit_vc_o.write(cvc);
    }

    bool idle() const { return gm_router_idle(&model_); }

private:
    gm_router model_{};
    gm_router_in in_{};
    gm_router_out out_{};
};

// The environment: reset, stimulus, comparison, end of test.
SC_MODULE(Env) {
    sc_in<bool> clk;
    sc_signal<bool> rst_n;
    RouterInSignals in;
    RouterOutSignals rtl_out, c_out;

    Env(sc_module_name name, uint64_t seed, uint64_t cycles, const CRouterSc* c_model)
        : sc_module(name), c_model_(c_model),
          driver_(kCfg, seed, RouterKnobs::random(seed), cycles), cycles_(cycles)
    {
        gm_error err;
        if (gm_router_ports_init(&drive_, &rtl_, &kCfg, &err) != 0 ||
            gm_router_ports_init(&scratch_, &c_, &kCfg, &err) != 0) {
            std::fprintf(stderr, "Env: %s\n", err.msg);
            std::exit(2);
        }
        std::printf("%s\n", RouterKnobs::random(seed).describe().c_str());
        SC_HAS_PROCESS(Env);
        SC_METHOD(falling);
        sensitive << clk.neg();
        dont_initialize();
    }
    ~Env()
    {
        gm_router_ports_free(&drive_, &rtl_);
        gm_router_ports_free(&scratch_, &c_);
    }

    bool passed() const { return passed_; }
    const gm_tb::RouterDriverStats& stats() const { return driver_.stats(); }
    uint64_t matched() const { return matched_; }

private:
    void fail(const std::string& why)
    {
        std::printf("FAILURE: %s\n", why.c_str());
        sc_stop();
    }

    // Falling edge k: k = 0, 1 keep reset low over two rising edges; from
    // k = 2 on, cycle c = k - 2: commit the previous cycle, compare this
    // cycle's outputs, drive this cycle's inputs.
    void falling()
    {
        const uint64_t k = falls_++;
        if (k < 2) {
            rst_n.write(false);
            in.write(scratch_);  // all zero
            return;
        }
        rst_n.write(true);
        const uint64_t c = k - 2;
        if (Verilated::gotFinish())
            return fail("RTL assertion failed before cycle " + std::to_string(c) +
                        " (see the %Error line above)");
        if (c > 0) {
            std::string err = driver_.commit(c - 1, drive_, c_);
            if (!err.empty()) return fail("checker at cycle " + std::to_string(c - 1) + ": " + err);
        }
        rtl_out.read(&rtl_);
        c_out.read(&c_);
        gm_tb::Checker chk;
        gm_tb::router_compare(kCfg, c_, rtl_, chk);
        if (chk.failed()) {
            for (const std::string& l : chk.lines())
                std::printf("  cycle %" PRIu64 ": %s\n", c, l.c_str());
            return fail("lockstep mismatch at cycle " + std::to_string(c) + ": " +
                        chk.lines()[0]);
        }
        matched_ = c + 1;
        quiet_ = driver_.drained(c) && c_model_->idle() ? quiet_ + 1 : 0;
        if (quiet_ > 4) {
            passed_ = true;
            sc_stop();
            return;
        }
        if (c >= cycles_ + 100000) return fail("not drained (deadlock?)");
        driver_.drive(c, c_, &drive_);
        in.write(drive_);
    }

    const CRouterSc* c_model_;
    RouterDriver driver_;
    uint64_t cycles_;
    gm_router_in drive_{}, scratch_{};
    gm_router_out rtl_{}, c_{};
    uint64_t falls_ = 0, matched_ = 0;
    unsigned quiet_ = 0;
    bool passed_ = false;
};

template <class M>
void bind_router(M& m, sc_clock& clk, Env& env, RouterOutSignals& out)
{
    m.clk_i(clk);
    m.rst_ni(env.rst_n);
    m.in_flit_valid_i(env.in.in_flit_valid);
    m.in_flit_vc_i(env.in.in_flit_vc);
    m.in_flit_head_i(env.in.in_flit_head);
    m.in_flit_tail_i(env.in.in_flit_tail);
    m.in_flit_dest_i(env.in.in_flit_dest);
    m.in_flit_seq_i(env.in.in_flit_seq);
    m.in_flit_payload_i(env.in.in_flit_payload);
    m.out_credit_valid_i(env.in.out_credit_valid);
    m.out_credit_vc_i(env.in.out_credit_vc);
    m.out_flit_valid_o(out.out_flit_valid);
    m.out_flit_vc_o(out.out_flit_vc);
    m.out_flit_head_o(out.out_flit_head);
    m.out_flit_tail_o(out.out_flit_tail);
    m.out_flit_dest_o(out.out_flit_dest);
    m.out_flit_seq_o(out.out_flit_seq);
    m.out_flit_payload_o(out.out_flit_payload);
    m.in_credit_valid_o(out.in_credit_valid);
    m.in_credit_vc_o(out.in_credit_vc);
}

}  // namespace

int sc_main(int argc, char** argv)
{
    uint64_t seed = 1, cycles = 2000;
    for (int k = 1; k < argc; k++) {
        if (!std::strcmp(argv[k], "--seed") && k + 1 < argc) seed = std::strtoull(argv[++k], nullptr, 0);
        else if (!std::strcmp(argv[k], "--cycles") && k + 1 < argc) cycles = std::strtoull(argv[++k], nullptr, 0);
        else if (argv[k][0] != '+') {
            std::fprintf(stderr, "usage: gm_router_sc [--seed N] [--cycles N] [+verilator+...]\n");
            return 2;
        }
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Verilated::commandArgs(argc, argv);
    Verilated::fatalOnError(false);
    std::printf("gm_router_sc: router %ux%u vcs %u depth %u stages %u iters %u seed %" PRIu64
                " cycles %" PRIu64 "\n", kCfg.n_in, kCfg.n_out, kCfg.vcs, kCfg.depth, kCfg.stages,
                kCfg.iters, seed, cycles);

    sc_clock clk("clk", 10, SC_NS, 0.5, 0, SC_NS, true);
    Vrouter_sc rtl("rtl");
    CRouterSc cmodel("cmodel");
    Env env("env", seed, cycles, &cmodel);
    env.clk(clk);
    bind_router(rtl, clk, env, env.rtl_out);
    bind_router(cmodel, clk, env, env.c_out);

    sc_start();
    rtl.final();
    if (Verilated::gotError()) {
        std::printf("FAILURE: RTL assertion (see the %%Error line above)\n");
        return 1;
    }
    if (!env.passed()) return 1;
    const gm_tb::RouterDriverStats& st = env.stats();
    std::printf("stimulus: packets %" PRIu64 "/%" PRIu64 " flits in %" PRIu64 " out %" PRIu64 "\n",
                st.packets_done, st.packets_made, st.flits_in, st.flits_out);
    std::printf("matched %" PRIu64 " cycles (router systemc seed %" PRIu64 ")\nTEST PASSED\n",
                env.matched(), seed);
    return 0;
}
