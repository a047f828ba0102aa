/* Rodinia 3.1 srad_v2 (gpu-app-collection src/cuda/rodinia/3.1/cuda/srad/
 * srad_v2/{srad.cu,srad_kernel.cu}) as an address-stream emulator.
 *
 * Host: for (iter = 0; iter < niter; iter++) { srad_cuda_1; srad_cuda_2; }
 * with grid (cols/16, rows/16), block (16,16). Warp w holds rows ty = 2w,
 * 2w+1 of the tile. With base = cols*16*by + 16*bx:
 *   index   = base + cols*ty + tx          index_n = base + tx - cols
 *   index_s = base + cols*16 + tx          index_w = base + cols*ty - 1
 *   index_e = base + cols*ty + 16
 *
 * srad_cuda_1:
 *   north[ty][tx] = J[index_n];  south[ty][tx] = J[index_s];
 *   if (by == 0) north[ty][tx] = J[16*bx + tx];
 *   else if (by == gridDim.y-1)
 *       south[ty][tx] = J[cols*16*(gridDim.y-1) + 16*bx + cols*15 + tx];
 *   __syncthreads();
 *   west[ty][tx] = J[index_w];  east[ty][tx] = J[index_e];
 *   if (bx == 0) west[ty][tx] = J[cols*16*by + cols*ty];
 *   else if (bx == gridDim.x-1)
 *       east[ty][tx] = J[cols*16*by + 16*(gridDim.x-1) + cols*ty + 15];
 *   __syncthreads();  temp[ty][tx] = J[index];  __syncthreads();
 *   jc = temp[ty][tx];  n, s, w, e from north/south/west/east/temp by position
 *   (nine cases: nw, ne, se, sw, n, e, s, w, interior), c = f(n, s, w, e, jc);
 *   temp_result[ty][tx] = clamp(c);  __syncthreads();
 *   C[index] = temp_result[ty][tx];
 *   E_C[index] = e; W_C[index] = w; S_C[index] = s; N_C[index] = n;
 *
 * The unclamped edge loads execute before their clamped replacements, so
 * the tile edges of the image read outside J, exactly where the CUDA code
 * points (all reproduced here, see docs/workloads/rodinia.md):
 *   by == 0:            J[index_n]: the row before J (index -cols + 16*bx + tx)
 *   bx == 0, by == 0:   J[index_w] for ty == 0: J[-1]
 *   by == last:         J[index_s]: the row after J (index rows*cols + 16*bx + tx)
 *   bx == last, by == last: J[index_e] for ty == 15: J[rows*cols]
 * and in srad_cuda_2 the same for C[index_s] and C[index_e].
 *
 * srad_cuda_2:
 *   temp[ty][tx] = J[index];  __syncthreads();
 *   south_c[ty][tx] = C[index_s];  if (by == last) south_c[ty][tx] = C[clamped];
 *   __syncthreads();
 *   east_c[ty][tx] = C[index_e];  if (bx == last) east_c[ty][tx] = C[clamped];
 *   __syncthreads();  c_cuda_temp[ty][tx] = C[index];  __syncthreads();
 *   cc = c_cuda_temp[ty][tx];  cs, ce by position (se, e, s, interior)
 *   d_sum = cc*N_C[index] + cs*S_C[index] + cc*W_C[index] + ce*E_C[index];
 *   c_cuda_result[ty][tx] = temp[ty][tx] + 0.25*lambda*d_sum;  __syncthreads();
 *   J[index] = c_cuda_result[ty][tx];
 *
 * The double-precision literals (0.5, 1.0/16.0, .25, 1.0, 0.25) make parts
 * of the arithmetic DP. The saturation of c is a select, not a branch (it
 * depends on data). Shared memory, declaration order: kernel 1 temp 0,
 * temp_result 1024, north 2048, south 3072, east 4096, west 5120; kernel 2
 * south_c 0, east_c 1024, c_cuda_temp 2048, c_cuda_result 3072, temp 4096.
 * Read-only: J in kernel 1; C, N_C, S_C, W_C, E_C in kernel 2. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define BS 16u

enum {   /* registers */
    R_TX, R_TY, R_BX, R_BY, R_BASE, R_INDEX, R_IN, R_IS, R_IW, R_IE, R_SA, R_GI, R_GA,
    R_P, R_VN, R_VS, R_VW, R_VE, R_VC, R_JC, R_N, R_S, R_W, R_E,
    R_G2, R_J2, R_L, R_RJ, R_NUM, R_LL, R_DEN, R_Q, R_T, R_CC, R_CR,
    R_VJ, R_CS, R_CE, R_XN, R_XS, R_XW, R_XE, R_D, R_TMP, R_U, R_R
};

