/* Rodinia dwt2d (forward 5/3, 3 components) stream tests. The expected
 * accesses are rebuilt here thread by thread by running the CUDA source's
 * own state machines (components.cu; fdwt53.cu initColumn /
 * loadAndVerticallyTransform / transform; transform_buffer.h's layout and
 * horizontal steps; io.h VerticalDWTPixelLoader and VerticalDWTBandWriter
 * with their last/stride/end and next/strides/end fields, the turn at
 * `end` and the skipped writes), not the emulator's closed forms, with the
 * shared loads that clang -O3 keeps (docs/workloads/rodinia.md, dwt2d).
 * Every lane of every global or shared memory instruction and of every
 * barrier must be its thread's next expected event (kind, address; width
 * and read-only flag), and every thread's list must be used up. Also:
 * launch geometry and layout from the host code, shared addresses inside
 * the buffers, lane and register contract, sizes, a pinned tiny hash and
 * a tiny run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload/kernels/rodinia_dwt2d.h"
#include "workload/walk.h"
#include "workload/workload.h"
#include "workload_simlib.h"
#include "workload_testlib.h"

/* What a thread does, in its order. */
enum { LDG, STG, LDS, STS, BAR };

typedef struct exp_acc {
    uint64_t addr;      /* global address, shared byte offset, 0 for BAR */
    uint8_t kind;
} exp_acc;

/* Expected accesses of every thread of one launch. */
typedef struct expect {
    uint32_t threads;
    exp_acc **a;        /* [thread] */
    size_t *n, *cap, *pos;
} expect;

static void exp_init(expect *e, uint32_t threads)
{
    e->threads = threads;
    e->a = calloc(threads, sizeof *e->a);
    e->n = calloc(threads, sizeof *e->n);
    e->cap = calloc(threads, sizeof *e->cap);
    e->pos = calloc(threads, sizeof *e->pos);
    assert_true(e->a && e->n && e->cap && e->pos);
}

static void exp_free(expect *e)
{
    for (uint32_t t = 0; t < e->threads; t++)
        free(e->a[t]);
    free(e->a);
    free(e->n);
    free(e->cap);
    free(e->pos);
}

static void push(expect *e, uint32_t t, uint64_t addr, int kind)
{
    if (e->n[t] == e->cap[t]) {
        e->cap[t] = e->cap[t] ? 2 * e->cap[t] : 64;
        e->a[t] = realloc(e->a[t], e->cap[t] * sizeof **e->a);
        assert_non_null(e->a[t]);
    }
    e->a[t][e->n[t]].addr = addr;
    e->a[t][e->n[t]].kind = (uint8_t)kind;
    e->n[t]++;
}

/* ---------------------------------------------------------------- the source's state machines */

static void mirror(int *d, int size)
{
    if (*d >= size)
        *d = 2 * size - 2 - *d;
    else if (*d < 0)
        *d = -*d;
}

typedef struct loader {
    int last, stride, end, checked;
} loader;

static void loader_init(loader *l, int checked, int sx, int sy, int fx, int fy)
{
    mirror(&fx, sx);
    l->checked = checked;
    l->end = checked ? sy * sx + fx : 0;
    l->stride = sx;
    l->last = fx + sx * fy - sx;
}

static int load_from(loader *l)
{
    l->last += l->stride;
    if (l->checked && l->last == l->end) {
        l->last -= 2 * l->stride;
        l->stride = -l->stride;
    }
    return l->last;
}

typedef struct writer {
    int next, end, h2l, l2h, checked;
} writer;

static int div_up(int n, int d)
{
    return n / d + (n % d ? 1 : 0);
}

