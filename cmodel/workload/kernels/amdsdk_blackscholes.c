/* AMD APP SDK BlackScholes (samples/opencl/cl/app/BlackScholes:
 * BlackScholes_Kernels.cl, kernel blackScholes, and BlackScholes.cpp /
 * .hpp) as an address-stream emulator.
 *
 *   x = get_global_id(0); y = get_global_id(1);
 *   inRand = randArray[y * width + x];                 (float4)
 *   S, K, T, R, sigma from inRand; d1, d2; K exp(-RT); phi(d1), phi(d2);
 *   call[y * width + x] = ...;                          (float4)
 *   phi(-d1), phi(-d2);
 *   put[y * width + x] = ...;                           (float4)
 *
 * Host: samples (default 256 * 256 * 4) / 4 options rounded to a square
 * whose side is a multiple of GROUP_SIZE (256): width = height = 256 by
 * default and never less; global {width, height}; local 16 x 16 (the
 * host doubles blockSizeX, then blockSizeY, while the group stays within
 * 256 work-items); buffers randBuf, callPriceBuf, putPriceBuf in this
 * order, float4 (16 B) elements. The data never decides an address.
 *
 * A 16 x 16 group is 8 warps; warp w holds rows 2w and 2w+1 of the tile,
 * so each 16 B-wide access covers two 256 B row pieces. The arithmetic is
 * one warp instruction per float4 operation of the source (exp, log, sqrt
 * and divisions on the SFU); that skeleton is gmsim's, the three memory
 * operations and their order are the source's. */
#include "workload/kernels/kernels.h"

#include <stdint.h>

#include "workload/build.h"

enum { R_X, R_Y, R_I, R_IN, R_S, R_K, R_T, R_R, R_SG, R_Q, R_SST, R_D1, R_D2, R_KE, R_P1,
       R_P2, R_U, R_V, R_C };

typedef struct bs_step {
    uint8_t op, dst, s0, s1;
} bs_step;

/* phi(X) of the source: |X|, 1 / (1 + c|X|), exp(-X^2 / 2), the degree-5
 * polynomial in t (5 multiply-adds), the product, the select on X < 0. */
#define PHI(X, OUT)                                                                 \
    {GM_OP_ALU, R_U, X, R_NONE}, {GM_OP_SFU, R_V, R_U, R_NONE},                     \
    {GM_OP_ALU, R_U, X, X}, {GM_OP_SFU, R_U, R_U, R_NONE},                          \
    {GM_OP_ALU, R_C, R_V, R_NONE}, {GM_OP_ALU, R_C, R_C, R_V},                      \
    {GM_OP_ALU, R_C, R_C, R_V}, {GM_OP_ALU, R_C, R_C, R_V},                         \
    {GM_OP_ALU, R_C, R_C, R_V}, {GM_OP_ALU, R_C, R_C, R_U},                         \
    {GM_OP_ALU, OUT, R_C, X}

