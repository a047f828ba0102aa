/* Catalogue entries of the SelRep seed's MM and NN configurations (see
 * kernels_selrep.h): one entry per configuration, since a catalogue builder
 * takes only a size. Both are replication-sensitive in the seed (Table II):
 * every CTA reads the same weights (NN) or a row of A tiles and a column
 * of B tiles that many CTAs share (MM). vectorAdd and mergeSort are in
 * the seed's non-sensitive set (Table III: VA, MS). */
#include "workload/kernels/kernels_selrep.h"

#include "workload/kernels/kernels.h"

/* One builder per configuration; the address stream does not depend on
 * the seed. */
#define CONFIG_BUILDERS(kernel, k)                                                  \
    static int kernel##_##k(gm_workload *w, gm_size size, uint64_t seed,            \
                            gm_error *err)                                          \
    {                                                                               \
        (void)seed;                                                                 \
        return gm_##kernel##_build_config(w, k, size, err);                         \
    }
CONFIG_BUILDERS(matrixmul, 0)
CONFIG_BUILDERS(matrixmul, 1)
CONFIG_BUILDERS(matrixmul, 2)
CONFIG_BUILDERS(matrixmul, 3)
CONFIG_BUILDERS(matrixmul, 4)
CONFIG_BUILDERS(neuralnet, 0)
CONFIG_BUILDERS(neuralnet, 1)
CONFIG_BUILDERS(neuralnet, 2)
CONFIG_BUILDERS(neuralnet, 3)
CONFIG_BUILDERS(neuralnet, 4)

#define MM_STRESSES                                                                 \
    "tiled SGEMM (16x16 tiles in shared memory): each A tile row is read by "      \
    "every CTA of a grid row, each B tile column by every CTA of a grid column; "  \
    "coalesced 64 B half-warp rows"
#define NN_STRESSES                                                                 \
    "4 layers: the CTAs of one output map (blockIdx.x) read the same weights for " \
    "every image, the CTAs of one image that image's neurons; layers 3 and 4 are " \
    "one-thread CTAs (1-lane loads)"

const gm_workload_info gm_catalogue_selrep[] = {
    {"matrixmul_0", "CUDA SDK (SelRep mm_0)", MM_STRESSES, "sensitive", matrixmul_0},
    {"matrixmul_1", "CUDA SDK (SelRep mm_1)", MM_STRESSES, "sensitive", matrixmul_1},
    {"matrixmul_2", "CUDA SDK (SelRep mm_2)", MM_STRESSES, "sensitive", matrixmul_2},
    {"matrixmul_3", "CUDA SDK (SelRep mm_3)", MM_STRESSES, "sensitive", matrixmul_3},
    {"matrixmul_4", "CUDA SDK (SelRep mm_4)", MM_STRESSES, "sensitive", matrixmul_4},
    {"neuralnet_0", "ISPASS-2009 (SelRep nn_0)", NN_STRESSES, "sensitive", neuralnet_0},
    {"neuralnet_1", "ISPASS-2009 (SelRep nn_1)", NN_STRESSES, "sensitive", neuralnet_1},
    {"neuralnet_2", "ISPASS-2009 (SelRep nn_2)", NN_STRESSES, "sensitive", neuralnet_2},
    {"neuralnet_3", "ISPASS-2009 (SelRep nn_3)", NN_STRESSES, "sensitive", neuralnet_3},
    {"neuralnet_4", "ISPASS-2009 (SelRep nn_4)", NN_STRESSES, "sensitive", neuralnet_4},
    {"vectoradd", "CUDA SDK (SelRep VA)",
     "streaming C = A + B: every element read once, no reuse, no shared data",
     "insensitive", gm_vectoradd_build},
    {"mergesort", "CUDA SDK (SelRep MS)",
     "data-dependent binary searches: shared-memory merges of 1024-key blocks, then per "
     "stride global sample ranks, limits and 128-key interval merges; little shared data",
     "insensitive", gm_mergesort_build},
    {NULL, NULL, NULL, NULL, NULL},
};
