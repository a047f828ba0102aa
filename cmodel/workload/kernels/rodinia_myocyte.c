/* Rodinia 3.1 myocyte (cuda/myocyte), mode 1 as an address-stream
 * emulator: `myocyte.out xmax workload 1` runs work_2(), which cudaMallocs
 * y, x, params, com, err, scale, yy, initvalu_temp, finavalu_temp (in that
 * order) and launches solver_2 once: block 32 (NUMBER_THREADS), grid
 * ceil(workload/32), or 4 CTAs when workload == 1. Thread tid = 32*bx + tx
 * is one simulation instance; threads tid >= workload do nothing.
 *
 * solver_2, per working thread (E = EQUATIONS = 91):
 *   for (k = 1; k <= xmax; k++) {
 *       yi = tid*(xmax+1)*E + (k-1)*E;  yc = yi + E;  xp = tid*(xmax+1) + k;
 *       x[xp] = k;
 *       for (j = 0; j < ATTEMPTS; j++) {
 *           embedded_fehlberg_7_8_2(h, x[xp], &y[yi], &y[yc], &params[tid*18],
 *               &err[tid*E], &initvalu_temp[tid*E], &finavalu_temp[tid*13*E], &com[tid*3]);
 *           for i < E: if (err[i] > 0) error = 1;
 *           if (error != 1) break;
 *           for i < E: yy[i] = y[yi+i] == 0 ? tolerance : fabs(y[yi+i]);
 *                      scale[i] = 0.8*pow(tolerance*yy[i]/err[i], 1/7); scale_min = min(...)
 *           for i < E: if (err[i] > tolerance*yy[i]) outside = 1;
 *           if (outside == 0) break;
 *           h = ...; if (x[xp] + h > xmax) ... else if (x[xp] + 1.5h > xmax) ...
 *       }
 *       x[xp] = x[xp] + h;
 *   }
 * embedded_fehlberg_7_8_2: for stage s < 13: for i < E: initvalu_temp[i] =
 * initvalu[i] + h*(sum of b_st * finavalu_temp[t*E+i] over the stage's terms
 * t); kernel_2(.., initvalu_temp, params, &finavalu_temp[s*E], com); then
 * finavalu[i] from terms 0,10,5,6,7,8,9 and error[i] from 0,10,11,12.
 * kernel_2 = kernel_ecc_2, 3 x kernel_cam_2 (Dyad, SL, Cyt), kernel_fin_2
 * and a NaN/Inf scan of finavalu[0..90].
 *
 * Which reads are loads (the compiled form is open; one rule throughout):
 * a read is a load unless the thread already read or wrote that element
 * through the same pointer at a constant offset with no store through
 * another pointer since (no __restrict__: any other pointer may alias).
 * So kernel_ecc_2's reads of finavalu it just stored, kernel_fin_2's reads
 * of the finavalu the cam calls stored and its second reads of initvalu are
 * registers; every read in a loop with index i is a load. kernel_2 has 130
 * loads and 106 stores (k2_table).
 *
 * Data model: every instance reads the same y.txt and params.txt, so every
 * thread takes the same path (no divergence). Which path depends on the
 * ODE values, which are not modelled: each step takes 1 to 3 attempts (1
 * with probability 1/2, 2 and 3 with 1/4, gm_prng(seed, 0x3c7e) per step),
 * every attempt finds some err > 0, the last one ends at outside == 0, no
 * y value is 0 and no derivative is NaN or Inf. The compute-only if/else
 * bodies of the model (membrane voltage, Mg, stimulus) emit their if
 * branch. Which elements an attempt touches does not depend on these
 * values; the number of attempts and the instruction counts do.
 *
 * Instructions: kernel_2's compute is counted from the source, one per
 * arithmetic operator of every statement that depends on a loaded value
 * (DP when the statement has a double literal, as 1e-3 or 0.32 make it),
 * one SFU per math call; loops cost IADD, ISETP, BRA per trip (no
 * unrolling). params and com are read-only: solver_2 never stores them
 * (kernel_cam_2 writes d_finavalu[com_offset], not d_com). */
#include "workload/kernels/rodinia_myocyte.h"

#include <stdint.h>
#include <string.h>

