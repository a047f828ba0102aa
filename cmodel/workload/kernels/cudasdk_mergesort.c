/* CUDA SDK mergeSort (the sample the SelRep seed cites as MS, [51]) as an
 * address-stream emulator. The sample sorts N uint keys with their values
 * (sortDir 1, ascending) in launches:
 *
 *   mergeSortSharedKernel           N/1024 CTAs x 512: each 1024-key block
 *                                   sorted in shared memory (10 merge steps)
 *   for stride = 1024; stride < N; stride <<= 1:
 *     generateSampleRanksKernel     ceil(N/256 / 256) x 256
 *     mergeRanksAndIndicesKernel    twice (A, then B), same grid
 *     mergeElementaryIntervalsKernel N/128 CTAs x 128
 *
 * Every binary search (binarySearchInclusive/Exclusive) reads the keys it
 * compares, so the addresses depend on the data. The keys are drawn from
 * the seed (key = draw % 65536, the sample's rand() % numValues); the build
 * step sorts them level by level (levels[lg]: every aligned 2^lg-block
 * sorted, which is the array every kernel sees: a merge of stride s reads
 * s-blocks and writes 2s-blocks) and precomputes the ranks and limits the
 * middle kernels write. A warp then replays each search from those tables.
 *
 * A search's probe at a trip depends only on the trips before it:
 * pos = 0; for (stride = s0; stride; stride >>= 1) { newPos = min(pos +
 * stride, L); probe data[newPos - 1]; if (data[newPos-1] <(=) val) pos =
 * newPos; }. The search loops are rolled, 6 instructions a trip.
 *
 * N must be a power of two (1024 .. 4M): then every segment is whole, both
 * sample branches of the rank kernels are taken by every thread and the
 * sample's tail cudaMemcpy copies nothing. */
#include "workload/kernels/kernels_selrep.h"

#include <stdint.h>
#include <string.h>

#include "sim/prng.h"
#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/kernels/segprog.h"

#define PRNG_ID 0x3e65u
#define SS_THREADS (GM_MS_SHARED / 2)   /* mergeSortShared's block */
#define RK_THREADS 256u                 /* the rank kernels' block */
#define SMEM_VAL 4096u                  /* s_val after s_key[1024] */
#define IV_VAL (2 * GM_MS_SAMPLE * 4)   /* intervals: s_val after s_key[256] */
#define IV_SCALARS (2 * IV_VAL)         /* then startSrcA .. startDstB */

/* ---------------------------------------------------------------- data */

static const uint16_t *levels(const gm_mergesort_params *p)
{
    return (const uint16_t *)((const char *)p + p->levels_off);
}

static const uint32_t *table(const gm_mergesort_params *p, uint64_t off, uint32_t stage,
                             uint32_t pair)
{
    const uint32_t *t = (const uint32_t *)((const char *)p + off);
    return t + ((uint64_t)stage * 2 + pair) * (p->n / GM_MS_SAMPLE);
}

uint32_t gm_mergesort_key(const gm_mergesort_params *p, uint32_t lg, uint64_t i)
{
    return levels(p)[(uint64_t)lg * p->n + i];
}

uint32_t gm_mergesort_rank(const gm_mergesort_params *p, uint32_t stage, uint32_t pair,
                           uint64_t j)
{
    return table(p, p->ranks_off, stage, pair)[j];
}

uint32_t gm_mergesort_limit(const gm_mergesort_params *p, uint32_t stage, uint32_t pair,
                            uint64_t j)
{
    return table(p, p->limits_off, stage, pair)[j];
}

/* A sorted run the searches look into: keys of a level, or a rank table. */
typedef struct run {
    const uint16_t *keys;   /* one of the two is set */
    const uint32_t *words;
    uint64_t first;
} run;

static uint32_t run_at(const run *r, uint64_t i)
{
    return r->keys ? r->keys[r->first + i] : r->words[r->first + i];
}

/* The sample's binary search over r[0..len) with first stride s0 (incl:
 * data <= val, else data < val). Returns pos after `trips` trips (all of
 * them when trips is larger) and, when probe is set, the index trip
 * number `trips` reads. */
static uint32_t search(const run *r, uint32_t len, uint32_t s0, uint32_t val, int incl,
                       uint32_t trips, uint32_t *probe)
{
    uint32_t pos = 0, k = 0;
    if (len == 0)
        return 0;
    for (uint32_t stride = s0; stride > 0; stride >>= 1, k++) {
        uint32_t np = pos + stride < len ? pos + stride : len;
        if (k == trips) {
            if (probe)
                *probe = np - 1;
            return pos;
        }
        uint32_t d = run_at(r, np - 1);
        if (incl ? d <= val : d < val)
            pos = np;
    }
    return pos;
}

