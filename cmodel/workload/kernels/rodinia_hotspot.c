/* Rodinia 3.1 hotspot (gpu-app-collection src/cuda/rodinia/3.1/cuda/
 * hotspot/hotspot.cu) as an address-stream emulator.
 *
 *   small = 16 - 2*iteration;  blkY = small*by - border_rows;  blkX likewise
 *   yidx = blkY + ty;  xidx = blkX + tx;  index = grid_cols*yidx + xidx
 *   if (yidx, xidx inside the grid) {
 *       temp_on_cuda[ty][tx] = temp_src[index];  power_on_cuda[ty][tx] = power[index];
 *   }
 *   __syncthreads();
 *   valid range, N = max(ty-1, validYmin), S = min(ty+1, validYmax), W, E likewise
 *   for (i = 0; i < iteration; i++) {
 *       computed = tx, ty in [i+1, 14-i] and inside the valid range;
 *       if (computed) temp_t[ty][tx] = f(temp_on_cuda[ty][tx], power_on_cuda[ty][tx],
 *                                        temp_on_cuda[S][tx], [N][tx], [ty][E], [ty][W]);
 *       __syncthreads();
 *       if (i == iteration-1) break;
 *       if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx];
 *       __syncthreads();
 *   }
 *   if (computed) temp_dst[index] = temp_t[ty][tx];
 *
 * Block (16,16): warp w holds rows ty = 2w, 2w+1 of 16 columns each. Grid
 * (blockCols, blockRows) = ceil(n / (16 - 2*pyramid)) squared, borders =
 * pyramid (host code); the kernel computes its small block from its own
 * `iteration` argument, which is smaller than pyramid_height in a last,
 * partial launch. Host loop: src = 1, dst = 0; each launch swaps them, so
 * launch 0 reads MatrixTemp[0] and writes MatrixTemp[1].
 *
 * Shared memory (declaration order): temp_on_cuda at 0, power_on_cuda at
 * 1024, temp_t at 2048. Read-only: power and temp_src. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define BS 16u   /* BLOCK_SIZE */
#define SH_TEMP 0u
#define SH_POWER 1024u
#define SH_TT 2048u

enum {   /* registers */
    R_TX, R_TY, R_BX, R_BY, R_BLKY, R_BLKX, R_Y, R_X, R_IDX, R_P,
    R_GA, R_T, R_PW, R_SA,
    R_VY0, R_VY1, R_VX0, R_VX1, R_N, R_S, R_W, R_E,
    R_I, R_PC, R_C, R_PS, R_TS, R_TN, R_TE, R_TW, R_A, R_B, R_D, R_PL, R_TT
};

enum {   /* program points, in issue order */
    PC_S2R_TX = 0, PC_S2R_TY, PC_S2R_BX, PC_S2R_BY, PC_BLKY, PC_BLKX, PC_Y, PC_X, PC_IDX,
    PC_GUARD, PC_GUARD_BRA,
    PC_GADDR, PC_LD_T, PC_LD_P, PC_SADDR, PC_STS_T, PC_STS_P,
    PC_BAR0,
    PC_VY0, PC_VY1, PC_VX0, PC_VX1, PC_N, PC_S, PC_W, PC_E, PC_I0,
    PC_C_SETP, PC_C_BRA,
    PC_LDS_C, PC_LDS_P, PC_LDS_S, PC_LDS_N, PC_LDS_E, PC_LDS_W,
    PC_F0, PC_F1, PC_F2, PC_F3, PC_F4, PC_F5, PC_F6, PC_F7, PC_F8, PC_STS_TT,
    PC_BAR1, PC_LAST_SETP, PC_LAST_BRA,
    PC_LDS_TT, PC_STS_TC,
    PC_BAR2, PC_INC, PC_LOOP_BRA,
    PC_FIN_BRA, PC_LDS_FIN, PC_ST,
    PC_EXIT, PC_DONE
};

/* The warp's view of its CTA: everything per lane follows from these
 * (lane l holds tx = l % 16, ty = 2*warp + l / 16). */
typedef struct lanes {
    uint32_t warp;
    uint32_t exist;
    uint32_t inrange;            /* inside the grid: loads */
    int64_t cols;
    int32_t blkx, blky;
    int32_t vx0, vx1, vy0, vy1;  /* valid range: uniform over the CTA */
} lanes;

/* Lanes whose tx lies in [x0, x1] and ty in [y0, y1]. */
static uint32_t box_mask(uint32_t warp, int32_t x0, int32_t x1, int32_t y0, int32_t y1)
{
    x0 = x0 < 0 ? 0 : x0;
    x1 = x1 > (int32_t)BS - 1 ? (int32_t)BS - 1 : x1;
    if (x0 > x1)
        return 0;
    uint32_t row = ((2u << x1) - 1) & ~((1u << x0) - 1);   /* bits x0..x1 */
    int32_t ty0 = 2 * (int32_t)warp, ty1 = ty0 + 1;
    return (ty0 >= y0 && ty0 <= y1 ? row : 0) | (ty1 >= y0 && ty1 <= y1 ? row << BS : 0);
}

