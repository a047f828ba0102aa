/* Rodinia 3.1 particlefilter, float version
 * (cuda/particlefilter/ex_particle_CUDA_float_seq.cu; despite the name its
 * arrays are doubles) as an address-stream emulator.
 *
 * Host (particleFilter): threads_per_block 512, num_blocks =
 * ceil(Np / 512); cudaMalloc arrayX, arrayY, xj, yj, CDF, u, likelihood,
 * weights (Np doubles each), I (IszX*IszY*Nfr bytes), objxy (2*countOnes
 * ints), ind (countOnes*Np ints), seed (Np ints), partial_sums (Np
 * doubles). For k = 1 .. Nfr-1: likelihood_kernel, sum_kernel,
 * normalize_weights_kernel, find_index_kernel, all <<<num_blocks, 512>>>.
 * countOnes is 69 (the radius-5 disk of strelDisk: dx^2 + dy^2 < 25).
 *
 * likelihood_kernel (i = 512*bx + tx):
 *   if (i < Np) { arrayX[i] = xj[i]; arrayY[i] = yj[i]; weights[i] = 1/Np;
 *     arrayX[i] += 1 + 5*d_randn(seed, i); arrayY[i] += -2 + 2*d_randn(seed, i); }
 *   __syncthreads();
 *   if (i < Np) { for (y < countOnes) { indX = round(arrayX[i]) + objxy[2y+1];
 *       indY = round(arrayY[i]) + objxy[2y];
 *       ind[i*countOnes+y] = abs(indX*IszY*Nfr + indY*Nfr + k), 0 if >= max_size; }
 *     likelihood[i] = calcLikelihoodSum(I, ind, countOnes, i) / countOnes;
 *     weights[i] = weights[i] * exp(likelihood[i]); }
 *   buffer[tx] = 0; __syncthreads(); if (i < Np) buffer[tx] = weights[i]; __syncthreads();
 *   for (s = 256; s > 0; s >>= 1) { if (tx < s) buffer[tx] += buffer[tx+s]; __syncthreads(); }
 *   if (tx == 0) partial_sums[bx] = buffer[0]; __syncthreads();
 * d_randn draws d_randu twice; d_randu loads seed[i], steps the LCG
 * (1103515245 * s + 12345) % INT_MAX and stores it back. dev_round_double
 * returns newValue++ (the old value), so it truncates toward zero.
 * sum_kernel: thread 0 sums partial_sums[0 .. num_blocks-1] into [0].
 * normalize_weights_kernel: tx 0 loads partial_sums[0] into shared
 * sumWeights; weights[i] /= sumWeights; thread 0 runs cdfCalc (CDF[x] =
 * weights[x] + CDF[x-1]) and u[0] = d_randu(seed, 0) / Np; tx 0 loads u[0]
 * into shared u1; u[i] = u1 + i/Np. Four barriers.
 * find_index_kernel: the first x with CDF[x] >= u[i] (Np-1 if none);
 * xj[i] = arrayX[index]; yj[i] = arrayY[index]; a barrier.
 *
 * Data decides addresses twice: the particle positions (I[ind] pixels) and
 * the resampled index (the CDF scan's trip count and the arrayX gather).
 * Both are computed at build time in integers (docs/workloads/rodinia.md):
 * the benchmark's LCG per particle with seed[i] = seed * i (main() uses
 * time(0) * i); d_randn's Box-Muller replaced by the sum of its two draws,
 * (r1 + r2 - M) / M (triangular, sd 1/sqrt(6)), scaled to sd 5 and 2;
 * positions in 1/256 pixel; the video of videoSequence (object 228 on 100,
 * dilated with the same disk; noise from seed[0] = 0 as in main()) exactly
 * but for the noise's shape; weights as 2^16 >> (the likelihood gap to the
 * best particle in bits), so the CDF has the benchmark's shape (nearly a
 * step at the best particles) but not its double values.
 *
 * Instructions: the global loads and stores are those of clang's NVPTX
 * code for the kernels at -O3 (-fno-unroll-loops), in its order
 * (docs/workloads/rodinia.md, particlefilter). A value the thread has just
 * stored is not loaded again (seed[i] through d_randn's four draws, one
 * load and one store; CDF[x-1] in cdfCalc), and a load is repeated after
 * a store that may alias it (char I, int seed/ind, double arrays: arrayX[i]
 * after the weights store, arrayY[i] after the arrayX store, arrayY[index]
 * after the xj store); strict aliasing keeps arrayX[i] across the ind
 * stores, and no store lets u[i] stay across the CDF scan.
 * calcLikelihoodSum's two I[ind[...]] reads are one load. Shared: u1 at 0,
 * sumWeights at 8 (normalize); buffer at 0 (likelihood). Read-only
 * (loaded, never stored, by the kernel): I, objxy, xj, yj in
 * likelihood_kernel; partial_sums in normalize_weights_kernel; CDF, u,
 * arrayX, arrayY in find_index_kernel. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>
#include <stdlib.h>

#include "workload/build.h"

#define TPB 512u
#define LANES 0xffffffffu
#define LCG_M 2147483647ll   /* INT_MAX */

enum {   /* registers */
    R_I, R_P, R_X, R_Y, R_W, R_S, R_T, R_T2, R_N, R_IX, R_IY, R_OX, R_OY, R_IND,
    R_PIX, R_L, R_B, R_B2, R_CNT, R_U, R_C, R_IDX
};

