/* AMD APP SDK BinomialOption (samples/opencl/cl/app/BinomialOption:
 * BinomialOption_Kernels.cl, kernel binomial_options, and
 * BinomialOption.cpp / .hpp) as an address-stream emulator.
 *
 *   tid = get_local_id(0); bid = get_group_id(0);
 *   inRand = randArray[bid];                      (float4, every work-item)
 *   ... callA[tid] = max(profit, 0);  barrier;
 *   for (j = numSteps; j > 0; j -= 2) {
 *       if (tid < j)     callB[tid] = puByr * callA[tid] + pdByr * callA[tid + 1];
 *       barrier;
 *       if (tid < j - 1) callA[tid] = puByr * callB[tid] + pdByr * callB[tid + 1];
 *       barrier;
 *   }
 *   if (tid == 0) output[bid] = callA[0];         (float4)
 *
 * Host: numSamples 64 (rounded to a multiple of 4), numSteps 254; global
 * {numSamples * (numSteps + 1)}, local {numSteps + 1}: a group per option
 * (sample), 255 work-items, 8 warps with a 31-lane last one; randBuffer
 * then outBuffer, float4 elements. callA and callB are float4 local
 * arrays of numSteps + 1 (callA at 0, callB after it). The four
 * component stores to callA[tid] are one 16 B local store here. The
 * skeleton between the memory operations is gmsim's; the memory
 * operations and their order are the source's. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"

enum { R_T, R_B, R_IN, R_S, R_X, R_Y, R_DT, R_Q, R_V, R_R, R_RI, R_U, R_D, R_PU, R_PD,
       R_PUR, R_PDR, R_P, R_A0, R_A1, R_C, R_J };

enum {
    PC_TID = 0, PC_BID, PC_LD, PC_S, PC_X, PC_Y, PC_DT, PC_SQRT, PC_VSDT, PC_RDT, PC_EXPR,
    PC_RINV, PC_EXPU, PC_DINV, PC_PU, PC_PD, PC_PUR, PC_PDR, PC_ARG, PC_EXPP, PC_PROF,
    PC_MAX, PC_STS0, PC_BAR0,
    PC_B_SETP, PC_B_BRA, PC_B_LDS0, PC_B_LDS1, PC_B_MUL, PC_B_FMA, PC_B_STS, PC_B_BAR,
    PC_A_SETP, PC_A_BRA, PC_A_LDS0, PC_A_LDS1, PC_A_MUL, PC_A_FMA, PC_A_STS, PC_A_BAR,
    PC_J, PC_LOOP,
    PC_E_SETP, PC_E_BRA, PC_E_LDS, PC_E_ST, PC_EXIT, PC_DONE
};

static uint32_t lanes_below(uint32_t tid0, int64_t bound, uint32_t exist)
{
    if (bound <= (int64_t)tid0)
        return 0;
    uint64_t n = (uint64_t)bound - tid0;
    return (n >= GM_WARP_SIZE ? 0xffffffffu : (1u << n) - 1) & exist;
}

/* callX[tid + add] on the active lanes (16 B elements from base) */
static void local16(gm_inst *in, uint64_t base, uint32_t tid0, uint32_t add)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = in->mask >> l & 1 ? base + 16ull * (tid0 + l + add) : 0;
}

