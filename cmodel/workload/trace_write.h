/* Accel-Sim trace output: any workload (built-in or trace) written as a
 * kernelslist.g and tracer-version-4 kernel-N.traceg files, chosen so that
 * reading them back (trace_read.h) gives the same instruction streams.
 * Format and limits: docs/traces.md. */
#ifndef GM_WORKLOAD_TRACE_WRITE_H
#define GM_WORKLOAD_TRACE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/error.h"
#include "workload/workload.h"

typedef struct gm_trace_export_stats {
    uint32_t kernels;
    uint64_t warps;
    uint64_t insts;          /* instruction lines written */
    uint64_t bytes;          /* of all files */
} gm_trace_export_stats;

/* Longest directory name an export takes. */
#define GM_TRACE_DIR_MAX 4000

/* Writes dir/kernelslist.g and dir/kernel-1.traceg ... kernel-n.traceg
 * (dir is created with its missing parents). Every file is written to a
 * temporary beside it and the temporaries are renamed into place only
 * when all are written, the list last: a failed export (I/O error, disk
 * full, an instruction the format cannot carry back: a memory access of
 * the core with width 0 or above 128) changes nothing in dir. After the
 * renames, other kernel-<n>.traceg and kernel-<n>.traceg.xz files in dir
 * (an earlier, longer export) are removed; other files are kept. stats
 * may be NULL. */
int gm_trace_export(const gm_workload *w, const char *dir, gm_trace_export_stats *stats,
                    gm_error *err);

/* The checks made before an export is built (gmsim trace export): dir
 * may not be a directory that the trace workload whose kernelslist.g is
 * `source` reads from (the list's directory or a kernel file's; NULL for
 * a built-in workload), and unless force it must be missing or empty. A
 * missing dir passes. Returns 0, or -1 with err. */
int gm_trace_export_check(const char *dir, const char *source, int force, gm_error *err);

/* Formats one instruction as a version-4 trace line without line number
 * or newline. Returns the length, or -1 with err set. */
int gm_trace_format_inst(const gm_inst *in, unsigned pc, char *buf, size_t cap,
                         gm_error *err);

/* Where two workloads' streams differ (compared warp by warp: kernel
 * shapes, then every instruction's op, mask, registers, width, flags and
 * active-lane addresses). */
typedef struct gm_trace_diff {
    uint64_t insts;          /* instructions compared */
    uint64_t shape;          /* kernels whose count, grid or block differ */
    uint64_t length;         /* warps whose instruction counts differ */
    uint64_t op, mask, regs, width, addr;
    uint64_t flags;          /* with different flags (the read-only bit) */
    uint64_t ro_only_a;      /* of those: read-only in a only */
    uint64_t ro_only_b;      /* read-only in b only */
    char first[256];         /* the first difference, for people */
} gm_trace_diff;

/* Returns 0 (out filled; identical when every counter but insts is 0) or
 * -1 with err set when a generator breaks its contract. */
int gm_trace_compare(const gm_workload *a, const gm_workload *b, gm_trace_diff *out,
                     gm_error *err);

#endif
