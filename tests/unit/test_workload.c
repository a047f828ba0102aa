/* Workload tests: every stream is checked against closed forms derived from
 * the CUDA source of its kernel (docs/workloads.md), not against the
 * generator's own output:
 *   - per-opcode warp instruction counts from the instruction mix of one
 *     loop iteration times the trip count, summed over warps;
 *   - per array element, how many lanes load and store it (GEMM: every
 *     b[k][j] is read by the NI threads of column j, ...);
 *   - distinct 128 B lines per array, lines and 32 B sectors per warp
 *     memory instruction (coalescing shape: broadcast, one line, 32 lines);
 *   - every address inside its array (arrays laid out like cudaMalloc:
 *     0x10000000 upwards, 4 KiB aligned, in the host code's order);
 *   - the read-only flag exactly on loads of arrays the kernel never stores;
 *   - register def-use (every source written earlier, every load consumed)
 *     and the warp contract (masks within existing lanes, one final EXIT).
 * A golden FNV-1a hash over the whole stream then guards against any
 * unintended change; it is pinned only because the checks above pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/walk.h"
#include "workload/workload.h"
#include "workload_testlib.h"

#define BASE 0x10000000ull
#define LINE 128u

/* ---------------------------------------------------------------- arrays */

typedef struct array {
    const char *name;
    uint64_t base, bytes;
    int ro;            /* expected: never stored by the kernel under test */
    uint32_t ld_each;  /* expected lane loads of every element */
    uint32_t st_each;  /* expected lane stores of every element */
    uint32_t *ld, *st; /* observed per element (4 B elements) */
    uint8_t *line;     /* observed: line touched */
} array;

#define MAX_ARRAYS 4

typedef struct expect {
    uint64_t op[GM_OP_COUNT];
    uint64_t lane_ld, lane_st;          /* global, active lanes */
    int check_coalescing;               /* the line/sector totals below hold */
    uint64_t ld_lines, ld_sectors, st_lines, st_sectors;
} expect;

typedef struct check {
    array arr[MAX_ARRAYS];
    int narr;
    uint32_t threads_per_cta;
    uint64_t smem_bytes;
    /* observed */
    uint64_t op[GM_OP_COUNT];
    uint64_t lane_ld, lane_st;
    uint64_t ld_lines, ld_sectors, st_lines, st_sectors;
} check;

/* Array bases by the cudaMalloc-like rule, from the sizes alone. */
static void layout(check *c, const char *const *names, const uint64_t *bytes, int n)
{
    uint64_t next = BASE;
    memset(c, 0, sizeof *c);
    c->narr = n;
    for (int i = 0; i < n; i++) {
        c->arr[i].name = names[i];
        c->arr[i].base = next;
        c->arr[i].bytes = bytes[i];
        next += (bytes[i] + 4095) / 4096 * 4096;
    }
}

static void arrays_alloc(check *c)
{
    for (int i = 0; i < c->narr; i++) {
        array *a = &c->arr[i];
        a->ld = calloc(a->bytes / 4, sizeof *a->ld);
        a->st = calloc(a->bytes / 4, sizeof *a->st);
        a->line = calloc((a->bytes + LINE - 1) / LINE, 1);
        assert_non_null(a->ld);
        assert_non_null(a->st);
        assert_non_null(a->line);
    }
}

static void arrays_free(check *c)
{
    for (int i = 0; i < c->narr; i++) {
        free(c->arr[i].ld);
        free(c->arr[i].st);
        free(c->arr[i].line);
    }
}

static array *find_array(check *c, uint64_t addr)
{
    for (int i = 0; i < c->narr; i++)
        if (addr >= c->arr[i].base && addr < c->arr[i].base + c->arr[i].bytes)
            return &c->arr[i];
    return NULL;
}

/* ---------------------------------------------------------------- checks */

typedef struct inst_ctx {
    check *c;
    reg_use regs;   /* whole-register: any read consumes a load */
} inst_ctx;