static int bo_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_bo_params *p = kern->params;
    uint32_t items = kern->block.x, tid0 = g->warp * GM_WARP_SIZE;
    uint32_t exist = gm_warp_exist_mask(items, g->warp);
    uint64_t call_a = 0, call_b = 16ull * items;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    if (g->pc == PC_TID)
        g->v[0] = p->steps;   /* j */
    while (c < max) {
        gm_inst *in = &out[c++];
        int64_t j = g->v[0];
        uint32_t act;
        switch (g->pc) {
        case PC_TID:  gm_emit(in, GM_OP_ALU, exist, R_T, R_NONE, R_NONE, R_NONE); break;
        case PC_BID:  gm_emit(in, GM_OP_ALU, exist, R_B, R_NONE, R_NONE, R_NONE); break;
        case PC_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, exist, R_IN, R_B, R_NONE, 16, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)   /* randArray[bid]: a broadcast */
                in->addr[l] = exist >> l & 1 ? p->rand + 16ull * g->cta : 0;
            break;
        case PC_S:    gm_emit(in, GM_OP_ALU, exist, R_S, R_IN, R_NONE, R_NONE); break;
        case PC_X:    gm_emit(in, GM_OP_ALU, exist, R_X, R_IN, R_NONE, R_NONE); break;
        case PC_Y:    gm_emit(in, GM_OP_ALU, exist, R_Y, R_IN, R_NONE, R_NONE); break;
        case PC_DT:   gm_emit(in, GM_OP_ALU, exist, R_DT, R_Y, R_NONE, R_NONE); break;
        case PC_SQRT: gm_emit(in, GM_OP_SFU, exist, R_Q, R_DT, R_NONE, R_NONE); break;
        case PC_VSDT: gm_emit(in, GM_OP_ALU, exist, R_V, R_Q, R_NONE, R_NONE); break;
        case PC_RDT:  gm_emit(in, GM_OP_ALU, exist, R_Q, R_DT, R_NONE, R_NONE); break;
        case PC_EXPR: gm_emit(in, GM_OP_SFU, exist, R_R, R_Q, R_NONE, R_NONE); break;
        case PC_RINV: gm_emit(in, GM_OP_SFU, exist, R_RI, R_R, R_NONE, R_NONE); break;
        case PC_EXPU: gm_emit(in, GM_OP_SFU, exist, R_U, R_V, R_NONE, R_NONE); break;
        case PC_DINV: gm_emit(in, GM_OP_SFU, exist, R_D, R_U, R_NONE, R_NONE); break;
        case PC_PU:   gm_emit(in, GM_OP_SFU, exist, R_PU, R_R, R_D, R_U); break;
        case PC_PD:   gm_emit(in, GM_OP_ALU, exist, R_PD, R_PU, R_NONE, R_NONE); break;
        case PC_PUR:  gm_emit(in, GM_OP_ALU, exist, R_PUR, R_PU, R_RI, R_NONE); break;
        case PC_PDR:  gm_emit(in, GM_OP_ALU, exist, R_PDR, R_PD, R_RI, R_NONE); break;
        case PC_ARG:  gm_emit(in, GM_OP_ALU, exist, R_Q, R_V, R_T, R_NONE); break;
        case PC_EXPP: gm_emit(in, GM_OP_SFU, exist, R_Q, R_Q, R_NONE, R_NONE); break;
        case PC_PROF: gm_emit(in, GM_OP_ALU, exist, R_P, R_S, R_Q, R_X); break;
        case PC_MAX:  gm_emit(in, GM_OP_ALU, exist, R_P, R_P, R_NONE, R_NONE); break;
        case PC_STS0:
            gm_emit_mem(in, GM_OP_SHARED_ST, exist, R_NONE, R_T, R_P, 16, 0);
            local16(in, call_a, tid0, 0);
            break;
        case PC_BAR0:
        case PC_B_BAR:
        case PC_A_BAR: gm_emit(in, GM_OP_BARRIER, exist, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_B_SETP:
        case PC_A_SETP:
        case PC_E_SETP: gm_emit(in, GM_OP_ALU, exist, R_C, R_T, R_NONE, R_NONE); break;
        case PC_B_BRA:
        case PC_A_BRA:
            gm_emit(in, GM_OP_BRANCH, exist, R_NONE, R_C, R_NONE, R_NONE);
            if (!lanes_below(tid0, g->pc == PC_B_BRA ? j : j - 1, exist)) {
                g->pc = g->pc == PC_B_BRA ? PC_B_BAR : PC_A_BAR;
                continue;
            }
            break;
        case PC_B_LDS0:
        case PC_B_LDS1:
        case PC_A_LDS0:
        case PC_A_LDS1: {
            int b = g->pc == PC_B_LDS0 || g->pc == PC_B_LDS1;
            int second = g->pc == PC_B_LDS1 || g->pc == PC_A_LDS1;
            act = lanes_below(tid0, b ? j : j - 1, exist);
            gm_emit_mem(in, GM_OP_SHARED_LD, act, second ? R_A1 : R_A0, R_T, R_NONE, 16, 0);
            /* the B step reads callA, the A step callB */
            local16(in, b ? call_a : call_b, tid0, (uint32_t)second);
            break;
        }
        case PC_B_MUL:
        case PC_A_MUL:
            act = lanes_below(tid0, g->pc == PC_B_MUL ? j : j - 1, exist);
            gm_emit(in, GM_OP_ALU, act, R_A0, R_A0, R_PUR, R_NONE);
            break;
        case PC_B_FMA:
        case PC_A_FMA:
            act = lanes_below(tid0, g->pc == PC_B_FMA ? j : j - 1, exist);
            gm_emit(in, GM_OP_ALU, act, R_A0, R_A1, R_PDR, R_A0);
            break;
        case PC_B_STS:
        case PC_A_STS: {
            int b = g->pc == PC_B_STS;
            act = lanes_below(tid0, b ? j : j - 1, exist);
            gm_emit_mem(in, GM_OP_SHARED_ST, act, R_NONE, R_T, R_A0, 16, 0);
            local16(in, b ? call_b : call_a, tid0, 0);
            break;
        }
        case PC_J:    gm_emit(in, GM_OP_ALU, exist, R_J, R_NONE, R_NONE, R_NONE); break;
        case PC_LOOP:
            gm_emit(in, GM_OP_BRANCH, exist, R_NONE, R_J, R_NONE, R_NONE);
            g->v[0] -= 2;
            if (g->v[0] > 0) {
                g->pc = PC_B_SETP;
                continue;
            }
            break;
        case PC_E_BRA:
            gm_emit(in, GM_OP_BRANCH, exist, R_NONE, R_C, R_NONE, R_NONE);
            if (g->warp != 0) {   /* tid 0 is lane 0 of warp 0 */
                g->pc = PC_EXIT;
                continue;
            }
            break;
        case PC_E_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, 1u, R_A0, R_T, R_NONE, 16, 0);
            local16(in, call_a, 0, 0);
            break;
        case PC_E_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, 1u, R_NONE, R_B, R_A0, 16, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = l == 0 ? p->output + 16ull * g->cta : 0;
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, exist, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_binomialoption_build_dims(gm_workload *w, uint32_t samples, uint32_t steps,
                                 gm_error *err)
{
    if (!samples || samples % 4 || samples > 65536)
        return gm_fail(err, "binomialoption: numSamples %u must be a multiple of 4 in 4..65536",
                       samples);
    if (steps < 1 || steps > 255)
        return gm_fail(err, "binomialoption: numSteps %u must be in 1..255 (a group of "
                       "numSteps + 1 work-items, at most 256)", steps);
    if (gm_workload_alloc(w, "binomialoption", 1, sizeof(gm_bo_params), err))
        return -1;
    gm_bo_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->samples = samples;
    p->steps = steps;
    p->rand = gm_devmem_alloc(&mem, 16ull * samples);
    p->output = gm_devmem_alloc(&mem, 16ull * samples);
    gm_kernel_set(&w->kernels[0], "binomial_options", gm_dim3_make(samples, 1, 1),
                  gm_dim3_make(steps + 1, 1, 1), p, bo_gen);
    return 0;
}

int gm_binomialoption_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: the sample's 64 options x 254 steps; small 256 x 254;
     * tiny 64 x 62 (63 work-items: 2 warps a group) */
    static const uint32_t samples[] = {64, 256, 64, 256}, steps[] = {62, 254, 254, 254};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "binomialoption: bad size %d", (int)size);
    return gm_binomialoption_build_dims(w, samples[size], steps[size], err);
}
