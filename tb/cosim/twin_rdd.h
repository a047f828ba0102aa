// Twin adapter of the SelRep RDD block (rtl/gm_selrep_rdd.sv,
// cmodel/designs/selrep/selrep_rddb.h) for tb/common/twin.h: a selrep or
// adaptive system has one, "selrep-rdd", put in RTL only when PATTERN
// names it (not by "all"); the hook is gm_selrep_rdd_twin. Cycles are the
// design's RDD (core) cycles.
#ifndef GM_TB_COSIM_TWIN_RDD_H
#define GM_TB_COSIM_TWIN_RDD_H

#include <vector>

#include "common/twin.h"
#include "selrep_rdd/rdd_ports.h"

extern "C" {
#include "designs/selrep/selrep.h"
#include "designs/selrep/selrep_rddb.h"
}

namespace gm_twin {

struct RddTwin {
    using In = gm_selrep_rddb_in;
    using Out = gm_selrep_rddb_out;
    using Hook = gm_selrep_rdd_twin;
    using Params = gm_selrep_rddb_params;
    static constexpr const char* kModel = "RDD with";
    static constexpr const char* kNoun = "the C block";
    static constexpr const char* kUnit = "cycle";
    static constexpr bool kFieldCount = false;
    static constexpr const char* kMatched = "the C RDD";
    static constexpr const char* kOwnCount = "RDD cycles";
    static constexpr bool kEvalFall = true;
    static constexpr bool kSkipSettled = false;
    static constexpr bool kCompareAfterTick = false;

    static Params params(uint32_t sets, uint32_t ways, uint32_t clusters, uint32_t slices,
                         uint32_t ndeg, uint32_t counter_bits, uint32_t tag_bits,
                         uint32_t lanes, bool capacity)
    {
        Params p{};
        p.sets = sets;
        p.ways = ways;
        p.clusters = clusters;
        p.slices = slices;
        p.ndeg = ndeg;
        p.counter_bits = counter_bits;
        p.tag_bits = tag_bits;
        p.lanes = lanes;
        p.capacity = capacity;
        return p;
    }
    static bool same(const Params& a, const Params& b)
    {
        return a.sets == b.sets && a.ways == b.ways && a.clusters == b.clusters &&
               a.slices == b.slices && a.ndeg == b.ndeg && a.counter_bits == b.counter_bits &&
               a.tag_bits == b.tag_bits && a.lanes == b.lanes && a.capacity == b.capacity;
    }
    static std::string text(const Params& p)
    {
        char b[160];
        std::snprintf(b, sizeof b, "sets %u ways %u clusters %u slices %u degrees %u counters %u "
                      "tags %u lanes %u capacity %d", p.sets, p.ways, p.clusters, p.slices, p.ndeg,
                      p.counter_bits, p.tag_bits, p.lanes, p.capacity ? 1 : 0);
        return b;
    }
    template <class VTop>
    static void put(VTop* top, const Params& p, const In& in)
    {
        gm_tb::rdd_put_inputs(top, p, in);
    }
    template <class VTop>
    static void put_idle(VTop* top, const Params& p)
    {
        gm_tb::rdd_put_inputs(top, p, In{});
    }
    template <class VTop>
    static void get(VTop* top, const Params&, Out* out)
    {
        gm_tb::rdd_get_outputs(top, out);
    }
    static void compare(const Params&, const Out& e, const Out& a, gm_tb::Checker& chk)
    {
        gm_tb::rdd_compare(e, a, chk);
    }
    static int find(gm_system* sys, const std::string& pattern, std::vector<Found<RddTwin>>* out,
                    gm_error* err)
    {
        if (!pattern_item(pattern, [](const std::string& item) { return item == "selrep-rdd"; }))
            return 0;
        Params p{};
        if (gm_selrep_rdd_params(sys, &p, err) != 0) return -1;
        out->push_back({"selrep-rdd", p, [sys](const Hook* h, gm_error* e) {
                            return gm_selrep_attach_rdd_twin(sys, h, e);
                        }});
        return 0;
    }
    static std::string announce(size_t, const std::string&)
    {
        return "the SelRep RDD in RTL (selrep-rdd)";
    }
};

}  // namespace gm_twin

#endif
