/* Rodinia 3.1 heartwall (cuda/heartwall/{main.cu,kernel.cu,define.c}) as
 * an address-stream emulator: one launch of `kernel` per frame, one CTA
 * of 256 threads per sample point (20 endocardium points, then 31
 * epicardium points in the default run).
 *
 * Frame 0 copies each point's template (a 51 x 51 window of the frame
 * around the point) into d_T. Every later frame runs, per CTA, a chain of
 * element loops `for (ei = tx; ei < N; ei += 256)` over per-point arrays
 * (column-major, element ei at row ei % rows, column ei / rows), most
 * separated by __syncthreads: cut the 81 x 81 search window out of the
 * frame, rotate the template into shared memory, convolve the two, build
 * two padded cumulative-sum tables (of the window and of its square) by
 * vertical then horizontal running sums, normalise, mask around the
 * previous position, take the maximum and store the tracked position.
 * Every tenth frame moves the point to its tracked position and blends
 * the template with the frame. kernel.cu spells out every loop; the phase
 * list below follows it statement by statement (docs/workloads/rodinia.md
 * has the index expressions).
 *
 * The d_unique[bx] fields are __constant__ loads at addresses that depend
 * on bx: the kernel loads the fields it uses once at its start (nvcc
 * hoists them; constant memory cannot change during a launch). d_common
 * and d_common_change fields are constant-bank operands, not loads.
 * Instruction letters are segprog.h's. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/segprog.h"

#define TPB GM_HW_THREADS
#define ALL_LANES 0xffffffffu
#define UNIQUE_BYTES 160u      /* sizeof(params_unique) */
#define UNIQUE_AT 536u         /* d_common_change (16 B), d_common (520 B), d_unique */
#define CBANK_BYTES (UNIQUE_AT + GM_HW_ALL * UNIQUE_BYTES)

/* shared memory, declaration order */
#define SH_PSUM 0u             /* in_partial_sum[51] */
#define SH_PSUM_SQR 204u       /* in_sqr_partial_sum[51] */
#define SH_FINAL 408u          /* in_final_sum */
#define SH_FINAL_SQR 412u      /* in_sqr_final_sum */
#define SH_DENOM 416u          /* denomT */
#define SH_MAX_VAL 420u        /* par_max_val[131] */
#define SH_MAX_COO 944u        /* par_max_coo[131] */
#define SH_MOD 1468u           /* d_in_mod_temp[2601] */

/* d_unique fields (offsets in params_unique): frame 0 uses the first 7 */
static const uint8_t unique_off[] = {
    0, 8, 16, 24, 32, 40, 44,                               /* d_Row .. in_pointer */
    48, 56, 72, 80, 88, 96, 104, 112, 120, 128, 136, 152,   /* d_in2 .. d_mask_conv */
};

/* ---------------------------------------------------------------- geometry */

typedef struct hw_geo {
    int64_t in_rows, in_elem, in2_rows, in2_elem, conv_rows, conv_elem;
    int64_t pad_rows, pad_elem, sel_rows, sel_elem, sub_rows, sub_cols, sub_elem;
    int64_t tmask_rows, mask_rows, mc_off;
} hw_geo;

/* The sizes main.cu derives from tSize, sSize and maxMove. */
static void geometry(const gm_hw_params *p, hw_geo *g)
{
    g->in_rows = 2 * (int64_t)p->tsize + 1;
    g->in_elem = g->in_rows * g->in_rows;
    g->in2_rows = 2 * (int64_t)p->ssize + 1;
    g->in2_elem = g->in2_rows * g->in2_rows;
    g->conv_rows = g->in_rows + g->in2_rows - 1;
    g->conv_elem = g->conv_rows * g->conv_rows;
    g->pad_rows = g->in2_rows + 2 * g->in_rows;
    g->pad_elem = g->pad_rows * g->pad_rows;
    g->sel_rows = g->pad_rows - 1 - g->in_rows;       /* = conv_rows */
    g->sel_elem = g->sel_rows * g->pad_rows;
    g->sub_rows = g->pad_rows - g->in_rows - 1;
    g->sub_cols = g->pad_rows;
    g->sub_elem = g->sub_rows * g->sub_cols;
    g->tmask_rows = g->conv_rows;
    g->mask_rows = p->maxmove;
    /* (mask_rows - 1) / 2, plus one when (mask_rows - 1) % 2 > 0.5 */
    g->mc_off = (g->mask_rows - 1) / 2 + ((g->mask_rows - 1) % 2 ? 1 : 0);
}

/* ---------------------------------------------------------------- phases */

enum {   /* phases, in kernel.cu's order */
    F0_STORE, F0_COPY,                                  /* frame 0 */
    P_IN2, P_ROT, P_CONV, P_PAD, P_CUMV, P_SEL, P_SUBH, P_DIFF, P_CUMH, P_HSEL, P_SUB2,
    P_SUB2B, P_SQR, P_PAD2, P_CUMV2, P_SEL2, P_SUBH2, P_DIFF2, P_CUMH2, P_HSEL2, P_QSUB2,
    P_QSUB2B, P_QSQRT, P_INSQR, P_PSUM, P_PSUM_SQR, P_FINAL, P_FINAL_SQR, P_DENOM,
    P_SCALE, P_CONV_NORM, P_CORR, P_TMASK, P_MCONV, P_MAXROW, P_TRACK,
    P_UPDATE,                                           /* every tenth frame */
    NPHASES
};

