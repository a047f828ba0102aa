/* AMD APP SDK RadixSort (samples/opencl/cl/app/RadixSort:
 * RadixSort_Kernels.cl, kernels histogram and permute, and RadixSort.cpp /
 * .hpp) as an address-stream emulator.
 *
 * histogram (work-item lid of a 64-item group, gid, RADICES 256):
 *   for i < 256: sharedArray[lid * 256 + i] = 0;            (ushort)
 *   barrier;
 *   for i < 256: value = (unsortedData[gid * 256 + i] >> shift) & 0xff;
 *                sharedArray[lid * 256 + value]++;
 *   barrier;
 *   for i < 256: buckets[group * 256 * 64 + lid * 256 + i] = sharedArray[lid * 256 + i];
 * permute:
 *   for i < 256: sharedBuckets[lid * 256 + i] = scanedBuckets[group * 256 * 64 + lid * 256 + i];
 *   barrier;
 *   for i < 256: value = (unsortedData[gid * 256 + i] >> shift) & 0xff;
 *                index = sharedBuckets[lid * 256 + value];
 *                sortedData[index] = unsortedData[gid * 256 + i];
 *                sharedBuckets[lid * 256 + value] = index + 1;
 *                barrier;
 *
 * Host: elementCount 8192 rounded to a power of two and up to GROUP_SIZE *
 * RADICES = 16384 (so one group by default), keys rand(); buffers
 * unsortedDataBuf, histogramBinsBuf, scanedHistogramBinsBuf, sortedDataBuf;
 * for shift = 0, 8, 16, 24: histogram (global n / 256, local 64), the
 * host's exclusive scan of the buckets in (bin, group, work-item) order,
 * permute, and the sorted keys written back as the next pass's input. The
 * build does all of that on the host, as the sample's CPU reference does,
 * and records each pass's digits and scatter indices: the keys (drawn from
 * gmsim's PRNG, 31 bits like rand()) decide the local-memory addresses of
 * both kernels and the store addresses of permute. The local arrays are
 * ushort, so an index above 65535 would wrap: gmsim allows n <= 65536,
 * where the sample is right.
 *
 * The skeleton between the memory operations is gmsim's; the memory
 * operations and their order are the source's, including permute's
 * second load of the same key (the source reads it twice). */
#include "workload/kernels/kernels.h"

#include <stdint.h>
#include <string.h>

#include "sim/prng.h"
#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

enum { R_L, R_Z, R_I, R_V, R_D, R_C, R_X, R_W, R_P };

enum {   /* histogram */
    PH_LID = 0, PH_ZERO, PH_I_STS, PH_I_BRA, PH_BAR0,
    PH_M_IDX, PH_M_LD, PH_M_DIG, PH_M_LDS, PH_M_INC, PH_M_STS, PH_M_BRA, PH_BAR1,
    PH_C_LDS, PH_C_POS, PH_C_ST, PH_C_BRA, PH_EXIT, PH_DONE
};

enum {   /* permute */
    PP_LID = 0, PP_C_POS, PP_C_LD, PP_C_STS, PP_C_BRA, PP_BAR0,
    PP_M_IDX, PP_M_LD, PP_M_DIG, PP_M_LDS, PP_M_LD2, PP_M_ST, PP_M_INC, PP_M_STS, PP_M_BAR,
    PP_M_BRA, PP_EXIT, PP_DONE
};

static const uint32_t *rs_index(const gm_rs_params *p, uint32_t pass)
{
    return (const uint32_t *)(const void *)(p + 1) + (size_t)pass * p->n;
}

static const uint8_t *rs_digit(const gm_rs_params *p, uint32_t pass)
{
    return (const uint8_t *)(rs_index(p, GM_RS_PASSES)) + (size_t)pass * p->n;
}

/* A 2 B local access sharedArray[(lid0 + l) * 256 + col(l)] on every lane. */
static void local_row(gm_inst *in, uint64_t lid0, const uint8_t *col, uint64_t fixed)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = 2 * ((lid0 + l) * GM_RS_RADICES + (col ? col[l] : fixed));
}

/* Both phases read work-item gid's i-th key, unsortedData[gid * 256 + i]. */
static void addr_unsorted_key(gm_inst *in, const gm_rs_params *p, uint64_t gid0, uint64_t i)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = p->unsorted + 4 * ((gid0 + l) * GM_RS_RADICES + i);
}

/* The work-item's counter for the digit of that key. */
static void local_digit_row(gm_inst *in, const uint8_t *dig, uint64_t gid0, uint64_t lid0,
                            uint64_t i)
{
    uint8_t col[GM_WARP_SIZE];
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        col[l] = dig[(gid0 + l) * GM_RS_RADICES + i];
    local_row(in, lid0, col, 0);
}