static void writer_init(writer *w, int checked, int sx, int sy, int fx, int fy)
{
    w->checked = checked;
    if (fx >= sx) {
        w->end = w->h2l = w->l2h = w->next = 0;
        return;
    }
    int col = fx / 2, vstride;
    if (fx & 1) {
        vstride = sx / 2;
        col += div_up(sx, 2) * div_up(sy, 2);
        w->l2h = sx * sy / 2;
    } else {
        vstride = sx / 2 + (sx & 1);
        w->l2h = div_up(sy, 2) * sx;
    }
    w->h2l = vstride - w->l2h;
    w->end = checked ? col + sy / 2 * vstride + (sy & 1) * w->l2h : 0;
    w->next = col + fy / 2 * vstride + (fy & 1) * w->l2h;
}

static void write_into(expect *e, uint32_t t, uint64_t out, writer *w, int stride)
{
    if (!w->checked || w->next != w->end) {
        push(e, t, out + 4 * (uint64_t)(int64_t)w->next, STG);
        w->next += stride;
    }
}

/* initColumn: three loads, the top CTA row re-initialised at firstY + 1. */
static void init_column(expect *e, uint32_t t, uint64_t in, loader *l, int checked, int sx,
                        int sy, int fx, int fy, int by)
{
    if (by == 0) {
        loader_init(l, checked, sx, sy, fx, fy);
        for (int k = 0; k < 3; k++)
            push(e, t, in + 4 * (uint64_t)(int64_t)load_from(l), LDG);
        loader_init(l, checked, sx, sy, fx, fy + 1);
    } else {
        loader_init(l, checked, sx, sy, fx, fy - 2);
        for (int k = 0; k < 3; k++)
            push(e, t, in + 4 * (uint64_t)(int64_t)load_from(l), LDG);
    }
}

/* TransformBuffer<int, win, 11, 2> (transform_buffer.h): vertical stride,
 * the odd half's offset, and getColumnOffset, in ints. */
typedef struct tbuf {
    int win, vs, odd;
} tbuf;

static tbuf tbuf_make(int win)
{
    tbuf b = {win, 2 + win / 2, 0};
    int size = b.vs * 11;
    b.odd = size + 32 - (size + 16) % 32;
    return b;
}

static int column_offset(const tbuf *b, int col)
{
    col += 2;
    return col / 2 + (col & 1) * b->odd;
}

static void sh(expect *e, uint32_t t, int index, int kind)
{
    push(e, t, 4 * (uint64_t)index, kind);
}

/* loadAndVerticallyTransform of one column at offset off: the 3 kept
 * pixels stored, 8 rows loaded and stored, then the lifting. The source
 * reads back rows 8..10 (the next step's kept pixels) and every p, n and
 * c of forEachVerticalOdd/Even, all values this thread stored in this step
 * with no barrier since: clang -O3 (NVPTX, sm_35; inlined, the
 * constant-trip loops unrolled) keeps none of those loads, only the
 * stores of the predicted rows 1, 3, .., 9 and the updated 2, 4, 6, 8. */
static void column_pass(expect *e, uint32_t t, uint64_t in, loader *l, const tbuf *b, int off)
{
    for (int i = 0; i < 3; i++)
        sh(e, t, off + i * b->vs, STS);
    for (int i = 3; i < 11; i++) {
        push(e, t, in + 4 * (uint64_t)(int64_t)load_from(l), LDG);
        sh(e, t, off + i * b->vs, STS);
    }
    for (int r = 1; r < 10; r += 2)
        sh(e, t, off + r * b->vs, STS);
    for (int r = 2; r < 9; r += 2)
        sh(e, t, off + r * b->vs, STS);
}

/* One item of horizontalStep: previous, next and centre loaded (other
 * threads stored them before the barrier), the centre stored. */
static void horizontal_item(expect *e, uint32_t t, int prev, int mid, int at)
{
    sh(e, t, prev + at, LDS);
    sh(e, t, prev + 1 + at, LDS);
    sh(e, t, mid + at, LDS);
    sh(e, t, mid + at, STS);
}

/* horizontalStep over rows 2..9: count / win full trips and one for
 * tx < count % win. */