#include "sim/prng.h"
#include "workload/build.h"
#include "workload/kernels/segprog.h"

#define E GM_MYO_EQUATIONS
#define TPB 32u               /* NUMBER_THREADS */
#define MAX_XMAX 100000u

/* kernel_2 in source order: alu, dp and sfu ops before the access, then
 * the access ('L' load, 'S' store, 'B' a branch, 'E' the end). Offsets are
 * numeric: ecc at 0, cam at 46 / 61 / 76 with params 0 / 5 / 10 and com 0
 * / 1 / 2, fin at 0, 46, 61, 76. */
typedef struct k2_entry {
    uint16_t alu, dp, sfu;
    char op, arr;
    uint8_t idx;
} k2_entry;

static const k2_entry k2_table[] = {
    {0, 0, 0, 'L', 'P', 15}, {0, 0, 0, 'L', 'I', 0}, {0, 0, 0, 'L', 'I', 1}, {0, 0, 0, 'L', 'I', 2},
    {0, 0, 0, 'L', 'I', 3}, {0, 0, 0, 'L', 'I', 4}, {0, 0, 0, 'L', 'I', 5}, {0, 0, 0, 'L', 'I', 6},
    {0, 0, 0, 'L', 'I', 7}, {0, 0, 0, 'L', 'I', 8}, {0, 0, 0, 'L', 'I', 9}, {0, 0, 0, 'L', 'I', 10},
    {0, 0, 0, 'L', 'I', 11}, {0, 0, 0, 'L', 'I', 12}, {0, 0, 0, 'L', 'I', 13}, {0, 0, 0, 'L', 'I', 14},
    {0, 0, 0, 'L', 'I', 15}, {0, 0, 0, 'L', 'I', 16}, {0, 0, 0, 'L', 'I', 17}, {0, 0, 0, 'L', 'I', 18},
    {0, 0, 0, 'L', 'I', 19}, {0, 0, 0, 'L', 'I', 20}, {0, 0, 0, 'L', 'I', 22}, {0, 0, 0, 'L', 'I', 23},
    {0, 0, 0, 'L', 'I', 24}, {0, 0, 0, 'L', 'I', 25}, {0, 0, 0, 'L', 'I', 26}, {0, 0, 0, 'L', 'I', 27},
    {0, 0, 0, 'L', 'I', 28}, {0, 0, 0, 'L', 'I', 29}, {0, 0, 0, 'L', 'I', 30}, {0, 0, 0, 'L', 'I', 31},
    {0, 0, 0, 'L', 'I', 32}, {0, 0, 0, 'L', 'I', 33}, {0, 0, 0, 'L', 'I', 34}, {0, 0, 0, 'L', 'I', 35},
    {0, 0, 0, 'L', 'I', 36}, {0, 0, 0, 'L', 'I', 37}, {0, 0, 0, 'L', 'I', 38}, {0, 0, 0, 'L', 'I', 39},
    {18, 10, 7, 'B', '-', 0}, {4, 14, 3, 'S', 'F', 0}, {4, 0, 0, 'S', 'F', 1}, {4, 0, 0, 'S', 'F', 2},
    {37, 31, 9, 'S', 'F', 11}, {13, 42, 9, 'S', 'F', 12}, {20, 32, 9, 'S', 'F', 7}, {2, 0, 0, 'S', 'F', 8},
    {2, 0, 0, 'S', 'F', 39}, {2, 17, 2, 'S', 'F', 9}, {2, 0, 0, 'S', 'F', 10}, {24, 52, 11, 'S', 'F', 3},
    {2, 0, 0, 'S', 'F', 4}, {0, 5, 0, 'S', 'F', 5}, {0, 5, 0, 'S', 'F', 6}, {1, 86, 12, 'S', 'F', 42},
    {83, 30, 31, 'S', 'F', 44}, {1, 16, 8, 'S', 'F', 43}, {7, 6, 0, 'S', 'F', 45}, {14, 5, 2, 'S', 'F', 13},
    {9, 0, 1, 'S', 'F', 14}, {9, 0, 1, 'S', 'F', 15}, {18, 2, 5, 'S', 'F', 16}, {5, 0, 0, 'S', 'F', 17},
    {5, 0, 0, 'S', 'F', 18}, {6, 0, 0, 'S', 'F', 19}, {6, 0, 0, 'S', 'F', 20}, {0, 0, 0, 'S', 'F', 21},
    {6, 0, 0, 'S', 'F', 22}, {6, 0, 0, 'S', 'F', 23}, {5, 0, 0, 'S', 'F', 24}, {11, 0, 0, 'S', 'F', 25},
    {5, 0, 0, 'S', 'F', 26}, {5, 0, 0, 'S', 'F', 27}, {5, 0, 0, 'S', 'F', 28}, {7, 0, 0, 'S', 'F', 29},
    {7, 0, 0, 'S', 'F', 30}, {21, 0, 0, 'S', 'F', 31}, {13, 0, 0, 'S', 'F', 32}, {3, 0, 0, 'S', 'F', 33},
    {7, 0, 0, 'S', 'F', 34}, {24, 0, 0, 'S', 'F', 35}, {14, 0, 0, 'S', 'F', 36}, {6, 0, 0, 'S', 'F', 37},
    {0, 0, 0, 'B', '-', 0}, {10, 0, 0, 'S', 'F', 38}, {0, 0, 0, 'S', 'F', 40}, {0, 0, 0, 'S', 'F', 41},
    {0, 0, 0, 'L', 'I', 35}, {0, 1, 0, 'L', 'P', 1}, {0, 0, 0, 'L', 'P', 2}, {0, 0, 0, 'L', 'P', 3},
    {0, 0, 0, 'L', 'P', 4}, {0, 0, 0, 'L', 'P', 16}, {0, 0, 0, 'L', 'P', 17}, {0, 0, 0, 'L', 'I', 46},
    {0, 0, 0, 'L', 'I', 47}, {0, 0, 0, 'L', 'I', 48}, {0, 0, 0, 'L', 'I', 49}, {0, 0, 0, 'L', 'I', 50},
    {0, 0, 0, 'L', 'I', 51}, {0, 0, 0, 'L', 'I', 52}, {0, 0, 0, 'L', 'I', 53}, {0, 0, 0, 'L', 'I', 54},
    {0, 0, 0, 'L', 'I', 55}, {0, 0, 0, 'L', 'I', 56}, {0, 0, 0, 'L', 'I', 57}, {0, 0, 0, 'L', 'I', 58},
    {0, 0, 0, 'L', 'I', 59}, {0, 0, 0, 'L', 'I', 60}, {0, 0, 0, 'B', '-', 0}, {110, 77, 11, 'S', 'F', 46},
    {0, 0, 0, 'S', 'F', 47}, {0, 0, 0, 'S', 'F', 48}, {0, 0, 0, 'S', 'F', 49}, {0, 0, 0, 'S', 'F', 50},
    {0, 0, 0, 'S', 'F', 51}, {0, 0, 0, 'S', 'F', 52}, {0, 0, 0, 'S', 'F', 53}, {0, 0, 0, 'S', 'F', 54},
    {0, 0, 0, 'S', 'F', 55}, {0, 0, 0, 'S', 'F', 56}, {0, 0, 0, 'S', 'F', 57}, {0, 0, 0, 'S', 'F', 58},
    {0, 0, 0, 'S', 'F', 59}, {0, 0, 0, 'S', 'F', 60}, {0, 12, 0, 'S', 'F', 0}, {0, 0, 0, 'L', 'I', 36},
    {0, 1, 0, 'L', 'P', 6}, {0, 0, 0, 'L', 'P', 7}, {0, 0, 0, 'L', 'P', 8}, {0, 0, 0, 'L', 'P', 9},
    {0, 0, 0, 'L', 'P', 16}, {0, 0, 0, 'L', 'P', 17}, {0, 0, 0, 'L', 'I', 61}, {0, 0, 0, 'L', 'I', 62},
    {0, 0, 0, 'L', 'I', 63}, {0, 0, 0, 'L', 'I', 64}, {0, 0, 0, 'L', 'I', 65}, {0, 0, 0, 'L', 'I', 66},
    {0, 0, 0, 'L', 'I', 67}, {0, 0, 0, 'L', 'I', 68}, {0, 0, 0, 'L', 'I', 69}, {0, 0, 0, 'L', 'I', 70},
    {0, 0, 0, 'L', 'I', 71}, {0, 0, 0, 'L', 'I', 72}, {0, 0, 0, 'L', 'I', 73}, {0, 0, 0, 'L', 'I', 74},
    {0, 0, 0, 'L', 'I', 75}, {0, 0, 0, 'B', '-', 0}, {110, 77, 11, 'S', 'F', 61}, {0, 0, 0, 'S', 'F', 62},
    {0, 0, 0, 'S', 'F', 63}, {0, 0, 0, 'S', 'F', 64}, {0, 0, 0, 'S', 'F', 65}, {0, 0, 0, 'S', 'F', 66},
    {0, 0, 0, 'S', 'F', 67}, {0, 0, 0, 'S', 'F', 68}, {0, 0, 0, 'S', 'F', 69}, {0, 0, 0, 'S', 'F', 70},
    {0, 0, 0, 'S', 'F', 71}, {0, 0, 0, 'S', 'F', 72}, {0, 0, 0, 'S', 'F', 73}, {0, 0, 0, 'S', 'F', 74},
    {0, 0, 0, 'S', 'F', 75}, {0, 12, 0, 'S', 'F', 1}, {0, 0, 0, 'L', 'I', 37}, {0, 1, 0, 'L', 'P', 11},
    {0, 0, 0, 'L', 'P', 12}, {0, 0, 0, 'L', 'P', 13}, {0, 0, 0, 'L', 'P', 14}, {0, 0, 0, 'L', 'P', 16},
    {0, 0, 0, 'L', 'P', 17}, {0, 0, 0, 'L', 'I', 76}, {0, 0, 0, 'L', 'I', 77}, {0, 0, 0, 'L', 'I', 78},
    {0, 0, 0, 'L', 'I', 79}, {0, 0, 0, 'L', 'I', 80}, {0, 0, 0, 'L', 'I', 81}, {0, 0, 0, 'L', 'I', 82},
    {0, 0, 0, 'L', 'I', 83}, {0, 0, 0, 'L', 'I', 84}, {0, 0, 0, 'L', 'I', 85}, {0, 0, 0, 'L', 'I', 86},
    {0, 0, 0, 'L', 'I', 87}, {0, 0, 0, 'L', 'I', 88}, {0, 0, 0, 'L', 'I', 89}, {0, 0, 0, 'L', 'I', 90},
    {0, 0, 0, 'B', '-', 0}, {110, 77, 11, 'S', 'F', 76}, {0, 0, 0, 'S', 'F', 77}, {0, 0, 0, 'S', 'F', 78},
    {0, 0, 0, 'S', 'F', 79}, {0, 0, 0, 'S', 'F', 80}, {0, 0, 0, 'S', 'F', 81}, {0, 0, 0, 'S', 'F', 82},
    {0, 0, 0, 'S', 'F', 83}, {0, 0, 0, 'S', 'F', 84}, {0, 0, 0, 'S', 'F', 85}, {0, 0, 0, 'S', 'F', 86},
    {0, 0, 0, 'S', 'F', 87}, {0, 0, 0, 'S', 'F', 88}, {0, 0, 0, 'S', 'F', 89}, {0, 0, 0, 'S', 'F', 90},
    {0, 12, 0, 'S', 'F', 2}, {0, 0, 0, 'L', 'P', 1}, {0, 0, 0, 'L', 'P', 2}, {0, 2, 0, 'L', 'C', 0},
    {0, 0, 0, 'S', 'F', 35}, {0, 2, 0, 'L', 'C', 1}, {0, 0, 0, 'S', 'F', 36}, {0, 2, 0, 'L', 'C', 2},
    {0, 0, 0, 'S', 'F', 37}, {13, 0, 0, 'L', 'I', 46}, {0, 0, 0, 'L', 'I', 47}, {0, 0, 0, 'L', 'I', 48},
    {0, 0, 0, 'L', 'I', 49}, {0, 0, 0, 'L', 'I', 50}, {0, 0, 0, 'L', 'I', 51}, {0, 0, 0, 'L', 'I', 52},
    {0, 0, 0, 'L', 'I', 53}, {0, 0, 0, 'L', 'I', 54}, {0, 0, 0, 'L', 'I', 55}, {0, 0, 0, 'L', 'I', 58},
    {0, 0, 0, 'L', 'I', 59}, {0, 0, 0, 'L', 'I', 60}, {1, 5, 0, 'L', 'I', 61}, {0, 5, 0, 'L', 'I', 62},
    {0, 5, 0, 'L', 'I', 63}, {2, 0, 0, 'L', 'I', 76}, {2, 0, 0, 'L', 'I', 77}, {2, 0, 0, 'L', 'I', 78},
    {1, 0, 0, 'S', 'F', 46}, {1, 0, 0, 'S', 'F', 47}, {1, 0, 0, 'S', 'F', 48}, {5, 0, 0, 'S', 'F', 61},
    {5, 0, 0, 'S', 'F', 62}, {5, 0, 0, 'S', 'F', 63}, {2, 0, 0, 'S', 'F', 76}, {2, 0, 0, 'S', 'F', 77},
    {2, 0, 0, 'S', 'F', 78}, {0, 0, 0, 'E', '-', 0},
};