static int hist_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_rs_launch *L = kern->params;
    const gm_rs_params *p = L->p;
    const uint32_t all = 0xffffffffu;   /* 64 work-items: 2 full warps */
    const uint64_t R = GM_RS_RADICES;
    uint64_t lid0 = (uint64_t)g->warp * GM_WARP_SIZE, gid0 = g->cta * GM_RS_GROUP + lid0;
    const uint8_t *dig = rs_digit(p, L->pass);
    int c = 0;

    if (g->pc == PH_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        uint64_t i = (uint64_t)g->v[0];
        switch (g->pc) {
        case PH_LID:  gm_emit(in, GM_OP_ALU, all, R_L, R_NONE, R_NONE, R_NONE); break;
        case PH_ZERO: gm_emit(in, GM_OP_ALU, all, R_Z, R_NONE, R_NONE, R_NONE); break;
        case PH_I_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_L, R_Z, 2, 0);
            local_row(in, lid0, NULL, i);
            break;
        case PH_I_BRA:
        case PH_M_BRA:
        case PH_C_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_L, R_NONE, R_NONE);
            if (++g->v[0] < (int64_t)R) {
                g->pc = g->pc == PH_I_BRA ? PH_I_STS : g->pc == PH_M_BRA ? PH_M_IDX : PH_C_LDS;
                continue;
            }
            g->v[0] = 0;
            break;
        case PH_BAR0:
        case PH_BAR1: gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PH_M_IDX:
        case PH_C_POS: gm_emit(in, GM_OP_ALU, all, R_I, R_L, R_NONE, R_NONE); break;
        case PH_M_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_V, R_I, R_NONE, 4, GM_INST_READ_ONLY);
            addr_unsorted_key(in, p, gid0, i);
            break;
        case PH_M_DIG: gm_emit(in, GM_OP_ALU, all, R_D, R_V, R_L, R_NONE); break;
        case PH_M_LDS:
        case PH_M_STS:
            if (g->pc == PH_M_LDS)
                gm_emit_mem(in, GM_OP_SHARED_LD, all, R_C, R_D, R_NONE, 2, 0);
            else
                gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_D, R_C, 2, 0);
            local_digit_row(in, dig, gid0, lid0, i);
            break;
        case PH_M_INC: gm_emit(in, GM_OP_ALU, all, R_C, R_C, R_NONE, R_NONE); break;
        case PH_C_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, all, R_C, R_L, R_NONE, 2, 0);
            local_row(in, lid0, NULL, i);
            break;
        case PH_C_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_I, R_C, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = p->bins + 4 * ((uint64_t)g->cta * R * GM_RS_GROUP +
                                             (lid0 + l) * R + i);
            break;
        case PH_EXIT:
            return gm_gen_exit(g, in, all, PH_DONE, c);
        }
        g->pc++;
    }
    return c;
}