static uint32_t trips_of(uint32_t s0)
{
    uint32_t t = 0;
    while (s0 >> t)
        t++;
    return t;
}

static run level_run(const gm_mergesort_params *p, uint32_t lg, uint64_t first)
{
    run r = {levels(p) + (uint64_t)lg * p->n, NULL, first};
    return r;
}

/* levels[lg + 1] from levels[lg]: each pair of sorted 2^lg-blocks merged,
 * stably (equal keys keep the left block first). */
static void merge_level(const uint16_t *in, uint16_t *out, uint32_t n, uint32_t half)
{
    for (uint32_t b = 0; b < n; b += 2 * half) {
        uint32_t i = b, j = b + half, o = b;
        while (i < b + half && j < b + 2 * half)
            out[o++] = in[j] < in[i] ? in[j++] : in[i++];
        while (i < b + half)
            out[o++] = in[i++];
        while (j < b + 2 * half)
            out[o++] = in[j++];
    }
}

/* Ranks and limits of merge stage st (stride S = 1024 << st), as
 * generateSampleRanks and mergeRanksAndIndices write them: per segment of
 * 2S keys, RanksA = (i*128 for A's samples, rank of B's samples in A),
 * RanksB = (rank of A's samples in B, i*128 for B's samples); the limits
 * are each ranks list merged (both halves are ascending). */
static void stage_tables(gm_mergesort_params *p, uint32_t st, uint32_t *ranks,
                         uint32_t *limits)
{
    uint32_t S = GM_MS_SHARED << st, M = S / GM_MS_SAMPLE, lg = 10 + st, per = p->n / GM_MS_SAMPLE;
    uint32_t *ra = ranks, *rb = ranks + per;
    for (uint32_t seg = 0; seg < p->n / (2 * S); seg++) {
        uint64_t base = (uint64_t)seg * 2 * S, o = (uint64_t)seg * 2 * M;
        run a = level_run(p, lg, base), b = level_run(p, lg, base + S);
        for (uint32_t i = 0; i < M; i++) {
            ra[o + i] = rb[o + M + i] = i * GM_MS_SAMPLE;
            rb[o + i] = search(&b, S, S, run_at(&a, (uint64_t)i * GM_MS_SAMPLE), 0, 64, NULL);
            ra[o + M + i] = search(&a, S, S, run_at(&b, (uint64_t)i * GM_MS_SAMPLE), 1, 64, NULL);
        }
        for (uint32_t pr = 0; pr < 2; pr++) {
            const uint32_t *r = ranks + (uint64_t)pr * per;
            uint32_t *l = limits + (uint64_t)pr * per;
            run lo = {NULL, r, o}, hi = {NULL, r, o + M};
            for (uint32_t i = 0; i < M; i++) {
                l[o + i + search(&hi, M, M, r[o + i], 0, 64, NULL)] = r[o + i];
                l[o + i + search(&lo, M, M, r[o + M + i], 1, 64, NULL)] = r[o + M + i];
            }
        }
    }
}

/* ---------------------------------------------------------------- lanes */

/* Thread index of lane l and the launch of a kernel. */
static uint32_t thread_of(const gm_warp_gen *g, uint32_t l)
{
    return g->warp * GM_WARP_SIZE + l;
}

static const gm_mergesort_launch *launch_of(const gm_kernel *k)
{
    return k->params;
}

/* Fills addr[] of the active lanes with base + 4 * f(lane) (the callers'
 * element indices). */
typedef uint64_t (*lane_elem_fn)(const gm_kernel *k, const gm_warp_gen *g, uint32_t l, int m);

static void fill_lanes(const gm_kernel *k, const gm_warp_gen *g, gm_inst *in, uint64_t base,
                       int m, lane_elem_fn f)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = in->mask >> l & 1 ? base + 4 * f(k, g, l, m) : 0;
}

static void set_mem(gm_inst *in, int read_only)
{
    in->width = 4;
    in->flags = read_only && in->op == GM_OP_GLOBAL_LD ? GM_INST_READ_ONLY : 0;
}

/* ---------------------------------------------------------------- mergeSortShared */

enum { SS_PRO, SS_STEP, SS_TRIPA, SS_MID, SS_TRIPB, SS_STORE, SS_END };

static const char *const ss_prog[] = {
    [SS_PRO] = "IIZZZZLLLLWWWW", [SS_STEP] = "IRDDDDAAZ", [SS_TRIPA] = "IDAIPB",
    [SS_MID] = "IZ", [SS_TRIPB] = "IDAIPB", [SS_STORE] = "IRWWWWIPB",
    [SS_END] = "RDDDDTTTTX",
};

