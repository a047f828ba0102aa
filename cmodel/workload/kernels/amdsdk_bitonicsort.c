/* AMD APP SDK BitonicSort (samples/opencl/cl/app/BitonicSort:
 * BitonicSort_Kernels.cl, kernel bitonicSort, and BitonicSort.cpp / .hpp)
 * as an address-stream emulator.
 *
 *   pairDistance = 1 << (stage - passOfStage); blockWidth = 2 * pairDistance;
 *   leftId = tid % pairDistance + (tid / pairDistance) * blockWidth;
 *   rightId = leftId + pairDistance;
 *   left = theArray[leftId]; right = theArray[rightId];
 *   if ((tid / (1 << stage)) % 2 == 1) sortIncreasing = 1 - sortIncreasing;
 *   greater / lesser = the larger / smaller of left, right;
 *   if (sortIncreasing) { theArray[leftId] = lesser;  theArray[rightId] = greater; }
 *   else                { theArray[leftId] = greater; theArray[rightId] = lesser; }
 *
 * Host: length 1024 by default, one buffer; direction 0 (the default
 * "desc"); for stage < log2 length, for passOfStage <= stage: one launch,
 * global length / 2, local GROUP_SIZE = 1 (a one-work-item group: gmsim
 * runs a one-lane warp per group). The data decide only which value each
 * store writes (the compare is a select), never an address or a mask.
 *
 * Per warp: ALU pairDistance, ALU leftId, ALU rightId, LD left, LD right,
 * ALU parity, BRA, [ALU flip: groups whose tid / 2^stage is odd], ALU
 * compare, ALU greater, ALU lesser, ALU setp, BRA, ST left, ST right,
 * EXIT. The skeleton is gmsim's; the memory operations and their order
 * are the source's. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"

enum { R_PD, R_LI, R_RI, R_L, R_R, R_P, R_INC, R_C, R_G, R_S };

enum {
    PC_PD = 0, PC_LI, PC_RI, PC_LDL, PC_LDR, PC_PAR, PC_BRA0, PC_FLIP, PC_CMP, PC_GT, PC_LT,
    PC_SETP, PC_BRA1, PC_STL, PC_STR, PC_EXIT, PC_DONE
};

static int bitonic_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_bitonic_launch *L = kern->params;
    uint64_t tid = g->cta;   /* one work-item per group */
    uint64_t pd = 1ull << (L->stage - L->pass);
    uint64_t left = tid % pd + tid / pd * 2 * pd, right = left + pd;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        switch (g->pc) {
        case PC_PD:   gm_emit(in, GM_OP_ALU, 1u, R_PD, R_NONE, R_NONE, R_NONE); break;
        case PC_LI:   gm_emit(in, GM_OP_ALU, 1u, R_LI, R_PD, R_NONE, R_NONE); break;
        case PC_RI:   gm_emit(in, GM_OP_ALU, 1u, R_RI, R_LI, R_PD, R_NONE); break;
        case PC_LDL:
        case PC_LDR:
        case PC_STL:
        case PC_STR: {
            int ld = g->pc == PC_LDL || g->pc == PC_LDR;
            int r = g->pc == PC_LDR || g->pc == PC_STR;
            if (ld)
                gm_emit_mem(in, GM_OP_GLOBAL_LD, 1u, r ? R_R : R_L, r ? R_RI : R_LI, R_NONE,
                            4, 0);
            else   /* lesser / greater, whichever the direction puts there */
                gm_emit_mem(in, GM_OP_GLOBAL_ST, 1u, R_NONE, r ? R_RI : R_LI, r ? R_G : R_S,
                            4, 0);
            in->addr[0] = L->array + 4 * (r ? right : left);
            for (uint32_t l = 1; l < GM_WARP_SIZE; l++)
                in->addr[l] = 0;
            break;
        }
        case PC_PAR:  gm_emit(in, GM_OP_ALU, 1u, R_P, R_NONE, R_NONE, R_NONE); break;
        case PC_BRA0:
            gm_emit(in, GM_OP_BRANCH, 1u, R_NONE, R_P, R_NONE, R_NONE);
            if ((tid >> L->stage) % 2 == 0) {   /* no flip of the direction */
                g->pc = PC_CMP;
                continue;
            }
            break;
        case PC_FLIP: gm_emit(in, GM_OP_ALU, 1u, R_INC, R_NONE, R_NONE, R_NONE); break;
        case PC_CMP:  gm_emit(in, GM_OP_ALU, 1u, R_C, R_L, R_R, R_NONE); break;
        case PC_GT:   gm_emit(in, GM_OP_ALU, 1u, R_G, R_C, R_L, R_R); break;
        case PC_LT:   gm_emit(in, GM_OP_ALU, 1u, R_S, R_C, R_L, R_R); break;
        case PC_SETP: gm_emit(in, GM_OP_ALU, 1u, R_P, R_NONE, R_NONE, R_NONE); break;
        case PC_BRA1: gm_emit(in, GM_OP_BRANCH, 1u, R_NONE, R_P, R_NONE, R_NONE); break;
        case PC_EXIT:
            return gm_gen_exit(g, in, 1u, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_bitonicsort_build_dims(gm_workload *w, uint32_t length, gm_error *err)
{
    if (length < 2 || length > (1u << 20) || (length & (length - 1)))
        return gm_fail(err, "bitonicsort: length %u must be a power of two in 2..1048576",
                       length);
    uint32_t stages = 0;
    for (uint32_t t = length; t > 1; t >>= 1)   /* the host's numStages */
        stages++;
    uint32_t nk = stages * (stages + 1) / 2;
    if (gm_workload_alloc(w, "bitonicsort", nk,
                          sizeof(gm_bitonic_params) + nk * sizeof(gm_bitonic_launch), err))
        return -1;
    gm_bitonic_params *p = w->priv;
    gm_bitonic_launch *L = (gm_bitonic_launch *)(p + 1);
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->length = length;
    p->array = gm_devmem_alloc(&mem, 4ull * length);
    uint32_t k = 0;
    for (uint32_t s = 0; s < stages; s++)
        for (uint32_t ps = 0; ps <= s; ps++, k++) {
            L[k] = (gm_bitonic_launch){p->array, s, ps};
            gm_kernel_set(&w->kernels[k], "bitonicSort", gm_dim3_make(length / 2, 1, 1),
                          gm_dim3_make(1, 1, 1), &L[k], bitonic_gen);
        }
    return 0;
}

int gm_bitonicsort_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny 256 (128 one-work-item groups a launch, 36 launches), small
     * 4096 (2048 groups, 78 launches), standard the default 1024 (512
     * groups, 55 launches) */
    static const uint32_t length[] = {256, 4096, 1024, 4096};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "bitonicsort: bad size %d", (int)size);
    return gm_bitonicsort_build_dims(w, length[size], err);
}