static int perm_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_rs_launch *L = kern->params;
    const gm_rs_params *p = L->p;
    const uint32_t all = 0xffffffffu;
    const uint64_t R = GM_RS_RADICES;
    uint64_t lid0 = (uint64_t)g->warp * GM_WARP_SIZE, gid0 = g->cta * GM_RS_GROUP + lid0;
    const uint8_t *dig = rs_digit(p, L->pass);
    const uint32_t *idx = rs_index(p, L->pass);
    int c = 0;

    if (g->pc == PP_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        uint64_t i = (uint64_t)g->v[0];
        switch (g->pc) {
        case PP_LID:   gm_emit(in, GM_OP_ALU, all, R_L, R_NONE, R_NONE, R_NONE); break;
        case PP_C_POS:
        case PP_M_IDX: gm_emit(in, GM_OP_ALU, all, R_I, R_L, R_NONE, R_NONE); break;
        case PP_C_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_V, R_I, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)   /* scanedBuckets[...] */
                in->addr[l] = p->scanned + 4 * ((uint64_t)g->cta * R * GM_RS_GROUP +
                                                (lid0 + l) * R + i);
            break;
        case PP_C_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_L, R_V, 2, 0);
            local_row(in, lid0, NULL, i);
            break;
        case PP_C_BRA:
        case PP_M_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_L, R_NONE, R_NONE);
            if (++g->v[0] < (int64_t)R) {
                g->pc = g->pc == PP_C_BRA ? PP_C_POS : PP_M_IDX;
                continue;
            }
            g->v[0] = 0;
            break;
        case PP_BAR0:
        case PP_M_BAR: gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PP_M_LD:
        case PP_M_LD2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, g->pc == PP_M_LD ? R_V : R_W, R_I, R_NONE, 4,
                        GM_INST_READ_ONLY);
            addr_unsorted_key(in, p, gid0, i);
            break;
        case PP_M_DIG: gm_emit(in, GM_OP_ALU, all, R_D, R_V, R_L, R_NONE); break;
        case PP_M_LDS:
        case PP_M_STS:
            if (g->pc == PP_M_LDS)
                gm_emit_mem(in, GM_OP_SHARED_LD, all, R_X, R_D, R_NONE, 2, 0);
            else
                gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_D, R_P, 2, 0);
            local_digit_row(in, dig, gid0, lid0, i);
            break;
        case PP_M_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_X, R_W, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)   /* sortedData[index] */
                in->addr[l] = p->sorted + 4ull * idx[(gid0 + l) * R + i];
            break;
        case PP_M_INC: gm_emit(in, GM_OP_ALU, all, R_P, R_X, R_NONE, R_NONE); break;
        case PP_EXIT:
            return gm_gen_exit(g, in, all, PP_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_radixsort_build_dims(gm_workload *w, uint32_t n, uint64_t seed, gm_error *err)
{
    const uint32_t R = GM_RS_RADICES, G = GM_RS_GROUP;
    if (n < G * R || n > 65536 || (n & (n - 1)))
        return gm_fail(err, "radixsort: elementCount %u must be a power of two in %u..65536 "
                       "(the kernels' ushort indices)", n, G * R);
    /* params (with the launches), index[passes][n], digit[passes][n], then
     * scratch used only while building: keys, next keys, buckets */
    size_t bytes = sizeof(gm_rs_params) + (size_t)n * GM_RS_PASSES * (sizeof(uint32_t) + 1) +
                   3 * (size_t)n * sizeof(uint32_t);
    if (gm_workload_alloc(w, "radixsort", 2 * GM_RS_PASSES, bytes, err))
        return -1;
    gm_rs_params *p = w->priv;
    p->n = n;
    p->groups = n / (G * R);
    uint32_t *index = (uint32_t *)(void *)(p + 1);
    uint8_t *digit = (uint8_t *)(index + (size_t)GM_RS_PASSES * n);
    /* n is a multiple of 16384, so the digits end 4-byte aligned */
    uint32_t *keys = (uint32_t *)(void *)(digit + (size_t)GM_RS_PASSES * n);
    uint32_t *next = keys + n, *bins = next + n;
    gm_rs_launch *L = p->launch;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->unsorted = gm_devmem_alloc(&mem, 4ull * n);
    p->bins = gm_devmem_alloc(&mem, 4ull * n);
    p->scanned = gm_devmem_alloc(&mem, 4ull * n);
    p->sorted = gm_devmem_alloc(&mem, 4ull * n);

    gm_prng rng;
    gm_prng_seed(&rng, seed, 0x5253 /* "RS" */);
    for (uint32_t e = 0; e < n; e++)
        keys[e] = (uint32_t)(gm_prng_next(&rng) & 0x7fffffffu);
    for (uint32_t ps = 0; ps < GM_RS_PASSES; ps++) {
        uint32_t shift = 8 * ps;
        uint32_t *ix = index + (size_t)ps * n;
        uint8_t *dg = digit + (size_t)ps * n;
        memset(bins, 0, (size_t)n * sizeof *bins);
        for (uint32_t e = 0; e < n; e++) {   /* histogram: work-item e / 256 counts */
            dg[e] = (uint8_t)(keys[e] >> shift & 0xffu);
            bins[e / R * R + dg[e]]++;        /* (group * 64 + lid) * 256 + value */
        }
        uint32_t sum = 0;   /* the host's scan: bin, then group, then work-item */
        for (uint32_t b = 0; b < R; b++)
            for (uint32_t t = 0; t < n / R; t++) {
                uint32_t v = bins[t * R + b];
                bins[t * R + b] = sum;
                sum += v;
            }
        for (uint32_t e = 0; e < n; e++) {   /* permute: each work-item in order */
            uint32_t *slot = &bins[e / R * R + dg[e]];
            ix[e] = *slot;
            next[*slot] = keys[e];
            ++*slot;
        }
        memcpy(keys, next, (size_t)n * sizeof *keys);
    }
    for (uint32_t ps = 0; ps < GM_RS_PASSES; ps++) {
        L[2 * ps] = (gm_rs_launch){p, ps, 0};
        L[2 * ps + 1] = (gm_rs_launch){p, ps, 1};
        gm_kernel_set(&w->kernels[2 * ps], "histogram", gm_dim3_make(p->groups, 1, 1),
                      gm_dim3_make(G, 1, 1), &L[2 * ps], hist_gen);
        gm_kernel_set(&w->kernels[2 * ps + 1], "permute", gm_dim3_make(p->groups, 1, 1),
                      gm_dim3_make(G, 1, 1), &L[2 * ps + 1], perm_gen);
    }
    return 0;
}

int gm_radixsort_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny and standard: the default 8192 keys raised to 16384 (one group);
     * small 65536 (4 groups, the most the ushort indices allow) */
    static const uint32_t n[] = {16384, 65536, 16384, 65536};
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "radixsort: bad size %d", (int)size);
    return gm_radixsort_build_dims(w, n[size], seed, err);
}