/* ---------------------------------------------------------------- data */

/* One step of the benchmark's LCG in 32-bit int arithmetic; returns
 * |seed| (randu's numerator). */
static int64_t lcg(int32_t *s)
{
    int32_t num = (int32_t)(1103515245u * (uint32_t)*s + 12345u);
    *s = (int32_t)(num % (int32_t)LCG_M);
    return *s < 0 ? -(int64_t)*s : *s;
}

/* randn scaled by `num / den` in 1/256 units: two draws, as d_randn. */
static int64_t randn_q8(int32_t *s, int64_t num, int64_t den)
{
    int64_t t = lcg(s) + lcg(s) - LCG_M;
    return t * num * 256 / (den * LCG_M);
}

static int64_t trunc_q8(int64_t q)
{
    return q / 256;   /* C division truncates toward zero, as (int) */
}

/* ind[i*countOnes + y] for a particle at (qx, qy), frame k. */
static int64_t pf_ind(const gm_pf_params *p, int64_t qx, int64_t qy, uint32_t y, uint32_t k)
{
    int64_t ix = trunc_q8(qx) + p->objxy[2 * y + 1];
    int64_t iy = trunc_q8(qy) + p->objxy[2 * y];
    int64_t v = llabs(ix * p->isz_y * p->nfr + iy * p->nfr + k);
    return v >= (int64_t)p->isz_x * p->isz_y * p->nfr ? 0 : v;
}

static int video(const gm_pf_params *p, uint8_t *I)
{
    int64_t X = p->isz_x, Y = p->isz_y, Z = p->nfr, max = X * Y * Z;
    uint8_t *one = calloc((size_t)max, 1);
    int32_t s0 = 0;   /* seed[0] = time(0) * 0 */
    int64_t x0 = Y / 2, y0 = X / 2;

    if (!one)
        return -1;
    one[x0 * Y * Z + y0 * Z] = 1;
    for (int64_t k = 1; k < Z; k++) {
        int64_t xk = llabs(x0 + (k - 1)), yk = llabs(y0 - 2 * (k - 1));
        int64_t pos = yk * Y * Z + xk * Z + k;
        one[pos >= max ? 0 : pos] = 1;
    }
    for (int64_t i = 0; i < max; i++)
        I[i] = 0;
    for (int64_t z = 0; z < Z; z++)   /* imdilate_disk with error 5 */
        for (int64_t x = 0; x < X; x++)
            for (int64_t y = 0; y < Y; y++) {
                if (!one[x * Y * Z + y * Z + z])
                    continue;
                for (int64_t a = x - 5 < 0 ? 0 : x - 5; a < (x + 5 > X ? X : x + 5); a++)
                    for (int64_t b = y - 5 < 0 ? 0 : y - 5; b < (y + 5 > Y ? Y : y + 5); b++)
                        if ((a - x) * (a - x) + (b - y) * (b - y) < 25)
                            I[a * Y * Z + b * Z + z] = 1;
            }
    for (int64_t i = 0; i < max; i++)   /* setIf, addNoise (x, y, z order) */
        I[i] = (uint8_t)((I[i] ? 228 : 100) + (uint8_t)(int8_t)trunc_q8(randn_q8(&s0, 49, 4)));
    free(one);
    return 0;
}

/* The whole filter, frame by frame, in integers (see the header).
 * Returns -1 when out of memory. */
static int pf_run(gm_pf_params *p, uint64_t seed, const uint8_t *I)
{
    uint32_t n = p->np, c = p->ones;
    int32_t *posx = p->data, *posy = posx + (size_t)(p->nfr - 1) * n;
    int32_t *idx = posy + (size_t)(p->nfr - 1) * n;
    int64_t *xj = malloc(2 * (size_t)n * sizeof *xj), *yj = xj + n;
    int64_t *sum = malloc(2 * (size_t)n * sizeof *sum), *cdf = sum + n;
    int32_t *s = malloc((size_t)n * sizeof *s);
    int32_t s0 = 0;

    if (!xj || !sum || !s) {
        free(xj);
        free(sum);
        free(s);
        return -1;
    }
    for (uint32_t i = 0; i < 2 * (uint32_t)p->isz_x * p->isz_y * p->nfr; i++)
        lcg(&s0);   /* seed[0] after addNoise's draws */
    for (uint32_t i = 0; i < n; i++) {
        xj[i] = 256 * (int64_t)(p->isz_y / 2);
        yj[i] = 256 * (int64_t)(p->isz_x / 2);
        s[i] = i ? (int32_t)(uint32_t)(seed * i) : s0;
    }
    for (uint32_t k = 1; k < p->nfr; k++) {
        size_t f = (size_t)(k - 1) * n;
        int64_t best = INT64_MIN, total = 0;
        for (uint32_t i = 0; i < n; i++) {
            int64_t qx = xj[i] + 256 + randn_q8(&s[i], 49, 4);     /* sd 5 */
            int64_t qy = yj[i] - 512 + randn_q8(&s[i], 49, 10);    /* sd 2 */
            posx[f + i] = (int32_t)qx;
            posy[f + i] = (int32_t)qy;
            sum[i] = 0;
            for (uint32_t y = 0; y < c; y++)
                sum[i] += I[pf_ind(p, qx, qy, y, k)];
            best = sum[i] > best ? sum[i] : best;
        }
        /* likelihood = (256 * sum - 41984 c) / (50 c); the gap to the best
         * in bits is 256 * log2(e) * gap / (50 c), log2(e) ~ 1477/1024 */
        for (uint32_t i = 0; i < n; i++) {
            int64_t bits = (best - sum[i]) * 256 * 1477 / (51200 * (int64_t)c);
            total += bits >= 16 ? 0 : (int64_t)65536 >> bits;
            cdf[i] = total;
        }
        int64_t r16 = lcg(&s[0]) >> 15;   /* normalize's d_randu(seed, 0) */
        uint32_t x = 0;
        for (uint32_t i = 0; i < n; i++) {   /* u rises with i: the scan only moves on */
            int64_t want = total * (r16 + 65536 * (int64_t)i);
            while (x < n - 1 && cdf[x] * n * 65536 < want)
                x++;
            idx[f + i] = (int32_t)x;
        }
        for (uint32_t i = 0; i < n; i++) {
            xj[i] = posx[f + (uint32_t)idx[f + i]];
            yj[i] = posy[f + (uint32_t)idx[f + i]];
        }
    }
    free(xj);
    free(sum);
    free(s);
    return 0;
}

