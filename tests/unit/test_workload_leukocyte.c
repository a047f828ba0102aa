/* Rodinia leukocyte workload tests. Every memory access is checked against
 * an independent model written from the CUDA source
 * (cuda/leukocyte/CUDA/find_ellipse_kernel.cu, track_ellipse_kernel.cu,
 * docs/workloads/rodinia.md), not against the generator's output:
 *   - a thread-level reference runs each kernel's code thread by thread
 *     (no warps, no segments) and lists every access it makes in program
 *     order: global, texture, constant and shared, with address and width.
 *     Each lane of the generated stream must make exactly its thread's
 *     list, in order. The reference computes IMGVF's row index with real
 *     float arithmetic, c_tX / c_tY with libm as compute_constants() does,
 *     the sub-images with track_ellipse.c's double formulas, and the
 *     device layout from the cudaMalloc order;
 *   - per-launch counts of warp memory instructions against closed forms
 *     worked out by hand below, and a hand count of one interior dilate
 *     pixel (441 texels in the radius-12 disk);
 *   - the warp contract and register def-use lane by lane;
 *   - the integer float emulation (gm_leuko_float_row) against real float
 *     arithmetic over every element index and width the kernel can use.
 * The tiny stream hash is pinned only because these checks pass. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload/build.h"
#include "workload/kernels/kernels.h"
#include "workload/kernels/kernels_rodinia.h"
#include "workload/workload.h"
#include "workload_testlib.h"
#include "workload_seqlib.h"

#define BASE 0x10000000ull
#define PAGE 4096ull

/* ---------------------------------------------------------------- the reference */

/* The device layout, from the host code: the module's constant bank
 * (c_sin_angle[150], c_cos_angle[150], c_tX[1050], c_tY[1050],
 * c_strel[625], declaration order), then GICOV_CUDA's grad_x, grad_y,
 * gicov, dilate_CUDA's img_dilated, IMGVF_cuda_init's I_array,
 * IMGVF_array, m_array, n_array, I_all, IMGVF_all. */
typedef struct layout {
    uint64_t c_sin, c_cos, c_tx, c_ty, c_strel;
    uint64_t grad_x, grad_y, gicov, dilated;
    uint64_t i_array, imgvf_array, m_array, n_array, i_all, imgvf_all;
} layout;

typedef struct cellgeo {
    int m, n, offset;
} cellgeo;

typedef struct ref {
    int grad_m, grad_n, ncells, iterations;
    cellgeo cell[GM_LEUKO_MAX_CELLS];
    int tx[7 * 150], ty[7 * 150];
    layout at;
} ref;

static uint64_t take(uint64_t *next, uint64_t bytes)
{
    uint64_t b = *next;
    *next += (bytes + PAGE - 1) / PAGE * PAGE;
    return b;
}

static int imin(double a, double b)
{
    return (int)(a < b ? a : b);
}

static int imax(double a, double b)
{
    return (int)(a > b ? a : b);
}

static void ref_init(ref *r, const gm_leuko_params *p)
{
    memset(r, 0, sizeof *r);
    r->grad_m = (int)p->grad_m;
    r->grad_n = (int)p->grad_n;
    r->ncells = (int)p->ncells;
    r->iterations = (int)p->iterations;
    /* compute_constants(), PI = 3.14159 (misc_math.h) */
    for (int k = 0; k < 7; k++)
        for (int n = 0; n < 150; n++) {
            float theta = (float)(((double)n * 2.0 * 3.14159) / 150.0);
            double rad = 8 + 2 * k;
            r->tx[k * 150 + n] = (int)(cos(theta) * rad);
            r->ty[k * 150 + n] = (int)(sin(theta) * rad);
        }
    /* ellipsetrack(): R = 10, the sub-image around (xc, yc) */
    int total = 0;
    for (int c = 0; c < r->ncells; c++) {
        double xc = p->cell[c].x, yc = p->cell[c].y;
        int iw = (int)p->width, ih = (int)p->height;
        int u1 = imax(xc - 4.0 * 10 + 0.5, 0), u2 = imin(xc + 4.0 * 10 + 0.5, iw - 1);
        int v1 = imax(yc - 2.0 * 10 + 1.5, 0), v2 = imin(yc + 2.0 * 10 + 1.5, ih - 1);
        r->cell[c].m = v2 - v1 + 1;
        r->cell[c].n = u2 - u1 + 1;
        r->cell[c].offset = total;
        total += r->cell[c].m * r->cell[c].n;
    }
    uint64_t next = BASE, grad = 4ull * (uint64_t)(r->grad_m * r->grad_n);
    layout *a = &r->at;
    a->c_sin = take(&next, 4 * (150 + 150 + 1050 + 1050 + 625));
    a->c_cos = a->c_sin + 600;
    a->c_tx = a->c_cos + 600;
    a->c_ty = a->c_tx + 4200;
    a->c_strel = a->c_ty + 4200;
    a->grad_x = take(&next, grad);
    a->grad_y = take(&next, grad);
    a->gicov = take(&next, grad);
    a->dilated = take(&next, grad);
    a->i_array = take(&next, 8ull * (uint64_t)r->ncells);
    a->imgvf_array = take(&next, 8ull * (uint64_t)r->ncells);
    a->m_array = take(&next, 4ull * (uint64_t)r->ncells);
    a->n_array = take(&next, 4ull * (uint64_t)r->ncells);
    a->i_all = take(&next, 4ull * (uint64_t)total);
    a->imgvf_all = take(&next, 4ull * (uint64_t)total);
}

