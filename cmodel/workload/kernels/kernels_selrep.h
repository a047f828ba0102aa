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

extern const gm_workload_info gm_catalogue_selrep[];

#endif
