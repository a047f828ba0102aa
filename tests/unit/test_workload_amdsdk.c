/* AMD APP SDK kernels: FloydWarshall. The stream is checked against this
 * file's own Floyd-Warshall over the same seeded matrix: every load
 * address of every lane from the kernel's index expressions, and the
 * stores exactly where a pass improves a distance. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fw_small_grids),
        cmocka_unit_test(test_fw_catalogue_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
