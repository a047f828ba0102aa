/* Rodinia 3.1 streamcluster (gpu-app-collection src/cuda/rodinia/3.1/cuda/
 * streamcluster/streamcluster_cuda.cu) as an address-stream emulator.
 *
 * pgain() launches kernel_compute_cost once per call, 512 threads per CTA,
 * grid (ceil(num/512), 1):
 *   bid = blockIdx.x + gridDim.x*blockIdx.y;  tid = blockDim.x*bid + threadIdx.x;
 *   if (tid < num) {
 *       lower = &work_mem_d[tid*stride];
 *       x_cost = d_dist(tid, x, num, dim, coord_d) * p[tid].weight;
 *           d_dist: for (i = 0; i < dim; i++)
 *                       { t = coord_d[i*num + tid] - coord_d[i*num + x]; r += t*t; }
 *       if (x_cost < p[tid].cost)
 *           { switch_membership_d[tid] = 1; lower[K] += x_cost - p[tid].cost; }
 *       else lower[center_table_d[p[tid].assign]] += p[tid].cost - x_cost;
 *   }
 * with K = *numcenters and stride = K + 1. coord_d is SoA (coalesced);
 * coord_d[i*num + x] is the same address in every lane of every CTA.
 * Point {float weight; float *coord; long assign; float cost;} is 32 B on
 * x86-64: weight at 0, assign (8 B) at 16, cost at 24, so each field load
 * is a 32 B-strided gather (8 lines per warp).
 *
 * The host part (pFL/pkmedian with lrand48) is replaced by a seeded model
 * of its outcome (docs/workloads/rodinia.md): the run is one pFL pass of
 * ITER*kmax*ln(kmax) = 179 pgain calls (kmin 10, kmax 20); candidates cycle
 * through 69 = ITER*kmin*ln(kmin) feasible points drawn at random; K starts
 * in [kmin, kmax] and a call opens x, closing 0, 1 or 2 centres, with
 * probability 1/4. Point tid is assigned to one of the call's K centres
 * and switches to x with probability 1/(K+1) (a fresh random centre beats
 * the nearest of K random ones that often), both from a counter-based hash
 * of (seed, call, tid), so any warp can be generated on its own.
 * center_table[c] is the rank of centre c among the call's centres, as the
 * host's in-order numbering of is_center[] gives.
 *
 * cudaMalloc order: work_mem_d (first call; freed and allocated again in
 * every call, modelled as the same block sized for the largest stride),
 * center_table_d, switch_membership_d, p, coord_d. Read-only: coord_d, p,
 * center_table_d. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/prng.h"
#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define TPB GM_SC_THREADS
#define KMIN 10u
#define KMAX 20u
#define NFEASIBLE 69u   /* (int)(3 * KMIN * ln(KMIN)) */
#define CALLS_PER_PFL 179u   /* (long)(3 * KMAX * ln(KMAX)) */

enum {   /* registers */
    R_TX, R_BX, R_BY, R_NX, R_BID, R_TID, R_P, R_LOW, R_P1, R_P2, R_R, R_END,
    R_A, R_B, R_T, R_PA, R_W, R_XC, R_COST, R_LA, R_L, R_ASG, R_CA, R_CT
};

enum {   /* program points */
    C_S2R_TX = 0, C_S2R_BX, C_S2R_BY, C_S2R_NX, C_BID, C_TID, C_GUARD, C_GBRA,
    C_LOW, C_P1, C_P2, C_R0, C_END,
    C_LD1, C_LD2, C_SUB, C_FMA, C_INC1, C_INC2, C_SETP, C_BRA,
    C_PADDR, C_LD_W, C_MUL, C_LD_C, C_CMP, C_CBRA,
    C_S_ST, C_S_A, C_S_LD, C_S_SUB, C_S_ADD, C_S_STL, C_S_JOIN,
    C_O_LD_A, C_O_A, C_O_LD_CT, C_O_A2, C_O_LD, C_O_SUB, C_O_ADD, C_O_STL,
    C_EXIT, C_DONE
};

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t point_hash(const gm_sc_params *p, uint32_t call, uint32_t tid)
{
    return mix64(p->seed ^ mix64(((uint64_t)call << 32) | tid));
}

/* Rank of tid's centre among the call's (sorted) centres. */
static uint32_t assign_rank(const gm_sc_params *p, uint32_t call, uint32_t tid)
{
    return (uint32_t)((point_hash(p, call, tid) >> 32) % p->calls[call].k);
}

