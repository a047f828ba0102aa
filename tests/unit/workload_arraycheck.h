/* The array-level checker of the PolyBench and Tango stream tests
 * (test_workload_polybench.c, test_workload_tango.c): arrays laid out as
 * cudaMalloc lays them out, a scalar reference that records every lane
 * access it makes, and a walk of every warp of a kernel that compares the
 * generated stream with it, per element, per thread and in order, plus
 * per-opcode counts, per-array instruction and line counts and, where the
 * test gives them, the coalescing totals.
 *
 * Each test is its own executable, so this is a header of static
 * functions; include it after <cmocka.h> and workload_testlib.h. */
#ifndef GM_TESTS_WORKLOAD_ARRAYCHECK_H
#define GM_TESTS_WORKLOAD_ARRAYCHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload/build.h"
#include "workload/walk.h"
#include "workload/workload.h"
#include "workload_testlib.h"

#define BASE 0x10000000ull
#define LINE 128u
#define SECTOR 32u
#define DERIVE UINT64_MAX   /* expected lines: from the reference's elements */

/* ---------------------------------------------------------------- arrays */

typedef struct array {
    const char *name;
    uint64_t base, bytes;
    uint64_t span;               /* allocation: bytes rounded up to 4 KiB */
    uint32_t elem;               /* bytes per element */
    int ro;                      /* expected: never stored by the kernel */
    uint32_t *exp_ld, *exp_st;   /* reference lane accesses per element of span */
    uint32_t *ld, *st;           /* observed */
    uint8_t *line;               /* observed: line touched */
    uint64_t ld_insts, st_insts; /* observed warp instructions */
    uint64_t exp_ld_insts, exp_st_insts, exp_lines;
} array;

#define MAX_ARRAYS 20

typedef struct check {
    array arr[MAX_ARRAYS];
    int narr;
    uint64_t op[GM_OP_COUNT];
    uint64_t ld_lines, ld_sectors, st_lines, st_sectors;
    /* Per thread (cta * threads_per_cta + tid), a hash of its global
     * accesses in program order: the reference's and the stream's. */
    uint64_t *exp_th, *th;
    uint64_t nthreads, cur;
    uint64_t overrun;            /* lane accesses past an array's end */
} check;

typedef struct expect {
    uint64_t op[GM_OP_COUNT];
    int check_coalescing;
    uint64_t ld_lines, ld_sectors, st_lines, st_sectors;
    uint64_t overrun;
} expect;

/* Bases by the cudaMalloc-like rule, from the sizes alone; all arrays
 * read-only and untouched until the kernel's test says otherwise. elem:
 * bytes per element of each array, or NULL for 4 B elements throughout. */
static void layout(check *c, const char *const *names, const uint64_t *bytes,
                   const uint32_t *elem, int n)
{
    uint64_t next = BASE;
    memset(c, 0, sizeof *c);
    assert_true(n <= MAX_ARRAYS);
    c->narr = n;
    for (int i = 0; i < n; i++) {
        array *a = &c->arr[i];
        a->name = names[i];
        a->base = next;
        a->bytes = bytes[i];
        a->span = (bytes[i] + 4095) / 4096 * 4096;
        a->elem = elem ? elem[i] : 4;
        a->ro = 1;
        next += a->span;
        uint64_t elems = a->span / a->elem;
        a->exp_ld = calloc(elems, sizeof *a->exp_ld);
        a->exp_st = calloc(elems, sizeof *a->exp_st);
        a->ld = calloc(elems, sizeof *a->ld);
        a->st = calloc(elems, sizeof *a->st);
        a->line = calloc(a->span / LINE, 1);
        assert_true(a->exp_ld && a->exp_st && a->ld && a->st && a->line);
    }
}

static void arrays_free(check *c)
{
    free(c->exp_th);
    free(c->th);
    for (int i = 0; i < c->narr; i++) {
        free(c->arr[i].exp_ld);
        free(c->arr[i].exp_st);
        free(c->arr[i].ld);
        free(c->arr[i].st);
        free(c->arr[i].line);
    }
}

/* One access in a thread's ordered hash. */
static uint64_t access_hash(uint64_t h, int array, uint64_t idx, int store)
{
    uint64_t t = idx ^ (uint64_t)array << 40 ^ (uint64_t)store << 63;
    return (h ^ t) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
}

