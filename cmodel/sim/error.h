/* Error reporting: functions deep in the model never print; they fill a
 * gm_error and return non-zero. The command decides how to show it. */
#ifndef GM_SIM_ERROR_H
#define GM_SIM_ERROR_H

#include <stdarg.h>

typedef struct gm_error {
    char msg[512];
} gm_error;

/* Formats into err (if non-NULL) and returns -1, so callers can write
 * `return gm_fail(err, "...", ...);`. */
int gm_fail(gm_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