/* Sources of the stencil values in shared memory. */
enum { S_NORTH, S_SOUTH, S_EAST, S_WEST, S_UP, S_DOWN, S_LEFT, S_RIGHT };

/* Kernel 1 cases in the order of the if/else chain: nw, ne, se, sw, n, e,
 * s, w, interior; the sources of n, s, w, e in each. */
static const uint8_t k1_src[9][4] = {
    {S_NORTH, S_DOWN, S_WEST, S_RIGHT},   /* nw */
    {S_NORTH, S_DOWN, S_LEFT, S_EAST},    /* ne */
    {S_UP, S_SOUTH, S_LEFT, S_EAST},      /* se */
    {S_UP, S_SOUTH, S_WEST, S_RIGHT},     /* sw */
    {S_NORTH, S_DOWN, S_LEFT, S_RIGHT},   /* n */
    {S_UP, S_DOWN, S_LEFT, S_EAST},       /* e */
    {S_UP, S_SOUTH, S_LEFT, S_RIGHT},     /* s */
    {S_UP, S_DOWN, S_WEST, S_RIGHT},      /* w */
    {S_UP, S_DOWN, S_LEFT, S_RIGHT},      /* interior */
};

/* Kernel 2 cases: se, e, s, interior; the sources of cs and ce. */
static const uint8_t k2_src[4][2] = {
    {S_SOUTH, S_EAST}, {S_DOWN, S_EAST}, {S_SOUTH, S_RIGHT}, {S_DOWN, S_RIGHT},
};

/* Byte offsets of north/south/east/west/temp in each kernel's shared memory. */
static const uint32_t k1_off[4] = {2048, 3072, 4096, 5120};
#define K1_TEMP 0u
#define K1_RESULT 1024u
static const uint32_t k2_off[4] = {0, 0, 1024, 0};   /* south_c, -, east_c, - */
#define K2_CTEMP 2048u
#define K2_RESULT 3072u
#define K2_TEMP 4096u

enum {   /* kernel 1 program points */
    A_S2R_TX = 0, A_S2R_TY, A_S2R_BX, A_S2R_BY, A_BASE, A_INDEX, A_IN, A_IS, A_IW, A_IE, A_SA,
    A_GI,
    A_LD_N, A_LD_S, A_STS_N, A_STS_S,
    A_SETP_B0, A_BRA_B0, A_ADDR_CN, A_LD_CN, A_STS_CN,
    A_SETP_BL, A_BRA_BL, A_ADDR_CS, A_LD_CS, A_STS_CS,
    A_BAR1,
    A_LD_W, A_LD_E, A_STS_W, A_STS_E,
    A_SETP_X0, A_BRA_X0, A_ADDR_CW, A_LD_CW, A_STS_CW,
    A_SETP_XL, A_BRA_XL, A_ADDR_CE, A_LD_CE, A_STS_CE,
    A_BAR2, A_LD_C, A_STS_C, A_BAR3, A_LDS_JC,
    A_CASE_SETP, A_CASE_BRA,
    A_LDS_0, A_F_0, A_LDS_1, A_F_1, A_LDS_2, A_F_2, A_LDS_3, A_F_3, A_CASE_JOIN,
    A_M0, A_M1, A_M2, A_M3, A_M4, A_M5, A_M6, A_M7, A_M8, A_M9, A_M10, A_M11, A_M12,
    A_M13, A_M14, A_M15, A_M16, A_M17, A_M18, A_M19, A_M20, A_M21, A_M22, A_M23, A_M24,
    A_M25, A_M26, A_M27, A_M28,
    A_STS_TR, A_BAR4, A_LDS_TR, A_ST_C, A_ST_E, A_ST_W, A_ST_S, A_ST_N,
    A_EXIT, A_DONE
};

enum {   /* kernel 2 program points */
    B_S2R_TX = 0, B_S2R_TY, B_S2R_BX, B_S2R_BY, B_BASE, B_INDEX, B_IS, B_IE, B_SA, B_GI,
    B_LD_J, B_STS_J, B_BAR0,
    B_LD_S, B_STS_S, B_SETP_BL, B_BRA_BL, B_ADDR_CS, B_LD_CS, B_STS_CS, B_BAR1,
    B_LD_E, B_STS_E, B_SETP_XL, B_BRA_XL, B_ADDR_CE, B_LD_CE, B_STS_CE, B_BAR2,
    B_LD_C, B_STS_C, B_BAR3, B_LDS_CC,
    B_CASE_SETP, B_CASE_BRA, B_LDS_CS, B_LDS_CE, B_CASE_JOIN,
    B_LD_NC, B_LD_SC, B_LD_WC, B_LD_EC, B_D0, B_D1, B_D2, B_D3,
    B_LDS_T, B_U0, B_U1, B_U2, B_STS_R, B_BAR4, B_LDS_R, B_ST_J,
    B_EXIT, B_DONE
};

