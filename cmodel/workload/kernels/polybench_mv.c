/* PolyBench-GPU 1.0 BICG and MVT (gpu-app-collection src/cuda/
 * polybench-gpu-1.0/CUDA/{BICG/bicg.cu,MVT/mvt.cu}) as address-stream
 * emulators, and the generator of every matrix-vector launch of
 * PolyBench (ATAX's two as well, atax.c). All four launches here are one
 * matrix-vector shape, block 256:
 *
 *   bicg_kernel1: j = bx*256+tx; if (j < NY) { s[j] = 0;
 *                     for (i = 0; i < NX; i++) s[j] += A[i*NY + j] * r[i]; }
 *   bicg_kernel2: i = bx*256+tx; if (i < NX) { q[i] = 0;
 *                     for (j = 0; j < NY; j++) q[i] += A[i*NY + j] * p[j]; }
 *   mvt_kernel1:  i = bx*256+tx; if (i < N)
 *                     for (j = 0; j < N; j++) x1[i] += a[i*N + j] * y_1[j];
 *   mvt_kernel2:  i = bx*256+tx; if (i < N)
 *                     for (j = 0; j < N; j++) x2[i] += a[j*N + i] * y_2[j];
 *
 * grid ceil(bound/256): only 16 CTAs at the standard 4096. A is read with
 * a lane stride of a row (32 lines per warp load) in bicg_kernel2 and
 * mvt_kernel1 and coalesced in the other two; the vector is a broadcast
 * read by every CTA. The accumulator is stored every trip (A and the
 * vector may alias it: no __restrict__) but never loaded again: nothing
 * between a trip's store and the next trip's read writes memory, so the
 * compiler forwards the stored value (docs/workloads/polybench.md,
 * "Accumulators"). Read-only: A and the vector.
 *
 * Per warp: prologue S2R tid, S2R ctaid, IMAD t, ISETP, BRA; set-up
 * (accumulator address, A pointer, vector pointer, vector end); MOV acc,
 * 0 and ST acc in BICG, LD acc (once) in MVT and ATAX; then `trip`
 * iterations of
 *   LD A  LD vec  FFMA  ST acc  IADD  IADD  ISETP  BRA
 * and EXIT (the ATAX shape). */
#include "workload/kernels/kernels_polybench_tango.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/pb_lanes.h"
#include "workload/kernels/gen_exit.h"

#define BLOCK 256u   /* DIM_THREAD_BLOCK_X; DIM_THREAD_BLOCK_Y is 1 */

enum {   /* registers */
    R_TID, R_CTA, R_T, R_P, R_ACCADDR, R_APTR, R_VPTR, R_VEND,
    R_A, R_V, R_ACC, R_PK
};

enum {   /* program points, in issue order */
    PC_S2R_TID = 0, PC_S2R_CTA, PC_T, PC_GUARD, PC_GUARD_BRA,
    PC_ACCADDR, PC_APTR, PC_VPTR, PC_VEND, PC_ZERO_MOV, PC_ZERO, PC_LD_ACC,
    PC_LD_A, PC_LD_V, PC_FFMA, PC_ST_ACC,
    PC_INC_A, PC_INC_V, PC_SETP, PC_BRA,
    PC_EXIT, PC_DONE
};

static void addr_acc(gm_inst *in, const gm_pb_mv_params *p, uint64_t t0)
{
    gm_pb_addr_run(in, p->acc + 4 * t0);   /* lane l: acc[t0 + l] */
}