enum { K_MAP, K_PAD, K_CONV, K_LOOP };      /* loop shapes */
enum { L_ELEM, L_T0, L_T1 };                /* who runs the body: ei < N, tx 0, tx 1 */

/* once: run after head by the lanes that make at least one trip of the
 * element loop, before its first trip (a loop-invariant load the
 * compiler hoists into the loop's preheader); NULL in most phases. */
typedef struct hw_phase {
    uint8_t kind, lanes, sync;
    const char *head, *pre, *in, *out, *ohead, *inner, *otail, *post, *once;
} hw_phase;

#define CONV_PRE "IIIIIIIIII" "Z"   /* ic, jc, j, jp1, ja1, ja2, i, ip1, ia1, ia2; s = 0 */
#define REMAP "IIII" "LT"           /* row, col, source index, address; copy */

static const hw_phase phases[NPHASES] = {
    [F0_STORE] = {K_MAP, L_T0, 0, "PB", "ILTILT", "", "", "", "", "", ""},
    [F0_COPY] = {K_MAP, L_ELEM, 0, "IPB", "II" "LLA" "III" "LT", "", "", "", "", "", ""},
    [P_IN2] = {K_MAP, L_ELEM, 1, "ILLA" "IPB", "IIIII" "LT", "", "", "", "", "", ""},
    [P_ROT] = {K_MAP, L_ELEM, 1, "IPB", "IIIII" "LW", "", "", "", "", "", ""},
    [P_CONV] = {K_CONV, L_ELEM, 1, "IPB", CONV_PRE, "", "", "IIPB", "IIDLAIPB", "IPB", "IT"},
    [P_PAD] = {K_PAD, L_ELEM, 1, "IPB", "IIIIPB", "IILT", "IZT", "", "", "", ""},
    [P_CUMV] = {K_LOOP, L_ELEM, 1, "IPB", "IIZ", "", "", "", "ILATIPB", "", ""},
    [P_SEL] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_SUBH] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_DIFF] = {K_MAP, L_ELEM, 1, "IPB", "ILLAT", "", "", "", "", "", ""},
    [P_CUMH] = {K_LOOP, L_ELEM, 1, "IPB", "IIZ", "", "", "", "ILATIPB", "", ""},
    [P_HSEL] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_SUB2] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_SUB2B] = {K_MAP, L_ELEM, 1, "IPB", "ILLAT", "", "", "", "", "", ""},
    [P_SQR] = {K_MAP, L_ELEM, 1, "IPB", "ILAT", "", "", "", "", "", ""},
    [P_PAD2] = {K_PAD, L_ELEM, 1, "IPB", "IIIIPB", "IILT", "IZT", "", "", "", ""},
    [P_CUMV2] = {K_LOOP, L_ELEM, 1, "IPB", "IIZ", "", "", "", "ILATIPB", "", ""},
    [P_SEL2] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_SUBH2] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_DIFF2] = {K_MAP, L_ELEM, 0, "IPB", "ILLAT", "", "", "", "", "", ""},   /* no barrier */
    [P_CUMH2] = {K_LOOP, L_ELEM, 1, "IPB", "IIZ", "", "", "", "ILATIPB", "", ""},
    [P_HSEL2] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_QSUB2] = {K_MAP, L_ELEM, 1, "IPB", REMAP, "", "", "", "", "", ""},
    [P_QSUB2B] = {K_MAP, L_ELEM, 1, "IPB", "ILLAT", "", "", "", "", "", ""},
    [P_QSQRT] = {K_MAP, L_ELEM, 1, "IPB", "ILLAAAST", "", "", "", "", "", ""},
    [P_INSQR] = {K_MAP, L_ELEM, 1, "IPB", "ILAT", "", "", "", "", "", ""},
    [P_PSUM] = {K_LOOP, L_ELEM, 1, "IPB", "IZ", "", "", "", "ILAIPB", "", "W"},
    [P_PSUM_SQR] = {K_LOOP, L_ELEM, 1, "IPB", "IZ", "", "", "", "ILAIPB", "", "W"},
    [P_FINAL] = {K_LOOP, L_T0, 0, "PB", "Z", "", "", "", "DAIPB", "", "W"},
    [P_FINAL_SQR] = {K_LOOP, L_T1, 1, "PB", "Z", "", "", "", "DAIPB", "", "W"},
    [P_DENOM] = {K_MAP, L_T0, 1, "PB", "DDAAASSAW", "", "", "", "", "", ""},
    [P_SCALE] = {K_MAP, L_ELEM, 1, "IPB", "ILDAT", "", "", "", "", "", ""},
    [P_CONV_NORM] = {K_MAP, L_ELEM, 1, "IPB", "ILLDAAT", "", "", "", "", "", ""},
    [P_CORR] = {K_MAP, L_ELEM, 1, "IPB", "ILLSAT", "", "", "", "", "", ""},
    [P_TMASK] = {K_MAP, L_ELEM, 1, "IILLLLAA" "IPB", "IPAT", "", "", "", "", "", ""},
    [P_MCONV] = {K_CONV, L_ELEM, 1, "IPB", CONV_PRE, "", "", "IIPB", "IILAIPB", "IPB", "ILAT"},
    [P_MAXROW] = {K_LOOP, L_ELEM, 1, "IPB", "ZZ", "", "", "", "ILAAAIPB", "", "IWW"},
    [P_TRACK] = {K_LOOP, L_T0, 1, "PB", "ZZ", "", "", "", "IDDAAIPB", "", "IIIIIII" "LATILAT"},
    /* d_Row and d_Col once before the loop, as clang -O3 emits it: the loop
     * stores only floats (d_in), which cannot alias the int coordinates */
    [P_UPDATE] = {K_MAP, L_ELEM, 0, "PB" "ILTILT" "IPB", "IIII" "LLAT", "", "", "", "", "", "",
                  .once = "LLA"},
};

