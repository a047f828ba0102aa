// System co-simulation of the CCN shadow tags (gmsim-cosim --rtl
// 'ccn-shadow-*'): each node's gm_shadow_tags realized by the Verilated
// rtl/gm_shadow_tags.sv through the gm_shadow_twin hook of
// cmodel/designs/ccn/ccn_shadow.h, as routers are through gm_router_twin
// (cosim.h). One Verilated class per array size, registered here.
#ifndef GM_TB_COSIM_SHADOW_H
#define GM_TB_COSIM_SHADOW_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"

extern "C" {
#include "designs/ccn/ccn_shadow.h"
}

namespace gm_cosim {

class RtlShadow {
public:
    virtual ~RtlShadow() = default;
    virtual void reset() = 0;
    virtual void outputs(gm_shadow_tags_out* out) = 0;
    virtual void clock(const gm_shadow_tags_in& in, uint64_t cycle) = 0;
    virtual void trace_open(const std::string& path) = 0;
    virtual void trace_close() = 0;
};

struct ShadowKind {
    uint32_t sets, ways, tag_bits;
    std::string prefix;
    std::function<std::unique_ptr<RtlShadow>(VerilatedContext*)> make;
};

std::vector<ShadowKind>& shadow_registry();

struct ShadowRegistrar {
    explicit ShadowRegistrar(ShadowKind k) { shadow_registry().push_back(std::move(k)); }
};

}  // namespace gm_cosim

#endif