static void ref_gicov(const ref *r, int bx, int tx, seq *s)
{
    const layout *a = &r->at;
    int i = bx + 22, j = tx + 22;
    for (int k = 0; k < 7; k++)
        for (int n = 0; n < 150; n++) {
            int y = j + r->ty[k * 150 + n], x = i + r->tx[k * 150 + n];
            int addr = x * r->grad_m + y;
            push(s, GM_OP_CONST_LD, a->c_ty + 4 * (uint64_t)(k * 150 + n), 4);
            push(s, GM_OP_CONST_LD, a->c_tx + 4 * (uint64_t)(k * 150 + n), 4);
            push(s, GM_OP_TEX_LD, a->grad_x + 4 * (uint64_t)addr, 4);
            push(s, GM_OP_TEX_LD, a->grad_y + 4 * (uint64_t)addr, 4);
            push(s, GM_OP_CONST_LD, a->c_cos + 4 * (uint64_t)n, 4);
            push(s, GM_OP_CONST_LD, a->c_sin + 4 * (uint64_t)n, 4);
        }
    push(s, GM_OP_GLOBAL_ST, a->gicov + 4 * (uint64_t)(i * r->grad_m + j), 4);
}

static void ref_dilate(const ref *r, int bx, int tx, seq *s)
{
    const layout *a = &r->at;
    int img_m = r->grad_m, img_n = r->grad_n;
    int tid = bx * 176 + tx, i = tid % img_m, j = tid / img_m;
    for (int el_i = 0; el_i < 25; el_i++) {
        int y = i - 12 + el_i;
        if (y < 0 || y >= img_m)
            continue;
        for (int el_j = 0; el_j < 25; el_j++) {
            int x = j - 12 + el_j;
            if (x < 0 || x >= img_n)
                continue;
            push(s, GM_OP_CONST_LD, a->c_strel + 4 * (uint64_t)(el_i * 25 + el_j), 4);
            float d = sqrtf((float)((el_i - 12) * (el_i - 12) + (el_j - 12) * (el_j - 12)));
            if (d <= 12)   /* structuring_element(12) */
                push(s, GM_OP_TEX_LD, a->gicov + 4 * (uint64_t)(x * img_m + y), 4);
        }
    }
    push(s, GM_OP_GLOBAL_ST, a->dilated + 4 * (uint64_t)(i * img_n + j), 4);
}

/* IMGVF_kernel's shared arrays: IMGVF[41*81] at 0, buffer[320], then
 * cell_converged. */
#define SH_IMGVF(e) (4ull * (uint64_t)(e))
#define SH_BUF(t) (41ull * 81 * 4 + 4ull * (uint64_t)(t))
#define SH_CONV (41ull * 81 * 4 + 320 * 4)

static int float_row(int x, int n)
{
    volatile float one_nth = 1.f / (float)n;
    volatile float v = (float)x * one_nth;
    return (int)v;
}