static void check_inst(const gm_inst *in, uint32_t exist, void *arg)
{
    inst_ctx *x = arg;
    check *c = x->c;

    if (!check_inst_common(in, exist, c->op, &x->regs))
        return;
    assert_int_equal(in->width, 4);
    if (in->op == GM_OP_SHARED_LD || in->op == GM_OP_SHARED_ST) {
        check_shared(in, c->smem_bytes);
        return;
    }
    assert_true(in->op == GM_OP_GLOBAL_LD || in->op == GM_OP_GLOBAL_ST);
    int ld = in->op == GM_OP_GLOBAL_LD;

    array *a = NULL;
    uint64_t lines[GM_WARP_SIZE], sectors[GM_WARP_SIZE];
    int n = 0;
    for (int l = 0; l < GM_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1))
            continue;
        uint64_t addr = in->addr[l];
        array *la = find_array(c, addr);
        assert_non_null(la);                     /* inside an array */
        if (!a)
            a = la;
        assert_ptr_equal(la, a);                 /* one array per instruction */
        assert_int_equal(addr % 4, 0);
        uint64_t e = (addr - a->base) / 4;
        if (ld)
            a->ld[e]++;
        else
            a->st[e]++;
        a->line[(addr - a->base) / LINE] = 1;
        lines[n] = addr / LINE;
        sectors[n] = addr / 32;
        n++;
    }
    /* the read-only flag is set exactly on loads of never-stored arrays */
    if (ld)
        assert_int_equal(in->flags, a->ro ? GM_INST_READ_ONLY : 0);
    else {
        assert_int_equal(in->flags, 0);
        assert_false(a->ro);
    }
    int dl = distinct(lines, n), ds = distinct(sectors, n);
    if (ld) {
        c->lane_ld += (uint64_t)n;
        c->ld_lines += (uint64_t)dl;
        c->ld_sectors += (uint64_t)ds;
    } else {
        c->lane_st += (uint64_t)n;
        c->st_lines += (uint64_t)dl;
        c->st_sectors += (uint64_t)ds;
    }
}

/* Walks kernel k warp by warp and compares everything with e and with the
 * per-element expectations of c's arrays. */
static void check_kernel(const gm_kernel *k, check *c, const expect *e)
{
    arrays_alloc(c);
    c->threads_per_cta = gm_kernel_threads_per_cta(k);
    for (uint32_t cta = 0; cta < gm_kernel_ctas(k); cta++) {
        for (uint32_t w = 0; w < gm_kernel_warps_per_cta(k); w++) {
            inst_ctx x;
            memset(&x, 0, sizeof x);
            x.c = c;
            run_warp(k, cta, w, 16, check_inst, &x);
            check_regs_consumed(&x.regs, k, cta, w);
        }
    }
    for (int op = 0; op < GM_OP_COUNT; op++) {
        if (c->op[op] != e->op[op])
            fail_msg("%s: op %d: %llu warp instructions, expected %llu", k->name, op,
                     (unsigned long long)c->op[op], (unsigned long long)e->op[op]);
    }
    assert_int_equal(c->lane_ld, e->lane_ld);
    assert_int_equal(c->lane_st, e->lane_st);
    if (e->check_coalescing) {
        assert_int_equal(c->ld_lines, e->ld_lines);
        assert_int_equal(c->ld_sectors, e->ld_sectors);
        assert_int_equal(c->st_lines, e->st_lines);
        assert_int_equal(c->st_sectors, e->st_sectors);
    }
    for (int i = 0; i < c->narr; i++) {
        array *a = &c->arr[i];
        uint64_t elems = a->bytes / 4, lines = (a->bytes + LINE - 1) / LINE, touched = 0;
        for (uint64_t j = 0; j < elems; j++) {
            if (a->ld[j] != a->ld_each || a->st[j] != a->st_each)
                fail_msg("%s: %s[%llu]: %u loads %u stores, expected %u and %u", k->name,
                         a->name, (unsigned long long)j, a->ld[j], a->st[j], a->ld_each,
                         a->st_each);
        }
        for (uint64_t j = 0; j < lines; j++)
            touched += a->line[j];
        /* distinct lines: all of a used array (bases are line aligned) */
        assert_int_equal(touched, a->ld_each + a->st_each ? lines : 0);
    }
    arrays_free(c);
}

/* ---------------------------------------------------------------- GEMM */

/* reload: gemm_reload, which loads c again in every k trip (the stream
 * gmsim ran as gemm before the compiler's forwarding was modelled). */