/* ---------------------------------------------------------------- streams */

static uint32_t thread0(const gm_warp_gen *g)
{
    return g->cta * TPB + g->warp * GM_WARP_SIZE;
}

static uint32_t active(const gm_pf_params *p, const gm_warp_gen *g)
{
    uint32_t t = thread0(g);
    if (t >= p->np)
        return 0;
    return p->np - t >= GM_WARP_SIZE ? LANES : (1u << (p->np - t)) - 1;
}

/* arr[i] for lane i of the warp, `w` bytes per element. */
static void per_thread(gm_inst *in, const gm_warp_gen *g, uint64_t arr, uint32_t w)
{
    uint32_t t = thread0(g);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? arr + (uint64_t)w * (t + l) : 0;
}

static void same(gm_inst *in, uint64_t a)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? a : 0;
}

static void ld(gm_inst *in, uint32_t mask, uint8_t dst, uint8_t w, int ro)
{
    gm_emit_mem(in, GM_OP_GLOBAL_LD, mask, dst, R_I, R_NONE, w, ro ? GM_INST_READ_ONLY : 0);
}

static void st(gm_inst *in, uint32_t mask, uint8_t src, uint8_t w)
{
    gm_emit_mem(in, GM_OP_GLOBAL_ST, mask, R_NONE, R_I, src, w, 0);
}

static void alu(gm_inst *in, uint32_t mask, uint8_t d, uint8_t a, uint8_t b)
{
    gm_emit(in, GM_OP_ALU, mask, d, a, b, R_NONE);
}

static void op(gm_inst *in, gm_op o, uint32_t mask, uint8_t d, uint8_t a, uint8_t b)
{
    gm_emit(in, o, mask, d, a, b, R_NONE);
}

/* likelihood_kernel's guarded prologue (arrayX = xj, arrayY = yj, weights
 * = 1/Np, then the two moves by d_randn), one step per instruction, in the
 * order of clang's NVPTX code at -O3 (docs/workloads/rodinia.md,
 * particlefilter). Four d_randu calls advance seed[i] in a row: clang
 * loads it once, keeps it in a register through the four LCG steps and
 * stores only the last value (seed is int*, the arrays between are
 * double*, so by strict aliasing nothing in between can change it). The
 * double stores may alias each other, so arrayX[i] is loaded again after
 * the weights store and arrayY[i] after the arrayX store. */
enum {
    MV_LD_XJ, MV_LD_YJ, MV_LD_X, MV_LD_Y, MV_ST_X, MV_ST_Y, MV_DP_W, MV_ST_W,
    MV_LD_SEED, MV_LCG, MV_CVT, MV_DIV, MV_ST_SEED,
    MV_COS, MV_LOG, MV_SQRT, MV_MUL, MV_SCALE, MV_ADD_X, MV_ADD_Y
};

#define MV_DRAW MV_LCG, MV_LCG, MV_CVT, MV_DIV               /* d_randu's arithmetic */
#define MV_TAIL MV_COS, MV_LOG, MV_SQRT, MV_MUL, MV_SCALE     /* Box-Muller */

static const uint8_t moves[] = {
    MV_LD_XJ, MV_ST_X, MV_LD_YJ, MV_ST_Y, MV_DP_W, MV_ST_W,
    MV_LD_X, MV_LD_SEED, MV_DRAW, MV_DRAW, MV_TAIL, MV_ADD_X, MV_ST_X,
    MV_LD_Y, MV_DRAW, MV_LCG, MV_LCG, MV_ST_SEED, MV_CVT, MV_DIV, MV_TAIL, MV_ADD_Y, MV_ST_Y
};

/* normalize_weights_kernel's d_randu(seed, 0), thread 0: called once, so
 * its load and store of seed[0] stay. */
static const uint8_t randu0[] = {MV_LD_SEED, MV_LCG, MV_LCG, MV_ST_SEED, MV_CVT, MV_DIV};

#undef MV_DRAW
#undef MV_TAIL

#define NMOVES (sizeof moves / sizeof moves[0])

