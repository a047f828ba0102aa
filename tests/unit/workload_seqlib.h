/* Per-thread access lists for the workload tests whose reference runs
 * the CUDA code thread by thread and records every access in program
 * order (test_workload_leukocyte.c, test_workload_heartwall.c): each lane
 * of the generated stream must make exactly its thread's list. Include
 * after <cmocka.h> and workload_testlib.h. */
#ifndef GM_TESTS_WORKLOAD_SEQLIB_H
#define GM_TESTS_WORKLOAD_SEQLIB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- access lists */

typedef struct acc {
    uint64_t addr;
    uint8_t op, width;
} acc;

typedef struct seq {
    acc *a;
    size_t n, cap;
} seq;

static inline void push(seq *s, int op, uint64_t addr, int width)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->a = realloc(s->a, s->cap * sizeof *s->a);
        assert_non_null(s->a);
    }
    s->a[s->n].addr = addr;
    s->a[s->n].op = (uint8_t)op;
    s->a[s->n].width = (uint8_t)width;
    s->n++;
}

/* ---------------------------------------------------------------- the generated stream */

typedef struct walk {
    seq lane[GM_WARP_SIZE];
    reg_use regs;
    uint64_t op[GM_OP_COUNT];     /* warp instructions of the launch */
} walk;

static inline int is_memory(int op)
{
    return op == GM_OP_GLOBAL_LD || op == GM_OP_GLOBAL_ST || op == GM_OP_TEX_LD ||
           op == GM_OP_CONST_LD || op == GM_OP_SHARED_LD || op == GM_OP_SHARED_ST;
}

static inline void on_inst(const gm_inst *in, uint32_t exist, void *arg)
{
    walk *x = arg;
    check_lanes(in, exist);
    check_regs(&x->regs, in);
    x->op[in->op]++;
    if (!is_memory(in->op))
        return;
    /* texture, constant and global loads of arrays never stored are
     * read-only; IMGVF_all, the outputs and shared memory are not */
    int ro = in->op == GM_OP_TEX_LD || in->op == GM_OP_CONST_LD;
    if (in->op != GM_OP_GLOBAL_LD)
        assert_int_equal(in->flags & GM_INST_READ_ONLY, ro ? GM_INST_READ_ONLY : 0);
    for (int l = 0; l < GM_WARP_SIZE; l++)
        if (in->mask >> l & 1)
            push(&x->lane[l], in->op, in->addr[l], in->width);
}

/* The reference: thread tid of CTA cta appends its accesses to s. */
typedef void (*ref_fn)(const void *r, int cta, int tid, seq *s);

static inline void seq_equal(const seq *got, const seq *want, const char *name, uint32_t cta,
                      uint32_t tid)
{
    size_t n = got->n < want->n ? got->n : want->n;
    for (size_t i = 0; i < n; i++)
        if (got->a[i].op != want->a[i].op || got->a[i].addr != want->a[i].addr ||
            got->a[i].width != want->a[i].width)
            fail_msg("%s cta %u thread %u access %zu: op %d addr %#llx width %d, want op %d "
                     "addr %#llx width %d", name, cta, tid, i, got->a[i].op,
                     (unsigned long long)got->a[i].addr, got->a[i].width, want->a[i].op,
                     (unsigned long long)want->a[i].addr, want->a[i].width);
    if (got->n != want->n)
        fail_msg("%s cta %u thread %u: %zu accesses, want %zu", name, cta, tid, got->n,
                 want->n);
}

/* Every lane of every warp of launch k against its thread's reference;
 * op[] gets the launch's warp instruction counts; the number of lane
 * accesses is returned. */
static inline uint64_t check_launch(const gm_kernel *k, const void *r, ref_fn fn, uint64_t op[])
{
    uint32_t tpc = gm_kernel_threads_per_cta(k);
    uint64_t lanes = 0;
    walk *x = calloc(1, sizeof *x);
    seq want = {0};

    assert_non_null(x);
    for (uint32_t cta = 0; cta < gm_kernel_ctas(k); cta++)
        for (uint32_t w = 0; w < gm_kernel_warps_per_cta(k); w++) {
            memset(&x->regs, 0, sizeof x->regs);
            x->regs.lanewise = 1;
            for (int l = 0; l < GM_WARP_SIZE; l++)
                x->lane[l].n = 0;
            run_warp(k, cta, w, 64, on_inst, x);
            check_regs_consumed(&x->regs, k, cta, w);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint32_t tid = w * GM_WARP_SIZE + l;
                want.n = 0;
                if (tid < tpc)
                    fn(r, (int)cta, (int)tid, &want);
                seq_equal(&x->lane[l], &want, k->name, cta, tid);
                lanes += want.n;
            }
        }
    memcpy(op, x->op, sizeof x->op);
    for (int l = 0; l < GM_WARP_SIZE; l++)
        free(x->lane[l].a);
    free(x);
    free(want.a);
    return lanes;
}

#endif