/* Sizes the per-thread hashes for a kernel of `threads` threads. */
static void threads_reset(check *c, uint64_t threads)
{
    free(c->exp_th);
    free(c->th);
    c->nthreads = threads;
    c->exp_th = calloc(threads, sizeof *c->exp_th);
    c->th = calloc(threads, sizeof *c->th);
    assert_true(c->exp_th && c->th);
}

/* The reference: the following accesses are thread tid of CTA cta. */
static void ref_thread(check *c, const gm_kernel *k, uint64_t cta, uint64_t tid)
{
    c->cur = cta * gm_kernel_threads_per_cta(k) + tid;
    assert_true(c->cur < c->nthreads);
}

/* The reference: one lane access of element idx of array a (inside the
 * allocation; reads past the array's end are counted by the test). */
static void ref_ld(check *c, int a, int64_t idx)
{
    assert_true(idx >= 0 && (uint64_t)idx < c->arr[a].span / c->arr[a].elem);
    c->arr[a].exp_ld[idx]++;
    c->exp_th[c->cur] = access_hash(c->exp_th[c->cur], a, (uint64_t)idx, 0);
}

static void ref_st(check *c, int a, int64_t idx)
{
    assert_true(idx >= 0 && (uint64_t)idx < c->arr[a].bytes / c->arr[a].elem);
    c->arr[a].exp_st[idx]++;
    c->arr[a].ro = 0;
    c->exp_th[c->cur] = access_hash(c->exp_th[c->cur], a, (uint64_t)idx, 1);
}

static uint64_t all_lines(const array *a)
{
    return (a->bytes + LINE - 1) / LINE;
}

static array *find_array(check *c, uint64_t addr)
{
    for (int i = 0; i < c->narr; i++)
        if (addr >= c->arr[i].base && addr < c->arr[i].base + c->arr[i].span)
            return &c->arr[i];
    return NULL;
}

/* ---------------------------------------------------------------- checks */

typedef struct inst_ctx {
    check *c;
    uint64_t thread0;   /* thread index of lane 0 */
    reg_use regs;       /* whole-register: any read consumes a load */
} inst_ctx;

static void check_inst(const gm_inst *in, uint32_t exist, void *arg)
{
    inst_ctx *x = arg;
    check *c = x->c;

    /* (check_regs also counts shared loads as loads; any shared access
     * fails the global-only assertion below at the same instruction) */
    if (!check_inst_common(in, exist, c->op, &x->regs))
        return;
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
        if (!la)
            fail_msg("address 0x%llx outside every array", (unsigned long long)addr);
        if (!a)
            a = la;
        assert_ptr_equal(la, a);                 /* one array per instruction */
        assert_int_equal(in->width, a->elem);
        assert_int_equal((addr - a->base) % a->elem, 0);
        uint64_t e = (addr - a->base) / a->elem;
        uint64_t th = x->thread0 + (uint64_t)l;
        assert_true(th < c->nthreads);
        c->th[th] = access_hash(c->th[th], (int)(a - c->arr), e, !ld);
        c->overrun += addr >= a->base + a->bytes;
        if (ld)
            a->ld[e]++;
        else
            a->st[e]++;
        a->line[(addr - a->base) / LINE] = 1;
        lines[n] = addr / LINE;
        sectors[n] = addr / SECTOR;
        n++;
    }
    if (ld) {
        assert_int_equal(in->flags, a->ro ? GM_INST_READ_ONLY : 0);
        a->ld_insts++;
    } else {
        assert_int_equal(in->flags, 0);
        assert_false(a->ro);
        a->st_insts++;
    }
    int dl = distinct(lines, n), ds = distinct(sectors, n);
    if (ld) {
        c->ld_lines += (uint64_t)dl;
        c->ld_sectors += (uint64_t)ds;
    } else {
        c->st_lines += (uint64_t)dl;
        c->st_sectors += (uint64_t)ds;
    }
}

/* Walks kernel k warp by warp and compares everything with e, with the
 * per-array closed forms and with the reference's per-element counts and
 * per-thread access sequences. */
