/* AMD APP SDK Histogram (samples/opencl/cl/app/Histogram:
 * Histogram_Kernels.cl, kernel histogram256 with LINEAR_MEM_ACCESS
 * defined, and Histogram.cpp / .hpp) as an address-stream emulator.
 *
 *   for i < 256: sharedArray[lid * 256 + i] = 0;        (uchar)
 *   barrier;
 *   for i < 256: value = data[gid_group * gs * 256 + i * gs + lid];
 *                sharedArray[lid * 256 + value]++;
 *   barrier;
 *   for i < 256 / gs: binCount = sum over j < gs of sharedArray[j * 256 + i * gs + lid];
 *                     binResult[group * 256 + i * gs + lid] = binCount;
 *
 * Host: width = height = 1024 (width rounded down to a multiple of 256),
 * data[i] = rand() % 256; groupSize 128; global width * height / 256,
 * local 128: width * height / 32768 groups (32 by default); dataBuf then
 * midDeviceBinBuf (256 uints a group). gmsim draws the data from its
 * seeded PRNG (uniform in 0..255, as rand() % 256 is meant to be); it
 * decides only the local-memory addresses of the increments.
 *
 * Per warp: ALU lid, ALU group base, ALU zero; 256 x {STS 1 B, BRA}; BAR;
 * 256 x {ALU index, LD data, ALU local address, LDS 1 B, ALU inc, STS 1 B,
 * BRA}; BAR; 2 x {ALU zero, 128 x {LDS 1 B, ALU add, BRA}, ST binResult,
 * BRA}; EXIT. The skeleton is gmsim's; the memory operations and their
 * order are the source's. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "sim/prng.h"
#include "workload/build.h"

enum { R_L, R_G, R_Z, R_I, R_V, R_S, R_C, R_N };

enum {
    PC_LID = 0, PC_GB, PC_ZERO, PC_I_STS, PC_I_BRA, PC_BAR0,
    PC_M_IDX, PC_M_LD, PC_M_SADDR, PC_M_LDS, PC_M_INC, PC_M_STS, PC_M_BRA, PC_BAR1,
    PC_R_ZERO, PC_R_LDS, PC_R_ADD, PC_R_BRA, PC_R_ST, PC_R_LOOP, PC_EXIT, PC_DONE
};

/* v[0]: i of the current loop; v[1]: j of the merge loop. */
static int hist_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_hist_params *p = kern->params;
    const uint8_t *data = (const uint8_t *)(p + 1);
    const uint32_t all = 0xffffffffu;   /* 128 work-items: 4 full warps */
    const uint64_t gs = GM_HIST_GROUP, bins = GM_HIST_BINS;
    uint64_t lid0 = (uint64_t)g->warp * GM_WARP_SIZE;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        uint64_t i = (uint64_t)g->v[0], j = (uint64_t)g->v[1];
        switch (g->pc) {
        case PC_LID:  gm_emit(in, GM_OP_ALU, all, R_L, R_NONE, R_NONE, R_NONE); break;
        case PC_GB:   gm_emit(in, GM_OP_ALU, all, R_G, R_L, R_NONE, R_NONE); break;
        case PC_ZERO:
        case PC_R_ZERO: gm_emit(in, GM_OP_ALU, all, R_Z, R_NONE, R_NONE, R_NONE); break;
        case PC_I_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_L, R_Z, 1, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (lid0 + l) * bins + i;
            break;
        case PC_I_BRA:
        case PC_M_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_L, R_NONE, R_NONE);
            if (++g->v[0] < (int64_t)bins) {
                g->pc = g->pc == PC_I_BRA ? PC_I_STS : PC_M_IDX;
                continue;
            }
            g->v[0] = 0;
            break;
        case PC_BAR0:
        case PC_BAR1: gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_M_IDX: gm_emit(in, GM_OP_ALU, all, R_I, R_G, R_NONE, R_NONE); break;
        case PC_M_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_V, R_I, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = p->data + 4 * (g->cta * gs * bins + i * gs + lid0 + l);
            break;
        case PC_M_SADDR: gm_emit(in, GM_OP_ALU, all, R_S, R_V, R_L, R_NONE); break;
        case PC_M_LDS:
        case PC_M_STS:
            if (g->pc == PC_M_LDS)
                gm_emit_mem(in, GM_OP_SHARED_LD, all, R_C, R_S, R_NONE, 1, 0);
            else
                gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_S, R_C, 1, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t e = g->cta * gs * bins + i * gs + lid0 + l;
                in->addr[l] = (lid0 + l) * bins + data[e];   /* sharedArray[lid * 256 + value] */
            }
            break;
        case PC_M_INC: gm_emit(in, GM_OP_ALU, all, R_C, R_C, R_NONE, R_NONE); break;
        case PC_R_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, all, R_N, R_L, R_NONE, 1, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = j * bins + i * gs + lid0 + l;
            break;
        case PC_R_ADD: gm_emit(in, GM_OP_ALU, all, R_Z, R_Z, R_N, R_NONE); break;
        case PC_R_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_L, R_NONE, R_NONE);
            if (++g->v[1] < (int64_t)gs) {
                g->pc = PC_R_LDS;
                continue;
            }
            g->v[1] = 0;
            break;
        case PC_R_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_G, R_Z, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = p->bins + 4 * (g->cta * bins + i * gs + lid0 + l);
            break;
        case PC_R_LOOP:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_L, R_NONE, R_NONE);
            if (++g->v[0] < (int64_t)(bins / gs)) {
                g->pc = PC_R_ZERO;
                continue;
            }
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, all, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_histogram_build_dims(gm_workload *w, uint32_t width, uint32_t height, uint64_t seed,
                            gm_error *err)
{
    uint64_t n = (uint64_t)width * height;
    if (!width || !height || width % GM_HIST_BINS || width > 4096 || height > 4096 ||
        n % (GM_HIST_GROUP * GM_HIST_BINS))
        return gm_fail(err, "histogram: %u x %u: width must be a multiple of 256 up to 4096, "
                       "height up to 4096, width * height a multiple of 32768", width, height);
    if (gm_workload_alloc(w, "histogram", 1, sizeof(gm_hist_params) + n, err))
        return -1;
    gm_hist_params *p = w->priv;
    uint8_t *data = (uint8_t *)(p + 1);
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->width = width;
    p->height = height;
    p->data = gm_devmem_alloc(&mem, 4 * n);
    p->bins = gm_devmem_alloc(&mem, 4 * n / GM_HIST_GROUP);
    gm_prng rng;
    gm_prng_seed(&rng, seed, 0x4849 /* "HI" */);
    for (uint64_t i = 0; i < n; i++)
        data[i] = (uint8_t)gm_prng_below(&rng, GM_HIST_BINS);
    gm_kernel_set(&w->kernels[0], "histogram256",
                  gm_dim3_make((uint32_t)(n / (GM_HIST_GROUP * GM_HIST_BINS)), 1, 1),
                  gm_dim3_make(GM_HIST_GROUP, 1, 1), p, hist_gen);
    return 0;
}

int gm_histogram_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny 512 x 512 (8 groups), small 2048 x 2048 (128), standard the
     * sample's 1024 x 1024 (32 groups: the seed's 32 CUs once each) */
    static const uint32_t side[] = {512, 2048, 1024, 2048};
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "histogram: bad size %d", (int)size);
    return gm_histogram_build_dims(w, side[size], side[size], seed, err);
}