/* Lane l at merge step lg: lPos, the base of its pair of runs, and the
 * key it merges from the A run (a = 1) or the B run. */
typedef struct ss_lane {
    uint32_t t, s, lpos, base;
    uint64_t g0;   /* first key of the CTA's block */
} ss_lane;

static ss_lane ss_lane_of(const gm_warp_gen *g, uint32_t l)
{
    ss_lane x;
    x.t = thread_of(g, l);
    x.s = 1u << g->v[1];
    x.lpos = x.t & (x.s - 1);
    x.base = 2 * (x.t - x.lpos);
    x.g0 = (uint64_t)g->cta * GM_MS_SHARED;
    return x;
}

/* The A search (a = 1: keyA in the B run, exclusive) or the B search. */
static uint32_t ss_search(const gm_mergesort_params *p, const gm_warp_gen *g, uint32_t l, int a,
                          uint32_t trips, uint32_t *probe)
{
    ss_lane x = ss_lane_of(g, l);
    uint32_t lg = (uint32_t)g->v[1];
    run in = level_run(p, lg, x.g0 + x.base + (a ? x.s : 0));
    uint32_t key = gm_mergesort_key(p, lg, x.g0 + x.base + x.lpos + (a ? 0 : x.s));
    return search(&in, x.s, x.s, key, !a, trips, probe);
}

static uint64_t ss_elem(const gm_kernel *k, const gm_warp_gen *g, uint32_t l, int m)
{
    const gm_mergesort_params *p = launch_of(k)->ms;
    ss_lane x = ss_lane_of(g, l);
    uint32_t probe = 0;
    switch ((int)g->v[0]) {
    case SS_PRO:   /* key, value at [t], then at [t + 512]; loads, then stores */
    case SS_END: {
        int global = ((int)g->v[0] == SS_PRO) == (m < 4);
        return (global ? x.g0 : 0) + x.t + ((m & 3) >= 2 ? GM_MS_SHARED / 2 : 0);
    }
    case SS_STEP:
        return x.base + x.lpos + (m >= 2 ? x.s : 0);
    case SS_TRIPA:
        ss_search(p, g, l, 1, (uint32_t)g->v[2], &probe);
        return x.base + x.s + probe;
    case SS_TRIPB:
        ss_search(p, g, l, 0, (uint32_t)g->v[2], &probe);
        return x.base + probe;
    default:   /* SS_STORE: posA for m 0, 1; posB for m 2, 3 */
        return x.base + x.lpos + ss_search(p, g, l, m < 2, 64, NULL);
    }
}

static void ss_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    (void)k;
    (void)g;
    out->prog = ss_prog[s];
    out->mask = 0xffffffffu;   /* 512 threads: every warp full */
}

static int ss_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    (void)k;
    uint32_t trips = (uint32_t)g->v[1] + 1;   /* stride 2^lg down to 1 */
    switch (s) {
    case SS_PRO:   g->v[1] = 0; return SS_STEP;
    case SS_STEP:  g->v[2] = 0; return SS_TRIPA;
    case SS_TRIPA: return ++g->v[2] < trips ? SS_TRIPA : SS_MID;
    case SS_MID:   g->v[2] = 0; return SS_TRIPB;
    case SS_TRIPB: return ++g->v[2] < trips ? SS_TRIPB : SS_STORE;
    case SS_STORE: return ++g->v[1] < 10 ? SS_STEP : SS_END;
    default:       return GM_SEG_DONE;
    }
}

static void ss_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_mergesort_launch *ln = launch_of(k);
    int shared = in->op == GM_OP_SHARED_LD || in->op == GM_OP_SHARED_ST;
    uint64_t base;
    if (shared)   /* key/value arrays alternate: m even key, odd value */
        base = m & 1 ? SMEM_VAL : 0;
    else if (s == SS_PRO)
        base = m & 1 ? ln->src_val : ln->src_key;
    else
        base = m & 1 ? ln->dst_val : ln->dst_key;
    set_mem(in, 1);
    fill_lanes(k, g, in, base, m, ss_elem);
}

static const gm_segprog ss_sp = {4, ss_seg, ss_next, ss_addr};

/* ---------------------------------------------------------------- the rank kernels */

enum { RK_PRO, RK_A, RK_TRIPA, RK_B, RK_TRIPB, RK_END, RK_EXIT };

