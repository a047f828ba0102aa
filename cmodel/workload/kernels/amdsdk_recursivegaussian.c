/* AMD APP SDK RecursiveGaussian (samples/opencl/cl/app/RecursiveGaussian:
 * RecursiveGaussian_Kernels.cl and RecursiveGaussian.cpp / .hpp) as an
 * address-stream emulator.
 *
 * RecursiveGaussian_kernel, one work-item per image column x:
 *   if (x >= width) return;
 *   for y = 0 .. height-1:  pos = x + y * width;  xc = input[pos];
 *                           output[pos] = f(xc, previous values);
 *   barrier(CLK_GLOBAL_MEM_FENCE);
 *   for y = height-1 .. 0:  pos = x + y * width;  xc = input[pos];
 *                           output[pos] = output[pos] + g(previous values);
 * transpose_kernel (the MatrixTranspose pattern on uchar4 pixels):
 *   block[ly * 16 + lx] = input[gy * width + gx];  barrier;
 *   output[gy + gx * height] = block[ly * 16 + lx];
 *
 * Host (runCLKernels): buffers created in the order input, output, temp
 * image (uchar4, 4 B a pixel); four launches, each waiting for the last:
 *   1. RG(input -> temp, width, height), global {width, 1}, local {256, 1}
 *   2. transpose(temp -> input, width, height), global {width, height},
 *      local {16, 16} (blockSize: the largest power of two whose square
 *      fits a 256-work-item group)
 *   3. RG(input -> temp, height, width), global {height, 1}
 *   4. transpose(temp -> output, height, width), global {height, width}
 * Width and height must be multiples of GROUP_SIZE (256). The default
 * image (RecursiveGaussian_Input.bmp) is 512 x 512; pixel values never
 * decide an address.
 *
 * RG per warp (32 consecutive columns: one 128 B row segment a load):
 *   ALU x, ALU setp, BRA, ALU zero, H x {ALU pos, LD input, ALU cvt,
 *   ALU filter, ALU pack, ST output, BRA}, BAR, ALU zero, H x {ALU pos,
 *   LD input, ALU filter, LD output, ALU add, ST output, BRA}, EXIT.
 * Transpose per warp: ALU gx, ALU gy, ALU index, LD input, ALU saddr, STS,
 *   BAR, ALU target, LDS, ST output, EXIT.
 * The skeleton between the memory operations is gmsim's; the memory
 * operations and their order are the source's. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/amdsdk_tile.h"

enum { R_X, R_P, R_Z, R_POS, R_XC, R_F, R_YC, R_O, R_OV, R_GX, R_GY, R_IN, R_S, R_T };

enum {   /* RecursiveGaussian_kernel; each loop's instructions repeat per row */
    PC_X = 0, PC_SETP, PC_BRA0, PC_ZERO0,
    PC_F_POS, PC_F_LD, PC_F_CVT, PC_F_FILT, PC_F_PACK, PC_F_ST, PC_F_BRA,
    PC_BAR, PC_ZERO1,
    PC_R_POS, PC_R_LDI, PC_R_FILT, PC_R_LDO, PC_R_ADD, PC_R_ST, PC_R_BRA,
    PC_EXIT, PC_DONE
};

enum {   /* transpose_kernel */
    PT_GX = 0, PT_GY, PT_IN, PT_LD, PT_SADDR, PT_STS, PT_BAR, PT_TGT, PT_LDS, PT_ST,
    PT_EXIT, PT_DONE
};

static int rg_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_rg_launch *L = kern->params;
    const uint32_t all = 0xffffffffu;   /* width is a multiple of 256 */
    uint64_t x0 = (uint64_t)g->cta * GM_RG_GROUP + g->warp * GM_WARP_SIZE;
    int c = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        /* the forward loop counts v[0] = y up, the reverse one down from H-1 */
        uint64_t y = g->pc < PC_BAR ? (uint64_t)g->v[0] : L->height - 1 - (uint64_t)g->v[0];
        switch (g->pc) {
        case PC_X:     gm_emit(in, GM_OP_ALU, all, R_X, R_NONE, R_NONE, R_NONE); break;
        case PC_SETP:  gm_emit(in, GM_OP_ALU, all, R_P, R_X, R_NONE, R_NONE); break;
        case PC_BRA0:  gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_P, R_NONE, R_NONE); break;
        case PC_ZERO0:
        case PC_ZERO1: gm_emit(in, GM_OP_ALU, all, R_Z, R_NONE, R_NONE, R_NONE); break;
        case PC_F_POS:
        case PC_R_POS: gm_emit(in, GM_OP_ALU, all, R_POS, R_X, R_NONE, R_NONE); break;
        case PC_F_LD:
        case PC_R_LDI:
        case PC_R_LDO:
            if (g->pc == PC_R_LDO)
                gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_OV, R_POS, R_NONE, 4, 0);
            else
                gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_XC, R_POS, R_NONE, 4,
                            GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (g->pc == PC_R_LDO ? L->out : L->in) +
                              4 * (x0 + l + y * L->width);
            break;
        case PC_F_CVT:  gm_emit(in, GM_OP_ALU, all, R_F, R_XC, R_NONE, R_NONE); break;
        case PC_F_FILT: gm_emit(in, GM_OP_ALU, all, R_YC, R_F, R_Z, R_NONE); break;
        case PC_F_PACK: gm_emit(in, GM_OP_ALU, all, R_O, R_YC, R_NONE, R_NONE); break;
        case PC_R_FILT: gm_emit(in, GM_OP_ALU, all, R_YC, R_XC, R_Z, R_NONE); break;
        case PC_R_ADD:  gm_emit(in, GM_OP_ALU, all, R_O, R_OV, R_YC, R_NONE); break;
        case PC_F_ST:
        case PC_R_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_POS, R_O, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = L->out + 4 * (x0 + l + y * L->width);
            break;
        case PC_F_BRA:
        case PC_R_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_POS, R_NONE, R_NONE);
            if (++g->v[0] < (int64_t)L->height) {
                g->pc -= g->pc == PC_F_BRA ? PC_F_BRA - PC_F_POS : PC_R_BRA - PC_R_POS;
                continue;
            }
            g->v[0] = 0;
            break;
        case PC_BAR:   gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_EXIT:
            return gm_gen_exit(g, in, all, PC_DONE, c);
        }
        g->pc++;
    }
    return c;
}

