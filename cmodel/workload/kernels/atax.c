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
 * or y[j] first.) No __restrict__, so the accumulator is loaded and stored
 * every iteration. Kernel 1 reads A with a lane stride of NY*4 bytes
 * (uncoalesced, one line per lane) and x[j] as a broadcast; kernel 2 reads
 * A coalesced and tmp[i] as a broadcast. Read-only: A and x in kernel 1,
 * A and tmp in kernel 2.
 *
 * Both kernels have the same shape, so one generator serves both:
 *   prologue  S2R tid, S2R ctaid, IMAD t, ISETP t < bound, BRA
 *   set-up    accumulator address, A pointer, vector pointer, vector end
 *   loop      LD A  LD vec  LD acc  FFMA  ST acc  IADD pA  IADD pv  ISETP  BRA
 *   EXIT */
#include "workload/kernels/kernels.h"
#include "workload/kernels/gen_exit.h"

#include <stdint.h>

#include "workload/build.h"

#define BLOCK 256u   /* DIM_THREAD_BLOCK_X; DIM_THREAD_BLOCK_Y is 1 */

enum {   /* registers */
    R_TID, R_CTA, R_T, R_P, R_ACCADDR, R_APTR, R_VPTR, R_VEND,
    R_A, R_V, R_ACC, R_PK
};

enum {   /* program points, in issue order */
    PC_S2R_TID = 0, PC_S2R_CTA, PC_T, PC_GUARD, PC_GUARD_BRA,
    PC_ACCADDR, PC_APTR, PC_VPTR, PC_VEND,
    PC_LD_A, PC_LD_V, PC_LD_ACC, PC_FFMA, PC_ST_ACC,
    PC_INC_A, PC_INC_V, PC_SETP, PC_BRA,
    PC_EXIT, PC_DONE
};

typedef struct lanes {
    uint32_t exist;
    uint32_t body;              /* lanes with t < bound */
    uint32_t t[GM_WARP_SIZE];   /* blockIdx.x * blockDim.x + threadIdx.x */
} lanes;

static void lanes_compute(const gm_warp_gen *g, uint32_t bound, lanes *L)
{
    L->exist = gm_warp_exist_mask(BLOCK, g->warp);
    L->body = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint32_t tid = g->warp * GM_WARP_SIZE + l;
        uint32_t t = g->cta * BLOCK + tid;
        L->t[l] = t;
        if ((L->exist >> l & 1) && t < bound)
            L->body |= 1u << l;
    }
}

/* second = 0: kernel 1 (t = i, loop over j); 1: kernel 2 (t = j, loop i). */
static int atax_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max,
                    int second)
{
    const gm_atax_params *p = kern->params;
    uint32_t bound = second ? p->ny : p->nx;
    uint32_t trip = second ? p->nx : p->ny;
    uint64_t vec = second ? p->tmp : p->x;
    uint64_t acc = second ? p->y : p->tmp;
    lanes L;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    lanes_compute(g, bound, &L);
    uint32_t e = L.exist, b = L.body;

    while (n < max) {
        gm_inst *in = &out[n++];
        uint64_t it = (uint64_t)g->v[0];   /* loop variable: j in k1, i in k2 */
        switch (g->pc) {
        case PC_S2R_TID: gm_emit(in, GM_OP_ALU, e, R_TID, R_NONE, R_NONE, R_NONE); break;
        case PC_S2R_CTA: gm_emit(in, GM_OP_ALU, e, R_CTA, R_NONE, R_NONE, R_NONE); break;
        case PC_T:       gm_emit(in, GM_OP_ALU, e, R_T, R_CTA, R_TID, R_NONE); break;
        case PC_GUARD:   gm_emit(in, GM_OP_ALU, e, R_P, R_T, R_NONE, R_NONE); break;
        case PC_GUARD_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = b ? PC_ACCADDR : PC_EXIT;
            continue;
        case PC_ACCADDR: gm_emit(in, GM_OP_ALU, b, R_ACCADDR, R_T, R_NONE, R_NONE); break;
        case PC_APTR:    gm_emit(in, GM_OP_ALU, b, R_APTR, R_T, R_NONE, R_NONE); break;
        case PC_VPTR:    gm_emit(in, GM_OP_ALU, b, R_VPTR, R_NONE, R_NONE, R_NONE); break;
        case PC_VEND:
            gm_emit(in, GM_OP_ALU, b, R_VEND, R_VPTR, R_NONE, R_NONE);
            g->v[0] = 0;
            break;
        case PC_LD_A:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_A, R_APTR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t i = second ? it : L.t[l];
                uint64_t j = second ? L.t[l] : it;
                in->addr[l] = (b >> l & 1) ? p->a + 4 * (i * p->ny + j) : 0;
            }
            break;
        case PC_LD_V:
            /* x in kernel 1, tmp in kernel 2: both read-only there */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_V, R_VPTR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? vec + 4 * it : 0;
            break;
        case PC_LD_ACC:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_ACC, R_ACCADDR, R_NONE, 4, 0);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? acc + 4 * (uint64_t)L.t[l] : 0;
            break;
        case PC_FFMA:    gm_emit(in, GM_OP_ALU, b, R_ACC, R_A, R_V, R_ACC); break;
        case PC_ST_ACC:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_ACCADDR, R_ACC, 4, 0);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? acc + 4 * (uint64_t)L.t[l] : 0;
            break;
        case PC_INC_A:   gm_emit(in, GM_OP_ALU, b, R_APTR, R_APTR, R_NONE, R_NONE); break;
        case PC_INC_V:   gm_emit(in, GM_OP_ALU, b, R_VPTR, R_VPTR, R_NONE, R_NONE); break;
        case PC_SETP:    gm_emit(in, GM_OP_ALU, b, R_PK, R_VPTR, R_VEND, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_PK, R_NONE, R_NONE);
            g->pc = ++g->v[0] < (int64_t)trip ? PC_LD_A : PC_EXIT;
            continue;
        case PC_EXIT:
            return gm_gen_exit(g, in, e, PC_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}

static int atax_gen1(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    return atax_gen(k, g, out, max, 0);
}

static int atax_gen2(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    return atax_gen(k, g, out, max, 1);
}

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
    gm_kernel_set(&w->kernels[0], "atax_kernel1",
                  gm_dim3_make((nx + BLOCK - 1) / BLOCK, 1, 1),
                  gm_dim3_make(BLOCK, 1, 1), p, atax_gen1);
    gm_kernel_set(&w->kernels[1], "atax_kernel2",
                  gm_dim3_make((ny + BLOCK - 1) / BLOCK, 1, 1),
                  gm_dim3_make(BLOCK, 1, 1), p, atax_gen2);
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