static const char *const sr_prog[] = {
    [RK_PRO] = "IIIPB", [RK_A] = "IIIZZTLA", [RK_TRIPA] = "ILAIPB", [RK_B] = "ITTLA",
    [RK_TRIPB] = "ILAIPB", [RK_END] = "IT", [RK_EXIT] = "X",
};
static const char *const mr_prog[] = {
    [RK_PRO] = "IIIPB", [RK_A] = "IIIZLA", [RK_TRIPA] = "ILAIPB", [RK_B] = "ITZLA",
    [RK_TRIPB] = "ILAIPB", [RK_END] = "IT", [RK_EXIT] = "X",
};

/* Both rank kernels: pos, i = pos & (M - 1), segment base and threads. */
typedef struct rk_lane {
    uint32_t S, M, i;
    uint64_t pos, seg_base, seg_off;   /* seg_off: segBase / 128 */
} rk_lane;

static rk_lane rk_lane_of(const gm_kernel *k, const gm_warp_gen *g, uint32_t l)
{
    const gm_mergesort_launch *ln = launch_of(k);
    rk_lane x;
    x.S = GM_MS_SHARED << ln->stage;
    x.M = x.S / GM_MS_SAMPLE;
    x.pos = (uint64_t)g->cta * RK_THREADS + thread_of(g, l);
    x.i = (uint32_t)(x.pos & (x.M - 1));
    x.seg_base = (x.pos - x.i) * 2 * GM_MS_SAMPLE;
    x.seg_off = x.seg_base / GM_MS_SAMPLE;
    return x;
}

static uint32_t rk_threads(const gm_kernel *k)
{
    return launch_of(k)->ms->n / (2 * GM_MS_SAMPLE);
}

static void rk_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    uint64_t first = (uint64_t)g->cta * RK_THREADS, tc = rk_threads(k);
    /* lanes with pos < threadCount */
    uint32_t m = first < tc ? gm_warp_exist_mask((uint32_t)(tc - first), g->warp) : 0;
    out->prog = launch_of(k)->kind == GM_MS_SAMPLE_RANKS ? sr_prog[s] : mr_prog[s];
    out->mask = s == RK_PRO || s == RK_EXIT ? 0xffffffffu : m;
}

static int rk_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    const gm_mergesort_launch *ln = launch_of(k);
    uint32_t S = GM_MS_SHARED << ln->stage;
    uint32_t trips = trips_of(ln->kind == GM_MS_SAMPLE_RANKS ? S : S / GM_MS_SAMPLE);
    uint64_t first = (uint64_t)g->cta * RK_THREADS + g->warp * GM_WARP_SIZE;
    switch (s) {
    case RK_PRO:   g->v[2] = 0; return first < rk_threads(k) ? RK_A : RK_EXIT;
    case RK_A:     return RK_TRIPA;
    case RK_TRIPA: return ++g->v[2] < trips ? RK_TRIPA : RK_B;
    case RK_B:     g->v[2] = 0; return RK_TRIPB;
    case RK_TRIPB: return ++g->v[2] < trips ? RK_TRIPB : RK_END;
    case RK_END:   return RK_EXIT;
    default:       return GM_SEG_DONE;
    }
}

/* generateSampleRanks, lane l: element index into SrcKey (the level of
 * stage's input), RanksA (m's array chosen by the caller) or RanksB. */
static uint64_t sr_elem(const gm_kernel *k, const gm_warp_gen *g, uint32_t l, int m)
{
    const gm_mergesort_launch *ln = launch_of(k);
    const gm_mergesort_params *p = ln->ms;
    rk_lane x = rk_lane_of(k, g, l);
    uint32_t lg = 10 + ln->stage, probe = 0, trip = (uint32_t)g->v[2];
    uint64_t a0 = x.seg_base, b0 = x.seg_base + x.S, sample = (uint64_t)x.i * GM_MS_SAMPLE;
    run a = level_run(p, lg, a0), b = level_run(p, lg, b0);
    switch ((int)g->v[0]) {
    case RK_A:      /* RanksA[i], then SrcKey[i * 128] */
        return m == 0 ? x.seg_off + x.i : a0 + sample;
    case RK_TRIPA:
        search(&b, x.S, x.S, run_at(&a, sample), 0, trip, &probe);
        return b0 + probe;
    case RK_B:      /* RanksB[i], RanksB[M + i], SrcKey[stride + i * 128] */
        return m == 0 ? x.seg_off + x.i : m == 1 ? x.seg_off + x.M + x.i : b0 + sample;
    case RK_TRIPB:
        search(&a, x.S, x.S, run_at(&b, sample), 1, trip, &probe);
        return a0 + probe;
    default:        /* RK_END: RanksA[M + i] */
        return x.seg_off + x.M + x.i;
    }
}

