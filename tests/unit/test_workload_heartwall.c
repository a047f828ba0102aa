/* Rodinia heartwall workload tests. A thread-level reference transliterates
 * cuda/heartwall/kernel.cu (every element loop, in order, for one thread)
 * with main.cu's sizes and cudaMalloc order, and records every global,
 * constant and shared access in program order; each lane of the generated
 * stream must make exactly its thread's list (workload_seqlib.h). The
 * modelling choices it shares with the generator are the ones
 * docs/workloads/rodinia.md lists: the d_unique fields loaded once at the
 * start, the global d_Row/d_Col reloaded in every trip of frame 0's
 * template copy but loaded once before the tenth frames' blend loop (as
 * clang -O3 emits that loop), shared sums kept in
 * registers and stored once, both par_max arrays read in every trip of
 * thread 0's final scan. Also: the positions' data model (frame 0 stores
 * the point, later frames move at most 2 pixels, every tenth frame moves
 * the point), per-launch counts by closed forms, read-only flags, register
 * def-use and the warp contract, shapes, bad arguments, a pinned hash. */
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
#define NT 256

/* ---------------------------------------------------------------- main.cu's sizes */

typedef struct common {
    int tSize, sSize, maxMove, frame_rows, no_frames, endo, epi;
    int in_rows, in_cols, in_elem, in2_rows, in2_cols, in2_elem, conv_rows, conv_cols, conv_elem;
    int ioffset, joffset, in2_pad_add_rows, in2_pad_add_cols, pad_rows, pad_cols, pad_elem;
    int sel_rowlow, sel_collow, sel_rows, sel_cols, sel_elem, sel2_rowlow, sel2_collow;
    int sub_rows, sub_cols, sub_elem, hsel_rowlow, hsel_collow, hsel_rows, hsel_cols, hsel_elem;
    int hsel2_rowlow, hsel2_collow, sub2_rows, sub2_cols, sub2_elem;
    int tMask_rows, tMask_cols, tMask_elem, mask_rows, mask_cols;
    int mc_rows, mc_cols, mc_elem, mc_ioffset, mc_joffset;
} common;

static void sizes(common *c, const gm_hw_params *p)
{
    memset(c, 0, sizeof *c);
    c->tSize = (int)p->tsize;
    c->sSize = (int)p->ssize;
    c->maxMove = (int)p->maxmove;
    c->frame_rows = 590;
    c->no_frames = 104;
    c->endo = (int)p->endo;
    c->epi = (int)p->epi;
    c->in_rows = c->tSize + 1 + c->tSize;
    c->in_cols = c->in_rows;
    c->in_elem = c->in_rows * c->in_cols;
    c->in2_rows = 2 * c->sSize + 1;
    c->in2_cols = 2 * c->sSize + 1;
    c->in2_elem = c->in2_rows * c->in2_cols;
    c->conv_rows = c->in_rows + c->in2_rows - 1;
    c->conv_cols = c->in_cols + c->in2_cols - 1;
    c->conv_elem = c->conv_rows * c->conv_cols;
    c->in2_pad_add_rows = c->in_rows;
    c->in2_pad_add_cols = c->in_cols;
    c->pad_rows = c->in2_rows + 2 * c->in2_pad_add_rows;
    c->pad_cols = c->in2_cols + 2 * c->in2_pad_add_cols;
    c->pad_elem = c->pad_rows * c->pad_cols;
    c->sel_rowlow = 1 + c->in_rows;
    c->sel_collow = 1;
    c->sel_rows = c->pad_rows - 1 - c->sel_rowlow + 1;
    c->sel_cols = c->pad_cols - c->sel_collow + 1;
    c->sel_elem = c->sel_rows * c->sel_cols;
    c->sel2_rowlow = 1;
    c->sel2_collow = 1;
    c->sub_rows = c->pad_rows - c->in_rows - 1 - c->sel2_rowlow + 1;
    c->sub_cols = c->pad_cols - c->sel2_collow + 1;
    c->sub_elem = c->sub_rows * c->sub_cols;
    c->hsel_rowlow = 1;
    c->hsel_collow = 1 + c->in_cols;
    c->hsel_rows = c->sub_rows - c->hsel_rowlow + 1;
    c->hsel_cols = c->sub_cols - 1 - c->hsel_collow + 1;
    c->hsel_elem = c->hsel_rows * c->hsel_cols;
    c->hsel2_rowlow = 1;
    c->hsel2_collow = 1;
    c->sub2_rows = c->sub_rows - c->hsel2_rowlow + 1;
    c->sub2_cols = c->sub_cols - c->in_cols - 1 - c->hsel2_collow + 1;
    c->sub2_elem = c->sub2_rows * c->sub2_cols;
    c->tMask_rows = c->in_rows + (c->sSize + 1 + c->sSize) - 1;
    c->tMask_cols = c->tMask_rows;
    c->tMask_elem = c->tMask_rows * c->tMask_cols;
    c->mask_rows = c->maxMove;
    c->mask_cols = c->mask_rows;
    c->mc_rows = c->tMask_rows;
    c->mc_cols = c->tMask_cols;
    c->mc_elem = c->mc_rows * c->mc_cols;
    c->mc_ioffset = (c->mask_rows - 1) / 2;
    if ((c->mask_rows - 1) % 2 > 0.5)
        c->mc_ioffset = c->mc_ioffset + 1;
    c->mc_joffset = (c->mask_cols - 1) / 2;
    if ((c->mask_cols - 1) % 2 > 0.5)
        c->mc_joffset = c->mc_joffset + 1;
}

