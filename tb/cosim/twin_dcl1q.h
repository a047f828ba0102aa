// Twin adapter of the DC-L1 node queues (rtl/gm_dcl1_queues.sv,
// cmodel/designs/dcl1/dcl1_queues.h) for tb/common/twin.h: in a kind =
// dcl1 system node k's four queues are "dcl1q-<k>"; the hook is
// gm_dcl1q_twin, which the node (dcl1_node.c) drives its network ports
// and cache from. A node skips its idle edges, C block and twin alike, so
// cycles are the node's ticked edges. "all" does not select them (it
// stays "every router", as the router tests expect); 'dcl1q-*' does.
#ifndef GM_TB_COSIM_TWIN_DCL1Q_H
#define GM_TB_COSIM_TWIN_DCL1Q_H

#include <vector>

#include "common/twin.h"
#include "dcl1q/dcl1q_bench.h"

extern "C" {
#include "designs/dcl1/dcl1.h"
#include "designs/dcl1/dcl1_queues.h"
}

namespace gm_twin {

struct Dcl1qTwin {
    struct Params {
        uint32_t depth;
    };
    using In = gm_dcl1q_in;
    using Out = gm_dcl1q_out;
    using Hook = gm_dcl1q_twin;
    static constexpr const char* kModel = "node queues of";
    static constexpr const char* kNoun = "the C node queues";
    static constexpr const char* kUnit = "node cycle";
    static constexpr bool kFieldCount = true;
    static constexpr const char* kMatched = "the C node queues";
    static constexpr const char* kOwnCount = "node queue cycles";
    static constexpr bool kEvalFall = true;
    static constexpr bool kSkipSettled = false;
    static constexpr bool kCompareAfterTick = false;

    static Params params(uint32_t depth) { return Params{depth}; }
    static bool same(const Params& a, const Params& b) { return a.depth == b.depth; }
    static std::string text(const Params& p) { return "depth " + std::to_string(p.depth); }
    template <class VTop>
    static void put(VTop* top, const Params&, const In& in)
    {
        gm_tb::dcl1q_put_inputs(top, in);
    }
    template <class VTop>
    static void put_idle(VTop* top, const Params&)
    {
        gm_tb::dcl1q_put_inputs(top, In{});
    }
    template <class VTop>
    static void get(VTop* top, const Params&, Out* out)
    {
        gm_tb::dcl1q_get_outputs(top, out);
    }
    static void compare(const Params&, const Out& e, const Out& a, gm_tb::Checker& chk)
    {
        gm_tb::dcl1q_compare(e, a, chk);
    }
    static int find(gm_system* sys, const std::string& pattern, std::vector<Found<Dcl1qTwin>>* out,
                    gm_error* err)
    {
        (void)err;
        for (uint32_t k = 0; k < gm_dcl1_queue_count(sys); k++) {
            std::string name = "dcl1q-" + std::to_string(k);
            bool hit = pattern_item(pattern, [&](const std::string& item) {
                return item != "all" && !item.empty() && fnmatch(item.c_str(), name.c_str(), 0) == 0;
            });
            if (!hit) continue;
            out->push_back({name, Params{gm_dcl1_queue_depth(sys, k)},
                            [sys, k](const Hook* h, gm_error* e) {
                                return gm_dcl1_queue_attach_twin(sys, k, h, e);
                            }});
        }
        return 0;
    }
    static std::string announce(size_t n, const std::string& first)
    {
        return plural(n, "DC-L1 node queue instance") + " in RTL (" + first + " ...)";
    }
};

}  // namespace gm_twin

#endif
