// System co-simulation (gmsim-cosim): router instances of a full gmsim run
// realized by their Verilated RTL through the gm_router_twin hook of
// cmodel/noc/net.h. Read docs/cosim.md.
//
// One Verilated class exists per router parameterization, so each size a
// configuration needs is Verilated at build time (tb/cosim/CMakeLists.txt)
// and registered here under its parameters; an instance whose parameters
// have no model is an error that lists the ones built.
#ifndef GM_TB_COSIM_H
#define GM_TB_COSIM_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"

extern "C" {
#include "cli/cli.h"
#include "designs/selrep/selrep_rddb.h"
#include "noc/router.h"
}

namespace gm_cosim {

// One Verilated router instance behind a uniform interface.
class RtlRouter {
public:
    virtual ~RtlRouter() = default;
    // Two rising edges with rst_ni low, then rst_ni high.
    virtual void reset() = 0;
    // The Moore outputs of the current state.
    virtual void outputs(gm_router_out* out) = 0;
    // The rising edge that ends network cycle `cycle`, with these inputs.
    // The cycle only timestamps the waveform (10 time units a cycle, so a
    // divergence at cycle N is at time 10*N in the FST) and $time.
    virtual void clock(const gm_router_in& in, uint64_t cycle) = 0;
    // Starts an FST of this instance (Verilated with tracing).
    virtual void trace_open(const std::string& path) = 0;
    virtual void trace_close() = 0;
};

struct ModelKind {
    gm_router_cfg cfg;
    std::string prefix;  // Verilated class, e.g. Vcosim_80x32
    std::function<std::unique_ptr<RtlRouter>(VerilatedContext*)> make;
};

std::vector<ModelKind>& model_registry();

// The gmsim command line with `run --rtl PATTERN` (cosim_main.cpp); base,
// when not NULL, is the embedding program's own extension (its run hook
// and help), e.g. the SystemC top's gmsim-sc-rtl. Built without main()
// when GM_COSIM_NO_MAIN is defined.
int cli_main(int argc, char** argv, const gm_cli_ext* base);

struct ModelRegistrar {
    explicit ModelRegistrar(ModelKind k) { model_registry().push_back(std::move(k)); }
};

// The SelRep RDD block (rtl/gm_selrep_rdd.sv) behind the same kind of
// interface; a system has at most one (`--rtl selrep-rdd`).
class RtlRdd {
public:
    virtual ~RtlRdd() = default;
    virtual void reset() = 0;
    virtual void outputs(gm_selrep_rddb_out* out) = 0;
    virtual void clock(const gm_selrep_rddb_in& in, uint64_t cycle) = 0;
    virtual void trace_open(const std::string& path) = 0;
    virtual void trace_close() = 0;
};

struct RddModelKind {
    gm_selrep_rddb_params params;
    std::string prefix;
    std::function<std::unique_ptr<RtlRdd>(VerilatedContext*)> make;
};

std::vector<RddModelKind>& rdd_model_registry();

struct RddModelRegistrar {
    explicit RddModelRegistrar(RddModelKind k) { rdd_model_registry().push_back(std::move(k)); }
};

}  // namespace gm_cosim

#endif
