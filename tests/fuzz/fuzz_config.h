/* The body of the INI fuzz target (fuzz_config.c), shared with the cmocka
 * regression test (tests/unit/test_config_fuzz.c): header-only so that both
 * builds compile it with their own flags.
 *
 * An input is written to a scratch file and loaded with gm_config_load_file
 * on top of the defaults: the real entry point, with its line reader (NUL
 * bytes, long lines, the size bound) and inih. The contract checked:
 *  - a rejected file comes with a message that names it;
 *  - an accepted configuration goes through gm_config_validate without a
 *    crash (accepted or rejected with a message);
 *  - an accepted configuration round-trips: gm_config_to_ini of it, loaded
 *    on top of the defaults, gives back every key's value and the same
 *    text. */
#ifndef GM_TESTS_FUZZ_CONFIG_H
#define GM_TESTS_FUZZ_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/config_keys.h"

static int gm_fuzz_config_write(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && put == size ? 0 : -1;
}

static int gm_fuzz_config_broken(const char *why, const char *detail)
{
    fprintf(stderr, "fuzz_config: %s%s%s\n", why, detail ? ": " : "", detail ? detail : "");
    return -1;
}

/* Returns 0 when the contract holds, -1 (reason on stderr) when not.
 * `scratch` is a writable file path the function may overwrite. */
static inline int gm_fuzz_config_one(const uint8_t *data, size_t size, const char *scratch)
{
    gm_config a, b;
    gm_error err;
    int rc = 0;

    if (gm_fuzz_config_write(scratch, data, size) != 0)
        return gm_fuzz_config_broken("cannot write the scratch file", scratch);
    memset(&err, 0, sizeof err);
    gm_config_defaults(&a);
    if (gm_config_load_file(&a, scratch, &err) != 0) {
        if (!strstr(err.msg, scratch))
            return gm_fuzz_config_broken("rejected without naming the file", err.msg);
        return 0;
    }

    memset(&err, 0, sizeof err);
    if (gm_config_validate(&a, &err) != 0 && !err.msg[0])
        return gm_fuzz_config_broken("validation failed without a message", NULL);

    char *text = gm_config_to_ini(&a);
    if (!text)
        return gm_fuzz_config_broken("gm_config_to_ini failed", NULL);
    memset(&err, 0, sizeof err);
    gm_config_defaults(&b);
    if (gm_fuzz_config_write(scratch, text, strlen(text)) != 0)
        rc = gm_fuzz_config_broken("cannot write the scratch file", scratch);
    else if (gm_config_load_file(&b, scratch, &err) != 0)
        rc = gm_fuzz_config_broken("gm_config_to_ini wrote a file that does not load", err.msg);
    for (size_t i = 0; rc == 0 && i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        if (gm_config_key_get(&a, k) != gm_config_key_get(&b, k))
            rc = gm_fuzz_config_broken("a key changed on the round trip", k->name);
    }
    if (rc == 0) {
        char *again = gm_config_to_ini(&b);
        if (!again || strcmp(text, again) != 0)
            rc = gm_fuzz_config_broken("gm_config_to_ini differs after the round trip", NULL);
        free(again);
    }
    free(text);
    return rc;
}

#endif
