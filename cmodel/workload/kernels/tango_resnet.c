/* Tango ResNet-50, block res2a (hnts03/gpu_bench_cuda_11.3 Tango/GPU/
 * ResNet/{rn_kernel.cu,resnet_host.cu}, executeLayer2_CUDA): its four
 * convolutions, each execute3DconvolutionCuda_split (tango_conv.c) with
 * block (32,32), tfactor = ceil(54/32) = 2 (2x2 output points per thread,
 * so tx < 28 and ty < 28 pass the guard and warps 28..31 exit at once),
 * one output channel per CTA, on the 56x56 maps:
 *
 *   branch1:  <<<4c>>>(pool  -> eltwise, 4c out, 1x1, pad 0, c in)   weights W2c
 *   branch2a: <<<c>>> (pool  -> n2a,      c out, 1x1, pad 0, c in)   weights W2a
 *   branch2b: <<<c>>> (n2a   -> n2b,      c out, 3x3, pad 1, c in)   weights W2b
 *   branch2c: <<<4c>>>(n2b   -> l2c,     4c out, 1x1, pad 0, c in)   weights W2c
 *
 * with c = 64 in the benchmark. The batch-norm, scale and ReLU launches
 * between them (element-wise, 2x2 points per thread) and the first layer
 * are not modelled; all their arrays are allocated in the host code's
 * cudaMalloc order (main(), then executeLayer2_CUDA()), scaled with c. */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"

#define SIDE 56u        /* res2 feature maps */
#define TFACTOR 2u      /* ceil(54.0/32.0) as the host computes it */
#define BLOCK 32u       /* numThreads(32,32) */

static void split_launch(gm_kernel *k, gm_tconv_params *c, const char *name,
                         uint32_t outs, uint32_t kernel, uint32_t pad, uint32_t in_output,
                         uint64_t in, uint64_t wts, uint64_t out)
{
    c->mode = GM_TCONV_SPLIT;
    c->out_off = 0;
    c->feat0 = 0;
    c->nfeat = in_output;
    c->fr = SIDE;
    c->fc = SIDE;
    c->stride_width = 1;
    c->kernel = kernel;
    c->pad = pad;
    c->in_output = in_output;
    c->in_fr = SIDE;
    c->tfactor = TFACTOR;
    c->in = in;
    c->w = wts;
    c->bias = 0;   /* NULL: the kernel never reads it */
    c->out = out;
    gm_kernel_set(k, name, gm_dim3_make(outs, 1, 1), gm_dim3_make(BLOCK, BLOCK, 1), c,
                  gm_tconv_gen);
}

int gm_resnet_build_dims(gm_workload *w, uint32_t c, gm_error *err)
{
    if (!c || c > 1024)
        return gm_fail(err, "resnet: bad channel count %u", c);
    if (gm_workload_alloc(w, "resnet", 4, sizeof(gm_resnet_params), err))
        return -1;

    gm_resnet_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t map = (uint64_t)SIDE * SIDE;
    p->c = c;
    /* main(): mean, var, scale, bias (64), conv1 weights (64*7*7*3), conv1
     * output (64*112*112), image (224*224*3), pool (64*56*56), res2 output
     * (256*56*56) */
    p->mean0 = gm_devmem_alloc(&mem, 4ull * c);
    p->var0 = gm_devmem_alloc(&mem, 4ull * c);
    p->scale0 = gm_devmem_alloc(&mem, 4ull * c);
    p->bias0 = gm_devmem_alloc(&mem, 4ull * c);
    p->l1_weights = gm_devmem_alloc(&mem, 4ull * c * 7 * 7 * 3);
    p->l2_neurons = gm_devmem_alloc(&mem, 4ull * c * 112 * 112);
    p->l1_neurons = gm_devmem_alloc(&mem, 4ull * 224 * 224 * 3);
    p->l2_pool = gm_devmem_alloc(&mem, 4ull * c * map);
    p->l2c_neurons = gm_devmem_alloc(&mem, 4ull * 4 * c * map);
    /* executeLayer2_CUDA(): mean, var, scale, bias (256), W2a (64*64), W2b
     * (64*64*3*3), W2c (256*64), n2a, n2b (64*56*56), eltwise (256*56*56) */
    p->mean = gm_devmem_alloc(&mem, 4ull * 4 * c);
    p->var = gm_devmem_alloc(&mem, 4ull * 4 * c);
    p->scale = gm_devmem_alloc(&mem, 4ull * 4 * c);
    p->bias = gm_devmem_alloc(&mem, 4ull * 4 * c);
    p->w2a = gm_devmem_alloc(&mem, 4ull * c * c);
    p->w2b = gm_devmem_alloc(&mem, 4ull * c * c * 9);
    p->w2c = gm_devmem_alloc(&mem, 4ull * 4 * c * c);
    p->n2a = gm_devmem_alloc(&mem, 4ull * c * map);
    p->n2b = gm_devmem_alloc(&mem, 4ull * c * map);
    p->eltwise = gm_devmem_alloc(&mem, 4ull * 4 * c * map);

    split_launch(&w->kernels[0], &p->conv[0], "execute3DconvolutionCuda_split",
                 4 * c, 1, 0, c, p->l2_pool, p->w2c, p->eltwise);
    split_launch(&w->kernels[1], &p->conv[1], "execute3DconvolutionCuda_split",
                 c, 1, 0, c, p->l2_pool, p->w2a, p->n2a);
    split_launch(&w->kernels[2], &p->conv[2], "execute3DconvolutionCuda_split",
                 c, 3, 1, c, p->n2a, p->w2b, p->n2b);
    split_launch(&w->kernels[3], &p->conv[3], "execute3DconvolutionCuda_split",
                 4 * c, 1, 0, c, p->n2b, p->w2c, p->l2c_neurons);
    return 0;
}

int gm_resnet_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t c[] = {2, 8, 64, 32};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "resnet: bad size %d", (int)size);
    return gm_resnet_build_dims(w, c[size], err);
}