/* ---------------------------------------------------------------- state */

/* Segments; the phase, trip and loop counters live in v[1] (phase | trip
 * << 8) and v[2] (k | q << 24: outer and inner loop trips). */
enum { S_PROLOGUE, S_HEAD, S_ONCE, S_PRE, S_IN, S_OUT, S_OHEAD, S_INNER, S_OTAIL, S_POST, S_TAIL,
       S_SYNC, S_EXIT };

typedef struct hw_ctx {
    const gm_hw_params *p;
    hw_geo geo;
    uint32_t frame, bx, warp;
} hw_ctx;

static uint32_t phase_of(const gm_warp_gen *g) { return (uint32_t)(g->v[1] & 0xff); }
static int64_t trip_of(const gm_warp_gen *g) { return g->v[1] >> 8; }
static int64_t outer_of(const gm_warp_gen *g) { return g->v[2] & 0xffffff; }
static int64_t inner_of(const gm_warp_gen *g) { return g->v[2] >> 24; }

static void set_phase(gm_warp_gen *g, uint32_t ph, int64_t trip)
{
    g->v[1] = ph | trip << 8;
    g->v[2] = 0;
}

static void ctx_of(const gm_kernel *k, const gm_warp_gen *g, hw_ctx *c)
{
    const gm_hw_launch *l = k->params;
    c->p = l->hw;
    geometry(c->p, &c->geo);
    c->frame = l->frame;
    c->bx = g->cta;
    c->warp = g->warp;
}

/* The phase after ph (-1: the first) in a frame's launch; NPHASES after
 * the last. */
static uint32_t phase_after(const hw_ctx *c, int ph)
{
    if (c->frame == 0)
        return ph < 0 ? F0_STORE : ph == F0_STORE ? F0_COPY : NPHASES;
    if (ph < 0)
        return P_IN2;
    if (ph == P_TRACK)
        return c->frame % 10 == 0 ? P_UPDATE : NPHASES;
    return ph == P_UPDATE ? NPHASES : (uint32_t)ph + 1;
}

/* N of the element loop. */
static int64_t phase_n(const hw_ctx *c, uint32_t ph)
{
    const hw_geo *g = &c->geo;
    switch (ph) {
    case F0_COPY: case P_ROT: case P_INSQR: case P_UPDATE: return g->in_elem;
    case P_IN2: case P_SQR: return g->in2_elem;
    case P_PAD: case P_PAD2: return g->pad_elem;
    case P_CUMV: case P_CUMV2: return g->pad_rows;         /* columns */
    case P_SEL: case P_SEL2: return g->sel_elem;
    case P_SUBH: case P_DIFF: case P_SUBH2: case P_DIFF2: return g->sub_elem;
    case P_CUMH: case P_CUMH2: return g->sub_rows;
    case P_PSUM: case P_PSUM_SQR: return g->in_rows;
    case P_MAXROW: return g->conv_rows;
    default: return g->conv_elem;   /* 131 x 131 at standard: conv, sub2, tMask, mask_conv */
    }
}

/* Trips of a K_LOOP phase's inner loop. */
static int64_t inner_trips(const hw_ctx *c, uint32_t ph)
{
    const hw_geo *g = &c->geo;
    switch (ph) {
    case P_CUMV: case P_CUMV2: return g->pad_rows;
    case P_CUMH: case P_CUMH2: return g->sub_cols;
    case P_PSUM: case P_PSUM_SQR: case P_FINAL: case P_FINAL_SQR: return g->in_rows;
    case P_MAXROW: case P_TRACK: return g->conv_rows;
    default: return 0;
    }
}

/* 1-based convolution bounds of element ei (kernel.cu's ja1..ja2,
 * ia1..ia2, jp1, ip1) for the template convolution or the mask's. */
typedef struct conv_b {
    int64_t ja1, ja2, ia1, ia2, jp1, ip1;
} conv_b;

static conv_b bounds_at(const hw_ctx *c, uint32_t ph, int64_t ic, int64_t jc)
{
    const hw_geo *g = &c->geo;
    int mask = ph == P_MCONV;
    int64_t off = mask ? g->mc_off : 0;
    int64_t arows = mask ? g->mask_rows : g->in2_rows;   /* the second operand's size */
    int64_t brows = mask ? g->tmask_rows : g->in_rows;   /* the first operand's size */
    int64_t j = jc + off, i = ic + off;
    conv_b b;
    b.jp1 = j + 1;
    b.ja1 = arows < b.jp1 ? b.jp1 - arows : 1;
    b.ja2 = brows < j ? brows : j;
    b.ip1 = i + 1;
    b.ia1 = arows < b.ip1 ? b.ip1 - arows : 1;
    b.ia2 = brows < i ? brows : i;
    return b;
}

/* The bounds of every lane of the warp in trip t: consecutive elements
 * walk down a column, so one division serves the warp. */
