// gmsim-sc: the gmsim command whose `run` simulates inside SystemC: the
// system the command line builds is run by a gm_system_sc module under
// sc_start() instead of by gm_system_run, with the built-in cores and
// workload (docs/systemc.md). Its statistics must equal `gmsim run`'s byte
// for byte (test rtl.systemc.identical.*). Built as gmsim-sc-rtl
// (GM_SC_WITH_RTL, tb/cosim/CMakeLists.txt) it also takes `run --rtl
// PATTERN`: gmsim-cosim's twins, evaluated at the model's network edges
// inside the SystemC process, mismatches reported as gmsim-cosim does.
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "systemc/gm_system_sc.h"

extern "C" {
#include "cli/cli.h"
}
#ifdef GM_SC_WITH_RTL
// gmsim-sc-rtl: gmsim-cosim's --rtl twins inside the SystemC top. Declared
// here, not by including cosim/cosim.h: verilated.h seen after <systemc>
// switches to its SystemC mode, which this non-SystemC Verilation is not.
namespace gm_cosim {
int cli_main(int argc, char** argv, const gm_cli_ext* base);
}
#endif

namespace {

struct Session {
    std::unique_ptr<gm_sc::gm_system_sc> top;
};

int run_in_systemc(void* arg, gm_system* s, const gm_workload* wl, gm_error* err)
{
    Session* ses = static_cast<Session*>(arg);
    // One elaboration and one sc_start per process: gmsim-sc runs one
    // simulation (gmsim run), which is all the command line asks of it.
    if (ses->top) return gm_fail(err, "gmsim-sc: one run per process");
    try {
        ses->top = std::make_unique<gm_sc::gm_system_sc>("gmsim", s);
    } catch (const std::exception& e) {
        return gm_fail(err, "%s", e.what());
    }
    ses->top->set_workload(wl);
    // The module ends the run with sc_stop(); SystemC's note saying so
    // would be noise in gmsim's output.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    sc_core::sc_start();
    if (!ses->top->finished()) return gm_fail(err, "gmsim-sc: SystemC stopped before the run ended");
    if (ses->top->result() != 0) return gm_fail(err, "%s", ses->top->error().c_str());
    return 0;
}

const char kRunHelp[] =
    "\nSystemC (gmsim-sc only): the run is simulated by the gm_system_sc module\n"
    "under sc_start(); its statistics are those of gmsim run. docs/systemc.md.\n";

}  // namespace

int sc_main(int argc, char** argv)
{
    Session s;
    gm_cli_ext ext{};
    ext.run_help = kRunHelp;
    ext.run = run_in_systemc;
    ext.arg = &s;
#ifdef GM_SC_WITH_RTL
    int rc = gm_cosim::cli_main(argc, argv, &ext);
#else
    int rc = gm_cli_main(argc, argv, &ext);
#endif
    // The module (and its SystemC objects) go before the kernel's teardown.
    s.top.reset();
    return rc;
}