/* finavalu_temp rows each fehlberg stage adds to initvalu (b_sj != 0) */
static const uint8_t stage_terms[GM_MYO_STAGES][10] = {
    {0},
    {1, 0},
    {2, 0, 1},
    {2, 0, 2},
    {3, 0, 2, 3},
    {3, 0, 3, 4},
    {4, 0, 3, 4, 5},
    {4, 0, 4, 5, 6},
    {6, 0, 3, 4, 5, 6, 7},
    {7, 0, 3, 4, 5, 6, 7, 8},
    {8, 0, 3, 4, 5, 6, 7, 8, 9},
    {6, 0, 5, 6, 7, 8, 9},
    {9, 0, 3, 4, 5, 6, 7, 8, 9, 11},
};
static const uint8_t final_terms[] = {0, 10, 5, 6, 7, 8, 9};
static const uint8_t error_terms[] = {0, 10, 11, 12};

/* Stage loop bodies: "L" + t loads, t + 1 FP ops (none for a copy), the
 * store, the loop. */
static const char *const stage_prog[GM_MYO_STAGES] = {
    "LTIPB",
    "LLAATIPB",
    "LLLAAATIPB",
    "LLLAAATIPB",
    "LLLLAAAATIPB",
    "LLLLAAAATIPB",
    "LLLLLAAAAATIPB",
    "LLLLLAAAAATIPB",
    "LLLLLLLAAAAAAATIPB",
    "LLLLLLLLAAAAAAAATIPB",
    "LLLLLLLLLAAAAAAAAATIPB",
    "LLLLLLLAAAAAAATIPB",
    "LLLLLLLLLLAAAAAAAAAATIPB",
};

