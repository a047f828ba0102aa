/* Rodinia 3.1 cfd (cuda/cfd/euler3d.cu, single precision) as an
 * address-stream emulator. Host sequence (main):
 *
 *   areas, elements_surrounding_elements, normals = alloc(nelr, nelr*NNB,
 *       nelr*NDIM*NNB);  variables = alloc(nelr*NVAR);
 *   initialize_variables(variables); old_variables, fluxes, step_factors = alloc;
 *   initialize_variables(old_variables); initialize_variables(fluxes);
 *   for (i < iterations) {
 *       copy(old_variables, variables)             -- cudaMemcpy, not a kernel
 *       cuda_compute_step_factor(variables, areas, step_factors)
 *       for (j < RK) { cuda_compute_flux(ese, normals, variables, fluxes);
 *                      cuda_time_step(j, old_variables, variables, step_factors, fluxes) }
 *   }
 *
 * Every kernel: i = blockDim.x*blockIdx.x + threadIdx.x, no bound check
 * (nelr = 192 * ceil(nel / 192); the loader pads elements nel..nelr-1
 * with the last element's neighbours). SoA: variable v of element e at
 * variables[e + v*nelr], v = density, momentum x, y, z, density_energy.
 *
 *   cuda_initialize_variables: variables[i + j*nelr] = ff_variable[j], j < 5
 *   cuda_compute_step_factor: loads variables[i + v*nelr] v = 0..4, then
 *       areas[i]; stores step_factors[i]
 *   cuda_compute_flux: loads variables[i + v*nelr]; for j < NNB:
 *       nb = ese[i + j*nelr]; normals[i + (j + k*NNB)*nelr] k = 0..2;
 *       if (nb >= 0) loads variables[nb + v*nelr] (the gather that
 *       neighbouring CTAs share); else if (nb == -1) wing; else if
 *       (nb == -2) far field (constants only); then stores
 *       fluxes[i + v*nelr]
 *   cuda_time_step(j): loads step_factors[i]; for v in density, energy,
 *       momentum x, y, z: loads old_variables, fluxes, stores variables
 *
 * Instruction mix (segprog.h letters), counted from the source:
 * compute_velocity = 1 SFU (reciprocal) + 3 FMUL, speed_sqd 3, pressure 3,
 * speed_of_sound 2 ALU + 2 SFU, compute_flux_contribution 10; the
 * neighbour's artificial viscosity sqrt + 4 + 10, three normal components
 * 11 each; the far field 33; the wing 3. ff_variable and the other
 * __constant__ values are constant-bank operands, not loads. Read-only:
 * every array a kernel does not store. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "sim/prng.h"
#include "workload/build.h"
#include "workload/kernels/segprog.h"

#define BS GM_CFD_BLOCK
#define RO GM_INST_READ_ONLY

enum { V_DENSITY = 0, V_MX, V_MY, V_MZ, V_ENERGY };

/* time_step's order of the five updates in the source */
static const uint8_t time_var[GM_CFD_NVAR] = {V_DENSITY, V_ENERGY, V_MX, V_MY, V_MZ};

/* flux segments */
enum { F_PRO = 0, F_HEAD, F_POS, F_M1HEAD, F_M1, F_M2HEAD, F_M2, F_EPI };

#define STATE "SAAA" "AAA" "AAA" "ASAS" "AAAAAAAAAA"   /* 21 ALU + 3 SFU */
#define NORMAL3 "AAAAAAAAAAA" "AAAAAAAAAAA" "AAAAAAAAAAA"

static const char *const flux_prog[] = {
    [F_PRO] = "IIIZZZZZ" "LLLLL" "SAAA" "AAA" "S" "AAA" "ASAS" "AAAAAAAAAA",
    [F_HEAD] = "LLLL" "AAAS" "PB",
    [F_POS] = "LLLLL" STATE "S" "AAAA" "AAAAAAAAAA" NORMAL3,
    [F_M1HEAD] = "PB",
    [F_M1] = "AAA",
    [F_M2HEAD] = "PB",
    [F_M2] = NORMAL3,
    [F_EPI] = "TTTTTX",
};

