/* Rodinia 3.1 lavaMD (cuda/lavaMD/{main.c,main.h,kernel/kernel_gpu_cuda.cu,
 * kernel/kernel_gpu_cuda_wrapper.cu}) as an address-stream emulator.
 *
 * Host (main.c): boxes1d^3 boxes of NUMBER_PAR_PER_BOX = 100 particles;
 * box nh = i*B*B + j*B + k (z, y, x) holds particles nh*100 .. nh*100+99
 * (box.offset); its neighbours nei[0..nn-1] are the boxes (k+n, j+m, i+l)
 * inside the grid for l, m, n = -1..1 in that loop order, itself excluded.
 * Wrapper: cudaMalloc d_box_gpu (boxes x sizeof(box_str) = 656 B),
 * d_rv_gpu (particles x FOUR_VECTOR = 32 B: doubles v, x, y, z), d_qv_gpu
 * (particles x double), d_fv_gpu (particles x FOUR_VECTOR); grid
 * (number_boxes), block (NUMBER_THREADS = 128).
 *
 * kernel_gpu_cuda, per CTA bx (the bx < number_boxes guard always holds):
 *   first_i = d_box_gpu[bx].offset;  rA = &d_rv_gpu[first_i];  fA = &d_fv_gpu[first_i];
 *   for (wtx = tx; wtx < 100; wtx += 128) rA_shared[wtx] = rA[wtx];
 *   __syncthreads();
 *   for (k = 0; k < 1 + d_box_gpu[bx].nn; k++) {
 *       pointer = k == 0 ? bx : d_box_gpu[bx].nei[k-1].number;
 *       first_j = d_box_gpu[pointer].offset;  rB = &d_rv_gpu[first_j];  qB = &d_qv_gpu[first_j];
 *       for (wtx = tx; wtx < 100; wtx += 128) { rB_shared[wtx] = rB[wtx]; qB_shared[wtx] = qB[wtx]; }
 *       __syncthreads();
 *       for (wtx = tx; wtx < 100; wtx += 128)
 *           for (j = 0; j < 100; j++) {
 *               r2 = rA_shared[wtx].v + rB_shared[j].v - DOT(rA_shared[wtx], rB_shared[j]);
 *               vij = exp(-a2*r2);  fs = 2*vij;  d = rA_shared[wtx] - rB_shared[j] (x, y, z);
 *               fA[wtx].v += qB_shared[j]*vij;  fA[wtx].x += qB_shared[j]*fs*d.x;  (y, z)
 *           }
 *       __syncthreads();
 *   }
 * Threads 100..127 (lanes 4..31 of warp 3) idle through every loop.
 *
 * Choices (docs/workloads/rodinia.md): the four fA[wtx] accumulators are
 * loaded before the j loop and stored after it, once per neighbour box
 * (the j loop touches no other global memory, so the compiler keeps them
 * in registers); rA_shared[wtx] is read once per neighbour box, before
 * the j loop; exp() in double is one SFU and six DP instructions. The
 * struct fields and doubles are 8 B accesses (FOUR_VECTOR is 8-aligned: no
 * vector loads), the box's offset is a long (8 B), nn and nei[].number
 * ints. Layout of box_str: number at 12, offset at 16, nn at 24, nei[26]
 * of 24 B at 32 (nei.number at 12).
 *
 * Shared memory (declaration order): rA_shared at 0 (3200 B), rB_shared
 * at 3200, qB_shared at 6400 (800 B). Read-only: d_box_gpu, d_rv_gpu,
 * d_qv_gpu. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define THREADS 128u
#define PAR GM_LAVAMD_PAR
#define SH_RA 0u
#define SH_RB 3200u
#define SH_QB 6400u

enum {   /* registers */
    R_TX, R_BX, R_P, R_BA, R_FI, R_RA, R_FA, R_A2, R_W, R_T0, R_T1, R_T2, R_T3, R_T4,
    R_NN, R_K, R_PTR, R_PA, R_FJ, R_RB, R_QB,
    R_AV, R_AX, R_AY, R_AZ, R_FV, R_FX, R_FY, R_FZ, R_J,
    R_BV, R_BXX, R_BY, R_BZ, R_Q, R_D, R_R2, R_E, R_FS, R_DX, R_DY, R_DZ
};

