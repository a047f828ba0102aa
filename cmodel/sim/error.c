#include "sim/error.h"

#include <stdio.h>
#include <string.h>

int gm_fail(gm_error *err, const char *fmt, ...)
{
    if (err) {
        /* Format into a copy: callers add context by passing the message
         * already in err as an argument ("%s: %s", path, err->msg), and
         * vsnprintf's output must not overlap its arguments. */
        char buf[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        if (n < 0)
            snprintf(buf, sizeof buf, "%s", fmt);
        memcpy(err->msg, buf, strlen(buf) + 1);
    }
    return -1;
}