static void sr_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_mergesort_params *p = launch_of(k)->ms;
    uint64_t base = launch_of(k)->src_key;
    if (in->op == GM_OP_GLOBAL_ST)
        base = (s == RK_A || s == RK_END) ? p->ranks[0] : p->ranks[1];
    set_mem(in, 1);
    fill_lanes(k, g, in, base, m, sr_elem);
}

/* mergeRanksAndIndices, lane l: the index into its Ranks (loads) or
 * Limits (stores) array; both offset by segBase / 128. */
static uint64_t mr_elem(const gm_kernel *k, const gm_warp_gen *g, uint32_t l, int m)
{
    const gm_mergesort_launch *ln = launch_of(k);
    const gm_mergesort_params *p = ln->ms;
    rk_lane x = rk_lane_of(k, g, l);
    const uint32_t *r = table(p, p->ranks_off, ln->stage, ln->pair);
    run lo = {NULL, r, x.seg_off}, hi = {NULL, r, x.seg_off + x.M};
    uint32_t probe = 0, trip = (uint32_t)g->v[2];
    switch ((int)g->v[0]) {
    case RK_A:      /* Ranks[i] */
        return x.seg_off + x.i;
    case RK_TRIPA:
        search(&hi, x.M, x.M, r[x.seg_off + x.i], 0, trip, &probe);
        return x.seg_off + x.M + probe;
    case RK_B:      /* Limits[dstPos], then Ranks[M + i] */
        if (m == 0)
            return x.seg_off + x.i + search(&hi, x.M, x.M, r[x.seg_off + x.i], 0, 64, NULL);
        return x.seg_off + x.M + x.i;
    case RK_TRIPB:
        search(&lo, x.M, x.M, r[x.seg_off + x.M + x.i], 1, trip, &probe);
        return x.seg_off + probe;
    default:        /* RK_END: Limits[dstPos] */
        return x.seg_off + x.i + search(&lo, x.M, x.M, r[x.seg_off + x.M + x.i], 1, 64, NULL);
    }
}

static void mr_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_mergesort_launch *ln = launch_of(k);
    (void)s;
    set_mem(in, 1);
    fill_lanes(k, g, in, in->op == GM_OP_GLOBAL_ST ? ln->limits : ln->ranks, m, mr_elem);
}

static const gm_segprog sr_sp = {2, rk_seg, rk_next, sr_addr};
static const gm_segprog mr_sp = {2, rk_seg, rk_next, mr_addr};

/* ---------------------------------------------------------------- mergeElementaryIntervals */

enum {
    IV_PRO, IV_LIM, IV_LIM2, IV_SET, IV_LDA, IV_CPA, IV_LDB, IV_CPB, IV_SYNC, IV_MA, IV_TRIPA,
    IV_PB, IV_MB, IV_TRIPB, IV_SYNC2, IV_WA, IV_PB2, IV_WB, IV_SYNC3, IV_OA, IV_PB3, IV_OB,
    IV_EXIT
};

static const char *const iv_prog[] = {
    [IV_PRO] = "IIIIZZZZPB", [IV_LIM] = "ILLAPB", [IV_LIM2] = "LLA", [IV_SET] = "AAAWWWWWW",
    [IV_LDA] = "RDDAPB", [IV_CPA] = "ILLWW", [IV_LDB] = "DDAPB", [IV_CPB] = "ILLWW",
    [IV_SYNC] = "RPB", [IV_MA] = "DDAZPB", [IV_TRIPA] = "IDAIPB", [IV_PB] = "PB",
    [IV_MB] = "DDAZPB", [IV_TRIPB] = "IDAIPB", [IV_SYNC2] = "RPB", [IV_WA] = "IWW",
    [IV_PB2] = "PB", [IV_WB] = "IWW", [IV_SYNC3] = "RPB", [IV_OA] = "IDDTT", [IV_PB3] = "PB",
    [IV_OB] = "IDDTT", [IV_EXIT] = "X",
};

/* What thread 0 computes for CTA b and stores to the shared scalars. */
typedef struct iv_cta {
    uint32_t S, last;       /* last: intervalI + 1 == segmentSamples */
    uint64_t seg_base;
    uint32_t start_a, start_b, len_a, len_b;
} iv_cta;

static iv_cta iv_cta_of(const gm_kernel *k, uint32_t b)
{
    const gm_mergesort_launch *ln = launch_of(k);
    const gm_mergesort_params *p = ln->ms;
    iv_cta c;
    c.S = GM_MS_SHARED << ln->stage;
    uint32_t samples = 2 * c.S / GM_MS_SAMPLE, ii = b & (samples - 1);
    c.seg_base = (uint64_t)(b - ii) * GM_MS_SAMPLE;
    c.last = ii + 1 >= samples;
    c.start_a = gm_mergesort_limit(p, ln->stage, 0, b);
    c.start_b = gm_mergesort_limit(p, ln->stage, 1, b);
    c.len_a = (c.last ? c.S : gm_mergesort_limit(p, ln->stage, 0, b + 1)) - c.start_a;
    c.len_b = (c.last ? c.S : gm_mergesort_limit(p, ln->stage, 1, b + 1)) - c.start_b;
    return c;
}