uint32_t gm_sc_assign(const gm_sc_params *p, uint32_t call, uint32_t tid)
{
    const gm_sc_call *c = &p->calls[call];
    return p->center_ids[c->centers + assign_rank(p, call, tid)];
}

int gm_sc_switches(const gm_sc_params *p, uint32_t call, uint32_t tid)
{
    return (uint32_t)point_hash(p, call, tid) % (p->calls[call].k + 1) == 0;
}

typedef struct lanes {
    uint32_t body;     /* tid < num */
    uint32_t tid0;     /* tid of lane 0 */
} lanes;

static int sc_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_sc_launch *launch = kern->params;
    const gm_sc_params *p = launch->sc;
    const gm_sc_call *call = &p->calls[launch->call];
    uint32_t e = gm_warp_exist_mask(TPB, g->warp);
    uint32_t tid0 = g->cta * TPB + g->warp * GM_WARP_SIZE;
    uint32_t b = 0;
    int n = 0;

    if (g->pc == C_DONE)
        return 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if ((e >> l & 1) && tid0 + l < p->num)
            b |= 1u << l;
    /* lanes whose new cost is lower (v[1]), the others in the body (v[2]) */
    uint32_t s = (uint32_t)g->v[1], o = (uint32_t)g->v[2];
    uint64_t stride = call->k + 1;

    while (n < max) {
        gm_inst *in = &out[n++];
        uint64_t i = (uint64_t)g->v[0];
        switch (g->pc) {
        case C_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case C_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case C_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case C_S2R_NX: gm_emit(in, GM_OP_ALU, e, R_NX, R_NONE, R_NONE, R_NONE); break;
        case C_BID:    gm_emit(in, GM_OP_ALU, e, R_BID, R_BX, R_NX, R_BY); break;
        case C_TID:    gm_emit(in, GM_OP_ALU, e, R_TID, R_BID, R_TX, R_NONE); break;
        case C_GUARD:  gm_emit(in, GM_OP_ALU, e, R_P, R_TID, R_NONE, R_NONE); break;
        case C_GBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = b ? C_LOW : C_EXIT;
            continue;
        case C_LOW:  gm_emit(in, GM_OP_ALU, b, R_LOW, R_TID, R_NONE, R_NONE); break;
        case C_P1:   gm_emit(in, GM_OP_ALU, b, R_P1, R_TID, R_NONE, R_NONE); break;
        case C_P2:   gm_emit(in, GM_OP_ALU, b, R_P2, R_NONE, R_NONE, R_NONE); break;
        case C_R0:   gm_emit(in, GM_OP_ALU, b, R_R, R_NONE, R_NONE, R_NONE); break;
        case C_END:
            gm_emit(in, GM_OP_ALU, b, R_END, R_P1, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case C_LD1:   /* coord_d[i*num + tid] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_A, R_P1, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? p->coord + 4 * (i * p->num + tid0 + l) : 0;
            break;
        case C_LD2:   /* coord_d[i*num + x]: one address for the whole GPU */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_B, R_P2, R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_bcast(in, p->coord + 4 * (i * p->num + call->x));
            break;
        case C_SUB:  gm_emit(in, GM_OP_ALU, b, R_T, R_A, R_B, R_NONE); break;
        case C_FMA:  gm_emit(in, GM_OP_ALU, b, R_R, R_T, R_T, R_R); break;
        case C_INC1: gm_emit(in, GM_OP_ALU, b, R_P1, R_P1, R_NONE, R_NONE); break;
        case C_INC2: gm_emit(in, GM_OP_ALU, b, R_P2, R_P2, R_NONE, R_NONE); break;
        case C_SETP: gm_emit(in, GM_OP_ALU, b, R_P, R_P1, R_END, R_NONE); break;
        case C_BRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = (int64_t)++i;
            g->pc = i < p->dim ? C_LD1 : C_PADDR;
            continue;
        case C_PADDR: gm_emit(in, GM_OP_ALU, b, R_PA, R_TID, R_NONE, R_NONE); break;
        case C_LD_W:
        case C_LD_C: {
            int w = g->pc == C_LD_W;
            uint64_t field = w ? GM_SC_WEIGHT_OFF : GM_SC_COST_OFF;
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, w ? R_W : R_COST, R_PA, R_NONE, 4,
                        GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1)
                                  ? p->p + GM_SC_POINT_BYTES * (uint64_t)(tid0 + l) + field
                                  : 0;
            break;
        }
        case C_MUL:  gm_emit(in, GM_OP_ALU, b, R_XC, R_R, R_W, R_NONE); break;
        case C_CMP:  gm_emit(in, GM_OP_ALU, b, R_P, R_XC, R_COST, R_NONE); break;
        case C_CBRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_P, R_NONE, R_NONE);
            s = 0;
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                if ((b >> l & 1) && gm_sc_switches(p, launch->call, tid0 + l))
                    s |= 1u << l;
            o = b & ~s;
            g->v[1] = s;
            g->v[2] = o;
            g->pc = s ? C_S_ST : o ? C_O_LD_A : C_EXIT;
            continue;
        /* switch_membership_d[tid] = 1; lower[K] += x_cost - p[tid].cost */
        case C_S_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, s, R_NONE, R_TID, R_P, 1, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (s >> l & 1) ? p->switch_membership + tid0 + l : 0;
            break;
        case C_S_A:  gm_emit(in, GM_OP_ALU, s, R_LA, R_LOW, R_NONE, R_NONE); break;
        case C_S_LD:
        case C_S_STL:
            if (g->pc == C_S_LD)
                gm_emit_mem(in, GM_OP_GLOBAL_LD, s, R_L, R_LA, R_NONE, 4, 0);
            else
                gm_emit_mem(in, GM_OP_GLOBAL_ST, s, R_NONE, R_LA, R_L, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (s >> l & 1)
                                  ? p->work_mem + 4 * ((tid0 + l) * stride + call->k) : 0;
            break;
        case C_S_SUB: gm_emit(in, GM_OP_ALU, s, R_T, R_XC, R_COST, R_NONE); break;
        case C_S_ADD: gm_emit(in, GM_OP_ALU, s, R_L, R_L, R_T, R_NONE); break;
        case C_S_JOIN:   /* jump over the else part */
            gm_emit(in, GM_OP_BRANCH, s, R_NONE, R_NONE, R_NONE, R_NONE);
            g->pc = o ? C_O_LD_A : C_EXIT;
            continue;
        /* lower[center_table_d[p[tid].assign]] += p[tid].cost - x_cost */
        case C_O_LD_A:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, o, R_ASG, R_PA, R_NONE, 8, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (o >> l & 1) ? p->p + GM_SC_POINT_BYTES * (uint64_t)(tid0 + l) +
                                                 GM_SC_ASSIGN_OFF
                                           : 0;
            break;
        case C_O_A:  gm_emit(in, GM_OP_ALU, o, R_CA, R_ASG, R_NONE, R_NONE); break;
        case C_O_LD_CT:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, o, R_CT, R_CA, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (o >> l & 1)
                                  ? p->center_table +
                                        4 * (uint64_t)gm_sc_assign(p, launch->call, tid0 + l)
                                  : 0;
            break;
        case C_O_A2: gm_emit(in, GM_OP_ALU, o, R_LA, R_LOW, R_CT, R_NONE); break;
        case C_O_LD:
        case C_O_STL:
            if (g->pc == C_O_LD)
                gm_emit_mem(in, GM_OP_GLOBAL_LD, o, R_L, R_LA, R_NONE, 4, 0);
            else
                gm_emit_mem(in, GM_OP_GLOBAL_ST, o, R_NONE, R_LA, R_L, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] =
                    (o >> l & 1)
                        ? p->work_mem +
                              4 * ((tid0 + l) * stride + assign_rank(p, launch->call, tid0 + l))
                        : 0;
            break;
        case C_O_SUB: gm_emit(in, GM_OP_ALU, o, R_T, R_COST, R_XC, R_NONE); break;
        case C_O_ADD: gm_emit(in, GM_OP_ALU, o, R_L, R_L, R_T, R_NONE); break;
        case C_EXIT:
            return gm_gen_exit(g, in, e, C_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, C_DONE, n);
        }
        g->pc++;
    }
    return n;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int contains(const uint32_t *v, uint32_t n, uint32_t x)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