static const bs_step steps[] = {
    {GM_OP_ALU, R_X, R_NONE, R_NONE}, {GM_OP_ALU, R_Y, R_NONE, R_NONE},
    {GM_OP_ALU, R_I, R_Y, R_X},
    {GM_OP_GLOBAL_LD, R_IN, R_I, R_NONE},                  /* randArray[y * width + x] */
    {GM_OP_ALU, R_S, R_IN, R_NONE}, {GM_OP_ALU, R_K, R_IN, R_NONE},
    {GM_OP_ALU, R_T, R_IN, R_NONE}, {GM_OP_ALU, R_R, R_IN, R_NONE},
    {GM_OP_ALU, R_SG, R_IN, R_NONE},
    {GM_OP_SFU, R_Q, R_T, R_NONE}, {GM_OP_ALU, R_SST, R_SG, R_Q},     /* sigma sqrt(T) */
    {GM_OP_SFU, R_Q, R_S, R_K}, {GM_OP_SFU, R_Q, R_Q, R_NONE},        /* log(S / K) */
    {GM_OP_ALU, R_D1, R_SG, R_R}, {GM_OP_ALU, R_D1, R_D1, R_T},
    {GM_OP_ALU, R_D1, R_D1, R_Q}, {GM_OP_SFU, R_D1, R_D1, R_SST},     /* / sigma sqrt(T) */
    {GM_OP_ALU, R_D2, R_D1, R_SST},
    {GM_OP_ALU, R_Q, R_R, R_T}, {GM_OP_SFU, R_Q, R_Q, R_NONE}, {GM_OP_ALU, R_KE, R_K, R_Q},
    PHI(R_D1, R_P1), PHI(R_D2, R_P2),
    {GM_OP_ALU, R_Q, R_S, R_P1}, {GM_OP_ALU, R_Q, R_Q, R_KE},
    {GM_OP_GLOBAL_ST, R_NONE, R_I, R_Q},                   /* call[y * width + x] */
    {GM_OP_ALU, R_D1, R_D1, R_NONE}, {GM_OP_ALU, R_D2, R_D2, R_NONE},
    PHI(R_D1, R_P1), PHI(R_D2, R_P2),
    {GM_OP_ALU, R_Q, R_KE, R_P2}, {GM_OP_ALU, R_Q, R_Q, R_S},
    {GM_OP_GLOBAL_ST, R_NONE, R_I, R_Q},                   /* put[y * width + x] */
    {GM_OP_EXIT, R_NONE, R_NONE, R_NONE},
};

#define NSTEPS (sizeof steps / sizeof steps[0])

static int bs_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_bs_params *p = kern->params;
    const uint32_t all = 0xffffffffu;
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    int c = 0;

    while (c < max && g->pc < NSTEPS) {
        const bs_step *s = &steps[g->pc];
        gm_inst *in = &out[c++];
        if (s->op == GM_OP_GLOBAL_LD || s->op == GM_OP_GLOBAL_ST) {
            int ld = s->op == GM_OP_GLOBAL_LD;
            /* the first store is call, the second put */
            uint64_t base = ld ? p->rand : g->v[0]++ == 0 ? p->call : p->put;
            gm_emit_mem(in, (gm_op)s->op, all, s->dst, s->s0, s->s1, 16,
                        ld ? GM_INST_READ_ONLY : 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t t = g->warp * GM_WARP_SIZE + l;
                uint64_t x = bx * GM_BS_BLOCK + t % GM_BS_BLOCK;
                uint64_t y = by * GM_BS_BLOCK + t / GM_BS_BLOCK;
                in->addr[l] = base + 16 * (y * p->width + x);
            }
        } else {
            gm_emit(in, (gm_op)s->op, all, s->dst, s->s0, s->s1, R_NONE);
        }
        g->pc++;
        if (s->op == GM_OP_EXIT)
            break;
    }
    return c;
}

int gm_blackscholes_build_dims(gm_workload *w, uint32_t width, gm_error *err)
{
    if (width < 256 || width > 4096 || width % 256)
        return gm_fail(err, "blackscholes: width %u must be a multiple of 256 in 256..4096",
                       width);
    if (gm_workload_alloc(w, "blackscholes", 1, sizeof(gm_bs_params), err))
        return -1;
    gm_bs_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->width = width;
    p->rand = gm_devmem_alloc(&mem, 16ull * width * width);
    p->call = gm_devmem_alloc(&mem, 16ull * width * width);
    p->put = gm_devmem_alloc(&mem, 16ull * width * width);
    gm_kernel_set(&w->kernels[0], "blackScholes",
                  gm_dim3_make(width / GM_BS_BLOCK, width / GM_BS_BLOCK, 1),
                  gm_dim3_make(GM_BS_BLOCK, GM_BS_BLOCK, 1), p, bs_gen);
    return 0;
}

int gm_blackscholes_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* the host never makes a side below 256: tiny and standard are the
     * default 256 x 256 options (256 groups), small 512 x 512 */
    static const uint32_t side[] = {256, 512, 256, 512};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "blackscholes: bad size %d", (int)size);
    return gm_blackscholes_build_dims(w, side[size], err);
}
