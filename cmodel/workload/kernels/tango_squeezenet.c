/* Tango SqueezeNet, fire modules 2 and 3 (hnts03/gpu_bench_cuda_11.3
 * Tango/GPU/SqueezeNet/SN.cu) as address-stream emulators. Everything is
 * double precision. Each fire module is three launches, grid 55 CTAs x 55
 * threads (two warps, the second with 23 lanes), x = threadIdx.x,
 * y = blockIdx.x:
 *
 *   Executefire2squeeze1x1:  for (f = 0; f < 16; f++) { F = 0;
 *       for (n = 0; n < 96; n++) F += pool[n*55*55 + x*55 + y] * W[f*96 + n];
 *       if (F < 0) F = 0;  sq[f*55*55 + x*55 + y] = F; }   __syncthreads();
 *   Executefire2expand1x1:   the same with 64 f, 16 n, W[f*16 + n], into fire2_Features
 *   Executefire2expand3x3:   for (f < 64) { F = 0; for (n < 16) { result = 0;
 *       for (i = x-1; i <= x+1; i++) for (j = y-1; j <= y+1; j++)
 *           if (inside the 55x55 map)
 *               result += sq[n*55*55 + i*55 + j] * W[m + f*9*16 + n*9];  (m = (j-y+1) + (i-x+1)*3)
 *       F += result; }  relu;  out[f*55*55 + x*55 + y] = F; }
 *     with out = fire2_Features + 55*55*64 (the concatenation)
 *   fire3: squeeze 128 -> 16 (reads fire2_Features), expand 16 -> 64 + 64.
 *
 * Lanes differ in x, so map loads are 55 doubles (440 B) apart: one line
 * per lane. The weights are broadcasts and identical for all 55 CTAs. The
 * 3x3 window loops have constant trips and are fully unrolled with
 * predicated loads: a tap whose (i, j) is outside the map for every lane
 * (j is warp-uniform) issues only its compare. Read-only: the input map
 * and the weights of each launch.
 *
 * Per warp:
 *   S2R tx, S2R ctaid, IMAD input base, IMAD output pointer, MOV weight
 *   pointer, IADD weight end
 *   per f: MOV, MOV, IADD (n pointers and end), MOV F = 0
 *     1x1, per n: LD in, LD w, DFMA, IADD, IADD, ISETP, BRA
 *     3x3, per n: MOV result = 0; per tap: ISETP inside, [LD in, LD w, DFMA];
 *                 DADD F += result, IADD, IADD, ISETP, BRA
 *     DSETP F < 0, SEL, ST out, IADD out pointer, IADD weight pointer, ISETP, BRA
 *   BAR, EXIT
 * The first layer and the pooling launch are not modelled; their arrays
 * are allocated in the host code's cudaMalloc order. */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define SIDE 55u
#define TAPS 9

enum {   /* registers */
    R_TX, R_CTA, R_INB, R_POUT, R_WF, R_FEND, R_PIN, R_PW, R_NEND,
    R_F, R_RES, R_P, R_PT, R_X, R_W
};

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_CTA, PC_INB, PC_POUT, PC_WF, PC_FEND,
    PC_PIN, PC_PW, PC_NEND, PC_F0,
    /* 1x1 body */
    PC_LD_IN, PC_LD_W, PC_DFMA,
    /* 3x3 body */
    PC_RES0, PC_TAP_SETP, PC_TAP_LD_IN, PC_TAP_LD_W, PC_TAP_DFMA, PC_DADD,
    /* n loop control */
    PC_INC_IN, PC_INC_W, PC_NSETP, PC_NBRA,
    PC_RELU_SETP, PC_RELU_SEL, PC_ST_OUT, PC_INC_OUT, PC_INC_WF, PC_FSETP, PC_FBRA,
    PC_BAR, PC_EXIT, PC_DONE
};

enum { V_F, V_N, V_TAP };

