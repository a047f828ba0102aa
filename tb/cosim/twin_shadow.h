// Twin adapter of the CCN shadow tags (rtl/gm_shadow_tags.sv,
// cmodel/designs/ccn/ccn_shadow.h) for tb/common/twin.h: instance k is
// CCN node k's array, "ccn-shadow-<k>"; the hook is gm_shadow_twin; the
// node takes the twin's lookup answers. Cycles are core cycles.
#ifndef GM_TB_COSIM_TWIN_SHADOW_H
#define GM_TB_COSIM_TWIN_SHADOW_H

#include <vector>

#include "common/twin.h"
#include "shadow/shadow_bench.h"

extern "C" {
#include "designs/ccn/ccn.h"
#include "designs/ccn/ccn_shadow.h"
}

namespace gm_twin {

struct ShadowTwin {
    struct Params {
        uint32_t sets, ways, tag_bits;
    };
    using In = gm_shadow_tags_in;
    using Out = gm_shadow_tags_out;
    using Hook = gm_shadow_twin;
    static constexpr const char* kModel = "shadow tags of";
    static constexpr const char* kNoun = "the C shadow tags";
    static constexpr const char* kUnit = "cycle";
    static constexpr bool kFieldCount = true;
    static constexpr const char* kMatched = "the C shadow tags";
    static constexpr const char* kOwnCount = nullptr;
    static constexpr bool kEvalFall = true;
    static constexpr bool kSkipSettled = false;
    static constexpr bool kCompareAfterTick = false;

    static Params params(uint32_t sets, uint32_t ways, uint32_t tag_bits)
    {
        return Params{sets, ways, tag_bits};
    }
    static bool same(const Params& a, const Params& b)
    {
        return a.sets == b.sets && a.ways == b.ways && a.tag_bits == b.tag_bits;
    }
    static std::string text(const Params& p)
    {
        return std::to_string(p.sets) + " sets x " + std::to_string(p.ways) + " ways, " +
               std::to_string(p.tag_bits) + "-bit tags";
    }
    template <class VTop>
    static void put(VTop* top, const Params&, const In& in)
    {
        gm_tb::shadow_put_inputs(top, in);
    }
    template <class VTop>
    static void put_idle(VTop* top, const Params&)
    {
        gm_tb::shadow_put_inputs(top, In{});
    }
    template <class VTop>
    static void get(VTop* top, const Params&, Out* out)
    {
        gm_tb::shadow_get_outputs(top, out);
    }
    static void compare(const Params&, const Out& e, const Out& a, gm_tb::Checker& chk)
    {
        gm_tb::shadow_compare(e, a, chk);
    }
    static int find(gm_system* sys, const std::string& pattern, std::vector<Found<ShadowTwin>>* out,
                    gm_error* err)
    {
        (void)err;
        for (uint32_t k = 0; k < gm_ccn_shadow_count(sys); k++) {
            char name[48];
            gm_ccn_shadow_name(sys, k, name, sizeof name);
            if (!glob_matches(pattern, name)) continue;
            Params p{};
            gm_ccn_shadow_size(sys, k, &p.sets, &p.ways, &p.tag_bits);
            out->push_back({name, p, [sys, k](const Hook* h, gm_error* e) {
                                return gm_ccn_shadow_attach_twin(sys, k, h, e);
                            }});
        }
        return 0;
    }
    static std::string announce(size_t n, const std::string& first)
    {
        return plural(n, "shadow tag instance") + " in RTL (" + first + " ...)";
    }
};

}  // namespace gm_twin

#endif
