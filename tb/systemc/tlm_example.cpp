// gm_tlm_example: a small TLM-2.0 traffic generator driving gm_system_sc
// through core 0's target socket, checked against the pure-C model
// (docs/systemc.md, section "The example").
//
// 1. A hand-written sequence of 32 B sector accesses (loads, stores, an
//    atomic) is written as an Accel-Sim trace: one warp, one active lane,
//    every load and atomic reading the register the previous one wrote,
//    so the core issues them one after another.
// 2. Pure C: gmsim runs that trace (gm_system_run, no SystemC); a shim on
//    core 0's memory port records when each request was accepted and when
//    it came back.
// 3. SystemC: the generator sends the same sequence on the socket with the
//    core's issue rule: the first access when the core issued its first,
//    then each access one core cycle after the previous load's or atomic's
//    BEGIN_RESP (the warp waits for that register) or after the previous
//    store's END_REQ (a store writes no register). It never looks at the
//    C run's later times.
// Every access's END_REQ time must equal the C run's accept time and its
// BEGIN_RESP (data-ready) time the C run's completion time, exactly; and
// malformed transactions must be refused with the base protocol's error
// statuses.
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "systemc/gm_system_sc.h"

extern "C" {
#include "config/config.h"
#include "workload/workload.h"
}

namespace {

using sc_core::sc_time;

enum class Kind { Load, Store, Atomic };

struct Access {
    Kind kind;
    uint64_t addr;  // 32 B aligned
};

// The hand-written sequence: misses to DRAM, a hit in the same line,
// another sector of a line already present, stores, an atomic, and
// addresses spread over slices and channels.
const std::vector<Access> kSeq = {
    {Kind::Load, 0x10000},   {Kind::Load, 0x10000},   {Kind::Load, 0x10020},
    {Kind::Store, 0x10040},  {Kind::Load, 0x10040},   {Kind::Load, 0x24000},
    {Kind::Atomic, 0x30060}, {Kind::Load, 0x30060},   {Kind::Store, 0x51080},
    {Kind::Store, 0x51100},  {Kind::Load, 0x7ffe0},   {Kind::Load, 0x10000},
};

const char* kind_name(Kind k)
{
    return k == Kind::Load ? "load" : k == Kind::Store ? "store" : "atomic";
}

// The sequence as an Accel-Sim trace (tracer version 4, docs/traces.md).
void write_trace(const std::string& dir)
{
    std::ofstream list(dir + "/kernelslist.g");
    list << "kernel-1.traceg\n";
    std::ofstream k(dir + "/kernel-1.traceg");
    k << "-kernel name = tlm_sequence\n-kernel id = 1\n-grid dim = (1,1,1)\n"
         "-block dim = (32,1,1)\n-accelsim tracer version = 4\n#traces format = threadblock_x "
         "threadblock_y threadblock_z warpid_tb PC mask dest_num [reg_dests] opcode src_num "
         "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n"
         "thread block = 0,0,0\nwarp = 0\ninsts = "
      << kSeq.size() + 1 << "\n";
    unsigned pc = 0;
    for (const Access& a : kSeq) {
        char line[160];
        const char* fmt = a.kind == Kind::Load ? "%04x 00000001 1 R2 LDG.E 1 R2 4 0 0x%" PRIx64 "\n"
                          : a.kind == Kind::Store
                              ? "%04x 00000001 0 STG.E 2 R2 R3 4 0 0x%" PRIx64 "\n"
                              : "%04x 00000001 1 R2 ATOMG.E.ADD 2 R2 R3 4 0 0x%" PRIx64 "\n";
        std::snprintf(line, sizeof line, fmt, pc, a.addr);
        k << line;
        pc += 16;
    }
    char exit_line[64];
    std::snprintf(exit_line, sizeof exit_line, "%04x 00000001 0 EXIT 0 0\n#END_TB\n", pc);
    k << exit_line;
}

// ---- pure C run --------------------------------------------------------

struct Record {
    uint64_t addr;   // line address
    uint8_t sectors;
    uint8_t kind;
    gm_time accepted = 0, completed = 0;
    uint64_t id = 0;
};

// Wraps core 0's port and records each request it takes and returns.
struct Shim {
    gm_core_port inner;
    std::vector<Record> recs;
};

void shim_cycle(void* ctx, gm_time now)
{
    Shim* s = static_cast<Shim*>(ctx);
    if (s->inner.ops->cycle) s->inner.ops->cycle(s->inner.ctx, now);
}
gm_req* shim_pop(void* ctx, gm_time now)
{
    Shim* s = static_cast<Shim*>(ctx);
    gm_req* r = s->inner.ops->pop_reply(s->inner.ctx, now);
    if (r)
        for (Record& rec : s->recs)
            if (rec.id == r->id) rec.completed = now;
    return r;
}
bool shim_offer(void* ctx, const gm_req* probe, gm_time now)
{
    Shim* s = static_cast<Shim*>(ctx);
    return s->inner.ops->offer(s->inner.ctx, probe, now);
}
void shim_accept(void* ctx, gm_req* r, gm_time now)
{
    Shim* s = static_cast<Shim*>(ctx);
    Record rec{r->addr, r->sectors, r->kind};
    rec.accepted = now;
    rec.id = r->id;
    s->recs.push_back(rec);
    s->inner.ops->accept(s->inner.ctx, r, now);
}
bool shim_busy(const void* ctx)
{
    const Shim* s = static_cast<const Shim*>(ctx);
    return s->inner.ops->busy(s->inner.ctx);
}
const gm_core_port_ops kShimOps = {shim_cycle, shim_pop, shim_offer, shim_accept, shim_busy};

std::vector<Record> run_pure_c(const gm_config& cfg, const std::string& trace_dir)
{
    gm_error err{};
    gm_workload wl;
    std::string name = "trace:" + trace_dir + "/kernelslist.g";
    if (gm_workload_build(&wl, name.c_str(), GM_SIZE_TINY, cfg.sim.seed, &err) != 0)
        throw std::runtime_error(std::string("trace: ") + err.msg);
    gm_system* s = static_cast<gm_system*>(std::calloc(1, sizeof(gm_system)));
    if (!s || gm_system_init(s, &cfg, &err) != 0) throw std::runtime_error(err.msg);
    Shim shim;
    shim.inner = s->cores[0].port;
    s->cores[0].port.ops = &kShimOps;
    s->cores[0].port.ctx = &shim;
    int rc = gm_system_run(s, &wl, &err);
    if (rc != 0 || s->status != GM_RUN_DONE)
        throw std::runtime_error(std::string("pure-C run failed: ") + (rc ? err.msg : "not done"));
    std::printf("pure C: %" PRIu64 " core cycles, %zu requests from core 0\n", s->core_cycle,
                shim.recs.size());
    gm_system_free(s);
    std::free(s);
    gm_workload_free(&wl);
    return shim.recs;
}

// ---- the traffic generator ---------------------------------------------

SC_MODULE(TrafficGen) {
    tlm_utils::simple_initiator_socket<TrafficGen> socket;

    struct Result {
        sc_time end_req, begin_resp;
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    };
    std::vector<Result> results;
    bool refused_ok = true;
    std::string refused_why;

    TrafficGen(sc_core::sc_module_name n, gm_sc::gm_system_sc* top, sc_time first)
        : sc_module(n), socket("socket"), results(kSeq.size()), top_(top), first_(first),
          payloads_(kSeq.size())
    {
        socket.register_nb_transport_bw(this, &TrafficGen::nb_bw);
        SC_HAS_PROCESS(TrafficGen);
        SC_THREAD(drive);
    }

private:
    // Malformed transactions: refused at once with the error status.
    void expect_refused(uint64_t addr, unsigned len, tlm::tlm_command cmd,
                        tlm::tlm_response_status want, const char* what)
    {
        tlm::tlm_generic_payload p;
        p.set_command(cmd);
        p.set_address(addr);
        p.set_data_ptr(buf_);
        p.set_data_length(len);
        p.set_streaming_width(len);
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_time t = sc_core::SC_ZERO_TIME;
        tlm::tlm_sync_enum st = socket->nb_transport_fw(p, ph, t);
        if (st != tlm::TLM_COMPLETED || p.get_response_status() != want) {
            refused_ok = false;
            refused_why += std::string(" ") + what;
        }
    }

    void drive()
    {
        expect_refused(0x1000, 64, tlm::TLM_READ_COMMAND, tlm::TLM_BURST_ERROR_RESPONSE, "64B");
        expect_refused(0x1010, 32, tlm::TLM_READ_COMMAND, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                       "misaligned");
        expect_refused(0x1000, 32, tlm::TLM_IGNORE_COMMAND, tlm::TLM_COMMAND_ERROR_RESPONSE,
                       "ignore");
        sc_time delay = first_;  // from now (time 0)
        for (size_t k = 0; k < kSeq.size(); k++) {
            tlm::tlm_generic_payload& p = payloads_[k];
            p.set_command(kSeq[k].kind == Kind::Store ? tlm::TLM_WRITE_COMMAND
                                                      : tlm::TLM_READ_COMMAND);
            if (kSeq[k].kind == Kind::Atomic) p.set_extension(&atomic_);
            p.set_address(kSeq[k].addr);
            p.set_data_ptr(buf_);
            p.set_data_length(32);
            p.set_streaming_width(32);
            p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            current_ = k;
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_time t = delay;
            tlm::tlm_sync_enum st = socket->nb_transport_fw(p, ph, t);
            if (st != tlm::TLM_ACCEPTED) {
                std::printf("FAILURE: access %zu: BEGIN_REQ not accepted\n", k);
                sc_core::sc_stop();
                return;
            }
            wait(end_req_ev_);
            if (kSeq[k].kind == Kind::Store) {
                // The next instruction issues the cycle after the store's.
                delay = top_->core_period();
            } else {
                while (results[k].begin_resp == sc_core::SC_ZERO_TIME) wait(resp_ev_);
                // Absolute from the response edge: the next access arrives
                // by the next core edge (time_of is monotone, so a period
                // after the response is at or before that edge).
                delay = top_->core_period();
            }
        }
        // Stores may still be in flight: let the module end the run when
        // everything has come back.
        top_->finish_when_idle();
    }

    tlm::tlm_sync_enum nb_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_time&)
    {
        size_t k = static_cast<size_t>(&p - payloads_.data());
        if (ph == tlm::END_REQ) {
            results[k].end_req = sc_core::sc_time_stamp();
            end_req_ev_.notify();
            return tlm::TLM_ACCEPTED;
        }
        if (ph == tlm::BEGIN_RESP) {
            results[k].begin_resp = sc_core::sc_time_stamp();
            results[k].status = p.get_response_status();
            if (p.get_extension<gm_sc::atomic_extension>()) p.clear_extension(&atomic_);
            resp_ev_.notify();
            return tlm::TLM_COMPLETED;
        }
        std::printf("FAILURE: unexpected phase on nb_transport_bw\n");
        return tlm::TLM_COMPLETED;
    }

