/* Option values shared by the gmsim commands (cli.c, trace_cmd.c). */
#ifndef GM_CLI_OPTIONS_H
#define GM_CLI_OPTIONS_H

#include <stdint.h>

/* Parses the value of a numeric option: decimal digits, or 0x and
 * hexadecimal digits, and nothing else (no sign, blank, suffix or empty
 * value), between min and max inclusive. On error prints one line to
 * stderr naming the command, the option, the value and the allowed range,
 * and returns -1. */
int gm_cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t min,
                     uint64_t max, uint64_t *out);

#endif