/* Lanes whose (x+di, y+dj) lies inside the map (x = lane + 32*warp). */
static uint32_t tap_mask(uint32_t exist, uint32_t warp, uint32_t y, int tap, uint32_t side)
{
    int di = tap / 3 - 1, dj = tap % 3 - 1;
    int64_t j = (int64_t)y + dj;
    if (j < 0 || j > (int64_t)side - 1)
        return 0;
    uint32_t m = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t i = (int64_t)(warp * GM_WARP_SIZE + l) + di;
        if (i >= 0 && i <= (int64_t)side - 1)
            m |= 1u << l;
    }
    return m & exist;
}

static int fire_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_sn_fire_params *p = kern->params;
    uint64_t s = p->side, s2 = s * s;
    uint64_t y = g->cta;                          /* blockIdx.x */
    uint64_t x0 = (uint64_t)g->warp * GM_WARP_SIZE;   /* x of lane 0 */
    uint32_t e = gm_warp_exist_mask(kern->block.x, g->warp);
    int three = p->kind == GM_SN_3X3;
    int n_out = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (n_out < max) {
        gm_inst *in = &out[n_out++];
        uint64_t f = (uint64_t)g->v[V_F], nn = (uint64_t)g->v[V_N];
        int tap = (int)g->v[V_TAP];
        switch (g->pc) {
        case PC_S2R_TX:  gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CTA: gm_emit(in, GM_OP_ALU, e, R_CTA, R_NONE, R_NONE, R_NONE); break;
        case PC_INB:     gm_emit(in, GM_OP_ALU, e, R_INB, R_TX, R_CTA, R_NONE); break;
        case PC_POUT:    gm_emit(in, GM_OP_ALU, e, R_POUT, R_TX, R_CTA, R_NONE); break;
        case PC_WF:      gm_emit(in, GM_OP_ALU, e, R_WF, R_NONE, R_NONE, R_NONE); break;
        case PC_FEND:
            gm_emit(in, GM_OP_ALU, e, R_FEND, R_WF, R_NONE, R_NONE);
            g->v[V_F] = 0;
            break;
        case PC_PIN:     gm_emit(in, GM_OP_ALU, e, R_PIN, R_INB, R_NONE, R_NONE); break;
        case PC_PW:      gm_emit(in, GM_OP_ALU, e, R_PW, R_WF, R_NONE, R_NONE); break;
        case PC_NEND:    gm_emit(in, GM_OP_ALU, e, R_NEND, R_PW, R_NONE, R_NONE); break;
        case PC_F0:
            gm_emit(in, GM_OP_ALU, e, R_F, R_NONE, R_NONE, R_NONE);
            g->v[V_N] = 0;
            g->pc = three ? PC_RES0 : PC_LD_IN;
            continue;
        case PC_LD_IN:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_X, R_PIN, R_NONE, 8, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (e >> l & 1)
                                  ? p->in + 8 * (nn * s2 + (x0 + (uint64_t)l) * s + y) : 0;
            break;
        case PC_LD_W:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_W, R_PW, R_NONE, 8, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (e >> l & 1) ? p->w + 8 * (f * p->nn + nn) : 0;
            break;
        case PC_DFMA:
            gm_emit(in, GM_OP_DP, e, R_F, R_X, R_W, R_F);
            g->pc = PC_INC_IN;
            continue;
        case PC_RES0:
            gm_emit(in, GM_OP_ALU, e, R_RES, R_NONE, R_NONE, R_NONE);
            g->v[V_TAP] = 0;
            break;
        case PC_TAP_SETP:
            gm_emit(in, GM_OP_ALU, e, R_PT, R_TX, R_CTA, R_NONE);
            if (tap_mask(e, g->warp, (uint32_t)y, tap, p->side)) {
                g->pc = PC_TAP_LD_IN;
            } else {   /* no lane inside: only the compare, then the next tap */
                g->v[V_TAP] = ++tap;
                g->pc = tap < TAPS ? PC_TAP_SETP : PC_DADD;
            }
            continue;
        case PC_TAP_LD_IN:
        case PC_TAP_LD_W: {
            uint32_t tm = tap_mask(e, g->warp, (uint32_t)y, tap, p->side);
            int di = tap / 3 - 1, dj = tap % 3 - 1;
            int is_in = g->pc == PC_TAP_LD_IN;
            gm_emit_mem(in, GM_OP_GLOBAL_LD, tm, is_in ? R_X : R_W, is_in ? R_PIN : R_PW,
                        R_PT, 8, GM_INST_READ_ONLY);
            /* m = (j-y+1) + (i-x+1)*3 = tap; weight W[m + f*9*nn + n*9] */
            uint64_t wa = p->w + 8 * ((uint64_t)tap + f * 9 * p->nn + nn * 9);
            for (int l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t i = x0 + (uint64_t)l + (uint64_t)(int64_t)di;
                uint64_t j = y + (uint64_t)(int64_t)dj;
                in->addr[l] = (tm >> l & 1) ? (is_in ? p->in + 8 * (nn * s2 + i * s + j) : wa)
                                            : 0;
            }
            break;
        }
        case PC_TAP_DFMA:
            gm_emit(in, GM_OP_DP, tap_mask(e, g->warp, (uint32_t)y, tap, p->side), R_RES, R_X,
                    R_W, R_RES);
            g->v[V_TAP] = ++tap;
            g->pc = tap < TAPS ? PC_TAP_SETP : PC_DADD;
            continue;
        case PC_DADD:    gm_emit(in, GM_OP_DP, e, R_F, R_F, R_RES, R_NONE); break;
        case PC_INC_IN:  gm_emit(in, GM_OP_ALU, e, R_PIN, R_PIN, R_NONE, R_NONE); break;
        case PC_INC_W:   gm_emit(in, GM_OP_ALU, e, R_PW, R_PW, R_NONE, R_NONE); break;
        case PC_NSETP:   gm_emit(in, GM_OP_ALU, e, R_P, R_PW, R_NEND, R_NONE); break;
        case PC_NBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_N] = (int64_t)++nn;
            g->pc = nn < p->nn ? (three ? PC_RES0 : PC_LD_IN) : PC_RELU_SETP;
            continue;
        case PC_RELU_SETP: gm_emit(in, GM_OP_DP, e, R_P, R_F, R_NONE, R_NONE); break;
        case PC_RELU_SEL:  gm_emit(in, GM_OP_ALU, e, R_F, R_F, R_P, R_NONE); break;
        case PC_ST_OUT:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_POUT, R_F, 8, 0);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (e >> l & 1)
                                  ? p->out + 8 * (f * s2 + (x0 + (uint64_t)l) * s + y) : 0;
            break;
        case PC_INC_OUT: gm_emit(in, GM_OP_ALU, e, R_POUT, R_POUT, R_NONE, R_NONE); break;
        case PC_INC_WF:  gm_emit(in, GM_OP_ALU, e, R_WF, R_WF, R_NONE, R_NONE); break;
        case PC_FSETP:   gm_emit(in, GM_OP_ALU, e, R_P, R_WF, R_FEND, R_NONE); break;
        case PC_FBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[V_F] = (int64_t)++f;
            g->pc = f < p->nf ? PC_PIN : PC_BAR;
            continue;
        case PC_BAR:     gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_EXIT:
            return gm_gen_exit(g, in, e, PC_DONE, n_out);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n_out);
        }
        g->pc++;
    }
    return n_out;
}

