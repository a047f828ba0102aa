/* PolyBench-GPU 1.0 ATAX (gpu-app-collection src/cuda/polybench-gpu-1.0/
 * CUDA/ATAX/atax.cu) as an address-stream emulator. Two launches:
 *
 *   atax_kernel1: i = blockIdx.x * blockDim.x + threadIdx.x;
 *                 if (i < NX) for (j = 0; j < NY; j++)
 *                     tmp[i] += A[i*NY + j] * x[j];
 *   atax_kernel2: j = blockIdx.x * blockDim.x + threadIdx.x;
 *                 if (j < NY) for (i = 0; i < NX; i++)
 *                     y[j] += A[i*NY + j] * tmp[i];
 *
 * block (256,1); grid ceil(NX/256) for kernel 1 and ceil(NY/256) for
 * kernel 2. (This version, unlike later PolyBench/GPU, does not zero tmp[i]
 * or y[j] first.) No __restrict__, so the accumulator is stored every
 * iteration; the compiler forwards the stored value, so it is loaded once,
 * before the loop (polybench_mv.c). Kernel 1 reads A with a lane stride
 * of NY*4 bytes (uncoalesced, one line per lane) and x[j] as a broadcast;
 * kernel 2 reads A coalesced and tmp[i] as a broadcast. Read-only: A and x
 * in kernel 1, A and tmp in kernel 2.
 *
 * Both kernels are the matrix-vector shape of BICG and MVT without the
 * zeroing store (accumulator not zeroed), so polybench_mv.c's generator
 * serves them:
 *   prologue  S2R tid, S2R ctaid, IMAD t, ISETP t < bound, BRA
 *   set-up    accumulator address, A pointer, vector pointer, vector end,
 *             LD acc
 *   loop      LD A  LD vec  FFMA  ST acc  IADD pA  IADD pv  ISETP  BRA
 *   EXIT */
#include "workload/kernels/kernels.h"

#include <stdint.h>

#include "workload/build.h"

int gm_atax_build_dims(gm_workload *w, uint32_t nx, uint32_t ny, gm_error *err)
{
    if (!nx || !ny || (uint64_t)nx * ny > INT32_MAX)
        return gm_fail(err, "atax: bad dimensions %ux%u", nx, ny);
    if (gm_workload_alloc(w, "atax", 2, sizeof(gm_atax_params), err))
        return -1;

    gm_atax_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->nx = nx;
    p->ny = ny;
    /* cudaMalloc order and sizes of the host code (x and y have NY
     * elements, tmp NX). */
    p->a = gm_devmem_alloc(&mem, 4ull * nx * ny);
    p->x = gm_devmem_alloc(&mem, 4ull * ny);
    p->y = gm_devmem_alloc(&mem, 4ull * ny);
    p->tmp = gm_devmem_alloc(&mem, 4ull * nx);
    /* kernel 1: t = i < NX, loop j < NY, A[i*NY + j] (a row walk), x[j],
     * tmp[i]; kernel 2: t = j < NY, loop i < NX, A[i*NY + j]
     * (coalesced), tmp[i], y[j]. */
    gm_pb_mv_launch(&w->kernels[0], "atax_kernel1", &p->k[0], nx, ny, ny, 1, 0, p->a, p->x,
                    p->tmp);
    gm_pb_mv_launch(&w->kernels[1], "atax_kernel2", &p->k[1], ny, nx, ny, 0, 0, p->a, p->tmp,
                    p->y);
    return 0;
}

int gm_atax_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {512, 1024, 4096, 1024};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "atax: bad size %d", (int)size);
    return gm_atax_build_dims(w, dim[size], dim[size], err);
}