static void horizontal_step(expect *e, uint32_t t, const tbuf *b, int tx, int prev, int mid)
{
    int count = 8 * b->vs - 1, at;
    for (at = 0; at + b->win <= count; at += b->win)
        horizontal_item(e, t, prev, mid, at + tx);
    if (tx < count % b->win)
        horizontal_item(e, t, prev, mid, at + tx);
}

/* One write: the buffer element is loaded only where the writer writes
 * (clang sinks the argument's load into saveAndUpdate's check). */
static void write_row(expect *e, uint32_t t, uint64_t out, writer *w, int stride, int index)
{
    if (!w->checked || w->next != w->end)
        sh(e, t, index, LDS);
    write_into(e, t, out, w, stride);
}

static void fdwt_expect(expect *e, const gm_dwt2d_launch *p, uint32_t gx, uint32_t gy)
{
    int win = (int)p->win, sx = (int)p->sx, sy = (int)p->sy, steps = (int)p->steps;
    for (uint32_t by = 0; by < gy; by++)
        for (uint32_t bx = 0; bx < gx; bx++) {
            int max_x = ((int)bx + 1) * win + 1, max_y = ((int)by + 1) * 8 * steps + 1;
            int bottom = max_y >= sy, right = max_x >= sx;
            int cl = bottom, cw = bottom || right;
            int fy = (int)by * 8 * steps;
            tbuf b = tbuf_make(win);
            for (int tx = 0; tx < win; tx++) {
                uint32_t t = (by * gx + bx) * (uint32_t)win + (uint32_t)tx;
                loader col, bnd;
                init_column(e, t, p->in, &col, cl, sx, sy, (int)bx * win + tx, fy, (int)by);
                if (tx < 3) {
                    int id = tx + (tx == 0 ? win : -3);
                    init_column(e, t, p->in, &bnd, cl, sx, sy, (int)bx * win + id, fy, (int)by);
                }
                int oc = tx * 2 - (win - 1) * (tx / (win / 2));   /* parityIdx */
                writer wr;
                writer_init(&wr, cw, sx, sy, (int)bx * win + oc, fy);
                int out_off = column_offset(&b, oc);
                int bnd_off = tx < 3 ? column_offset(&b, tx + (tx == 0 ? win : -3)) : 0;
                for (int w = 0; w < steps; w++) {
                    column_pass(e, t, p->in, &col, &b, column_offset(&b, tx));
                    if (tx < 3)
                        column_pass(e, t, p->in, &bnd, &b, bnd_off);
                    push(e, t, 0, BAR);
                    horizontal_step(e, t, &b, tx, 2 * b.vs, 2 * b.vs + b.odd);   /* predict */
                    push(e, t, 0, BAR);
                    horizontal_step(e, t, &b, tx, 2 * b.vs + b.odd, 2 * b.vs + 1);   /* update */
                    push(e, t, 0, BAR);
                    for (int r = 2; r < 10; r += 2) {
                        write_row(e, t, p->out, &wr, wr.l2h, out_off + r * b.vs);
                        write_row(e, t, p->out, &wr, wr.h2l, out_off + (r + 1) * b.vs);
                    }
                    push(e, t, 0, BAR);
                }
            }
        }
}

static void comp_expect(expect *e, const gm_dwt2d_launch *p, uint32_t grid)
{
    uint64_t pixels = (uint64_t)p->width * p->height;
    for (uint32_t b = 0; b < grid; b++)
        for (uint32_t x = 0; x < 256; x++) {
            uint32_t t = b * 256 + x;
            uint64_t gx = 256ull * b;
            if (x * 4 < 256 * 3) {
                push(e, t, p->src + 4 * (((gx * 3) >> 2) + x), LDG);
                push(e, t, 4 * x, STS);
            }
            push(e, t, 0, BAR);
            for (uint32_t k = 0; k < 3; k++)   /* bytes of sData */
                push(e, t, 3 * x + k, LDS);
            if (gx + x < pixels) {
                push(e, t, p->r + 4 * (gx + x), STG);
                push(e, t, p->g + 4 * (gx + x), STG);
                push(e, t, p->b + 4 * (gx + x), STG);
            }
        }
}