/* Every srad index is c0 + cy*ty + cx*tx for the lane's (tx, ty). */
typedef struct lin {
    int64_t c0, cy, cx;
} lin;

typedef struct lanes {
    uint32_t bx, by, gx, gy, warp;
    lin index, in, is, iw, ie;   /* the kernel's indices */
    lin cn, cs, cw, ce;          /* the clamped edge loads */
    lin sh;                      /* ty*16 + tx */
} lanes;

static lin lin_make(int64_t c0, int64_t cy, int64_t cx)
{
    lin x = {c0, cy, cx};
    return x;
}

static void lanes_compute(const gm_kernel *k, const gm_srad_params *p,
                          const gm_warp_gen *g, lanes *L)
{
    int64_t cols = p->cols;
    L->warp = g->warp;
    L->gx = k->grid.x;
    L->gy = k->grid.y;
    L->bx = g->cta % k->grid.x;
    L->by = g->cta / k->grid.x;
    int64_t bx = L->bx, by = L->by, gx = L->gx, gy = L->gy;
    int64_t base = cols * BS * by + BS * bx;
    L->index = lin_make(base, cols, 1);
    L->in = lin_make(base - cols, 0, 1);
    L->is = lin_make(base + cols * BS, 0, 1);
    L->iw = lin_make(base - 1, cols, 0);
    L->ie = lin_make(base + BS, cols, 0);
    L->cn = lin_make(BS * bx, 0, 1);
    L->cs = lin_make(cols * BS * (gy - 1) + BS * bx + cols * (BS - 1), 0, 1);
    L->cw = lin_make(cols * BS * by, cols, 0);
    L->ce = lin_make(cols * BS * by + BS * (gx - 1) + BS - 1, cols, 0);
    L->sh = lin_make(0, BS, 1);
}

/* Byte addresses base + 4*x for the active lanes (warp w: ty = 2w, 2w+1). */
static void lin_addr(gm_inst *in, uint64_t base, lin x, uint32_t warp)
{
    int64_t row0 = x.c0 + x.cy * 2 * (int64_t)warp, row1 = row0 + x.cy;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t idx = (l < BS ? row0 : row1) + x.cx * (int64_t)(l % BS);
        in->addr[l] = (in->mask >> l & 1) ? base + (uint64_t)(4 * idx) : 0;
    }
}

#define TX_FIRST 0x00010001u   /* lanes with tx == 0 */
#define TX_LAST 0x80008000u    /* lanes with tx == 15 */

/* Lanes of the warp in tile row ty. */
static uint32_t row_lanes(uint32_t warp, uint32_t ty)
{
    return ty == 2 * warp ? 0x0000ffffu : ty == 2 * warp + 1 ? 0xffff0000u : 0;
}

/* Lanes of case k of kernel 1 (before earlier cases are removed). */
static uint32_t k1_case(const lanes *L, uint32_t k)
{
    uint32_t top = row_lanes(L->warp, 0), bottom = row_lanes(L->warp, BS - 1);
    switch (k) {
    case 0: return top & TX_FIRST;      /* nw */
    case 1: return top & TX_LAST;       /* ne */
    case 2: return bottom & TX_LAST;    /* se */
    case 3: return bottom & TX_FIRST;   /* sw */
    case 4: return top;                 /* n */
    case 5: return TX_LAST;             /* e */
    case 6: return bottom;              /* s */
    case 7: return TX_FIRST;            /* w */
    default: return 0xffffffffu;        /* interior */
    }
}

static uint32_t k2_case(const lanes *L, uint32_t k)
{
    uint32_t bottom = row_lanes(L->warp, BS - 1);
    return k == 0 ? bottom & TX_LAST : k == 1 ? TX_LAST : k == 2 ? bottom : 0xffffffffu;
}

/* Lanes of the current case of the chain: the tested ones, or all that are
 * left for the last (untested) case. */
static uint32_t k1_sel(const lanes *L, uint32_t k, uint32_t rem)
{
    return k < 8 ? rem & k1_case(L, k) : rem;
}

