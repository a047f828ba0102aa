/* AMD APP SDK kernels (the shared-L1 seed's workloads,
 * docs/designs/sharedl1.md): address-stream emulators of the OpenCL
 * samples, a work-item per CUDA thread, a workgroup per CTA (x fastest in
 * both). Included by kernels.h. */
#ifndef GM_WORKLOAD_KERNELS_AMDSDK_H
#define GM_WORKLOAD_KERNELS_AMDSDK_H

#include <stdint.h>

#include "workload/workload.h"

/* FloydWarshall (FloydWarshall_Kernels.cl, floydWarshallPass): one launch
 * per pass k = 0 .. n-1 over an n x n grid of 16 x 16 workgroups. */
#define GM_FW_BLOCK 16u
#define GM_FW_MAXDISTANCE 200u

typedef struct gm_fw_params {
    uint32_t n;              /* numNodes, a multiple of 16 */
    uint64_t dist, path;     /* pathDistanceBuffer, pathBuffer (allocated in this order) */
    uint64_t updates;        /* (y, x, k) triples whose store happens, all passes */
    /* followed in the same block by gm_fw_pass[n], then the update bitmap:
     * bit (k * n + y) * n + x is set when pass k stores at (y, x) */
} gm_fw_params;

typedef struct gm_fw_pass {
    const gm_fw_params *p;   /* the workload's shared parameters */
    const uint8_t *upd;      /* this workload's bitmap */
    uint32_t k;
} gm_fw_pass;

int gm_floydwarshall_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
/* n: numNodes (multiple of 16, 16..1024). The distances are drawn from a
 * PRNG seeded by seed, uniform in 0..GM_FW_MAXDISTANCE, the diagonal 0,
 * as the sample's fillRandom and setup do. */
int gm_floydwarshall_build_dims(gm_workload *w, uint32_t n, uint64_t seed, gm_error *err);

/* MatrixTranspose (MatrixTranspose_Kernels.cl, matrixTranspose, the
 * blocked version with one element per work-item): one launch over a
 * width x height grid of 16 x 16 workgroups. */
#define GM_MT_BLOCK 16u

typedef struct gm_mt_params {
    uint32_t width, height;  /* multiples of 16 */
    uint64_t input, output;  /* inputBuffer, outputBuffer (allocated in this order) */
} gm_mt_params;

int gm_matrixtranspose_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_matrixtranspose_build_dims(gm_workload *w, uint32_t width, uint32_t height,
                                  gm_error *err);

/* DCT (DCT_Kernels.cl, DCT, forward): one launch over a width x height
 * grid of 8 x 8 workgroups (2 warps each). */
#define GM_DCT_BLOCK 8u

typedef struct gm_dct_params {
    uint32_t width, height;       /* multiples of 8 */
    uint64_t input, output, dct;  /* inputBuffer, outputBuffer, dctBuffer (this order) */
} gm_dct_params;

int gm_dct_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_dct_build_dims(gm_workload *w, uint32_t width, uint32_t height, gm_error *err);

/* RecursiveGaussian (RecursiveGaussian_Kernels.cl): four launches,
 * RecursiveGaussian_kernel (one work-item per column, 256-wide
 * workgroups), transpose_kernel (16 x 16), both again on the transposed
 * image. Pixels are uchar4 (4 B). */
#define GM_RG_GROUP 256u
#define GM_RG_TBLOCK 16u

typedef struct gm_rg_params {
    uint32_t width, height;         /* multiples of 256 */
    uint64_t input, output, temp;   /* input, output, temp image buffers (this order) */
} gm_rg_params;

/* One launch's view: which buffers and which image shape it sees. */
typedef struct gm_rg_launch {
    uint32_t width, height;   /* the kernel's width / height arguments */
    uint64_t in, out;         /* its input and output buffers */
} gm_rg_launch;

int gm_recursivegaussian_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_recursivegaussian_build_dims(gm_workload *w, uint32_t width, uint32_t height,
                                    gm_error *err);

/* ScanLargeArrays (ScanLargeArrays_Kernels.cl): ScanLargeArrays (bScan)
 * per level, prefixSum (pScan) on the top level's block sums,
 * blockAddition (bAdd) back down; blockSize 256. */
#define GM_SLA_BLOCK 256u
#define GM_SLA_MAXPASS 3u

typedef enum gm_sla_kind { GM_SLA_BSCAN = 0, GM_SLA_PSCAN, GM_SLA_BADD } gm_sla_kind;

typedef struct gm_sla_params {
    uint32_t length;                 /* a power of two, 512 .. 2^22 */
    uint32_t pass;                   /* levels of block scans, 1 .. GM_SLA_MAXPASS-1 */
    uint64_t input;                  /* allocated first, then output[], sum[], temp */
    uint64_t output[GM_SLA_MAXPASS]; /* outputBuffer[i]: length / 256^i floats */
    uint64_t sum[GM_SLA_MAXPASS];    /* blockSumBuffer[i]: length / 256^(i+1) floats */
    uint64_t temp;                   /* tempBuffer: length / 256^pass floats */
} gm_sla_params;

typedef struct gm_sla_launch {
    uint32_t kind;       /* gm_sla_kind */
    uint32_t len;        /* the launch's len argument */
    uint64_t in, out;    /* input and output buffers */
    uint64_t sum;        /* bScan's sumBuffer, else 0 */
} gm_sla_launch;

