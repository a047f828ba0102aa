/* Rodinia 3.1 kmeans without textures (gpu-app-collection
 * src/cuda/custom-apps/rodinia-kmn-no-tex/kmeans_cuda.cu with the Rodinia
 * kmeansPoint kernel reading global memory) as an address-stream emulator.
 *
 *   block_id = gridDim.x*blockIdx.y + blockIdx.x;  point_id = block_id*256 + threadIdx.x;
 *   if (point_id < npoints) {
 *       for (i = 0; i < nclusters; i++) {
 *           ans = 0;
 *           for (j = 0; j < nfeatures; j++) {
 *               diff = features[point_id*nfeatures + j] - clusters[i*nfeatures + j];
 *               ans += diff*diff;
 *           }
 *           if (ans < min_dist) { min_dist = ans; index = i; }
 *       }
 *       membership[point_id] = index;
 *   }
 *
 * The no-texture variant passes feature_flipped_d, the host's [npoints]
 * [nfeatures] array (invert_mapping is not run), so a warp's feature load
 * has a lane stride of nfeatures*4 bytes (136 B for 34 features: about one
 * line per lane), and the cluster centres come from global memory: one
 * broadcast address per warp load, the same for every CTA. The minimum is
 * a select, not a branch. Grid: num_blocks = ceil(npoints/256), rounded up
 * to a square blocks_perdim^2; block 256 (THREADS_PER_DIM^2). One launch
 * per host iteration (the count depends on convergence; fixed per size).
 * cudaMalloc order: feature_flipped_d, feature_d, membership_d, clusters_d.
 * Read-only: feature_flipped_d and clusters_d. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define TPB 256u

enum {   /* registers */
    R_TX, R_BX, R_BY, R_NX, R_BID, R_PID, R_P, R_MIN, R_IDX, R_FB, R_I,
    R_ANS, R_FP, R_CP, R_FEND, R_F, R_C, R_D, R_PC, R_MA
};

enum {   /* program points */
    K_S2R_TX = 0, K_S2R_BX, K_S2R_BY, K_S2R_NX, K_BID, K_PID, K_GUARD, K_GBRA,
    K_MIN0, K_IDX0, K_FB, K_I0,
    K_ANS0, K_FP, K_CP, K_FEND,
    K_LDF, K_LDC, K_SUB, K_FMA, K_INCF, K_INCC, K_SETP, K_BRA,
    K_CMP, K_SELD, K_SELI, K_IINC, K_ISETP, K_IBRA,
    K_MADDR, K_ST,
    K_EXIT, K_DONE
};

