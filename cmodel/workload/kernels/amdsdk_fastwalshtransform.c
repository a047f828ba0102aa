/* AMD APP SDK FastWalshTransform (samples/opencl/cl/app/FastWalshTransform:
 * FastWalshTransform_Kernels.cl, kernel fastWalshTransform, and
 * FastWalshTransform.cpp / .hpp) as an address-stream emulator.
 *
 *   tid = get_global_id(0); group = tid % step;
 *   pair = 2 * step * (tid / step) + group; match = pair + step;
 *   T1 = tArray[pair]; T2 = tArray[match];
 *   tArray[pair] = T1 + T2; tArray[match] = T1 - T2;
 *
 * Host: length 1024 by default (at least 512); one buffer (inputBuffer);
 * global length / 2, local 256; one launch per step = 1, 2, 4, ...,
 * length / 2, each waiting for the last. The data never decides an
 * address.
 *
 * Per warp: ALU tid, ALU group, ALU pair, ALU match, LD tArray[pair], LD
 * tArray[match], ALU add, ALU sub, ST tArray[pair], ST tArray[match], EXIT.
 * The skeleton is gmsim's; the memory operations and their order are the
 * source's. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"

enum { R_T, R_G, R_P, R_M, R_A, R_B, R_S, R_D };

enum {
    PC_TID = 0, PC_GRP, PC_PAIR, PC_MATCH, PC_LDP, PC_LDM, PC_ADD, PC_SUB, PC_STP, PC_STM,
    PC_EXIT, PC_DONE
};

static int fwt_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_fwt_launch *L = kern->params;
    const uint32_t all = 0xffffffffu;   /* 256 work-items a group */
    uint64_t tid0 = (uint64_t)g->cta * GM_FWT_GROUP + g->warp * GM_WARP_SIZE;
    uint64_t step = L->step;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        switch (g->pc) {
        case PC_TID:   gm_emit(in, GM_OP_ALU, all, R_T, R_NONE, R_NONE, R_NONE); break;
        case PC_GRP:   gm_emit(in, GM_OP_ALU, all, R_G, R_T, R_NONE, R_NONE); break;
        case PC_PAIR:  gm_emit(in, GM_OP_ALU, all, R_P, R_T, R_G, R_NONE); break;
        case PC_MATCH: gm_emit(in, GM_OP_ALU, all, R_M, R_P, R_NONE, R_NONE); break;
        case PC_LDP:
        case PC_LDM:
        case PC_STP:
        case PC_STM: {
            int ld = g->pc == PC_LDP || g->pc == PC_LDM;
            int match = g->pc == PC_LDM || g->pc == PC_STM;
            uint8_t a = match ? R_M : R_P;
            if (ld)
                gm_emit_mem(in, GM_OP_GLOBAL_LD, all, match ? R_B : R_A, a, R_NONE, 4, 0);
            else
                gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, a, match ? R_D : R_S, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t tid = tid0 + l;
                uint64_t pair = 2 * step * (tid / step) + tid % step;
                in->addr[l] = L->array + 4 * (pair + (match ? step : 0));
            }
            break;
        }
        case PC_ADD: gm_emit(in, GM_OP_ALU, all, R_S, R_A, R_B, R_NONE); break;
        case PC_SUB: gm_emit(in, GM_OP_ALU, all, R_D, R_A, R_B, R_NONE); break;
        case PC_EXIT:
            return gm_gen_exit(g, in, all, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_fastwalshtransform_build_dims(gm_workload *w, uint32_t length, gm_error *err)
{
    if (length < 512 || length > (1u << 24) || (length & (length - 1)))
        return gm_fail(err, "fastwalshtransform: length %u must be a power of two in "
                       "512..16777216", length);
    uint32_t steps = 0;
    while ((1u << steps) < length)
        steps++;
    if (gm_workload_alloc(w, "fastwalshtransform", steps,
                          sizeof(gm_fwt_params) + steps * sizeof(gm_fwt_launch), err))
        return -1;
    gm_fwt_params *p = w->priv;
    gm_fwt_launch *L = (gm_fwt_launch *)(p + 1);
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->length = length;
    p->array = gm_devmem_alloc(&mem, 4ull * length);
    for (uint32_t s = 0; s < steps; s++) {
        L[s] = (gm_fwt_launch){p->array, 1u << s};
        gm_kernel_set(&w->kernels[s], "fastWalshTransform",
                      gm_dim3_make(length / 2 / GM_FWT_GROUP, 1, 1),
                      gm_dim3_make(GM_FWT_GROUP, 1, 1), &L[s], fwt_gen);
    }
    return 0;
}

int gm_fastwalshtransform_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny 16384 (32 groups a launch: the seed's 32 CUs; 14 launches),
     * small 65536 (128 groups, 16 launches), standard the sample's default
     * 1024 (2 groups, 10 launches) */
    static const uint32_t length[] = {16384, 65536, 1024, 65536};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "fastwalshtransform: bad size %d", (int)size);
    return gm_fastwalshtransform_build_dims(w, length[size], err);
}
