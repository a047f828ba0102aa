/* AMD APP SDK ScanLargeArrays (samples/opencl/cl/app/ScanLargeArrays:
 * ScanLargeArrays_Kernels.cl, ScanLargeArrays.cpp / .hpp) as an
 * address-stream emulator.
 *
 * Kernels (work-item tid, group bid, gid = bid * n + tid, L = 2n elements
 * per group in local memory `block`):
 *   ScanLargeArrays: block[2tid], block[2tid+1] = input[2gid], input[2gid+1];
 *     up-sweep for d = L/2 .. 1 (offset 1, 2, ...): barrier; if (tid < d)
 *       block[bi] += block[ai] (ai = offset(2tid+1)-1, bi = offset(2tid+2)-1);
 *     barrier; sumBuffer[bid] = block[L-1] (every work-item); barrier;
 *     block[L-1] = 0 (every work-item); down-sweep for d = 1 .. L/2
 *     (offset L/2d): barrier; if (tid < d) { t = block[ai];
 *       block[ai] = block[bi]; block[bi] += t; }
 *     barrier; output[2gid], output[2gid+1] = block[2tid], block[2tid+1].
 *   prefixSum: the same on one group of len/2 work-items, without the
 *     sumBuffer store and with `if (tid == 0) block[len-1] = 0`.
 *   blockAddition: if (lid == 0) value[0] = input[groupId]; barrier;
 *     output[gid] += value[0].
 * Host (runCLKernels), blockSize B = 256, pass = the number of p >= 1 with
 * B^p < length (the sample's floor(log length / log B), one less when
 * exact); buffers created in the order input, output[0..pass-1] (length /
 * B^i floats), blockSum[0..pass-1] (length / B^(i+1)), temp (length /
 * B^pass). Launches:
 *   bScan(length, input -> output[0], blockSum[0]), then for i = 1 ..
 *   pass-1 bScan(length / B^i, blockSum[i-1] -> output[i], blockSum[i]):
 *   global len / 2, local B / 2;
 *   pScan(length / B^pass, blockSum[pass-1] -> temp): one group of len / 2;
 *   bAddition(length / B^(pass-1), temp -> output[pass-1]), then for i =
 *   pass-1 .. 1 bAddition(length / B^(i-1), output[i] -> output[i-1]):
 *   global len, local B.
 * The default length is 1024. The data never decides an address.
 *
 * Warp skeleton (gmsim's; the memory operations and their order are the
 * source's): the `if (tid < d)` of each sweep level is ALU setp + BRA, and
 * the body is issued only by warps with an active lane, with those lanes. */
#include "workload/kernels/kernels.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

enum { R_G, R_A, R_B, R_S, R_OFF, R_P, R_AB, R_X, R_Y, R_T, R_SUM, R_ZERO, R_V, R_O };

enum {   /* scan kernels (ScanLargeArrays and prefixSum) */
    PS_GID = 0, PS_LDA, PS_LDB, PS_SADDR, PS_STSA, PS_STSB, PS_OFF,
    PS_U_BAR, PS_U_SETP, PS_U_BRA, PS_U_ADDR, PS_U_LDSA, PS_U_LDSB, PS_U_ADD, PS_U_STS,
    PS_U_OFF, PS_U_LOOP,
    PS_M_BAR, PS_M_ADDR, PS_M_LDS, PS_M_ST, PS_M_BAR2, PS_M_ZERO, PS_M_STS,   /* bScan */
    PS_Z_SETP, PS_Z_BRA, PS_Z_ZERO, PS_Z_STS,                                  /* pScan */
    PS_D_OFF, PS_D_BAR, PS_D_SETP, PS_D_BRA, PS_D_ADDR, PS_D_LDSA, PS_D_LDSB, PS_D_STSA,
    PS_D_ADD, PS_D_STSB, PS_D_LOOP,
    PS_E_BAR, PS_E_ADDR, PS_E_LDSA, PS_E_LDSB, PS_E_SETP, PS_E_BRA, PS_E_STA, PS_E_STB,
    PS_EXIT, PS_DONE
};

enum {   /* blockAddition */
    PA_SETP = 0, PA_BRA, PA_LD, PA_STS, PA_BAR, PA_ADDR, PA_LDS, PA_LDO, PA_ADD, PA_ST,
    PA_EXIT, PA_DONE
};

static uint32_t lanes_below(uint32_t first_tid, uint32_t d, uint32_t exist)
{
    if (d <= first_tid)
        return 0;
    uint32_t n = d - first_tid;
    return (n >= GM_WARP_SIZE ? 0xffffffffu : (1u << n) - 1) & exist;
}