static int kmeans_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_kmeans_params *p = kern->params;
    uint32_t e = gm_warp_exist_mask(TPB, g->warp);
    uint64_t pid0 = (uint64_t)g->cta * TPB + g->warp * GM_WARP_SIZE;
    uint64_t nf = p->nfeatures;
    uint32_t b = 0;
    int n = 0;

    if (g->pc == K_DONE)
        return 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if ((e >> l & 1) && pid0 + l < p->npoints)
            b |= 1u << l;

    while (n < max) {
        gm_inst *in = &out[n++];
        uint64_t i = (uint64_t)g->v[0], j = (uint64_t)g->v[1];
        switch (g->pc) {
        case K_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case K_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case K_S2R_BY: gm_emit(in, GM_OP_ALU, e, R_BY, R_NONE, R_NONE, R_NONE); break;
        case K_S2R_NX: gm_emit(in, GM_OP_ALU, e, R_NX, R_NONE, R_NONE, R_NONE); break;
        case K_BID:    gm_emit(in, GM_OP_ALU, e, R_BID, R_NX, R_BY, R_BX); break;
        case K_PID:    gm_emit(in, GM_OP_ALU, e, R_PID, R_BID, R_TX, R_NONE); break;
        case K_GUARD:  gm_emit(in, GM_OP_ALU, e, R_P, R_PID, R_NONE, R_NONE); break;
        case K_GBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = b ? K_MIN0 : K_EXIT;
            continue;
        case K_MIN0: gm_emit(in, GM_OP_ALU, b, R_MIN, R_NONE, R_NONE, R_NONE); break;
        case K_IDX0: gm_emit(in, GM_OP_ALU, b, R_IDX, R_NONE, R_NONE, R_NONE); break;
        case K_FB:   gm_emit(in, GM_OP_ALU, b, R_FB, R_PID, R_NONE, R_NONE); break;
        case K_I0:
            gm_emit(in, GM_OP_ALU, b, R_I, R_NONE, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case K_ANS0: gm_emit(in, GM_OP_ALU, b, R_ANS, R_NONE, R_NONE, R_NONE); break;
        case K_FP:   gm_emit(in, GM_OP_ALU, b, R_FP, R_FB, R_NONE, R_NONE); break;
        case K_CP:   gm_emit(in, GM_OP_ALU, b, R_CP, R_I, R_NONE, R_NONE); break;
        case K_FEND:
            gm_emit(in, GM_OP_ALU, b, R_FEND, R_FP, R_NONE, R_NONE);
            g->v[1] = 0;
            break;
        case K_LDF:   /* features[point_id*nfeatures + j] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_F, R_FP, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? p->feature_flipped + 4 * ((pid0 + l) * nf + j)
                                           : 0;
            break;
        case K_LDC:   /* clusters[i*nfeatures + j] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_C, R_CP, R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_bcast(in, p->clusters + 4 * (i * nf + j));
            break;
        case K_SUB:  gm_emit(in, GM_OP_ALU, b, R_D, R_F, R_C, R_NONE); break;
        case K_FMA:  gm_emit(in, GM_OP_ALU, b, R_ANS, R_D, R_D, R_ANS); break;
        case K_INCF: gm_emit(in, GM_OP_ALU, b, R_FP, R_FP, R_NONE, R_NONE); break;
        case K_INCC: gm_emit(in, GM_OP_ALU, b, R_CP, R_CP, R_NONE, R_NONE); break;
        case K_SETP: gm_emit(in, GM_OP_ALU, b, R_P, R_FP, R_FEND, R_NONE); break;
        case K_BRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = (int64_t)++j;
            g->pc = j < nf ? K_LDF : K_CMP;
            continue;
        case K_CMP:  gm_emit(in, GM_OP_ALU, b, R_PC, R_ANS, R_MIN, R_NONE); break;
        case K_SELD: gm_emit(in, GM_OP_ALU, b, R_MIN, R_PC, R_ANS, R_MIN); break;
        case K_SELI: gm_emit(in, GM_OP_ALU, b, R_IDX, R_PC, R_I, R_IDX); break;
        case K_IINC: gm_emit(in, GM_OP_ALU, b, R_I, R_I, R_NONE, R_NONE); break;
        case K_ISETP: gm_emit(in, GM_OP_ALU, b, R_P, R_I, R_NONE, R_NONE); break;
        case K_IBRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = (int64_t)++i;
            g->pc = i < p->nclusters ? K_ANS0 : K_MADDR;
            continue;
        case K_MADDR: gm_emit(in, GM_OP_ALU, b, R_MA, R_PID, R_NONE, R_NONE); break;
        case K_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_MA, R_IDX, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? p->membership + 4 * (pid0 + l) : 0;
            break;
        case K_EXIT:
            return gm_gen_exit(g, in, e, K_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, K_DONE, n);
        }
        g->pc++;
    }
    return n;
}

int gm_kmeans_build_dims(gm_workload *w, uint32_t npoints, uint32_t nfeatures,
                         uint32_t nclusters, uint32_t iterations, gm_error *err)
{
    /* ASSUMED_NR_CLUSTERS is 32 in the original constant-memory version */
    if (!npoints || !nfeatures || !nclusters || nclusters > 32 || !iterations ||
        iterations > 500 || (uint64_t)npoints * nfeatures > INT32_MAX / 4)
        return gm_fail(err, "kmeans: bad size %u points x %u features, %u clusters, %u iter",
                       npoints, nfeatures, nclusters, iterations);
    if (gm_workload_alloc(w, "kmeans", iterations, sizeof(gm_kmeans_params), err))
        return -1;

    gm_kmeans_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint32_t blocks = npoints / TPB + (npoints % TPB ? 1 : 0);
    uint32_t perdim = 1;   /* the smallest square >= blocks (host: sqrt, then ++) */
    while (perdim * perdim < blocks)
        perdim++;
    p->npoints = npoints;
    p->nfeatures = nfeatures;
    p->nclusters = nclusters;
    p->iterations = iterations;
    p->blocks_perdim = perdim;
    p->feature_flipped = gm_devmem_alloc(&mem, 4ull * npoints * nfeatures);
    p->feature = gm_devmem_alloc(&mem, 4ull * npoints * nfeatures);
    p->membership = gm_devmem_alloc(&mem, 4ull * npoints);
    p->clusters = gm_devmem_alloc(&mem, 4ull * nclusters * nfeatures);
    for (uint32_t i = 0; i < iterations; i++)
        gm_kernel_set(&w->kernels[i], "kmeansPoint", gm_dim3_make(perdim, perdim, 1),
                      gm_dim3_make(TPB, 1, 1), p, kmeans_gen);
    return 0;
}

int gm_kmeans_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: `kmeans -o -i kdd_cup` (494,020 points x 34 features, 5
     * clusters), 4 kmeansPoint launches as the Accel-Sim run shows */
    static const uint32_t npoints[] = {2000, 16384, 494020, 30720};
    static const uint32_t iters[] = {2, 2, 4, 2};

    (void)seed;   /* the features give values only */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "kmeans: bad size %d", (int)size);
    return gm_kmeans_build_dims(w, npoints[size], 34, 5, iters[size], err);
}
