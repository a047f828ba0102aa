/* AMD APP SDK Reduction (samples/opencl/cl/app/Reduction:
 * Reduction_Kernels.cl, kernel reduce, and Reduction.cpp / .hpp) as an
 * address-stream emulator. Not SHOC's reduction (reduction.c).
 *
 *   tid, bid, gid; stride = gid * 2;
 *   sdata[tid] = input[stride] + input[stride + 1];    (uint4)
 *   barrier;
 *   for (s = localSize / 2; s > 0; s >>= 1) {
 *       if (tid < s) sdata[tid] += sdata[tid + s];
 *       barrier;
 *   }
 *   if (tid == 0) output[bid] = sdata[0];
 *
 * Host: length 64 uints by default, raised to GROUP_SIZE * VECTOR_SIZE *
 * MULTIPLY = 2048 and rounded down to a multiple of it, then counted in
 * uint4s (length / 4); global length / 2 (uint4s / 2), local 256:
 * numBlocks = uint4s / 512 groups (1 by default); inputBuffer then
 * outputBuffer (numBlocks uint4s). The data never decide an address.
 *
 * Per warp: ALU, LD input[2gid], LD input[2gid+1] (16 B each), ADD, STS
 * sdata[tid], BAR; per level s: setp, BRA, [LDS sdata[tid], LDS
 * sdata[tid + s], ADD, STS sdata[tid] on the lanes below s], BAR, BRA;
 * then setp, BRA, [warp 0 lane 0: LDS sdata[0], ST output[bid]], EXIT.
 * The skeleton is gmsim's; the memory operations and their order are the
 * source's. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"

enum { R_G, R_A, R_B, R_S, R_P, R_X, R_Y, R_L };

enum {
    PC_GID = 0, PC_LDA, PC_LDB, PC_ADD0, PC_STS0, PC_BAR0,
    PC_SETP, PC_BRA, PC_LDS0, PC_LDS1, PC_ADD, PC_STS, PC_BAR, PC_LOOP,
    PC_E_SETP, PC_E_BRA, PC_E_LDS, PC_E_ST, PC_EXIT, PC_DONE
};

static void local16(gm_inst *in, uint32_t tid0, uint64_t add)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = in->mask >> l & 1 ? 16 * (tid0 + l + add) : 0;
}

/* v[0]: the current s */
static int red_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_sdkred_params *p = kern->params;
    const uint32_t all = 0xffffffffu;   /* 256 work-items a group */
    uint32_t tid0 = g->warp * GM_WARP_SIZE;
    uint64_t gid0 = (uint64_t)g->cta * GM_SDKRED_GROUP + tid0;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        uint64_t s = (uint64_t)g->v[0];
        uint32_t act = s <= tid0 ? 0 : s - tid0 >= GM_WARP_SIZE ? all
                                                                   : (1u << (s - tid0)) - 1;
        switch (g->pc) {
        case PC_GID:  gm_emit(in, GM_OP_ALU, all, R_G, R_NONE, R_NONE, R_NONE); break;
        case PC_LDA:
        case PC_LDB:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, g->pc == PC_LDA ? R_A : R_B, R_G, R_NONE, 16,
                        GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)   /* input[2gid (+1)] */
                in->addr[l] = p->input + 16 * (2 * (gid0 + l) + (g->pc == PC_LDB));
            break;
        case PC_ADD0: gm_emit(in, GM_OP_ALU, all, R_S, R_A, R_B, R_NONE); break;
        case PC_STS0:
            gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_G, R_S, 16, 0);
            local16(in, tid0, 0);
            g->v[0] = GM_SDKRED_GROUP / 2;
            break;
        case PC_BAR0:
        case PC_BAR:  gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_SETP:
        case PC_E_SETP: gm_emit(in, GM_OP_ALU, all, R_P, R_G, R_NONE, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_P, R_NONE, R_NONE);
            if (!act) {
                g->pc = PC_BAR;
                continue;
            }
            break;
        case PC_LDS0:
        case PC_LDS1:
            gm_emit_mem(in, GM_OP_SHARED_LD, act, g->pc == PC_LDS0 ? R_X : R_Y, R_G, R_NONE, 16,
                        0);
            local16(in, tid0, g->pc == PC_LDS0 ? 0 : s);
            break;
        case PC_ADD:  gm_emit(in, GM_OP_ALU, act, R_X, R_X, R_Y, R_NONE); break;
        case PC_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, act, R_NONE, R_G, R_X, 16, 0);
            local16(in, tid0, 0);
            break;
        case PC_LOOP:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] >>= 1;
            if (g->v[0] > 0) {
                g->pc = PC_SETP;
                continue;
            }
            break;
        case PC_E_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_P, R_NONE, R_NONE);
            if (g->warp != 0) {   /* tid 0 is lane 0 of warp 0 */
                g->pc = PC_EXIT;
                continue;
            }
            break;
        case PC_E_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, 1u, R_L, R_G, R_NONE, 16, 0);
            local16(in, 0, 0);
            break;
        case PC_E_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, 1u, R_NONE, R_G, R_L, 16, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = l == 0 ? p->output + 16ull * g->cta : 0;
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, all, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_sdkreduction_build_dims(gm_workload *w, uint32_t length, gm_error *err)
{
    const uint32_t mul = GM_SDKRED_GROUP * 4 * 2;   /* GROUP_SIZE * VECTOR_SIZE * MULTIPLY */
    if (length < mul || length % mul || length > (1u << 26))
        return gm_fail(err, "sdkreduction: length %u must be a multiple of %u up to %u",
                       length, mul, 1u << 26);
    if (gm_workload_alloc(w, "sdkreduction", 1, sizeof(gm_sdkred_params), err))
        return -1;
    gm_sdkred_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->length = length;
    p->blocks = length / mul;
    p->input = gm_devmem_alloc(&mem, 4ull * length);
    p->output = gm_devmem_alloc(&mem, 16ull * p->blocks);
    gm_kernel_set(&w->kernels[0], "reduce", gm_dim3_make(p->blocks, 1, 1),
                  gm_dim3_make(GM_SDKRED_GROUP, 1, 1), p, red_gen);
    return 0;
}

int gm_sdkreduction_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* uints: tiny 65536 (32 groups: the seed's 32 CUs), small 262144 (128),
     * standard the default 64 raised to 2048 (1 group) */
    static const uint32_t length[] = {65536, 262144, 2048, 262144};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "sdkreduction: bad size %d", (int)size);
    return gm_sdkreduction_build_dims(w, length[size], err);
}