enum {   /* program points */
    PC_TX = 0, PC_BX, PC_GUARD, PC_GUARD_BRA, PC_BA, PC_LD_OFF, PC_RA, PC_FA, PC_A2,
    PC_H_SETP, PC_H_BRA, PC_H_LD0, PC_H_LD1, PC_H_LD2, PC_H_LD3,
    PC_H_ST0, PC_H_ST1, PC_H_ST2, PC_H_ST3, PC_H_INC, PC_H_LOOP, PC_H_BAR,
    PC_LD_NN, PC_K0,
    PC_K_SETP, PC_K_BRA, PC_NEI_ADDR, PC_NEI_LD, PC_PA, PC_LD_OFFJ, PC_RB, PC_QB,
    PC_C_SETP, PC_C_BRA, PC_C_LD0, PC_C_LD1, PC_C_LD2, PC_C_LD3, PC_C_LDQ,
    PC_C_ST0, PC_C_ST1, PC_C_ST2, PC_C_ST3, PC_C_STQ, PC_C_INC, PC_C_LOOP, PC_C_BAR,
    PC_W_SETP, PC_W_BRA, PC_F_LD0, PC_F_LD1, PC_F_LD2, PC_F_LD3,
    PC_A_LDS0, PC_A_LDS1, PC_A_LDS2, PC_A_LDS3, PC_J0,
    PC_J_LDS0, PC_J_LDS1, PC_J_LDS2, PC_J_LDS3, PC_J_LDSQ,
    PC_J_DOT0, PC_J_DOT1, PC_J_DOT2, PC_J_R0, PC_J_R1, PC_J_U,
    PC_J_EXP_SFU, PC_J_EXP0, PC_J_EXP1, PC_J_EXP2, PC_J_EXP3, PC_J_EXP4, PC_J_EXP5,
    PC_J_FS, PC_J_DX, PC_J_DY, PC_J_DZ, PC_J_MX, PC_J_MY, PC_J_MZ,
    PC_J_AV, PC_J_AX, PC_J_AY, PC_J_AZ, PC_J_INC, PC_J_SETP, PC_J_LOOP,
    PC_F_ST0, PC_F_ST1, PC_F_ST2, PC_F_ST3, PC_W_INC, PC_W_LOOP, PC_K_BAR,
    PC_K_INC, PC_K_LOOP,
    PC_EXIT, PC_DONE
};

/* Neighbour idx (0-based) of box bx in main.c's order, or -1 past the
 * last; *nn (if not NULL) gets the neighbour count. */
int64_t gm_lavamd_neighbour(uint32_t boxes1d, uint32_t bx, uint32_t idx, uint32_t *nn)
{
    int64_t b = boxes1d, i = bx / (b * b), j = bx / b % b, k = bx % b;
    int64_t found = -1;
    uint32_t count = 0;
    for (int l = -1; l < 2; l++)
        for (int m = -1; m < 2; m++)
            for (int n = -1; n < 2; n++) {
                if (i + l < 0 || j + m < 0 || k + n < 0 || i + l >= b || j + m >= b ||
                    k + n >= b || (l == 0 && m == 0 && n == 0))
                    continue;
                if (count == idx)
                    found = (i + l) * b * b + (j + m) * b + (k + n);
                count++;
            }
    if (nn)
        *nn = count;
    return found;
}

/* Per lane: base + stride * (32*warp + lane) + off. */
static void lane_addr(gm_inst *in, uint64_t base, uint32_t warp, uint64_t stride, uint64_t off)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1)
                          ? base + stride * (GM_WARP_SIZE * warp + l) + off
                          : 0;
}

/* The box whose particles trip k of the neighbour loop reads. */
static uint64_t box_of(const gm_lavamd_params *p, uint32_t bx, uint32_t k)
{
    return k == 0 ? bx : (uint64_t)gm_lavamd_neighbour(p->boxes1d, bx, k - 1, NULL);
}

static void mem(gm_inst *in, gm_op op, uint32_t mask, uint8_t dst, uint8_t s0, uint8_t s1,
                uint8_t width, uint8_t flags)
{
    gm_emit_mem(in, op, mask, dst, s0, s1, width, flags);
}

