// gm_system_sc: the whole gmsim system as a SystemC module. Read
// gm_system_sc.h for the clocking argument and docs/systemc.md.
#include "systemc/gm_system_sc.h"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>

extern "C" {
#include "dram/addr_map.h"
}

namespace gm_sc {

using sc_core::sc_time;

// One core driven through a TLM socket in the core's place. The base
// protocol's exclusion rules allow one request between BEGIN_REQ and
// END_REQ and one response between BEGIN_RESP and END_RESP per socket;
// responses that complete while one is open wait in `done` in completion
// order.
struct gm_system_sc::Port {
    gm_system_sc* top = nullptr;
    int id = 0;          // index in core_socket
    uint32_t core = 0;   // the core it replaces
    tlm::tlm_generic_payload* pending = nullptr;  // BEGIN_REQ not yet taken by the model
    sc_time pending_at;                           // its annotated arrival time
    uint32_t inflight = 0;                        // taken, not yet completed
    std::deque<tlm::tlm_generic_payload*> done;   // completed, BEGIN_RESP not yet sent
    bool resp_open = false;                       // a BEGIN_RESP awaits END_RESP
};

namespace {

constexpr std::size_t kRunStackBytes = 64u << 20;  // virtual; touched pages only

// A request the socket cannot take: which response status and why.
tlm::tlm_response_status check_payload(const tlm::tlm_generic_payload& p, std::string* why)
{
    if (p.get_command() == tlm::TLM_IGNORE_COMMAND && !p.get_extension<atomic_extension>()) {
        *why = "command IGNORE (reads, writes and atomics only)";
        return tlm::TLM_COMMAND_ERROR_RESPONSE;
    }
    if (p.get_data_length() != GM_SECTOR_BYTES || p.get_streaming_width() != GM_SECTOR_BYTES ||
        p.get_byte_enable_ptr()) {
        *why = "not one whole 32 B sector (data length and streaming width 32, no byte enables)";
        return tlm::TLM_BURST_ERROR_RESPONSE;
    }
    if (p.get_address() % GM_SECTOR_BYTES) {
        *why = "address not 32 B aligned";
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    return tlm::TLM_OK_RESPONSE;
}

}  // namespace

gm_system_sc::gm_system_sc(sc_core::sc_module_name name, const gm_config& cfg,
                           const std::vector<uint32_t>& tlm_cores)
    : sc_module(name)
{
    gm_error err{};
    sys_ = static_cast<gm_system*>(std::calloc(1, sizeof *sys_));
    if (!sys_) throw std::runtime_error("gm_system_sc: out of memory");
    if (gm_system_init(sys_, &cfg, &err) != 0) {
        std::free(sys_);
        sys_ = nullptr;
        throw std::runtime_error(std::string("gm_system_sc: ") + err.msg);
    }
    owned_ = true;
    init(tlm_cores);
}

gm_system_sc::gm_system_sc(sc_core::sc_module_name name, gm_system* sys,
                           const std::vector<uint32_t>& tlm_cores)
    : sc_module(name), sys_(sys)
{
    init(tlm_cores);
}

gm_system_sc::~gm_system_sc()
{
    if (owned_) {
        gm_system_free(sys_);
        std::free(sys_);
    }
}

void gm_system_sc::init(const std::vector<uint32_t>& tlm_cores)
{
    // The resolution is fixed from here on (SystemC freezes it at the
    // first sc_time); time_of works in its units.
    res_fs_ = static_cast<uint64_t>(sc_core::sc_get_time_resolution().to_seconds() * 1e15 + 0.5);
    if (res_fs_ == 0) res_fs_ = 1;
    for (uint32_t core : tlm_cores) {
        if (core >= sys_->ncores)
            throw std::runtime_error("gm_system_sc: TLM core " + std::to_string(core) +
                                     " out of range (the system has " +
                                     std::to_string(sys_->ncores) + " cores)");
        for (const auto& p : ports_)
            if (p->core == core)
                throw std::runtime_error("gm_system_sc: TLM core " + std::to_string(core) +
                                         " listed twice");
        auto p = std::make_unique<Port>();
        p->top = this;
        p->id = static_cast<int>(ports_.size());
        p->core = core;
        std::string sname = "core" + std::to_string(core);
        core_socket.push_back(std::make_unique<socket_type>(sname.c_str()));
        core_socket.back()->register_nb_transport_fw(this, &gm_system_sc::nb_fw, p->id);
        gm_system_set_core_driver(sys_, core, &gm_system_sc::drive, p.get());
        ports_.push_back(std::move(p));
    }
    SC_HAS_PROCESS(gm_system_sc);
    SC_THREAD(run);
    // The whole run, RTL twins included, executes on this thread's stack:
    // a Verilated model's evaluation can keep large arrays on it (the ATA
    // seed's 10 x 8 x 64-way tag array overflowed SystemC's default).
    set_stack_size(kRunStackBytes);
}

void gm_system_sc::set_workload(const gm_workload* wl)
{
    wl_ = wl;
}

sc_time gm_system_sc::time_of(gm_time t) const
{
    // t ticks of 1/L us = t * 10^9 / L fs; floor in resolution units.
    // Computed from the absolute tick count every time, so the rounding
    // error stays under one unit and never accumulates.
    unsigned __int128 fs_num = static_cast<unsigned __int128>(t) * 1000000000u;
    unsigned __int128 den = static_cast<unsigned __int128>(sys_->clock.ticks_per_us) * res_fs_;
    return sc_time::from_value(static_cast<sc_dt::uint64>(fs_num / den));
}

bool gm_system_sc::idle() const
{
    for (const auto& p : ports_)
        if (p->pending || p->inflight || !p->done.empty() || p->resp_open) return false;
    return true;
}

void gm_system_sc::run()
{
    gm_error err{};
    const gm_workload* wl = wl_ ? wl_ : &empty_wl_;
    int rc = gm_system_run_begin(sys_, wl, &err);
    while (rc == 0) {
        // A run with sockets stays open while an initiator may still send.
        sys_->hold_open = !ports_.empty() && !(finish_when_idle_ && idle());
        sc_time at = time_of(gm_system_next_edge(sys_));
        sc_time now = sc_core::sc_time_stamp();
        if (at > now) wait(at - now);
        int st = gm_system_step(sys_, &err);
        if (st < 0) rc = -1;
        if (st <= 0) break;
    }
    if (rc == 0) rc = gm_system_run_end(sys_, &err);
    rc_ = rc;
    if (rc != 0) error_ = err.msg;
    finished_ = true;
    done_.notify();
    if (stop_at_end_) sc_core::sc_stop();
}

tlm::tlm_sync_enum gm_system_sc::nb_fw(int id, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                       sc_time& t)
{
    Port& port = *ports_[static_cast<size_t>(id)];
    if (ph == tlm::BEGIN_REQ) {
        if (port.pending)
            SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous request "
                                    "(base protocol request exclusion rule)");
        std::string why;
        tlm::tlm_response_status st = check_payload(p, &why);
        if (st != tlm::TLM_OK_RESPONSE) {
            // Bad input: answered at once with the error status, never
            // reaching the model.
            SC_REPORT_WARNING(name(), ("transaction refused: " + why).c_str());
            p.set_response_status(st);
            return tlm::TLM_COMPLETED;
        }
        if (p.has_mm()) p.acquire();
        port.pending = &p;
        port.pending_at = sc_core::sc_time_stamp() + t;
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::END_RESP) {
        if (!port.resp_open) SC_REPORT_ERROR(name(), "END_RESP with no response open");
        port.resp_open = false;
        return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR(name(), "unexpected phase on nb_transport_fw (want BEGIN_REQ or END_RESP)");
    return tlm::TLM_COMPLETED;
}

// At every core edge, in the core's place: the core's order (core.h):
// the port's cycle, its replies, then at most one offer/accept.
void gm_system_sc::drive(void* ctx, gm_core_port* cp, gm_time now)
{
    Port& port = *static_cast<Port*>(ctx);
    gm_system_sc& top = *port.top;
    gm_system* s = top.sys_;
    socket_type& sock = *top.core_socket[static_cast<size_t>(port.id)];
    if (cp->ops->cycle) cp->ops->cycle(cp->ctx, now);
    gm_req* r;
    while ((r = cp->ops->pop_reply(cp->ctx, now)) != nullptr) {
        auto* p = static_cast<tlm::tlm_generic_payload*>(r->owner);
        gm_req_release(&s->pool, r);
        port.inflight--;
        p->set_response_status(tlm::TLM_OK_RESPONSE);
        port.done.push_back(p);
    }
    if (port.pending && port.pending_at <= sc_core::sc_time_stamp()) {
        tlm::tlm_generic_payload* p = port.pending;
        uint64_t addr = p->get_address();
        gm_req probe{};
        probe.addr = addr & ~static_cast<uint64_t>(GM_LINE_BYTES - 1);
        probe.sectors = static_cast<uint8_t>(1u << ((addr / GM_SECTOR_BYTES) % GM_SECTORS_PER_LINE));
        probe.kind = p->get_extension<atomic_extension>() ? GM_REQ_ATOMIC
                     : p->is_write()                        ? GM_REQ_STORE
                                                            : GM_REQ_LOAD;
        if (cp->ops->offer(cp->ctx, &probe, now)) {
            gm_req* q = gm_req_alloc(&s->pool, now);
            q->addr = probe.addr;
            q->sectors = probe.sectors;
            q->kind = probe.kind;
            q->src = static_cast<uint16_t>(port.core);
            q->slice = static_cast<uint16_t>(gm_addr_slice(&s->amap, probe.addr));
            q->owner = p;
            cp->ops->accept(cp->ctx, q, now);
            port.pending = nullptr;
            port.inflight++;
            tlm::tlm_phase ph = tlm::END_REQ;
            sc_time zero = sc_core::SC_ZERO_TIME;
            sock->nb_transport_bw(*p, ph, zero);
        }
    }
    // Responses at the edge they complete, as many as the response
    // exclusion rule lets through.
    while (!port.resp_open && !port.done.empty()) {
        tlm::tlm_generic_payload* p = port.done.front();
        port.done.pop_front();
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_time zero = sc_core::SC_ZERO_TIME;
        tlm::tlm_sync_enum st = sock->nb_transport_bw(*p, ph, zero);
        if (st == tlm::TLM_ACCEPTED || (st == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP))
            port.resp_open = true;
        if (p->has_mm()) p->release();
    }
}

}  // namespace gm_sc