static void check_kernel(const gm_kernel *k, check *c, const expect *e)
{
    assert_int_equal(c->nthreads, (uint64_t)gm_kernel_ctas(k) * gm_kernel_threads_per_cta(k));
    for (uint32_t cta = 0; cta < gm_kernel_ctas(k); cta++) {
        for (uint32_t w = 0; w < gm_kernel_warps_per_cta(k); w++) {
            inst_ctx *x = calloc(1, sizeof *x);
            assert_non_null(x);
            x->c = c;
            x->thread0 = (uint64_t)cta * gm_kernel_threads_per_cta(k) + w * GM_WARP_SIZE;
            run_warp(k, cta, w, 16, check_inst, x);
            check_regs_consumed(&x->regs, k, cta, w);
            free(x);
        }
    }
    /* every thread made the reference's accesses in the reference's order */
    for (uint64_t t = 0; t < c->nthreads; t++)
        if (c->th[t] != c->exp_th[t])
            fail_msg("%s: thread %llu (CTA %llu, tid %llu): accesses differ from the source",
                     k->name, (unsigned long long)t,
                     (unsigned long long)(t / gm_kernel_threads_per_cta(k)),
                     (unsigned long long)(t % gm_kernel_threads_per_cta(k)));
    for (int op = 0; op < GM_OP_COUNT; op++)
        if (c->op[op] != e->op[op])
            fail_msg("%s: op %d: %llu warp instructions, expected %llu", k->name, op,
                     (unsigned long long)c->op[op], (unsigned long long)e->op[op]);
    assert_int_equal(c->overrun, e->overrun);
    if (e->check_coalescing) {
        assert_int_equal(c->ld_lines, e->ld_lines);
        assert_int_equal(c->ld_sectors, e->ld_sectors);
        assert_int_equal(c->st_lines, e->st_lines);
        assert_int_equal(c->st_sectors, e->st_sectors);
    }
    for (int i = 0; i < c->narr; i++) {
        array *a = &c->arr[i];
        uint64_t elems = a->span / a->elem, touched = 0, want_lines = 0;
        for (uint64_t j = 0; j < elems; j++)
            if (a->ld[j] != a->exp_ld[j] || a->st[j] != a->exp_st[j])
                fail_msg("%s: %s[%llu]: %u loads %u stores, expected %u and %u", k->name,
                         a->name, (unsigned long long)j, a->ld[j], a->st[j], a->exp_ld[j],
                         a->exp_st[j]);
        for (uint64_t j = 0; j < a->span / LINE; j++)
            touched += a->line[j];
        if (a->exp_lines == DERIVE) {
            uint64_t per = LINE / a->elem;
            for (uint64_t l = 0; l < a->span / LINE; l++) {
                int any = 0;
                for (uint64_t j = l * per; j < (l + 1) * per && j < elems; j++)
                    any |= a->exp_ld[j] || a->exp_st[j];
                want_lines += (uint64_t)any;
            }
        } else {
            want_lines = a->exp_lines;
        }
        if (a->ld_insts != a->exp_ld_insts || a->st_insts != a->exp_st_insts ||
            touched != want_lines)
            fail_msg("%s: %s: %llu loads %llu stores %llu lines, expected %llu %llu %llu",
                     k->name, a->name, (unsigned long long)a->ld_insts,
                     (unsigned long long)a->st_insts, (unsigned long long)touched,
                     (unsigned long long)a->exp_ld_insts, (unsigned long long)a->exp_st_insts,
                     (unsigned long long)want_lines);
        /* reset the observations for the next kernel on the same layout */
        memset(a->ld, 0, elems * sizeof *a->ld);
        memset(a->st, 0, elems * sizeof *a->st);
        memset(a->exp_ld, 0, elems * sizeof *a->exp_ld);
        memset(a->exp_st, 0, elems * sizeof *a->exp_st);
        memset(a->line, 0, a->span / LINE);
        a->ld_insts = a->st_insts = 0;
        a->exp_ld_insts = a->exp_st_insts = a->exp_lines = 0;
        a->ro = 1;
    }
    memset(c->op, 0, sizeof c->op);
    memset(c->exp_th, 0, c->nthreads * sizeof *c->exp_th);
    memset(c->th, 0, c->nthreads * sizeof *c->th);
    c->ld_lines = c->ld_sectors = c->st_lines = c->st_sectors = 0;
    c->overrun = 0;
}


#endif
