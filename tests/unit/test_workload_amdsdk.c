/* AMD APP SDK kernels. FloydWarshall: the stream is checked against this
 * file's own Floyd-Warshall over the same seeded matrix: every load
 * address of every lane from the kernel's index expressions, and the
 * stores exactly where a pass improves a distance. MatrixTranspose: every
 * global and local address of every lane from the kernel's index
 * expressions, and the counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/prng.h"
#include "workload/kernels/kernels.h"
#include "workload_testlib.h"

typedef struct fw_walk {
    uint32_t n, k, cta, warp, bx_count;
    uint64_t dist, path;
    const uint8_t *improve;     /* this test's own answer for pass k: [y * n + x] */
    uint64_t loads, load_lanes, store_insts, store_lanes, exits, other;
    int nld;                    /* loads seen in the current warp */
} fw_walk;

static void on_inst(const gm_inst *in, uint32_t exist, void *arg)
{
    fw_walk *f = arg;
    (void)exist;
    uint32_t lanes_improving = 0;
    uint64_t want[GM_WARP_SIZE];
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        /* work-item (lx, ly) of the 16 x 16 group, x fastest */
        uint32_t t = f->warp * 32 + l, x = f->cta % f->bx_count * 16 + t % 16,
                 y = f->cta / f->bx_count * 16 + t / 16;
        if (f->improve[y * f->n + x])
            lanes_improving |= 1u << l;
        switch (f->nld) {
        case 0: want[l] = f->dist + 4ull * (y * f->n + x); break;       /* d[y][x] */
        case 1: want[l] = f->dist + 4ull * (y * f->n + f->k); break;    /* d[y][k] */
        default: want[l] = f->dist + 4ull * (f->k * f->n + x); break;   /* d[k][x] */
        }
        if (in->op == GM_OP_GLOBAL_ST)
            want[l] = (f->store_insts % 2 ? f->path : f->dist) + 4ull * (y * f->n + x);
    }
    if (in->op == GM_OP_GLOBAL_LD) {
        assert_true(f->nld < 3);
        assert_int_equal(in->mask, 0xffffffffu);
        for (int l = 0; l < GM_WARP_SIZE; l++)
            assert_int_equal(in->addr[l], want[l]);
        f->nld++;
        f->loads++;
        f->load_lanes += 32;
    } else if (in->op == GM_OP_GLOBAL_ST) {
        assert_int_equal(f->nld, 3);
        assert_int_equal(in->mask, lanes_improving);
        for (int l = 0; l < GM_WARP_SIZE; l++)
            if (in->mask >> l & 1)
                assert_int_equal(in->addr[l], want[l]);
        f->store_insts++;
        f->store_lanes += (uint64_t)__builtin_popcount(in->mask);
    } else if (in->op == GM_OP_EXIT) {
        f->exits++;
    } else {
        assert_true(in->op == GM_OP_ALU || in->op == GM_OP_BRANCH);
        f->other++;
    }
}

/* The sample's setup and the passes, written out again here. */
static uint8_t *reference(uint32_t n, uint64_t seed, uint64_t *updates)
{
    uint32_t *d = malloc(sizeof *d * n * n);
    uint8_t *imp = calloc((size_t)n * n * n, 1);
    assert_non_null(d);
    assert_non_null(imp);
    gm_prng r;
    gm_prng_seed(&r, seed, 0x4657);
    for (uint32_t i = 0; i < n * n; i++)
        d[i] = (uint32_t)gm_prng_below(&r, 201);
    for (uint32_t i = 0; i < n; i++)
        d[i * n + i] = 0;
    *updates = 0;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                if (d[i * n + k] + d[k * n + j] < d[i * n + j]) {
                    d[i * n + j] = d[i * n + k] + d[k * n + j];
                    imp[((size_t)k * n + i) * n + j] = 1;
                    ++*updates;
                }
    free(d);
    return imp;
}