static void local_addr(gm_inst *in, uint32_t first_tid, uint64_t mul, uint64_t add)
{
    /* block[mul * tid + add] on the active lanes, 0 elsewhere */
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = in->mask >> l & 1 ? 4 * (mul * (first_tid + l) + add) : 0;
}

/* v[0]: sweep level (0-based); v[1]: the current d. */
static int scan_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_sla_launch *L = kern->params;
    uint32_t n = kern->block.x, tid0 = g->warp * GM_WARP_SIZE;
    uint32_t exist = gm_warp_exist_mask(n, g->warp);
    uint64_t len = 2ull * n, gid0 = (uint64_t)g->cta * n + tid0;
    int bscan = L->kind == GM_SLA_BSCAN;
    int c = 0;

    if (g->pc == PS_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        uint32_t d = (uint32_t)g->v[1], act = lanes_below(tid0, d, exist);
        /* offset: 2^level on the way up, len / 2d on the way down */
        uint64_t off = g->pc < PS_D_OFF ? 1ull << g->v[0] : len / (2ull * d);
        switch (g->pc) {
        case PS_GID:   gm_emit(in, GM_OP_ALU, exist, R_G, R_NONE, R_NONE, R_NONE); break;
        case PS_LDA:
        case PS_LDB:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, exist, g->pc == PS_LDA ? R_A : R_B, R_G, R_NONE,
                        4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = exist >> l & 1
                                  ? L->in + 4 * (2 * (gid0 + l) + (g->pc == PS_LDB)) : 0;
            break;
        case PS_SADDR: gm_emit(in, GM_OP_ALU, exist, R_S, R_NONE, R_NONE, R_NONE); break;
        case PS_STSA:
        case PS_STSB:
            gm_emit_mem(in, GM_OP_SHARED_ST, exist, R_NONE, R_S, g->pc == PS_STSA ? R_A : R_B,
                        4, 0);
            local_addr(in, tid0, 2, g->pc == PS_STSB);
            break;
        case PS_OFF:
            gm_emit(in, GM_OP_ALU, exist, R_OFF, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            g->v[1] = (int64_t)(len / 2);
            break;
        case PS_U_BAR:
        case PS_D_BAR:
        case PS_M_BAR:
        case PS_M_BAR2:
        case PS_E_BAR: gm_emit(in, GM_OP_BARRIER, exist, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PS_U_SETP:
        case PS_D_SETP: gm_emit(in, GM_OP_ALU, exist, R_P, R_OFF, R_NONE, R_NONE); break;
        case PS_U_BRA:
        case PS_D_BRA:
            gm_emit(in, GM_OP_BRANCH, exist, R_NONE, R_P, R_NONE, R_NONE);
            if (!act) {   /* no lane of this warp below d: over the body */
                g->pc = g->pc == PS_U_BRA ? PS_U_OFF : PS_D_LOOP;
                continue;
            }
            break;
        case PS_U_ADDR:
        case PS_D_ADDR: gm_emit(in, GM_OP_ALU, act, R_AB, R_OFF, R_NONE, R_NONE); break;
        case PS_U_LDSA:
        case PS_D_LDSA:
            gm_emit_mem(in, GM_OP_SHARED_LD, act, g->pc == PS_U_LDSA ? R_X : R_T, R_AB, R_NONE,
                        4, 0);
            local_addr(in, tid0, 2 * off, off - 1);   /* ai */
            break;
        case PS_U_LDSB:
        case PS_D_LDSB:
            gm_emit_mem(in, GM_OP_SHARED_LD, act, R_Y, R_AB, R_NONE, 4, 0);
            local_addr(in, tid0, 2 * off, 2 * off - 1);   /* bi */
            break;
        case PS_U_ADD: gm_emit(in, GM_OP_ALU, act, R_Y, R_X, R_Y, R_NONE); break;
        case PS_D_ADD: gm_emit(in, GM_OP_ALU, act, R_Y, R_Y, R_T, R_NONE); break;
        case PS_U_STS:
        case PS_D_STSB:
            gm_emit_mem(in, GM_OP_SHARED_ST, act, R_NONE, R_AB, R_Y, 4, 0);
            local_addr(in, tid0, 2 * off, 2 * off - 1);
            break;
        case PS_D_STSA:
            gm_emit_mem(in, GM_OP_SHARED_ST, act, R_NONE, R_AB, R_Y, 4, 0);
            local_addr(in, tid0, 2 * off, off - 1);
            break;
        case PS_U_OFF: gm_emit(in, GM_OP_ALU, exist, R_OFF, R_OFF, R_NONE, R_NONE); break;
        case PS_U_LOOP:
        case PS_D_LOOP: {
            gm_emit(in, GM_OP_BRANCH, exist, R_NONE, R_OFF, R_NONE, R_NONE);
            int up = g->pc == PS_U_LOOP;
            g->v[0]++;
            g->v[1] = up ? g->v[1] / 2 : g->v[1] * 2;
            if (up ? g->v[1] > 0 : (uint64_t)g->v[1] < len) {
                g->pc = up ? PS_U_BAR : PS_D_OFF;
                continue;
            }
            if (up) {   /* the down-sweep starts at d = 1 */
                g->v[1] = 1;
                g->pc = bscan ? PS_M_BAR : PS_Z_SETP;
                continue;
            }
            break;
        }
        case PS_M_ADDR: gm_emit(in, GM_OP_ALU, exist, R_AB, R_NONE, R_NONE, R_NONE); break;
        case PS_M_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, exist, R_SUM, R_AB, R_NONE, 4, 0);
            local_addr(in, tid0, 0, len - 1);
            break;
        case PS_M_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, exist, R_NONE, R_G, R_SUM, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)   /* sumBuffer[bid] */
                in->addr[l] = exist >> l & 1 ? L->sum + 4ull * g->cta : 0;
            break;
        case PS_M_ZERO:
        case PS_Z_ZERO: gm_emit(in, GM_OP_ALU, g->pc == PS_M_ZERO ? exist : 1u, R_ZERO, R_NONE,
                                R_NONE, R_NONE); break;
        case PS_M_STS:
        case PS_Z_STS:
            /* every work-item of a ScanLargeArrays group, tid 0 of prefixSum's */
            gm_emit_mem(in, GM_OP_SHARED_ST, g->pc == PS_M_STS ? exist : 1u, R_NONE,
                        g->pc == PS_M_STS ? R_AB : R_OFF, R_ZERO, 4, 0);
            local_addr(in, tid0, 0, len - 1);
            if (g->pc == PS_M_STS) {
                g->pc = PS_D_OFF;
                continue;
            }
            break;
        case PS_Z_SETP: gm_emit(in, GM_OP_ALU, exist, R_P, R_NONE, R_NONE, R_NONE); break;
        case PS_Z_BRA:
            gm_emit(in, GM_OP_BRANCH, exist, R_NONE, R_P, R_NONE, R_NONE);
            if (g->warp != 0) {   /* tid 0 is lane 0 of warp 0 */
                g->pc = PS_D_OFF;
                continue;
            }
            break;
        case PS_D_OFF: gm_emit(in, GM_OP_ALU, exist, R_OFF, R_OFF, R_NONE, R_NONE); break;
        case PS_E_ADDR: gm_emit(in, GM_OP_ALU, exist, R_S, R_NONE, R_NONE, R_NONE); break;
        case PS_E_LDSA:
        case PS_E_LDSB:
            gm_emit_mem(in, GM_OP_SHARED_LD, exist, g->pc == PS_E_LDSA ? R_A : R_B, R_S, R_NONE,
                        4, 0);
            local_addr(in, tid0, 2, g->pc == PS_E_LDSB);
            if (g->pc == PS_E_LDSB && !bscan) {   /* prefixSum has no group_id test */
                g->pc = PS_E_STA;
                continue;
            }
            break;
        case PS_E_SETP: gm_emit(in, GM_OP_ALU, exist, R_P, R_NONE, R_NONE, R_NONE); break;
        case PS_E_BRA:  gm_emit(in, GM_OP_BRANCH, exist, R_NONE, R_P, R_NONE, R_NONE); break;
        case PS_E_STA:
        case PS_E_STB:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, exist, R_NONE, R_G, g->pc == PS_E_STA ? R_A : R_B,
                        4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = exist >> l & 1
                                  ? L->out + 4 * (2 * (gid0 + l) + (g->pc == PS_E_STB)) : 0;
            break;
        case PS_EXIT:
            return gm_gen_exit(g, in, exist, PS_DONE, c);
        }
        g->pc++;
    }
    return c;
}

