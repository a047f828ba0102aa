/* Run statistics: the JSON document (schema in docs/stats.md), the short
 * table for people, and the workload listing. The JSON holds only
 * simulated quantities, so the same inputs give the same bytes; host
 * timings go to the table and the benchmark only. */
#ifndef GM_STATS_REPORT_H
#define GM_STATS_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "system/system.h"

#define GM_STATS_SCHEMA_VERSION 2

typedef struct gm_run_info {
    const char *workload;
    const char *size;
    double cpu_seconds;   /* host time, never written to JSON */
} gm_run_info;

/* The headline figures of one run, for tables and the benchmark. */
typedef struct gm_run_result {
    char workload[64];
    const char *status;
    uint64_t core_cycles;
    uint64_t warp_insts;
    uint64_t thread_insts;
    uint64_t line_reqs;
    uint64_t sector_reqs;
    double ipc;                /* warp instructions per core cycle, whole GPU */
    double l1_miss_rate;
    double l2_miss_rate;
    double replication_ratio;
    double copies_per_line;
    double avg_mem_latency;    /* core cycles */
    double dram_row_hit_rate;
    double cpu_seconds;
} gm_run_result;

void gm_stats_collect(const gm_system *s, const gm_run_info *info, gm_run_result *r);
int gm_stats_write_json(const gm_system *s, const gm_run_info *info, FILE *f, gm_error *err);
void gm_stats_print_summary(const gm_system *s, const gm_run_info *info, FILE *f);
void gm_stats_print_table(const gm_run_result *r, size_t n, FILE *f);
/* One row per built-in workload at `size`; the counts come from walking
 * the streams, so a standard size can take seconds per workload. */
int gm_stats_list_workloads(FILE *f, gm_size size);

#endif