static void ref_mgvf(const ref *r, int cell, int tid, seq *s)
{
    const layout *a = &r->at;
    int m = r->cell[cell].m, n = r->cell[cell].n, off = r->cell[cell].offset;
    int max = (m * n + 320 - 1) / 320, i = 0, j = 0;
    push(s, GM_OP_GLOBAL_LD, a->imgvf_array + 8 * (uint64_t)cell, 8);
    push(s, GM_OP_GLOBAL_LD, a->i_array + 8 * (uint64_t)cell, 8);
    push(s, GM_OP_GLOBAL_LD, a->m_array + 4 * (uint64_t)cell, 4);
    push(s, GM_OP_GLOBAL_LD, a->n_array + 4 * (uint64_t)cell, 4);
    for (int b = 0; b < max; b++) {
        i = (tid + b * 320) / n;
        j = (tid + b * 320) % n;
        if (i < m) {
            push(s, GM_OP_GLOBAL_LD, a->imgvf_all + 4 * (uint64_t)(off + i * n + j), 4);
            push(s, GM_OP_SHARED_ST, SH_IMGVF(i * n + j), 4);
        }
    }
    if (tid == 0)
        push(s, GM_OP_SHARED_ST, SH_CONV, 4);
    int tid_mod = tid % n, tbsize_mod = 320 % n;
    for (int it = 0;; it++) {
        push(s, GM_OP_SHARED_LD, SH_CONV, 4);   /* while (!cell_converged ...) */
        if (it == r->iterations)
            break;
        int old_i = 0, old_j = 0;
        j = tid_mod - tbsize_mod;
        for (int b = 0; b < max; b++) {
            old_i = i;
            old_j = j;
            i = float_row(tid + b * 320, n);
            j += tbsize_mod;
            if (j >= n)
                j -= n;
            if (i < m) {
                int rowU = i == 0 ? 0 : i - 1, rowD = i == m - 1 ? m - 1 : i + 1;
                int colL = j == 0 ? 0 : j - 1, colR = j == n - 1 ? n - 1 : j + 1;
                int at[9] = {i * n + j, rowU * n + j, rowD * n + j, i * n + colL,
                             i * n + colR, rowU * n + colR, rowD * n + colR,
                             rowU * n + colL, rowD * n + colL};
                for (int q = 0; q < 9; q++)
                    push(s, GM_OP_SHARED_LD, SH_IMGVF(at[q]), 4);
                push(s, GM_OP_GLOBAL_LD, a->i_all + 4 * (uint64_t)(off + i * n + j), 4);
            }
            if (b > 0 && old_i < m) {
                push(s, GM_OP_SHARED_LD, SH_BUF(tid), 4);
                push(s, GM_OP_SHARED_ST, SH_IMGVF(old_i * n + old_j), 4);
            }
            if (b < max - 1)
                push(s, GM_OP_SHARED_ST, SH_BUF(tid), 4);
            else if (i < m)
                push(s, GM_OP_SHARED_ST, SH_IMGVF(i * n + j), 4);
        }
        push(s, GM_OP_SHARED_ST, SH_BUF(tid), 4);
        if (tid >= 256) {
            push(s, GM_OP_SHARED_LD, SH_BUF(tid - 256), 4);
            push(s, GM_OP_SHARED_LD, SH_BUF(tid), 4);
            push(s, GM_OP_SHARED_ST, SH_BUF(tid - 256), 4);
        }
        for (int th = 128; th > 0; th /= 2)
            if (tid < th) {
                push(s, GM_OP_SHARED_LD, SH_BUF(tid), 4);
                push(s, GM_OP_SHARED_LD, SH_BUF(tid + th), 4);
                push(s, GM_OP_SHARED_ST, SH_BUF(tid), 4);
            }
        if (tid == 0) {
            push(s, GM_OP_SHARED_LD, SH_BUF(0), 4);
            if (it == r->iterations - 1)   /* the data model: converged here */
                push(s, GM_OP_SHARED_ST, SH_CONV, 4);
        }
    }
    for (int b = 0; b < max; b++) {
        i = (tid + b * 320) / n;
        j = (tid + b * 320) % n;
        if (i < m) {
            push(s, GM_OP_SHARED_LD, SH_IMGVF(i * n + j), 4);
            push(s, GM_OP_GLOBAL_ST, a->imgvf_all + 4 * (uint64_t)(off + i * n + j), 4);
        }
    }
}