static uint32_t k2_sel(const lanes *L, uint32_t k, uint32_t rem)
{
    return k < 3 ? rem & k2_case(L, k) : rem;
}

/* Shared byte address of source s for every lane: a neighbour in temp or
 * the lane's own element of north/south/east/west. */
static void stencil_addr(gm_inst *in, const lanes *L, uint32_t s, const uint32_t *off,
                         uint32_t temp)
{
    static const int64_t delta[8] = {0, 0, 0, 0, -(int64_t)BS, BS, -1, 1};
    uint32_t base = s >= S_UP ? temp : off[s];
    lin_addr(in, base, lin_make(delta[s], BS, 1), L->warp);
}

/* Where the if/else chain goes after case k leaves rem lanes undecided:
 * the next test, the last (untested) case, or past the chain. */
static void chain_next(gm_warp_gen *g, uint32_t rem, uint32_t last, uint32_t test,
                       uint32_t body, uint32_t after)
{
    g->v[1] = rem;
    g->v[0]++;
    if (!rem)
        g->pc = after;
    else if ((uint32_t)g->v[0] == last)
        g->pc = body;
    else
        g->pc = test;
}

static int srad1_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_srad_params *p = kern->params;
    lanes L;
    int n = 0;

    if (g->pc == A_DONE)
        return 0;
    lanes_compute(kern, p, g, &L);
    uint32_t e = gm_warp_exist_mask(BS * BS, g->warp);
    uint64_t J = p->j;

    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t k = (uint32_t)g->v[0], rem = (uint32_t)g->v[1];
        switch (g->pc) {
        case A_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case A_S2R_TY: gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case A_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case A_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case A_BASE:   gm_emit(in, GM_OP_ALU, e, R_BASE, R_BX, R_BY, R_NONE); break;
        case A_INDEX:  gm_emit(in, GM_OP_ALU, e, R_INDEX, R_BASE, R_TY, R_TX); break;
        case A_IN:     gm_emit(in, GM_OP_ALU, e, R_IN, R_BASE, R_TX, R_NONE); break;
        case A_IS:     gm_emit(in, GM_OP_ALU, e, R_IS, R_BASE, R_TX, R_NONE); break;
        case A_IW:     gm_emit(in, GM_OP_ALU, e, R_IW, R_BASE, R_TY, R_NONE); break;
        case A_IE:     gm_emit(in, GM_OP_ALU, e, R_IE, R_BASE, R_TY, R_NONE); break;
        case A_SA:     gm_emit(in, GM_OP_ALU, e, R_SA, R_TY, R_TX, R_NONE); break;
        case A_GI:     gm_emit(in, GM_OP_ALU, e, R_GI, R_INDEX, R_NONE, R_NONE); break;
        case A_LD_N:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VN, R_IN, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.in, L.warp);
            break;
        case A_LD_S:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VS, R_IS, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.is, L.warp);
            break;
        case A_STS_N:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VN, 4, 0);
            stencil_addr(in, &L, S_NORTH, k1_off, K1_TEMP);
            break;
        case A_STS_S:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VS, 4, 0);
            stencil_addr(in, &L, S_SOUTH, k1_off, K1_TEMP);
            break;
        case A_SETP_B0: gm_emit(in, GM_OP_ALU, e, R_P, R_BY, R_NONE, R_NONE); break;
        case A_BRA_B0:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = L.by == 0 ? A_ADDR_CN : A_SETP_BL;
            continue;
        case A_ADDR_CN: gm_emit(in, GM_OP_ALU, e, R_GA, R_BX, R_TX, R_NONE); break;
        case A_LD_CN:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VN, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.cn, L.warp);
            break;
        case A_STS_CN:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VN, 4, 0);
            stencil_addr(in, &L, S_NORTH, k1_off, K1_TEMP);
            g->pc = A_BAR1;
            continue;
        case A_SETP_BL: gm_emit(in, GM_OP_ALU, e, R_P, R_BY, R_NONE, R_NONE); break;
        case A_BRA_BL:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = L.by == L.gy - 1 ? A_ADDR_CS : A_BAR1;
            continue;
        case A_ADDR_CS: gm_emit(in, GM_OP_ALU, e, R_GA, R_BX, R_TX, R_NONE); break;
        case A_LD_CS:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VS, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.cs, L.warp);
            break;
        case A_STS_CS:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VS, 4, 0);
            stencil_addr(in, &L, S_SOUTH, k1_off, K1_TEMP);
            break;
        case A_BAR1:
        case A_BAR2:
        case A_BAR3:
        case A_BAR4:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        case A_LD_W:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VW, R_IW, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.iw, L.warp);
            break;
        case A_LD_E:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VE, R_IE, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.ie, L.warp);
            break;
        case A_STS_W:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VW, 4, 0);
            stencil_addr(in, &L, S_WEST, k1_off, K1_TEMP);
            break;
        case A_STS_E:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VE, 4, 0);
            stencil_addr(in, &L, S_EAST, k1_off, K1_TEMP);
            break;
        case A_SETP_X0: gm_emit(in, GM_OP_ALU, e, R_P, R_BX, R_NONE, R_NONE); break;
        case A_BRA_X0:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = L.bx == 0 ? A_ADDR_CW : A_SETP_XL;
            continue;
        case A_ADDR_CW: gm_emit(in, GM_OP_ALU, e, R_GA, R_BY, R_TY, R_NONE); break;
        case A_LD_CW:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VW, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.cw, L.warp);
            break;
        case A_STS_CW:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VW, 4, 0);
            stencil_addr(in, &L, S_WEST, k1_off, K1_TEMP);
            g->pc = A_BAR2;
            continue;
        case A_SETP_XL: gm_emit(in, GM_OP_ALU, e, R_P, R_BX, R_NONE, R_NONE); break;
        case A_BRA_XL:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = L.bx == L.gx - 1 ? A_ADDR_CE : A_BAR2;
            continue;
        case A_ADDR_CE: gm_emit(in, GM_OP_ALU, e, R_GA, R_BY, R_TY, R_NONE); break;
        case A_LD_CE:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VE, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.ce, L.warp);
            break;
        case A_STS_CE:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VE, 4, 0);
            stencil_addr(in, &L, S_EAST, k1_off, K1_TEMP);
            break;
        case A_LD_C:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VC, R_GI, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, J, L.index, L.warp);
            break;
        case A_STS_C:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VC, 4, 0);
            lin_addr(in, K1_TEMP, L.sh, L.warp);
            break;
        case A_LDS_JC:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_JC, R_SA, R_NONE, 4, 0);
            lin_addr(in, K1_TEMP, L.sh, L.warp);
            g->v[0] = 0;
            g->v[1] = e;
            break;
        case A_CASE_SETP: gm_emit(in, GM_OP_ALU, rem, R_P, R_TX, R_TY, R_NONE); break;
        case A_CASE_BRA:
            gm_emit(in, GM_OP_BRANCH, rem, R_NONE, R_P, R_NONE, R_NONE);
            if (k1_sel(&L, k, rem))
                g->pc = A_LDS_0;
            else
                chain_next(g, rem, 8, A_CASE_SETP, A_LDS_0, A_M0);
            continue;
        case A_LDS_0: case A_LDS_1: case A_LDS_2: case A_LDS_3: {
            uint32_t d = (g->pc - A_LDS_0) / 2;   /* n, s, w, e */
            gm_emit_mem(in, GM_OP_SHARED_LD, k1_sel(&L, k, rem), (uint8_t)(R_N + d), R_SA,
                        R_NONE, 4, 0);
            stencil_addr(in, &L, k1_src[k][d], k1_off, K1_TEMP);
            break;
        }
        case A_F_0: case A_F_1: case A_F_2: case A_F_3: {
            uint8_t r = (uint8_t)(R_N + (g->pc - A_F_0) / 2);
            gm_emit(in, GM_OP_ALU, k1_sel(&L, k, rem), r, r, R_JC, R_NONE);   /* x - jc */
            if (g->pc == A_F_3 && k == 8) {   /* the last case falls through */
                g->pc = A_M0;
                continue;
            }
            break;
        }
        case A_CASE_JOIN: {
            uint32_t sel = k1_sel(&L, k, rem);
            gm_emit(in, GM_OP_BRANCH, sel, R_NONE, R_NONE, R_NONE, R_NONE);
            chain_next(g, rem & ~sel, 8, A_CASE_SETP, A_LDS_0, A_M0);
            continue;
        }
        /* g2, l, num, den, qsqr, den, c (see the header comment) */
        case A_M0:  gm_emit(in, GM_OP_ALU, e, R_G2, R_N, R_NONE, R_NONE); break;
        case A_M1:  gm_emit(in, GM_OP_ALU, e, R_G2, R_S, R_G2, R_NONE); break;
        case A_M2:  gm_emit(in, GM_OP_ALU, e, R_G2, R_W, R_G2, R_NONE); break;
        case A_M3:  gm_emit(in, GM_OP_ALU, e, R_G2, R_E, R_G2, R_NONE); break;
        case A_M4:  gm_emit(in, GM_OP_ALU, e, R_J2, R_JC, R_NONE, R_NONE); break;
        case A_M5:  gm_emit(in, GM_OP_SFU, e, R_J2, R_J2, R_NONE, R_NONE); break;
        case A_M6:  gm_emit(in, GM_OP_ALU, e, R_G2, R_G2, R_J2, R_NONE); break;
        case A_M7:  gm_emit(in, GM_OP_ALU, e, R_L, R_N, R_S, R_NONE); break;
        case A_M8:  gm_emit(in, GM_OP_ALU, e, R_L, R_L, R_W, R_NONE); break;
        case A_M9:  gm_emit(in, GM_OP_ALU, e, R_L, R_L, R_E, R_NONE); break;
        case A_M10: gm_emit(in, GM_OP_SFU, e, R_RJ, R_JC, R_NONE, R_NONE); break;
        case A_M11: gm_emit(in, GM_OP_ALU, e, R_L, R_L, R_RJ, R_NONE); break;
        case A_M12: gm_emit(in, GM_OP_DP, e, R_NUM, R_G2, R_NONE, R_NONE); break;
        case A_M13: gm_emit(in, GM_OP_ALU, e, R_LL, R_L, R_NONE, R_NONE); break;
        case A_M14: gm_emit(in, GM_OP_DP, e, R_NUM, R_NUM, R_LL, R_NONE); break;
        case A_M15: gm_emit(in, GM_OP_DP, e, R_NUM, R_NUM, R_NONE, R_NONE); break;
        case A_M16: gm_emit(in, GM_OP_DP, e, R_DEN, R_L, R_NONE, R_NONE); break;
        case A_M17: gm_emit(in, GM_OP_DP, e, R_DEN, R_DEN, R_NONE, R_NONE); break;
        case A_M18: gm_emit(in, GM_OP_ALU, e, R_DEN, R_DEN, R_NONE, R_NONE); break;
        case A_M19: gm_emit(in, GM_OP_SFU, e, R_DEN, R_DEN, R_NONE, R_NONE); break;
        case A_M20: gm_emit(in, GM_OP_ALU, e, R_Q, R_NUM, R_DEN, R_NONE); break;
        case A_M21: gm_emit(in, GM_OP_ALU, e, R_Q, R_Q, R_NONE, R_NONE); break;
        case A_M22: gm_emit(in, GM_OP_ALU, e, R_T, R_NONE, R_NONE, R_NONE); break;
        case A_M23: gm_emit(in, GM_OP_SFU, e, R_T, R_T, R_NONE, R_NONE); break;
        case A_M24: gm_emit(in, GM_OP_ALU, e, R_Q, R_Q, R_T, R_NONE); break;
        case A_M25: gm_emit(in, GM_OP_DP, e, R_CC, R_Q, R_NONE, R_NONE); break;
        case A_M26: gm_emit(in, GM_OP_DP, e, R_CC, R_CC, R_NONE, R_NONE); break;
        case A_M27: gm_emit(in, GM_OP_DP, e, R_CC, R_CC, R_NONE, R_NONE); break;
        case A_M28: gm_emit(in, GM_OP_ALU, e, R_CC, R_CC, R_NONE, R_NONE); break;
        case A_STS_TR:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_CC, 4, 0);
            lin_addr(in, K1_RESULT, L.sh, L.warp);
            break;
        case A_LDS_TR:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_CR, R_SA, R_NONE, 4, 0);
            lin_addr(in, K1_RESULT, L.sh, L.warp);
            break;
        case A_ST_C: case A_ST_E: case A_ST_W: case A_ST_S: case A_ST_N: {
            static const uint8_t data[5] = {R_CR, R_E, R_W, R_S, R_N};
            uint32_t s = g->pc - A_ST_C;
            uint64_t base[5] = {p->c, p->e_c, p->w_c, p->s_c, p->n_c};
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_GI, data[s], 4, 0);
            lin_addr(in, base[s], L.index, L.warp);
            break;
        }
        case A_EXIT:
            return gm_gen_exit(g, in, e, A_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, A_DONE, n);
        }
        g->pc++;
    }
    return n;
}