static void iv_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    iv_cta c = iv_cta_of(k, g->cta);
    /* lanes with threadIdx.x below lenSrcA / lenSrcB */
    uint32_t lane0 = g->warp == 0 ? 1u : 0u, a = gm_warp_exist_mask(c.len_a, g->warp),
             b = gm_warp_exist_mask(c.len_b, g->warp);
    out->prog = iv_prog[s];
    switch (s) {
    case IV_LIM: case IV_SET: out->mask = lane0; break;
    case IV_LIM2: out->mask = c.last ? 0 : lane0; break;
    case IV_CPA: case IV_MA: case IV_TRIPA: case IV_WA: case IV_OA: out->mask = a; break;
    case IV_CPB: case IV_MB: case IV_TRIPB: case IV_WB: case IV_OB: out->mask = b; break;
    default: out->mask = 0xffffffffu; break;   /* 128 threads: every warp full */
    }
}

static int iv_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    iv_cta c = iv_cta_of(k, g->cta);
    uint32_t trips = trips_of(GM_MS_SAMPLE);   /* nPowTwoLen = SAMPLE_STRIDE */
    switch (s) {
    case IV_MA: g->v[2] = 0; return c.len_b ? IV_TRIPA : IV_PB;   /* L == 0: no search */
    case IV_TRIPA: return ++g->v[2] < trips ? IV_TRIPA : IV_PB;
    case IV_MB: g->v[2] = 0; return c.len_a ? IV_TRIPB : IV_SYNC2;
    case IV_TRIPB: return ++g->v[2] < trips ? IV_TRIPB : IV_SYNC2;
    case IV_EXIT: return GM_SEG_DONE;
    default: return s + 1;
    }
}

/* merge()'s search of lane l: keyA (a = 1) in the B part of s_key,
 * exclusive, or keyB in the A part, inclusive. Returns dstPos - t when
 * trips is past the end, else fills probe. */
static uint32_t iv_search(const gm_kernel *k, const iv_cta *c, uint32_t t, int a,
                          uint32_t trips, uint32_t *probe)
{
    const gm_mergesort_params *p = launch_of(k)->ms;
    uint32_t lg = 10 + launch_of(k)->stage;
    run ra = level_run(p, lg, c->seg_base + c->start_a);
    run rb = level_run(p, lg, c->seg_base + c->S + c->start_b);
    if (a)
        return search(&rb, c->len_b, GM_MS_SAMPLE, run_at(&ra, t), 0, trips, probe);
    return search(&ra, c->len_a, GM_MS_SAMPLE, run_at(&rb, t), 1, trips, probe);
}

/* Element index of lane l's m-th access (in its array: see iv_addr). */
static uint64_t iv_elem(const gm_kernel *k, const gm_warp_gen *g, uint32_t l, int m)
{
    iv_cta c = iv_cta_of(k, g->cta);
    uint32_t t = thread_of(g, l), probe = 0, trip = (uint32_t)g->v[2];
    static const uint32_t scalar[IV_LDB + 1][2] = {
        [IV_LDA] = {2, 0}, [IV_LDB] = {3, 1},   /* lenSrcA, startSrcA; lenSrcB, startSrcB */
    };
    switch ((int)g->v[0]) {
    case IV_LIM: case IV_LIM2: return g->cta + (g->v[0] == IV_LIM2);
    case IV_SET: return (uint64_t)m;
    case IV_LDA: case IV_LDB: return scalar[g->v[0]][m];
    case IV_CPA: return m < 2 ? c.start_a + t : t;
    case IV_CPB: return m < 2 ? c.S + c.start_b + t : GM_MS_SAMPLE + t;
    case IV_MA: return t;
    case IV_MB: return GM_MS_SAMPLE + t;
    case IV_TRIPA:
        iv_search(k, &c, t, 1, trip, &probe);
        return GM_MS_SAMPLE + probe;
    case IV_TRIPB:
        iv_search(k, &c, t, 0, trip, &probe);
        return probe;
    case IV_WA: return t + iv_search(k, &c, t, 1, 64, NULL);
    case IV_WB: return t + iv_search(k, &c, t, 0, 64, NULL);
    case IV_OA: return m < 2 ? t : c.start_a + c.start_b + t;
    default:    /* IV_OB */
        return m < 2 ? c.len_a + t : c.start_a + c.start_b + c.len_a + t;
    }
}

