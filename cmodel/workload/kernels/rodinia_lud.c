/* Rodinia 3.1 LUD (gpu-app-collection src/cuda/rodinia/3.1/cuda/lud/cuda/
 * {lud.cu,lud_kernel.cu}) as an address-stream emulator. BLOCK_SIZE 16.
 *
 * Host (lud_cuda):
 *   for (i = 0; i < dim-16; i += 16) {
 *       lud_diagonal<<<1, 16>>>(m, dim, i);
 *       lud_perimeter<<<(dim-i)/16-1, 32>>>(m, dim, i);
 *       lud_internal<<<((dim-i)/16-1, (dim-i)/16-1), (16,16)>>>(m, dim, i);
 *   }
 *   lud_diagonal<<<1, 16>>>(m, dim, i);
 *
 * lud_diagonal (one warp of 16 lanes): loads the 16x16 diagonal tile row by
 * row (shadow[i][tx] = m[(off+i)*dim + off + tx]), factors it in shared
 * memory (for i < 15: lanes tx > i run shadow[tx][i] -= shadow[tx][j]*
 * shadow[j][i] for j < i, then shadow[tx][i] /= shadow[i][i]; barrier;
 * lanes tx > i run shadow[i+1][tx] -= shadow[i+1][j]*shadow[j][tx] for
 * j <= i; barrier) and stores rows 1..15 back.
 *
 * lud_perimeter (one warp, lanes 0-15 and 16-31 take different paths):
 * lanes 0-15 load dia rows 0-7 and the 16 rows of peri_row (the tile right
 * of the diagonal: m[(off+i)*dim + off + (bx+1)*16 + idx]); lanes 16-31 load
 * dia rows 8-15 and the 16 rows of peri_col (the tile below:
 * m[(off+(bx+1)*16+i)*dim + off + idx]); both solve in shared memory and
 * store their tile back (peri_row rows 1-15, peri_col rows 0-15).
 *
 * lud_internal (16x16 threads): peri_row[ty][tx] = m[(off+ty)*dim +
 * gcol + tx], peri_col[ty][tx] = m[(grow+ty)*dim + off + tx]; barrier;
 * sum over 16 products from shared memory; m[(grow+ty)*dim + gcol + tx] -=
 * sum, with grow = off + (by+1)*16 and gcol = off + (bx+1)*16.
 *
 * Rows are 16 floats (64 B, half a line). shadow/dia/peri_* are not
 * volatile, and the only store in a solve loop is to the element it
 * updates, so the compiler loads that element once before the loop and
 * forwards each stored value to the next trip (and to the division after
 * it): every `-=` trip is two shared loads, FFMA and the shared store
 * (what clang's NVPTX back end emits at -O3 for lud_diagonal and
 * lud_perimeter; docs/workloads.md, "Reloads of stored values"). m is
 * stored by every kernel: no read-only flag.
 * Shared memory: diagonal shadow at 0; perimeter dia 0, peri_row 1024,
 * peri_col 2048; internal peri_row 0, peri_col 1024. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define BS 16u

enum {   /* registers */
    R_TX, R_TY, R_BX, R_BY, R_OFF, R_PTR, R_SA, R_I, R_J, R_P, R_X, R_A, R_B, R_C,
    R_GROW, R_GCOL, R_AR, R_AC, R_PR, R_PCV, R_SUM, R_AM, R_M, R_IDX
};

/* ---------------------------------------------------------------- diagonal */

enum {
    D_S2R_TX = 0, D_OFF, D_PTR, D_SA, D_I0,
    D_LD, D_STS, D_INC_P, D_INC_I, D_SETP, D_BRA,
    D_BAR0, D_OI0,
    D_O1_SETP, D_O1_BRA, D_J1_GUARD, D_J1_GBRA, D_J1_LD_C,
    D_J1_LD_A, D_J1_LD_B, D_J1_FMA, D_J1_STS, D_J1_INC, D_J1_SETP, D_J1_BRA,
    D_DIV_LD_A, D_DIV_LD_B, D_DIV_RCP, D_DIV_MUL, D_DIV_STS,
    D_BAR1, D_O2_SETP, D_O2_BRA, D_J2_INIT, D_J2_LD_C,
    D_J2_LD_A, D_J2_LD_B, D_J2_FMA, D_J2_STS, D_J2_INC, D_J2_SETP, D_J2_BRA,
    D_BAR2, D_O_INC, D_O_SETP, D_O_BRA,
    D_ST_PTR, D_ST_I, D_ST_LDS, D_ST, D_ST_INC_P, D_ST_INC_I, D_ST_SETP, D_ST_BRA,
    D_EXIT, D_DONE
};