static void lanes_compute(const gm_kernel *k, const gm_hotspot_params *p,
                          const gm_warp_gen *g, lanes *L)
{
    int32_t bx = (int32_t)(g->cta % k->grid.x), by = (int32_t)(g->cta / k->grid.x);
    int32_t small = (int32_t)BS - 2 * (int32_t)p->iteration;
    int32_t rows = (int32_t)p->rows, cols = (int32_t)p->cols;
    L->warp = g->warp;
    L->cols = cols;
    L->blky = small * by - (int32_t)p->pyramid;
    L->blkx = small * bx - (int32_t)p->pyramid;
    int32_t blkymax = L->blky + BS - 1, blkxmax = L->blkx + BS - 1;
    L->vy0 = L->blky < 0 ? -L->blky : 0;
    L->vy1 = blkymax > rows - 1 ? (int32_t)BS - 1 - (blkymax - rows + 1) : (int32_t)BS - 1;
    L->vx0 = L->blkx < 0 ? -L->blkx : 0;
    L->vx1 = blkxmax > cols - 1 ? (int32_t)BS - 1 - (blkxmax - cols + 1) : (int32_t)BS - 1;
    L->exist = gm_warp_exist_mask(BS * BS, g->warp);
    /* 0 <= blkY + ty <= rows-1 and 0 <= blkX + tx <= cols-1 */
    L->inrange = L->exist & box_mask(g->warp, -L->blkx, cols - 1 - L->blkx, -L->blky,
                                     rows - 1 - L->blky);
}

/* Lanes with computed = true in trip i. */
static uint32_t computed_mask(const lanes *L, int32_t i)
{
    int32_t lo = i + 1, hi = (int32_t)BS - i - 2;
    return L->exist & box_mask(L->warp, lo > L->vx0 ? lo : L->vx0, hi < L->vx1 ? hi : L->vx1,
                               lo > L->vy0 ? lo : L->vy0, hi < L->vy1 ? hi : L->vy1);
}

/* Global address of grid point (blkY + ty, blkX + tx) in array base. */
static void grid_addr(gm_inst *in, uint64_t base, const lanes *L)
{
    int64_t row0 = L->cols * (L->blky + 2 * (int64_t)L->warp) + L->blkx;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t idx = row0 + (l < BS ? 0 : L->cols) + l % BS;
        in->addr[l] = (in->mask >> l & 1) ? base + (uint64_t)(4 * idx) : 0;
    }
}

/* Which element of a 16x16 shared array a stencil operand reads. */
enum { AT_SELF, AT_S, AT_N, AT_E, AT_W };

static void shared(gm_inst *in, uint32_t base, const lanes *L, int at)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int32_t tx = (int32_t)(l % BS), ty = 2 * (int32_t)L->warp + (int32_t)(l / BS);
        int32_t r = ty, c = tx;
        switch (at) {   /* N = max(ty-1, validYmin), S = min(ty+1, validYmax), ... */
        case AT_S: r = ty + 1 > L->vy1 ? L->vy1 : ty + 1; break;
        case AT_N: r = ty - 1 < L->vy0 ? L->vy0 : ty - 1; break;
        case AT_E: c = tx + 1 > L->vx1 ? L->vx1 : tx + 1; break;
        case AT_W: c = tx - 1 < L->vx0 ? L->vx0 : tx - 1; break;
        default: break;
        }
        in->addr[l] = (in->mask >> l & 1) ? base + 4 * (uint64_t)(r * (int32_t)BS + c) : 0;
    }
}