/* ---------------------------------------------------------------- layout */

enum { A_IN2, A_CONV, A_PAD, A_SEL, A_SUBH, A_HSEL, A_SUB2, A_SQR, A_QSUB2, A_INSQR, A_TMASK,
       A_MC, NA };

typedef struct ref {
    common c;
    const gm_hw_params *p;     /* positions only (data) */
    uint32_t frame;
    uint64_t cbank, frame_at, row[2], col[2], trow[2], tcol[2], T[2];
    uint64_t arr[NA];          /* point 0's; the next point's is `stride` further */
    uint64_t stride[NA];
} ref;

/* The next cudaMalloc: 4 KiB aligned; an empty array (no epi points)
 * still takes a page (build.h). */
static uint64_t take(uint64_t *next, uint64_t bytes)
{
    uint64_t b = *next;
    *next += bytes ? (bytes + PAGE - 1) / PAGE * PAGE : PAGE;
    return b;
}

static void ref_init(ref *r, const gm_hw_params *p, uint32_t frame)
{
    common *c = &r->c;
    memset(r, 0, sizeof *r);
    sizes(c, p);
    r->p = p;
    r->frame = frame;
    int n = c->endo + c->epi;
    uint64_t next = BASE;
    r->cbank = take(&next, 16 + 520 + 51 * 160);
    r->frame_at = take(&next, 4ull * 590 * 609);
    int pts[2] = {c->endo, c->epi};
    for (int k = 0; k < 2; k++) {
        r->row[k] = take(&next, 4ull * (uint64_t)pts[k]);
        r->col[k] = take(&next, 4ull * (uint64_t)pts[k]);
        r->trow[k] = take(&next, 4ull * (uint64_t)pts[k] * 104);
        r->tcol[k] = take(&next, 4ull * (uint64_t)pts[k] * 104);
    }
    r->T[0] = take(&next, 4ull * (uint64_t)(c->in_elem * c->endo));
    r->T[1] = take(&next, 4ull * (uint64_t)(c->in_elem * c->epi));
    int bytes[NA] = {c->in2_elem, c->conv_elem, c->pad_elem, c->sel_elem, c->sub_elem,
                     c->hsel_elem, c->sub2_elem, c->in2_elem, c->sub2_elem, c->in_elem,
                     c->tMask_elem, c->mc_elem};
    for (int a = 0; a < NA; a++) {
        r->arr[a] = take(&next, 4ull * (uint64_t)bytes[a]);
        r->stride[a] = next - r->arr[a];
        for (int i = 1; i < n; i++)
            take(&next, 4ull * (uint64_t)bytes[a]);
    }
}

/* ---------------------------------------------------------------- the reference */