/* Shared byte address base + 4*(r*16 + c) per lane, where r or c may be the
 * lane's index in its 16-lane half (tx, or idx = tx - 16 in lud_perimeter). */
static void sh_rc(gm_inst *in, uint32_t base, int64_t r, int64_t c, int r_is_tx,
                  int c_is_tx)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t tx = (int64_t)(l % BS);
        int64_t rr = r_is_tx ? tx : r, cc = c_is_tx ? tx : c;
        in->addr[l] = (in->mask >> l & 1) ? base + 4 * (uint64_t)(rr * BS + cc) : 0;
    }
}

/* Global address m[row*dim + col0 + tx] per lane (tx = lane mod 16). */
static void m_row(gm_inst *in, const gm_lud_params *p, uint64_t row, uint64_t col0)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1)
                          ? p->m + 4 * (row * p->dim + col0 + l % BS) : 0;
}

static int diagonal_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_lud_params *p = kern->params;
    uint32_t e = gm_warp_exist_mask(BS, g->warp);
    uint64_t off = p->offset;
    int n = 0;

    if (g->pc == D_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        int64_t i = g->v[0], j = g->v[1];
        uint32_t a = e & ~((2u << i) - 1);   /* lanes with tx > i */
        switch (g->pc) {
        case D_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case D_OFF:    gm_emit(in, GM_OP_ALU, e, R_OFF, R_NONE, R_NONE, R_NONE); break;
        case D_PTR:    gm_emit(in, GM_OP_ALU, e, R_PTR, R_OFF, R_TX, R_NONE); break;
        case D_SA:     gm_emit(in, GM_OP_ALU, e, R_SA, R_TX, R_NONE, R_NONE); break;
        case D_I0:     gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE); break;
        case D_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_X, R_PTR, R_NONE, 4, 0);
            m_row(in, p, off + (uint64_t)i, off);
            break;
        case D_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA, R_X, 4, 0);
            sh_rc(in, 0, i, 0, 0, 1);
            break;
        case D_INC_P:  gm_emit(in, GM_OP_ALU, e, R_PTR, R_PTR, R_NONE, R_NONE); break;
        case D_INC_I:  gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case D_SETP:   gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case D_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i < BS ? i : 0;
            g->pc = i < BS ? D_LD : D_BAR0;
            continue;
        case D_BAR0:   gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case D_OI0:    gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE); break;
        case D_O1_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_I, R_NONE); break;
        case D_O1_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = a ? D_J1_GUARD : D_BAR1;
            continue;
        case D_J1_GUARD: gm_emit(in, GM_OP_ALU, a, R_J, R_I, R_NONE, R_NONE); break;
        case D_J1_GBRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_J, R_NONE, R_NONE);
            g->v[1] = 0;
            g->pc = i > 0 ? D_J1_LD_C : D_DIV_LD_A;
            continue;
        case D_J1_LD_C:   /* shadow[tx][i], once: the trips forward it */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_C, R_SA, R_I, 4, 0);
            sh_rc(in, 0, 0, i, 1, 0);
            break;
        case D_J1_LD_A:   /* shadow[tx][j] */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_A, R_SA, R_J, 4, 0);
            sh_rc(in, 0, 0, j, 1, 0);
            break;
        case D_J1_LD_B:   /* shadow[j][i] */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_B, R_J, R_I, 4, 0);
            sh_rc(in, 0, j, i, 0, 0);
            break;
        case D_J1_FMA:  gm_emit(in, GM_OP_ALU, a, R_C, R_C, R_A, R_B); break;
        case D_J1_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, a, R_NONE, R_SA, R_C, 4, 0);
            sh_rc(in, 0, 0, i, 1, 0);
            break;
        case D_J1_INC:  gm_emit(in, GM_OP_ALU, a, R_J, R_J, R_NONE, R_NONE); break;
        case D_J1_SETP: gm_emit(in, GM_OP_ALU, a, R_P, R_J, R_I, R_NONE); break;
        case D_J1_BRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = ++j;
            g->pc = j < i ? D_J1_LD_A : D_DIV_LD_B;   /* shadow[tx][i] is in R_C */
            continue;
        case D_DIV_LD_A:   /* shadow[tx][i], i == 0 only */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_C, R_SA, R_I, 4, 0);
            sh_rc(in, 0, 0, i, 1, 0);
            break;
        case D_DIV_LD_B:   /* shadow[i][i] */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_B, R_I, R_NONE, 4, 0);
            sh_rc(in, 0, i, i, 0, 0);
            break;
        case D_DIV_RCP: gm_emit(in, GM_OP_SFU, a, R_B, R_B, R_NONE, R_NONE); break;
        case D_DIV_MUL: gm_emit(in, GM_OP_ALU, a, R_C, R_C, R_B, R_NONE); break;
        case D_DIV_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, a, R_NONE, R_SA, R_C, 4, 0);
            sh_rc(in, 0, 0, i, 1, 0);
            break;
        case D_BAR1:
        case D_BAR2:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        case D_O2_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_I, R_NONE); break;
        case D_O2_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = 0;
            g->pc = a ? D_J2_INIT : D_BAR2;
            continue;
        case D_J2_INIT: gm_emit(in, GM_OP_ALU, a, R_J, R_NONE, R_NONE, R_NONE); break;
        case D_J2_LD_C:   /* shadow[i+1][tx], once */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_C, R_I, R_SA, 4, 0);
            sh_rc(in, 0, i + 1, 0, 0, 1);
            break;
        case D_J2_LD_A:   /* shadow[i+1][j] */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_A, R_I, R_J, 4, 0);
            sh_rc(in, 0, i + 1, j, 0, 0);
            break;
        case D_J2_LD_B:   /* shadow[j][tx] */
            gm_emit_mem(in, GM_OP_SHARED_LD, a, R_B, R_J, R_SA, 4, 0);
            sh_rc(in, 0, j, 0, 0, 1);
            break;
        case D_J2_FMA:  gm_emit(in, GM_OP_ALU, a, R_C, R_C, R_A, R_B); break;
        case D_J2_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, a, R_NONE, R_SA, R_C, 4, 0);
            sh_rc(in, 0, i + 1, 0, 0, 1);
            break;
        case D_J2_INC:  gm_emit(in, GM_OP_ALU, a, R_J, R_J, R_NONE, R_NONE); break;
        case D_J2_SETP: gm_emit(in, GM_OP_ALU, a, R_P, R_J, R_I, R_NONE); break;
        case D_J2_BRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = ++j;
            g->pc = j < i + 1 ? D_J2_LD_A : D_BAR2;
            continue;
        case D_O_INC:  gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case D_O_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case D_O_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS - 1 ? D_O1_SETP : D_ST_PTR;
            continue;
        case D_ST_PTR: gm_emit(in, GM_OP_ALU, e, R_PTR, R_OFF, R_TX, R_NONE); break;
        case D_ST_I:
            gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 1;
            break;
        case D_ST_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_X, R_SA, R_I, 4, 0);
            sh_rc(in, 0, i, 0, 0, 1);
            break;
        case D_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_PTR, R_X, 4, 0);
            m_row(in, p, off + (uint64_t)i, off);
            break;
        case D_ST_INC_P: gm_emit(in, GM_OP_ALU, e, R_PTR, R_PTR, R_NONE, R_NONE); break;
        case D_ST_INC_I: gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case D_ST_SETP:  gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case D_ST_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? D_ST_LDS : D_EXIT;
            continue;
        case D_EXIT:
            return gm_gen_exit(g, in, e, D_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, D_DONE, n);
        }
        g->pc++;
    }
    return n;
}

