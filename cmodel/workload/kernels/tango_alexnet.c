/* Tango AlexNet, conv1 and conv2 (hnts03/gpu_bench_cuda_11.3 Tango/GPU/
 * AlexNet/{an_kernel.cu,alexnet_host.cu}) as address-stream emulators.
 *
 * conv1, executeFirstLayer, launched four times to cover the 55x55 output
 * with 32x32 blocks: (32,32) at offsets (0,0), (32,23) at (0,32), (23,32)
 * at (32,0), (23,23) at (32,32); grid = the 96 output channels:
 *
 *   output = blockIdx.x;  row = threadIdx.x + r_offset;  col = threadIdx.y + c_offset;
 *   colstride = 3*row*4*227;  stride = col*4*3;
 *   for (i = 0; i < 11; i++) for (j = 0; j < 11; j++)
 *       product += in[i*227*3 + j*3     + stride + colstride] * w[i*11 + j           + output*363]
 *                + in[i*227*3 + j*3 + 1 + stride + colstride] * w[i*11 + 121 + j     + output*363]
 *                + in[i*227*3 + j*3 + 2 + stride + colstride] * w[i*11 + 242 + j     + output*363];
 *   product += bias[output];  ReLU;  out[output*55*55 + row*55 + col] = product;
 *
 * No bound check (the four blocks tile the map exactly). The lanes of a
 * warp differ in row first, so input loads are 2724 floats apart (32 lines
 * per warp load) and the output store 55 floats apart; the weights and the
 * bias are broadcasts, identical for every warp of a CTA. All CTAs read the
 * same image. Read-only: image, weights, bias.
 *
 * Per warp (not unrolled): S2R tx, S2R ty, S2R ctaid, IADD row, IADD col,
 * IMAD input base, IMAD weight base, IADD input end, MOV product; 11 x
 * (MOV, MOV, IADD j end; 11 x (LD in, LD w, LD in, LD w, LD in, LD w, FMUL,
 * FFMA, FFMA, FADD, IADD, IADD, ISETP, BRA); IADD, IADD, ISETP, BRA);
 * IMAD, LD bias, FADD, FMNMX, IMAD, ST out; EXIT.
 *
 * conv2 is execute3DconvolutionCuda then execute3Dconvolutiongroup2Cuda
 * (tango_conv.c), block (27,27), grid 128 each, 5x5 kernel, pad 2, 48
 * input features per group.
 *
 * The normalisation and pooling launches between conv1 and conv2 are not
 * modelled; their arrays are allocated in the host code's order, so the
 * layout is the benchmark's. */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define IN_SIDE 227u     /* col_width */
#define OUT_SIDE 55u     /* L1 feature map */
#define K1 11u           /* conv1 kernel */
#define C1_WEIGHTS (K1 * K1 * 3u)   /* L1_KERNEL_SIZE */
#define ROWSTRIDE (3u * 4u * IN_SIDE) /* colstride per row: 3*row*stride_width*col_width */
#define COLSTRIDE 12u    /* stride per col: col*4*3 */

/* conv2: L2_KERNEL_SIZE 5*5*48, output map 27x27 */
#define K2 5u
#define FMAP2 27u

enum {   /* registers */
    R_TX, R_TY, R_CTA, R_ROW, R_COL, R_INB, R_WB, R_PEND, R_ACC,
    R_PIN, R_PW, R_JEND, R_P,
    R_IN0, R_W0, R_IN1, R_W1, R_IN2, R_W2, R_T,
    R_BADDR, R_BIAS, R_OADDR
};

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_CTA, PC_ROW, PC_COL, PC_INB, PC_WB, PC_PEND, PC_ACC0,
    PC_PIN, PC_PW, PC_JEND,
    PC_LD_IN0, PC_LD_W0, PC_LD_IN1, PC_LD_W1, PC_LD_IN2, PC_LD_W2,
    PC_FMUL, PC_FFMA1, PC_FFMA2, PC_FADD, PC_INC_IN, PC_INC_W, PC_JSETP, PC_JBRA,
    PC_INC_INB, PC_INC_WB, PC_ISETP, PC_IBRA,
    PC_BADDR, PC_LD_BIAS, PC_ADD_BIAS, PC_RELU, PC_OADDR, PC_ST_OUT,
    PC_EXIT, PC_DONE
};