static int add_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_sla_launch *L = kern->params;
    const uint32_t all = 0xffffffffu;   /* 256 work-items a group */
    uint64_t gid0 = (uint64_t)g->cta * kern->block.x + g->warp * GM_WARP_SIZE;
    int c = 0;

    if (g->pc == PA_DONE)
        return 0;
    while (c < max) {
        gm_inst *in = &out[c++];
        switch (g->pc) {
        case PA_SETP: gm_emit(in, GM_OP_ALU, all, R_P, R_NONE, R_NONE, R_NONE); break;
        case PA_BRA:
            gm_emit(in, GM_OP_BRANCH, all, R_NONE, R_P, R_NONE, R_NONE);
            if (g->warp != 0) {   /* only local id 0 reads input[groupId] */
                g->pc = PA_BAR;
                continue;
            }
            break;
        case PA_LD:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, 1u, R_V, R_P, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = l == 0 ? L->in + 4ull * g->cta : 0;
            break;
        case PA_STS:
            gm_emit_mem(in, GM_OP_SHARED_ST, 1u, R_NONE, R_P, R_V, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = 0;   /* value[0] */
            break;
        case PA_BAR:  gm_emit(in, GM_OP_BARRIER, all, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case PA_ADDR: gm_emit(in, GM_OP_ALU, all, R_G, R_NONE, R_NONE, R_NONE); break;
        case PA_LDS:
            gm_emit_mem(in, GM_OP_SHARED_LD, all, R_V, R_G, R_NONE, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = 0;
            break;
        case PA_LDO:
        case PA_ST:
            if (g->pc == PA_LDO)
                gm_emit_mem(in, GM_OP_GLOBAL_LD, all, R_O, R_G, R_NONE, 4, 0);
            else
                gm_emit_mem(in, GM_OP_GLOBAL_ST, all, R_NONE, R_G, R_O, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = L->out + 4 * (gid0 + l);
            break;
        case PA_ADD:  gm_emit(in, GM_OP_ALU, all, R_O, R_O, R_V, R_NONE); break;
        case PA_EXIT:
            return gm_gen_exit(g, in, all, PA_DONE, c);
        }
        g->pc++;
    }
    return c;
}

static uint32_t ipow(uint32_t b, uint32_t e)
{
    uint32_t r = 1;
    while (e--)
        r *= b;
    return r;
}

int gm_scanlargearrays_build_dims(gm_workload *w, uint32_t length, gm_error *err)
{
    const uint32_t B = GM_SLA_BLOCK;
    if (length < 2 * B || length > (1u << 22) || (length & (length - 1)))
        return gm_fail(err, "scanlargearrays: length %u must be a power of two in %u..%u",
                       length, 2 * B, 1u << 22);
    uint32_t pass = 0;
    while (pass + 1 < GM_SLA_MAXPASS && ipow(B, pass + 1) < length)
        pass++;
    uint32_t nk = 2 * pass + 1;
    if (gm_workload_alloc(w, "scanlargearrays", nk,
                          sizeof(gm_sla_params) + nk * sizeof(gm_sla_launch), err))
        return -1;
    gm_sla_params *p = w->priv;
    gm_sla_launch *L = (gm_sla_launch *)(p + 1);
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->length = length;
    p->pass = pass;
    p->input = gm_devmem_alloc(&mem, 4ull * length);
    for (uint32_t i = 0; i < pass; i++)
        p->output[i] = gm_devmem_alloc(&mem, 4ull * (length / ipow(B, i)));
    for (uint32_t i = 0; i < pass; i++)
        p->sum[i] = gm_devmem_alloc(&mem, 4ull * (length / ipow(B, i + 1)));
    p->temp = gm_devmem_alloc(&mem, 4ull * (length / ipow(B, pass)));

    uint32_t k = 0;
    for (uint32_t i = 0; i < pass; i++) {
        uint32_t len = length / ipow(B, i);
        L[k] = (gm_sla_launch){GM_SLA_BSCAN, len, i ? p->sum[i - 1] : p->input, p->output[i],
                               p->sum[i]};
        gm_kernel_set(&w->kernels[k], "ScanLargeArrays", gm_dim3_make(len / B, 1, 1),
                      gm_dim3_make(B / 2, 1, 1), &L[k], scan_gen);
        k++;
    }
    uint32_t tlen = length / ipow(B, pass);
    L[k] = (gm_sla_launch){GM_SLA_PSCAN, tlen, p->sum[pass - 1], p->temp, 0};
    gm_kernel_set(&w->kernels[k], "prefixSum", gm_dim3_make(1, 1, 1),
                  gm_dim3_make(tlen / 2, 1, 1), &L[k], scan_gen);
    k++;
    for (uint32_t i = pass; i > 0; i--) {
        uint32_t len = length / ipow(B, i - 1);
        L[k] = (gm_sla_launch){GM_SLA_BADD, len, i == pass ? p->temp : p->output[i],
                               p->output[i - 1], 0};
        gm_kernel_set(&w->kernels[k], "blockAddition", gm_dim3_make(len / B, 1, 1),
                      gm_dim3_make(B, 1, 1), &L[k], add_gen);
        k++;
    }
    return 0;
}

int gm_scanlargearrays_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* tiny 8192 (32 groups a block launch: the seed's 32 CUs), small 65536
     * (256 groups), standard the sample's default 1024 (4 groups) */
    static const uint32_t length[] = {8192, 65536, 1024, 65536};
    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "scanlargearrays: bad size %d", (int)size);
    return gm_scanlargearrays_build_dims(w, length[size], err);
}