static int srad2_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_srad_params *p = kern->params;
    lanes L;
    int n = 0;

    if (g->pc == B_DONE)
        return 0;
    lanes_compute(kern, p, g, &L);
    uint32_t e = gm_warp_exist_mask(BS * BS, g->warp);
    uint64_t C = p->c;

    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t k = (uint32_t)g->v[0], rem = (uint32_t)g->v[1];
        switch (g->pc) {
        case B_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case B_S2R_TY: gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case B_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case B_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case B_BASE:   gm_emit(in, GM_OP_ALU, e, R_BASE, R_BX, R_BY, R_NONE); break;
        case B_INDEX:  gm_emit(in, GM_OP_ALU, e, R_INDEX, R_BASE, R_TY, R_TX); break;
        case B_IS:     gm_emit(in, GM_OP_ALU, e, R_IS, R_BASE, R_TX, R_NONE); break;
        case B_IE:     gm_emit(in, GM_OP_ALU, e, R_IE, R_BASE, R_TY, R_NONE); break;
        case B_SA:     gm_emit(in, GM_OP_ALU, e, R_SA, R_TY, R_TX, R_NONE); break;
        case B_GI:     gm_emit(in, GM_OP_ALU, e, R_GI, R_INDEX, R_NONE, R_NONE); break;
        case B_LD_J:   /* J is stored at the end of this kernel */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VJ, R_GI, R_NONE, 4, 0);
            lin_addr(in, p->j, L.index, L.warp);
            break;
        case B_STS_J:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VJ, 4, 0);
            lin_addr(in, K2_TEMP, L.sh, L.warp);
            break;
        case B_BAR0: case B_BAR1: case B_BAR2: case B_BAR3: case B_BAR4:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        case B_LD_S:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VS, R_IS, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, C, L.is, L.warp);
            break;
        case B_STS_S:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VS, 4, 0);
            stencil_addr(in, &L, S_SOUTH, k2_off, K2_CTEMP);
            break;
        case B_SETP_BL: gm_emit(in, GM_OP_ALU, e, R_P, R_BY, R_NONE, R_NONE); break;
        case B_BRA_BL:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = L.by == L.gy - 1 ? B_ADDR_CS : B_BAR1;
            continue;
        case B_ADDR_CS: gm_emit(in, GM_OP_ALU, e, R_GA, R_BX, R_TX, R_NONE); break;
        case B_LD_CS:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VS, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, C, L.cs, L.warp);
            break;
        case B_STS_CS:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VS, 4, 0);
            stencil_addr(in, &L, S_SOUTH, k2_off, K2_CTEMP);
            break;
        case B_LD_E:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VE, R_IE, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, C, L.ie, L.warp);
            break;
        case B_STS_E:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VE, 4, 0);
            stencil_addr(in, &L, S_EAST, k2_off, K2_CTEMP);
            break;
        case B_SETP_XL: gm_emit(in, GM_OP_ALU, e, R_P, R_BX, R_NONE, R_NONE); break;
        case B_BRA_XL:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = L.bx == L.gx - 1 ? B_ADDR_CE : B_BAR2;
            continue;
        case B_ADDR_CE: gm_emit(in, GM_OP_ALU, e, R_GA, R_BY, R_TY, R_NONE); break;
        case B_LD_CE:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VE, R_GA, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, C, L.ce, L.warp);
            break;
        case B_STS_CE:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VE, 4, 0);
            stencil_addr(in, &L, S_EAST, k2_off, K2_CTEMP);
            break;
        case B_LD_C:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_VC, R_GI, R_NONE, 4, GM_INST_READ_ONLY);
            lin_addr(in, C, L.index, L.warp);
            break;
        case B_STS_C:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_VC, 4, 0);
            lin_addr(in, K2_CTEMP, L.sh, L.warp);
            break;
        case B_LDS_CC:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_CC, R_SA, R_NONE, 4, 0);
            lin_addr(in, K2_CTEMP, L.sh, L.warp);
            g->v[0] = 0;
            g->v[1] = e;
            break;
        case B_CASE_SETP: gm_emit(in, GM_OP_ALU, rem, R_P, R_TX, R_TY, R_NONE); break;
        case B_CASE_BRA:
            gm_emit(in, GM_OP_BRANCH, rem, R_NONE, R_P, R_NONE, R_NONE);
            if (k2_sel(&L, k, rem))
                g->pc = B_LDS_CS;
            else
                chain_next(g, rem, 3, B_CASE_SETP, B_LDS_CS, B_LD_NC);
            continue;
        case B_LDS_CS:
            gm_emit_mem(in, GM_OP_SHARED_LD, k2_sel(&L, k, rem), R_CS, R_SA, R_NONE, 4, 0);
            stencil_addr(in, &L, k2_src[k][0], k2_off, K2_CTEMP);
            break;
        case B_LDS_CE:
            gm_emit_mem(in, GM_OP_SHARED_LD, k2_sel(&L, k, rem), R_CE, R_SA, R_NONE, 4, 0);
            stencil_addr(in, &L, k2_src[k][1], k2_off, K2_CTEMP);
            if (k == 3) {   /* the last case falls through */
                g->pc = B_LD_NC;
                continue;
            }
            break;
        case B_CASE_JOIN: {
            uint32_t sel = k2_sel(&L, k, rem);
            gm_emit(in, GM_OP_BRANCH, sel, R_NONE, R_NONE, R_NONE, R_NONE);
            chain_next(g, rem & ~sel, 3, B_CASE_SETP, B_LDS_CS, B_LD_NC);
            continue;
        }
        case B_LD_NC: case B_LD_SC: case B_LD_WC: case B_LD_EC: {
            uint32_t s = g->pc - B_LD_NC;
            uint64_t base[4] = {p->n_c, p->s_c, p->w_c, p->e_c};
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, (uint8_t)(R_XN + s), R_GI, R_NONE, 4,
                        GM_INST_READ_ONLY);
            lin_addr(in, base[s], L.index, L.warp);
            break;
        }
        case B_D0: gm_emit(in, GM_OP_ALU, e, R_D, R_CC, R_XN, R_NONE); break;
        case B_D1: gm_emit(in, GM_OP_ALU, e, R_D, R_CS, R_XS, R_D); break;
        case B_D2: gm_emit(in, GM_OP_ALU, e, R_D, R_CC, R_XW, R_D); break;
        case B_D3: gm_emit(in, GM_OP_ALU, e, R_D, R_CE, R_XE, R_D); break;
        case B_LDS_T:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_TMP, R_SA, R_NONE, 4, 0);
            lin_addr(in, K2_TEMP, L.sh, L.warp);
            break;
        case B_U0: gm_emit(in, GM_OP_DP, e, R_U, R_D, R_NONE, R_NONE); break;
        case B_U1: gm_emit(in, GM_OP_DP, e, R_U, R_TMP, R_U, R_NONE); break;
        case B_U2: gm_emit(in, GM_OP_DP, e, R_U, R_U, R_NONE, R_NONE); break;
        case B_STS_R:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_U, 4, 0);
            lin_addr(in, K2_RESULT, L.sh, L.warp);
            break;
        case B_LDS_R:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_R, R_SA, R_NONE, 4, 0);
            lin_addr(in, K2_RESULT, L.sh, L.warp);
            break;
        case B_ST_J:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_GI, R_R, 4, 0);
            lin_addr(in, p->j, L.index, L.warp);
            break;
        case B_EXIT:
            return gm_gen_exit(g, in, e, B_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, B_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_srad_build_dims(gm_workload *w, uint32_t rows, uint32_t cols, uint32_t niter,
                       gm_error *err)
{
    if (!rows || !cols || rows % BS || cols % BS || (uint64_t)rows * cols > INT32_MAX / 2 ||
        !niter || niter > 4096)
        return gm_fail(err, "srad_v2: bad size %ux%u, %u iterations", rows, cols, niter);
    if (gm_workload_alloc(w, "srad_v2", 2 * niter, sizeof(gm_srad_params), err))
        return -1;

    gm_srad_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t bytes = 4ull * rows * cols;
    p->rows = rows;
    p->cols = cols;
    p->niter = niter;
    p->j = gm_devmem_alloc(&mem, bytes);
    p->c = gm_devmem_alloc(&mem, bytes);
    p->e_c = gm_devmem_alloc(&mem, bytes);
    p->w_c = gm_devmem_alloc(&mem, bytes);
    p->s_c = gm_devmem_alloc(&mem, bytes);
    p->n_c = gm_devmem_alloc(&mem, bytes);
    gm_dim3 grid = gm_dim3_make(cols / BS, rows / BS, 1), block = gm_dim3_make(BS, BS, 1);
    for (uint32_t i = 0; i < niter; i++) {
        gm_kernel_set(&w->kernels[2 * i], "srad_cuda_1", grid, block, p, srad1_gen);
        gm_kernel_set(&w->kernels[2 * i + 1], "srad_cuda_2", grid, block, p, srad2_gen);
    }
    return 0;
}

int gm_srad_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: `srad 2048 2048 0 127 0 127 0.5 2` */
    static const uint32_t dim[] = {128, 512, 2048, 512};
    static const uint32_t iters[] = {1, 2, 2, 2};

    (void)seed;   /* random_matrix gives values only */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "srad_v2: bad size %d", (int)size);
    return gm_srad_build_dims(w, dim[size], dim[size], iters[size], err);
}