static void ref_mgvf_fn(const void *r, int cta, int tid, seq *s)
{
    ref_mgvf(r, cta, tid, s);
}

static void ref_gicov_fn(const void *r, int cta, int tid, seq *s)
{
    ref_gicov(r, cta, tid, s);
}

static void ref_dilate_fn(const void *r, int cta, int tid, seq *s)
{
    ref_dilate(r, cta, tid, s);
}

/* The whole workload: launch shapes, then every lane of every launch;
 * the GICOV and IMGVF counts against closed forms. */
static void check_workload(const gm_workload *w)
{
    const gm_leuko_params *p = ((const gm_leuko_launch *)w->kernels[0].params)->lk;
    ref *r = malloc(sizeof *r);
    uint64_t op[GM_OP_COUNT];

    assert_non_null(r);
    ref_init(r, p);
    assert_int_equal(w->nkernels, 2 + p->frames);
    /* GICOV_CUDA: grad_n - 2*MaxR blocks of grad_m - 2*MaxR threads */
    const gm_kernel *g = &w->kernels[0];
    assert_string_equal(g->name, "GICOV_kernel");
    assert_int_equal(g->grid.x, r->grad_n - 44);
    assert_int_equal(g->block.x, r->grad_m - 44);
    check_launch(g, r, ref_gicov_fn, op);
    /* per warp: 7 x 150 x (4 constant + 2 texture) reads, one store */
    uint64_t warps = (uint64_t)g->grid.x * gm_kernel_warps_per_cta(g);
    assert_int_equal(op[GM_OP_CONST_LD], warps * 4 * 1050);
    assert_int_equal(op[GM_OP_TEX_LD], warps * 2 * 1050);
    assert_int_equal(op[GM_OP_GLOBAL_ST], warps);
    assert_int_equal(op[GM_OP_GLOBAL_LD] + op[GM_OP_SHARED_LD], 0);
    /* dilate_CUDA: (int)((float)(m*n) / 176 + 0.5) blocks of 176 */
    const gm_kernel *d = &w->kernels[1];
    assert_string_equal(d->name, "dilate_kernel");
    assert_int_equal(d->grid.x, (int)((float)(r->grad_m * r->grad_n) / 176.f + 0.5f));
    assert_int_equal(d->block.x, 176);
    check_launch(d, r, ref_dilate_fn, op);
    assert_int_equal(op[GM_OP_GLOBAL_ST], (uint64_t)d->grid.x * 6);
    for (uint32_t l = 2; l < w->nkernels; l++) {
        const gm_kernel *k = &w->kernels[l];
        assert_string_equal(k->name, "IMGVF_kernel");
        assert_int_equal(k->grid.x, r->ncells);
        assert_int_equal(k->block.x, 320);
        check_launch(k, r, ref_mgvf_fn, op);
        /* per CTA: one store and (1 + iterations) loads per copy block a
         * warp reaches, and 4 loads per warp; a full 41 x 81 cell (3321
         * elements, 11 blocks) reaches the last block in warps 0..3 */
        uint64_t blocks = 0;
        for (int c = 0; c < r->ncells; c++) {
            int mn = r->cell[c].m * r->cell[c].n;
            for (int wp = 0; wp < 10; wp++)
                for (int b = 0; b * 320 + wp * 32 < mn; b++)
                    blocks++;
        }
        assert_int_equal(op[GM_OP_GLOBAL_ST], blocks);
        assert_int_equal(op[GM_OP_GLOBAL_LD],
                         (uint64_t)r->ncells * 40 + blocks * (1 + (uint64_t)r->iterations));
        /* barriers: 1 + 1 after the copy-in; per iteration one per block,
         * the sum, the fold, 8 tree steps, the flag */
        uint64_t bars = 0;
        for (int c = 0; c < r->ncells; c++)
            bars += 10 * (2 + (uint64_t)r->iterations *
                                  ((r->cell[c].m * r->cell[c].n + 319) / 320 + 1 + 1 + 8 + 1));
        assert_int_equal(op[GM_OP_BARRIER], bars);
    }
    free(r);
}

/* ---------------------------------------------------------------- tests */

static gm_workload build(gm_size size, uint64_t seed)
{
    gm_workload w;
    gm_error err;
    if (gm_workload_build(&w, "leukocyte", size, seed, &err))
        fail_msg("%s", err.msg);
    return w;
}