static int hotspot_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_hotspot_params *p = kern->params;
    lanes L;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    lanes_compute(kern, p, g, &L);
    uint32_t e = L.exist, r = L.inrange;
    int32_t it = (int32_t)p->iteration;
    int32_t i = (int32_t)g->v[0];   /* loop trip; 0 until the loop starts */
    uint32_t c = computed_mask(&L, i);

    while (n < max) {
        gm_inst *in = &out[n++];
        switch (g->pc) {
        case PC_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_TY: gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case PC_BLKY:   gm_emit(in, GM_OP_ALU, e, R_BLKY, R_BY, R_NONE, R_NONE); break;
        case PC_BLKX:   gm_emit(in, GM_OP_ALU, e, R_BLKX, R_BX, R_NONE, R_NONE); break;
        case PC_Y:      gm_emit(in, GM_OP_ALU, e, R_Y, R_BLKY, R_TY, R_NONE); break;
        case PC_X:      gm_emit(in, GM_OP_ALU, e, R_X, R_BLKX, R_TX, R_NONE); break;
        case PC_IDX:    gm_emit(in, GM_OP_ALU, e, R_IDX, R_Y, R_X, R_NONE); break;
        case PC_GUARD:  gm_emit(in, GM_OP_ALU, e, R_P, R_Y, R_X, R_NONE); break;
        case PC_GUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = r ? PC_GADDR : PC_BAR0;
            continue;
        case PC_GADDR:  gm_emit(in, GM_OP_ALU, r, R_GA, R_IDX, R_NONE, R_NONE); break;
        case PC_LD_T:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, r, R_T, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            grid_addr(in, p->src, &L);
            break;
        case PC_LD_P:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, r, R_PW, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            grid_addr(in, p->power, &L);
            break;
        case PC_SADDR:  gm_emit(in, GM_OP_ALU, r, R_SA, R_TY, R_TX, R_NONE); break;
        case PC_STS_T:
            gm_emit_mem(in, GM_OP_SHARED_ST, r, R_NONE, R_SA, R_T, 4, 0);
            shared(in, SH_TEMP, &L, AT_SELF);
            break;
        case PC_STS_P:
            gm_emit_mem(in, GM_OP_SHARED_ST, r, R_NONE, R_SA, R_PW, 4, 0);
            shared(in, SH_POWER, &L, AT_SELF);
            break;
        case PC_BAR0:   gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_VY0:    gm_emit(in, GM_OP_ALU, e, R_VY0, R_BLKY, R_NONE, R_NONE); break;
        case PC_VY1:    gm_emit(in, GM_OP_ALU, e, R_VY1, R_BLKY, R_NONE, R_NONE); break;
        case PC_VX0:    gm_emit(in, GM_OP_ALU, e, R_VX0, R_BLKX, R_NONE, R_NONE); break;
        case PC_VX1:    gm_emit(in, GM_OP_ALU, e, R_VX1, R_BLKX, R_NONE, R_NONE); break;
        case PC_N:      gm_emit(in, GM_OP_ALU, e, R_N, R_TY, R_VY0, R_NONE); break;
        case PC_S:      gm_emit(in, GM_OP_ALU, e, R_S, R_TY, R_VY1, R_NONE); break;
        case PC_W:      gm_emit(in, GM_OP_ALU, e, R_W, R_TX, R_VX0, R_NONE); break;
        case PC_E:      gm_emit(in, GM_OP_ALU, e, R_E, R_TX, R_VX1, R_NONE); break;
        case PC_I0:     gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE); break;
        case PC_C_SETP: gm_emit(in, GM_OP_ALU, e, R_PC, R_TX, R_TY, R_I); break;
        case PC_C_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_PC, R_NONE, R_NONE);
            g->pc = c ? PC_LDS_C : PC_BAR1;
            continue;
        case PC_LDS_C:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_C, R_SA, R_NONE, 4, 0);
            shared(in, SH_TEMP, &L, AT_SELF);
            break;
        case PC_LDS_P:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_PS, R_SA, R_NONE, 4, 0);
            shared(in, SH_POWER, &L, AT_SELF);
            break;
        case PC_LDS_S:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_TS, R_S, R_NONE, 4, 0);
            shared(in, SH_TEMP, &L, AT_S);
            break;
        case PC_LDS_N:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_TN, R_N, R_NONE, 4, 0);
            shared(in, SH_TEMP, &L, AT_N);
            break;
        case PC_LDS_E:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_TE, R_E, R_NONE, 4, 0);
            shared(in, SH_TEMP, &L, AT_E);
            break;
        case PC_LDS_W:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_TW, R_W, R_NONE, 4, 0);
            shared(in, SH_TEMP, &L, AT_W);
            break;
        /* temp_t = c + step/Cap * (power + (S + N - 2c)*Ry_1 + (E + W - 2c)*Rx_1
         *                          + (amb - c)*Rz_1) */
        case PC_F0: gm_emit(in, GM_OP_ALU, c, R_A, R_TS, R_TN, R_NONE); break;
        case PC_F1: gm_emit(in, GM_OP_ALU, c, R_A, R_A, R_C, R_NONE); break;
        case PC_F2: gm_emit(in, GM_OP_ALU, c, R_B, R_TE, R_TW, R_NONE); break;
        case PC_F3: gm_emit(in, GM_OP_ALU, c, R_B, R_B, R_C, R_NONE); break;
        case PC_F4: gm_emit(in, GM_OP_ALU, c, R_A, R_A, R_PS, R_NONE); break;
        case PC_F5: gm_emit(in, GM_OP_ALU, c, R_A, R_B, R_A, R_NONE); break;
        case PC_F6: gm_emit(in, GM_OP_ALU, c, R_D, R_C, R_NONE, R_NONE); break;
        case PC_F7: gm_emit(in, GM_OP_ALU, c, R_A, R_D, R_A, R_NONE); break;
        case PC_F8: gm_emit(in, GM_OP_ALU, c, R_A, R_A, R_C, R_NONE); break;
        case PC_STS_TT:
            gm_emit_mem(in, GM_OP_SHARED_ST, c, R_NONE, R_SA, R_A, 4, 0);
            shared(in, SH_TT, &L, AT_SELF);
            break;
        case PC_BAR1:   gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_LAST_SETP: gm_emit(in, GM_OP_ALU, e, R_PL, R_I, R_NONE, R_NONE); break;
        case PC_LAST_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_PL, R_NONE, R_NONE);
            g->pc = i == it - 1 ? PC_FIN_BRA : c ? PC_LDS_TT : PC_BAR2;
            continue;
        case PC_LDS_TT:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_TT, R_SA, R_NONE, 4, 0);
            shared(in, SH_TT, &L, AT_SELF);
            break;
        case PC_STS_TC:
            gm_emit_mem(in, GM_OP_SHARED_ST, c, R_NONE, R_SA, R_TT, 4, 0);
            shared(in, SH_TEMP, &L, AT_SELF);
            break;
        case PC_BAR2:   gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_INC:    gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case PC_LOOP_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_I, R_NONE, R_NONE);
            g->v[0] = ++i;
            c = computed_mask(&L, i);
            g->pc = PC_C_SETP;
            continue;
        case PC_FIN_BRA:   /* `computed` of the last trip is still in R_PC */
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_PC, R_NONE, R_NONE);
            g->pc = c ? PC_LDS_FIN : PC_EXIT;
            continue;
        case PC_LDS_FIN:
            gm_emit_mem(in, GM_OP_SHARED_LD, c, R_TT, R_SA, R_NONE, 4, 0);
            shared(in, SH_TT, &L, AT_SELF);
            break;
        case PC_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, c, R_NONE, R_GA, R_TT, 4, 0);
            grid_addr(in, p->dst, &L);
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

