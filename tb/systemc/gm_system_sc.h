// gm_system_sc: one whole gmsim memory system as a SystemC module
// (docs/systemc.md).
//
// Clocking: one SystemC process steps the C model's exact integer
// multi-clock scheduler (sim/clock.h) edge by edge and waits, before each
// edge, until the SystemC time of that edge. The model, not the SystemC
// kernel, decides the order of edges: their times are integer ticks of
// 1/L us (L the lcm of the domain frequencies) and the order is
// "k*f_b < j*f_a, ties by domain index" (SPEC 2.4). SystemC time cannot
// hold those ticks exactly (1400 and 924 MHz give L = 46200 MHz, a tick
// of 21.645... ps), so sc_clocks of those periods would round and drift
// apart; here each edge's SystemC time is computed from its absolute tick
// count, floor(ticks * 10^6 / L) ps at a 1 ps resolution, which is
// monotone (order is never inverted) and off by less than one resolution
// unit at every edge, never accumulating. The statistics are those of
// gm_system_run because the module calls the same edge function in the
// same order (gm_system_step; gm_system_run is begin + step + end).
//
// Two ways to drive it:
//  (a) the built-in cores running a gmsim workload (set_workload), as
//      `gmsim run` does;
//  (b) external initiators: the cores named at construction get a TLM-2.0
//      target socket each (tlm_utils::simple_target_socket, base protocol,
//      approximately timed, nb_transport_fw/bw) that takes reads, writes
//      and atomics of 32 B sectors and answers with the model's timing.
#ifndef GM_TB_SYSTEMC_GM_SYSTEM_SC_H
#define GM_TB_SYSTEMC_GM_SYSTEM_SC_H

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

extern "C" {
#include "system/system.h"
}

namespace gm_sc {

// Marks a transaction as an atomic read-modify-write (the base protocol
// has only reads and writes). gmsim is a timing model: the atomic is
// timed as GM_REQ_ATOMIC (executed at the L2), its data are not computed.
struct atomic_extension : tlm::tlm_extension<atomic_extension> {
    tlm::tlm_extension_base* clone() const override { return new atomic_extension(*this); }
    void copy_from(const tlm::tlm_extension_base&) override {}
};

class gm_system_sc : public sc_core::sc_module {
public:
    using socket_type = tlm_utils::simple_target_socket_tagged<gm_system_sc>;

    // Builds and owns a system from cfg (gm_config_validate'd). The cores
    // listed in tlm_cores get a socket (core_socket[k] for tlm_cores[k])
    // and are driven through it instead of by their warps. Errors (a bad
    // configuration, a core index out of range) throw std::runtime_error.
    gm_system_sc(sc_core::sc_module_name name, const gm_config& cfg,
                 const std::vector<uint32_t>& tlm_cores = {});
    // Runs a system built by someone else (gmsim-sc: the gmsim command
    // line builds it); not owned.
    gm_system_sc(sc_core::sc_module_name name, gm_system* sys,
                 const std::vector<uint32_t>& tlm_cores = {});
    ~gm_system_sc() override;

    // The workload the built-in cores run (kept by the caller until the
    // run ends). Without one, or after its last kernel, the module keeps
    // the system running while it has TLM sockets, until sc_stop or
    // finish_when_idle().
    void set_workload(const gm_workload* wl);
    // With TLM sockets: end the run (status done, drain checks) the next
    // time the system is quiet with no transaction outstanding.
    void finish_when_idle() { finish_when_idle_ = true; }
    // Call sc_stop() when the run ends (default on).
    void stop_at_end(bool on) { stop_at_end_ = on; }

    std::vector<std::unique_ptr<socket_type>> core_socket;

    gm_system* system() { return sys_; }
    bool finished() const { return finished_; }
    // 0, or -1 with error() (gm_system_run's contract).
    int result() const { return rc_; }
    const std::string& error() const { return error_; }
    const sc_core::sc_event& done_event() const { return done_; }
    // The SystemC time of model time t (clock ticks).
    sc_core::sc_time time_of(gm_time t) const;
    // The SystemC time of one core clock period, rounded down.
    sc_core::sc_time core_period() const { return time_of(gm_system_core_period(sys_)); }
    // Core edges simulated so far.
    uint64_t core_cycle() const { return sys_->core_cycle; }

private:
    struct Port;  // one TLM-driven core
    void init(const std::vector<uint32_t>& tlm_cores);
    void run();
    bool idle() const;
    tlm::tlm_sync_enum nb_fw(int id, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                             sc_core::sc_time& t);
    static void drive(void* ctx, gm_core_port* port, gm_time now);

    gm_system* sys_ = nullptr;
    bool owned_ = false;
    const gm_workload* wl_ = nullptr;
    gm_workload empty_wl_{};
    std::vector<std::unique_ptr<Port>> ports_;
    sc_core::sc_event wake_;   // a transaction arrived while the model slept
    sc_core::sc_event done_;
    bool finish_when_idle_ = false;
    bool stop_at_end_ = true;
    bool finished_ = false;
    int rc_ = 0;
    std::string error_;
    uint64_t res_fs_ = 1000;  // SystemC time resolution in fs
};

}  // namespace gm_sc

#endif