static void gemm_check(uint32_t ni, uint32_t nj, uint32_t nk, int aligned, int reload,
                       const gm_workload *w)
{
    static const char *const names[] = {"a", "b", "c"};
    uint64_t bytes[] = {4ull * ni * nk, 4ull * nk * nj, 4ull * ni * nj};
    uint64_t c_loads = reload ? nk + 1ull : 1;   /* per thread */
    check c;
    expect e;

    layout(&c, names, bytes, 3);
    c.arr[0].ro = c.arr[1].ro = 1;
    c.arr[0].ld_each = nj;        /* a[i][k]: every j of row i */
    c.arr[1].ld_each = ni;        /* b[k][j]: every i of column j */
    c.arr[2].ld_each = (uint32_t)c_loads;   /* c: for *= BETA; += reads it forwarded */
    c.arr[2].st_each = nk + 1;    /* *= BETA, then += each k */

    assert_int_equal(w->nkernels, 1);
    const gm_kernel *k = &w->kernels[0];
    const gm_gemm_params *p = k->params;
    assert_int_equal(p->reload_acc, reload);
    assert_int_equal(p->a, c.arr[0].base);
    assert_int_equal(p->b, c.arr[1].base);
    assert_int_equal(p->c, c.arr[2].base);
    /* grid as the host code writes it: x from NI, y from NJ */
    assert_int_equal(k->grid.x, (ni + 31) / 32);
    assert_int_equal(k->grid.y, (nj + 7) / 8);
    assert_int_equal(k->grid.z, 1);
    assert_int_equal(k->block.x, 32);
    assert_int_equal(k->block.y, 8);
    assert_int_equal(k->block.z, 1);

    /* warps with at least one thread inside (i < NI && j < NJ) */
    uint64_t warps = 0, active = 0;
    for (uint32_t by = 0; by < k->grid.y; by++)
        for (uint32_t bx = 0; bx < k->grid.x; bx++)
            for (uint32_t ty = 0; ty < 8; ty++) {
                warps++;
                active += by * 8 + ty < ni && bx * 32 < nj;
            }
    memset(&e, 0, sizeof e);
    /* prologue 7 ALU + BRA; set-up 5 ALU, LD c, ST c; per k: LD a, LD b,
     * (LD c,) FMUL, FFMA, ST c, IADD, IADD, ISETP, BRA; EXIT */
    e.op[GM_OP_ALU] = 7 * warps + active * (5 + 5ull * nk);
    e.op[GM_OP_BRANCH] = warps + active * nk;
    e.op[GM_OP_GLOBAL_LD] = active * (2ull * nk + c_loads);
    e.op[GM_OP_GLOBAL_ST] = active * (1 + (uint64_t)nk);
    e.op[GM_OP_EXIT] = warps;
    e.lane_ld = (uint64_t)ni * nj * (2ull * nk + c_loads);
    e.lane_st = (uint64_t)ni * nj * (1 + nk);
    if (aligned) {
        /* a: broadcast, 1 line 1 sector; b and c: 32 consecutive floats,
         * 1 line 4 sectors */
        e.check_coalescing = 1;
        e.ld_lines = active * (nk + nk + c_loads);
        e.ld_sectors = active * (nk * 1ull + nk * 4ull + c_loads * 4);
        e.st_lines = active * (nk + 1ull);
        e.st_sectors = active * (nk + 1ull) * 4;
    }
    check_kernel(k, &c, &e);
}

static void test_gemm_tiny(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_workload_build(&w, "gemm", GM_SIZE_TINY, 1, &err), 0);
    const gm_gemm_params *p = w.kernels[0].params;
    assert_int_equal(p->ni, 64);
    assert_int_equal(p->nj, 64);
    assert_int_equal(p->nk, 64);
    assert_int_equal(gm_kernel_ctas(&w.kernels[0]), 16);
    gemm_check(64, 64, 64, 1, 0, &w);
    gm_workload_free(&w);
}

/* gemm_reload is found by name but stays out of the catalogue (not
 * listed, not in studies), and is the gemm stream of before: its golden
 * hash is the one gemm had (0x148a3b9ff908e1f6). */
static void test_gemm_reload(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_workload_build(&w, "gemm_reload", GM_SIZE_TINY, 1, &err), 0);
    gemm_check(64, 64, 64, 1, 1, &w);
    gm_workload_free(&w);
    for (size_t i = 0; i < gm_workload_catalogue_size(); i++)
        assert_string_not_equal(gm_workload_catalogue_at(i)->name, "gemm_reload");
    static const golden_stream old_gemm[] = {{"gemm_reload", 0x148a3b9ff908e1f6ull}};
    check_golden_hashes(old_gemm, 1);
}