static int mv_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_pb_mv_params *p = kern->params;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    uint64_t t0 = (uint64_t)g->cta * BLOCK + g->warp * GM_WARP_SIZE;   /* t of lane 0 */
    uint32_t e = gm_warp_exist_mask(BLOCK, g->warp);
    uint32_t b = gm_pb_lanes_below(e, t0, p->bound);

    while (n < max) {
        gm_inst *in = &out[n++];
        uint64_t it = (uint64_t)g->v[0];
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
            g->pc = p->zero_init ? PC_ZERO_MOV : PC_LD_ACC;
            continue;
        case PC_ZERO_MOV: gm_emit(in, GM_OP_ALU, b, R_ACC, R_NONE, R_NONE, R_NONE); break;
        case PC_ZERO:    /* acc[t] = 0.0f, the sum's first value */
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_ACCADDR, R_ACC, 4, 0);
            addr_acc(in, p, t0);
            g->pc = PC_LD_A;
            continue;
        case PC_LD_ACC:  /* no zeroing store: the one load of acc[t] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_ACC, R_ACCADDR, R_NONE, 4, 0);
            addr_acc(in, p, t0);
            break;
        case PC_LD_A:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_A, R_APTR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t t = t0 + (uint64_t)l;
                uint64_t row = p->a_row_is_t ? t : it, col = p->a_row_is_t ? it : t;
                in->addr[l] = (b >> l & 1) ? p->a + 4 * (row * p->lda + col) : 0;
            }
            break;
        case PC_LD_V:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, b, R_V, R_VPTR, R_NONE, 4, GM_INST_READ_ONLY);
            for (int l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (b >> l & 1) ? p->vec + 4 * it : 0;
            break;
        case PC_FFMA:    gm_emit(in, GM_OP_ALU, b, R_ACC, R_A, R_V, R_ACC); break;
        case PC_ST_ACC:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, b, R_NONE, R_ACCADDR, R_ACC, 4, 0);
            addr_acc(in, p, t0);
            break;
        case PC_INC_A:   gm_emit(in, GM_OP_ALU, b, R_APTR, R_APTR, R_NONE, R_NONE); break;
        case PC_INC_V:   gm_emit(in, GM_OP_ALU, b, R_VPTR, R_VPTR, R_NONE, R_NONE); break;
        case PC_SETP:    gm_emit(in, GM_OP_ALU, b, R_PK, R_VPTR, R_VEND, R_NONE); break;
        case PC_BRA:
            gm_emit(in, GM_OP_BRANCH, b, R_NONE, R_PK, R_NONE, R_NONE);
            g->pc = ++g->v[0] < (int64_t)p->trip ? PC_LD_A : PC_EXIT;
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

void gm_pb_mv_launch(gm_kernel *k, const char *name, gm_pb_mv_params *p, uint32_t bound,
                     uint32_t trip, uint32_t lda, int a_row_is_t, int zero_init, uint64_t a,
                     uint64_t vec, uint64_t acc)
{
    p->bound = bound;
    p->trip = trip;
    p->lda = lda;
    p->a_row_is_t = (uint8_t)a_row_is_t;
    p->zero_init = (uint8_t)zero_init;
    p->a = a;
    p->vec = vec;
    p->acc = acc;
    gm_kernel_set(k, name, gm_dim3_make((bound + BLOCK - 1) / BLOCK, 1, 1),
                  gm_dim3_make(BLOCK, 1, 1), p, mv_gen);
}

int gm_bicg_build_dims(gm_workload *w, uint32_t nx, uint32_t ny, gm_error *err)
{
    if (!nx || !ny || (uint64_t)nx * ny > INT32_MAX)
        return gm_fail(err, "bicg: bad dimensions %ux%u", nx, ny);
    if (gm_workload_alloc(w, "bicg", 2, sizeof(gm_bicg_params), err))
        return -1;

    gm_bicg_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->nx = nx;
    p->ny = ny;
    p->a = gm_devmem_alloc(&mem, 4ull * nx * ny);
    p->r = gm_devmem_alloc(&mem, 4ull * nx);
    p->s = gm_devmem_alloc(&mem, 4ull * ny);
    p->p = gm_devmem_alloc(&mem, 4ull * ny);
    p->q = gm_devmem_alloc(&mem, 4ull * nx);
    /* kernel 1: t = j < NY, loop i < NX, A[i*NY + j]; kernel 2: t = i < NX,
     * loop j < NY, A[i*NY + j] */
    gm_pb_mv_launch(&w->kernels[0], "bicg_kernel1", &p->k[0], ny, nx, ny, 0, 1, p->a, p->r,
                    p->s);
    gm_pb_mv_launch(&w->kernels[1], "bicg_kernel2", &p->k[1], nx, ny, ny, 1, 1, p->a, p->p,
                    p->q);
    return 0;
}

int gm_bicg_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {512, 1024, 4096, 1024};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "bicg: bad size %d", (int)size);
    return gm_bicg_build_dims(w, dim[size], dim[size], err);
}

int gm_mvt_build_dims(gm_workload *w, uint32_t n, gm_error *err)
{
    if (!n || (uint64_t)n * n > INT32_MAX)
        return gm_fail(err, "mvt: bad dimension %u", n);
    if (gm_workload_alloc(w, "mvt", 2, sizeof(gm_mvt_params), err))
        return -1;

    gm_mvt_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->n = n;
    p->a = gm_devmem_alloc(&mem, 4ull * n * n);
    p->x1 = gm_devmem_alloc(&mem, 4ull * n);
    p->x2 = gm_devmem_alloc(&mem, 4ull * n);
    p->y1 = gm_devmem_alloc(&mem, 4ull * n);
    p->y2 = gm_devmem_alloc(&mem, 4ull * n);
    gm_pb_mv_launch(&w->kernels[0], "mvt_kernel1", &p->k[0], n, n, n, 1, 0, p->a, p->y1,
                    p->x1);
    gm_pb_mv_launch(&w->kernels[1], "mvt_kernel2", &p->k[1], n, n, n, 0, 0, p->a, p->y2,
                    p->x2);
    return 0;
}

int gm_mvt_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    static const uint32_t dim[] = {512, 1024, 4096, 1024};   /* tiny, small, standard, fill */

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "mvt: bad size %d", (int)size);
    return gm_mvt_build_dims(w, dim[size], err);
}