static void warp_bounds(const hw_ctx *c, uint32_t ph, int64_t t, conv_b b[])
{
    int64_t rows = c->geo.conv_rows, ei = (int64_t)c->warp * GM_WARP_SIZE + (int64_t)TPB * t;
    int64_t ic = ei % rows + 1, jc = ei / rows + 1;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        b[l] = bounds_at(c, ph, ic, jc);
        if (++ic > rows) {
            ic = 1;
            jc++;
        }
    }
}

/* Thread tid's element in trip t. */
static int64_t elem(uint32_t tid, int64_t t)
{
    return (int64_t)tid + (int64_t)TPB * t;
}

static int lane_in_phase(const hw_ctx *c, uint32_t ph, uint32_t tid, int64_t t)
{
    switch (phases[ph].lanes) {
    case L_T0: return t == 0 && tid == 0;
    case L_T1: return t == 0 && tid == 1;
    default: return elem(tid, t) < phase_n(c, ph);
    }
}

/* Lanes of segment s (the body masks; heads, barriers and EXIT run on
 * every lane). */
static uint32_t seg_mask(const hw_ctx *c, const gm_warp_gen *g, int s)
{
    uint32_t ph = phase_of(g), m = 0;
    int64_t t = trip_of(g), k = outer_of(g), q = inner_of(g);
    conv_b b[GM_WARP_SIZE], *cb = NULL;
    if (s == S_PROLOGUE || s == S_HEAD || s == S_SYNC || s == S_EXIT)
        return ALL_LANES;
    if (phases[ph].kind == K_CONV && (s == S_OHEAD || s == S_INNER || s == S_OTAIL)) {
        warp_bounds(c, ph, t, b);
        cb = b;
    } else if (phases[ph].lanes == L_ELEM && !(phases[ph].kind == K_PAD &&
                                               (s == S_IN || s == S_OUT))) {
        /* lanes whose element is below N: a prefix of the warp */
        int64_t left = phase_n(c, ph) - elem(c->warp * GM_WARP_SIZE, t);
        return left >= GM_WARP_SIZE ? ALL_LANES : left > 0 ? (1u << left) - 1 : 0;
    }
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint32_t tid = c->warp * GM_WARP_SIZE + l;
        int64_t ei = elem(tid, t);
        int on = lane_in_phase(c, ph, tid, t);
        if (on && phases[ph].kind == K_PAD && (s == S_IN || s == S_OUT)) {
            const hw_geo *gg = &c->geo;
            int64_t row = ei % gg->pad_rows, col = ei / gg->pad_rows;
            int inside = row > gg->in_rows - 1 && row < gg->in_rows + gg->in2_rows &&
                         col > gg->in_rows - 1 && col < gg->in_rows + gg->in2_rows;
            on = s == S_IN ? inside : !inside;
        }
        if (on && cb) {
            on = k <= cb[l].ja2 - cb[l].ja1 && (s != S_INNER || q <= cb[l].ia2 - cb[l].ia1);
        }
        m |= (uint32_t)on << l;
    }
    return m;
}

static const char *seg_prog(const hw_ctx *c, uint32_t ph, int s)
{
    const hw_phase *x = &phases[ph];
    static const char *const fixed[] = {[S_TAIL] = "IPB", [S_SYNC] = "R", [S_EXIT] = "X"};
    switch (s) {
    case S_PROLOGUE:
        /* frame check; the d_unique fields; two accumulators */
        return c->frame == 0 ? "II" "CCCCCCC" "AAA" "ZZ" "PB"
                             : "II" "CCCCCCCCCCCCCCCCCCC" "AAAAAAA" "ZZ" "PB";
    case S_HEAD: return x->head;
    case S_ONCE: return x->once;
    case S_PRE: return x->pre;
    case S_IN: return x->in;
    case S_OUT: return x->out;
    case S_OHEAD: return x->ohead;
    case S_INNER: return x->inner;
    case S_OTAIL: return x->otail;
    case S_POST: return x->post;
    case S_TAIL: return x->lanes == L_ELEM ? fixed[S_TAIL] : "";
    default: return fixed[s];
    }
}

static int any_lane(const hw_ctx *c, const gm_warp_gen *g, int s)
{
    return seg_mask(c, g, s) != 0;
}

static int next_phase(const hw_ctx *c, gm_warp_gen *g, uint32_t ph)
{
    uint32_t n = phase_after(c, (int)ph);
    if (n == NPHASES)
        return S_EXIT;
    set_phase(g, n, 0);
    return S_HEAD;
}

static int end_phase(const hw_ctx *c, gm_warp_gen *g, uint32_t ph)
{
    return phases[ph].sync ? S_SYNC : next_phase(c, g, ph);
}

static int hw_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    hw_ctx c;
    ctx_of(k, g, &c);
    uint32_t ph = phase_of(g);
    const hw_phase *x = &phases[ph];
    int64_t t = trip_of(g), kk = outer_of(g), q = inner_of(g);

    switch (s) {
    case S_PROLOGUE:
        return next_phase(&c, g, (uint32_t)-1);
    case S_HEAD:
        if (!any_lane(&c, g, S_PRE))
            return end_phase(&c, g, ph);
        return x->once ? S_ONCE : S_PRE;
    case S_ONCE: return S_PRE;
    case S_PRE:
        g->v[2] = 0;
        return x->kind == K_PAD ? S_IN : x->kind == K_CONV ? S_OHEAD
             : x->kind == K_LOOP ? S_INNER : S_POST;
    case S_IN: return S_OUT;
    case S_OUT: return S_POST;
    case S_OHEAD: return S_INNER;
    case S_INNER:
        g->v[2] = kk | (q + 1) << 24;
        if (x->kind == K_LOOP)
            return q + 1 < inner_trips(&c, ph) ? S_INNER : S_POST;
        return any_lane(&c, g, S_INNER) ? S_INNER : S_OTAIL;
    case S_OTAIL:
        g->v[2] = kk + 1;
        return any_lane(&c, g, S_OHEAD) ? S_OHEAD : S_POST;
    case S_POST: return S_TAIL;
    case S_TAIL:
        g->v[1] = ph | (t + 1) << 8;
        g->v[2] = 0;
        return any_lane(&c, g, S_PRE) ? S_PRE : end_phase(&c, g, ph);
    case S_SYNC: return next_phase(&c, g, ph);
    default: return GM_SEG_DONE;
    }
}

