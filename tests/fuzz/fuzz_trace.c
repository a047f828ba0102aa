/* libFuzzer target for the Accel-Sim trace reader (scripts/fuzz trace).
 * Every input goes through both parsers: as a kernelslist.g and as one
 * kernel-N.traceg (plain or xz). A kernel that parses is then generated
 * warp by warp (the record decoder) and every instruction is formatted
 * the way the exporter writes it. The contract checked: no crash, no
 * sanitizer report, and a failure always comes with a message.
 * tests/unit/test_trace.c feeds the corpus and every kept crash input
 * through the same function without libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (gm_fuzz_trace_one(data, size) != 0)
        abort();   /* a failure without a message */
    return 0;
}