/* ---------------------------------------------------------------- walking */

typedef struct walk {
    expect *e;
    uint32_t first_thread;
    uint64_t smem;
    uint8_t defined[256];
    uint32_t pending[256];   /* lanes loaded from global and not read since */
    uint64_t gl, gs, exits;
} walk;

static void regs(walk *w, const gm_inst *in)
{
    for (int s = 0; s < GM_MAX_SRC; s++) {
        uint8_t x = in->src[s];
        if (x == GM_REG_NONE)
            continue;
        assert_true(w->defined[x]);
        w->pending[x] &= ~in->mask;
    }
    if (in->dst != GM_REG_NONE) {
        assert_int_equal(w->pending[in->dst] & in->mask, 0);
        w->defined[in->dst] = 1;
        if (in->op == GM_OP_GLOBAL_LD)
            w->pending[in->dst] |= in->mask;
    }
}

/* Lane l's event must be its thread's next expected one. */
static void expect_next(walk *w, uint32_t l, int kind, uint64_t addr)
{
    static const char *const name[] = {"ldg", "stg", "lds", "sts", "bar"};
    uint32_t t = w->first_thread + l;
    expect *e = w->e;
    if (e->pos[t] >= e->n[t])
        fail_msg("thread %u: %s beyond its %zu expected events", t, name[kind], e->n[t]);
    const exp_acc *x = &e->a[t][e->pos[t]++];
    if (x->kind != kind || x->addr != addr)
        fail_msg("thread %u event %zu: %s 0x%llx, expected %s 0x%llx", t, e->pos[t] - 1,
                 name[kind], (unsigned long long)addr, name[x->kind],
                 (unsigned long long)x->addr);
}

static int event_kind(gm_op op)
{
    switch (op) {
    case GM_OP_GLOBAL_LD: return LDG;
    case GM_OP_GLOBAL_ST: return STG;
    case GM_OP_SHARED_LD: return LDS;
    case GM_OP_SHARED_ST: return STS;
    case GM_OP_BARRIER: return BAR;
    default: return -1;
    }
}

static void check_one(const gm_inst *in, uint32_t exist, void *arg)
{
    walk *w = arg;
    check_lanes(in, exist);
    regs(w, in);
    w->exits += in->op == GM_OP_EXIT;
    int kind = event_kind((gm_op)in->op);
    if (kind < 0) {
        assert_false(gm_op_is_mem(in->op));
        return;
    }
    if (kind == LDS || kind == STS) {
        assert_true(in->width == 4 || (in->width == 1 && kind == LDS));
        for (int l = 0; l < GM_WARP_SIZE; l++)
            if (in->mask >> l & 1) {
                assert_true(in->addr[l] + in->width <= w->smem);
                assert_int_equal(in->addr[l] % in->width, 0);
            }
    } else if (kind != BAR) {
        int store = kind == STG;
        w->gl += store ? 0 : (uint64_t)__builtin_popcount(in->mask);   /* lane accesses */
        w->gs += store ? (uint64_t)__builtin_popcount(in->mask) : 0;
        assert_int_equal(in->width, 4);
        assert_int_equal(in->flags, store ? 0 : GM_INST_READ_ONLY);
    }
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if (in->mask >> l & 1)
            expect_next(w, l, kind, kind == BAR ? 0 : in->addr[l]);
}

/* The shared bytes of a launch: sData[768] or the TransformBuffer. */
static uint64_t smem_bytes(const gm_dwt2d_launch *p)
{
    if (p->kind == 0)
        return 768;
    int vs = 2 + (int)p->win / 2, buf = vs * 11, pad = 32 - ((buf + 16) % 32);
    return 4ull * (uint64_t)(2 * buf + pad);
}