/* shared memory, kernel.cu's declaration order */
#define SH_PSUM 0ull
#define SH_PSUM_SQR (51 * 4ull)
#define SH_FINAL (102 * 4ull)
#define SH_FINAL_SQR (103 * 4ull)
#define SH_DENOM (104 * 4ull)
#define SH_MAXV (105 * 4ull)
#define SH_MAXC ((105 + 131) * 4ull)
#define SH_MOD ((105 + 262) * 4ull)

typedef struct thr {
    const ref *r;
    int bx, tx, kind, pn;      /* kind 0 endo, 1 epi; point_no */
    seq *s;
} thr;

static void G(const thr *t, int st, uint64_t a)
{
    push(t->s, st ? GM_OP_GLOBAL_ST : GM_OP_GLOBAL_LD, a, 4);
}

static void S(const thr *t, int st, uint64_t off)
{
    push(t->s, st ? GM_OP_SHARED_ST : GM_OP_SHARED_LD, off, 4);
}

static uint64_t at(const thr *t, int a, int64_t e)
{
    return t->r->arr[a] + t->r->stride[a] * (uint64_t)t->bx + 4 * (uint64_t)e;
}

static uint64_t Row(const thr *t, int col)
{
    return (col ? t->r->col : t->r->row)[t->kind] + 4 * (uint64_t)t->pn;
}

static uint64_t Loc(const thr *t, int col, int frame)
{
    return (col ? t->r->tcol : t->r->trow)[t->kind] +
           4 * (uint64_t)(t->pn * t->r->c.no_frames + frame);
}

static uint64_t d_in(const thr *t, int64_t e)
{
    return t->r->T[t->kind] + 4 * (uint64_t)(t->pn * t->r->c.in_elem + e);
}

static uint64_t frame_px(const thr *t, int64_t ori_col, int64_t ori_row)
{
    return t->r->frame_at + 4 * (uint64_t)(ori_col * t->r->c.frame_rows + ori_row);
}

/* row and column of element ei of a column-major array, kernel.cu's way */
static void rc(int ei, int rows, int *row, int *col)
{
    *row = (ei + 1) % rows - 1;
    *col = (ei + 1) / rows + 1 - 1;
    if ((ei + 1) % rows == 0) {
        *row = rows - 1;
        *col = *col - 1;
    }
}

/* The convolution loops: template (mask = 0) or mask (mask = 1). */
static void conv(const thr *t, int mask)
{
    const common *c = &t->r->c;
    int rows = mask ? c->mc_rows : c->conv_rows, n = mask ? c->mc_elem : c->conv_elem;
    int ioff = mask ? c->mc_ioffset : c->ioffset, joff = mask ? c->mc_joffset : c->joffset;
    int acols = mask ? c->mask_cols : c->in2_cols, arows = mask ? c->mask_rows : c->in2_rows;
    int bcols = mask ? c->tMask_cols : c->in_cols, brows = mask ? c->tMask_rows : c->in_rows;
    for (int ei = t->tx; ei < n; ei += NT) {
        int ic = (ei + 1) % rows, jc = (ei + 1) / rows + 1;
        if ((ei + 1) % rows == 0) {
            ic = rows;
            jc = jc - 1;
        }
        int j = jc + joff, jp1 = j + 1, ja1 = acols < jp1 ? jp1 - acols : 1;
        int ja2 = bcols < j ? bcols : j;
        int i = ic + ioff, ip1 = i + 1, ia1 = arows < ip1 ? ip1 - arows : 1;
        int ia2 = brows < i ? brows : i;
        for (int ja = ja1; ja <= ja2; ja++) {
            int jb = jp1 - ja;
            for (int ia = ia1; ia <= ia2; ia++) {
                int ib = ip1 - ia;
                if (mask) {
                    G(t, 0, at(t, A_TMASK, c->tMask_rows * (ja - 1) + ia - 1));
                } else {
                    S(t, 0, SH_MOD + 4ull * (uint64_t)(c->in_rows * (ja - 1) + ia - 1));
                    G(t, 0, at(t, A_IN2, c->in2_rows * (jb - 1) + ib - 1));
                }
            }
        }
        if (mask) {
            G(t, 0, at(t, A_QSUB2, ei));
            G(t, 1, at(t, A_MC, ei));
        } else {
            G(t, 1, at(t, A_CONV, ei));
        }
    }
}