static int tr_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_rg_launch *L = kern->params;
    const uint32_t all = 0xffffffffu;
    const uint64_t b = GM_RG_TBLOCK;
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    int c = 0;

    if (g->pc == PT_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        switch (g->pc) {
        case PT_GX:    gm_emit(in, GM_OP_ALU, all, R_GX, R_NONE, R_NONE, R_NONE); break;
        case PT_GY:    gm_emit(in, GM_OP_ALU, all, R_GY, R_NONE, R_NONE, R_NONE); break;
        case PT_IN:    gm_emit(in, GM_OP_ALU, all, R_IN, R_GY, R_GX, R_NONE); break;
        case PT_TGT:   gm_emit(in, GM_OP_ALU, all, R_T, R_GX, R_GY, R_NONE); break;
        case PT_SADDR: gm_emit(in, GM_OP_ALU, all, R_S, R_NONE, R_NONE, R_NONE); break;
        case PT_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_XC, R_IN, R_NONE, 4, GM_INST_READ_ONLY);
            gm_sdk_addr_tile(in, L->in, L->width, bx, by, b, g->warp);
            break;
        case PT_STS:
        case PT_LDS:
            if (g->pc == PT_STS)
                gm_emit_mem(in, GM_OP_SHARED_ST, all, R_NONE, R_S, R_XC, 4, 0);
            else
                gm_emit_mem(in, GM_OP_SHARED_LD, all, R_O, R_S, R_NONE, 4, 0);
            gm_sdk_addr_local_linear(in, g->warp);   /* block[ly * 16 + lx] */
            break;
        case PT_BAR:   gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PT_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_T, R_O, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t t = g->warp * GM_WARP_SIZE + l;
                in->addr[l] = L->out + 4 * ((by * b + t / b) + (bx * b + t % b) * L->height);
            }
            break;
        case PT_EXIT:
            return gm_gen_exit(g, in, all, PT_DONE, c);
        }
        g->pc++;
    }
    return c;
}

int gm_recursivegaussian_build_dims(gm_workload *w, uint32_t width, uint32_t height,
                                    gm_error *err)
{
    if (!width || !height || width % GM_RG_GROUP || height % GM_RG_GROUP || width > 8192 ||
        height > 8192)
        return gm_fail(err,
                       "recursivegaussian: %u x %u must be multiples of 256 in 256..8192",
                       width, height);
    if (gm_workload_alloc(w, "recursivegaussian", 4,
                          sizeof(gm_rg_params) + 4 * sizeof(gm_rg_launch), err))
        return -1;
    gm_rg_params *p = w->priv;
    gm_rg_launch *L = (gm_rg_launch *)(p + 1);
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->width = width;
    p->height = height;
    p->input = gm_devmem_alloc(&mem, 4ull * width * height);
    p->output = gm_devmem_alloc(&mem, 4ull * width * height);
    p->temp = gm_devmem_alloc(&mem, 4ull * width * height);
    L[0] = (gm_rg_launch){width, height, p->input, p->temp};
    L[1] = (gm_rg_launch){width, height, p->temp, p->input};
    L[2] = (gm_rg_launch){height, width, p->input, p->temp};
    L[3] = (gm_rg_launch){height, width, p->temp, p->output};
    for (int i = 0; i < 4; i += 2) {
        gm_kernel_set(&w->kernels[i], "RecursiveGaussian_kernel",
                      gm_dim3_make(L[i].width / GM_RG_GROUP, 1, 1),
                      gm_dim3_make(GM_RG_GROUP, 1, 1), &L[i], rg_gen);
        gm_kernel_set(&w->kernels[i + 1], "transpose_kernel",
                      gm_dim3_make(L[i + 1].width / GM_RG_TBLOCK,
                                   L[i + 1].height / GM_RG_TBLOCK, 1),
                      gm_dim3_make(GM_RG_TBLOCK, GM_RG_TBLOCK, 1), &L[i + 1], tr_gen);
    }
    return 0;
}

int gm_recursivegaussian_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* Square images: tiny 256, small 1024, standard the sample's 512 x 512
     * image. The filter launches have width / 256 workgroups (a work-item
     * per column), so no sane size fills 32 CUs with them (8192 columns
     * would); the transposes do at every size (256 to 4096 workgroups). */
    static const uint32_t side[] = {256, 1024, 512, 1024};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "recursivegaussian: bad size %d", (int)size);
    return gm_recursivegaussian_build_dims(w, side[size], side[size], err);
}