static void check_kernel(const gm_kernel *k, uint64_t *loads, uint64_t *stores)
{
    const gm_dwt2d_launch *p = k->params;
    uint32_t ctas = gm_kernel_ctas(k), tpc = gm_kernel_threads_per_cta(k);
    expect e;
    exp_init(&e, ctas * tpc);
    if (p->kind == 0)
        comp_expect(&e, p, k->grid.x);
    else
        fdwt_expect(&e, p, k->grid.x, k->grid.y);
    for (uint32_t c = 0; c < ctas; c++)
        for (uint32_t wi = 0; wi < gm_kernel_warps_per_cta(k); wi++) {
            walk *w = calloc(1, sizeof *w);
            assert_non_null(w);
            w->e = &e;
            w->first_thread = c * tpc + wi * GM_WARP_SIZE;
            w->smem = smem_bytes(p);
            run_warp(k, c, wi, 48, check_one, w);
            assert_int_equal(w->exits, 1);
            for (int r = 0; r < 256; r++)
                assert_int_equal(w->pending[r], 0);
            *loads += w->gl;
            *stores += w->gs;
            free(w);
        }
    for (uint32_t t = 0; t < e.threads; t++)
        if (e.pos[t] != e.n[t])
            fail_msg("%s: thread %u made %zu of %zu events", k->name, t, e.pos[t], e.n[t]);
    exp_free(&e);
}

/* Geometry and layout from main.cu / components.cu / fdwt53.cu, then
 * every launch's stream. */
static void check_workload(const gm_workload *w, uint32_t width, uint32_t height,
                           uint32_t levels)
{
    assert_int_equal(w->nkernels, 1 + 3 * levels);
    uint64_t comp = 4ull * width * height, base = 0x10000000ull, pixels = (uint64_t)width * height;
    uint64_t span = (comp + 4095) / 4096 * 4096;
    const gm_dwt2d_launch *c0 = w->kernels[0].params;
    /* c_r_out, backup, c_g_out, c_b_out, c_r, c_g, c_b, d_src */
    assert_true(c0->r == base + 4 * span && c0->g == base + 5 * span && c0->b == base + 6 * span);
    assert_true(c0->src == base + 7 * span);
    assert_string_equal(w->kernels[0].name, "c_CopySrcToComponents");
    assert_int_equal(w->kernels[0].grid.x, (pixels + 255) / 256);
    assert_int_equal(w->kernels[0].block.x, 256);
    const uint64_t outs[3] = {base, base + 2 * span, base + 3 * span};
    uint64_t loads = 0, stores = 0;
    check_kernel(&w->kernels[0], &loads, &stores);
    assert_int_equal(loads, (pixels + 255) / 256 * 192);
    assert_int_equal(stores, 3 * pixels);
    for (uint32_t c = 0; c < 3; c++) {
        int sx = (int)width, sy = (int)height;
        for (uint32_t l = 0; l < levels; l++) {
            const gm_kernel *k = &w->kernels[1 + c * levels + l];
            const gm_dwt2d_launch *p = k->params;
            int win = sx >= 960 ? 192 : sx >= 480 ? 128 : 64, steps = div_up(sy, 120);
            assert_string_equal(k->name, "fdwt53Kernel");
            assert_int_equal(p->sx, sx);
            assert_int_equal(p->sy, sy);
            assert_int_equal(k->block.x, win);
            assert_int_equal(k->grid.x, div_up(sx, win));
            assert_int_equal(k->grid.y, div_up(sy, 8 * steps));
            assert_true(p->in == base + (4 + c) * span && p->out == outs[c]);
            loads = stores = 0;
            check_kernel(k, &loads, &stores);
            /* every output coefficient of the level is written exactly
             * once (the writes are checked one by one above) */
            assert_int_equal(stores, (uint64_t)sx * (uint64_t)sy);
            sx = div_up(sx, 2);
            sy = div_up(sy, 2);
        }
    }
}

static void test_dwt2d_tiny(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err;
    assert_int_equal(gm_workload_build(&w, "dwt2d", GM_SIZE_TINY, 1, &err), 0);
    check_workload(&w, 192, 192, 3);
    gm_workload_free(&w);
}