/* pad -> vertical running sums -> two selections -> difference ->
 * horizontal running sums -> two selections, of in2 (sq = 0) or its
 * square (sq = 1). */
static void cumsums(const thr *t, int sq)
{
    const common *c = &t->r->c;
    int row, col;
    for (int ei = t->tx; ei < c->pad_elem; ei += NT) {
        rc(ei, c->pad_rows, &row, &col);
        if (row > c->in2_pad_add_rows - 1 && row < c->in2_pad_add_rows + c->in2_rows &&
            col > c->in2_pad_add_cols - 1 && col < c->in2_pad_add_cols + c->in2_cols) {
            int ori_row = row - c->in2_pad_add_rows, ori_col = col - c->in2_pad_add_cols;
            G(t, 0, at(t, sq ? A_SQR : A_IN2, ori_col * c->in2_rows + ori_row));
        }
        G(t, 1, at(t, A_PAD, ei));
    }
    for (int ei = t->tx; ei < c->pad_cols; ei += NT)
        for (int pos = ei * c->pad_rows; pos < ei * c->pad_rows + c->pad_rows; pos++) {
            G(t, 0, at(t, A_PAD, pos));
            G(t, 1, at(t, A_PAD, pos));
        }
    for (int ei = t->tx; ei < c->sel_elem; ei += NT) {
        rc(ei, c->sel_rows, &row, &col);
        G(t, 0, at(t, A_PAD, (col + c->sel_collow - 1) * c->pad_rows + row + c->sel_rowlow - 1));
        G(t, 1, at(t, A_SEL, ei));
    }
    for (int ei = t->tx; ei < c->sub_elem; ei += NT) {
        rc(ei, c->sub_rows, &row, &col);
        G(t, 0, at(t, A_PAD, (col + c->sel2_collow - 1) * c->pad_rows + row + c->sel2_rowlow - 1));
        G(t, 1, at(t, A_SUBH, ei));
    }
    for (int ei = t->tx; ei < c->sub_elem; ei += NT) {
        G(t, 0, at(t, A_SEL, ei));
        G(t, 0, at(t, A_SUBH, ei));
        G(t, 1, at(t, A_SUBH, ei));
    }
    for (int ei = t->tx; ei < c->sub_rows; ei += NT)
        for (int pos = ei; pos < ei + c->sub_elem; pos += c->sub_rows) {
            G(t, 0, at(t, A_SUBH, pos));
            G(t, 1, at(t, A_SUBH, pos));
        }
    for (int ei = t->tx; ei < c->hsel_elem; ei += NT) {
        rc(ei, c->hsel_rows, &row, &col);
        G(t, 0, at(t, A_SUBH, (col + c->hsel_collow - 1) * c->sub_rows + row + c->hsel_rowlow - 1));
        G(t, 1, at(t, A_HSEL, ei));
    }
    for (int ei = t->tx; ei < c->sub2_elem; ei += NT) {
        rc(ei, c->sub2_rows, &row, &col);
        G(t, 0, at(t, A_SUBH,
                   (col + c->hsel2_collow - 1) * c->sub_rows + row + c->hsel2_rowlow - 1));
        G(t, 1, at(t, sq ? A_QSUB2 : A_SUB2, ei));
    }
    for (int ei = t->tx; ei < c->sub2_elem; ei += NT) {
        G(t, 0, at(t, A_HSEL, ei));
        G(t, 0, at(t, sq ? A_QSUB2 : A_SUB2, ei));
        G(t, 1, at(t, sq ? A_QSUB2 : A_SUB2, ei));
    }
}