static void iv_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_mergesort_launch *ln = launch_of(k);
    const gm_mergesort_params *p = ln->ms;
    iv_cta c = iv_cta_of(k, g->cta);
    int val = m & 1;   /* key/value pairs alternate in every segment */
    uint64_t base;
    switch (s) {
    case IV_LIM: case IV_LIM2: base = p->limits[m]; break;
    case IV_SET: case IV_LDA: case IV_LDB: base = IV_SCALARS; break;
    case IV_CPA: case IV_CPB:
        base = m < 2 ? c.seg_base * 4 + (val ? ln->src_val : ln->src_key) : (val ? IV_VAL : 0);
        break;
    case IV_OA: case IV_OB:
        base = m < 2 ? (val ? IV_VAL : 0) : c.seg_base * 4 + (val ? ln->dst_val : ln->dst_key);
        break;
    case IV_TRIPA: case IV_TRIPB: base = 0; break;
    default: base = val ? IV_VAL : 0; break;   /* IV_MA, IV_MB, IV_WA, IV_WB */
    }
    set_mem(in, 1);
    fill_lanes(k, g, in, base, m, iv_elem);
}

static const gm_segprog iv_sp = {4, iv_seg, iv_next, iv_addr};

/* ---------------------------------------------------------------- generator and build */

static int mergesort_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    static const gm_segprog *const sp[] = {&ss_sp, &sr_sp, &mr_sp, &iv_sp};
    return gm_segprog_gen(sp[launch_of(k)->kind], k, g, out, max);
}

static void add_launch(gm_workload *w, uint32_t *nk, gm_mergesort_params *p, uint32_t kind,
                       uint32_t stage)
{
    static const char *const names[] = {"mergeSortSharedKernel", "generateSampleRanksKernel",
                                        "mergeRanksAndIndicesKernel",
                                        "mergeElementaryIntervalsKernel"};
    gm_mergesort_launch *ln = &p->launch[*nk];
    uint32_t blocks, threads;
    ln->ms = p;
    ln->kind = kind;
    ln->stage = stage;
    if (kind == GM_MS_SHARED_SORT) {
        blocks = p->n / GM_MS_SHARED;
        threads = SS_THREADS;
    } else if (kind == GM_MS_INTERVALS) {
        blocks = p->n / GM_MS_SAMPLE;
        threads = GM_MS_SAMPLE;
    } else {
        uint32_t tc = p->n / (2 * GM_MS_SAMPLE);
        blocks = (tc + RK_THREADS - 1) / RK_THREADS;
        threads = RK_THREADS;
    }
    gm_kernel_set(&w->kernels[*nk], names[kind], gm_dim3_make(blocks, 1, 1),
                  gm_dim3_make(threads, 1, 1), ln, mergesort_gen);
    (*nk)++;
}

/* The host's mergeSort(): the shared sort into ikey, then per stride the
 * four launches from ikey to okey, swapping them after each stage. */
static void set_launches(gm_workload *w, gm_mergesort_params *p)
{
    uint32_t nk = 0;
    uint64_t ik = p->dst_key, iv = p->dst_val, ok = p->buf_key, ov = p->buf_val, t;
    if (p->stages & 1) {
        ik = p->buf_key, iv = p->buf_val, ok = p->dst_key, ov = p->dst_val;
    }
    add_launch(w, &nk, p, GM_MS_SHARED_SORT, 0);
    p->launch[0].src_key = p->src_key;
    p->launch[0].src_val = p->src_val;
    p->launch[0].dst_key = ik;
    p->launch[0].dst_val = iv;
    for (uint32_t st = 0; st < p->stages; st++) {
        add_launch(w, &nk, p, GM_MS_SAMPLE_RANKS, st);
        p->launch[nk - 1].src_key = ik;
        for (uint32_t pr = 0; pr < 2; pr++) {
            add_launch(w, &nk, p, GM_MS_MERGE_RANKS, st);
            p->launch[nk - 1].pair = pr;
            p->launch[nk - 1].ranks = p->ranks[pr];
            p->launch[nk - 1].limits = p->limits[pr];
        }
        add_launch(w, &nk, p, GM_MS_INTERVALS, st);
        gm_mergesort_launch *ln = &p->launch[nk - 1];
        ln->src_key = ik, ln->src_val = iv, ln->dst_key = ok, ln->dst_val = ov;
        t = ik, ik = ok, ok = t;
        t = iv, iv = ov, ov = t;
    }
}

