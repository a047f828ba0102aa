/* AMD APP SDK DCT (samples/opencl/cl/app/DCT: DCT_Kernels.cl, kernel DCT,
 * and DCT.cpp / DCT.hpp) as an address-stream emulator.
 *
 *   i = lx, j = ly (8 x 8 workgroup), gx, gy its group ids;
 *   for k < 8: acc += dct8x8[k * 8 + i] * input[(gy * 8 + k) * width + gx * 8 + j];
 *   inter[j * 8 + i] = acc;  barrier(CLK_LOCAL_MEM_FENCE);
 *   for k < 8: acc += inter[i * 8 + k] * dct8x8[k * 8 + j];
 *   output[(gy * 8 + j) * width + gx * 8 + i] = acc;
 *
 * (the forward transform: the host passes inverse = 0; getIdx(gx, gy, j,
 * k, 8, width) is the first loop's input index, so a work-item walks
 * column j of its block.) Host: width = height = 64, blockWidth 8,
 * global {width, height}, local {8, 8}, one launch; buffers created in the
 * order input, output, dct8x8 (64 floats).
 *
 * A 64-work-item workgroup is 2 warps: warp w holds local rows j = 4w ..
 * 4w+3. Per warp: ALU gx-index, ALU gy-index, ALU idx, ALU acc = 0, then
 * 8 x {ALU, LD dct8x8, ALU, LD input, FMA, BRA}, ALU inter address, STS,
 * BAR, 8 x {ALU, LDS inter, ALU, LD dct8x8, FMA, BRA}, ST output, EXIT.
 * The skeleton between the memory operations is gmsim's (the sample's
 * GCN code was not available); the memory operations and their order are
 * the source's. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/amdsdk_tile.h"

enum { R_GX, R_GY, R_IDX, R_ACC, R_A1, R_C, R_A2, R_X, R_S };

enum {   /* program points; the two loops repeat their six for k = 0..7 */
    PC_GX = 0, PC_GY, PC_IDX, PC_ACC0,
    PC_L1_A1, PC_L1_LDC, PC_L1_A2, PC_L1_LDX, PC_L1_FMA, PC_L1_BRA,
    PC_SADDR, PC_STS, PC_BAR, PC_ACC1,
    PC_L2_A1, PC_L2_LDS, PC_L2_A2, PC_L2_LDC, PC_L2_FMA, PC_L2_BRA,
    PC_ST, PC_EXIT, PC_DONE
};

static int dct_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_dct_params *p = kern->params;
    const uint32_t all = 0xffffffffu;   /* 64 work-items: both warps full */
    const uint64_t b = GM_DCT_BLOCK;
    uint64_t gx = g->cta % kern->grid.x, gy = g->cta / kern->grid.x;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        uint64_t k = (uint64_t)g->v[0];
        switch (g->pc) {
        case PC_GX:   gm_emit(in, GM_OP_ALU, all, R_GX, R_NONE, R_NONE, R_NONE); break;
        case PC_GY:   gm_emit(in, GM_OP_ALU, all, R_GY, R_NONE, R_NONE, R_NONE); break;
        case PC_IDX:  gm_emit(in, GM_OP_ALU, all, R_IDX, R_GY, R_GX, R_NONE); break;
        case PC_ACC0:
        case PC_ACC1: gm_emit(in, GM_OP_ALU, all, R_ACC, R_NONE, R_NONE, R_NONE); break;
        case PC_L1_A1:
        case PC_L2_A2: gm_emit(in, GM_OP_ALU, all, R_A1, R_NONE, R_NONE, R_NONE); break;
        case PC_L1_A2:
        case PC_L2_A1: gm_emit(in, GM_OP_ALU, all, R_A2, R_GX, R_GY, R_NONE); break;
        case PC_L1_LDC:
        case PC_L2_LDC:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_C, R_A1, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t t = g->warp * GM_WARP_SIZE + l;
                /* dct8x8[k * 8 + i] in the first loop, [k * 8 + j] in the second */
                uint64_t col = g->pc == PC_L1_LDC ? t % b : t / b;
                in->addr[l] = p->dct + 4 * (k * b + col);
            }
            break;
        case PC_L1_LDX:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_X, R_A2, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t j = (g->warp * GM_WARP_SIZE + l) / b;
                in->addr[l] = p->input + 4 * ((gy * b + k) * p->width + gx * b + j);
            }
            break;
        case PC_L2_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, all, R_X, R_A2, R_NONE, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t i = (g->warp * GM_WARP_SIZE + l) % b;
                in->addr[l] = 4 * (i * b + k);
            }
            break;
        case PC_L1_FMA:
        case PC_L2_FMA: gm_emit(in, GM_OP_ALU, all, R_ACC, R_C, R_X, R_ACC); break;
        case PC_L1_BRA:
        case PC_L2_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_NONE, R_NONE, R_NONE);
            if (++g->v[0] < (int64_t)b) {
                g->pc -= 5;   /* back to the loop's first instruction */
                continue;
            }
            g->v[0] = 0;
            break;
        case PC_SADDR: gm_emit(in, GM_OP_ALU, all, R_S, R_NONE, R_NONE, R_NONE); break;
        case PC_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_S, R_ACC, 4, 0);
            gm_sdk_addr_local_linear(in, g->warp);   /* inter[j * 8 + i] */
            break;
        case PC_BAR:  gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_IDX, R_ACC, 4, 0);
            gm_sdk_addr_tile(in, p->output, p->width, gx, gy, b, g->warp);
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, all, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_dct_build_dims(gm_workload *w, uint32_t width, uint32_t height, gm_error *err)
{
    if (!width || !height || width % GM_DCT_BLOCK || height % GM_DCT_BLOCK || width > 16384 ||
        height > 16384)
        return gm_fail(err, "dct: %u x %u must be multiples of 8 in 8..16384", width, height);
    if (gm_workload_alloc(w, "dct", 1, sizeof(gm_dct_params), err))
        return -1;
    gm_dct_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->width = width;
    p->height = height;
    p->input = gm_devmem_alloc(&mem, 4ull * width * height);
    p->output = gm_devmem_alloc(&mem, 4ull * width * height);
    p->dct = gm_devmem_alloc(&mem, 4ull * GM_DCT_BLOCK * GM_DCT_BLOCK);
    gm_kernel_set(&w->kernels[0], "DCT",
                  gm_dim3_make(width / GM_DCT_BLOCK, height / GM_DCT_BLOCK, 1),
                  gm_dim3_make(GM_DCT_BLOCK, GM_DCT_BLOCK, 1), p, dct_gen);
    return 0;
}

int gm_dct_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny and standard: the sample's default 64 x 64 (64 workgroups, two
     * per CU of the seed's 32); small: 256 x 256 (1024 workgroups) */
    static const uint32_t side[] = {64, 256, 64, 256};
    (void)seed;   /* the input values never decide an address */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "dct: bad size %d", (int)size);
    return gm_dct_build_dims(w, side[size], side[size], err);
}