static void ref_thread(const void *rv, int bx, int tx, seq *s)
{
    const ref *r = rv;
    const common *c = &r->c;
    const gm_hw_params *p = r->p;
    int f = (int)r->frame, row, col;
    thr t = {r, bx, tx, bx < c->endo ? 0 : 1, bx < c->endo ? bx : bx - c->endo, s};

    /* d_unique[bx]: d_Row, d_Col, d_tRowLoc, d_tColLoc, d_T, point_no,
     * in_pointer; the tracking frames also the 12 arrays they use */
    static const int off[] = {0, 8, 16, 24, 32, 40, 44, 48, 56, 72, 80, 88, 96, 104, 112,
                              120, 128, 136, 152};
    for (int i = 0; i < (f == 0 ? 7 : 19); i++)
        push(s, GM_OP_CONST_LD, r->cbank + 536 + 160ull * (uint64_t)bx + (uint64_t)off[i],
             off[i] == 40 || off[i] == 44 ? 4 : 8);
    if (f == 0) {
        if (tx == 0) {
            G(&t, 0, Row(&t, 0));
            G(&t, 1, Loc(&t, 0, t.pn * 0 + 0));
            G(&t, 0, Row(&t, 1));
            G(&t, 1, Loc(&t, 1, 0));
        }
        for (int ei = tx; ei < c->in_elem; ei += NT) {
            rc(ei, c->in_rows, &row, &col);
            G(&t, 0, Row(&t, 0));
            G(&t, 0, Row(&t, 1));
            int ori_row = p->row[0][bx] - 25 + row - 1, ori_col = p->col[0][bx] - 25 + col - 1;
            G(&t, 0, frame_px(&t, ori_col, ori_row));
            G(&t, 1, d_in(&t, col * c->in_rows + row));
        }
        return;
    }
    /* the search window */
    G(&t, 0, Row(&t, 0));
    G(&t, 0, Row(&t, 1));
    int rowlow = p->row[f][bx] - c->sSize, collow = p->col[f][bx] - c->sSize;
    for (int ei = tx; ei < c->in2_elem; ei += NT) {
        rc(ei, c->in2_rows, &row, &col);
        G(&t, 0, frame_px(&t, col + collow - 1, row + rowlow - 1));
        G(&t, 1, at(&t, A_IN2, ei));
    }
    for (int ei = tx; ei < c->in_elem; ei += NT) {
        rc(ei, c->in_rows, &row, &col);
        int rot_row = c->in_rows - 1 - row, rot_col = c->in_rows - 1 - col;
        G(&t, 0, d_in(&t, rot_col * c->in_rows + rot_row));
        S(&t, 1, SH_MOD + 4ull * (uint64_t)ei);
    }
    conv(&t, 0);
    cumsums(&t, 0);
    for (int ei = tx; ei < c->in2_elem; ei += NT) {
        G(&t, 0, at(&t, A_IN2, ei));
        G(&t, 1, at(&t, A_SQR, ei));
    }
    cumsums(&t, 1);
    for (int ei = tx; ei < c->sub2_elem; ei += NT) {
        G(&t, 0, at(&t, A_SUB2, ei));
        G(&t, 0, at(&t, A_QSUB2, ei));
        G(&t, 1, at(&t, A_QSUB2, ei));
    }
    for (int ei = tx; ei < c->in_elem; ei += NT) {
        G(&t, 0, d_in(&t, ei));
        G(&t, 1, at(&t, A_INSQR, ei));
    }
    for (int ei = tx; ei < c->in_cols; ei += NT) {
        for (int i = 0; i < c->in_rows; i++)
            G(&t, 0, d_in(&t, ei * c->in_rows + i));
        S(&t, 1, SH_PSUM + 4ull * (uint64_t)ei);
    }
    for (int ei = tx; ei < c->in_rows; ei += NT) {
        for (int i = 0; i < c->in_cols; i++)
            G(&t, 0, at(&t, A_INSQR, ei + c->in_rows * i));
        S(&t, 1, SH_PSUM_SQR + 4ull * (uint64_t)ei);
    }
    if (tx == 0 || tx == 1) {
        for (int i = 0; i < c->in_cols; i++)
            S(&t, 0, (tx ? SH_PSUM_SQR : SH_PSUM) + 4ull * (uint64_t)i);
        S(&t, 1, tx ? SH_FINAL_SQR : SH_FINAL);
    }
    if (tx == 0) {
        S(&t, 0, SH_FINAL);
        S(&t, 0, SH_FINAL_SQR);
        S(&t, 1, SH_DENOM);
    }
    for (int ei = tx; ei < c->sub2_elem; ei += NT) {
        G(&t, 0, at(&t, A_QSUB2, ei));
        S(&t, 0, SH_DENOM);
        G(&t, 1, at(&t, A_QSUB2, ei));
    }
    for (int ei = tx; ei < c->conv_elem; ei += NT) {
        G(&t, 0, at(&t, A_CONV, ei));
        G(&t, 0, at(&t, A_SUB2, ei));
        S(&t, 0, SH_FINAL);
        G(&t, 1, at(&t, A_CONV, ei));
    }
    for (int ei = tx; ei < c->sub2_elem; ei += NT) {
        G(&t, 0, at(&t, A_CONV, ei));
        G(&t, 0, at(&t, A_QSUB2, ei));
        G(&t, 1, at(&t, A_QSUB2, ei));
    }
    /* the mask around the previous position */
    G(&t, 0, Loc(&t, 0, f - 1));
    G(&t, 0, Row(&t, 0));
    G(&t, 0, Loc(&t, 1, f - 1));
    G(&t, 0, Row(&t, 1));
    for (int ei = tx; ei < c->tMask_elem; ei += NT)
        G(&t, 1, at(&t, A_TMASK, ei));
    conv(&t, 1);
    for (int ei = tx; ei < c->mc_rows; ei += NT) {
        for (int i = 0; i < c->mc_cols; i++)
            G(&t, 0, at(&t, A_MC, ei * c->mc_rows + i));
        S(&t, 1, SH_MAXC + 4ull * (uint64_t)ei);
        S(&t, 1, SH_MAXV + 4ull * (uint64_t)ei);
    }
    if (tx == 0) {
        for (int i = 0; i < c->mc_rows; i++) {
            S(&t, 0, SH_MAXV + 4ull * (uint64_t)i);
            S(&t, 0, SH_MAXC + 4ull * (uint64_t)i);
        }
        G(&t, 0, Row(&t, 0));
        G(&t, 1, Loc(&t, 0, f));
        G(&t, 0, Row(&t, 1));
        G(&t, 1, Loc(&t, 1, f));
    }
    if (f % 10 == 0) {
        G(&t, 0, Loc(&t, 0, f));
        G(&t, 1, Row(&t, 0));
        G(&t, 0, Loc(&t, 1, f));
        G(&t, 1, Row(&t, 1));
        /* clang -O3 loads d_Row and d_Col once, in the loop's preheader
         * (only floats are stored in the loop); d_Col although the thread
         * has just stored it (point_no is reloaded from constant memory
         * after the store, so the addresses are not known equal) */
        if (tx < c->in_elem) {
            G(&t, 0, Row(&t, 0));
            G(&t, 0, Row(&t, 1));
        }
        for (int ei = tx; ei < c->in_elem; ei += NT) {
            rc(ei, c->in_rows, &row, &col);
            int ori_row = p->loc_row[f][bx] - 25 + row - 1;
            int ori_col = p->loc_col[f][bx] - 25 + col - 1;
            G(&t, 0, d_in(&t, ei));
            G(&t, 0, frame_px(&t, ori_col, ori_row));
            G(&t, 1, d_in(&t, ei));
        }
    }
}