/* One step of `moves` or `randu0`. */
static void move_step(gm_inst *in, const gm_warp_gen *g, const gm_pf_params *p, uint32_t a,
                      uint8_t step)
{
    switch (step) {
    case MV_LD_XJ:   ld(in, a, R_X, 8, 1); per_thread(in, g, p->xj, 8); break;
    case MV_LD_YJ:   ld(in, a, R_Y, 8, 1); per_thread(in, g, p->yj, 8); break;
    case MV_LD_X:    ld(in, a, R_X, 8, 0); per_thread(in, g, p->array_x, 8); break;
    case MV_LD_Y:    ld(in, a, R_Y, 8, 0); per_thread(in, g, p->array_y, 8); break;
    case MV_ST_X:    st(in, a, R_X, 8); per_thread(in, g, p->array_x, 8); break;
    case MV_ST_Y:    st(in, a, R_Y, 8); per_thread(in, g, p->array_y, 8); break;
    case MV_DP_W:    op(in, GM_OP_DP, a, R_W, R_NONE, R_NONE); break;   /* 1 / Np */
    case MV_ST_W:    st(in, a, R_W, 8); per_thread(in, g, p->weights, 8); break;
    case MV_LD_SEED: ld(in, a, R_S, 4, 0); per_thread(in, g, p->seed, 4); break;
    case MV_LCG:     alu(in, a, R_S, R_S, R_NONE); break;    /* A * s + C, then % M */
    case MV_CVT:     op(in, GM_OP_DP, a, R_T, R_S, R_NONE); break;
    case MV_DIV:     op(in, GM_OP_DP, a, R_T, R_T, R_NONE); break;   /* / M */
    case MV_ST_SEED: st(in, a, R_S, 4); per_thread(in, g, p->seed, 4); break;
    case MV_COS:     op(in, GM_OP_SFU, a, R_T2, R_T, R_NONE); break;
    case MV_LOG:
    case MV_SQRT:    op(in, GM_OP_SFU, a, R_T, R_T, R_NONE); break;
    case MV_MUL:     op(in, GM_OP_DP, a, R_T, R_T, R_T2); break;
    case MV_SCALE:   op(in, GM_OP_DP, a, R_T, R_T, R_NONE); break;
    case MV_ADD_X:   op(in, GM_OP_DP, a, R_X, R_X, R_T); break;   /* arrayX + 1 + 5 * randn */
    case MV_ADD_Y:
    default:         op(in, GM_OP_DP, a, R_Y, R_Y, R_T); break;   /* arrayY - 2 + 2 * randn */
    }
}

enum {   /* likelihood_kernel program points */
    L_I = 0, L_SETP, L_BRA,
    L_MOVE,             /* the NMOVES steps of `moves` */
    L_BAR0 = 64, L_LDX, L_LDY, L_CVX, L_CVY,
    L_Y_OX, L_Y_OY, L_Y_AX, L_Y_AY, L_Y_MAD, L_Y_ABS, L_Y_CMP, L_Y_ST, L_Y_INC, L_Y_BRA,
    L_S_IND, L_S_PIX, L_S_CVT, L_S_SQ, L_S_ADD, L_S_INC, L_S_BRA,
    L_DIV, L_STL, L_LDW, L_EXP, L_MUL, L_STW2,
    L_Z_STS, L_Z_BAR, L_B_LDW, L_B_STS, L_B_BAR,
    L_R_SETP, L_R_BRA, L_R_LD0, L_R_LD1, L_R_ADD, L_R_STS, L_R_BAR, L_R_SH, L_R_LOOP,
    L_P_SETP, L_P_BRA, L_P_LDS, L_P_ST, L_BAR9, L_EXIT, L_DONE
};

_Static_assert(L_MOVE + NMOVES <= L_BAR0, "likelihood_kernel: the moves overlap L_BAR0");