static void hw_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    hw_ctx c;
    ctx_of(k, g, &c);
    out->prog = seg_prog(&c, phase_of(g), s);
    out->mask = seg_mask(&c, g, s);
}

/* ---------------------------------------------------------------- addresses */

/* Per-point array a of this CTA. */
static uint64_t pp(const hw_ctx *c, int a, int64_t e)
{
    return c->p->per_point[a] + c->p->stride[a] * c->bx + 4 * (uint64_t)e;
}

/* The point's scalars: endo points are CTAs 0 .. endo-1. */
static int endo(const hw_ctx *c) { return c->bx < c->p->endo; }
static int64_t point_no(const hw_ctx *c) { return endo(c) ? c->bx : c->bx - c->p->endo; }

static uint64_t row_at(const hw_ctx *c, int col)
{
    const gm_hw_params *p = c->p;
    uint64_t base = endo(c) ? (col ? p->endo_col : p->endo_row) : (col ? p->epi_col : p->epi_row);
    return base + 4 * (uint64_t)point_no(c);
}

static uint64_t loc_at(const hw_ctx *c, int col, uint32_t frame)
{
    const gm_hw_params *p = c->p;
    uint64_t base = endo(c) ? (col ? p->t_endo_col : p->t_endo_row)
                            : (col ? p->t_epi_col : p->t_epi_row);
    return base + 4 * (uint64_t)(point_no(c) * p->no_frames + frame);
}

/* d_in = &d_T[in_pointer]: the point's template. */
static uint64_t templ(const hw_ctx *c, int64_t e)
{
    uint64_t t = endo(c) ? c->p->endo_t : c->p->epi_t;
    return t + 4 * (uint64_t)(point_no(c) * c->geo.in_elem + e);
}

/* frame[ori_col * frame_rows + ori_row] */
static uint64_t pixel(const hw_ctx *c, int64_t row, int64_t col)
{
    return c->p->frame + 4 * (uint64_t)(col * c->p->frame_rows + row);
}

/* Element (row, col) of a remap source: ori_row = row + dr, ori_col = col
 * + dc in an array of `src_rows` rows. */
static uint64_t remap(const hw_ctx *c, int a, int64_t ei, int64_t rows, int64_t dr,
                      int64_t dc, int64_t src_rows)
{
    int64_t row = ei % rows, col = ei / rows;
    return pp(c, a, (col + dc) * src_rows + row + dr);
}

/* The two-operand element phases: {source, source} -> target, m-th. */
static uint64_t diff_addr(const hw_ctx *c, int a0, int a1, int a2, int m, int64_t ei)
{
    return pp(c, m == 0 ? a0 : m == 1 ? a1 : a2, ei);
}

/* The template convolution's and the mask convolution's inner reads. */
static uint64_t conv_addr(const hw_ctx *c, uint32_t ph, int m, conv_b b, int64_t k, int64_t q)
{
    const hw_geo *g = &c->geo;
    int64_t ja = b.ja1 + k, ia = b.ia1 + q, jb = b.jp1 - ja, ib = b.ip1 - ia;
    if (ph == P_MCONV)
        return pp(c, GM_HW_TMASK, g->tmask_rows * (ja - 1) + ia - 1);
    if (m == 0)
        return SH_MOD + 4 * (uint64_t)(g->in_rows * (ja - 1) + ia - 1);
    return pp(c, GM_HW_IN2, g->in2_rows * (jb - 1) + ib - 1);
}

/* The in-window copy of P_PAD / P_PAD2. */
static uint64_t pad_addr(const hw_ctx *c, uint32_t ph, int s, int m, int64_t ei)
{
    const hw_geo *g = &c->geo;
    int64_t row = ei % g->pad_rows, col = ei / g->pad_rows;
    if (s == S_IN && m == 0)
        return pp(c, ph == P_PAD ? GM_HW_IN2 : GM_HW_IN2_SQR,
                  (col - g->in_rows) * g->in2_rows + row - g->in_rows);
    return pp(c, GM_HW_PAD_CUMV, ei);
}

/* Frame 0's template copy and the tenth frames' blend read the frame
 * around the point, with kernel.cu's literal 25. */
static uint64_t window_pixel(const hw_ctx *c, int64_t ei, int64_t r, int64_t cl)
{
    int64_t rows = c->geo.in_rows, row = ei % rows, col = ei / rows;
    return pixel(c, r - 25 + row - 1, cl - 25 + col - 1);
}

