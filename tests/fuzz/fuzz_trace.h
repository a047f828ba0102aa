/* The body of the trace fuzz target, shared with the cmocka regression
 * test: header-only so that both builds compile it with their own flags. */
#ifndef GM_TESTS_FUZZ_TRACE_H
#define GM_TESTS_FUZZ_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "workload/trace_read.h"
#include "workload/trace_write.h"
#include "workload/walk.h"

static int gm_fuzz_count_cmd(const gm_trace_cmd *c, void *arg, gm_error *err)
{
    (void)err;
    (*(unsigned *)arg) += c->kind == GM_TRACE_CMD_KERNEL ? 1u : 0u;
    return 0;
}

/* Formats every generated instruction as an export line: whatever the
 * reader accepts, the writer must be able to write. */
static int gm_fuzz_format_chunk(const gm_kernel *k, uint32_t ki, const gm_warp_gen *g,
                                const gm_inst *in, int n, void *arg)
{
    char line[2048];
    gm_error err = {{0}};
    (void)k;
    (void)ki;
    (void)g;
    for (int i = 0; i < n; i++) {
        int len = gm_trace_format_inst(&in[i], (unsigned)i, line, sizeof line, &err);
        if (len < 0)
            return 2;
        (*(uint64_t *)arg) += (uint64_t)len;
    }
    return 0;
}

/* Returns 0 when each parser either worked or failed with a message, and
 * a kernel that parsed generates (walk checks the EXIT contract) and
 * formats without error. */
static inline int gm_fuzz_trace_one(const uint8_t *data, size_t size)
{
    gm_error err;
    gm_workload w;
    unsigned kernels = 0;
    uint64_t bytes = 0;

    memset(&err, 0, sizeof err);
    if (gm_trace_parse_kernelslist((const char *)data, size, "fuzz.list", gm_fuzz_count_cmd,
                                   &kernels, &err) != 0 && !err.msg[0])
        return -1;

    memset(&err, 0, sizeof err);
    if (gm_trace_workload_from_buffer(&w, data, size, "fuzz.traceg", &err) != 0)
        return err.msg[0] ? 0 : -1;
    int rc = gm_workload_walk(&w, 16, gm_fuzz_format_chunk, &bytes, &err);
    gm_workload_free(&w);
    return rc == 0 ? 0 : -1;
}

#endif
