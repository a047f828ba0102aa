// Twin adapter of the ATA aggregated tag array (rtl/gm_ata_tags.sv,
// cmodel/designs/ata/ata_tagblk.h) for tb/common/twin.h: in a kind = ata
// system cluster z's block is "ata.tags-<z>"; the hook is
// gm_ata_tblk_twin of ata_tagblk.h. The block is clocked once per tag
// change or lookup of its cluster (cmodel/designs/ata/ata_tags.c), so its
// cycles are block cycles (edges), not core cycles.
#ifndef GM_TB_COSIM_TWIN_ATA_H
#define GM_TB_COSIM_TWIN_ATA_H

#include <vector>

#include "ata/ata_bench.h"
#include "common/twin.h"

extern "C" {
#include "designs/ata/ata.h"
#include "designs/ata/ata_tagblk.h"
}

namespace gm_twin {

struct AtaTwin {
    using In = gm_ata_tblk_in;
    using Out = gm_ata_tblk_out;
    using Hook = gm_ata_tblk_twin;
    using Params = gm_tb::AtaConfig;
    static constexpr const char* kModel = "tag array of";
    static constexpr const char* kNoun = "the C tag array block";
    static constexpr const char* kUnit = "block cycle";
    static constexpr bool kFieldCount = true;
    static constexpr const char* kMatched = "the C tag array blocks";
    static constexpr const char* kOwnCount = "tag array block cycles";
    // The seed's 10 x 8 x 64 array, loops kept, costs about 0.8 ms a block
    // cycle; no logic runs on the falling edge, so it is not evaluated.
    static constexpr bool kEvalFall = false;
    static constexpr bool kSkipSettled = false;
    static constexpr bool kCompareAfterTick = true;

    static Params params(unsigned arrays, unsigned sets, unsigned ways, unsigned tag_bits,
                         unsigned ports, unsigned sectors, unsigned mutation)
    {
        return Params{arrays, sets, ways, tag_bits, ports, sectors, mutation};
    }
    // The mutation is not a parameter of the C block: a mutant binary
    // stands in for the real one.
    static bool same(const Params& a, const Params& b)
    {
        return a.arrays == b.arrays && a.sets == b.sets && a.ways == b.ways &&
               a.tag_bits == b.tag_bits && a.ports == b.ports && a.sectors == b.sectors;
    }
    static std::string text(const Params& p)
    {
        char b[128];
        std::snprintf(b, sizeof b, "%u arrays x %u sets x %u ways, %u-bit tags, %u ports, "
                      "%u sectors", p.arrays, p.sets, p.ways, p.tag_bits, p.ports, p.sectors);
        return b;
    }
    template <class VTop>
    static void put(VTop* top, const Params& p, const In& in)
    {
        gm_tb::ata_put_inputs(top, p, in);
    }
    template <class VTop>
    static void put_idle(VTop* top, const Params& p)
    {
        gm_tb::ata_put_inputs(top, p, In{});
    }
    template <class VTop>
    static void get(VTop* top, const Params& p, Out* out)
    {
        gm_tb::ata_get_outputs(top, p, out);
    }
    static void compare(const Params& p, const Out& e, const Out& a, gm_tb::Checker& chk)
    {
        gm_tb::ata_compare(p, e, a, chk);
    }
    static int find(gm_system* sys, const std::string& pattern, std::vector<Found<AtaTwin>>* out,
                    gm_error* err)
    {
        (void)err;
        for (uint32_t z = 0; z < gm_ata_tags_count(sys); z++) {
            std::string name = "ata.tags-" + std::to_string(z);
            if (!glob_matches(pattern, name.c_str())) continue;
            const gm_ata_tblk* b = gm_ata_tags_block(sys, z);
            Params p{b->arrays, b->sets, b->ways, b->tag_bits, b->ports, b->sectors, 0};
            out->push_back({name, p, [sys, z](const Hook* h, gm_error* e) {
                                return gm_ata_tags_attach_twin(sys, z, h, e);
                            }});
        }
        return 0;
    }
    static std::string announce(size_t n, const std::string& first)
    {
        return plural(n, "ATA tag array instance") + " in RTL (" + first + " ...)";
    }
};

}  // namespace gm_twin

#endif
