/* The PolyBench-GPU kernels beyond GEMM/ATAX (2MM, 3MM, SYRK, 2DCONV,
 * 3DCONV, BICG, MVT) and the Tango-style convolution layers (AlexNet,
 * ResNet, SqueezeNet). Each workload has a catalogue builder (named size)
 * and, where tests need other shapes, a builder with explicit dimensions.
 * Parameter blocks hold the device addresses in the host code's
 * cudaMalloc order. See docs/workloads/polybench.md and
 * docs/workloads/tango.md. */
#ifndef GM_WORKLOAD_KERNELS_POLYBENCH_TANGO_H
#define GM_WORKLOAD_KERNELS_POLYBENCH_TANGO_H

#include <stdint.h>

#include "workload/workload.h"
#include "workload/kernels/kernels.h"   /* gm_pb_mv_params */

/* ------------------------------------------------------------ PolyBench */

/* One matrix-multiply-accumulate launch of 2MM/3MM, block (32,8):
 *   j = bx*32 + tx;  i = by*8 + ty;
 *   if (i < rows && j < cols) for (k = 0; k < trip; k++)
 *       acc[i*cols + j] += x[i*trip + k] * y[k*cols + j];          */
typedef struct gm_pb_mm_params {
    uint32_t rows, cols, trip;
    uint64_t x, y, acc;
} gm_pb_mm_params;

/* 2MM: C += A*B (NIxNK * NKxNJ), then E += C*D (NIxNJ * NJxNL). */
typedef struct gm_2mm_params {
    uint32_t ni, nj, nk, nl;
    uint64_t a, b, c, d, e;     /* cudaMalloc order */
    gm_pb_mm_params k[2];
} gm_2mm_params;

/* 3MM: E += A*B, F += C*D, G += E*F. */
typedef struct gm_3mm_params {
    uint32_t ni, nj, nk, nl, nm;
    uint64_t a, b, c, d, e, f, g;   /* cudaMalloc order */
    gm_pb_mm_params k[3];
} gm_3mm_params;

int gm_2mm_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_2mm_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                      uint32_t nl, gm_error *err);
int gm_3mm_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_3mm_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                      uint32_t nl, uint32_t nm, gm_error *err);

/* SYRK: C = alpha*A*A^T + beta*C, A NxM, C NxN, one launch. */
typedef struct gm_syrk_params {
    uint32_t n, m;
    uint64_t a, c;
} gm_syrk_params;

int gm_syrk_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_syrk_build_dims(gm_workload *w, uint32_t n, uint32_t m, gm_error *err);

/* 2DCONV: 3x3 stencil of A into B, NIxNJ, one launch. */
typedef struct gm_2dconv_params {
    uint32_t ni, nj;
    uint64_t a, b;
} gm_2dconv_params;

int gm_2dconv_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_2dconv_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, gm_error *err);

/* 3DCONV: one launch per plane i = 1 .. NI-2 (kernel k holds i = k+1). */
typedef struct gm_3dconv_launch {
    uint32_t ni, nj, nk, i;
    uint64_t a, b;
} gm_3dconv_launch;

typedef struct gm_3dconv_params {
    uint32_t ni, nj, nk;
    uint64_t a, b;
    gm_3dconv_launch launch[];   /* NI-2 entries */
} gm_3dconv_params;

int gm_3dconv_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_3dconv_build_dims(gm_workload *w, uint32_t ni, uint32_t nj, uint32_t nk,
                         gm_error *err);

/* BICG: s = A^T r (kernel 1), q = A p (kernel 2), A NXxNY. */
typedef struct gm_bicg_params {
    uint32_t nx, ny;
    uint64_t a, r, s, p, q;     /* cudaMalloc order */
    gm_pb_mv_params k[2];
} gm_bicg_params;

/* MVT: x1 += A y_1 (kernel 1), x2 += A^T y_2 (kernel 2), A NxN. */
typedef struct gm_mvt_params {
    uint32_t n;
    uint64_t a, x1, x2, y1, y2; /* cudaMalloc order */
    gm_pb_mv_params k[2];
} gm_mvt_params;

int gm_bicg_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_bicg_build_dims(gm_workload *w, uint32_t nx, uint32_t ny, gm_error *err);
int gm_mvt_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_mvt_build_dims(gm_workload *w, uint32_t n, gm_error *err);

/* ------------------------------------------------------------ Tango */

/* AlexNet executeFirstLayer: 11x11x3 stride-4 convolution of the
 * interleaved 227x227x3 image, one output channel per CTA, one output
 * pixel per thread: row = tx + r_off, col = ty + c_off. */
typedef struct gm_an_conv1_params {
    uint32_t r_off, c_off;
    uint64_t in, w, bias, out;
} gm_an_conv1_params;

/* The direct convolutions execute3DconvolutionCuda and
 * execute3Dconvolutiongroup2Cuda (AlexNet, GM_TCONV_ALEXNET: row = tx,
 * col = ty, asymmetric padding, bias + ReLU) and
 * execute3DconvolutionCuda_split (ResNet, GM_TCONV_SPLIT: tfactor x
 * tfactor outputs per thread, no bias). */
