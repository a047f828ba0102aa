// System co-simulation (gmsim-cosim): block instances of a full gmsim run
// realized by their Verilated RTL, the C blocks in shadow. Read
// docs/cosim.md. The framework is tb/common/twin.h, one adapter per block
// is tb/cosim/twin_*.h, and the Verilated parameterizations a binary
// holds are chosen in tb/cosim/CMakeLists.txt.
#ifndef GM_TB_COSIM_H
#define GM_TB_COSIM_H

extern "C" {
#include "cli/cli.h"
}

namespace gm_cosim {

// The gmsim command line with `run --rtl PATTERN` (cosim_main.cpp); base,
// when not NULL, is the embedding program's own extension (its run hook
// and help), e.g. the SystemC top's gmsim-sc-rtl. Built without main()
// when GM_COSIM_NO_MAIN is defined.
int cli_main(int argc, char** argv, const gm_cli_ext* base);

}  // namespace gm_cosim

#endif