static int likelihood_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_pf_launch *lp = kern->params;
    const gm_pf_params *p = lp->pf;
    uint32_t a = active(p, g), k = lp->k, n = 0;
    size_t f = (size_t)(k - 1) * p->np;
    const int32_t *posx = p->data, *posy = posx + (size_t)(p->nfr - 1) * p->np;
    uint32_t tx0 = g->warp * GM_WARP_SIZE;

    if (g->pc == L_DONE)
        return 0;
    while ((int)n < max) {
        gm_inst *in = &out[n++];
        uint32_t y = (uint32_t)g->v[0];
        if (g->pc >= L_MOVE && g->pc < L_BAR0) {   /* the guarded prologue */
            move_step(in, g, p, a, moves[g->pc - L_MOVE]);
            g->pc = g->pc + 1 == L_MOVE + NMOVES ? L_BAR0 : g->pc + 1;
            continue;
        }
        switch (g->pc) {
        case L_I:    alu(in, LANES, R_I, R_NONE, R_NONE); break;
        case L_SETP: alu(in, LANES, R_P, R_I, R_NONE); break;
        case L_BRA:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (!a) {
                g->pc = L_BAR0;
                continue;
            }
            break;
        case L_BAR0:
            op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE);
            if (!a) {
                g->pc = L_Z_STS;
                continue;
            }
            break;
        case L_LDX: ld(in, a, R_X, 8, 0); per_thread(in, g, p->array_x, 8); break;
        case L_LDY: ld(in, a, R_Y, 8, 0); per_thread(in, g, p->array_y, 8); break;
        case L_CVX: op(in, GM_OP_DP, a, R_IX, R_X, R_NONE); break;
        case L_CVY:
            op(in, GM_OP_DP, a, R_IY, R_Y, R_NONE);
            g->v[0] = 0;
            break;
        case L_Y_OX: ld(in, a, R_OX, 4, 1); same(in, p->objxy_d + 4 * (2 * y + 1)); break;
        case L_Y_OY: ld(in, a, R_OY, 4, 1); same(in, p->objxy_d + 4 * (2 * y)); break;
        case L_Y_AX: alu(in, a, R_OX, R_OX, R_IX); break;
        case L_Y_AY: alu(in, a, R_OY, R_OY, R_IY); break;
        case L_Y_MAD: alu(in, a, R_IND, R_OX, R_OY); break;
        case L_Y_ABS: alu(in, a, R_IND, R_IND, R_NONE); break;
        case L_Y_CMP: alu(in, a, R_IND, R_IND, R_NONE); break;
        case L_Y_ST:
            st(in, a, R_IND, 4);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1)
                                  ? p->ind + 4 * ((uint64_t)(thread0(g) + l) * p->ones + y)
                                  : 0;
            break;
        case L_Y_INC: alu(in, a, R_CNT, R_I, R_NONE); break;
        case L_Y_BRA:
            op(in, GM_OP_BRANCH, a, R_NONE, R_CNT, R_NONE);
            g->v[0] = ++y;
            g->pc = y < p->ones ? L_Y_OX : L_S_IND;
            if (y == p->ones)
                g->v[0] = 0;
            continue;
        case L_S_IND:
            ld(in, a, R_IND, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1)
                                  ? p->ind + 4 * ((uint64_t)(thread0(g) + l) * p->ones + y)
                                  : 0;
            break;
        case L_S_PIX:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, a, R_PIX, R_IND, R_NONE, 1, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint32_t i = thread0(g) + l;
                in->addr[l] = (a >> l & 1)
                                  ? p->image + (uint64_t)pf_ind(p, posx[f + i], posy[f + i], y, k)
                                  : 0;
            }
            break;
        case L_S_CVT: op(in, GM_OP_DP, a, R_PIX, R_PIX, R_NONE); break;
        case L_S_SQ:  op(in, GM_OP_DP, a, R_PIX, R_PIX, R_NONE); break;
        case L_S_ADD: op(in, GM_OP_DP, a, R_L, R_PIX, R_NONE); break;
        case L_S_INC: alu(in, a, R_CNT, R_I, R_NONE); break;
        case L_S_BRA:
            op(in, GM_OP_BRANCH, a, R_NONE, R_CNT, R_NONE);
            g->v[0] = ++y;
            g->pc = y < p->ones ? L_S_IND : L_DIV;
            continue;
        case L_DIV: op(in, GM_OP_DP, a, R_L, R_L, R_NONE); break;
        case L_STL: st(in, a, R_L, 8); per_thread(in, g, p->likelihood, 8); break;
        case L_LDW: ld(in, a, R_W, 8, 0); per_thread(in, g, p->weights, 8); break;
        case L_EXP: op(in, GM_OP_SFU, a, R_T, R_L, R_NONE); break;
        case L_MUL: op(in, GM_OP_DP, a, R_W, R_W, R_T); break;
        case L_STW2: st(in, a, R_W, 8); per_thread(in, g, p->weights, 8); break;
        case L_Z_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, LANES, R_NONE, R_I, R_NONE, 8, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = 8 * (uint64_t)(tx0 + l);
            break;
        case L_Z_BAR:
            op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE);
            if (!a) {
                g->pc = L_B_BAR;
                continue;
            }
            break;
        case L_B_LDW: ld(in, a, R_W, 8, 0); per_thread(in, g, p->weights, 8); break;
        case L_B_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, a, R_NONE, R_I, R_W, 8, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1) ? 8 * (uint64_t)(tx0 + l) : 0;
            break;
        case L_B_BAR:
            op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE);
            g->v[0] = TPB / 2;
            break;
        case L_R_SETP: alu(in, LANES, R_P, R_I, R_NONE); break;
        case L_R_BRA: {
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (tx0 >= y) {
                g->pc = L_R_BAR;
                continue;
            }
            break;
        }
        case L_R_LD0:
        case L_R_LD1:
        case L_R_STS: {
            uint32_t m = y - tx0 >= GM_WARP_SIZE ? LANES : (1u << (y - tx0)) - 1;
            uint32_t add = g->pc == L_R_LD1 ? y : 0;
            if (g->pc == L_R_STS)
                gm_emit_mem(in, GM_OP_SHARED_ST, m, R_NONE, R_I, R_B, 8, 0);
            else
                gm_emit_mem(in, GM_OP_SHARED_LD, m, g->pc == L_R_LD0 ? R_B : R_B2, R_I,
                            R_NONE, 8, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (m >> l & 1) ? 8 * (uint64_t)(tx0 + l + add) : 0;
            break;
        }
        case L_R_ADD: {
            uint32_t m = y - tx0 >= GM_WARP_SIZE ? LANES : (1u << (y - tx0)) - 1;
            op(in, GM_OP_DP, m, R_B, R_B, R_B2);
            break;
        }
        case L_R_BAR: op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE); break;
        case L_R_SH:  alu(in, LANES, R_CNT, R_I, R_NONE); break;
        case L_R_LOOP:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_CNT, R_NONE);
            g->v[0] = y >> 1;
            g->pc = y > 1 ? L_R_SETP : L_P_SETP;
            continue;
        case L_P_SETP: alu(in, LANES, R_P, R_I, R_NONE); break;
        case L_P_BRA:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (g->warp) {
                g->pc = L_BAR9;
                continue;
            }
            break;
        case L_P_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, 1, R_B, R_I, R_NONE, 8, 0);
            same(in, 0);
            break;
        case L_P_ST:
            st(in, 1, R_B, 8);
            same(in, p->partial_sums + 8 * (uint64_t)g->cta);
            break;
        case L_BAR9: op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE); break;
        case L_EXIT:
            op(in, GM_OP_EXIT, LANES, R_NONE, R_NONE, R_NONE);
            g->pc = L_DONE;
            return (int)n;
        default:
            g->pc = L_DONE;
            return (int)n - 1;
        }
        g->pc++;
    }
    return (int)n;
}

