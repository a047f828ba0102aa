/* AMD APP SDK MatrixTranspose (samples/opencl/cl/app/MatrixTranspose,
 * MatrixTranspose_Kernels.cl: the blocked kernel with one element per
 * work-item) as an address-stream emulator.
 *
 *   block[ly * blockSize + lx] = input[gy * width + gx];
 *   barrier(CLK_LOCAL_MEM_FENCE);
 *   tx = groupIdy * blockSize + ly;  ty = groupIdx * blockSize + lx;
 *   output[ty * height + tx] = block[ly * blockSize + lx];
 *
 * (gx, gy global ids, lx, ly local ids, blockSize 16; the work-item reads
 * back its own element: the transpose is in the output index.) Host:
 * global {width, height}, local {16, 16}, one launch; input then output
 * allocated. A warp holds rows 2w and 2w+1 of the tile: its load is two
 * 64 B half lines (the other halves belong to the workgroup with the next
 * id), its store 16 lines of two consecutive floats each.
 *
 * Per warp: ALU gx, ALU gy, ALU in index, LD input, ALU saddr, STS, BAR,
 * ALU tx, ALU ty, ALU out index, LDS, ST output, EXIT. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/amdsdk_tile.h"

enum { R_GX, R_GY, R_IN, R_V, R_S, R_TX, R_TY, R_OUT, R_O };

enum {
    PC_GX = 0, PC_GY, PC_IN, PC_LD, PC_SADDR, PC_STS, PC_BAR, PC_TX, PC_TY, PC_OUT,
    PC_LDS, PC_ST, PC_EXIT, PC_DONE
};

static int mt_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_mt_params *p = kern->params;
    const uint32_t all = 0xffffffffu;
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        switch (g->pc) {
        case PC_GX:    gm_emit(in, GM_OP_ALU, all, R_GX, R_NONE, R_NONE, R_NONE); break;
        case PC_GY:    gm_emit(in, GM_OP_ALU, all, R_GY, R_NONE, R_NONE, R_NONE); break;
        case PC_IN:    gm_emit(in, GM_OP_ALU, all, R_IN, R_GY, R_GX, R_NONE); break;
        case PC_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_V, R_IN, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t t = g->warp * GM_WARP_SIZE + l, lx = t % GM_MT_BLOCK,
                         ly = t / GM_MT_BLOCK;
                in->addr[l] = p->input + 4 * ((by * GM_MT_BLOCK + ly) * p->width +
                                              bx * GM_MT_BLOCK + lx);
            }
            break;
        case PC_SADDR: gm_emit(in, GM_OP_ALU, all, R_S, R_NONE, R_NONE, R_NONE); break;
        case PC_STS:
        case PC_LDS:
            if (g->pc == PC_STS)
                gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_S, R_V, 4, 0);
            else
                gm_emit_mem(in, GM_OP_SHARED_LD, all, R_O, R_S, R_NONE, 4, 0);
            gm_sdk_addr_local_linear(in, g->warp);
            break;
        case PC_BAR:   gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_TX:    gm_emit(in, GM_OP_ALU, all, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_TY:    gm_emit(in, GM_OP_ALU, all, R_TY, R_NONE, R_NONE, R_NONE); break;
        case PC_OUT:   gm_emit(in, GM_OP_ALU, all, R_OUT, R_TY, R_TX, R_NONE); break;
        case PC_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_OUT, R_O, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t t = g->warp * GM_WARP_SIZE + l, lx = t % GM_MT_BLOCK,
                         ly = t / GM_MT_BLOCK;
                in->addr[l] = p->output + 4 * ((bx * GM_MT_BLOCK + lx) * p->height +
                                               by * GM_MT_BLOCK + ly);
            }
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, all, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_matrixtranspose_build_dims(gm_workload *w, uint32_t width, uint32_t height,
                                  gm_error *err)
{
    if (!width || !height || width % GM_MT_BLOCK || height % GM_MT_BLOCK || width > 16384 ||
        height > 16384)
        return gm_fail(err, "matrixtranspose: %u x %u must be multiples of 16 up to 16384",
                       width, height);
    if (gm_workload_alloc(w, "matrixtranspose", 1, sizeof(gm_mt_params), err))
        return -1;
    gm_mt_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->width = width;
    p->height = height;
    p->input = gm_devmem_alloc(&mem, 4ull * width * height);
    p->output = gm_devmem_alloc(&mem, 4ull * width * height);
    gm_kernel_set(&w->kernels[0], "matrixTranspose",
                  gm_dim3_make(width / GM_MT_BLOCK, height / GM_MT_BLOCK, 1),
                  gm_dim3_make(GM_MT_BLOCK, GM_MT_BLOCK, 1), p, mt_gen);
    return 0;
}

int gm_matrixtranspose_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* square matrices; tiny 256 (256 workgroups), small 1024, standard 2048 */
    static const uint32_t side[] = {256, 1024, 2048, 1024};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "matrixtranspose: bad size %d", (int)size);
    return gm_matrixtranspose_build_dims(w, side[size], side[size], err);
}
