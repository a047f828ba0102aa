/* Segment programs: a warp's instruction stream written as a chain of
 * segments, each a string of instruction letters executed under one lane
 * mask. Used by the emulators whose per-thread code is straight-line
 * global-memory work with a few divergent branches and loops (Rodinia
 * cfd, hotspot3D, nn; PolyBench doitgen), so each kernel file holds only
 * its index math, its segment strings and its branch decisions.
 *
 * Letters (one warp instruction each):
 *   I  integer index arithmetic (S2R, IMAD, IADD of an address): writes
 *      the index register; reads it unless it is the segment's first I
 *      of the warp's first segment
 *   Z  a register set from a constant or a kernel argument (accumulator z)
 *   L  global load: writes load register m (m-th load of the segment),
 *      reads the index register; address from the kernel's callback
 *   T  global store: reads the index register and the oldest unread
 *      loaded register if any (a copy), else accumulator m % nacc
 *   A  ALU / FP32 arithmetic, S  SFU (sqrt, reciprocal): writes
 *      accumulator r % nacc (r: arithmetic op of the segment) and reads
 *      the oldest unread loaded registers (up to 3); with fewer than 3 it
 *      also reads the accumulator it writes
 *   P  ISETP: writes the predicate register, reads the index register
 *   B  branch on the predicate
 *   X  EXIT (the warp's last instruction)
 * and, for kernels that also use on-chip and read-only spaces or double
 * precision (Rodinia leukocyte, heartwall, myocyte), letters that behave
 * as L (loads), T (stores) or A with another opcode; load and store
 * addresses come from the same callback:
 *   C  constant load, E  texture load, D  shared load (as L)
 *   W  shared store (as T)
 *   Q  double-precision arithmetic (as A)
 *   R  __syncthreads (the segment's mask must hold every existing lane)
 * so every loaded value is read in the segment that loads it and every
 * register is written before it is read (the contract the workload tests
 * check). Accumulators must be set by Z before an A/S/T reads them. */
#ifndef GM_WORKLOAD_KERNELS_SEGPROG_H
#define GM_WORKLOAD_KERNELS_SEGPROG_H

#include <stdint.h>

#include "workload/workload.h"

#define GM_SEG_DONE (-1)

typedef struct gm_seg {
    const char *prog;   /* letters */
    uint32_t mask;      /* lanes that run it; 0: skipped */
} gm_seg;

typedef struct gm_segprog {
    uint8_t nacc;       /* accumulator registers, 1..8 */
    /* Segment s of warp g (loop counters in g->v[1], g->v[2]). */
    void (*seg)(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out);
    /* The segment after s, updating the loop counters; GM_SEG_DONE after
     * the segment holding X. */
    int (*next)(const gm_kernel *k, gm_warp_gen *g, int s);
    /* Fills in->addr (active lanes; 0 elsewhere), width and flags of the
     * m-th memory instruction (loads and stores of every space counted
     * together) of segment s; in->op is already set. */
    void (*addr)(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in);
} gm_segprog;

/* The kernel generator body: writes up to max instructions of warp g. */
int gm_segprog_gen(const gm_segprog *sp, const gm_kernel *k, gm_warp_gen *g, gm_inst *out,
                   int max);

#endif