/* Partial CTAs: NJ = 40 leaves 24 idle lanes in every warp of the second
 * CTA column; NI = 36 leaves warps 4..7 of the last CTA row with no thread
 * inside, which must still run to EXIT. */
static void test_gemm_ragged(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_gemm_build_dims(&w, 36, 40, 8, &err), 0);
    gemm_check(36, 40, 8, 0, 0, &w);
    gm_workload_free(&w);
}

/* ---------------------------------------------------------------- ATAX */

static void atax_check(uint32_t nx, uint32_t ny, int aligned, const gm_workload *w)
{
    static const char *const names[] = {"A", "x", "y", "tmp"};
    uint64_t bytes[] = {4ull * nx * ny, 4ull * ny, 4ull * ny, 4ull * nx};

    assert_int_equal(w->nkernels, 2);
    for (int kk = 0; kk < 2; kk++) {
        const gm_kernel *k = &w->kernels[kk];
        const gm_atax_params *p = w->priv;
        check c;
        expect e;
        uint64_t bound = kk ? ny : nx;   /* threads that pass the guard */
        uint64_t trip = kk ? nx : ny;    /* loop trips per thread */

        layout(&c, names, bytes, 4);
        assert_int_equal(p->a, c.arr[0].base);
        assert_int_equal(p->x, c.arr[1].base);
        assert_int_equal(p->y, c.arr[2].base);
        assert_int_equal(p->tmp, c.arr[3].base);
        assert_int_equal(k->grid.x, (bound + 255) / 256);
        assert_int_equal(k->grid.y, 1);
        assert_int_equal(k->block.x, 256);
        assert_int_equal(k->block.y, 1);

        c.arr[0].ro = 1;
        c.arr[0].ld_each = 1;                  /* A: once per kernel */
        if (kk == 0) {
            c.arr[1].ro = 1;
            c.arr[1].ld_each = nx;             /* x[j] by every thread i */
            c.arr[3].ld_each = 1;              /* tmp[i] loaded once, */
            c.arr[3].st_each = ny;             /* stored every j */
            c.arr[2].ro = 1;                   /* y untouched */
        } else {
            c.arr[3].ro = 1;
            c.arr[3].ld_each = ny;             /* tmp[i] by every thread j */
            c.arr[2].ld_each = 1;              /* y[j] loaded once, */
            c.arr[2].st_each = nx;             /* stored every i */
            c.arr[1].ro = 1;                   /* x untouched */
        }

        uint64_t warps = k->grid.x * 8ull, active = (bound + 31) / 32;
        memset(&e, 0, sizeof e);
        /* prologue 4 ALU + BRA; set-up 4 ALU, LD acc; per trip LD A, LD
         * vec, FFMA, ST acc, IADD, IADD, ISETP, BRA; EXIT */
        e.op[GM_OP_ALU] = 4 * warps + active * (4 + 4 * trip);
        e.op[GM_OP_BRANCH] = warps + active * trip;
        e.op[GM_OP_GLOBAL_LD] = active * (2 * trip + 1);
        e.op[GM_OP_GLOBAL_ST] = active * trip;
        e.op[GM_OP_EXIT] = warps;
        e.lane_ld = bound * (2 * trip + 1);
        e.lane_st = bound * trip;
        if (aligned) {
            e.check_coalescing = 1;
            if (kk == 0) {
                /* A: lane stride NY*4 >= 128 B, 32 lines of 1 sector;
                 * x: broadcast; tmp (once): 1 line 4 sectors */
                e.ld_lines = active * (trip * (32 + 1) + 1);
                e.ld_sectors = active * (trip * (32 + 1) + 4);
            } else {
                /* A: 1 line 4 sectors; tmp: broadcast; y (once): 1 line 4
                 * sectors */
                e.ld_lines = active * (trip * 2 + 1);
                e.ld_sectors = active * (trip * (4 + 1) + 4);
            }
            e.st_lines = active * trip;
            e.st_sectors = active * trip * 4;
        }
        check_kernel(k, &c, &e);
    }
}

static void test_atax_tiny(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_workload_build(&w, "atax", GM_SIZE_TINY, 1, &err), 0);
    const gm_atax_params *p = w.priv;
    assert_int_equal(p->nx, 512);
    assert_int_equal(p->ny, 512);
    atax_check(512, 512, 1, &w);
    gm_workload_free(&w);
}

