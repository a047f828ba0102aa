/* Accel-Sim trace input: a workload read from a kernelslist.g and its
 * kernel-N.traceg files (tracer versions 1 to 5, plain or .xz). The format,
 * the opcode mapping and the read-only rule are in docs/traces.md.
 *
 * Every kernel file is parsed and checked completely when the workload is
 * built, so a malformed trace fails there, with "file:line: reason".
 *
 * By default a trace is streamed: the build keeps, per kernel, only its
 * shape and a hash. When a kernel's first warp is generated its file is
 * indexed again (where each warp starts, a hash of its records, the lines
 * its stores touch, for the read-only rule), and each CTA is read into a
 * buffer of its own when its first warp is generated and freed when its
 * last warp has returned its EXIT. Memory is the running kernel's index
 * (24 B a warp plus the stored lines) and the CTAs in flight, not the
 * file. With a non-zero `resident_bytes`, kernels are instead kept whole
 * as compact images (per-warp instruction records plus an index by warp)
 * while all of them fit in that budget. */
#ifndef GM_WORKLOAD_TRACE_READ_H
#define GM_WORKLOAD_TRACE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "sim/error.h"
#include "workload/workload.h"

/* Prefix of trace workload names given to gm_workload_build. */
#define GM_TRACE_PREFIX "trace:"

#define GM_TRACE_RESIDENT_DEFAULT 0ull   /* stream */

typedef struct gm_trace_opts {
    uint64_t resident_bytes;   /* budget for keeping every kernel parsed; 0 streams */
} gm_trace_opts;

/* What a streamed trace holds besides its descriptors. */
typedef struct gm_trace_mem {
    uint64_t buffered_bytes;   /* CTA buffers now, and the parse scratch */
    uint64_t buffered_peak;    /* high-water mark of buffered_bytes */
    uint32_t ctas_buffered;    /* CTAs whose records are held now */
    uint32_t ctas_peak;
    uint64_t index_bytes;      /* the running kernel's index and stored lines */
    uint64_t rewinds;          /* xz data decoded again from the start */
} gm_trace_mem;

/* Builds *w from the kernelslist.g at `path` with the default budget.
 * On failure *w is zeroed and err says file, line and reason. */
int gm_trace_workload_build(gm_workload *w, const char *path, gm_error *err);
int gm_trace_workload_build_opts(gm_workload *w, const char *path, const gm_trace_opts *o,
                                 gm_error *err);

/* Builds a one-kernel workload from the text (or xz data) of one traceg
 * file held in memory; `name` is used in messages. Always resident. */
int gm_trace_workload_from_buffer(gm_workload *w, const void *buf, size_t len,
                                  const char *name, gm_error *err);

/* A kernel that had to be parsed again at launch and could not be (its
 * file changed or vanished after the build) runs as warps of one EXIT
 * each; this reports it. Returns 0 when nothing failed (or w is not a
 * trace workload), else -1 with err set. */
int gm_trace_workload_check(const gm_workload *w, gm_error *err);

/* True if w was built by this reader; then *streamed says whether its
 * kernels are read CTA by CTA as they run. */
int gm_trace_workload_info(const gm_workload *w, int *streamed);

/* True if w was built by this reader; fills *m (zeros when resident). */
int gm_trace_workload_memory(const gm_workload *w, gm_trace_mem *m);

/* One command of a kernelslist.g. */
typedef enum gm_trace_cmd_kind { GM_TRACE_CMD_KERNEL, GM_TRACE_CMD_MEMCPY } gm_trace_cmd_kind;

typedef struct gm_trace_cmd {
    gm_trace_cmd_kind kind;
    unsigned line;           /* 1-based line in the list */
    const char *text;        /* kernel: the file name as written (not NUL-terminated) */
    size_t text_len;
    uint64_t addr, bytes;    /* MemcpyHtoD destination and size */
} gm_trace_cmd;

typedef int (*gm_trace_cmd_fn)(const gm_trace_cmd *c, void *arg, gm_error *err);

/* Parses kernelslist.g text (buf need not be NUL-terminated) and calls fn
 * for every kernel and MemcpyHtoD command in order; other Memcpy lines,
 * '#' lines and blank lines are skipped. Returns 0, fn's failure, or -1
 * with err = "name:line: reason". */
int gm_trace_parse_kernelslist(const char *buf, size_t len, const char *name,
                               gm_trace_cmd_fn fn, void *arg, gm_error *err);

#endif