int gm_hotspot_build_dims(gm_workload *w, uint32_t nn, uint32_t pyramid,
                          uint32_t total_iterations, gm_error *err)
{
    /* pyramid >= 8 leaves no small block; the index math is in int */
    if (!nn || !pyramid || pyramid > 7 || !total_iterations || total_iterations > 4096 ||
        (uint64_t)nn * nn > INT32_MAX / 2)
        return gm_fail(err, "hotspot: bad size n=%u pyramid=%u iterations=%u", nn,
                       pyramid, total_iterations);
    uint32_t launches = (total_iterations + pyramid - 1) / pyramid;
    if (gm_workload_alloc(w, "hotspot", launches, launches * sizeof(gm_hotspot_params),
                          err))
        return -1;

    gm_hotspot_params *lp = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t temp0 = gm_devmem_alloc(&mem, 4ull * nn * nn);
    uint64_t temp1 = gm_devmem_alloc(&mem, 4ull * nn * nn);
    uint64_t power = gm_devmem_alloc(&mem, 4ull * nn * nn);
    uint32_t small = BS - 2 * pyramid;
    uint32_t blocks = nn / small + (nn % small ? 1 : 0);
    int src = 1, dst = 0;
    for (uint32_t l = 0; l < launches; l++) {
        int t = src;   /* the host loop swaps before every launch */
        src = dst;
        dst = t;
        gm_hotspot_params *p = &lp[l];
        uint32_t done = l * pyramid;
        p->rows = p->cols = nn;
        p->pyramid = pyramid;
        p->iteration = total_iterations - done < pyramid ? total_iterations - done : pyramid;
        p->temp0 = temp0;
        p->temp1 = temp1;
        p->power = power;
        p->src = src ? temp1 : temp0;
        p->dst = dst ? temp1 : temp0;
        gm_kernel_set(&w->kernels[l], "calculate_temp", gm_dim3_make(blocks, blocks, 1),
                      gm_dim3_make(BS, BS, 1), p, hotspot_gen);
    }
    return 0;
}

int gm_hotspot_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: `hotspot 512 2 2 temp_512 power_512 out` (one launch) */
    static const uint32_t n[] = {128, 256, 512, 256};
    static const uint32_t iters[] = {2, 4, 2, 4};

    (void)seed;   /* temperatures and powers are values only */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "hotspot: bad size %d", (int)size);
    return gm_hotspot_build_dims(w, n[size], 2, iters[size], err);
}
