// Twin adapter of the router (rtl/gm_router.sv, cmodel/noc/router.h) for
// tb/common/twin.h: instances are the routers of every network the design
// registered (gmsim topology lists them); the hook is gm_router_twin of
// cmodel/noc/net.h. PATTERN items: "all", a network name (noc, noc1,
// noc2, ccn) or a glob over router names.
#ifndef GM_TB_COSIM_TWIN_ROUTER_H
#define GM_TB_COSIM_TWIN_ROUTER_H

#include <vector>

#include "common/twin.h"
#include "router/router_bench.h"

extern "C" {
#include "noc/net.h"
}

namespace gm_twin {

struct RouterTwin {
    using In = gm_router_in;
    using Out = gm_router_out;
    using Hook = gm_router_twin;
    using Params = gm_router_cfg;
    static constexpr const char* kModel = "model of";
    static constexpr const char* kNoun = "the C router";
    static constexpr const char* kUnit = "network cycle";
    static constexpr bool kFieldCount = true;
    static constexpr const char* kMatched = "the C routers";
    static constexpr const char* kOwnCount = nullptr;
    static constexpr bool kEvalFall = false;
    // Verilated with everything inlined into the root (docs/cosim.md)
    static constexpr bool kSkipSettled = true;
    static constexpr bool kCompareAfterTick = false;

    static Params params(uint32_t n_in, uint32_t n_out, uint32_t vcs, uint32_t depth,
                         uint32_t stages, uint32_t iters)
    {
        return Params{n_in, n_out, vcs, depth, stages, iters};
    }
    static bool same(const Params& a, const Params& b)
    {
        return a.n_in == b.n_in && a.n_out == b.n_out && a.vcs == b.vcs &&
               a.depth == b.depth && a.stages == b.stages && a.iters == b.iters;
    }
    static std::string text(const Params& c)
    {
        char b[96];
        std::snprintf(b, sizeof b, "%ux%u vcs %u depth %u stages %u iters %u", c.n_in, c.n_out,
                      c.vcs, c.depth, c.stages, c.iters);
        return b;
    }
    template <class VTop>
    static void put(VTop* top, const Params& c, const In& in)
    {
        gm_tb::router_put_inputs(top, c, in);
    }
    template <class VTop>
    static void put_idle(VTop* top, const Params& c)
    {
        gm_router_in in{};
        std::vector<gm_router_flit> fl(c.n_in);
        std::vector<gm_router_credit> cr(c.n_out);
        in.in = fl.data();
        in.out = cr.data();
        gm_tb::router_put_inputs(top, c, in);
    }
    template <class VTop>
    static void get(VTop* top, const Params& c, Out* out)
    {
        gm_tb::router_get_outputs(top, c, out);
    }
    static void compare(const Params& c, const Out& e, const Out& a, gm_tb::Checker& chk)
    {
        gm_tb::router_compare(c, e, a, chk);
    }
    static int find(gm_system* sys, const std::string& pattern, std::vector<Found<RouterTwin>>* out,
                    gm_error* err)
    {
        (void)err;
        for (uint32_t i = 0; i < gm_system_net_count(sys); i++) {
            gm_net_ref r = gm_system_net_at(sys, i);
            for (uint32_t rk = 0; rk < gm_net_router_count(r.net); rk++) {
                if (gm_net_router_is_stop(r.net, rk)) continue;  // no RTL twin
                const char* name = gm_net_router_name(r.net, rk);
                bool hit = pattern_item(pattern, [&](const std::string& item) {
                    return item == "all" || item == r.network ||
                           (!item.empty() && fnmatch(item.c_str(), name, 0) == 0);
                });
                if (!hit) continue;
                gm_net* net = r.net;
                out->push_back({name, *gm_net_router_cfg(net, rk),
                                [net, rk](const Hook* h, gm_error* e) {
                                    return gm_net_attach_twin(net, rk, h, e);
                                }});
            }
        }
        return 0;
    }
    static std::string announce(size_t n, const std::string& first)
    {
        return plural(n, "router instance") + " in RTL (" + first + " ...)";
    }
};

}  // namespace gm_twin

#endif