enum { S_I = 0, S_SETP, S_BRA, S_INIT, S_LD, S_ADD, S_INC, S_LOOP, S_ST, S_EXIT, S_DONE };

static int sum_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_pf_params *p = ((const gm_pf_launch *)kern->params)->pf;
    int n = 0;
    int first = g->cta == 0 && g->warp == 0;

    if (g->pc == S_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t x = (uint32_t)g->v[0];
        switch (g->pc) {
        case S_I:    alu(in, LANES, R_I, R_NONE, R_NONE); break;
        case S_SETP: alu(in, LANES, R_P, R_I, R_NONE); break;
        case S_BRA:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (!first) {
                g->pc = S_EXIT;
                continue;
            }
            break;
        case S_INIT: alu(in, 1, R_CNT, R_NONE, R_NONE); break;   /* num_blocks */
        case S_LD:   ld(in, 1, R_T, 8, 0); same(in, p->partial_sums + 8 * (uint64_t)x); break;
        case S_ADD:  op(in, GM_OP_DP, 1, R_S, R_T, R_NONE); break;
        case S_INC:  alu(in, 1, R_CNT, R_CNT, R_NONE); break;
        case S_LOOP:
            op(in, GM_OP_BRANCH, 1, R_NONE, R_CNT, R_NONE);
            g->v[0] = ++x;
            g->pc = x < p->blocks ? S_LD : S_ST;
            continue;
        case S_ST:   st(in, 1, R_S, 8); same(in, p->partial_sums); break;
        case S_EXIT:
            op(in, GM_OP_EXIT, LANES, R_NONE, R_NONE, R_NONE);
            g->pc = S_DONE;
            return n;
        default:
            g->pc = S_DONE;
            return n - 1;
        }
        g->pc++;
    }
    return n;
}

enum {
    N_I = 0, N_P0, N_B0, N_LDS, N_STS, N_BAR1, N_P1, N_B1, N_LDSW, N_LDW, N_DIV, N_STW,
    N_BAR2, N_P2, N_B2, N_C_LDW, N_C_ST, N_C_INIT, N_C_LDW2, N_C_ADD, N_C_STC, N_C_INC,
    N_C_LOOP,
    N_R = 32,        /* d_randu(seed, 0): 6 points */
    N_U_MUL = 38, N_U_ST, N_BAR3, N_P3, N_B3, N_U_LD, N_U_STS, N_BAR4, N_P4, N_B4,
    N_LDU1, N_CVT, N_UDIV, N_UADD, N_STU, N_EXIT, N_DONE
};

_Static_assert(N_U_MUL - N_R == sizeof randu0, "normalize_weights_kernel: d_randu's points");