static uint64_t hw_lane_addr(const hw_ctx *c, uint32_t ph, int s, int m, uint32_t tid, int64_t t,
                             int64_t q)
{
    const hw_geo *g = &c->geo;
    const gm_hw_params *p = c->p;
    int64_t ei = elem(tid, t);
    uint32_t f = c->frame;

    if (s == S_PROLOGUE)
        return p->cbank + UNIQUE_AT + UNIQUE_BYTES * (uint64_t)c->bx + unique_off[m];
    switch (ph) {
    case F0_STORE: return m & 1 ? loc_at(c, m == 3, 0) : row_at(c, m == 2);
    case F0_COPY:
        if (m < 2)
            return row_at(c, m);
        return m == 2 ? window_pixel(c, ei, p->row[0][c->bx], p->col[0][c->bx]) : templ(c, ei);
    case P_IN2:
        if (s == S_HEAD)
            return row_at(c, m);
        if (m == 1)
            return pp(c, GM_HW_IN2, ei);
        return pixel(c, ei % g->in2_rows + p->row[f][c->bx] - p->ssize - 1,
                     ei / g->in2_rows + p->col[f][c->bx] - p->ssize - 1);
    case P_ROT: {
        int64_t row = ei % g->in_rows, col = ei / g->in_rows;
        if (m == 1)
            return SH_MOD + 4 * (uint64_t)ei;
        return templ(c, (g->in_rows - 1 - col) * g->in_rows + g->in_rows - 1 - row);
    }
    case P_CONV: case P_MCONV:
        if (ph == P_CONV)   /* the inner reads: conv_addr */
            return pp(c, GM_HW_CONV, ei);
        return pp(c, m ? GM_HW_MASK_CONV : GM_HW_IN2_SQR_SUB2, ei);
    case P_PAD: case P_PAD2: return pad_addr(c, ph, s, m, ei);
    case P_CUMV: case P_CUMV2: return pp(c, GM_HW_PAD_CUMV, ei * g->pad_rows + q);
    case P_SEL: case P_SEL2:
        if (m == 1)
            return pp(c, GM_HW_PAD_CUMV_SEL, ei);
        return remap(c, GM_HW_PAD_CUMV, ei, g->sel_rows, g->in_rows, 0, g->pad_rows);
    case P_SUBH: case P_SUBH2:
        if (m == 1)
            return pp(c, GM_HW_SUB_CUMH, ei);
        return remap(c, GM_HW_PAD_CUMV, ei, g->sub_rows, 0, 0, g->pad_rows);
    case P_DIFF: case P_DIFF2:
        return diff_addr(c, GM_HW_PAD_CUMV_SEL, GM_HW_SUB_CUMH, GM_HW_SUB_CUMH, m, ei);
    case P_CUMH: case P_CUMH2: return pp(c, GM_HW_SUB_CUMH, ei + q * g->sub_rows);
    case P_HSEL: case P_HSEL2:
        if (m == 1)
            return pp(c, GM_HW_SUB_CUMH_SEL, ei);
        return remap(c, GM_HW_SUB_CUMH, ei, g->sub_rows, 0, g->in_rows, g->sub_rows);
    case P_SUB2: case P_QSUB2:
        if (m == 1)
            return pp(c, ph == P_SUB2 ? GM_HW_SUB2 : GM_HW_IN2_SQR_SUB2, ei);
        return remap(c, GM_HW_SUB_CUMH, ei, g->sub_rows, 0, 0, g->sub_rows);
    case P_SUB2B: return diff_addr(c, GM_HW_SUB_CUMH_SEL, GM_HW_SUB2, GM_HW_SUB2, m, ei);
    case P_QSUB2B:
        return diff_addr(c, GM_HW_SUB_CUMH_SEL, GM_HW_IN2_SQR_SUB2, GM_HW_IN2_SQR_SUB2, m, ei);
    case P_QSQRT: return diff_addr(c, GM_HW_SUB2, GM_HW_IN2_SQR_SUB2, GM_HW_IN2_SQR_SUB2, m, ei);
    case P_SQR: return pp(c, m ? GM_HW_IN2_SQR : GM_HW_IN2, ei);
    case P_INSQR: return m ? pp(c, GM_HW_IN_SQR, ei) : templ(c, ei);
    case P_PSUM:
        if (s == S_POST)
            return SH_PSUM + 4 * (uint64_t)ei;
        return templ(c, ei * g->in_rows + q);
    case P_PSUM_SQR:
        if (s == S_POST)
            return SH_PSUM_SQR + 4 * (uint64_t)ei;
        return pp(c, GM_HW_IN_SQR, ei + g->in_rows * q);
    case P_FINAL: return s == S_POST ? SH_FINAL : SH_PSUM + 4 * (uint64_t)q;
    case P_FINAL_SQR: return s == S_POST ? SH_FINAL_SQR : SH_PSUM_SQR + 4 * (uint64_t)q;
    case P_DENOM: return m == 0 ? SH_FINAL : m == 1 ? SH_FINAL_SQR : SH_DENOM;
    case P_SCALE: return m == 1 ? SH_DENOM : pp(c, GM_HW_IN2_SQR_SUB2, ei);
    case P_CONV_NORM:
        return m == 2 ? SH_FINAL : pp(c, m == 1 ? GM_HW_SUB2 : GM_HW_CONV, ei);
    case P_CORR: return pp(c, m == 0 ? GM_HW_CONV : GM_HW_IN2_SQR_SUB2, ei);
    case P_TMASK:
        if (s == S_PRE)
            return pp(c, GM_HW_TMASK, ei);
        return m & 1 ? row_at(c, m == 3) : loc_at(c, m == 2, f - 1);
    case P_MAXROW:
        if (s == S_POST)
            return (m ? SH_MAX_VAL : SH_MAX_COO) + 4 * (uint64_t)ei;
        return pp(c, GM_HW_MASK_CONV, ei * g->conv_rows + q);
    case P_TRACK:
        if (s == S_INNER)
            return (m ? SH_MAX_COO : SH_MAX_VAL) + 4 * (uint64_t)q;
        return m & 1 ? loc_at(c, m == 3, f) : row_at(c, m == 2);
    default:   /* P_UPDATE */
        if (s == S_HEAD)
            return m & 1 ? row_at(c, m == 3) : loc_at(c, m == 2, f);
        if (s == S_ONCE)
            return row_at(c, m);
        return m == 1 ? window_pixel(c, ei, p->loc_row[f][c->bx], p->loc_col[f][c->bx])
                      : templ(c, ei);
    }
}