    gm_sc::gm_system_sc* top_;
    sc_time first_;

public:
    ~TrafficGen() override
    {
        for (auto& p : payloads_)
            if (p.get_extension<gm_sc::atomic_extension>()) p.clear_extension(&atomic_);
    }

private:
    std::vector<tlm::tlm_generic_payload> payloads_;
    gm_sc::atomic_extension atomic_;
    size_t current_ = 0;
    unsigned char buf_[64] = {};
    sc_core::sc_event end_req_ev_, resp_ev_;
};

int fail(const std::string& why)
{
    std::printf("FAILURE: %s\n", why.c_str());
    return 1;
}

}  // namespace

int sc_main(int argc, char** argv)
{
    std::vector<const char*> configs;
    for (int k = 1; k < argc; k++) {
        if (!std::strcmp(argv[k], "--config") && k + 1 < argc) configs.push_back(argv[++k]);
        else {
            std::fprintf(stderr, "usage: gm_tlm_example [--config FILE]...\n");
            return 2;
        }
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    gm_config cfg;
    gm_error err{};
    gm_config_defaults(&cfg);
    for (const char* c : configs)
        if (gm_config_load_file(&cfg, c, &err) != 0) return fail(err.msg);
    if (gm_config_validate(&cfg, &err) != 0) return fail(err.msg);

    char dir[] = "/tmp/gm_tlm_example.XXXXXX";
    if (!mkdtemp(dir)) return fail("mkdtemp");
    write_trace(dir);
    std::vector<Record> c;
    try {
        c = run_pure_c(cfg, dir);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::string cleanup = std::string("rm -rf ") + dir;
    if (std::system(cleanup.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", dir);
    // The trace must have become exactly the hand-written requests.
    if (c.size() != kSeq.size())
        return fail("pure C run made " + std::to_string(c.size()) + " requests on core 0, want " +
                    std::to_string(kSeq.size()));
    for (size_t k = 0; k < kSeq.size(); k++) {
        uint8_t kind = kSeq[k].kind == Kind::Load    ? GM_REQ_LOAD
                       : kSeq[k].kind == Kind::Store ? GM_REQ_STORE
                                                     : GM_REQ_ATOMIC;
        if (c[k].addr != (kSeq[k].addr & ~uint64_t{127}) ||
            c[k].sectors != (1u << ((kSeq[k].addr >> 5) & 3)) || c[k].kind != kind)
            return fail("pure C request " + std::to_string(k) + " is not the sequence's");
        if (!c[k].completed) return fail("pure C request " + std::to_string(k) + " never returned");
    }

    // Bad input: a core the system does not have is refused with a message.
    try {
        gm_sc::gm_system_sc bad("bad", cfg, {100000});
        return fail("a TLM core out of range was accepted");
    } catch (const std::runtime_error& e) {
        if (!std::strstr(e.what(), "out of range")) return fail(std::string("wrong error: ") + e.what());
        std::printf("refused as expected: %s\n", e.what());
    }
    gm_sc::gm_system_sc top("gmsim", cfg, {0});
    TrafficGen gen("gen", &top, top.time_of(c[0].accepted));
    gen.socket.bind(*top.core_socket[0]);
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    // The refusals are expected here; their warnings would only be noise.
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    sc_core::sc_start();
    if (!top.finished()) return fail("the SystemC run did not end");
    if (top.result() != 0) return fail("SystemC run: " + top.error());
    if (top.system()->status != GM_RUN_DONE) return fail("SystemC run status not done");
    if (!gen.refused_ok) return fail("malformed transactions not refused:" + gen.refused_why);

    int bad = 0;
    std::printf("%3s %-6s %-10s %14s %14s %14s %14s\n", "#", "kind", "address", "C accept",
                "TLM END_REQ", "C ready", "TLM BEGIN_RESP");
    for (size_t k = 0; k < kSeq.size(); k++) {
        const auto& r = gen.results[k];
        sc_time ca = top.time_of(c[k].accepted), cr = top.time_of(c[k].completed);
        bool ok = r.end_req == ca && r.begin_resp == cr && r.status == tlm::TLM_OK_RESPONSE;
        bad += !ok;
        std::printf("%3zu %-6s 0x%08" PRIx64 " %14s %14s %14s %14s%s\n", k, kind_name(kSeq[k].kind),
                    kSeq[k].addr, ca.to_string().c_str(), r.end_req.to_string().c_str(),
                    cr.to_string().c_str(), r.begin_resp.to_string().c_str(),
                    ok ? "" : "  MISMATCH");
    }
    if (bad) return fail(std::to_string(bad) + " of " + std::to_string(kSeq.size()) +
                         " accesses differ from the pure-C run");
    std::printf("TLM sequence matched the pure-C trace run: %zu accesses, issue and data-ready "
                "times identical\n", kSeq.size());
    return 0;
}