static const char init_prog[] = "IIIZZZZZTTTTTX";
static const char step_prog[] = "IIIZ" "LLLLL" "SAAA" "AAA" "AAA" "ASAS" "L" "SS" "AA" "SA" "TX";
static const char time_prog[] = "IIIZ" "L" "SA" "LLAT" "LLAT" "LLAT" "LLAT" "LLAT" "X";

static uint32_t elem(const gm_warp_gen *g, int lane)
{
    return g->cta * BS + g->warp * GM_WARP_SIZE + (uint32_t)lane;
}

static int32_t nb_of(const gm_cfd_params *p, const gm_warp_gen *g, int lane)
{
    return p->nb[elem(g, lane) + (uint32_t)g->v[1] * p->nelr];
}

static void cfd_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    const gm_cfd_launch *l = k->params;
    uint32_t pos = 0, m1 = 0, m2 = 0;

    out->mask = 0xffffffffu;   /* 192 threads: six full warps */
    switch (l->kind) {
    case GM_CFD_INIT: out->prog = init_prog; return;
    case GM_CFD_STEP: out->prog = step_prog; return;
    case GM_CFD_TIME: out->prog = time_prog; return;
    default: break;
    }
    out->prog = flux_prog[s];
    if (s != F_POS && s != F_M1HEAD && s != F_M1 && s != F_M2HEAD && s != F_M2)
        return;
    for (int lane = 0; lane < GM_WARP_SIZE; lane++) {
        int32_t nb = nb_of(l->cfd, g, lane);
        pos |= (uint32_t)(nb >= 0) << lane;
        m1 |= (uint32_t)(nb == -1) << lane;
        m2 |= (uint32_t)(nb == -2) << lane;
    }
    out->mask = s == F_POS ? pos : s == F_M1HEAD ? ~pos : s == F_M1 ? m1
              : s == F_M2HEAD ? ~pos & ~m1 : m2;
}

static int cfd_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    const gm_cfd_launch *l = k->params;
    if (l->kind != GM_CFD_FLUX || s == F_EPI)
        return GM_SEG_DONE;
    if (s == F_M2) {
        if (++g->v[1] < (int64_t)GM_CFD_NNB)
            return F_HEAD;
        return F_EPI;
    }
    return s + 1;   /* F_PRO -> F_HEAD with v[1] = 0 */
}

static void lanes_at(gm_inst *in, const gm_warp_gen *g, uint64_t base, uint64_t off_elems)
{
    for (int lane = 0; lane < GM_WARP_SIZE; lane++)
        in->addr[lane] = (in->mask >> lane & 1) ? base + 4 * (elem(g, lane) + off_elems) : 0;
}

