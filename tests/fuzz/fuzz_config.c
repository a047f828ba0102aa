/* libFuzzer target for the INI configuration reader (scripts/fuzz config).
 * Every input is loaded as a configuration file on top of the defaults;
 * what is accepted is validated and must round-trip through
 * gm_config_to_ini (fuzz_config.h). tests/unit/test_config_fuzz.c feeds
 * the corpus and every kept crash input through the same function
 * without libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One scratch file per fuzzing process, in $TMPDIR (or /tmp), removed at
 * exit. A libFuzzer target is one process with one thread: a static
 * holding the name is the simplest correct thing here. */
static char scratch[4096];

static void remove_scratch(void)
{
    if (scratch[0])
        unlink(scratch);
}

static const char *scratch_path(void)
{
    if (!scratch[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/gm_fuzz_config_XXXXXX",
                 dir && *dir ? dir : "/tmp");
        int fd = mkstemp(scratch);
        if (fd < 0) {
            perror("fuzz_config: mkstemp");
            abort();
        }
        close(fd);
        atexit(remove_scratch);
    }
    return scratch;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (gm_fuzz_config_one(data, size, scratch_path()) != 0)
        abort();   /* the contract is broken: keep the input */
    return 0;
}