enum seg_id {
    SEG_PRO,        /* indices, tolerance, the early returns, tid < workload */
    SEG_STEP,       /* pointers, x[xp] = k, h = h_init */
    SEG_ATT,        /* attempt: flags, x[xp] argument, h2_7 */
    SEG_STAGE,      /* the if (j == s) chain, timeinst_temp */
    SEG_STAGE_I,    /* initvalu_temp[i] = ... */
    SEG_K2,         /* kernel_2 */
    SEG_NAN_I,      /* isnan / isinf of finavalu[i] */
    SEG_FINAL_I,    /* finavalu[i] = y_initial[i] + h * ... */
    SEG_ERR_I,      /* error[i] = fabs(...) */
    SEG_CHK_I,      /* if (err[i] > 0) error = 1 */
    SEG_BRK,        /* if (error != 1) break */
    SEG_SCALE_I,    /* yy[i], scale[i], scale_min */
    SEG_SCALE_FIN,  /* scale_fina */
    SEG_OUT_I,      /* if (err[i] > tolerance * yy[i]) outside = 1 */
    SEG_OUTB,       /* if (outside == 0) break */
    SEG_HUPD,       /* h = h * scale_fina and its clamps */
    SEG_STEP_END,   /* x[xp] += h; if (j >= ATTEMPTS) return */
    SEG_EXIT
};