static int normalize_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_pf_params *p = ((const gm_pf_launch *)kern->params)->pf;
    uint32_t a = active(p, g);
    int n = 0;
    int first = g->cta == 0 && g->warp == 0;

    if (g->pc == N_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t x = (uint32_t)g->v[0];
        if (g->pc >= N_R && g->pc < N_U_MUL) {
            gm_warp_gen g0 = *g;
            g0.cta = 0;   /* seed[0]: thread 0 only */
            g0.warp = 0;
            move_step(in, &g0, p, 1, randu0[g->pc - N_R]);
            g->pc++;
            continue;
        }
        switch (g->pc) {
        case N_I:  alu(in, LANES, R_I, R_NONE, R_NONE); break;
        case N_P0: alu(in, LANES, R_P, R_I, R_NONE); break;
        case N_B0:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (g->warp) {
                g->pc = N_BAR1;
                continue;
            }
            break;
        case N_LDS: ld(in, 1, R_S, 8, 1); same(in, p->partial_sums); break;
        case N_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, 1, R_NONE, R_I, R_S, 8, 0);
            same(in, 8);
            break;
        case N_BAR1: op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE); break;
        case N_P1:   alu(in, LANES, R_P, R_I, R_NONE); break;
        case N_B1:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (!a) {
                g->pc = N_BAR2;
                continue;
            }
            break;
        case N_LDSW:
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_S, R_I, R_NONE, 8, 0);
            same(in, 8);
            break;
        case N_LDW: ld(in, a, R_W, 8, 0); per_thread(in, g, p->weights, 8); break;
        case N_DIV: op(in, GM_OP_DP, a, R_W, R_W, R_S); break;
        case N_STW: st(in, a, R_W, 8); per_thread(in, g, p->weights, 8); break;
        case N_BAR2: op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE); break;
        case N_P2:   alu(in, LANES, R_P, R_I, R_NONE); break;
        case N_B2:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (!first) {
                g->pc = N_BAR3;
                continue;
            }
            break;
        /* cdfCalc: CDF[x - 1] is the value just stored; clang keeps it in a
         * register (R_C) and loads only weights[x] in the loop */
        case N_C_LDW: ld(in, 1, R_C, 8, 0); same(in, p->weights); break;
        case N_C_ST:  st(in, 1, R_C, 8); same(in, p->cdf); break;
        case N_C_INIT:
            alu(in, 1, R_CNT, R_NONE, R_NONE);
            g->v[0] = 1;
            if (p->np == 1) {
                g->pc = N_R;
                continue;
            }
            break;
        case N_C_LDW2: ld(in, 1, R_W, 8, 0); same(in, p->weights + 8 * (uint64_t)x); break;
        case N_C_ADD:  op(in, GM_OP_DP, 1, R_C, R_C, R_W); break;
        case N_C_STC:  st(in, 1, R_C, 8); same(in, p->cdf + 8 * (uint64_t)x); break;
        case N_C_INC:  alu(in, 1, R_CNT, R_CNT, R_NONE); break;
        case N_C_LOOP:
            op(in, GM_OP_BRANCH, 1, R_NONE, R_CNT, R_NONE);
            g->v[0] = ++x;
            g->pc = x < p->np ? N_C_LDW2 : N_R;
            continue;
        case N_U_MUL: op(in, GM_OP_DP, 1, R_U, R_T, R_NONE); break;
        case N_U_ST:  st(in, 1, R_U, 8); same(in, p->u); break;
        case N_BAR3: op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE); break;
        case N_P3:   alu(in, LANES, R_P, R_I, R_NONE); break;
        case N_B3:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (g->warp) {
                g->pc = N_BAR4;
                continue;
            }
            break;
        case N_U_LD: ld(in, 1, R_U, 8, 0); same(in, p->u); break;
        case N_U_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, 1, R_NONE, R_I, R_U, 8, 0);
            same(in, 0);
            break;
        case N_BAR4: op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE); break;
        case N_P4:   alu(in, LANES, R_P, R_I, R_NONE); break;
        case N_B4:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (!a) {
                g->pc = N_EXIT;
                continue;
            }
            break;
        case N_LDU1:
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_U, R_I, R_NONE, 8, 0);
            same(in, 0);
            break;
        case N_CVT:  op(in, GM_OP_DP, a, R_T, R_I, R_NONE); break;
        case N_UDIV: op(in, GM_OP_DP, a, R_T, R_T, R_NONE); break;
        case N_UADD: op(in, GM_OP_DP, a, R_U, R_U, R_T); break;
        case N_STU:  st(in, a, R_U, 8); per_thread(in, g, p->u, 8); break;
        case N_EXIT:
            op(in, GM_OP_EXIT, LANES, R_NONE, R_NONE, R_NONE);
            g->pc = N_DONE;
            return n;
        default:
            g->pc = N_DONE;
            return n - 1;
        }
        g->pc++;
    }
    return n;
}

enum {
    F_I = 0, F_SETP, F_BRA, F_LDU, F_INIT, F_LDC, F_CMP, F_BRK, F_INC, F_LOOP,
    F_GX, F_STX, F_GY, F_STY,   /* xj may alias arrayY: clang loads arrayY after the xj store */
    F_BAR, F_EXIT, F_DONE
};

/* Lanes still scanning at CDF[x]: index >= x. */
static uint32_t scanning(const gm_warp_gen *g, uint32_t a, const int32_t *idx, uint32_t x)
{
    uint32_t m = 0, t = thread0(g);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if ((a >> l & 1) && (uint32_t)idx[t + l] >= x)
            m |= 1u << l;
    return m;
}

static int find_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_pf_launch *lp = kern->params;
    const gm_pf_params *p = lp->pf;
    const int32_t *idx = p->data + 2 * (size_t)(p->nfr - 1) * p->np + (size_t)(lp->k - 1) * p->np;
    uint32_t a = active(p, g), t = thread0(g);
    int n = 0;

    if (g->pc == F_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t x = (uint32_t)g->v[0];
        uint32_t m = g->pc >= F_LDC && g->pc <= F_LOOP ? scanning(g, a, idx, x) : a;
        switch (g->pc) {
        case F_I:    alu(in, LANES, R_I, R_NONE, R_NONE); break;
        case F_SETP: alu(in, LANES, R_P, R_I, R_NONE); break;
        case F_BRA:
            op(in, GM_OP_BRANCH, LANES, R_NONE, R_P, R_NONE);
            if (!a) {
                g->pc = F_BAR;
                continue;
            }
            break;
        case F_LDU:  ld(in, a, R_U, 8, 1); per_thread(in, g, p->u, 8); break;
        case F_INIT: alu(in, a, R_CNT, R_NONE, R_NONE); g->v[0] = 0; break;
        case F_LDC:  ld(in, m, R_C, 8, 1); same(in, p->cdf + 8 * (uint64_t)x); break;
        case F_CMP:  op(in, GM_OP_DP, m, R_P, R_C, R_U); break;
        case F_BRK: {
            op(in, GM_OP_BRANCH, m, R_NONE, R_P, R_NONE);
            if (!scanning(g, a, idx, x + 1)) {   /* every lane found its index */
                g->pc = F_GX;
                continue;
            }
            break;
        }
        case F_INC: alu(in, scanning(g, a, idx, x + 1), R_CNT, R_CNT, R_NONE); break;
        case F_LOOP:
            op(in, GM_OP_BRANCH, scanning(g, a, idx, x + 1), R_NONE, R_CNT, R_NONE);
            g->v[0] = x + 1;
            g->pc = F_LDC;
            continue;
        case F_GX:
        case F_GY:
            ld(in, a, g->pc == F_GX ? R_X : R_Y, 8, 1);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1) ? (g->pc == F_GX ? p->array_x : p->array_y) +
                                                 8 * (uint64_t)idx[t + l]
                                           : 0;
            break;
        case F_STX: st(in, a, R_X, 8); per_thread(in, g, p->xj, 8); break;
        case F_STY: st(in, a, R_Y, 8); per_thread(in, g, p->yj, 8); break;
        case F_BAR: op(in, GM_OP_BARRIER, LANES, R_NONE, R_NONE, R_NONE); break;
        case F_EXIT:
            op(in, GM_OP_EXIT, LANES, R_NONE, R_NONE, R_NONE);
            g->pc = F_DONE;
            return n;
        default:
            g->pc = F_DONE;
            return n - 1;
        }
        g->pc++;
    }
    return n;
}