static int conv1_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_an_conv1_params *p = kern->params;
    uint64_t off[GM_WARP_SIZE];    /* stride + colstride */
    uint64_t oidx[GM_WARP_SIZE];   /* row*55 + col */
    uint64_t output = g->cta;      /* grid is (channels, 1, 1) */
    uint32_t bdx = kern->block.x;
    uint32_t e = gm_warp_exist_mask(gm_kernel_threads_per_cta(kern), g->warp);
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    uint32_t tid = g->warp * GM_WARP_SIZE, tx = tid % bdx, ty = tid / bdx;
    for (int l = 0; l < GM_WARP_SIZE; l++) {
        uint64_t row = tx + p->r_off, col = ty + p->c_off;
        off[l] = col * COLSTRIDE + row * ROWSTRIDE;
        oidx[l] = row * OUT_SIDE + col;
        if (++tx == bdx) {
            tx = 0;
            ty++;
        }
    }

    while (n < max) {
        gm_inst *in = &out[n++];
        uint64_t i = (uint64_t)g->v[0], j = (uint64_t)g->v[1];
        int pc = (int)g->pc;
        if (pc >= PC_LD_IN0 && pc <= PC_LD_W2) {
            int t = pc - PC_LD_IN0, c = t / 2, is_w = t & 1;
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, (uint8_t)(R_IN0 + t), is_w ? R_PW : R_PIN,
                        R_NONE, 4, GM_INST_READ_ONLY);
            uint64_t wa = p->w + 4 * (i * K1 + j + c * K1 * K1 + output * C1_WEIGHTS);
            uint64_t ia = p->in + 4 * (i * IN_SIDE * 3 + j * 3 + c);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (e >> l & 1) ? (is_w ? wa : ia + 4 * off[l]) : 0;
            g->pc++;
            continue;
        }
        switch (pc) {
        case PC_S2R_TX:  gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_TY:  gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CTA: gm_emit(in, GM_OP_ALU, e, R_CTA, R_NONE, R_NONE, R_NONE); break;
        case PC_ROW:     gm_emit(in, GM_OP_ALU, e, R_ROW, R_TX, R_NONE, R_NONE); break;
        case PC_COL:     gm_emit(in, GM_OP_ALU, e, R_COL, R_TY, R_NONE, R_NONE); break;
        case PC_INB:     gm_emit(in, GM_OP_ALU, e, R_INB, R_ROW, R_COL, R_NONE); break;
        case PC_WB:      gm_emit(in, GM_OP_ALU, e, R_WB, R_CTA, R_NONE, R_NONE); break;
        case PC_PEND:    gm_emit(in, GM_OP_ALU, e, R_PEND, R_INB, R_NONE, R_NONE); break;
        case PC_ACC0:
            gm_emit(in, GM_OP_ALU, e, R_ACC, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_PIN:     gm_emit(in, GM_OP_ALU, e, R_PIN, R_INB, R_NONE, R_NONE); break;
        case PC_PW:      gm_emit(in, GM_OP_ALU, e, R_PW, R_WB, R_NONE, R_NONE); break;
        case PC_JEND:
            gm_emit(in, GM_OP_ALU, e, R_JEND, R_PW, R_NONE, R_NONE);
            g->v[1] = 0;
            break;
        case PC_FMUL:    gm_emit(in, GM_OP_ALU, e, R_T, R_IN0, R_W0, R_NONE); break;
        case PC_FFMA1:   gm_emit(in, GM_OP_ALU, e, R_T, R_IN1, R_W1, R_T); break;
        case PC_FFMA2:   gm_emit(in, GM_OP_ALU, e, R_T, R_IN2, R_W2, R_T); break;
        case PC_FADD:    gm_emit(in, GM_OP_ALU, e, R_ACC, R_ACC, R_T, R_NONE); break;
        case PC_INC_IN:  gm_emit(in, GM_OP_ALU, e, R_PIN, R_PIN, R_NONE, R_NONE); break;
        case PC_INC_W:   gm_emit(in, GM_OP_ALU, e, R_PW, R_PW, R_NONE, R_NONE); break;
        case PC_JSETP:   gm_emit(in, GM_OP_ALU, e, R_P, R_PW, R_JEND, R_NONE); break;
        case PC_JBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = ++g->v[1] < (int64_t)K1 ? PC_LD_IN0 : PC_INC_INB;
            continue;
        case PC_INC_INB: gm_emit(in, GM_OP_ALU, e, R_INB, R_INB, R_NONE, R_NONE); break;
        case PC_INC_WB:  gm_emit(in, GM_OP_ALU, e, R_WB, R_WB, R_NONE, R_NONE); break;
        case PC_ISETP:   gm_emit(in, GM_OP_ALU, e, R_P, R_INB, R_PEND, R_NONE); break;
        case PC_IBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = ++g->v[0] < (int64_t)K1 ? PC_PIN : PC_BADDR;
            continue;
        case PC_BADDR:   gm_emit(in, GM_OP_ALU, e, R_BADDR, R_CTA, R_NONE, R_NONE); break;
        case PC_LD_BIAS:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_BIAS, R_BADDR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (e >> l & 1) ? p->bias + 4 * output : 0;
            break;
        case PC_ADD_BIAS: gm_emit(in, GM_OP_ALU, e, R_ACC, R_ACC, R_BIAS, R_NONE); break;
        case PC_RELU:    gm_emit(in, GM_OP_ALU, e, R_ACC, R_ACC, R_NONE, R_NONE); break;
        case PC_OADDR:   gm_emit(in, GM_OP_ALU, e, R_OADDR, R_ROW, R_COL, R_CTA); break;
        case PC_ST_OUT:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_OADDR, R_ACC, 4, 0);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (e >> l & 1)
                                  ? p->out + 4 * (output * OUT_SIDE * OUT_SIDE + oidx[l]) : 0;
            break;
        case PC_EXIT:
            return gm_gen_exit(g, in, e, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

static void conv2_launch(gm_tconv_params *c, uint32_t group, uint32_t c2, uint32_t f2,
                         const gm_alexnet_params *p)
{
    c->mode = GM_TCONV_ALEXNET;
    c->out_off = group ? c2 : 0;       /* group2: output = blockIdx.x + out */
    c->feat0 = group ? f2 : 0;         /* group2: feature = in_output .. 2*in_output-1 */
    c->nfeat = f2;
    c->fr = FMAP2;
    c->fc = FMAP2;
    c->stride_width = 1;
    c->kernel = K2;
    c->pad = 2;
    c->in_output = f2;
    c->in_fr = FMAP2;
    c->tfactor = 1;
    c->in = p->l2_neurons;
    c->w = p->l2_weights;
    c->bias = p->l2_bias;
    c->out = p->l2_norm;
}

int gm_alexnet_build_dims(gm_workload *w, uint32_t c1, uint32_t c2, uint32_t f2,
                          gm_error *err)
{
    if (!c1 || !c2 || !f2 || c1 > 4096 || c2 > 4096 || f2 > 4096)
        return gm_fail(err, "alexnet: bad channels %u/%u/%u", c1, c2, f2);
    if (gm_workload_alloc(w, "alexnet", 6, sizeof(gm_alexnet_params), err))
        return -1;

    gm_alexnet_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->c1 = c1;
    p->c2 = c2;
    p->f2 = f2;
    /* alexnet_host.cu, NeuralNetwork(), in order; conv2 input has 2*f2
     * channels (both groups), its output 2*c2 */
    p->l1_neurons = gm_devmem_alloc(&mem, 4ull * IN_SIDE * IN_SIDE * 3);
    p->l1_weights = gm_devmem_alloc(&mem, 4ull * C1_WEIGHTS * c1);
    p->l1_bias = gm_devmem_alloc(&mem, 4ull * c1);
    p->l1_norm = gm_devmem_alloc(&mem, 4ull * c1 * OUT_SIDE * OUT_SIDE);
    p->l1_pool = gm_devmem_alloc(&mem, 4ull * c1 * OUT_SIDE * OUT_SIDE);
    p->l2_neurons = gm_devmem_alloc(&mem, 4ull * 2 * f2 * FMAP2 * FMAP2);
    p->l2_weights = gm_devmem_alloc(&mem, 4ull * K2 * K2 * f2 * 2 * c2);
    p->l2_bias = gm_devmem_alloc(&mem, 4ull * 2 * c2);
    p->l2_norm = gm_devmem_alloc(&mem, 4ull * 2 * c2 * FMAP2 * FMAP2);

    static const uint32_t bx[4] = {32, 32, 23, 23}, by[4] = {32, 23, 32, 23};
    static const uint32_t roff[4] = {0, 0, 32, 32}, coff[4] = {0, 32, 0, 32};
    for (int l = 0; l < 4; l++) {
        gm_an_conv1_params *c = &p->conv1[l];
        c->r_off = roff[l];
        c->c_off = coff[l];
        c->in = p->l1_neurons;
        c->w = p->l1_weights;
        c->bias = p->l1_bias;
        c->out = p->l1_norm;
        gm_kernel_set(&w->kernels[l], "executeFirstLayer", gm_dim3_make(c1, 1, 1),
                      gm_dim3_make(bx[l], by[l], 1), c, conv1_gen);
    }
    conv2_launch(&p->conv2[0], 0, c2, f2, p);
    conv2_launch(&p->conv2[1], 1, c2, f2, p);
    gm_kernel_set(&w->kernels[4], "execute3DconvolutionCuda", gm_dim3_make(c2, 1, 1),
                  gm_dim3_make(FMAP2, FMAP2, 1), &p->conv2[0], gm_tconv_gen);
    gm_kernel_set(&w->kernels[5], "execute3Dconvolutiongroup2Cuda", gm_dim3_make(c2, 1, 1),
                  gm_dim3_make(FMAP2, FMAP2, 1), &p->conv2[1], gm_tconv_gen);
    return 0;
}

int gm_alexnet_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* conv1 channels, conv2 channels per group, conv2 features per group */
    static const uint32_t c1[] = {1, 8, 96, 96}, c2[] = {4, 16, 128, 128}, f2[] = {1, 6, 48, 6};

    (void)seed;   /* weights and image change values, not addresses */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "alexnet: bad size %d", (int)size);
    return gm_alexnet_build_dims(w, c1[size], c2[size], f2[size], err);
}