/* Loop counters: v[1] = k << 16 | j << 8 | s, v[2] = i. */
static uint32_t cur_k(const gm_warp_gen *g) { return (uint32_t)(g->v[1] >> 16); }
static uint32_t cur_j(const gm_warp_gen *g) { return (uint32_t)(g->v[1] >> 8 & 0xff); }
static uint32_t cur_s(const gm_warp_gen *g) { return (uint32_t)(g->v[1] & 0xff); }

static void set_loop(gm_warp_gen *g, uint32_t k, uint32_t j, uint32_t s, uint32_t i)
{
    g->v[1] = (int64_t)k << 16 | j << 8 | s;
    g->v[2] = i;
}

static uint32_t active_mask(const gm_myocyte_params *p, uint32_t cta)
{
    uint64_t first = (uint64_t)cta * TPB;
    if (first >= p->workload)
        return 0;
    uint64_t n = p->workload - first;
    return n >= TPB ? 0xffffffffu : (1u << n) - 1;
}

static void myo_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    const gm_myocyte_params *p = k->params;
    uint32_t exist = gm_warp_exist_mask(gm_kernel_threads_per_cta(k), g->warp);

    out->mask = active_mask(p, g->cta);
    switch (s) {
    case SEG_PRO:       out->prog = "IIIIIIIIII" "ZZZZ" "AS" "PBPBPB" "PB"; out->mask = exist; break;
    case SEG_STEP:      out->prog = "IIIAT" "ZZ"; break;
    case SEG_ATT:       out->prog = cur_j(g) ? "ZZZ" "LA" : "ZZZ" "A"; break;
    case SEG_STAGE:     out->prog = "PBA"; break;
    case SEG_STAGE_I:   out->prog = stage_prog[cur_s(g)]; break;
    case SEG_K2:        out->prog = p->k2_prog; break;
    case SEG_NAN_I:     out->prog = "LABAB" "IPB"; break;
    case SEG_FINAL_I:   out->prog = "LLLLLLLL" "AAAAAAAAA" "TIPB"; break;
    case SEG_ERR_I:     out->prog = "LLLL" "AAAAA" "TIPB"; break;
    case SEG_CHK_I:     out->prog = "LAA" "IPB"; break;
    case SEG_BRK:       out->prog = "PB"; break;
    case SEG_SCALE_I:   out->prog = "LAB" "AT" "LASASAS" "QT" "AA" "IPB"; break;
    case SEG_SCALE_FIN: out->prog = "AA"; break;
    case SEG_OUT_I:     out->prog = "LLAA" "IPB"; break;
    case SEG_OUTB:      out->prog = "PB"; break;
    case SEG_HUPD:      out->prog = "AAA" "LAAB" "AAB"; break;
    case SEG_STEP_END:  out->prog = "LAT" "PB" "IPB"; break;
    default:            out->prog = "X"; out->mask = exist; break;
    }
}