/* ---------------------------------------------------------------- perimeter */

#define PA 0x0000ffffu   /* lanes 0-15: dia rows 0-7, peri_row */
#define PB 0xffff0000u   /* lanes 16-31: dia rows 8-15, peri_col */
#define SH_DIA 0u
#define SH_ROW 1024u
#define SH_COL 2048u

enum {
    P_S2R_TX = 0, P_S2R_BX, P_SETP0, P_BRA0,
    /* load phase, lanes 0-15 */
    P_A_IDX, P_A_SA, P_A_PTR, P_A_I0,
    P_A_DLD, P_A_DSTS, P_A_DINC, P_A_DI, P_A_DSETP, P_A_DBRA,
    P_A_PTR2, P_A_I1,
    P_A_RLD, P_A_RSTS, P_A_RINC, P_A_RI, P_A_RSETP, P_A_RBRA, P_A_JOIN,
    /* load phase, lanes 16-31 */
    P_B_IDX, P_B_SA, P_B_PTR, P_B_I0,
    P_B_DLD, P_B_DSTS, P_B_DINC, P_B_DI, P_B_DSETP, P_B_DBRA,
    P_B_PTR2, P_B_I1,
    P_B_CLD, P_B_CSTS, P_B_CINC, P_B_CI, P_B_CSETP, P_B_CBRA,
    P_BAR0, P_SETP1, P_BRA1,
    /* solve, peri_row: i = 1..15, j < i */
    P_A_SI0, P_A_SJ0, P_A_SLD_C,
    P_A_SLD_A, P_A_SLD_B, P_A_SFMA, P_A_SSTS, P_A_SJINC, P_A_SJSETP, P_A_SJBRA,
    P_A_SIINC, P_A_SISETP, P_A_SIBRA, P_A_SJOIN,
    /* solve, peri_col: i = 0..15, j < i, then the division */
    P_B_SI0, P_B_SJ0, P_B_SJGBRA, P_B_SLD_C,
    P_B_SLD_A, P_B_SLD_B, P_B_SFMA, P_B_SSTS, P_B_SJINC, P_B_SJSETP, P_B_SJBRA,
    P_B_DLD_A, P_B_DLD_B, P_B_DRCP, P_B_DMUL, P_B_DSTS2,
    P_B_SIINC, P_B_SISETP, P_B_SIBRA,
    P_BAR1, P_SETP2, P_BRA2,
    /* store phase */
    P_A_WPTR, P_A_WI0, P_A_WLDS, P_A_WST, P_A_WINC, P_A_WI, P_A_WSETP, P_A_WBRA, P_A_WJOIN,
    P_B_WPTR, P_B_WI0, P_B_WLDS, P_B_WST, P_B_WINC, P_B_WI, P_B_WSETP, P_B_WBRA,
    P_EXIT, P_DONE
};

