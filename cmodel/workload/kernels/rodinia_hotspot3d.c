/* Rodinia 3.1 hotspot3D (cuda/hotspot3D/3D.cu and opt1.cu, kernel
 * hotspotOpt1) as an address-stream emulator. Host (hotspot_opt1):
 * cudaMalloc p_d, tIn_d, tOut_d (nx*ny*nz floats each); block (64, 4, 1),
 * grid (nx/64, ny/4, 1); `iterations` launches, swapping tIn_d and tOut_d
 * after each. Per thread:
 *
 *   i = 64*bx + tx;  j = 4*by + ty;  c = i + j*nx;  xy = nx*ny
 *   W = i == 0 ? c : c-1;  E = i == nx-1 ? c : c+1
 *   N = j == 0 ? c : c-nx; S = j == ny-1 ? c : c+nx
 *   temp1 = temp2 = tIn[c]; temp3 = tIn[c+xy]
 *   tOut[c] = cc*temp2 + cw*tIn[W] + ce*tIn[E] + cs*tIn[S] + cn*tIn[N]
 *             + cb*temp1 + ct*temp3 + sdc*p[c] + ct*amb_temp
 *   c, W, E, N, S += xy
 *   for (k = 1; k < nz-1; ++k) { temp1 = temp2; temp2 = temp3;
 *       temp3 = tIn[c+xy]; tOut[c] = (the same 9 terms); c.. += xy }
 *   temp1 = temp2; temp2 = temp3;
 *   tOut[c] = (the same 9 terms, no new load of temp3)
 *
 * Warp w of a CTA holds ty = w/2 and tx = 32*(w%2) .. +31: one row
 * segment of 32 floats per layer; W/E/N/S reach one float left/right and
 * one row up/down (shared with the CTAs beside and above/below). The
 * tOut store may alias tIn (no __restrict__), so every load in the source
 * is a load. Read-only: p and tIn. Instructions: 4 S2R + 8 index ops, two
 * constants, then per layer the loads in source order, FMUL + 8 FFMA, the
 * store, 5 pointer increments and the loop's ISETP + BRA. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/segprog.h"

#define BX 64u
#define BY 4u

enum { S_FIRST = 0, S_MID, S_LAST };

static const char *const prog[] = {
    [S_FIRST] = "IIIIIIIIIIII" "ZZ" "LLLLLLL" "AAAAAAAAA" "T" "IIIII" "PB",
    [S_MID] = "LLLLLL" "AAAAAAAAA" "T" "IIIII" "PB",
    [S_LAST] = "LLLLL" "AAAAAAAAA" "TX",
};

static void hs3_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    (void)k;
    (void)g;
    out->prog = prog[s];
    out->mask = 0xffffffffu;   /* 256 threads, nx and ny multiples of the block */
}

static int hs3_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    const gm_hotspot3d_launch *l = k->params;
    int64_t nz = l->hs->nz;
    if (s == S_LAST)
        return GM_SEG_DONE;
    g->v[1] = s == S_FIRST ? 1 : g->v[1] + 1;   /* the layer k of the next segment */
    return g->v[1] < nz - 1 ? S_MID : S_LAST;
}

/* Operand order of each segment's memory instructions:
 * FIRST c, c+xy, W, E, S, N, p, store; MID c+xy, W, E, S, N, p, store;
 * LAST W, E, S, N, p, store. */
enum { O_C, O_UP, O_W, O_E, O_S, O_N, O_P, O_ST };
static const uint8_t first_ops[] = {O_C, O_UP, O_W, O_E, O_S, O_N, O_P, O_ST};

static void hs3_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_hotspot3d_launch *l = k->params;
    const gm_hotspot3d_params *p = l->hs;
    int o = s == S_FIRST ? first_ops[m] : s == S_MID ? first_ops[m + 1] : first_ops[m + 2];
    int64_t nx = p->nx, ny = p->ny, xy = nx * ny;
    int64_t z = s == S_FIRST ? 0 : s == S_MID ? g->v[1] : (int64_t)p->nz - 1;
    int64_t bx = g->cta % k->grid.x, by = g->cta / k->grid.x;
    int64_t i0 = (int64_t)BX * bx + 32 * (g->warp % 2), j = (int64_t)BY * by + g->warp / 2;
    uint64_t base = o == O_P ? p->p : o == O_ST ? l->out : l->in;

    in->flags = o == O_ST ? 0 : GM_INST_READ_ONLY;
    for (int lane = 0; lane < GM_WARP_SIZE; lane++) {
        int64_t i = i0 + lane, c = i + j * nx, e;
        switch (o) {
        case O_UP: e = c + xy; break;
        case O_W: e = i == 0 ? c : c - 1; break;
        case O_E: e = i == nx - 1 ? c : c + 1; break;
        case O_N: e = j == 0 ? c : c - nx; break;
        case O_S: e = j == ny - 1 ? c : c + nx; break;
        default: e = c; break;
        }
        in->addr[lane] = base + 4 * (uint64_t)(e + z * xy);
    }
}

static const gm_segprog hs3_sp = {2, hs3_seg, hs3_next, hs3_addr};

static int hs3_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    return gm_segprog_gen(&hs3_sp, k, g, out, max);
}

int gm_hotspot3d_build_dims(gm_workload *w, uint32_t n, uint32_t layers, uint32_t iterations,
                            gm_error *err)
{
    if (!n || n % BX || n > 8192 || layers < 2 || layers > 256 || !iterations ||
        iterations > 1000)
        return gm_fail(err, "hotspot3d: bad size rows/cols=%u layers=%u iterations=%u "
                            "(rows/cols a multiple of 64 up to 8192, layers 2..256, "
                            "iterations 1..1000)", n, layers, iterations);
    if (gm_workload_alloc(w, "hotspot3d", iterations,
                          sizeof(gm_hotspot3d_params) +
                              iterations * sizeof(gm_hotspot3d_launch), err))
        return -1;
    gm_hotspot3d_params *p = w->priv;
    gm_hotspot3d_launch *l = (gm_hotspot3d_launch *)(p + 1);
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint64_t bytes = 4ull * n * n * layers;
    p->nx = p->ny = n;
    p->nz = layers;
    p->iterations = iterations;
    p->p = gm_devmem_alloc(&mem, bytes);
    p->t_in = gm_devmem_alloc(&mem, bytes);
    p->t_out = gm_devmem_alloc(&mem, bytes);
    for (uint32_t it = 0; it < iterations; it++) {
        l[it].hs = p;
        l[it].in = it % 2 ? p->t_out : p->t_in;
        l[it].out = it % 2 ? p->t_in : p->t_out;
        gm_kernel_set(&w->kernels[it], "hotspotOpt1", gm_dim3_make(n / BX, n / BY, 1),
                      gm_dim3_make(BX, BY, 1), &l[it], hs3_gen);
    }
    return 0;
}

int gm_hotspot3d_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: `3D 512 8 100 power_512x8 temp_512x8 output.out` */
    static const uint32_t n[] = {64, 192, 512, 192};
    static const uint32_t iters[] = {4, 2, 100, 2};

    (void)seed;   /* temperatures and powers are values only */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "hotspot3d: bad size %d", (int)size);
    return gm_hotspot3d_build_dims(w, n[size], 8, iters[size], err);
}
