/* The SelRep seed's two Table II workloads that no other suite has: the
 * CUDA SDK matrixMul (MM) and GPGPU-Sim's ISPASS-2009 neural network (NN).
 * Each has five configurations (the seed's mm_0..mm_4 and nn_0..nn_4,
 * catalogue entries matrixmul_K and neuralnet_K) and a builder with
 * explicit dimensions for tests. See docs/workloads/selrep.md. */
#ifndef GM_WORKLOAD_KERNELS_SELREP_H
#define GM_WORKLOAD_KERNELS_SELREP_H

#include <stdint.h>

#include "workload/workload.h"

#define GM_SELREP_CONFIGS 5u

/* matrixMul: C = A * B, A hA x wA, B wA x wB (multiples of 16). */
typedef struct gm_matrixmul_params {
    uint32_t ha, wa, wb;
    uint64_t a, b, c;   /* cudaMalloc order */
} gm_matrixmul_params;

int gm_matrixmul_build_dims(gm_workload *w, uint32_t ha, uint32_t wa, uint32_t wb,
                            gm_error *err);
int gm_matrixmul_build_config(gm_workload *w, uint32_t config, gm_size size, gm_error *err);

/* The NN's four layers, one launch each, over `num` images. */
typedef struct gm_nn_layer {
    uint32_t index;               /* 0..3: executeFirstLayer .. executeFourthLayer */
    uint64_t in, weights, out;    /* neurons read, weights, neurons written */
} gm_nn_layer;

typedef struct gm_neuralnet_params {
    uint32_t num;
    /* cudaMalloc order: Layer1_Neurons, Layer1_Weights, ..., Layer4_Weights,
     * Layer5_Neurons */
    uint64_t neurons[5], weights[4];
    gm_nn_layer layer[4];
} gm_neuralnet_params;

int gm_neuralnet_build_num(gm_workload *w, uint32_t num, gm_error *err);
int gm_neuralnet_build_config(gm_workload *w, uint32_t config, gm_size size, gm_error *err);

/* The SelRep seed's Table III (non-replication-sensitive) CUDA SDK
 * samples that no other suite has: vectorAdd (VA) and mergeSort (MS).
 * See docs/workloads/selrep.md. */

/* vectorAdd: C[i] = A[i] + B[i] over n floats. */
typedef struct gm_vectoradd_params {
    uint32_t n;
    uint64_t a, b, c;   /* cudaMalloc order */
} gm_vectoradd_params;

int gm_vectoradd_build_n(gm_workload *w, uint32_t n, gm_error *err);
int gm_vectoradd_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);

/* mergeSort: N uint keys (and their values) sorted ascending by the
 * sample's four kernels. */
#define GM_MS_SHARED 1024u      /* SHARED_SIZE_LIMIT */
#define GM_MS_SAMPLE 128u       /* SAMPLE_STRIDE */
#define GM_MS_MAX_SAMPLES 32768u /* MAX_SAMPLE_COUNT: N <= 128 * 32768 */
#define GM_MS_MAX_STAGES 12u    /* merge strides 1024 .. N/2 at N = 4M */
#define GM_MS_KEY_RANGE 65536u  /* numValues: keys are rand() % 65536 */

typedef enum gm_ms_kind {
    GM_MS_SHARED_SORT = 0,  /* mergeSortSharedKernel<1> */
    GM_MS_SAMPLE_RANKS,     /* generateSampleRanksKernel<1> */
    GM_MS_MERGE_RANKS,      /* mergeRanksAndIndicesKernel */
    GM_MS_INTERVALS         /* mergeElementaryIntervalsKernel<1> */
} gm_ms_kind;

struct gm_mergesort_params;

/* One launch: its kernel, merge stage (stride 1024 << stage) and the
 * arrays it reads and writes (device addresses). */
typedef struct gm_mergesort_launch {
    const struct gm_mergesort_params *ms;   /* the workload's own block */
    uint32_t kind, stage;
    uint64_t src_key, src_val, dst_key, dst_val;
    uint64_t ranks, limits;   /* merge ranks: the A or the B pair */
    uint32_t pair;            /* 0: RanksA/LimitsA, 1: RanksB/LimitsB */
} gm_mergesort_launch;

/* The priv block: this header, then the key data the address streams
 * depend on (see mergesort_key, mergesort_rank, mergesort_limit). */
typedef struct gm_mergesort_params {
    uint32_t n, log2n, stages;
    /* cudaMalloc order: DstKey, DstVal, BufKey, BufVal, SrcKey, SrcVal,
     * then initMergeSort's RanksA, RanksB, LimitsA, LimitsB */
    uint64_t dst_key, dst_val, buf_key, buf_val, src_key, src_val;
    uint64_t ranks[2], limits[2];
    gm_mergesort_launch launch[1 + 4 * GM_MS_MAX_STAGES];
    uint64_t levels_off, ranks_off, limits_off;   /* byte offsets in this block */
} gm_mergesort_params;

int gm_mergesort_build_n(gm_workload *w, uint32_t n, uint64_t seed, gm_error *err);
int gm_mergesort_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);

/* The data: key i of the array whose aligned 2^lg-blocks are each sorted
 * (stably; lg 0 is the input), and the value of Ranks{A,B}[j] and
 * Limits{A,B}[j] after merge stage `stage`'s first two kernels. */
uint32_t gm_mergesort_key(const gm_mergesort_params *p, uint32_t lg, uint64_t i);
uint32_t gm_mergesort_rank(const gm_mergesort_params *p, uint32_t stage, uint32_t pair,
                           uint64_t j);
uint32_t gm_mergesort_limit(const gm_mergesort_params *p, uint32_t stage, uint32_t pair,
                            uint64_t j);

extern const gm_workload_info gm_catalogue_selrep[];

#endif