/* ---------------------------------------------------------------- checks */

static const gm_hw_params *params_of(const gm_workload *w)
{
    return ((const gm_hw_launch *)w->kernels[0].params)->hw;
}

/* The positions' data model: frame 0 stores the point; frame f stores the
 * point moved by -2..2 in each direction; the point itself moves to the
 * stored position at frames 10, 20, .. and at no other time. */
static void check_positions(const gm_hw_params *p)
{
    static const int16_t first_endo[2] = {369, 408}, first_epi[2] = {390, 457};
    uint32_t n = p->endo + p->epi;
    if (p->endo) {
        assert_int_equal(p->row[0][0], first_endo[0]);
        assert_int_equal(p->col[0][0], first_endo[1]);
    }
    if (p->epi) {
        assert_int_equal(p->row[0][p->endo], first_epi[0]);
        assert_int_equal(p->col[0][p->endo], first_epi[1]);
    }
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t f = 0; f < p->frames; f++) {
            int dr = p->loc_row[f][b] - p->row[f][b], dc = p->loc_col[f][b] - p->col[f][b];
            assert_true(dr >= -2 && dr <= 2 && dc >= -2 && dc <= 2);
            if (f == 0)
                assert_true(dr == 0 && dc == 0);
            if (f + 1 < p->frames) {
                int moves = f && f % 10 == 0;
                assert_int_equal(p->row[f + 1][b], moves ? p->loc_row[f][b] : p->row[f][b]);
                assert_int_equal(p->col[f + 1][b], moves ? p->loc_col[f][b] : p->col[f][b]);
            }
        }
}