/* The segment after an i loop body: the same body for the next i, or
 * `after` with i = 0. */
static int loop_i(gm_warp_gen *g, int s, int after)
{
    if (g->v[2] + 1 < (int64_t)E) {
        g->v[2]++;
        return s;
    }
    g->v[2] = 0;
    return after;
}

static int myo_next(const gm_kernel *kern, gm_warp_gen *g, int s)
{
    const gm_myocyte_params *p = kern->params;
    uint32_t k = cur_k(g), j = cur_j(g), st = cur_s(g);

    switch (s) {
    case SEG_PRO:       set_loop(g, 1, 0, 0, 0); return SEG_STEP;
    case SEG_STEP:      return SEG_ATT;
    case SEG_ATT:       set_loop(g, k, j, 0, 0); return SEG_STAGE;
    case SEG_STAGE:     return SEG_STAGE_I;
    case SEG_STAGE_I:   return loop_i(g, s, SEG_K2);
    case SEG_K2:        return SEG_NAN_I;
    case SEG_NAN_I:
        if (loop_i(g, s, SEG_STAGE) == s)
            return s;
        if (st + 1 < GM_MYO_STAGES) {
            set_loop(g, k, j, st + 1, 0);
            return SEG_STAGE;
        }
        return SEG_FINAL_I;
    case SEG_FINAL_I:   return loop_i(g, s, SEG_ERR_I);
    case SEG_ERR_I:     return loop_i(g, s, SEG_CHK_I);
    case SEG_CHK_I:     return loop_i(g, s, SEG_BRK);
    case SEG_BRK:       return SEG_SCALE_I;
    case SEG_SCALE_I:   return loop_i(g, s, SEG_SCALE_FIN);
    case SEG_SCALE_FIN: return SEG_OUT_I;
    case SEG_OUT_I:     return loop_i(g, s, SEG_OUTB);
    case SEG_OUTB:      return j + 1 < p->attempts[k] ? SEG_HUPD : SEG_STEP_END;
    case SEG_HUPD:      set_loop(g, k, j + 1, 0, 0); return SEG_ATT;
    case SEG_STEP_END:
        if (k < p->xmax) {
            set_loop(g, k + 1, 0, 0, 0);
            return SEG_STEP;
        }
        return SEG_EXIT;
    default:            return GM_SEG_DONE;
    }
}

