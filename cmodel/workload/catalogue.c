/* The catalogue of built-in workloads and the generic workload lifecycle. */
#include "workload/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/kernels/kernels_selrep.h"
#include "workload/trace_read.h"

/* Replication class by the DC-L1 seed's criteria (replication ratio > 25%,
 * L1 miss rate > 50%, > 5% speedup with 16x L1): P-GEMM is listed among
 * the insensitive ("poor-performing", partition camping under Sh40) and
 * S-Reduction among the sensitive applications. ATAX is not in that study;
 * its shared data is two small vectors while its misses are dominated by
 * the private rows of A, so it is insensitive by the same criteria. */
const gm_workload_info gm_catalogue_core[] = {
    {"gemm", "PolyBench-GPU 1.0",
     "B rows read by every CTA, A rows by each CTA row (cross-SM sharing); "
     "broadcast A; C stored every k, loaded once",
     "insensitive", gm_gemm_build},
    {"atax", "PolyBench-GPU 1.0",
     "uncoalesced A walk (32 lines per warp load) in kernel 1; one hot "
     "broadcast line (x, tmp) read by every CTA; few CTAs",
     "insensitive", gm_atax_build},
    {"reduction", "SHOC 1.1",
     "streaming input with no reuse inside a launch and full reuse across "
     "launches; replicas appear when CTAs move between cores",
     "sensitive", gm_reduction_build},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Every suite keeps its own NULL-terminated table next to its kernels;
 * the catalogue is their concatenation, in this order. */
static const gm_workload_info *const suites[] = {
    gm_catalogue_core,
    gm_catalogue_polybench,
    gm_catalogue_rodinia,
    gm_catalogue_tango,
    gm_catalogue_amdsdk,
    gm_catalogue_selrep,
};

/* Streams outside the catalogue: `gmsim run` and `gmsim bench` find them
 * by name, but list-workloads, the suites and the studies do not see them.
 * They keep a stream an older revision ran under a catalogue name, so that
 * speed figures compare across revisions (docs/performance.md). */
static const gm_workload_info frozen[] = {
    {"gemm_reload", "PolyBench-GPU 1.0",
     "gemm with C loaded again in every k trip: gmsim's gemm before "
     "2026-12-07, the stream of `gmsim bench`",
     "insensitive", gm_gemm_reload_build},
    {NULL, NULL, NULL, NULL, NULL},
};

size_t gm_workload_catalogue_size(void)
{
    size_t n = 0;
    for (size_t s = 0; s < sizeof suites / sizeof *suites; s++)
        for (const gm_workload_info *i = suites[s]; i->name; i++)
            n++;
    return n;
}

const gm_workload_info *gm_workload_catalogue_at(size_t idx)
{
    for (size_t s = 0; s < sizeof suites / sizeof *suites; s++)
        for (const gm_workload_info *i = suites[s]; i->name; i++)
            if (idx-- == 0)
                return i;
    return NULL;
}

const gm_workload_info *gm_workload_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t s = 0; s < sizeof suites / sizeof *suites; s++)
        for (const gm_workload_info *i = suites[s]; i->name; i++)
            if (strcmp(i->name, name) == 0)
                return i;
    for (const gm_workload_info *i = frozen; i->name; i++)
        if (strcmp(i->name, name) == 0)
            return i;
    return NULL;
}

int gm_workload_build(gm_workload *w, const char *name, gm_size size, uint64_t seed,
                      gm_error *err)
{
    memset(w, 0, sizeof *w);
    /* "trace:PATH/kernelslist.g": an Accel-Sim trace (size and seed unused) */
    if (name && strncmp(name, GM_TRACE_PREFIX, sizeof GM_TRACE_PREFIX - 1) == 0)
        return gm_trace_workload_build(w, name + sizeof GM_TRACE_PREFIX - 1, err);
    const gm_workload_info *info = gm_workload_find(name);
    if (!info)
        return gm_fail(err, "unknown workload '%s'", name ? name : "(null)");
    if ((unsigned)size >= GM_SIZE_COUNT)
        return gm_fail(err, "workload %s: bad size %d", name, (int)size);
    if (info->build(w, size, seed, err)) {
        gm_workload_free(w);
        return -1;
    }
    return 0;
}

void gm_workload_free(gm_workload *w)
{
    if (!w)
        return;
    free(w->kernels);
    if (w->release)
        w->release(w->priv);
    else
        free(w->priv);
    memset(w, 0, sizeof *w);
}

int gm_workload_alloc(gm_workload *w, const char *name, uint32_t nkernels,
                      size_t priv_bytes, gm_error *err)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", name);
    w->kernels = calloc(nkernels ? nkernels : 1, sizeof *w->kernels);
    w->priv = calloc(1, priv_bytes ? priv_bytes : 1);
    if (!w->kernels || !w->priv) {
        gm_workload_free(w);
        return gm_fail(err, "workload %s: out of memory", name);
    }
    w->nkernels = nkernels;
    return 0;
}

void gm_kernel_set(gm_kernel *k, const char *name, gm_dim3 grid, gm_dim3 block,
                   const void *params,
                   int (*gen)(const gm_kernel *, gm_warp_gen *, gm_inst *, int))
{
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->grid = grid;
    k->block = block;
    k->params = params;
    k->gen = gen;
}

static const char *const size_names[GM_SIZE_COUNT] = {"tiny", "small", "standard", "fill"};

int gm_size_parse(const char *s, gm_size *out)
{
    for (int i = 0; s && i < GM_SIZE_COUNT; i++)
        if (strcmp(s, size_names[i]) == 0) {
            *out = (gm_size)i;
            return 0;
        }
    return -1;
}

/* The accepted size names, for error messages. */
const char *gm_size_choices(void)
{
    return "tiny, small, standard or fill";
}

const char *gm_size_name(gm_size s)
{
    return (unsigned)s < GM_SIZE_COUNT ? size_names[s] : "?";
}
