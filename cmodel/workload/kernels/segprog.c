/* Segment-program interpreter (segprog.h). All state lives in the warp's
 * gm_warp_gen: v[0] segment, pc letter index, v[3] loads issued and v[4]
 * loads read in the segment, v[5] arithmetic ops, v[6] memory ops, v[7]
 * Z count | stores << 16; v[1], v[2] belong to the kernel. */
#include "workload/kernels/segprog.h"

#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

enum {   /* registers */
    R_IDX = 0, R_PRED, R_ACC0, R_LD0 = R_ACC0 + 8
};

#define PC_DONE UINT32_MAX

static void seg_reset(gm_warp_gen *g, int s)
{
    g->v[0] = s;
    g->pc = 0;
    g->v[3] = g->v[4] = g->v[5] = g->v[6] = g->v[7] = 0;
}

/* The next unread loaded register, or R_NONE. */
static uint8_t take_load(gm_warp_gen *g)
{
    if (g->v[4] >= g->v[3])
        return R_NONE;
    return (uint8_t)(R_LD0 + g->v[4]++);
}

static gm_op load_op(char c)
{
    switch (c) {
    case 'C': return GM_OP_CONST_LD;
    case 'E': return GM_OP_TEX_LD;
    case 'D': return GM_OP_SHARED_LD;
    default: return GM_OP_GLOBAL_LD;
    }
}

static gm_op arith_op(char c)
{
    return c == 'A' ? GM_OP_ALU : c == 'S' ? GM_OP_SFU : GM_OP_DP;
}

/* Moves to the first segment after s with a non-empty mask. Returns 0 at
 * the end of the program. */
static int advance(const gm_segprog *sp, const gm_kernel *k, gm_warp_gen *g, int s,
                   gm_seg *seg)
{
    for (;;) {
        s = sp->next(k, g, s);
        if (s == GM_SEG_DONE)
            return 0;
        seg_reset(g, s);
        sp->seg(k, g, s, seg);
        if (seg->mask)
            return 1;
    }
}

int gm_segprog_gen(const gm_segprog *sp, const gm_kernel *k, gm_warp_gen *g, gm_inst *out,
                   int max)
{
    gm_seg seg;
    int n = 0;

    if (g->pc == PC_DONE)
        return 0;
    sp->seg(k, g, (int)g->v[0], &seg);
    if (!seg.mask && !advance(sp, k, g, (int)g->v[0], &seg)) {
        g->pc = PC_DONE;
        return 0;
    }
    while (n < max) {
        char c = seg.prog[g->pc];
        if (!c) {
            if (!advance(sp, k, g, (int)g->v[0], &seg))
                break;
            continue;
        }
        gm_inst *in = &out[n++];
        uint32_t m = seg.mask;
        uint8_t acc = (uint8_t)(R_ACC0 + g->v[5] % sp->nacc);
        switch (c) {
        case 'I': {
            int first = g->v[0] == 0 && g->pc == 0;
            gm_emit(in, GM_OP_ALU, m, R_IDX, first ? R_NONE : R_IDX, R_NONE, R_NONE);
            break;
        }
        case 'Z': {
            int z = (int)(g->v[7] & 0xffff);
            gm_emit(in, GM_OP_ALU, m, (uint8_t)(R_ACC0 + z % sp->nacc), R_NONE, R_NONE, R_NONE);
            g->v[7]++;
            break;
        }
        case 'L': case 'C': case 'E': case 'D':
            gm_emit_mem(in, load_op(c), m, (uint8_t)(R_LD0 + g->v[3]), R_IDX, R_NONE, 4, 0);
            g->v[3]++;
            sp->addr(k, g, (int)g->v[0], (int)g->v[6]++, in);
            break;
        case 'T': case 'W': {
            uint8_t val = take_load(g);
            int st = (int)(g->v[7] >> 16);
            if (val == R_NONE)
                val = (uint8_t)(R_ACC0 + st % sp->nacc);
            gm_emit_mem(in, c == 'T' ? GM_OP_GLOBAL_ST : GM_OP_SHARED_ST, m, R_NONE, R_IDX, val,
                        4, 0);
            g->v[7] += 1 << 16;
            sp->addr(k, g, (int)g->v[0], (int)g->v[6]++, in);
            break;
        }
        case 'A':
        case 'S':
        case 'Q': {
            uint8_t a = take_load(g), b = take_load(g), d = R_NONE;
            if (b != R_NONE)
                d = take_load(g);
            gm_emit(in, arith_op(c), m, acc, d == R_NONE ? acc : d, a, b);
            g->v[5]++;
            break;
        }
        case 'R': gm_emit(in, GM_OP_BARRIER, m, R_NONE, R_NONE, R_NONE, R_NONE); break;
        case 'P': gm_emit(in, GM_OP_ALU, m, R_PRED, R_IDX, R_NONE, R_NONE); break;
        case 'B': gm_emit(in, GM_OP_BRANCH, m, R_NONE, R_PRED, R_NONE, R_NONE); break;
        case 'X':
            return gm_gen_exit(g, in, m, PC_DONE, n);
        default:   /* a bad letter is a bug in a kernel table: end the warp */
            return gm_gen_stop(g, PC_DONE, n);
        }
        g->pc++;
    }
    return n;
}