/* Element off of each active thread's slice (stride floats per thread). */
static void slice_addr(gm_inst *in, uint32_t cta, uint64_t base, uint64_t stride, uint64_t off)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint64_t tid = (uint64_t)cta * TPB + l;
        in->addr[l] = (in->mask >> l & 1) ? base + 4 * (tid * stride + off) : 0;
    }
}

static void k2_addr(const gm_myocyte_params *p, uint32_t cta, uint32_t st, int m, gm_inst *in)
{
    const gm_myo_access *a = &p->k2_mem[m];
    switch (a->arr) {
    case 'I': slice_addr(in, cta, p->initvalu_temp, E, a->idx); break;
    case 'P':
        slice_addr(in, cta, p->params, GM_MYO_PARAMETERS, a->idx);
        in->flags = GM_INST_READ_ONLY;
        break;
    case 'C':
        slice_addr(in, cta, p->com, 3, a->idx);
        in->flags = GM_INST_READ_ONLY;
        break;
    default: slice_addr(in, cta, p->finavalu_temp, GM_MYO_STAGES * E, st * E + a->idx); break;
    }
}

static void myo_addr(const gm_kernel *kern, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_myocyte_params *p = kern->params;
    uint32_t c = g->cta, k = cur_k(g), st = cur_s(g), i = (uint32_t)g->v[2];
    uint64_t ys = (uint64_t)(p->xmax + 1) * E, yi = (uint64_t)(k - 1) * E + i, yc = yi + E;
    uint64_t ft = GM_MYO_STAGES * E;

    in->width = 4;
    in->flags = 0;
    switch (s) {
    case SEG_STEP:
    case SEG_ATT:
    case SEG_HUPD:
    case SEG_STEP_END: slice_addr(in, c, p->x, p->xmax + 1, k); break;
    case SEG_STAGE_I:
        if (m == 0)
            slice_addr(in, c, p->y, ys, yi);
        else if (m <= stage_terms[st][0])
            slice_addr(in, c, p->finavalu_temp, ft, stage_terms[st][m] * E + i);
        else
            slice_addr(in, c, p->initvalu_temp, E, i);
        break;
    case SEG_K2: k2_addr(p, c, st, m, in); break;
    case SEG_NAN_I: slice_addr(in, c, p->finavalu_temp, ft, st * E + i); break;
    case SEG_FINAL_I:
        if (m == 0)
            slice_addr(in, c, p->y, ys, yi);
        else if (m <= (int)sizeof final_terms)
            slice_addr(in, c, p->finavalu_temp, ft, final_terms[m - 1] * E + i);
        else
            slice_addr(in, c, p->y, ys, yc);
        break;
    case SEG_ERR_I:
        if (m < (int)sizeof error_terms)
            slice_addr(in, c, p->finavalu_temp, ft, error_terms[m] * E + i);
        else
            slice_addr(in, c, p->err, E, i);
        break;
    case SEG_CHK_I: slice_addr(in, c, p->err, E, i); break;
    case SEG_SCALE_I: {
        static const char order[] = {'y', 'Y', 'e', 's'};   /* y, yy, err, scale */
        switch (order[m]) {
        case 'y': slice_addr(in, c, p->y, ys, yi); break;
        case 'Y': slice_addr(in, c, p->yy, E, i); break;
        case 'e': slice_addr(in, c, p->err, E, i); break;
        default:  slice_addr(in, c, p->scale, E, i); break;
        }
        break;
    }
    case SEG_OUT_I: slice_addr(in, c, m ? p->yy : p->err, E, i); break;
    default: break;
    }
}