static void cfd_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_cfd_launch *l = k->params;
    const gm_cfd_params *p = l->cfd;
    uint64_t n = p->nelr;

    switch (l->kind) {
    case GM_CFD_INIT:
        lanes_at(in, g, l->target, (uint64_t)m * n);
        return;
    case GM_CFD_STEP:
        in->flags = in->op == GM_OP_GLOBAL_LD ? RO : 0;
        if (m < 5)
            lanes_at(in, g, p->variables, (uint64_t)m * n);
        else if (m == 5)
            lanes_at(in, g, p->areas, 0);
        else
            lanes_at(in, g, p->step_factors, 0);
        return;
    case GM_CFD_TIME:
        if (m == 0) {
            in->flags = RO;
            lanes_at(in, g, p->step_factors, 0);
        } else {   /* three accesses per variable: old, flux, store */
            int v = time_var[(m - 1) / 3], which = (m - 1) % 3;
            uint64_t base = which == 0 ? p->old_variables : which == 1 ? p->fluxes
                                                                        : p->variables;
            in->flags = which < 2 ? RO : 0;
            lanes_at(in, g, base, (uint64_t)v * n);
        }
        return;
    default:
        break;
    }
    /* flux: variables, ese and normals read-only, fluxes stored */
    if (s == F_EPI) {
        lanes_at(in, g, p->fluxes, (uint64_t)m * n);
        return;
    }
    in->flags = RO;
    if (s == F_PRO) {
        lanes_at(in, g, p->variables, (uint64_t)m * n);
    } else if (s == F_HEAD) {
        uint64_t j = (uint64_t)g->v[1];
        if (m == 0)
            lanes_at(in, g, p->ese, j * n);
        else
            lanes_at(in, g, p->normals, (j + (uint64_t)(m - 1) * GM_CFD_NNB) * n);
    } else {   /* F_POS: the neighbour's variables */
        for (int lane = 0; lane < GM_WARP_SIZE; lane++) {
            int32_t nb = nb_of(p, g, lane);
            in->addr[lane] = (in->mask >> lane & 1)
                           ? p->variables + 4 * ((uint64_t)nb + (uint64_t)m * n) : 0;
        }
    }
}

static const gm_segprog cfd_sp[2] = {
    {1, cfd_seg, cfd_next, cfd_addr},   /* init (5 Z), step, time: see progs */
    {5, cfd_seg, cfd_next, cfd_addr},
};

static int cfd_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_cfd_launch *l = k->params;
    int five = l->kind == GM_CFD_FLUX || l->kind == GM_CFD_INIT;
    return gm_segprog_gen(&cfd_sp[five], k, g, out, max);
}

/* The surrogate mesh (kernels_rodinia.h). One draw per element, in
 * element order: bit 0 the y sign, bit 1 the z sign, bits 2-3 the slot
 * rotation. The wing plate lies between layers lz/2 - 1 and lz/2 over
 * the middle half of x and y. */
static void cfd_mesh(int32_t *nb, uint32_t nel, uint32_t nelr, uint32_t lx, uint32_t lz,
                     uint64_t seed)
{
    gm_prng r;
    gm_prng_seed(&r, seed, 0xcfd);
    uint32_t plane = lx * lx, zw = lz / 2;
    for (uint32_t i = 0; i < nel; i++) {
        uint32_t b = (uint32_t)gm_prng_below(&r, 16);
        int32_t x = (int32_t)(i % lx), y = (int32_t)(i / lx % lx), z = (int32_t)(i / plane);
        int32_t dy = b & 1 ? 1 : -1, dz = b & 2 ? 1 : -1;
        int32_t dx[4] = {1, -1, 0, 0}, ddy[4] = {0, 0, dy, 0}, ddz[4] = {0, 0, 0, dz};
        int wing_xy = x >= (int32_t)lx / 4 && x < 3 * (int32_t)lx / 4 &&
                      y >= (int32_t)lx / 4 && y < 3 * (int32_t)lx / 4;
        for (uint32_t j = 0; j < GM_CFD_NNB; j++) {
            uint32_t d = (j + (b >> 2)) % GM_CFD_NNB;
            int32_t nx = x + dx[d], ny = y + ddy[d], nz = z + ddz[d];
            int32_t v;
            if (nx < 0 || nx >= (int32_t)lx || ny < 0 || ny >= (int32_t)lx || nz < 0 ||
                nz >= (int32_t)lz)
                v = -2;
            else if (wing_xy && ((z == (int32_t)zw - 1 && nz == (int32_t)zw) ||
                                 (z == (int32_t)zw && nz == (int32_t)zw - 1)))
                v = -1;
            else
                v = nx + ny * (int32_t)lx + nz * (int32_t)plane;
            if (v >= (int32_t)nel)
                v = -2;
            nb[i + j * nelr] = v;
        }
    }
    for (uint32_t i = nel; i < nelr; i++)   /* "duplicate the last element" */
        for (uint32_t j = 0; j < GM_CFD_NNB; j++)
            nb[i + j * nelr] = nb[nel - 1 + j * nelr];
}