static void fill_data(gm_mergesort_params *p, uint64_t seed)
{
    uint16_t *lv = (uint16_t *)((char *)p + p->levels_off);
    uint32_t *ranks = (uint32_t *)((char *)p + p->ranks_off);
    uint32_t *limits = (uint32_t *)((char *)p + p->limits_off);
    uint32_t per = p->n / GM_MS_SAMPLE;
    gm_prng r;
    gm_prng_seed(&r, seed, PRNG_ID);
    for (uint32_t i = 0; i < p->n; i++)
        lv[i] = (uint16_t)gm_prng_below(&r, GM_MS_KEY_RANGE);
    for (uint32_t lg = 0; lg + 1 < p->log2n; lg++)
        merge_level(lv + (uint64_t)lg * p->n, lv + (uint64_t)(lg + 1) * p->n, p->n, 1u << lg);
    for (uint32_t st = 0; st < p->stages; st++)
        stage_tables(p, st, ranks + (uint64_t)st * 2 * per, limits + (uint64_t)st * 2 * per);
}

/* The intervals kernel stages at most SAMPLE_STRIDE keys of each run in
 * shared memory; the sample relies on the limits keeping every interval
 * within that, checked here rather than trusted. */
static int check_intervals(const gm_mergesort_params *p, gm_error *err)
{
    for (uint32_t st = 0; st < p->stages; st++) {
        uint32_t S = GM_MS_SHARED << st, samples = 2 * S / GM_MS_SAMPLE;
        for (uint32_t b = 0; b < p->n / GM_MS_SAMPLE; b++)
            for (uint32_t pr = 0; pr < 2; pr++) {
                uint32_t end = (b & (samples - 1)) + 1 < samples ? gm_mergesort_limit(p, st, pr, b + 1) : S;
                uint32_t start = gm_mergesort_limit(p, st, pr, b);
                if (end < start || end - start > GM_MS_SAMPLE)
                    return gm_fail(err, "mergesort: stage %u interval %u spans %u..%u", st, b,
                                   start, end);
            }
    }
    return 0;
}

int gm_mergesort_build_n(gm_workload *w, uint32_t n, uint64_t seed, gm_error *err)
{
    if (n < GM_MS_SHARED || n > GM_MS_SAMPLE * GM_MS_MAX_SAMPLES || (n & (n - 1)))
        return gm_fail(err, "mergesort: bad key count %u (a power of two, %u..%u)", n,
                       GM_MS_SHARED, GM_MS_SAMPLE * GM_MS_MAX_SAMPLES);
    uint32_t log2n = 0, stages = 0;
    while ((1u << log2n) < n)
        log2n++;
    for (uint32_t s = GM_MS_SHARED; s < n; s <<= 1)
        stages++;
    uint64_t head = (sizeof(gm_mergesort_params) + 7) & ~7ull;
    uint64_t lv_bytes = (((uint64_t)log2n * n * 2) + 7) & ~7ull;
    uint64_t tab_bytes = (uint64_t)stages * 2 * (n / GM_MS_SAMPLE) * 4;
    if (gm_workload_alloc(w, "mergesort", 1 + 4 * stages, head + lv_bytes + 2 * tab_bytes, err))
        return -1;
    gm_mergesort_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->n = n;
    p->log2n = log2n;
    p->stages = stages;
    p->levels_off = head;
    p->ranks_off = head + lv_bytes;
    p->limits_off = head + lv_bytes + tab_bytes;
    uint64_t *arrays[] = {&p->dst_key, &p->dst_val, &p->buf_key, &p->buf_val,
                          &p->src_key, &p->src_val};
    for (int i = 0; i < 6; i++)
        *arrays[i] = gm_devmem_alloc(&mem, 4ull * n);
    for (int i = 0; i < 4; i++)   /* RanksA, RanksB, LimitsA, LimitsB */
        *(i < 2 ? &p->ranks[i] : &p->limits[i - 2]) = gm_devmem_alloc(&mem, 4ull * GM_MS_MAX_SAMPLES);
    fill_data(p, seed);
    if (check_intervals(p, err)) {
        gm_workload_free(w);
        return -1;
    }
    set_launches(w, p);
    return 0;
}

/* Sizes (N keys): tiny 4096 (4 shared-sort CTAs, 2 merge stages), small
 * and fill 131072 (128 CTAs, 7 stages), standard the sample's 4M. */
int gm_mergesort_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t n[GM_SIZE_COUNT] = {4096, 131072, 4u << 20, 131072};
    if ((unsigned)size >= GM_SIZE_COUNT)
        return gm_fail(err, "mergesort: bad size %d", (int)size);
    return gm_mergesort_build_n(w, n[size], seed, err);
}