#define GM_TCONV_ALEXNET 0u
#define GM_TCONV_SPLIT 1u

typedef struct gm_tconv_params {
    uint32_t mode;
    uint32_t out_off;        /* output channel = blockIdx.x + out_off */
    uint32_t feat0, nfeat;   /* input features feat0 .. feat0+nfeat-1 */
    uint32_t fr, fc;         /* output feature map */
    uint32_t stride_width, kernel, pad;
    uint32_t in_output;      /* weights per output channel: kernel^2 * in_output */
    uint32_t in_fr;          /* SPLIT: input map side (ALEXNET: = fr) */
    uint32_t tfactor;        /* SPLIT: outputs per thread and axis (ALEXNET: 1) */
    uint64_t in, w, bias, out;
} gm_tconv_params;

int gm_tconv_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max);

/* AlexNet conv1 (4 launches) and conv2 (execute3DconvolutionCuda and
 * execute3Dconvolutiongroup2Cuda), with c1 conv1 output channels, c2
 * conv2 output channels per group and f2 input features per group (the
 * benchmark: 96, 128, 48). */
typedef struct gm_alexnet_params {
    uint32_t c1, c2, f2;
    /* cudaMalloc order of the host code */
    uint64_t l1_neurons, l1_weights, l1_bias, l1_norm, l1_pool;
    uint64_t l2_neurons, l2_weights, l2_bias, l2_norm;
    gm_an_conv1_params conv1[4];
    gm_tconv_params conv2[2];
} gm_alexnet_params;

int gm_alexnet_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_alexnet_build_dims(gm_workload *w, uint32_t c1, uint32_t c2, uint32_t f2,
                          gm_error *err);

/* ResNet-50 block res2a: the four execute3DconvolutionCuda_split
 * launches (branch1, branch2a, branch2b, branch2c) on the 56x56 maps,
 * with c channels where the benchmark has 64 (outputs 4c, c, c, 4c). */
typedef struct gm_resnet_params {
    uint32_t c;
    /* cudaMalloc order: main(), then executeLayer2_CUDA() */
    uint64_t mean0, var0, scale0, bias0;
    uint64_t l1_weights, l2_neurons, l1_neurons, l2_pool, l2c_neurons;
    uint64_t mean, var, scale, bias;
    uint64_t w2a, w2b, w2c, n2a, n2b, eltwise;
    gm_tconv_params conv[4];
} gm_resnet_params;

int gm_resnet_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_resnet_build_dims(gm_workload *w, uint32_t c, gm_error *err);

/* SqueezeNet fire kernels (double precision), block `side` threads, grid
 * `side` CTAs: x = tx, y = bx.
 *   1x1 (Executefire*squeeze1x1, Executefire*expand1x1):
 *     for f < nf: for n < nn: s += in[n*side^2 + x*side + y] * w[f*nn + n];
 *                 out[f*side^2 + x*side + y] = relu(s)
 *   3x3 (Executefire*expand3x3): the same over the 3x3 neighbourhood
 *     (i, j) = (x+di, y+dj) inside the map, weight w[m + f*9*nn + n*9]. */
#define GM_SN_1X1 0u
#define GM_SN_3X3 1u

typedef struct gm_sn_fire_params {
    uint32_t kind;
    uint32_t side, nf, nn;
    uint64_t in, w, out;     /* out: the kernel's output pointer argument */
} gm_sn_fire_params;

/* fire2 and fire3 (squeeze1x1, expand1x1, expand3x3 each) on the 55x55
 * maps, channels divided by `div` (1 = the benchmark: fire2 96 -> 16 ->
 * 64+64, fire3 128 -> 16 -> 64+64). */
typedef struct gm_squeezenet_params {
    uint32_t div;
    uint32_t c_conv1, s, e;  /* conv1 channels, squeeze, expand (per branch) */
    /* cudaMalloc order of the host code (NUM = 1 image) */
    uint64_t l1_features, l1_weights, data_r, data_g, data_b, pool;
    uint64_t f2_sq_feat, f2_sq_w, f2_feat, f2_e1_w, f2_e3_w;
    uint64_t f3_sq_feat, f3_sq_w, f3_feat, f3_e1_w, f3_e3_w;
    gm_sn_fire_params k[6];
} gm_squeezenet_params;

int gm_squeezenet_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_squeezenet_build_dims(gm_workload *w, uint32_t div, gm_error *err);

/* ------------------------------------------------------------ doitgen */

/* One doitgen launch (kernel1 or kernel2 of host iteration r). */
typedef struct gm_doitgen_launch {
    uint32_t nr, nq, np, r;
    uint8_t kernel2;
    uint64_t a, c4, sum;
} gm_doitgen_launch;

/* doitgen: the first `runs` of the host's nr (kernel1, kernel2) pairs. */
typedef struct gm_doitgen_params {
    uint32_t nr, nq, np, runs;
    uint64_t a, c4, sum;       /* cudaMalloc order */
    gm_doitgen_launch launch[];   /* 2 * runs */
} gm_doitgen_params;

int gm_doitgen_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_doitgen_build_dims(gm_workload *w, uint32_t nr, uint32_t nq, uint32_t np,
                          uint32_t runs, gm_error *err);

#endif
