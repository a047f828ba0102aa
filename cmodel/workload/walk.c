#include "workload/walk.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int gm_workload_walk(const gm_workload *w, int chunk, gm_walk_fn fn, void *arg,
                     gm_error *err)
{
    if (chunk < GM_GEN_MIN_CHUNK)
        return gm_fail(err, "walk: chunk %d < %d", chunk, GM_GEN_MIN_CHUNK);
    gm_inst *buf = malloc((size_t)chunk * sizeof *buf);
    if (!buf)
        return gm_fail(err, "walk: out of memory");

    int rc = 0;
    for (uint32_t ki = 0; ki < w->nkernels && !rc; ki++) {
        const gm_kernel *k = &w->kernels[ki];
        uint32_t ctas = gm_kernel_ctas(k), warps = gm_kernel_warps_per_cta(k);
        for (uint32_t c = 0; c < ctas && !rc; c++) {
            for (uint32_t wi = 0; wi < warps && !rc; wi++) {
                gm_warp_gen g;
                int exited = 0;
                gm_warp_gen_start(&g, c, wi);
                for (;;) {
                    int n = k->gen(k, &g, buf, chunk);
                    if (n < 0 || n > chunk) {
                        rc = gm_fail(err, "%s: gen returned %d (max %d)", k->name, n, chunk);
                        break;
                    }
                    if (n == 0)
                        break;
                    for (int i = 0; i < n; i++) {
                        if (exited) {
                            rc = gm_fail(err, "%s cta %u warp %u: instruction after EXIT",
                                         k->name, c, wi);
                            break;
                        }
                        exited = buf[i].op == GM_OP_EXIT;
                    }
                    if (rc)
                        break;
                    rc = fn ? fn(k, ki, &g, buf, n, arg) : 0;
                    if (rc)
                        break;
                }
                if (!rc && !exited)
                    rc = gm_fail(err, "%s cta %u warp %u: ended without EXIT", k->name, c, wi);
            }
        }
    }
    free(buf);
    return rc;
}

static int count_chunk(const gm_kernel *k, uint32_t ki, const gm_warp_gen *g,
                       const gm_inst *in, int n, void *arg)
{
    gm_workload_counts *c = arg;
    (void)ki;
    (void)g;
    if (gm_kernel_ctas(k) >= GM_SIZE_FILL_CTAS)
        c->filled_insts += (uint64_t)n;
    for (int i = 0; i < n; i++) {
        c->by_op[in[i].op < GM_OP_COUNT ? in[i].op : 0]++;
        c->thread_insts += (uint64_t)__builtin_popcount(in[i].mask);
    }
    c->insts += (uint64_t)n;
    return 0;
}

int gm_workload_count(const gm_workload *w, gm_workload_counts *out, gm_error *err)
{
    memset(out, 0, sizeof *out);
    for (uint32_t ki = 0; ki < w->nkernels; ki++) {
        out->ctas += gm_kernel_ctas(&w->kernels[ki]);
        out->warps += (uint64_t)gm_kernel_ctas(&w->kernels[ki]) *
                      gm_kernel_warps_per_cta(&w->kernels[ki]);
    }
    if (gm_workload_walk(w, 64, count_chunk, out, err))
        return -1;
    out->global_mem = out->by_op[GM_OP_GLOBAL_LD] + out->by_op[GM_OP_GLOBAL_ST] +
                      out->by_op[GM_OP_ATOMIC];
    return 0;
}

static int bench_chunk(const gm_kernel *k, uint32_t ki, const gm_warp_gen *g,
                       const gm_inst *in, int n, void *arg)
{
    (void)k;
    (void)ki;
    (void)g;
    /* Touch the output so the generation cannot be optimised away. */
    *(uint64_t *)arg += (uint64_t)n + in[n - 1].mask;
    return 0;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gm_workload_bench(const char *name, gm_size size, gm_workload_bench_result *out,
                      gm_error *err)
{
    gm_workload w;
    gm_workload_counts c;
    uint64_t sink = 0;

    memset(out, 0, sizeof *out);
    if (gm_workload_build(&w, name, size, 1, err))
        return -1;
    if (gm_workload_count(&w, &c, err)) {
        gm_workload_free(&w);
        return -1;
    }
    double t0 = cpu_seconds();
    int rc = gm_workload_walk(&w, 16, bench_chunk, &sink, err);
    double t1 = cpu_seconds();
    gm_workload_free(&w);
    if (rc)
        return -1;
    out->insts = c.insts;
    out->seconds = t1 - t0;
    out->insts_per_sec = out->seconds > 0 ? (double)c.insts / out->seconds : 0;
    return sink == 0 ? gm_fail(err, "bench: empty stream") : 0;
}