/* NX = 300: the second CTA of kernel 1 has 44 threads inside, so warp 1
 * has 12 active lanes and warps 2..7 none; NY = 200 makes kernel 2 a
 * single ragged CTA and the two kernels' trip counts differ. */
static void test_atax_ragged(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_atax_build_dims(&w, 300, 200, &err), 0);
    atax_check(300, 200, 0, &w);
    gm_workload_free(&w);
}

/* ---------------------------------------------------------------- reduction */

static void reduction_check(uint32_t n, uint32_t launches, const gm_workload *w)
{
    static const char *const names[] = {"g_idata", "g_odata"};
    uint64_t bytes[] = {4ull * n, 4ull * 64};
    const uint64_t grid_size = 2 * 256 * 64;

    assert_int_equal(w->nkernels, launches);
    for (uint32_t kk = 0; kk < launches; kk++) {
        const gm_kernel *k = &w->kernels[kk];
        const gm_reduction_params *p = k->params;
        check c;
        expect e;

        layout(&c, names, bytes, 2);
        c.smem_bytes = 256 * 4;
        assert_int_equal(p->idata, c.arr[0].base);
        assert_int_equal(p->odata, c.arr[1].base);
        assert_int_equal(k->grid.x, 64);
        assert_int_equal(k->block.x, 256);
        c.arr[0].ro = 1;
        c.arr[0].ld_each = 1;   /* i and i+256 over all trips: each once */
        c.arr[1].st_each = 1;   /* g_odata[bx] by thread 0 of CTA bx */

        memset(&e, 0, sizeof e);
        for (uint64_t cta = 0; cta < 64; cta++) {
            for (uint64_t wp = 0; wp < 8; wp++) {
                uint64_t i0 = cta * 512 + wp * 32;
                uint64_t t = i0 < n ? (n - i0 + grid_size - 1) / grid_size : 0;
                uint64_t s128 = wp < 4, s64 = wp < 2, w0 = wp == 0;
                /* prologue: 5 ALU, STS, BRA; per trip: 5 ALU, 2 LD, LDS,
                 * STS, BRA; 3 x (ISETP, BRA) + ISETP tid==0, 3 BAR; steps
                 * LDS, LDS, FADD, STS for s=128 (warps 0-3), s=64 (0-1),
                 * 6 warp steps (warp 0); warp 0: LDS, IMAD, ST */
                e.op[GM_OP_ALU] += 5 + 5 * t + 4 + s128 + s64 + w0 * (6 + 1);
                e.op[GM_OP_BRANCH] += 1 + t + 4;
                e.op[GM_OP_GLOBAL_LD] += 2 * t;
                e.op[GM_OP_GLOBAL_ST] += w0;
                e.op[GM_OP_SHARED_LD] += t + 2 * s128 + 2 * s64 + w0 * (12 + 1);
                e.op[GM_OP_SHARED_ST] += 1 + t + s128 + s64 + w0 * 6;
                e.op[GM_OP_BARRIER] += 3;
                e.op[GM_OP_EXIT] += 1;
            }
        }
        e.lane_ld = n;
        e.lane_st = 64;
        e.check_coalescing = 1;   /* every warp load is 32 aligned floats */
        e.ld_lines = e.op[GM_OP_GLOBAL_LD];
        e.ld_sectors = 4 * e.op[GM_OP_GLOBAL_LD];
        e.st_lines = 64;
        e.st_sectors = 64;
        check_kernel(k, &c, &e);
    }
}

static void test_reduction_tiny(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_workload_build(&w, "reduction", GM_SIZE_TINY, 1, &err), 0);
    const gm_reduction_params *p = w.kernels[0].params;
    assert_int_equal(p->n, (256 << 10) / 4);
    reduction_check(p->n, 2, &w);
    gm_workload_free(&w);
}

/* n = 70*512: CTAs 0-5 make two trips, the others one. n = 32*512: CTAs
 * 32-63 never enter the loop and only take part in the tree. */
static void test_reduction_ragged(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_reduction_build_dims(&w, 70 * 512, 1, &err), 0);
    reduction_check(70 * 512, 1, &w);
    gm_workload_free(&w);
    assert_int_equal(gm_reduction_build_dims(&w, 32 * 512, 1, &err), 0);
    reduction_check(32 * 512, 1, &w);
    gm_workload_free(&w);
    assert_int_not_equal(gm_reduction_build_dims(&w, 1000, 1, &err), 0);
    assert_int_not_equal(gm_reduction_build_dims(&w, 512, 0, &err), 0);
}