static int lavamd_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_lavamd_params *p = kern->params;
    uint32_t e = 0xffffffffu;
    uint32_t a = gm_warp_exist_mask(PAR, g->warp);   /* wtx < 100 */
    uint32_t w = g->warp, bx = g->cta;
    const uint8_t RO = GM_INST_READ_ONLY;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    while (n < max) {
        gm_inst *in = &out[n++];
        uint32_t k = (uint32_t)g->v[0], j = (uint32_t)g->v[1], nn;
        uint64_t home = p->rv + 32ull * PAR * bx, fhome = p->fv + 32ull * PAR * bx;
        switch (g->pc) {
        case PC_TX:    gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case PC_BX:    gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case PC_GUARD: gm_emit(in, GM_OP_ALU, e, R_P, R_BX, R_NONE, R_NONE); break;
        case PC_GUARD_BRA: gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE); break;
        case PC_BA:    gm_emit(in, GM_OP_ALU, e, R_BA, R_BX, R_NONE, R_NONE); break;
        case PC_LD_OFF:   /* d_box_gpu[bx].offset */
            mem(in, GM_OP_GLOBAL_LD, e, R_FI, R_BA, R_NONE, 8, RO);
            gm_rod_bcast(in, p->box + GM_LAVAMD_BOX_BYTES * (uint64_t)bx + 16);
            break;
        case PC_RA:    gm_emit(in, GM_OP_ALU, e, R_RA, R_FI, R_TX, R_NONE); break;
        case PC_FA:    gm_emit(in, GM_OP_ALU, e, R_FA, R_FI, R_TX, R_NONE); break;
        case PC_A2:    gm_emit(in, GM_OP_DP, e, R_A2, R_NONE, R_NONE, R_NONE); break;
        /* home box copy: one trip (128 threads >= 100 particles) */
        case PC_H_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_NONE, R_NONE); break;
        case PC_H_BRA:  gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE); break;
        case PC_H_LD0: case PC_H_LD1: case PC_H_LD2: case PC_H_LD3: {
            uint32_t f = g->pc - PC_H_LD0;
            mem(in, GM_OP_GLOBAL_LD, a, (uint8_t)(R_T0 + f), R_RA, R_NONE, 8, RO);
            lane_addr(in, home, w, 32, 8 * f);
            break;
        }
        case PC_H_ST0: case PC_H_ST1: case PC_H_ST2: case PC_H_ST3: {
            uint32_t f = g->pc - PC_H_ST0;
            mem(in, GM_OP_SHARED_ST, a, R_NONE, R_TX, (uint8_t)(R_T0 + f), 8, 0);
            lane_addr(in, SH_RA, w, 32, 8 * f);
            break;
        }
        case PC_H_INC:  gm_emit(in, GM_OP_ALU, a, R_W, R_TX, R_NONE, R_NONE); break;
        case PC_H_LOOP: gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_W, R_NONE, R_NONE); break;
        case PC_H_BAR:  gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_LD_NN:    /* d_box_gpu[bx].nn */
            mem(in, GM_OP_GLOBAL_LD, e, R_NN, R_BA, R_NONE, 4, RO);
            gm_rod_bcast(in, p->box + GM_LAVAMD_BOX_BYTES * (uint64_t)bx + 24);
            break;
        case PC_K0:
            gm_emit(in, GM_OP_ALU, e, R_K, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_K_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_K, R_NN, R_NONE); break;
        case PC_K_BRA:   /* k == 0: pointer = bx, no load */
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = k == 0 ? PC_PA : PC_NEI_ADDR;
            continue;
        case PC_NEI_ADDR: gm_emit(in, GM_OP_ALU, e, R_PTR, R_BA, R_K, R_NONE); break;
        case PC_NEI_LD:   /* d_box_gpu[bx].nei[k-1].number */
            mem(in, GM_OP_GLOBAL_LD, e, R_PTR, R_PTR, R_NONE, 4, RO);
            gm_rod_bcast(in, p->box + GM_LAVAMD_BOX_BYTES * (uint64_t)bx + 32 +
                                 24ull * (k - 1) + 12);
            break;
        case PC_PA:
            gm_emit(in, GM_OP_ALU, e, R_PA, k ? R_PTR : R_BX, R_NONE, R_NONE);
            break;
        case PC_LD_OFFJ:  /* d_box_gpu[pointer].offset */
            mem(in, GM_OP_GLOBAL_LD, e, R_FJ, R_PA, R_NONE, 8, RO);
            gm_rod_bcast(in, p->box + GM_LAVAMD_BOX_BYTES * box_of(p, bx, k) + 16);
            break;
        case PC_RB: gm_emit(in, GM_OP_ALU, e, R_RB, R_FJ, R_TX, R_NONE); break;
        case PC_QB: gm_emit(in, GM_OP_ALU, e, R_QB, R_FJ, R_TX, R_NONE); break;
        /* neighbour box copy */
        case PC_C_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_NONE, R_NONE); break;
        case PC_C_BRA:  gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE); break;
        case PC_C_LD0: case PC_C_LD1: case PC_C_LD2: case PC_C_LD3: {
            uint32_t f = g->pc - PC_C_LD0;
            mem(in, GM_OP_GLOBAL_LD, a, (uint8_t)(R_T0 + f), R_RB, R_NONE, 8, RO);
            lane_addr(in, p->rv + 32ull * PAR * box_of(p, bx, k), w, 32, 8 * f);
            break;
        }
        case PC_C_LDQ:
            mem(in, GM_OP_GLOBAL_LD, a, R_T4, R_QB, R_NONE, 8, RO);
            lane_addr(in, p->qv + 8ull * PAR * box_of(p, bx, k), w, 8, 0);
            break;
        case PC_C_ST0: case PC_C_ST1: case PC_C_ST2: case PC_C_ST3: {
            uint32_t f = g->pc - PC_C_ST0;
            mem(in, GM_OP_SHARED_ST, a, R_NONE, R_TX, (uint8_t)(R_T0 + f), 8, 0);
            lane_addr(in, SH_RB, w, 32, 8 * f);
            break;
        }
        case PC_C_STQ:
            mem(in, GM_OP_SHARED_ST, a, R_NONE, R_TX, R_T4, 8, 0);
            lane_addr(in, SH_QB, w, 8, 0);
            break;
        case PC_C_INC:  gm_emit(in, GM_OP_ALU, a, R_W, R_TX, R_NONE, R_NONE); break;
        case PC_C_LOOP: gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_W, R_NONE, R_NONE); break;
        case PC_C_BAR:  gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        /* the force loop over this thread's particle */
        case PC_W_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_TX, R_NONE, R_NONE); break;
        case PC_W_BRA:  gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE); break;
        case PC_F_LD0: case PC_F_LD1: case PC_F_LD2: case PC_F_LD3: {
            uint32_t f = g->pc - PC_F_LD0;
            mem(in, GM_OP_GLOBAL_LD, a, (uint8_t)(R_FV + f), R_FA, R_NONE, 8, 0);
            lane_addr(in, fhome, w, 32, 8 * f);
            break;
        }
        case PC_A_LDS0: case PC_A_LDS1: case PC_A_LDS2: case PC_A_LDS3: {
            uint32_t f = g->pc - PC_A_LDS0;
            mem(in, GM_OP_SHARED_LD, a, (uint8_t)(R_AV + f), R_TX, R_NONE, 8, 0);
            lane_addr(in, SH_RA, w, 32, 8 * f);
            break;
        }
        case PC_J0:
            gm_emit(in, GM_OP_ALU, a, R_J, R_NONE, R_NONE, R_NONE);
            g->v[1] = 0;
            break;
        case PC_J_LDS0: case PC_J_LDS1: case PC_J_LDS2: case PC_J_LDS3: {
            uint32_t f = g->pc - PC_J_LDS0;   /* rB_shared[j]: a broadcast */
            mem(in, GM_OP_SHARED_LD, a, (uint8_t)(R_BV + f), R_J, R_NONE, 8, 0);
            gm_rod_bcast(in, SH_RB + 32ull * j + 8 * f);
            break;
        }
        case PC_J_LDSQ:
            mem(in, GM_OP_SHARED_LD, a, R_Q, R_J, R_NONE, 8, 0);
            gm_rod_bcast(in, SH_QB + 8ull * j);
            break;
        case PC_J_DOT0: gm_emit(in, GM_OP_DP, a, R_D, R_AX, R_BXX, R_NONE); break;
        case PC_J_DOT1: gm_emit(in, GM_OP_DP, a, R_D, R_AY, R_BY, R_D); break;
        case PC_J_DOT2: gm_emit(in, GM_OP_DP, a, R_D, R_AZ, R_BZ, R_D); break;
        case PC_J_R0:   gm_emit(in, GM_OP_DP, a, R_R2, R_AV, R_BV, R_NONE); break;
        case PC_J_R1:   gm_emit(in, GM_OP_DP, a, R_R2, R_R2, R_D, R_NONE); break;
        case PC_J_U:    gm_emit(in, GM_OP_DP, a, R_E, R_A2, R_R2, R_NONE); break;
        case PC_J_EXP_SFU: gm_emit(in, GM_OP_SFU, a, R_E, R_E, R_NONE, R_NONE); break;
        case PC_J_EXP0: case PC_J_EXP1: case PC_J_EXP2: case PC_J_EXP3: case PC_J_EXP4:
        case PC_J_EXP5:
            gm_emit(in, GM_OP_DP, a, R_E, R_E, R_NONE, R_NONE);
            break;
        case PC_J_FS: gm_emit(in, GM_OP_DP, a, R_FS, R_E, R_NONE, R_NONE); break;
        case PC_J_DX: gm_emit(in, GM_OP_DP, a, R_DX, R_AX, R_BXX, R_NONE); break;
        case PC_J_DY: gm_emit(in, GM_OP_DP, a, R_DY, R_AY, R_BY, R_NONE); break;
        case PC_J_DZ: gm_emit(in, GM_OP_DP, a, R_DZ, R_AZ, R_BZ, R_NONE); break;
        case PC_J_MX: gm_emit(in, GM_OP_DP, a, R_DX, R_FS, R_DX, R_NONE); break;
        case PC_J_MY: gm_emit(in, GM_OP_DP, a, R_DY, R_FS, R_DY, R_NONE); break;
        case PC_J_MZ: gm_emit(in, GM_OP_DP, a, R_DZ, R_FS, R_DZ, R_NONE); break;
        case PC_J_AV: gm_emit(in, GM_OP_DP, a, R_FV, R_Q, R_E, R_FV); break;
        case PC_J_AX: gm_emit(in, GM_OP_DP, a, R_FX, R_Q, R_DX, R_FX); break;
        case PC_J_AY: gm_emit(in, GM_OP_DP, a, R_FY, R_Q, R_DY, R_FY); break;
        case PC_J_AZ: gm_emit(in, GM_OP_DP, a, R_FZ, R_Q, R_DZ, R_FZ); break;
        case PC_J_INC:  gm_emit(in, GM_OP_ALU, a, R_J, R_J, R_NONE, R_NONE); break;
        case PC_J_SETP: gm_emit(in, GM_OP_ALU, a, R_P, R_J, R_NONE, R_NONE); break;
        case PC_J_LOOP:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = ++j;
            g->pc = j < PAR ? PC_J_LDS0 : PC_F_ST0;
            continue;
        case PC_F_ST0: case PC_F_ST1: case PC_F_ST2: case PC_F_ST3: {
            uint32_t f = g->pc - PC_F_ST0;
            mem(in, GM_OP_GLOBAL_ST, a, R_NONE, R_FA, (uint8_t)(R_FV + f), 8, 0);
            lane_addr(in, fhome, w, 32, 8 * f);
            break;
        }
        case PC_W_INC:  gm_emit(in, GM_OP_ALU, a, R_W, R_TX, R_NONE, R_NONE); break;
        case PC_W_LOOP: gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_W, R_NONE, R_NONE); break;
        case PC_K_BAR:  gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PC_K_INC:  gm_emit(in, GM_OP_ALU, e, R_K, R_K, R_NONE, R_NONE); break;
        case PC_K_LOOP:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_K, R_NN, R_NONE);
            gm_lavamd_neighbour(p->boxes1d, bx, 0, &nn);
            g->v[0] = ++k;
            g->pc = k < 1 + nn ? PC_K_SETP : PC_EXIT;
            continue;
        case PC_EXIT:
            return gm_gen_exit(g, in, e, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_lavamd_build_dims(gm_workload *w, uint32_t boxes1d, gm_error *err)
{
    /* the host code's index math is in int: particles < 2^31 / 32 */
    if (!boxes1d || boxes1d > 64)
        return gm_fail(err, "lavaMD: bad boxes1d %u (1..64)", boxes1d);
    if (gm_workload_alloc(w, "lavaMD", 1, sizeof(gm_lavamd_params), err))
        return -1;

    gm_lavamd_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t boxes = (uint64_t)boxes1d * boxes1d * boxes1d, par = boxes * PAR;
    p->boxes1d = boxes1d;
    p->boxes = (uint32_t)boxes;
    p->box = gm_devmem_alloc(&mem, GM_LAVAMD_BOX_BYTES * boxes);
    p->rv = gm_devmem_alloc(&mem, 32 * par);
    p->qv = gm_devmem_alloc(&mem, 8 * par);
    p->fv = gm_devmem_alloc(&mem, 32 * par);
    gm_kernel_set(&w->kernels[0], "kernel_gpu_cuda", gm_dim3_make(p->boxes, 1, 1),
                  gm_dim3_make(THREADS, 1, 1), p, lavamd_gen);
    return 0;
}

int gm_lavamd_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: the run script's `lavaMD -boxes1d 10` (the CCN seed ran
     * 7 x 7 x 7); particle positions and charges are values only */
    static const uint32_t b[] = {2, 3, 10, 5};

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "lavaMD: bad size %d", (int)size);
    return gm_lavamd_build_dims(w, b[size], err);
}
