/* Numeric option values (options.h). strtoull is not used: it skips
 * leading blanks, accepts a sign (and negates "-1" into 2^64 - 1) and
 * reads a leading 0 as octal. */
#include "cli/options.h"

#include <inttypes.h>
#include <stdio.h>

static int digit_value(char c, unsigned base)
{
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    return (unsigned)d < base ? d : -1;
}

int gm_cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t min,
                     uint64_t max, uint64_t *out)
{
    const char *why = NULL;
    const char *s = text;
    unsigned base = 10;
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*text == '\0') {
        why = "empty value";
    } else if (*s == '\0') {
        why = "not a whole number";
    } else {
        for (; *s && !why; s++) {
            int d = digit_value(*s, base);
            if (d < 0)
                why = "not a whole number";
            else if (v > (UINT64_MAX - (unsigned)d) / base)
                why = "out of range";
            else
                v = v * base + (unsigned)d;
        }
    }
    if (!why && (v < min || v > max))
        why = "out of range";
    if (why) {
        fprintf(stderr, "%s: %s '%s': %s (a whole number from %" PRIu64 " to %" PRIu64 ")\n",
                cmd, opt, text, why, min, max);
        return -1;
    }
    *out = v;
    return 0;
}
