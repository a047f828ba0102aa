// Constrained-random environment of one router: the upstream network
// interfaces (one per input) and the downstream buffers (one per output),
// played honestly (docs/noc.md 4.7), plus an end-to-end scoreboard.
//
// It works on the C port structs only, so the same driver feeds the C
// model and the Verilated model (lockstep harness) and the SystemC top.
// Every cycle:
//   drive(cycle, out, &in)   chooses the inputs of the cycle from the
//                            driver's state and the router outputs visible
//                            in that cycle (Moore, so no loop);
//   commit(cycle, in, out)   the clock edge: credits from the router, flits
//                            into the downstream buffers, scoreboard checks.
//
// Stimulus knobs (RouterKnobs) are drawn from the seed, so a seed names a
// whole traffic profile; --knob NAME=VALUE overrides one. Independent checks
// (they hold for any correct router, whatever the C model says): the router
// never sends a flit without a downstream credit, never returns a credit
// upstream that was not used, keeps every packet's flits in order on one
// output VC (head first, seq = index mod 256, payload and per-flit dest
// carried, tail last), delivers each packet to its head's dest exactly once,
// and drives all-zero fields beside a 0 valid bit.
#ifndef GM_TB_ROUTER_DRIVER_H
#define GM_TB_ROUTER_DRIVER_H

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
#include "noc/router.h"
#include "sim/prng.h"
}

namespace gm_tb {

// Probabilities are in permille (per cycle unless said otherwise), "ppm"
// ones in parts per million.
struct RouterKnobs {
    unsigned inj = 300;         // an input's source makes a packet
    unsigned burst_off = 0;     // an on source turns off (0: always on)
    unsigned burst_on = 50;     // an off source turns on
    unsigned idle_ppm = 0;      // a global idle stretch starts (no new packets)
    unsigned idle_len = 300;    // longest idle stretch, cycles
    unsigned hot = 0;           // share of packets sent to the hotspot output
    unsigned len_one = 400;     // share of 1-flit packets
    unsigned len_five = 400;    // share of 5-flit packets (the rest: 2..len_max)
    unsigned len_max = 8;       // longest "other" packet
    unsigned huge_ppm = 0;      // share of 256..300-flit packets (seq wraps)
    unsigned interleave = 100;  // an NI switches to another VC mid-packet
    unsigned queue = 4;         // packets waiting per input
    unsigned cr_prob = 1000;    // an output's downstream returns a credit
    unsigned cr_delay = 1;      // cycles a flit stays downstream, >= 1
    unsigned cr_random = 0;     // free a random eligible flit, not the oldest
    unsigned stall_ppm = 0;     // an output's downstream stops returning credits
    unsigned stall_len = 100;   // longest stall, cycles
    unsigned garbage = 500;     // fields beside a 0 valid bit are random junk
    unsigned body_dest = 100;   // a body/tail flit carries a random dest

    // A traffic profile drawn from a seed (light to saturating load,
    // bursts, idle stretches, hotspots, back-pressure, long packets).
    static RouterKnobs random(uint64_t seed);
    // "name=value"; returns an error message or "".
    std::string set(const std::string& assignment);
    std::string describe() const;
    static std::string help();
};

struct RouterDriverStats {
    uint64_t packets_made = 0, packets_done = 0;
    uint64_t flits_in = 0, flits_out = 0;
    uint64_t credits_up = 0, credits_down = 0;
    uint64_t idle_stretches = 0, stalls = 0;
    uint64_t max_latency = 0;   // head sent to tail received, cycles
};

class RouterDriver {
public:
    RouterDriver(const gm_router_cfg& cfg, uint64_t seed, const RouterKnobs& knobs,
                 uint64_t stimulus_cycles);

    void drive(uint64_t cycle, const gm_router_out& out, gm_router_in* in);
    std::string commit(uint64_t cycle, const gm_router_in& in, const gm_router_out& out);

    // No packet left anywhere, every credit back home, stimulus over.
    bool drained(uint64_t cycle) const;
    const RouterDriverStats& stats() const { return stats_; }
    // Where the undelivered packets are, for a drain failure.
    std::string pending_report() const;

private:
    struct Packet {
        uint16_t src = 0;
        uint16_t dest = 0;
        uint32_t len = 0;
        uint32_t sent = 0;          // flits sent by the NI
        uint32_t received = 0;      // flits received downstream
        uint64_t head_cycle = 0;
        std::vector<uint16_t> flit_dest;  // dest field of each flit
    };
    struct Ni {
        std::deque<uint32_t> queue;       // payloads not started
        std::vector<int64_t> vc_packet;   // payload in progress per VC, -1 none
        std::vector<uint32_t> credits;    // per VC, starts at depth
        int last_vc = -1;
        bool on = true;
    };
    struct Held {
        uint8_t vc;
        uint64_t arrived;                 // edge at which it was stored
    };
    struct Sink {
        std::vector<uint32_t> occupancy;  // per VC
        std::deque<Held> held;            // in arrival order
        std::vector<int64_t> packet;      // per VC: payload being reassembled, -1 none
        uint64_t stall_until = 0;
    };

    uint32_t rand_below(uint32_t n) { return static_cast<uint32_t>(gm_prng_below(&rng_, n)); }
    bool chance(unsigned permille) { return rand_below(1000) < permille; }
    bool chance_ppm(unsigned ppm) { return rand_below(1000000) < ppm; }
    void make_packet(uint32_t src);
    uint32_t packet_length();
    void drive_input(uint32_t i, uint64_t cycle, gm_router_flit* f);
    void drive_credit(uint32_t o, uint64_t cycle, gm_router_credit* c);
    std::string receive(uint32_t o, uint64_t cycle, const gm_router_flit& f);

    gm_router_cfg cfg_;
    RouterKnobs k_;
    gm_prng rng_;
    uint64_t stop_;                       // first cycle without new packets
    uint32_t vcw_, dw_;                   // port field widths
    uint32_t next_id_ = 1;
    uint32_t hot_port_ = 0;
    uint64_t idle_until_ = 0;
    std::vector<Ni> ni_;
    std::vector<Sink> sink_;
    std::unordered_map<uint32_t, Packet> live_;  // by payload
    RouterDriverStats stats_;
};

}  // namespace gm_tb

#endif