static void check_fw(uint32_t n, uint64_t seed)
{
    gm_workload w;
    gm_error err;
    assert_int_equal(gm_floydwarshall_build_dims(&w, n, seed, &err), 0);
    uint64_t updates;
    uint8_t *imp = reference(n, seed, &updates);
    const gm_fw_params *p = ((const gm_fw_pass *)w.kernels[0].params)->p;
    assert_int_equal(p->updates, updates);
    assert_true(updates > 0);
    assert_int_equal(w.nkernels, n);
    assert_int_equal(p->dist, GM_DEVMEM_BASE);
    assert_int_equal(p->path, GM_DEVMEM_BASE + ((4ull * n * n + 4095) & ~4095ull));
    fw_walk f = {.n = n, .bx_count = n / 16, .dist = p->dist, .path = p->path};
    uint64_t warps = 0, warps_storing = 0;
    for (uint32_t k = 0; k < n; k++) {
        const gm_kernel *kern = &w.kernels[k];
        assert_int_equal(kern->grid.x, n / 16);
        assert_int_equal(kern->grid.y, n / 16);
        assert_int_equal(gm_kernel_threads_per_cta(kern), 256);
        f.k = k;
        f.improve = imp + (size_t)k * n * n;
        for (uint32_t cta = 0; cta < gm_kernel_ctas(kern); cta++)
            for (uint32_t wp = 0; wp < 8; wp++) {
                f.cta = cta;
                f.warp = wp;
                f.nld = 0;
                uint64_t st = f.store_insts;
                run_warp(kern, cta, wp, 5, on_inst, &f);
                assert_int_equal(f.nld, 3);
                warps++;
                warps_storing += f.store_insts != st;
                assert_true(f.store_insts - st == 0 || f.store_insts - st == 2);
            }
    }
    assert_int_equal(f.exits, warps);
    assert_int_equal(warps, (uint64_t)n * n * n / 32);
    assert_int_equal(f.loads, 3 * warps);
    assert_int_equal(f.load_lanes, 3ull * n * n * n);
    assert_int_equal(f.store_lanes, 2 * updates);
    assert_int_equal(f.store_insts, 2 * warps_storing);
    /* 8 ALU/branch instructions per warp */
    assert_int_equal(f.other, 8 * warps);
    free(imp);
    gm_workload_free(&w);
}

static void test_fw_small_grids(void **state)
{
    (void)state;
    check_fw(16, 1);
    check_fw(48, 7);   /* 3 x 3 workgroups: not a power of two */
}

static void test_fw_catalogue_sizes(void **state)
{
    (void)state;
    static const uint32_t want[] = {96, 128, 256};
    for (int s = GM_SIZE_TINY; s <= GM_SIZE_STANDARD; s++) {
        gm_workload w;
        gm_error err;
        assert_int_equal(gm_workload_build(&w, "floydwarshall", (gm_size)s, 1, &err), 0);
        const gm_fw_params *p = ((const gm_fw_pass *)w.kernels[0].params)->p;
        assert_int_equal(p->n, want[s]);
        /* every pass fills the seed's 32 CUs */
        assert_true(gm_kernel_ctas(&w.kernels[0]) > 32);
        gm_workload_free(&w);
    }
    gm_workload w;
    gm_error err;
    assert_int_not_equal(gm_floydwarshall_build_dims(&w, 40, 1, &err), 0);
    assert_int_not_equal(gm_floydwarshall_build_dims(&w, 0, 1, &err), 0);
}

typedef struct mt_walk {
    uint32_t width, height, gx_count, cta, warp;
    uint64_t in, out;
    uint64_t ld, st, lds, sts, bar, alu, exits;
    uint8_t *written;           /* output elements written, [width * height] */
} mt_walk;