static void fire_launch(gm_kernel *k, gm_sn_fire_params *c, const char *name,
                        uint32_t kind, uint32_t nf, uint32_t nn, uint64_t in, uint64_t w,
                        uint64_t out)
{
    c->kind = kind;
    c->side = SIDE;
    c->nf = nf;
    c->nn = nn;
    c->in = in;
    c->w = w;
    c->out = out;
    gm_kernel_set(k, name, gm_dim3_make(SIDE, 1, 1), gm_dim3_make(SIDE, 1, 1), c, fire_gen);
}

int gm_squeezenet_build_dims(gm_workload *w, uint32_t div, gm_error *err)
{
    if (div == 0 || div > 16 || 16 % div)
        return gm_fail(err, "squeezenet: channel divisor %u does not divide 16", div);
    if (gm_workload_alloc(w, "squeezenet", 6, sizeof(gm_squeezenet_params), err))
        return -1;

    gm_squeezenet_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t map = (uint64_t)SIDE * SIDE;
    uint32_t c1 = 96 / div, s = 16 / div, e = 64 / div;
    p->div = div;
    p->c_conv1 = c1;
    p->s = s;
    p->e = e;
    /* NeuralNetwork(), NUM = 1: conv1 output (111*111*96), conv1 weights
     * (14112 = 3*96*49), the R, G, B planes (227*227 int), pool output
     * (290400 = 96*55*55), then per fire module squeeze output, squeeze
     * weights, module output (both expand halves), expand1x1 weights,
     * expand3x3 weights */
    p->l1_features = gm_devmem_alloc(&mem, 8ull * 111 * 111 * c1);
    p->l1_weights = gm_devmem_alloc(&mem, 8ull * 3 * 49 * c1);
    p->data_r = gm_devmem_alloc(&mem, 4ull * 227 * 227);
    p->data_g = gm_devmem_alloc(&mem, 4ull * 227 * 227);
    p->data_b = gm_devmem_alloc(&mem, 4ull * 227 * 227);
    p->pool = gm_devmem_alloc(&mem, 8ull * c1 * map);
    p->f2_sq_feat = gm_devmem_alloc(&mem, 8ull * s * map);
    p->f2_sq_w = gm_devmem_alloc(&mem, 8ull * s * c1);
    p->f2_feat = gm_devmem_alloc(&mem, 8ull * 2 * e * map);
    p->f2_e1_w = gm_devmem_alloc(&mem, 8ull * e * s);
    p->f2_e3_w = gm_devmem_alloc(&mem, 8ull * e * 9 * s);
    p->f3_sq_feat = gm_devmem_alloc(&mem, 8ull * s * map);
    p->f3_sq_w = gm_devmem_alloc(&mem, 8ull * s * 2 * e);
    p->f3_feat = gm_devmem_alloc(&mem, 8ull * 2 * e * map);
    p->f3_e1_w = gm_devmem_alloc(&mem, 8ull * e * s);
    p->f3_e3_w = gm_devmem_alloc(&mem, 8ull * e * 9 * s);

    fire_launch(&w->kernels[0], &p->k[0], "Executefire2squeeze1x1", GM_SN_1X1, s, c1,
                p->pool, p->f2_sq_w, p->f2_sq_feat);
    fire_launch(&w->kernels[1], &p->k[1], "Executefire2expand1x1", GM_SN_1X1, e, s,
                p->f2_sq_feat, p->f2_e1_w, p->f2_feat);
    fire_launch(&w->kernels[2], &p->k[2], "Executefire2expand3x3", GM_SN_3X3, e, s,
                p->f2_sq_feat, p->f2_e3_w, p->f2_feat + 8 * map * e);
    fire_launch(&w->kernels[3], &p->k[3], "Executefire3squeeze1x1", GM_SN_1X1, s, 2 * e,
                p->f2_feat, p->f3_sq_w, p->f3_sq_feat);
    fire_launch(&w->kernels[4], &p->k[4], "Executefire3expand1x1", GM_SN_1X1, e, s,
                p->f3_sq_feat, p->f3_e1_w, p->f3_feat);
    fire_launch(&w->kernels[5], &p->k[5], "Executefire3expand3x3", GM_SN_3X3, e, s,
                p->f3_sq_feat, p->f3_e3_w, p->f3_feat + 8 * map * e);
    return 0;
}

int gm_squeezenet_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t div[] = {16, 4, 1, 4};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "squeezenet: bad size %d", (int)size);
    return gm_squeezenet_build_dims(w, div[size], err);
}
