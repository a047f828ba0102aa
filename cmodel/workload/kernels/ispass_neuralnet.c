/* GPGPU-Sim's ISPASS-2009 NN benchmark (the SelRep seed's "Neural Network
 * [11]": a LeNet-style handwritten digit classifier, NN.cu and
 * NN_kernel.cu) as an address-stream emulator. Four launches over NUM
 * images (blockIdx.y = image):
 *
 *   layer  grid       block    per thread
 *   1      (6, NUM)   13 x 13  bias W1[26b]; 25 x N1[2py*29 + 2px + T1[i] + 841y] * W1[26b+1+i]
 *   2      (50, NUM)  5 x 5    bias W2[156b]; for i < 25, c < 6:
 *                              N2[c*169 + 2px + 26py + T2[i] + 1014y] * W2[156b+1+6i+c]
 *   3      (100, NUM) 1        bias W3[1251b]; 1250 x N3[i + 1250y] * W3[1251b+1+i]
 *   4      (10, NUM)  1        bias W4[101b];  100 x N4[i + 100y] * W4[101b+1+i]
 *
 * then tanh and one store: N2[169b + 13py + px + 1014y], N3[25b + 5py + px
 * + 1250y], N4[b + 100y], N5[b + 10y]. T1[i] = 29(i/5) + i%5 and T2[i] =
 * 13(i/5) + i%5 are the __constant__ kernel templates: with the loops
 * fully unrolled their values are constant-bank operands of the address
 * arithmetic, not loads (**choice**). No kernel stores to what it reads,
 * so every load is read-only (GM_INST_READ_ONLY).
 *
 * Instructions per warp: 4 set-up ALU, the bias load, then per product LD
 * neuron, LD weight, FFMA (layers 1 and 2 unrolled; layers 3 and 4 keep
 * their 1250- and 100-trip loops, with IADD, ISETP, BRA per trip), 4 for
 * tanh (FMUL, SFU, 2 ALU), the store address, ST and EXIT. */
#include "workload/kernels/kernels_selrep.h"

#include <stdbool.h>
#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

enum { R_TID = 0, R_BID, R_IMG, R_NI, R_WI, R_ACC, R_N, R_W, R_T, R_P, R_OI };

enum {   /* program points, in issue order */
    PC_S2R_T = 0, PC_S2R_B, PC_S2R_Y, PC_IDX, PC_LD_BIAS,
    PC_LD_N, PC_LD_W, PC_FFMA, PC_INC, PC_SETP, PC_BRA,
    PC_TANH0, PC_TANH1, PC_TANH2, PC_TANH3, PC_OIDX, PC_ST, PC_EXIT, PC_DONE
};

/* Shape of each layer's launch. */
static const struct {
    uint32_t gx, bx, by;   /* grid.x, block */
    uint32_t products;     /* multiply-adds per thread */
    uint32_t wstride;      /* weights per CTA (bias first) */
    bool rolled;           /* the loop stays a loop */
} shape[4] = {
    {6, 13, 13, 25, 26, false},
    {50, 5, 5, 150, 156, false},
    {100, 1, 1, 1250, 1251, true},
    {10, 1, 1, 100, 101, true},
};

/* Element index of the neuron read by thread (px, py) of CTA column b, image
 * y, in product j. */
static uint64_t neuron_index(uint32_t layer, uint32_t px, uint32_t py, uint64_t y, uint32_t j)
{
    switch (layer) {
    case 0: return 2 * py * 29 + 2 * px + 29 * (j / 5) + j % 5 + 841 * y;
    case 1: {
        uint32_t i = j / 6, c = j % 6;
        return c * 169 + 2 * px + 13 * 2 * py + 13 * (i / 5) + i % 5 + 1014 * y;
    }
    case 2: return j + 1250 * y;
    default: return j + 100 * y;
    }
}

static uint64_t out_index(uint32_t layer, uint32_t b, uint32_t px, uint32_t py, uint64_t y)
{
    switch (layer) {
    case 0: return 169 * b + 13 * py + px + 1014 * y;
    case 1: return 25 * b + 5 * py + px + 1250 * y;
    case 2: return b + 100 * y;
    default: return b + 10 * y;
    }
}

/* Fills addr[] for the active lanes; what: 0 bias, 1 neuron, 2 weight, 3 store. */
static void nn_addr(gm_inst *in, const gm_nn_layer *L, const gm_warp_gen *g, int what,
                    uint32_t j)
{
    uint32_t s = L->index, b = g->cta % shape[s].gx;
    uint64_t y = g->cta / shape[s].gx;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1)) {
            in->addr[l] = 0;
            continue;
        }
        uint32_t t = g->warp * GM_WARP_SIZE + l;
        uint32_t px = t % shape[s].bx, py = t / shape[s].bx;
        uint64_t wb = (uint64_t)b * shape[s].wstride;
        if (what == 0)
            in->addr[l] = L->weights + 4 * wb;
        else if (what == 1)
            in->addr[l] = L->in + 4 * neuron_index(s, px, py, y, j);
        else if (what == 2)
            in->addr[l] = L->weights + 4 * (wb + 1 + j);
        else
            in->addr[l] = L->out + 4 * out_index(s, b, px, py, y);
    }
}