int gm_scanlargearrays_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_scanlargearrays_build_dims(gm_workload *w, uint32_t length, gm_error *err);

/* BlackScholes (BlackScholes_Kernels.cl, blackScholes): one launch over a
 * width x width grid of 16 x 16 groups, a float4 option per work-item. */
#define GM_BS_BLOCK 16u

typedef struct gm_bs_params {
    uint32_t width;               /* a multiple of 256 (the host's rounding) */
    uint64_t rand, call, put;     /* randBuf, callPriceBuf, putPriceBuf (this order) */
} gm_bs_params;

int gm_blackscholes_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_blackscholes_build_dims(gm_workload *w, uint32_t width, gm_error *err);

/* BinomialOption (BinomialOption_Kernels.cl, binomial_options): one
 * launch, a group of numSteps + 1 work-items per option. */
typedef struct gm_bo_params {
    uint32_t samples;        /* numSamples, a multiple of 4 */
    uint32_t steps;          /* numSteps, 1..255 */
    uint64_t rand, output;   /* randBuffer, outBuffer (this order), float4 elements */
} gm_bo_params;

int gm_binomialoption_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_binomialoption_build_dims(gm_workload *w, uint32_t samples, uint32_t steps,
                                 gm_error *err);

/* Histogram (Histogram_Kernels.cl, histogram256, LINEAR_MEM_ACCESS): one
 * launch of width * height / 32768 groups of 128 work-items. */
#define GM_HIST_BINS 256u
#define GM_HIST_GROUP 128u

typedef struct gm_hist_params {
    uint32_t width, height;
    uint64_t data, bins;     /* dataBuf (uint), midDeviceBinBuf (this order) */
    /* followed in the same block by the width * height data values (0..255) */
} gm_hist_params;

int gm_histogram_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
/* The data are drawn from a PRNG seeded by seed, uniform in 0..255. */
int gm_histogram_build_dims(gm_workload *w, uint32_t width, uint32_t height, uint64_t seed,
                            gm_error *err);

/* FastWalshTransform (FastWalshTransform_Kernels.cl, fastWalshTransform):
 * one launch per step 1, 2, .., length / 2 of length / 512 groups of 256. */
#define GM_FWT_GROUP 256u

typedef struct gm_fwt_params {
    uint32_t length;   /* a power of two, at least 512 */
    uint64_t array;    /* inputBuffer (tArray) */
} gm_fwt_params;

typedef struct gm_fwt_launch {
    uint64_t array;
    uint32_t step;
} gm_fwt_launch;

int gm_fastwalshtransform_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_fastwalshtransform_build_dims(gm_workload *w, uint32_t length, gm_error *err);

/* BitonicSort (BitonicSort_Kernels.cl, bitonicSort): a launch per (stage,
 * pass), length / 2 groups of one work-item each (the sample's
 * GROUP_SIZE 1). */
typedef struct gm_bitonic_params {
    uint32_t length;   /* a power of two */
    uint64_t array;    /* inputBuffer (theArray) */
} gm_bitonic_params;

typedef struct gm_bitonic_launch {
    uint64_t array;
    uint32_t stage, pass;
} gm_bitonic_launch;

int gm_bitonicsort_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_bitonicsort_build_dims(gm_workload *w, uint32_t length, gm_error *err);

/* The SDK's Reduction (Reduction_Kernels.cl, reduce; catalogue name
 * sdkreduction, apart from SHOC's reduction): one launch of length / 2048
 * groups of 256 work-items, uint4 elements. */
#define GM_SDKRED_GROUP 256u

typedef struct gm_sdkred_params {
    uint32_t length;          /* uints, a multiple of 2048 */
    uint32_t blocks;          /* numBlocks */
    uint64_t input, output;   /* inputBuffer, outputBuffer (this order) */
} gm_sdkred_params;

int gm_sdkreduction_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_sdkreduction_build_dims(gm_workload *w, uint32_t length, gm_error *err);

/* RadixSort (RadixSort_Kernels.cl): per 8-bit digit, histogram then
 * permute, n / 16384 groups of 64 work-items; the keys (seeded) decide
 * the local addresses and permute's scatter. */
#define GM_RS_RADICES 256u
#define GM_RS_GROUP 64u
#define GM_RS_PASSES 4u

typedef struct gm_rs_params gm_rs_params;

typedef struct gm_rs_launch {
    const gm_rs_params *p;
    uint32_t pass;    /* digit 0..3 (shift 8 * pass) */
    uint32_t kind;    /* 0 histogram, 1 permute */
} gm_rs_launch;

struct gm_rs_params {
    uint32_t n;                      /* elementCount, a power of two in 16384..65536 */
    uint32_t groups;                 /* n / 16384 */
    uint64_t unsorted, bins, scanned, sorted;   /* the four buffers, in this order */
    gm_rs_launch launch[2 * GM_RS_PASSES];
    /* followed in the same block by index[GM_RS_PASSES][n] (uint32: where
     * permute stores the key at each input position) and
     * digit[GM_RS_PASSES][n] (uint8: its digit in that pass) */
};

int gm_radixsort_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
/* Keys drawn from a PRNG seeded by seed, 31 bits (like rand()). */
int gm_radixsort_build_dims(gm_workload *w, uint32_t n, uint64_t seed, gm_error *err);

extern const gm_workload_info gm_catalogue_amdsdk[];

#endif