/* Every launch lane by lane; per launch, the barriers (kernel.cu has 34
 * __syncthreads on the tracking path, none on frame 0's) and the constant
 * loads (7 or 19 per warp). */
static void check_workload(const gm_workload *w)
{
    const gm_hw_params *p = params_of(w);
    ref *r = malloc(sizeof *r);
    uint64_t op[GM_OP_COUNT];
    uint32_t n = p->endo + p->epi;

    assert_non_null(r);
    check_positions(p);
    assert_int_equal(w->nkernels, p->frames);
    for (uint32_t f = 0; f < w->nkernels; f++) {
        const gm_kernel *k = &w->kernels[f];
        assert_string_equal(k->name, "kernel");
        assert_int_equal(k->grid.x, n);
        assert_int_equal(k->block.x, 256);
        ref_init(r, p, f);
        check_launch(k, r, ref_thread, op);
        uint64_t warps = (uint64_t)n * 8;
        assert_int_equal(op[GM_OP_CONST_LD], warps * (f ? 19 : 7));
        assert_int_equal(op[GM_OP_BARRIER], f ? warps * 34 : 0);
        assert_int_equal(op[GM_OP_EXIT], warps);
    }
    free(r);
}

/* Read-only flags of global loads: set exactly on the arrays the launch
 * never stores (the frame; d_Row, d_Col and the templates outside frame 0
 * and the tenth frames; d_Row and d_Col also in frame 0). */
typedef struct ro_walk {
    const ref *r;
} ro_walk;

static int inside(uint64_t a, uint64_t base, uint64_t bytes)
{
    return a >= base && a < base + bytes;
}

static void on_ro(const gm_inst *in, uint32_t exist, void *arg)
{
    const ref *r = ((ro_walk *)arg)->r;
    const common *c = &r->c;
    (void)exist;
    if (in->op != GM_OP_GLOBAL_LD)
        return;
    uint64_t a = in->addr[__builtin_ctz(in->mask)];
    int f = (int)r->frame, moves = f && f % 10 == 0, ro = inside(a, r->frame_at, 4ull * 590 * 609);
    int pts[2] = {c->endo, c->epi};
    for (int k = 0; k < 2; k++) {
        ro |= !moves && (inside(a, r->row[k], 4ull * (uint64_t)pts[k]) ||
                         inside(a, r->col[k], 4ull * (uint64_t)pts[k]));
        ro |= f && !moves && inside(a, r->T[k], 4ull * (uint64_t)(c->in_elem * pts[k]));
    }
    assert_int_equal(in->flags & GM_INST_READ_ONLY, ro ? GM_INST_READ_ONLY : 0);
}

static void check_read_only(const gm_workload *w)
{
    ref *r = malloc(sizeof *r);
    assert_non_null(r);
    for (uint32_t f = 0; f < w->nkernels; f++) {
        ro_walk x = {r};
        ref_init(r, params_of(w), f);
        for (uint32_t cta = 0; cta < gm_kernel_ctas(&w->kernels[f]); cta++)
            run_warp(&w->kernels[f], cta, 0, 64, on_ro, &x);
    }
    free(r);
}

static gm_workload build(gm_size size, uint64_t seed)
{
    gm_workload w;
    gm_error err;
    if (gm_workload_build(&w, "heartwall", size, seed, &err))
        fail_msg("%s", err.msg);
    return w;
}