static const gm_leuko_params *params_of(const gm_workload *w)
{
    return ((const gm_leuko_launch *)w->kernels[0].params)->lk;
}

static void test_tiny(void **state)
{
    (void)state;
    gm_workload w = build(GM_SIZE_TINY, 1);
    const gm_leuko_params *p = params_of(&w);
    /* the documented tiny input: cells 0..2 of the reference output,
     * scaled from 640 x 480 to 160 x 96: (96, 127) -> (24, 25) clipped at
     * the left edge (u1 = 0, u2 = 64: 65 columns), (252, 127) -> (63, 25)
     * and (355, 129) -> (88, 25) whole 41 x 81 */
    assert_int_equal(p->ncells, 3);
    assert_int_equal(p->cell[0].x, 24);
    assert_int_equal(p->cell[0].y, 25);
    assert_int_equal(p->cell[0].n, 65);
    assert_int_equal(p->cell[0].m, 41);
    assert_int_equal(p->cell[1].x, 63);
    assert_int_equal(p->cell[2].x, 88);
    assert_int_equal(p->cell[2].n, 81);
    check_workload(&w);
    gm_workload_free(&w);
}

/* Partial warps in both detection kernels (13 and 176 threads), a dilate
 * grid rounded up past the image, cells clipped on every side of a small
 * frame. */
static void test_shapes(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_leukocyte_build_dims(&w, 57, 47, 100, 60, 6, 1, 1, &err), 0);
    const gm_leuko_params *p = params_of(&w);
    /* 57 * 47 = 2679 pixels: 15.2 -> 15 blocks; the last pixels unserved */
    assert_int_equal(w.kernels[1].grid.x, 15);
    /* cell 5 (227, 140) -> (35, 17): clipped left and top */
    assert_int_equal(p->cell[5].m, 17 + 21 + 1);
    assert_int_equal(p->cell[5].n, 35 + 40 + 1);
    check_workload(&w);
    gm_workload_free(&w);
    /* 45 x 49: one GICOV thread a block; 2205 pixels: 12.5 -> 13 blocks,
     * whose last threads compute columns past the image */
    assert_int_equal(gm_leukocyte_build_dims(&w, 45, 49, 640, 480, 2, 2, 3, &err), 0);
    assert_int_equal(w.kernels[1].grid.x, 13);
    check_workload(&w);
    gm_workload_free(&w);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 44, 49, 640, 480, 2, 2, 3, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 1069, 49, 640, 480, 2, 2, 3, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 45, 44, 640, 480, 2, 2, 3, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 45, 49, 0, 480, 2, 2, 3, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 45, 49, 640, 480, 0, 2, 3, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 45, 49, 640, 480, 37, 2, 3, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 45, 49, 640, 480, 2, 0, 3, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 45, 49, 640, 480, 2, 2, 0, &err), 0);
    assert_int_not_equal(gm_leukocyte_build_dims(&w, 45, 49, 640, 480, 2, 2, 500, &err), 0);
}

/* An interior dilate pixel reads the 441 points of the radius-12 disk:
 * per row dy = 0, +-1 .. +-12, 2 floor(sqrt(144 - dy^2)) + 1 points =
 * 25 + 2 (23 + 23 + 23 + 23 + 21 + 21 + 19 + 17 + 15 + 13 + 9 + 1). */
static void test_dilate_disk(void **state)
{
    (void)state;
    gm_workload w = build(GM_SIZE_SMALL, 1);
    ref *r = malloc(sizeof *r);
    seq s = {0};
    assert_non_null(r);
    ref_init(r, params_of(&w));
    /* thread 20 of block 20: pixel 3540 = column 46, row 44 of 76 */
    ref_dilate(r, 20, 20, &s);
    uint64_t tex = 0, con = 0;
    for (size_t i = 0; i < s.n; i++) {
        tex += s.a[i].op == GM_OP_TEX_LD;
        con += s.a[i].op == GM_OP_CONST_LD;
    }
    assert_int_equal(tex, 441);
    assert_int_equal(con, 625);
    free(s.a);
    free(r);
    gm_workload_free(&w);
}

/* gm_leuko_float_row against float arithmetic for every element a
 * 320-thread block can index in an up to 41 x 81 image (and beyond). */