static int inside(uint64_t a, uint64_t base, uint64_t bytes)
{
    return a >= base && a < base + bytes;
}

/* Arrays the launch never stores: the frame always; d_Row, d_Col in
 * every frame but the tenth ones; the templates d_T in the frames that
 * neither copy (frame 0) nor blend (tenth frames) them. */
static int read_only(const hw_ctx *c, uint64_t a)
{
    const gm_hw_params *p = c->p;
    uint64_t tb = 4ull * (uint64_t)c->geo.in_elem;
    int moves = c->frame && c->frame % 10 == 0;
    if (inside(a, p->frame, 4ull * p->frame_rows * p->frame_cols))
        return 1;
    int point = inside(a, p->endo_row, 4ull * p->endo) || inside(a, p->endo_col, 4ull * p->endo) ||
                inside(a, p->epi_row, 4ull * p->epi) || inside(a, p->epi_col, 4ull * p->epi);
    if (!moves && point)
        return 1;
    return c->frame && !moves &&
           (inside(a, p->endo_t, tb * p->endo) || inside(a, p->epi_t, tb * p->epi));
}

static void hw_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    hw_ctx c;
    ctx_of(k, g, &c);
    uint32_t ph = phase_of(g);
    int64_t t = trip_of(g), kk = outer_of(g), q = inner_of(g);
    int pointer_field = s == S_PROLOGUE && unique_off[m] != 40 && unique_off[m] != 44;

    in->width = pointer_field ? 8 : 4;
    in->flags = in->op == GM_OP_CONST_LD ? GM_INST_READ_ONLY : 0;
    conv_b b[GM_WARP_SIZE];
    int conv_inner = phases[ph].kind == K_CONV && s == S_INNER;
    if (conv_inner)
        warp_bounds(&c, ph, t, b);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint32_t tid = g->warp * GM_WARP_SIZE + l;
        if (!(in->mask >> l & 1))
            in->addr[l] = 0;
        else if (conv_inner)
            in->addr[l] = conv_addr(&c, ph, m, b[l], kk, q);
        else
            in->addr[l] = hw_lane_addr(&c, ph, s, m, tid, t, q);
    }
    uint64_t a0 = in->addr[__builtin_ctz(in->mask)];
    if (in->op == GM_OP_GLOBAL_LD && read_only(&c, a0))
        in->flags = GM_INST_READ_ONLY;
}

static const gm_segprog hw_sp = {2, hw_seg, hw_next, hw_addr};

static int heartwall_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    return gm_segprog_gen(&hw_sp, k, g, out, max);
}

/* ---------------------------------------------------------------- build */

/* main.cu's sample points: endoRow/endoCol[20], then epiRow/epiCol[31]. */
static const int16_t endo_rc[GM_HW_ENDO][2] = {
    {369, 408}, {400, 406}, {429, 397}, {452, 383}, {476, 354}, {486, 322}, {479, 294},
    {458, 270}, {433, 250}, {404, 237}, {374, 235}, {346, 241}, {318, 254}, {294, 273},
    {277, 300}, {269, 328}, {275, 356}, {287, 383}, {311, 401}, {339, 411},
};
static const int16_t epi_rc[GM_HW_ALL - GM_HW_ENDO][2] = {
    {390, 457}, {419, 454}, {448, 446}, {474, 431}, {501, 411}, {519, 388}, {535, 361},
    {542, 331}, {543, 301}, {538, 273}, {528, 243}, {511, 218}, {491, 196}, {466, 178},
    {438, 166}, {406, 157}, {376, 155}, {347, 165}, {318, 177}, {291, 197}, {275, 218},
    {259, 248}, {256, 276}, {252, 304}, {252, 333}, {257, 361}, {266, 391}, {283, 415},
    {305, 434}, {331, 448}, {360, 455},
};

/* The tracked move of point p in frame f, -2..2 in each direction (a
 * data model: the video decides it). */
static int16_t move(uint64_t seed, uint32_t f, uint32_t p, uint32_t axis)
{
    uint64_t h = seed ^ (0x9e3779b97f4a7c15ull * (1 + f * 131u + p * 2u + axis));
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return (int16_t)(h % 5) - 2;
}

/* Positions: frame 0 stores the point itself; frame f stores the point
 * plus its move; every tenth frame moves the point there. */