static const gm_segprog myo_prog = {4, myo_seg, myo_next, myo_addr};

static int myo_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    return gm_segprog_gen(&myo_prog, k, g, out, max);
}

/* kernel_2's letters and accesses from k2_table. */
static void build_k2(gm_myocyte_params *p)
{
    size_t n = 0, m = 0;
    for (size_t e = 0; e < sizeof k2_table / sizeof k2_table[0]; e++) {
        const k2_entry *t = &k2_table[e];
        memset(p->k2_prog + n, 'A', t->alu);
        n += t->alu;
        memset(p->k2_prog + n, 'Q', t->dp);
        n += t->dp;
        memset(p->k2_prog + n, 'S', t->sfu);
        n += t->sfu;
        if (t->op == 'B') {
            p->k2_prog[n++] = 'P';
            p->k2_prog[n++] = 'B';
        } else if (t->op == 'L' || t->op == 'S') {
            p->k2_prog[n++] = t->op == 'L' ? 'L' : 'T';
            p->k2_mem[m].arr = t->arr;
            p->k2_mem[m].idx = t->idx;
            m++;
        }
    }
    p->k2_prog[n] = 0;
}

int gm_myocyte_build_dims(gm_workload *w, uint32_t xmax, uint32_t workload, uint64_t seed,
                          gm_error *err)
{
    /* main.c takes xmax > 0 (xmax == xmin returns at once) and work_2
     * refuses more than 1e9 bytes of y */
    if (!xmax || xmax > MAX_XMAX || !workload ||
        (uint64_t)workload * (xmax + 1) * E * 4 > 1000000000ull)
        return gm_fail(err, "myocyte: bad span %u or instances %u (1..%u, 1..; "
                       "instances*(span+1)*364 <= 1e9 B)", xmax, workload, MAX_XMAX);
    if (gm_workload_alloc(w, "myocyte", 1, sizeof(gm_myocyte_params) + xmax + 1, err))
        return -1;

    gm_myocyte_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    p->xmax = xmax;
    p->workload = workload;
    p->y = gm_devmem_alloc(&mem, (uint64_t)workload * (xmax + 1) * E * 4);
    p->x = gm_devmem_alloc(&mem, (uint64_t)workload * (xmax + 1) * 4);
    p->params = gm_devmem_alloc(&mem, (uint64_t)workload * GM_MYO_PARAMETERS * 4);
    p->com = gm_devmem_alloc(&mem, (uint64_t)workload * 3 * 4);
    p->err = gm_devmem_alloc(&mem, (uint64_t)workload * E * 4);
    p->scale = gm_devmem_alloc(&mem, (uint64_t)workload * E * 4);
    p->yy = gm_devmem_alloc(&mem, (uint64_t)workload * E * 4);
    p->initvalu_temp = gm_devmem_alloc(&mem, (uint64_t)workload * E * 4);
    p->finavalu_temp = gm_devmem_alloc(&mem, (uint64_t)workload * GM_MYO_STAGES * E * 4);
    build_k2(p);

    gm_prng rng;
    gm_prng_seed(&rng, seed, 0x3c7e);
    for (uint32_t k = 1; k <= xmax; k++) {
        uint64_t r = gm_prng_below(&rng, 4);
        p->attempts[k] = (uint8_t)(r < 2 ? 1 : r);
    }

    uint32_t blocks = workload == 1 ? 4 : (workload + TPB - 1) / TPB;
    gm_kernel_set(&w->kernels[0], "solver_2", gm_dim3_make(blocks, 1, 1),
                  gm_dim3_make(TPB, 1, 1), p, myo_gen);
    return 0;
}

int gm_myocyte_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: the run script's span (100 ms) with the CCN seed's 100
     * instances in mode 1; tiny and small keep a few steps */
    static const uint32_t xmax[] = {1, 4, 100, 4}, instances[] = {32, 480, 100, 480};

    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "myocyte: bad size %d", (int)size);
    return gm_myocyte_build_dims(w, xmax[size], instances[size], seed, err);
}