static void test_float_row(void **state)
{
    (void)state;
    uint64_t differ = 0;
    for (int n = 1; n <= 128; n++)
        for (int x = 0; x < 41 * 81 + 320 + 4096; x++) {
            assert_int_equal(gm_leuko_float_row((uint32_t)x, (uint32_t)n), float_row(x, n));
            differ += float_row(x, n) != x / n;
        }
    /* the float row is not always the integer one, so the emulation matters */
    assert_true(differ > 0);
}

/* c_tX / c_tY against compute_constants() recomputed with libm, and a few
 * values by hand: n = 0 is (rad, 0); n = 75 is theta = (float)3.14159,
 * cos -0.99999999.. and sin 2.65e-6, so (-(rad - 1), 0). */
static void test_tables(void **state)
{
    (void)state;
    gm_workload w = build(GM_SIZE_TINY, 1);
    ref *r = malloc(sizeof *r);
    assert_non_null(r);
    ref_init(r, params_of(&w));
    for (uint32_t k = 0; k < 7; k++)
        for (uint32_t n = 0; n < 150; n++) {
            assert_int_equal(gm_leuko_tx(k, n), r->tx[k * 150 + n]);
            assert_int_equal(gm_leuko_ty(k, n), r->ty[k * 150 + n]);
        }
    for (uint32_t k = 0; k < 7; k++) {
        assert_int_equal(gm_leuko_tx(k, 0), 8 + 2 * (int)k);
        assert_int_equal(gm_leuko_ty(k, 0), 0);
        assert_int_equal(gm_leuko_tx(k, 75), -(7 + 2 * (int)k));
        assert_int_equal(gm_leuko_ty(k, 75), 0);
    }
    free(r);
    gm_workload_free(&w);
}

/* The documented sizes (docs/workloads/rodinia.md). */
static void test_sizes(void **state)
{
    (void)state;
    static const uint32_t gm[] = {56, 76, 219}, gn[] = {46, 96, 640}, cells[] = {3, 8, 36},
                          frames[] = {2, 2, 5}, iters[] = {2, 3, 20};
    for (int s = 0; s <= GM_SIZE_STANDARD; s++) {
        gm_workload w = build((gm_size)s, 1);
        const gm_leuko_params *p = params_of(&w);
        assert_int_equal(p->grad_m, gm[s]);
        assert_int_equal(p->grad_n, gn[s]);
        assert_int_equal(p->ncells, cells[s]);
        assert_int_equal(p->frames, frames[s]);
        assert_int_equal(p->iterations, iters[s]);
        assert_int_equal(w.nkernels, 2 + frames[s]);
        gm_workload_free(&w);
    }
    /* standard: the default run's GICOV grid, 596 blocks of 175 threads,
     * and dilate's 219 * 640 / 176 = 796.4 -> 796 blocks */
    gm_workload w = build(GM_SIZE_STANDARD, 1);
    assert_int_equal(w.kernels[0].grid.x, 596);
    assert_int_equal(w.kernels[0].block.x, 175);
    assert_int_equal(w.kernels[1].grid.x, 796);
    /* the cell at (619, 164) is clipped at the right edge: u1 = 579 */
    assert_int_equal(params_of(&w)->cell[11].n, 639 - 579 + 1);
    gm_workload_free(&w);
}

static void test_catalogue(void **state)
{
    (void)state;
    const gm_workload_info *e = gm_workload_find("leukocyte");
    assert_non_null(e);
    assert_string_equal(e->suite, "Rodinia 3.1");
    assert_string_equal(e->klass, "insensitive");
}

/* The seed does not matter; chunking and round-robin never do. */
static void test_hash(void **state)
{
    (void)state;
    gm_workload a = build(GM_SIZE_TINY, 1), b = build(GM_SIZE_TINY, 7);
    uint64_t h = hash_workload(&a, 16);
    assert_true(h == hash_workload(&a, 17));
    assert_true(h == hash_workload(&b, 4096));
    for (uint32_t k = 0; k < a.nkernels; k++)
        check_round_robin(&a.kernels[k], gm_kernel_ctas(&a.kernels[k]) - 1);
    assert_true(h == 0x6885c79d022d5863ull);
    gm_workload_free(&a);
    gm_workload_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_row),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_tiny),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_dilate_disk),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