static void test_tiny(void **state)
{
    (void)state;
    gm_workload w = build(GM_SIZE_TINY, 1);
    const gm_hw_params *p = params_of(&w);
    /* tiny: tSize 2, sSize 4, maxMove 2, endo 0-1 and epi 0-1, 11 frames
     * (frame 10 moves the points) */
    assert_int_equal(p->tsize, 2);
    assert_int_equal(p->ssize, 4);
    assert_int_equal(p->frames, 11);
    check_workload(&w);
    check_read_only(&w);
    gm_workload_free(&w);
}

/* One endo point only, sizes whose element loops need several trips of
 * 256 (tSize 8: a 17 x 17 template, 289 elements; sSize 12: 25 x 25 =
 * 625, conv 41 x 41), an odd maxMove (no offset rounding up); one epi
 * point with that template over 11 frames: frame 10's blend loop makes
 * two trips in threads 0-32 (warp 1's lane 0 alone in its second) and
 * one in the others, and d_Row and d_Col are loaded once per thread
 * before it, not in every trip. */
static void test_shapes(void **state)
{
    gm_workload w;
    gm_error err;
    (void)state;
    assert_int_equal(gm_heartwall_build_dims(&w, 8, 12, 3, 1, 0, 2, 5, &err), 0);
    check_workload(&w);
    gm_workload_free(&w);
    assert_int_equal(gm_heartwall_build_dims(&w, 8, 8, 2, 0, 1, 11, 5, &err), 0);
    check_workload(&w);
    gm_workload_free(&w);
    assert_int_equal(gm_heartwall_build_dims(&w, 1, 1, 1, 0, 2, 12, 5, &err), 0);
    check_workload(&w);
    gm_workload_free(&w);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 0, 4, 2, 1, 1, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 26, 40, 2, 1, 1, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 3, 2, 1, 1, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 41, 2, 1, 1, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 8, 0, 1, 1, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 8, 11, 1, 1, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 8, 2, 0, 0, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 8, 2, 21, 1, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 8, 2, 1, 32, 2, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 8, 2, 1, 1, 0, 1, &err), 0);
    assert_int_not_equal(gm_heartwall_build_dims(&w, 4, 8, 2, 1, 1, 105, 1, &err), 0);
}

/* The documented sizes; standard is main.cu's geometry. */
static void test_sizes(void **state)
{
    (void)state;
    static const uint32_t ts[] = {2, 6, 25}, ss[] = {4, 10, 40}, mm[] = {2, 4, 10},
                          endo[] = {2, 4, 20}, epi[] = {2, 6, 31}, frames[] = {11, 11, 20};
    for (int s = 0; s <= GM_SIZE_STANDARD; s++) {
        gm_workload w = build((gm_size)s, 1);
        const gm_hw_params *p = params_of(&w);
        assert_int_equal(p->tsize, ts[s]);
        assert_int_equal(p->ssize, ss[s]);
        assert_int_equal(p->maxmove, mm[s]);
        assert_int_equal(p->endo, endo[s]);
        assert_int_equal(p->epi, epi[s]);
        assert_int_equal(w.nkernels, frames[s]);
        assert_int_equal(w.kernels[0].grid.x, endo[s] + epi[s]);
        check_positions(p);
        gm_workload_free(&w);
    }
}

static void test_catalogue(void **state)
{
    (void)state;
    const gm_workload_info *e = gm_workload_find("heartwall");
    assert_non_null(e);
    assert_string_equal(e->suite, "Rodinia 3.1");
    assert_string_equal(e->klass, "insensitive");
}

/* The seed moves the points; chunking and round-robin never matter. */
static void test_hash(void **state)
{
    (void)state;
    gm_workload a = build(GM_SIZE_TINY, 1), b = build(GM_SIZE_TINY, 1);
    gm_workload d = build(GM_SIZE_TINY, 7);
    uint64_t h = hash_workload(&a, 16);
    assert_true(h == hash_workload(&a, 17));
    assert_true(h == hash_workload(&b, 4096));
    assert_false(h == hash_workload(&d, 16));
    for (uint32_t k = 0; k < a.nkernels; k += 5)
        check_round_robin(&a.kernels[k], gm_kernel_ctas(&a.kernels[k]) - 1);
    assert_true(h == 0x3c9a4612a3f5083bull);
    gm_workload_free(&a);
    gm_workload_free(&b);
    gm_workload_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