/* Odd and non-square sizes: a last CTA past the right edge (mirrored
 * loads, skipped writes), checked loaders turning at the bottom, the 128-
 * and 192-wide windows, several window steps. */
static void test_dwt2d_shapes(void **state)
{
    (void)state;
    static const uint32_t dims[][3] = {{100, 37, 2}, {500, 130, 1}, {961, 250, 1}, {130, 300, 3}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        gm_workload w;
        gm_error err;
        if (gm_dwt2d_build_dims(&w, dims[i][0], dims[i][1], dims[i][2], &err))
            fail_msg("%s", err.msg);
        check_workload(&w, dims[i][0], dims[i][1], dims[i][2]);
        gm_workload_free(&w);
    }
}

static void test_dwt2d_bad_input(void **state)
{
    (void)state;
    gm_workload w;
    gm_error err = {{0}};
    assert_int_not_equal(gm_dwt2d_build_dims(&w, 64, 64, 0, &err), 0);
    assert_non_null(strstr(err.msg, "dwt2d"));
    assert_int_not_equal(gm_dwt2d_build_dims(&w, 2, 64, 1, &err), 0);
    /* 64 -> 32: the second level is narrower than half the 64-wide
     * window; its boundary column x = 64 would mirror to -2 */
    assert_int_equal(gm_dwt2d_build_dims(&w, 64, 64, 1, &err), 0);
    gm_workload_free(&w);
    assert_int_not_equal(gm_dwt2d_build_dims(&w, 64, 64, 2, &err), 0);
    assert_int_not_equal(gm_dwt2d_build(&w, (gm_size)5, 1, &err), 0);
}

static void test_dwt2d_sizes_hash(void **state)
{
    (void)state;
    static const uint32_t side[] = {192, 512, 1024};
    for (int s = 0; s <= GM_SIZE_STANDARD; s++) {
        gm_workload w;
        gm_error err;
        assert_int_equal(gm_workload_build(&w, "dwt2d", (gm_size)s, 1, &err), 0);
        const gm_dwt2d_launch *p = w.kernels[1].params;
        assert_int_equal(p->sx, side[s]);
        assert_int_equal(p->sy, side[s]);
        assert_int_equal(w.nkernels, 10);
        gm_workload_free(&w);
    }
    const gm_workload_info *e = gm_workload_find("dwt2d");
    assert_non_null(e);
    assert_string_equal(e->suite, "Rodinia 3.1");
    assert_string_equal(e->klass, "insensitive");   /* CCN seed uRC 7% */

    gm_workload a, d;
    gm_error err;
    assert_int_equal(gm_workload_build(&a, "dwt2d", GM_SIZE_TINY, 1, &err), 0);
    assert_int_equal(gm_workload_build(&d, "dwt2d", GM_SIZE_TINY, 7, &err), 0);
    uint64_t h = hash_workload(&a, 16);
    assert_true(h == hash_workload(&a, 17));
    assert_true(h == hash_workload(&d, 4096));   /* pixel values never decide an address */
    for (uint32_t k = 0; k < a.nkernels; k++)
        check_round_robin(&a.kernels[k], 0);
    const uint64_t pinned = 0x32f40dfacec87c51ull;   /* tiny, seed 1, once the checks pass */
    if (h != pinned)
        fail_msg("dwt2d tiny: stream hash 0x%016llx, pinned 0x%016llx", (unsigned long long)h,
                 (unsigned long long)pinned);
    gm_workload_free(&a);
    gm_workload_free(&d);
}

static void test_dwt2d_simulate_tiny(void **state)
{
    (void)state;
    simulate_tiny_small("dwt2d");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dwt2d_tiny),
        cmocka_unit_test(test_dwt2d_shapes),
        cmocka_unit_test(test_dwt2d_bad_input),
        cmocka_unit_test(test_dwt2d_sizes_hash),
        cmocka_unit_test(test_dwt2d_simulate_tiny),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