static void on_mt(const gm_inst *in, uint32_t exist, void *arg)
{
    mt_walk *m = arg;
    (void)exist;
    if (gm_op_is_mem(in->op) || in->op == GM_OP_SHARED_LD || in->op == GM_OP_SHARED_ST)
        assert_int_equal(in->mask, 0xffffffffu);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t lx = (m->warp * 32 + l) % 16, ly = (m->warp * 32 + l) / 16;
        uint32_t gx = m->cta % m->gx_count * 16 + lx, gy = m->cta / m->gx_count * 16 + ly;
        switch (in->op) {
        case GM_OP_GLOBAL_LD:   /* input[gy][gx] */
            assert_int_equal(in->addr[l], m->in + 4ull * ((uint64_t)gy * m->width + gx));
            break;
        case GM_OP_GLOBAL_ST: { /* output[gx][gy]: the transpose */
            uint64_t e = (uint64_t)gx * m->height + gy;
            assert_int_equal(in->addr[l], m->out + 4 * e);
            assert_int_equal(m->written[e], 0);
            m->written[e] = 1;
            break;
        }
        case GM_OP_SHARED_LD:
        case GM_OP_SHARED_ST:
            assert_int_equal(in->addr[l], 4ull * (ly * 16 + lx));
            break;
        default:
            break;
        }
    }
    m->ld += in->op == GM_OP_GLOBAL_LD;
    m->st += in->op == GM_OP_GLOBAL_ST;
    m->lds += in->op == GM_OP_SHARED_LD;
    m->sts += in->op == GM_OP_SHARED_ST;
    m->bar += in->op == GM_OP_BARRIER;
    m->alu += in->op == GM_OP_ALU;
    m->exits += in->op == GM_OP_EXIT;
    if (in->op == GM_OP_SHARED_LD)
        assert_int_equal(m->sts, m->lds);   /* after its own STS */
}

static void check_mt(uint32_t width, uint32_t height)
{
    gm_workload w;
    gm_error err;
    assert_int_equal(gm_matrixtranspose_build_dims(&w, width, height, &err), 0);
    const gm_kernel *k = &w.kernels[0];
    const gm_mt_params *p = k->params;
    assert_int_equal(w.nkernels, 1);
    assert_int_equal(p->input, GM_DEVMEM_BASE);
    assert_int_equal(p->output, GM_DEVMEM_BASE + ((4ull * width * height + 4095) & ~4095ull));
    assert_int_equal(k->grid.x, width / 16);
    assert_int_equal(k->grid.y, height / 16);
    mt_walk m = {.width = width, .height = height, .gx_count = width / 16, .in = p->input,
                 .out = p->output};
    m.written = calloc((size_t)width * height, 1);
    assert_non_null(m.written);
    uint64_t warps = 0;
    for (uint32_t cta = 0; cta < gm_kernel_ctas(k); cta++)
        for (uint32_t wp = 0; wp < 8; wp++) {
            m.cta = cta;
            m.warp = wp;
            uint64_t sts = m.sts, lds = m.lds;
            m.sts = m.lds = 0;
            run_warp(k, cta, wp, 3, on_mt, &m);
            m.sts += sts;
            m.lds += lds;
            warps++;
        }
    assert_int_equal(warps, (uint64_t)width * height / 32);
    assert_int_equal(m.exits, warps);
    assert_int_equal(m.ld, warps);
    assert_int_equal(m.st, warps);
    assert_int_equal(m.lds, warps);
    assert_int_equal(m.sts, warps);
    assert_int_equal(m.bar, warps);
    assert_int_equal(m.alu, 7 * warps);
    for (size_t e = 0; e < (size_t)width * height; e++)
        assert_int_equal(m.written[e], 1);   /* every output element exactly once */
    free(m.written);
    gm_workload_free(&w);
}

static void test_mt_grids(void **state)
{
    (void)state;
    check_mt(16, 16);
    check_mt(48, 32);   /* not square, not a power of two */
    gm_workload w;
    gm_error err;
    assert_int_equal(gm_workload_build(&w, "matrixtranspose", GM_SIZE_TINY, 1, &err), 0);
    assert_int_equal(((const gm_mt_params *)w.kernels[0].params)->width, 256);
    assert_true(gm_kernel_ctas(&w.kernels[0]) > 32);
    gm_workload_free(&w);
    assert_int_not_equal(gm_matrixtranspose_build_dims(&w, 40, 16, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fw_small_grids),
        cmocka_unit_test(test_fw_catalogue_sizes),
        cmocka_unit_test(test_mt_grids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