static int nn_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_nn_layer *L = kern->params;
    uint32_t s = L->index;
    uint32_t e = gm_warp_exist_mask(shape[s].bx * shape[s].by, g->warp);
    const uint8_t ro = GM_INST_READ_ONLY;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t j = (uint32_t)g->v[0];
        switch (g->pc) {
        case PC_S2R_T: gm_emit(in, GM_OP_ALU, e, R_TID, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_B: gm_emit(in, GM_OP_ALU, e, R_BID, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_Y: gm_emit(in, GM_OP_ALU, e, R_IMG, R_NONE, R_NONE, R_NONE); break;
        case PC_IDX:   gm_emit(in, GM_OP_ALU, e, R_NI, R_TID, R_BID, R_IMG); break;
        case PC_LD_BIAS:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_ACC, R_BID, R_NONE, 4, ro);
            nn_addr(in, L, g, 0, 0);
            g->v[0] = 0;
            break;
        case PC_LD_N:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_N, R_NI, R_NONE, 4, ro);
            nn_addr(in, L, g, 1, j);
            break;
        case PC_LD_W:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_W, R_BID, R_NONE, 4, ro);
            nn_addr(in, L, g, 2, j);
            break;
        case PC_FFMA:
            gm_emit(in, GM_OP_ALU, e, R_ACC, R_N, R_W, R_ACC);
            if (!shape[s].rolled) {
                g->pc = ++g->v[0] < shape[s].products ? PC_LD_N : PC_TANH0;
                continue;
            }
            break;
        case PC_INC:   gm_emit(in, GM_OP_ALU, e, R_NI, R_NI, R_NONE, R_NONE); break;
        case PC_SETP:  gm_emit(in, GM_OP_ALU, e, R_P, R_NI, R_NONE, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = ++g->v[0] < shape[s].products ? PC_LD_N : PC_TANH0;
            continue;
        case PC_TANH0: gm_emit(in, GM_OP_ALU, e, R_T, R_ACC, R_NONE, R_NONE); break;
        case PC_TANH1: gm_emit(in, GM_OP_SFU, e, R_T, R_T, R_NONE, R_NONE); break;
        case PC_TANH2: gm_emit(in, GM_OP_ALU, e, R_T, R_T, R_NONE, R_NONE); break;
        case PC_TANH3: gm_emit(in, GM_OP_ALU, e, R_ACC, R_T, R_NONE, R_NONE); break;
        case PC_OIDX:  gm_emit(in, GM_OP_ALU, e, R_OI, R_TID, R_BID, R_IMG); break;
        case PC_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_OI, R_ACC, 4, 0);
            nn_addr(in, L, g, 3, 0);
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

/* Floats per image of each neuron array and of each weight array (NN.cu's
 * cudaMalloc sizes). */
static const uint32_t neurons_per_image[5] = {29 * 29, 13 * 13 * 6, 1250, 100, 10};
static const uint32_t weight_floats[4] = {156, 7800, 125100, 1010};

int gm_neuralnet_build_num(gm_workload *w, uint32_t num, gm_error *err)
{
    /* 29*29*NUM is an int in the host code */
    if (!num || (uint64_t)29 * 29 * num > INT32_MAX)
        return gm_fail(err, "neuralnet: bad number of images %u", num);
    if (gm_workload_alloc(w, "neuralnet", 4, sizeof(gm_neuralnet_params), err))
        return -1;
    gm_neuralnet_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->num = num;
    for (int i = 0; i < 5; i++) {
        p->neurons[i] = gm_devmem_alloc(&mem, 4ull * neurons_per_image[i] * num);
        if (i < 4)
            p->weights[i] = gm_devmem_alloc(&mem, 4ull * weight_floats[i]);
    }
    static const char *const names[4] = {"executeFirstLayer", "executeSecondLayer",
                                         "executeThirdLayer", "executeFourthLayer"};
    for (uint32_t i = 0; i < 4; i++) {
        p->layer[i] = (gm_nn_layer){.index = i, .in = p->neurons[i],
                                    .weights = p->weights[i], .out = p->neurons[i + 1]};
        gm_kernel_set(&w->kernels[i], names[i], gm_dim3_make(shape[i].gx, num, 1),
                      gm_dim3_make(shape[i].bx, shape[i].by, 1), &p->layer[i], nn_gen);
    }
    return 0;
}

/* The seed's five NN configurations (Table II: shared data 0.6, 2.8, 5.7,
 * 11.4 and 22.8 MB), read as the weights (536 264 B) plus every layer's
 * input neurons (12 820 B per image): NUM = 5, 177, 403, 847, 1737 at size
 * standard. Small (and fill) divide NUM by 64 and tiny by 512 (at least 1 image):
 * layer 3 alone is 100 one-thread CTAs x 1250 products per image. */
static const uint32_t nn_num[GM_SELREP_CONFIGS] = {5, 177, 403, 847, 1737};

int gm_neuralnet_build_config(gm_workload *w, uint32_t config, gm_size size, gm_error *err)
{
    static const uint32_t divide[GM_SIZE_COUNT] = {512, 64, 1, 64};   /* tiny .. fill */
    if (config >= GM_SELREP_CONFIGS || (unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "neuralnet: bad configuration %u or size %d", config, (int)size);
    uint32_t num = nn_num[config] / divide[size];
    return gm_neuralnet_build_num(w, num ? num : 1, err);
}