int gm_streamcluster_build_dims(gm_workload *w, uint32_t num, uint32_t dim, uint32_t ncalls,
                                uint64_t seed, gm_error *err)
{
    const uint32_t kcap = 2 * KMAX;   /* K never exceeds this */
    if (num < 2 * kcap || num > (1u << 24) || !dim || (uint64_t)num * dim > INT32_MAX / 4 ||
        !ncalls || ncalls > 100000)
        return gm_fail(err, "streamcluster: bad size num=%u dim=%u calls=%u", num, dim,
                       ncalls);
    size_t bytes = sizeof(gm_sc_params) + ncalls * sizeof(gm_sc_launch) +
                   ncalls * sizeof(gm_sc_call) + (size_t)ncalls * kcap * sizeof(uint32_t);
    if (gm_workload_alloc(w, "streamcluster", ncalls, bytes, err))
        return -1;

    /* one block: params, launches, calls, centre ids */
    gm_sc_params *p = w->priv;
    gm_sc_launch *launch = (gm_sc_launch *)(p + 1);
    gm_sc_call *calls = (gm_sc_call *)(launch + ncalls);
    uint32_t *ids = (uint32_t *)(calls + ncalls);
    p->num = num;
    p->dim = dim;
    p->ncalls = ncalls;
    p->seed = seed;
    p->calls = calls;
    p->center_ids = ids;

    gm_prng r;
    gm_prng_seed(&r, seed, 0x5c);
    uint32_t feasible[NFEASIBLE], nf = 0;
    while (nf < NFEASIBLE) {   /* distinct random points */
        uint32_t x = (uint32_t)gm_prng_below(&r, num);
        if (!contains(feasible, nf, x))
            feasible[nf++] = x;
    }
    uint32_t centers[2 * KMAX + 1];
    uint32_t k = KMIN + (uint32_t)gm_prng_below(&r, KMAX - KMIN + 1);
    for (uint32_t c = 0; c < k;) {
        uint32_t x = (uint32_t)gm_prng_below(&r, num);
        if (!contains(centers, c, x))
            centers[c++] = x;
    }
    uint32_t used = 0, max_k = 0;
    for (uint32_t c = 0; c < ncalls; c++) {
        uint32_t x = feasible[c % NFEASIBLE];
        calls[c].x = x;
        calls[c].k = k;
        calls[c].centers = used;
        memcpy(ids + used, centers, k * sizeof *ids);
        qsort(ids + used, k, sizeof *ids, cmp_u32);   /* center_table numbering */
        used += k;
        max_k = k > max_k ? k : max_k;
        /* the outcome of this call: maybe open x, closing 0..2 others (K
         * wanders around its start, as pkmedian keeps it near [kmin, kmax]) */
        if (gm_prng_below(&r, 4) == 0 && !contains(centers, k, x)) {
            uint32_t close = (uint32_t)gm_prng_below(&r, 3);
            for (uint32_t i = 0; i < close && k > 2; i++) {
                uint32_t gone = (uint32_t)gm_prng_below(&r, k);
                centers[gone] = centers[k - 1];
                k--;
            }
            if (k < kcap)
                centers[k++] = x;
        }
    }
    p->max_stride = max_k + 1;

    gm_devmem mem;
    gm_devmem_init(&mem);
    p->work_mem = gm_devmem_alloc(&mem, 4ull * p->max_stride * (num + 1ull));
    p->center_table = gm_devmem_alloc(&mem, 4ull * num);
    p->switch_membership = gm_devmem_alloc(&mem, num);
    p->p = gm_devmem_alloc(&mem, (uint64_t)GM_SC_POINT_BYTES * num);
    p->coord = gm_devmem_alloc(&mem, 4ull * num * dim);
    uint32_t blocks = (num + TPB - 1) / TPB;
    for (uint32_t c = 0; c < ncalls; c++) {
        launch[c].sc = p;
        launch[c].call = c;
        gm_kernel_set(&w->kernels[c], "kernel_compute_cost", gm_dim3_make(blocks, 1, 1),
                      gm_dim3_make(TPB, 1, 1), &launch[c], sc_gen);
    }
    return 0;
}

int gm_streamcluster_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: `sc_gpu 10 20 256 65536 65536 1000 none out 1`, one pFL pass */
    static const uint32_t num[] = {2048, 16384, 65536, 65536};
    static const uint32_t dim[] = {64, 64, 256, 64};
    static const uint32_t calls[] = {3, 8, CALLS_PER_PFL, 8};

    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "streamcluster: bad size %d", (int)size);
    return gm_streamcluster_build_dims(w, num[size], dim[size], calls[size], seed, err);
}