/* ---------------------------------------------------------------- hashes */

static const golden_stream golden[] = {   /* tiny, seed 1 */
    {"gemm", 0x78d77c0f08b01646ull},
    {"atax", 0xa4c3adfaea065557ull},
    {"reduction", 0xc39050722f909cd9ull},
};

static void test_golden_hash(void **state)
{
    (void)state;
    check_golden_hashes(golden, sizeof golden / sizeof golden[0]);
}

/* Two builds and different chunk sizes give the same stream, for every
 * workload; for gemm, atax and reduction, whose addresses do not depend on
 * data, also builds from different seeds. */
static void test_determinism(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < gm_workload_catalogue_size(); ci++) {
        const gm_workload_info *info = gm_workload_catalogue_at(ci);
        bool data_free = strcmp(info->name, "gemm") == 0 || strcmp(info->name, "atax") == 0 ||
                         strcmp(info->name, "reduction") == 0;
        check_same_stream(info->name, data_free ? 99 : 1);
    }
}

/* Warps of a CTA generated in round-robin chunks, as the core does, give
 * each warp the same stream as generating it alone: all state is in
 * gm_warp_gen. */
static void test_interleaved(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < gm_workload_catalogue_size(); ci++) {
        const gm_workload_info *info = gm_workload_catalogue_at(ci);
        gm_workload w;
        gm_error err;
        assert_int_equal(gm_workload_build(&w, info->name, GM_SIZE_TINY, 1, &err), 0);
        check_round_robin(&w.kernels[0], 1);
        gm_workload_free(&w);
    }
}

/* ---------------------------------------------------------------- catalogue */

static void test_catalogue(void **state)
{
    static const char *const want[] = {"gemm", "atax", "reduction"};
    (void)state;
    size_t n = gm_workload_catalogue_size();
    for (size_t i = 0; i < n; i++) {
        const gm_workload_info *e = gm_workload_catalogue_at(i);
        assert_non_null(e->suite);
        assert_non_null(e->stresses);
        assert_true(strcmp(e->klass, "sensitive") == 0 ||
                    strcmp(e->klass, "insensitive") == 0);
        assert_non_null(e->build);
        /* names are unique: find returns this very entry */
        assert_ptr_equal(gm_workload_find(e->name), e);
    }
    assert_null(gm_workload_catalogue_at(n));
    assert_true(n >= 3);
    for (int i = 0; i < 3; i++)
        assert_non_null(gm_workload_find(want[i]));
    assert_string_equal(gm_workload_find("gemm")->klass, "insensitive");
    assert_string_equal(gm_workload_find("reduction")->klass, "sensitive");
    assert_null(gm_workload_find("nope"));
    assert_null(gm_workload_find(NULL));

    gm_workload w;
    gm_error err;
    err.msg[0] = 0;
    assert_int_equal(gm_workload_build(&w, "nope", GM_SIZE_TINY, 1, &err), -1);
    assert_true(strstr(err.msg, "nope") != NULL);
    assert_null(w.kernels);
    assert_int_equal(gm_workload_build(&w, "gemm", (gm_size)7, 1, &err), -1);
    assert_null(w.kernels);
    gm_workload_free(&w);   /* harmless on a failed build */
    gm_workload_free(NULL);
}