int gm_cfd_build_dims(gm_workload *w, uint32_t nel, uint32_t lx, uint32_t iterations,
                      uint64_t seed, gm_error *err)
{
    if (!nel || nel > (1u << 24) || lx < 2 || (uint64_t)lx * lx > nel || !iterations ||
        iterations > 64)
        return gm_fail(err, "cfd: bad size nel=%u lx=%u iterations=%u (nel 1..2^24, "
                            "lx >= 2 with lx^2 <= nel, iterations 1..64)", nel, lx, iterations);
    uint32_t nelr = BS * ((nel + BS - 1) / BS);
    uint32_t nk = 3 + iterations * (1 + 2 * GM_CFD_RK);
    size_t nb_off = sizeof(gm_cfd_params) + nk * sizeof(gm_cfd_launch);
    nb_off = (nb_off + 7) & ~(size_t)7;
    if (gm_workload_alloc(w, "cfd", nk, nb_off + (size_t)nelr * GM_CFD_NNB * sizeof(int32_t),
                          err))
        return -1;

    gm_cfd_params *p = w->priv;
    gm_cfd_launch *launch = (gm_cfd_launch *)(p + 1);
    int32_t *nb = (int32_t *)((char *)w->priv + nb_off);
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->nel = nel;
    p->nelr = nelr;
    p->lx = lx;
    p->lz = (nel + lx * lx - 1) / (lx * lx);
    p->iterations = iterations;
    p->seed = seed;
    p->nb = nb;
    p->areas = gm_devmem_alloc(&mem, 4ull * nelr);
    p->ese = gm_devmem_alloc(&mem, 4ull * nelr * GM_CFD_NNB);
    p->normals = gm_devmem_alloc(&mem, 4ull * nelr * 3 * GM_CFD_NNB);
    p->variables = gm_devmem_alloc(&mem, 4ull * nelr * GM_CFD_NVAR);
    p->old_variables = gm_devmem_alloc(&mem, 4ull * nelr * GM_CFD_NVAR);
    p->fluxes = gm_devmem_alloc(&mem, 4ull * nelr * GM_CFD_NVAR);
    p->step_factors = gm_devmem_alloc(&mem, 4ull * nelr);
    cfd_mesh(nb, nel, nelr, lx, p->lz, seed);

    static const char *const names[] = {"cuda_initialize_variables", "cuda_compute_step_factor",
                                        "cuda_compute_flux", "cuda_time_step"};
    uint32_t li = 0;
    const uint64_t init_target[3] = {p->variables, p->old_variables, p->fluxes};
    for (uint32_t t = 0; t < 3; t++)
        launch[li++] = (gm_cfd_launch){p, GM_CFD_INIT, 0, init_target[t]};
    for (uint32_t it = 0; it < iterations; it++) {
        launch[li++] = (gm_cfd_launch){p, GM_CFD_STEP, 0, 0};
        for (uint32_t j = 0; j < GM_CFD_RK; j++) {
            launch[li++] = (gm_cfd_launch){p, GM_CFD_FLUX, 0, 0};
            launch[li++] = (gm_cfd_launch){p, GM_CFD_TIME, j, 0};
        }
    }
    for (uint32_t i = 0; i < nk; i++)
        gm_kernel_set(&w->kernels[i], names[launch[i].kind], gm_dim3_make(nelr / BS, 1, 1),
                      gm_dim3_make(BS, 1, 1), &launch[i], cfd_gen);
    return 0;
}

int gm_cfd_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: fvcorr.domn.097K's 97046 elements on a 46 x 46 x 46 lattice */
    static const uint32_t nel[] = {1728, 16128, 97046, 23040};
    static const uint32_t lx[] = {12, 24, 46, 24};

    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "cfd: bad size %d", (int)size);
    return gm_cfd_build_dims(w, nel[size], lx[size], 1, seed, err);
}