static void track(gm_hw_params *p, uint64_t seed)
{
    uint32_t n = p->endo + p->epi;
    for (uint32_t b = 0; b < n; b++) {
        const int16_t *rc = b < p->endo ? endo_rc[b] : epi_rc[b - p->endo];
        int16_t r = rc[0], c = rc[1];
        for (uint32_t f = 0; f < p->frames; f++) {
            p->row[f][b] = r;
            p->col[f][b] = c;
            p->loc_row[f][b] = (int16_t)(r + (f ? move(seed, f, b, 0) : 0));
            p->loc_col[f][b] = (int16_t)(c + (f ? move(seed, f, b, 1) : 0));
            if (f && f % 10 == 0) {
                r = p->loc_row[f][b];
                c = p->loc_col[f][b];
            }
        }
    }
}

static void place(gm_hw_params *p)
{
    hw_geo g;
    gm_devmem mem;
    uint32_t n = p->endo + p->epi;
    geometry(p, &g);
    int64_t bytes[12] = {g.in2_elem, g.conv_elem, g.pad_elem, g.sel_elem, g.sub_elem,
                         g.conv_elem, g.conv_elem, g.in2_elem, g.conv_elem, g.in_elem,
                         g.conv_elem, g.conv_elem};
    gm_devmem_init(&mem);
    p->cbank = gm_devmem_alloc(&mem, CBANK_BYTES);
    p->frame = gm_devmem_alloc(&mem, 4ull * p->frame_rows * p->frame_cols);
    p->endo_row = gm_devmem_alloc(&mem, 4ull * p->endo);
    p->endo_col = gm_devmem_alloc(&mem, 4ull * p->endo);
    p->t_endo_row = gm_devmem_alloc(&mem, 4ull * p->endo * p->no_frames);
    p->t_endo_col = gm_devmem_alloc(&mem, 4ull * p->endo * p->no_frames);
    p->epi_row = gm_devmem_alloc(&mem, 4ull * p->epi);
    p->epi_col = gm_devmem_alloc(&mem, 4ull * p->epi);
    p->t_epi_row = gm_devmem_alloc(&mem, 4ull * p->epi * p->no_frames);
    p->t_epi_col = gm_devmem_alloc(&mem, 4ull * p->epi * p->no_frames);
    p->endo_t = gm_devmem_alloc(&mem, 4ull * (uint64_t)g.in_elem * p->endo);
    p->epi_t = gm_devmem_alloc(&mem, 4ull * (uint64_t)g.in_elem * p->epi);
    for (int a = 0; a < 12; a++) {
        p->per_point[a] = gm_devmem_alloc(&mem, 4ull * (uint64_t)bytes[a]);
        p->stride[a] = mem.next - p->per_point[a];
        for (uint32_t b = 1; b < n; b++)
            gm_devmem_alloc(&mem, 4ull * (uint64_t)bytes[a]);
    }
}

int gm_heartwall_build_dims(gm_workload *w, uint32_t tsize, uint32_t ssize, uint32_t maxmove,
                            uint32_t endo, uint32_t epi, uint32_t frames, uint64_t seed,
                            gm_error *err)
{
    /* the kernel's shared arrays hold 51 columns, a 51 x 51 template and
     * 131 rows of maxima; the window must fit the frame */
    if (tsize < 1 || tsize > 25 || ssize < tsize || ssize > 40)
        return gm_fail(err, "heartwall: bad tSize %u / sSize %u (1..25, tSize..40)", tsize,
                       ssize);
    if (maxmove < 1 || maxmove > 10)
        return gm_fail(err, "heartwall: bad maxMove %u (1..10)", maxmove);
    if (endo > GM_HW_ENDO || epi > GM_HW_ALL - GM_HW_ENDO || endo + epi < 1)
        return gm_fail(err, "heartwall: bad points %u + %u (0..20 + 0..31, at least one)", endo,
                       epi);
    if (frames < 1 || frames > GM_HW_MAX_FRAMES)
        return gm_fail(err, "heartwall: bad frames %u (1..%u)", frames, GM_HW_MAX_FRAMES);
    if (gm_workload_alloc(w, "heartwall", frames,
                          sizeof(gm_hw_params) + frames * sizeof(gm_hw_launch), err))
        return -1;

    gm_hw_params *p = w->priv;
    gm_hw_launch *lp = (gm_hw_launch *)(p + 1);
    p->tsize = tsize;
    p->ssize = ssize;
    p->maxmove = maxmove;
    p->endo = endo;
    p->epi = epi;
    p->frames = frames;
    p->frame_rows = 590;   /* test.avi: 609 x 590 pixels, 104 frames */
    p->frame_cols = 609;
    p->no_frames = GM_HW_MAX_FRAMES;
    track(p, seed);
    place(p);
    for (uint32_t f = 0; f < frames; f++) {
        lp[f].hw = p;
        lp[f].frame = f;
        gm_kernel_set(&w->kernels[f], "kernel", gm_dim3_make(endo + epi, 1, 1),
                      gm_dim3_make(TPB, 1, 1), &lp[f], heartwall_gen);
    }
    return 0;
}

int gm_heartwall_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: the run script's `heartwall test.avi 20`, main.cu's tSize
     * 25, sSize 40, maxMove 10 and its 20 + 31 points */
    static const uint32_t ts[] = {2, 6, 25, 6}, ss[] = {4, 10, 40, 10}, mm[] = {2, 4, 10, 4};
    static const uint32_t endo[] = {2, 4, 20, 4}, epi[] = {2, 6, 31, 6}, frames[] = {11, 11, 20, 11};

    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "heartwall: bad size %d", (int)size);
    return gm_heartwall_build_dims(w, ts[size], ss[size], mm[size], endo[size], epi[size],
                                   frames[size], seed, err);
}
