/* PolyBench-GPU 1.0 doitgen (PolyBench-ACC CUDA/linear-algebra/kernels/
 * doitgen/doitgen.cu, doitgen_kernel1 / doitgen_kernel2) as an
 * address-stream emulator. Host (doitgenCuda): cudaMalloc A (nr*nq*np),
 * C4 (np*np), sum (nr*nq*np); block (32, 8), grid (ceil(np/32),
 * ceil(nr/8)) -- nr, not nq, as the source writes it; then
 *
 *   for (r = 0; r < nr; r++) { doitgen_kernel1<<<>>>(.., r); doitgen_kernel2<<<>>>(.., r); }
 *
 *   p = bx*32 + tx;  q = by*8 + ty;  if (p < np && q < nq):
 *   kernel1: sum[r][q][p] = 0;
 *            for (s < np) sum[r][q][p] = sum[r][q][p] + A[r][q][s] * C4[s][p];
 *   kernel2: A[r][q][p] = sum[r][q][p];
 *
 * A warp is one q row and 32 consecutive p: A[r][q][s] is a broadcast,
 * C4[s][p] one coalesced row of C4 that every CTA of every launch reads
 * (the inter-core locality), sum stored every s (A and C4 may alias it,
 * so the store stays in the loop) but never loaded in kernel1: the
 * compiler forwards each stored value, starting from the 0 (as in 2MM;
 * docs/workloads/polybench.md, "Accumulators").
 * Read-only: A and C4 in kernel1, sum in kernel2.
 *
 * Instructions (the 2MM shape): 4 S2R, 2 IMAD, ISETP, BRA; kernel1 3
 * address ops, the 0.0 constant, ST sum; per s: LD A, LD C4, FFMA, ST sum,
 * IADD, IADD, ISETP, BRA; kernel2 IMAD, LD sum, ST A; EXIT.
 *
 * Sizes launch the first `runs` of the nr r-iterations (each pair of
 * launches has the same shape on the next plane of A and sum). */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stddef.h>
#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/segprog.h"

#define BX 32u
#define BY 8u

enum { S_HEAD = 0, S_BODY, S_LOOP, S_EXIT };

static const char *const prog1[] = {"IIIIII" "PB", "IIIZT", "LLATIIPB", "X"};
static const char *const prog2[] = {"IIIIII" "PB", "ILT", "", "X"};

static void dg_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    const gm_doitgen_launch *l = k->params;
    uint32_t bx = g->cta % k->grid.x, by = g->cta / k->grid.x;
    uint32_t q = by * BY + g->warp, p0 = bx * BX;

    out->prog = (l->kernel2 ? prog2 : prog1)[s];
    out->mask = 0xffffffffu;
    if (s == S_BODY || s == S_LOOP) {
        uint32_t n = q < l->nq && p0 < l->np ? l->np - p0 : 0;
        out->mask = n >= 32 ? 0xffffffffu : (1u << n) - 1;
    }
}

static int dg_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    const gm_doitgen_launch *l = k->params;
    switch (s) {
    case S_HEAD: return S_BODY;
    case S_BODY: return l->kernel2 ? S_EXIT : S_LOOP;
    case S_LOOP: return ++g->v[1] < (int64_t)l->np ? S_LOOP : S_EXIT;
    default: return GM_SEG_DONE;
    }
}

static void dg_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_doitgen_launch *l = k->params;
    uint64_t bx = g->cta % k->grid.x, by = g->cta / k->grid.x;
    uint64_t q = by * BY + g->warp, np = l->np, plane = (uint64_t)l->r * l->nq * np;
    uint64_t sidx = (uint64_t)g->v[1];

    for (int lane = 0; lane < GM_WARP_SIZE; lane++) {
        uint64_t p = bx * BX + (uint64_t)lane, a;
        uint64_t idx = plane + q * np + p;
        if (l->kernel2) {   /* LD sum, ST A */
            a = m == 0 ? l->sum + 4 * idx : l->a + 4 * idx;
        } else if (s == S_BODY) {
            a = l->sum + 4 * idx;
        } else {   /* LD A, LD C4, ST sum */
            a = m == 0 ? l->a + 4 * (plane + q * np + sidx)
              : m == 1 ? l->c4 + 4 * (sidx * np + p) : l->sum + 4 * idx;
        }
        in->addr[lane] = (in->mask >> lane & 1) ? a : 0;
    }
    if (in->op == GM_OP_GLOBAL_LD)
        in->flags = l->kernel2 || m < 2 ? GM_INST_READ_ONLY : 0;
}

static const gm_segprog dg_sp = {1, dg_seg, dg_next, dg_addr};

static int dg_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    return gm_segprog_gen(&dg_sp, k, g, out, max);
}

int gm_doitgen_build_dims(gm_workload *w, uint32_t nr, uint32_t nq, uint32_t np,
                          uint32_t runs, gm_error *err)
{
    if (!nr || !nq || !np || nr > 4096 || nq > 4096 || np > 4096 || !runs || runs > nr)
        return gm_fail(err, "doitgen: bad size nr=%u nq=%u np=%u runs=%u (1..4096 each, "
                            "runs 1..nr)", nr, nq, np, runs);
    if (gm_workload_alloc(w, "doitgen", 2 * runs,
                          sizeof(gm_doitgen_params) + 2 * runs * sizeof(gm_doitgen_launch),
                          err))
        return -1;
    gm_doitgen_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->nr = nr;
    p->nq = nq;
    p->np = np;
    p->runs = runs;
    p->a = gm_devmem_alloc(&mem, 4ull * nr * nq * np);
    p->c4 = gm_devmem_alloc(&mem, 4ull * np * np);
    p->sum = gm_devmem_alloc(&mem, 4ull * nr * nq * np);
    for (uint32_t i = 0; i < 2 * runs; i++) {
        gm_doitgen_launch *l = &p->launch[i];
        *l = (gm_doitgen_launch){nr, nq, np, i / 2, (uint8_t)(i % 2), p->a, p->c4, p->sum};
        gm_kernel_set(&w->kernels[i], i % 2 ? "doitgen_kernel2" : "doitgen_kernel1",
                      gm_dim3_make((np + BX - 1) / BX, (nr + BY - 1) / BY, 1),
                      gm_dim3_make(BX, BY, 1), l, dg_gen);
    }
    return 0;
}

int gm_doitgen_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny: MINI_DATASET (32^3), 8 of its 32 r launches pairs; small:
     * np 128, nq = nr 160 (80 CTAs), 2 pairs; standard: STANDARD_DATASET
     * (128^3), all 128 pairs */
    static const uint32_t nr[] = {32, 160, 128, 240}, np[] = {32, 128, 128, 128};
    static const uint32_t runs[] = {8, 2, 128, 2};

    (void)seed;   /* values only */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "doitgen: bad size %d", (int)size);
    return gm_doitgen_build_dims(w, nr[size], nr[size], np[size], runs[size], err);
}