static int perimeter_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_lud_params *p = kern->params;
    uint32_t e = gm_warp_exist_mask(2 * BS, g->warp);
    uint64_t off = p->offset, cb = off + (g->cta + 1) * (uint64_t)BS;   /* (bx+1)*16 */
    int n = 0;

    if (g->pc == P_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        int64_t i = g->v[0], j = g->v[1];
        switch (g->pc) {
        case P_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case P_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case P_SETP0: case P_SETP1: case P_SETP2:
            gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_NONE, R_NONE);
            break;
        case P_BRA0: case P_BRA1: case P_BRA2:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            break;
        /* lanes 0-15: dia rows 0-7, then peri_row */
        case P_A_IDX: gm_emit(in, GM_OP_ALU, PA, R_IDX, R_TX, R_NONE, R_NONE); break;
        case P_A_SA:  gm_emit(in, GM_OP_ALU, PA, R_SA, R_IDX, R_NONE, R_NONE); break;
        case P_A_PTR: gm_emit(in, GM_OP_ALU, PA, R_PTR, R_IDX, R_NONE, R_NONE); break;
        case P_A_I0: case P_A_I1:
            gm_emit(in, GM_OP_ALU, PA, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case P_A_DLD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, PA, R_X, R_PTR, R_NONE, 4, 0);
            m_row(in, p, off + (uint64_t)i, off);
            break;
        case P_A_DSTS:
            gm_emit_mem(in, GM_OP_SHARED_ST, PA, R_NONE, R_SA, R_X, 4, 0);
            sh_rc(in, SH_DIA, i, 0, 0, 1);
            break;
        case P_A_DINC: case P_A_RINC:
            gm_emit(in, GM_OP_ALU, PA, R_PTR, R_PTR, R_NONE, R_NONE);
            break;
        case P_A_DI: case P_A_RI:
            gm_emit(in, GM_OP_ALU, PA, R_I, R_I, R_NONE, R_NONE);
            break;
        case P_A_DSETP: case P_A_RSETP:
            gm_emit(in, GM_OP_ALU, PA, R_P, R_I, R_NONE, R_NONE);
            break;
        case P_A_DBRA:
            gm_emit(in, GM_OP_BRANCH, PA, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS / 2 ? P_A_DLD : P_A_PTR2;
            continue;
        case P_A_PTR2: gm_emit(in, GM_OP_ALU, PA, R_PTR, R_IDX, R_BX, R_NONE); break;
        case P_A_RLD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, PA, R_X, R_PTR, R_NONE, 4, 0);
            m_row(in, p, off + (uint64_t)i, cb);
            break;
        case P_A_RSTS:
            gm_emit_mem(in, GM_OP_SHARED_ST, PA, R_NONE, R_SA, R_X, 4, 0);
            sh_rc(in, SH_ROW, i, 0, 0, 1);
            break;
        case P_A_RBRA:
            gm_emit(in, GM_OP_BRANCH, PA, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? P_A_RLD : P_A_JOIN;
            continue;
        case P_A_JOIN: case P_A_SJOIN: case P_A_WJOIN:   /* jump over the else part */
            gm_emit(in, GM_OP_BRANCH, PA, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        /* lanes 16-31: dia rows 8-15, then peri_col */
        case P_B_IDX: gm_emit(in, GM_OP_ALU, PB, R_IDX, R_TX, R_NONE, R_NONE); break;
        case P_B_SA:  gm_emit(in, GM_OP_ALU, PB, R_SA, R_IDX, R_NONE, R_NONE); break;
        case P_B_PTR: gm_emit(in, GM_OP_ALU, PB, R_PTR, R_IDX, R_NONE, R_NONE); break;
        case P_B_I0:
            gm_emit(in, GM_OP_ALU, PB, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = BS / 2;
            break;
        case P_B_I1:
            gm_emit(in, GM_OP_ALU, PB, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case P_B_DLD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, PB, R_X, R_PTR, R_NONE, 4, 0);
            m_row(in, p, off + (uint64_t)i, off);
            break;
        case P_B_DSTS:
            gm_emit_mem(in, GM_OP_SHARED_ST, PB, R_NONE, R_SA, R_X, 4, 0);
            sh_rc(in, SH_DIA, i, 0, 0, 1);
            break;
        case P_B_DINC: case P_B_CINC:
            gm_emit(in, GM_OP_ALU, PB, R_PTR, R_PTR, R_NONE, R_NONE);
            break;
        case P_B_DI: case P_B_CI:
            gm_emit(in, GM_OP_ALU, PB, R_I, R_I, R_NONE, R_NONE);
            break;
        case P_B_DSETP: case P_B_CSETP:
            gm_emit(in, GM_OP_ALU, PB, R_P, R_I, R_NONE, R_NONE);
            break;
        case P_B_DBRA:
            gm_emit(in, GM_OP_BRANCH, PB, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? P_B_DLD : P_B_PTR2;
            continue;
        case P_B_PTR2: gm_emit(in, GM_OP_ALU, PB, R_PTR, R_IDX, R_BX, R_NONE); break;
        case P_B_CLD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, PB, R_X, R_PTR, R_NONE, 4, 0);
            m_row(in, p, cb + (uint64_t)i, off);
            break;
        case P_B_CSTS:
            gm_emit_mem(in, GM_OP_SHARED_ST, PB, R_NONE, R_SA, R_X, 4, 0);
            sh_rc(in, SH_COL, i, 0, 0, 1);
            break;
        case P_B_CBRA:
            gm_emit(in, GM_OP_BRANCH, PB, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? P_B_CLD : P_BAR0;
            continue;
        case P_BAR0: case P_BAR1:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        /* peri_row[i][idx] -= dia[i][j] * peri_row[j][idx] */
        case P_A_SI0:
            gm_emit(in, GM_OP_ALU, PA, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 1;
            break;
        case P_A_SJ0:
            gm_emit(in, GM_OP_ALU, PA, R_J, R_NONE, R_NONE, R_NONE);
            g->v[1] = 0;
            break;
        case P_A_SLD_C:   /* peri_row[i][idx], once */
            gm_emit_mem(in, GM_OP_SHARED_LD, PA, R_C, R_I, R_SA, 4, 0);
            sh_rc(in, SH_ROW, i, 0, 0, 1);
            break;
        case P_A_SLD_A:
            gm_emit_mem(in, GM_OP_SHARED_LD, PA, R_A, R_I, R_J, 4, 0);
            sh_rc(in, SH_DIA, i, j, 0, 0);
            break;
        case P_A_SLD_B:
            gm_emit_mem(in, GM_OP_SHARED_LD, PA, R_B, R_J, R_SA, 4, 0);
            sh_rc(in, SH_ROW, j, 0, 0, 1);
            break;
        case P_A_SFMA: gm_emit(in, GM_OP_ALU, PA, R_C, R_C, R_A, R_B); break;
        case P_A_SSTS:
            gm_emit_mem(in, GM_OP_SHARED_ST, PA, R_NONE, R_SA, R_C, 4, 0);
            sh_rc(in, SH_ROW, i, 0, 0, 1);
            break;
        case P_A_SJINC:  gm_emit(in, GM_OP_ALU, PA, R_J, R_J, R_NONE, R_NONE); break;
        case P_A_SJSETP: gm_emit(in, GM_OP_ALU, PA, R_P, R_J, R_I, R_NONE); break;
        case P_A_SJBRA:
            gm_emit(in, GM_OP_BRANCH, PA, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = ++j;
            g->pc = j < i ? P_A_SLD_A : P_A_SIINC;
            continue;
        case P_A_SIINC:  gm_emit(in, GM_OP_ALU, PA, R_I, R_I, R_NONE, R_NONE); break;
        case P_A_SISETP: gm_emit(in, GM_OP_ALU, PA, R_P, R_I, R_NONE, R_NONE); break;
        case P_A_SIBRA:
            gm_emit(in, GM_OP_BRANCH, PA, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? P_A_SJ0 : P_A_SJOIN;
            continue;
        /* peri_col[idx][i] -= peri_col[idx][j] * dia[j][i]; /= dia[i][i] */
        case P_B_SI0:
            gm_emit(in, GM_OP_ALU, PB, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case P_B_SJ0:
            gm_emit(in, GM_OP_ALU, PB, R_J, R_I, R_NONE, R_NONE);
            g->v[1] = 0;
            break;
        case P_B_SJGBRA:   /* the j loop is skipped for i == 0 */
            gm_emit(in, GM_OP_BRANCH, PB, R_NONE, R_J, R_NONE, R_NONE);
            g->pc = i > 0 ? P_B_SLD_C : P_B_DLD_A;
            continue;
        case P_B_SLD_C:   /* peri_col[idx][i], once */
            gm_emit_mem(in, GM_OP_SHARED_LD, PB, R_C, R_SA, R_I, 4, 0);
            sh_rc(in, SH_COL, 0, i, 1, 0);
            break;
        case P_B_SLD_A:
            gm_emit_mem(in, GM_OP_SHARED_LD, PB, R_A, R_SA, R_J, 4, 0);
            sh_rc(in, SH_COL, 0, j, 1, 0);
            break;
        case P_B_SLD_B:
            gm_emit_mem(in, GM_OP_SHARED_LD, PB, R_B, R_J, R_I, 4, 0);
            sh_rc(in, SH_DIA, j, i, 0, 0);
            break;
        case P_B_SFMA: gm_emit(in, GM_OP_ALU, PB, R_C, R_C, R_A, R_B); break;
        case P_B_SSTS:
            gm_emit_mem(in, GM_OP_SHARED_ST, PB, R_NONE, R_SA, R_C, 4, 0);
            sh_rc(in, SH_COL, 0, i, 1, 0);
            break;
        case P_B_SJINC:  gm_emit(in, GM_OP_ALU, PB, R_J, R_J, R_NONE, R_NONE); break;
        case P_B_SJSETP: gm_emit(in, GM_OP_ALU, PB, R_P, R_J, R_I, R_NONE); break;
        case P_B_SJBRA:
            gm_emit(in, GM_OP_BRANCH, PB, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = ++j;
            g->pc = j < i ? P_B_SLD_A : P_B_DLD_B;   /* peri_col[idx][i] is in R_C */
            continue;
        case P_B_DLD_A:   /* i == 0 only */
            gm_emit_mem(in, GM_OP_SHARED_LD, PB, R_C, R_SA, R_I, 4, 0);
            sh_rc(in, SH_COL, 0, i, 1, 0);
            break;
        case P_B_DLD_B:
            gm_emit_mem(in, GM_OP_SHARED_LD, PB, R_B, R_I, R_NONE, 4, 0);
            sh_rc(in, SH_DIA, i, i, 0, 0);
            break;
        case P_B_DRCP: gm_emit(in, GM_OP_SFU, PB, R_B, R_B, R_NONE, R_NONE); break;
        case P_B_DMUL: gm_emit(in, GM_OP_ALU, PB, R_C, R_C, R_B, R_NONE); break;
        case P_B_DSTS2:
            gm_emit_mem(in, GM_OP_SHARED_ST, PB, R_NONE, R_SA, R_C, 4, 0);
            sh_rc(in, SH_COL, 0, i, 1, 0);
            break;
        case P_B_SIINC:  gm_emit(in, GM_OP_ALU, PB, R_I, R_I, R_NONE, R_NONE); break;
        case P_B_SISETP: gm_emit(in, GM_OP_ALU, PB, R_P, R_I, R_NONE, R_NONE); break;
        case P_B_SIBRA:
            gm_emit(in, GM_OP_BRANCH, PB, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? P_B_SJ0 : P_BAR1;
            continue;
        /* stores: peri_row rows 1-15, peri_col rows 0-15 */
        case P_A_WPTR: gm_emit(in, GM_OP_ALU, PA, R_PTR, R_IDX, R_BX, R_NONE); break;
        case P_A_WI0:
            gm_emit(in, GM_OP_ALU, PA, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 1;
            break;
        case P_A_WLDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, PA, R_X, R_SA, R_I, 4, 0);
            sh_rc(in, SH_ROW, i, 0, 0, 1);
            break;
        case P_A_WST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, PA, R_NONE, R_PTR, R_X, 4, 0);
            m_row(in, p, off + (uint64_t)i, cb);
            break;
        case P_A_WINC: gm_emit(in, GM_OP_ALU, PA, R_PTR, R_PTR, R_NONE, R_NONE); break;
        case P_A_WI:   gm_emit(in, GM_OP_ALU, PA, R_I, R_I, R_NONE, R_NONE); break;
        case P_A_WSETP: gm_emit(in, GM_OP_ALU, PA, R_P, R_I, R_NONE, R_NONE); break;
        case P_A_WBRA:
            gm_emit(in, GM_OP_BRANCH, PA, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? P_A_WLDS : P_A_WJOIN;
            continue;
        case P_B_WPTR: gm_emit(in, GM_OP_ALU, PB, R_PTR, R_IDX, R_BX, R_NONE); break;
        case P_B_WI0:
            gm_emit(in, GM_OP_ALU, PB, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case P_B_WLDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, PB, R_X, R_SA, R_I, 4, 0);
            sh_rc(in, SH_COL, i, 0, 0, 1);
            break;
        case P_B_WST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, PB, R_NONE, R_PTR, R_X, 4, 0);
            m_row(in, p, cb + (uint64_t)i, off);
            break;
        case P_B_WINC: gm_emit(in, GM_OP_ALU, PB, R_PTR, R_PTR, R_NONE, R_NONE); break;
        case P_B_WI:   gm_emit(in, GM_OP_ALU, PB, R_I, R_I, R_NONE, R_NONE); break;
        case P_B_WSETP: gm_emit(in, GM_OP_ALU, PB, R_P, R_I, R_NONE, R_NONE); break;
        case P_B_WBRA:
            gm_emit(in, GM_OP_BRANCH, PB, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? P_B_WLDS : P_EXIT;
            continue;
        case P_EXIT:
            return gm_gen_exit(g, in, e, P_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, P_DONE, n);
        }
        g->pc++;
    }
    return n;
}

/* ---------------------------------------------------------------- internal */

enum {
    I_S2R_TX = 0, I_S2R_TY, I_S2R_BX, I_S2R_BY, I_GROW, I_GCOL, I_AR, I_AC, I_SA,
    I_LD_R, I_LD_C, I_STS_R, I_STS_C, I_BAR, I_SUM0, I_I0,
    I_LDS_C, I_LDS_R, I_FMA, I_INC, I_SETP, I_BRA,
    I_AM, I_LD_M, I_SUB, I_ST,
    I_EXIT, I_DONE
};

static int internal_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_lud_params *p = kern->params;
    uint32_t e = gm_warp_exist_mask(BS * BS, g->warp);
    uint64_t off = p->offset, dim = p->dim;
    uint64_t bx = g->cta % kern->grid.x, by = g->cta / kern->grid.x;
    uint64_t grow = off + (by + 1) * BS, gcol = off + (bx + 1) * BS;
    uint64_t ty0 = 2ull * g->warp;   /* lanes 0-15: ty0, lanes 16-31: ty0 + 1 */
    int n = 0;

    if (g->pc == I_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        int64_t i = g->v[0];
        switch (g->pc) {
        case I_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case I_S2R_TY: gm_emit(in, GM_OP_ALU, e, R_TY, R_NONE, R_NONE, R_NONE); break;
        case I_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case I_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case I_GROW:   gm_emit(in, GM_OP_ALU, e, R_GROW, R_BY, R_NONE, R_NONE); break;
        case I_GCOL:   gm_emit(in, GM_OP_ALU, e, R_GCOL, R_BX, R_NONE, R_NONE); break;
        case I_AR:     gm_emit(in, GM_OP_ALU, e, R_AR, R_TY, R_GCOL, R_TX); break;
        case I_AC:     gm_emit(in, GM_OP_ALU, e, R_AC, R_GROW, R_TY, R_TX); break;
        case I_SA:     gm_emit(in, GM_OP_ALU, e, R_SA, R_TY, R_TX, R_NONE); break;
        case I_LD_R:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_PR, R_AR, R_NONE, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = p->m + 4 * ((off + ty0 + l / BS) * dim + gcol + l % BS);
            break;
        case I_LD_C:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_PCV, R_AC, R_NONE, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = p->m + 4 * ((grow + ty0 + l / BS) * dim + off + l % BS);
            break;
        case I_STS_R: case I_STS_C:
            gm_emit_mem(in, GM_OP_SHARED_ST, e, R_NONE, R_SA,
                        g->pc == I_STS_R ? R_PR : R_PCV, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (g->pc == I_STS_R ? 0 : 1024) + 4 * (ty0 * BS + l);
            break;
        case I_BAR:  gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case I_SUM0: gm_emit(in, GM_OP_ALU, e, R_SUM, R_NONE, R_NONE, R_NONE); break;
        case I_I0:
            gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case I_LDS_C:   /* peri_col[ty][i] */
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_A, R_SA, R_I, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = 1024 + 4 * ((ty0 + l / BS) * BS + (uint64_t)i);
            break;
        case I_LDS_R:   /* peri_row[i][tx] */
            gm_emit_mem(in, GM_OP_SHARED_LD, e, R_B, R_SA, R_I, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = 4 * ((uint64_t)i * BS + l % BS);
            break;
        case I_FMA:  gm_emit(in, GM_OP_ALU, e, R_SUM, R_SUM, R_A, R_B); break;
        case I_INC:  gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case I_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case I_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++i;
            g->pc = i < BS ? I_LDS_C : I_AM;
            continue;
        case I_AM:   gm_emit(in, GM_OP_ALU, e, R_AM, R_GROW, R_GCOL, R_TX); break;
        case I_LD_M: case I_ST:
            if (g->pc == I_LD_M)
                gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_M, R_AM, R_NONE, 4, 0);
            else
                gm_emit_mem(in, GM_OP_GLOBAL_ST, e, R_NONE, R_AM, R_M, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = p->m + 4 * ((grow + ty0 + l / BS) * dim + gcol + l % BS);
            break;
        case I_SUB:  gm_emit(in, GM_OP_ALU, e, R_M, R_M, R_SUM, R_NONE); break;
        case I_EXIT:
            return gm_gen_exit(g, in, e, I_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, I_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_lud_build_dims(gm_workload *w, uint32_t dim, gm_error *err)
{
    if (dim < BS || dim % BS || (uint64_t)dim * dim > INT32_MAX / 4)
        return gm_fail(err, "lud: bad matrix_dim %u (a multiple of 16 is needed)", dim);
    uint32_t steps = dim / BS - 1;   /* trips of the host loop */
    uint32_t launches = 3 * steps + 1;
    if (gm_workload_alloc(w, "lud", launches, launches * sizeof(gm_lud_params), err))
        return -1;

    gm_lud_params *lp = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t m = gm_devmem_alloc(&mem, 4ull * dim * dim);
    uint32_t l = 0, off = 0;
    for (uint32_t s = 0; s <= steps; s++, off += BS) {
        uint32_t gsz = (dim - off) / BS - 1;
        for (uint32_t kind = 0; kind < (s < steps ? 3u : 1u); kind++, l++) {
            gm_lud_params *p = &lp[l];
            p->kind = kind;
            p->dim = dim;
            p->offset = off;
            p->m = m;
            if (kind == GM_LUD_DIAGONAL)
                gm_kernel_set(&w->kernels[l], "lud_diagonal", gm_dim3_make(1, 1, 1),
                              gm_dim3_make(BS, 1, 1), p, diagonal_gen);
            else if (kind == GM_LUD_PERIMETER)
                gm_kernel_set(&w->kernels[l], "lud_perimeter", gm_dim3_make(gsz, 1, 1),
                              gm_dim3_make(2 * BS, 1, 1), p, perimeter_gen);
            else
                gm_kernel_set(&w->kernels[l], "lud_internal", gm_dim3_make(gsz, gsz, 1),
                              gm_dim3_make(BS, BS, 1), p, internal_gen);
        }
    }
    return 0;
}

int gm_lud_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: `lud_cuda -s 256` */
    static const uint32_t dim[] = {96, 160, 256, 768};

    (void)seed;   /* the matrix gives values only */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "lud: bad size %d", (int)size);
    return gm_lud_build_dims(w, dim[size], err);
}