static void test_sizes(void **state)
{
    gm_size s;
    (void)state;
    assert_int_equal(gm_size_parse("tiny", &s), 0);
    assert_int_equal(s, GM_SIZE_TINY);
    assert_int_equal(gm_size_parse("small", &s), 0);
    assert_int_equal(s, GM_SIZE_SMALL);
    assert_int_equal(gm_size_parse("standard", &s), 0);
    assert_int_equal(s, GM_SIZE_STANDARD);
    assert_int_equal(gm_size_parse("fill", &s), 0);
    assert_int_equal(s, GM_SIZE_FILL);
    assert_int_equal(gm_size_parse("huge", &s), -1);
    assert_int_equal(gm_size_parse("", &s), -1);
    assert_int_equal(gm_size_parse(NULL, &s), -1);
    for (int i = 0; i < GM_SIZE_COUNT; i++) {
        assert_int_equal(gm_size_parse(gm_size_name((gm_size)i), &s), 0);
        assert_int_equal(s, i);
    }
    assert_string_equal(gm_size_name((gm_size)9), "?");

    /* The documented dimensions of each size (docs/workloads.md). */
    static const uint32_t gemm_n[] = {64, 256, 512, 256}, atax_n[] = {512, 1024, 4096, 1024};
    static const uint32_t red_bytes[] = {256 << 10, 1 << 20, 1 << 20, 1 << 20};
    static const uint32_t red_launches[] = {2, 8, 256, 8};
    for (int i = 0; i < GM_SIZE_COUNT; i++) {
        gm_workload w;
        gm_error err;
        assert_int_equal(gm_workload_build(&w, "gemm", (gm_size)i, 1, &err), 0);
        assert_int_equal(((const gm_gemm_params *)w.kernels[0].params)->ni, gemm_n[i]);
        assert_int_equal(gm_kernel_ctas(&w.kernels[0]), (gemm_n[i] / 32) * (gemm_n[i] / 8));
        gm_workload_free(&w);
        assert_int_equal(gm_workload_build(&w, "atax", (gm_size)i, 1, &err), 0);
        assert_int_equal(((const gm_atax_params *)w.priv)->nx, atax_n[i]);
        assert_int_equal(gm_kernel_ctas(&w.kernels[1]), atax_n[i] / 256);
        gm_workload_free(&w);
        assert_int_equal(gm_workload_build(&w, "reduction", (gm_size)i, 1, &err), 0);
        assert_int_equal(((const gm_reduction_params *)w.kernels[0].params)->n,
                         red_bytes[i] / 4);
        assert_int_equal(w.nkernels, red_launches[i]);
        gm_workload_free(&w);
    }
}

static void test_devmem(void **state)
{
    gm_devmem m;
    (void)state;
    gm_devmem_init(&m);
    uint64_t a = gm_devmem_alloc(&m, 100);
    uint64_t b = gm_devmem_alloc(&m, 4096);
    uint64_t c = gm_devmem_alloc(&m, 0);
    uint64_t d = gm_devmem_alloc(&m, 4097);
    uint64_t e = gm_devmem_alloc(&m, 1);
    assert_int_equal(a, BASE);
    assert_int_equal(b, BASE + 4096);
    assert_int_equal(c, BASE + 8192);
    assert_int_equal(d, BASE + 12288);   /* the zero-byte array still took 4 KiB */
    assert_int_equal(e, BASE + 12288 + 8192);
}

/* ---------------------------------------------------------------- walker */

/* The library walker agrees with this file's own walk. */
static void test_walk_counts(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < gm_workload_catalogue_size(); ci++)
        check_walk_counts(gm_workload_catalogue_at(ci)->name, 0, UINT64_MAX);
}

typedef struct bad_params {
    int mode;   /* 0: no EXIT; 1: instruction after EXIT; 2: returns > max */
} bad_params;

static int bad_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    static const uint8_t ops[3][2] = {
        {GM_OP_ALU, GM_OP_ALU},     /* never exits */
        {GM_OP_EXIT, GM_OP_EXIT},   /* an instruction after EXIT */
        {GM_OP_ALU, GM_OP_EXIT},    /* fine, but claims more than max */
    };
    const bad_params *p = k->params;
    if (g->pc++ > 0)
        return 0;
    for (int i = 0; i < 2; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].op = ops[p->mode][i];
        out[i].mask = 1;
    }
    return p->mode == 2 ? max + 1 : 2;
}

static void test_walk_rejects_bad_generators(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        bad_params p = {mode};
        gm_kernel k;
        gm_workload w;
        gm_error err;
        gm_kernel_set(&k, "bad", gm_dim3_make(1, 1, 1), gm_dim3_make(32, 1, 1), &p, bad_gen);
        memset(&w, 0, sizeof w);
        w.nkernels = 1;
        w.kernels = &k;
        err.msg[0] = 0;
        assert_int_equal(gm_workload_walk(&w, 16, NULL, NULL, &err), -1);
        assert_true(strstr(err.msg, "bad") != NULL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_devmem),
        cmocka_unit_test(test_gemm_tiny),
        cmocka_unit_test(test_gemm_ragged),
        cmocka_unit_test(test_gemm_reload),
        cmocka_unit_test(test_atax_tiny),
        cmocka_unit_test(test_atax_ragged),
        cmocka_unit_test(test_reduction_tiny),
        cmocka_unit_test(test_reduction_ragged),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_walk_counts),
        cmocka_unit_test(test_walk_rejects_bad_generators),
        cmocka_unit_test(test_golden_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