/* ---------------------------------------------------------------- build */

int gm_particlefilter_build_dims(gm_workload *w, uint32_t isz_x, uint32_t isz_y, uint32_t nfr,
                                 uint32_t np, uint64_t seed, gm_error *err)
{
    if (!isz_x || !isz_y || isz_x > 4096 || isz_y > 4096)
        return gm_fail(err, "particlefilter: bad frame %ux%u (1..4096 each)", isz_x, isz_y);
    if (nfr < 2 || nfr > 1000 || (uint64_t)isz_x * isz_y * nfr > (1u << 26))
        return gm_fail(err, "particlefilter: bad frame count %u (2..1000, x*y*frames <= 2^26)",
                       nfr);
    if (!np || np > 32768)   /* keeps the integer CDF compare in 64 bits */
        return gm_fail(err, "particlefilter: bad particle count %u (1..32768)", np);

    uint32_t launches = 4 * (nfr - 1);
    size_t data = 3 * (size_t)(nfr - 1) * np * sizeof(int32_t);
    size_t lbytes = launches * sizeof(gm_pf_launch);
    if (gm_workload_alloc(w, "particlefilter", launches, lbytes + sizeof(gm_pf_params) + data,
                          err))
        return -1;
    gm_pf_launch *lp = w->priv;
    gm_pf_params *p = (gm_pf_params *)((char *)w->priv + lbytes);

    p->isz_x = isz_x;
    p->isz_y = isz_y;
    p->nfr = nfr;
    p->np = np;
    p->blocks = (np + TPB - 1) / TPB;
    p->ones = 0;
    for (int x = 0; x < 9; x++)   /* strelDisk(5) + getneighbors: center 4 */
        for (int y = 0; y < 9; y++)
            if ((x - 4) * (x - 4) + (y - 4) * (y - 4) < 25) {
                p->objxy[2 * p->ones] = (int8_t)(y - 4);
                p->objxy[2 * p->ones + 1] = (int8_t)(x - 4);
                p->ones++;
            }

    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t d = 8ull * np;
    p->array_x = gm_devmem_alloc(&mem, d);
    p->array_y = gm_devmem_alloc(&mem, d);
    p->xj = gm_devmem_alloc(&mem, d);
    p->yj = gm_devmem_alloc(&mem, d);
    p->cdf = gm_devmem_alloc(&mem, d);
    p->u = gm_devmem_alloc(&mem, d);
    p->likelihood = gm_devmem_alloc(&mem, d);
    p->weights = gm_devmem_alloc(&mem, d);
    p->image = gm_devmem_alloc(&mem, (uint64_t)isz_x * isz_y * nfr);
    p->objxy_d = gm_devmem_alloc(&mem, 8ull * p->ones);
    p->ind = gm_devmem_alloc(&mem, 4ull * p->ones * np);
    p->seed = gm_devmem_alloc(&mem, 4ull * np);
    p->partial_sums = gm_devmem_alloc(&mem, d);

    uint8_t *I = malloc((size_t)isz_x * isz_y * nfr);
    int bad = !I || video(p, I) || pf_run(p, seed, I);
    free(I);
    if (bad) {
        gm_workload_free(w);
        return gm_fail(err, "particlefilter: out of memory building the video and particles");
    }

    static const char *const names[4] = {"likelihood_kernel", "sum_kernel",
                                         "normalize_weights_kernel", "find_index_kernel"};
    int (*gens[4])(const gm_kernel *, gm_warp_gen *, gm_inst *, int) = {
        likelihood_gen, sum_gen, normalize_gen, find_gen};
    for (uint32_t l = 0; l < launches; l++) {
        lp[l].pf = p;
        lp[l].k = 1 + l / 4;
        gm_kernel_set(&w->kernels[l], names[l % 4], gm_dim3_make(p->blocks, 1, 1),
                      gm_dim3_make(TPB, 1, 1), &lp[l], gens[l % 4]);
    }
    return 0;
}

int gm_particlefilter_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: the run script's `-x 128 -y 128 -z 10 -np 1000` */
    static const uint32_t x[] = {64, 128, 128, 128}, z[] = {3, 4, 10, 4}, np[] = {512, 2048, 1000, 2048};

    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "particlefilter: bad size %d", (int)size);
    return gm_particlefilter_build_dims(w, x[size], x[size], z[size], np[size], seed, err);
}
