#include "router_driver.h"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <sstream>

namespace gm_tb {

namespace {

uint32_t width_of(uint32_t n)  // max(1, clog2(n)), docs/noc.md section 2
{
    uint32_t w = 0;
    while ((1u << w) < n) w++;
    return w ? w : 1;
}

struct KnobField {
    const char* name;
    unsigned RouterKnobs::*field;
    const char* help;
};

const KnobField kKnobFields[] = {
    {"inj", &RouterKnobs::inj, "permille per cycle an input's source makes a packet"},
    {"burst_off", &RouterKnobs::burst_off, "permille an on source turns off (0 = always on)"},
    {"burst_on", &RouterKnobs::burst_on, "permille an off source turns on"},
    {"idle_ppm", &RouterKnobs::idle_ppm, "ppm per cycle a global idle stretch starts"},
    {"idle_len", &RouterKnobs::idle_len, "longest idle stretch, cycles"},
    {"hot", &RouterKnobs::hot, "permille of packets to the hotspot output"},
    {"len_one", &RouterKnobs::len_one, "permille of 1-flit packets"},
    {"len_five", &RouterKnobs::len_five, "permille of 5-flit packets"},
    {"len_max", &RouterKnobs::len_max, "longest other packet (2..len_max flits)"},
    {"huge_ppm", &RouterKnobs::huge_ppm, "ppm of 256..300-flit packets"},
    {"interleave", &RouterKnobs::interleave, "permille an NI switches VC mid-packet"},
    {"queue", &RouterKnobs::queue, "packets waiting per input"},
    {"cr_prob", &RouterKnobs::cr_prob, "permille per cycle a downstream returns a credit"},
    {"cr_delay", &RouterKnobs::cr_delay, "cycles a flit stays downstream (>= 1)"},
    {"cr_random", &RouterKnobs::cr_random, "permille a credit frees a random flit, not the oldest"},
    {"stall_ppm", &RouterKnobs::stall_ppm, "ppm per cycle an output stops returning credits"},
    {"stall_len", &RouterKnobs::stall_len, "longest stall, cycles"},
    {"garbage", &RouterKnobs::garbage, "permille an invalid port carries random junk"},
    {"body_dest", &RouterKnobs::body_dest, "permille a body flit carries a random dest"},
};

}  // namespace

RouterKnobs RouterKnobs::random(uint64_t seed)
{
    gm_prng p;
    gm_prng_seed(&p, seed, 0x6b6e6f6273ull);  // its own stream ("knobs")
    auto below = [&](uint64_t n) { return static_cast<unsigned>(gm_prng_below(&p, n)); };
    auto range = [&](unsigned lo, unsigned hi) { return lo + below(hi - lo + 1); };
    RouterKnobs k;
    switch (below(4)) {  // load
    case 0: k.inj = range(5, 60); break;          // light
    case 1: k.inj = range(60, 250); break;        // medium
    case 2: k.inj = range(250, 600); break;       // near saturation
    default: k.inj = range(600, 1000); break;     // saturating
    }
    if (below(2)) {
        k.burst_off = range(1, 40);
        k.burst_on = range(1, 80);
    }
    if (below(2)) {
        k.idle_ppm = range(200, 3000);
        k.idle_len = range(50, 800);
    }
    if (below(2)) k.hot = range(100, 900);
    k.len_one = range(0, 700);
    k.len_five = range(0, 1000 - k.len_one);
    k.len_max = range(2, 20);
    if (below(5) == 0) k.huge_ppm = range(2000, 20000);
    k.interleave = below(3) ? range(0, 300) : range(300, 1000);
    k.queue = range(1, 8);
    k.cr_prob = below(3) ? 1000 : range(50, 1000);
    k.cr_delay = below(2) ? 1 : range(1, 12);
    k.cr_random = below(2) ? 0 : range(0, 1000);
    if (below(2)) {
        k.stall_ppm = range(100, 3000);
        k.stall_len = range(10, 400);
    }
    k.garbage = range(0, 1000);
    k.body_dest = range(0, 300);
    return k;
}

std::string RouterKnobs::set(const std::string& a)
{
    size_t eq = a.find('=');
    if (eq == std::string::npos) return "knob '" + a + "' is not NAME=VALUE";
    std::string name = a.substr(0, eq), value = a.substr(eq + 1);
    char* end = nullptr;
    unsigned long v = std::strtoul(value.c_str(), &end, 0);
    if (value.empty() || *end) return "knob " + name + ": not a number: " + value;
    for (const KnobField& f : kKnobFields) {
        if (name == f.name) {
            this->*f.field = static_cast<unsigned>(v);
            return "";
        }
    }
    return "unknown knob " + name + "\n" + help();
}

std::string RouterKnobs::describe() const
{
    std::ostringstream s;
    s << "knobs:";
    for (const KnobField& f : kKnobFields) s << ' ' << f.name << '=' << this->*f.field;
    return s.str();
}

std::string RouterKnobs::help()
{
    std::ostringstream s;
    s << "router stimulus knobs:\n";
    for (const KnobField& f : kKnobFields) s << "  " << f.name << ": " << f.help << '\n';
    return s.str();
}

RouterDriver::RouterDriver(const gm_router_cfg& cfg, uint64_t seed, const RouterKnobs& knobs,
                           uint64_t stimulus_cycles)
    : cfg_(cfg), k_(knobs), stop_(stimulus_cycles)
{
    gm_prng_seed(&rng_, seed, 0x647276ull);  // "drv"
    k_.cr_delay = std::max(1u, k_.cr_delay);
    k_.queue = std::max(1u, k_.queue);
    k_.len_max = std::max(2u, k_.len_max);
    vcw_ = width_of(cfg.vcs);
    dw_ = width_of(cfg.n_out);
    ni_.resize(cfg.n_in);
    for (Ni& n : ni_) {
        n.vc_packet.assign(cfg.vcs, -1);
        n.credits.assign(cfg.vcs, cfg.depth);
    }
    sink_.resize(cfg.n_out);
    for (Sink& s : sink_) {
        s.occupancy.assign(cfg.vcs, 0);
        s.packet.assign(cfg.vcs, -1);
    }
}

uint32_t RouterDriver::packet_length()
{
    if (k_.huge_ppm && chance_ppm(k_.huge_ppm)) return 256 + rand_below(45);
    uint32_t r = rand_below(1000);
    if (r < k_.len_one) return 1;
    if (r < k_.len_one + k_.len_five) return 5;
    return 2 + rand_below(k_.len_max - 1);
}

void RouterDriver::make_packet(uint32_t src)
{
    Packet p;
    p.src = static_cast<uint16_t>(src);
    p.dest = static_cast<uint16_t>(k_.hot && chance(k_.hot) ? hot_port_ : rand_below(cfg_.n_out));
    p.len = packet_length();
    p.flit_dest.resize(p.len, p.dest);
    for (uint32_t f = 1; f < p.len; f++)  // carried, not used by the router
        if (chance(k_.body_dest)) p.flit_dest[f] = static_cast<uint16_t>(rand_below(1u << dw_));
    // A bijection of the packet number: unique, and every bit toggles.
    uint32_t payload = next_id_++ * 0x9e3779b1u;
    live_.emplace(payload, std::move(p));
    ni_[src].queue.push_back(payload);
    stats_.packets_made++;
}

void RouterDriver::drive_input(uint32_t i, uint64_t cycle, gm_router_flit* f)
{
    Ni& n = ni_[i];
    // VCs that can send: a packet in progress with a credit, or (for the
    // front of the queue) a VC without a packet and with a credit.
    uint32_t cont[GM_ROUTER_MAX_VCS], free_vcs[GM_ROUTER_MAX_VCS];
    uint32_t n_cont = 0, n_free = 0;
    for (uint32_t v = 0; v < cfg_.vcs; v++) {
        if (!n.credits[v]) continue;
        if (n.vc_packet[v] >= 0) cont[n_cont++] = v;
        else if (!n.queue.empty()) free_vcs[n_free++] = v;
    }
    int vc = -1;
    bool last_ok = n.last_vc >= 0 && n.credits[n.last_vc] && n.vc_packet[n.last_vc] >= 0;
    if (last_ok && !chance(k_.interleave)) {
        vc = n.last_vc;
    } else if (n_cont + (n_free ? 1 : 0) > 0) {
        uint32_t pick = rand_below(n_cont + (n_free ? 1 : 0));
        if (pick < n_cont) {
            vc = static_cast<int>(cont[pick]);
        } else {
            vc = static_cast<int>(free_vcs[rand_below(n_free)]);
            n.vc_packet[vc] = n.queue.front();
            n.queue.pop_front();
        }
    }
    if (vc < 0) {
        *f = gm_router_flit{};
        if (chance(k_.garbage)) {  // ignored by the router while valid is 0
            f->flit_vc = static_cast<uint8_t>(rand_below(1u << vcw_));
            f->flit_head = static_cast<uint8_t>(rand_below(2));
            f->flit_tail = static_cast<uint8_t>(rand_below(2));
            f->flit_dest = static_cast<uint16_t>(rand_below(1u << dw_));
            f->flit_seq = static_cast<uint8_t>(rand_below(256));
            f->flit_payload = static_cast<uint32_t>(gm_prng_next(&rng_));
        }
        return;
    }
    const uint32_t payload = static_cast<uint32_t>(n.vc_packet[vc]);
    Packet& p = live_.at(payload);
    const uint32_t idx = p.sent++;
    f->flit_valid = 1;
    f->flit_vc = static_cast<uint8_t>(vc);
    f->flit_head = idx == 0;
    f->flit_tail = idx + 1 == p.len;
    f->flit_dest = p.flit_dest[idx];
    f->flit_seq = static_cast<uint8_t>(idx & 255);
    f->flit_payload = payload;
    if (idx == 0) p.head_cycle = cycle;
    n.credits[vc]--;
    n.last_vc = vc;
    if (f->flit_tail) n.vc_packet[vc] = -1;
    stats_.flits_in++;
}

void RouterDriver::drive_credit(uint32_t o, uint64_t cycle, gm_router_credit* c)
{
    Sink& s = sink_[o];
    *c = gm_router_credit{};
    if (cycle >= s.stall_until && !s.held.empty() && chance(k_.cr_prob)) {
        // Flits stored at edge a may be freed from cycle a + cr_delay on.
        size_t eligible = 0;
        while (eligible < s.held.size() && s.held[eligible].arrived + k_.cr_delay <= cycle)
            eligible++;
        if (eligible) {
            size_t pick = chance(k_.cr_random) ? rand_below(static_cast<uint32_t>(eligible)) : 0;
            c->credit_valid = 1;
            c->credit_vc = s.held[pick].vc;
            s.occupancy[c->credit_vc]--;
            s.held.erase(s.held.begin() + static_cast<long>(pick));
            stats_.credits_down++;
            return;
        }
    }
    if (chance(k_.garbage)) c->credit_vc = static_cast<uint8_t>(rand_below(1u << vcw_));
}

void RouterDriver::drive(uint64_t cycle, const gm_router_out& out, gm_router_in* in)
{
    (void)out;  // the outputs act at the edge (commit)
    if (cycle < stop_) {
        if (cycle >= idle_until_ && k_.idle_ppm && chance_ppm(k_.idle_ppm)) {
            idle_until_ = cycle + 1 + rand_below(std::max(1u, k_.idle_len));
            stats_.idle_stretches++;
        }
        if (chance(2)) hot_port_ = rand_below(cfg_.n_out);
        for (uint32_t i = 0; i < cfg_.n_in; i++) {
            Ni& n = ni_[i];
            if (k_.burst_off) n.on = n.on ? !chance(k_.burst_off) : chance(k_.burst_on);
            if (cycle >= idle_until_ && n.on && n.queue.size() < k_.queue && chance(k_.inj))
                make_packet(i);
        }
        for (uint32_t o = 0; o < cfg_.n_out; o++) {
            if (k_.stall_ppm && cycle >= sink_[o].stall_until && chance_ppm(k_.stall_ppm)) {
                sink_[o].stall_until = cycle + 1 + rand_below(std::max(1u, k_.stall_len));
                stats_.stalls++;
            }
        }
    }
    for (uint32_t i = 0; i < cfg_.n_in; i++) drive_input(i, cycle, &in->in[i]);
    for (uint32_t o = 0; o < cfg_.n_out; o++) drive_credit(o, cycle, &in->out[o]);
}

std::string RouterDriver::receive(uint32_t o, uint64_t cycle, const gm_router_flit& f)
{
    char buf[256];
    Sink& s = sink_[o];
    if (f.flit_vc >= cfg_.vcs) {
        std::snprintf(buf, sizeof buf, "output %u: flit on VC %u of %u", o, f.flit_vc, cfg_.vcs);
        return buf;
    }
    if (s.occupancy[f.flit_vc] >= cfg_.depth) {
        std::snprintf(buf, sizeof buf, "output %u VC %u: flit sent without a downstream credit",
                      o, f.flit_vc);
        return buf;
    }
    s.occupancy[f.flit_vc]++;
    s.held.push_back(Held{f.flit_vc, cycle});
    stats_.flits_out++;

    int64_t& cur = s.packet[f.flit_vc];
    if (f.flit_head) {
        if (cur >= 0) {
            std::snprintf(buf, sizeof buf, "output %u VC %u: head 0x%08x inside packet 0x%08x",
                          o, f.flit_vc, f.flit_payload, static_cast<uint32_t>(cur));
            return buf;
        }
        auto it = live_.find(f.flit_payload);
        if (it == live_.end() || it->second.received != 0) {
            std::snprintf(buf, sizeof buf, "output %u: head of unknown or repeated packet 0x%08x",
                          o, f.flit_payload);
            return buf;
        }
        if (it->second.dest != o) {
            std::snprintf(buf, sizeof buf, "output %u: packet 0x%08x is for output %u", o,
                          f.flit_payload, it->second.dest);
            return buf;
        }
        cur = f.flit_payload;
    } else if (cur != static_cast<int64_t>(f.flit_payload)) {
        std::snprintf(buf, sizeof buf, "output %u VC %u: body flit of 0x%08x, expected packet %s",
                      o, f.flit_vc, f.flit_payload, cur >= 0 ? "in progress" : "head");
        return buf;
    }
    Packet& p = live_.at(f.flit_payload);
    const uint32_t idx = p.received++;
    if (idx >= p.sent || f.flit_seq != (idx & 255) || f.flit_dest != p.flit_dest[idx] ||
        f.flit_tail != (idx + 1 == p.len) || (f.flit_head != 0) != (idx == 0)) {
        std::snprintf(buf, sizeof buf,
                      "output %u: packet 0x%08x flit %u arrived as seq %u dest %u head %u tail %u",
                      o, f.flit_payload, idx, f.flit_seq, f.flit_dest, f.flit_head, f.flit_tail);
        return buf;
    }
    if (f.flit_tail) {
        stats_.max_latency = std::max(stats_.max_latency, cycle - p.head_cycle);
        live_.erase(f.flit_payload);
        cur = -1;
        stats_.packets_done++;
    }
    return "";
}

std::string RouterDriver::commit(uint64_t cycle, const gm_router_in& in, const gm_router_out& out)
{
    (void)in;  // the driver's own choices were applied in drive()
    char buf[160];
    for (uint32_t i = 0; i < cfg_.n_in; i++) {
        const gm_router_credit& c = out.in[i];
        if (!c.credit_valid) {
            if (c.credit_vc) {
                std::snprintf(buf, sizeof buf, "in_credit_vc[%u] = %u while invalid", i, c.credit_vc);
                return buf;
            }
            continue;
        }
        if (c.credit_vc >= cfg_.vcs || ni_[i].credits[c.credit_vc] >= cfg_.depth) {
            std::snprintf(buf, sizeof buf, "input %u: credit for VC %u that holds no flit", i,
                          c.credit_vc);
            return buf;
        }
        ni_[i].credits[c.credit_vc]++;
        stats_.credits_up++;
    }
    for (uint32_t o = 0; o < cfg_.n_out; o++) {
        const gm_router_flit& f = out.out[o];
        if (!f.flit_valid) {
            if (f.flit_vc || f.flit_head || f.flit_tail || f.flit_dest || f.flit_seq ||
                f.flit_payload) {
                std::snprintf(buf, sizeof buf, "output %u: nonzero fields while invalid", o);
                return buf;
            }
            continue;
        }
        std::string err = receive(o, cycle, f);
        if (!err.empty()) return err;
    }
    return "";
}

bool RouterDriver::drained(uint64_t cycle) const
{
    if (cycle < stop_ || !live_.empty()) return false;
    for (const Ni& n : ni_)
        for (uint32_t c : n.credits)
            if (c != cfg_.depth) return false;
    for (const Sink& s : sink_)
        if (!s.held.empty()) return false;
    return true;
}

std::string RouterDriver::pending_report() const
{
    std::ostringstream s;
    s << live_.size() << " packets undelivered";
    size_t shown = 0;
    for (const auto& kv : live_) {
        if (shown++ == 8) {
            s << " ...";
            break;
        }
        s << "; 0x" << std::hex << kv.first << std::dec << " " << kv.second.src << "->"
          << kv.second.dest << " sent " << kv.second.sent << "/" << kv.second.len
          << " received " << kv.second.received;
    }
    return s.str();
}

}  // namespace gm_tb
