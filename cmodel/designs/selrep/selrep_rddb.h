/* gm_selrep_rddb: the Replication Degree Directory as a clocked block, the
 * golden model of rtl/gm_selrep_rdd.sv. It wraps the RDD of selrep_rdd.h
 * (tags, ClusterIDs, counters, bandwidth model) in the block contract
 * (SPEC 2.1, 2.2) so that the SelRep design and the RTL twin share one
 * fixed-width port struct:
 *
 *   gm_selrep_rddb_eval(b, out)  Moore outputs, from the registers only.
 *   gm_selrep_rddb_tick(b, in)   the clock edge.
 *
 * Port fields, Verilog port = C field name with _i / _o (widths: SetW =
 * clog2(sets), TagW = tag_bits, ClW = clog2(clusters), SlW = clog2(slices),
 * DegW = clog2(ndeg), all at least 1; CntW = counter_bits; BwW = 10;
 * SumW = CntW + clog2(slices); QW = clog2(slices) + BwW + 16):
 *
 *   inputs (gm_selrep_rddb_in)
 *     acc_valid     1      a read-only access to sampled set acc_set
 *     acc_set       SetW
 *     acc_tag       TagW   line address, low TagW bits
 *     acc_cluster   ClW    SM-cluster of the requester
 *     req_valid[k]  1      lane k: a read-only request homed in local slice
 *     req_home[k]   SlW      req_home of the RDD's MC-router, from cluster
 *     req_cluster[k] ClW     req_cluster (k < lanes; Verilog: flat vectors)
 *     epoch         1      epoch end: decide (only while busy is 0)
 *     cand          ndeg   degree indices the decision may choose
 *     keep          DegW   the degree index kept when every B is 0 (no request
 *                          or no sampled access in the epoch)
 *     b_llc, b_mem  BwW    bandwidth of a slice and a slice's DRAM share
 *   outputs (gm_selrep_rddb_out)
 *     busy          1      deciding; accesses and requests are ignored
 *     bw_valid      1      one degree's result: bw_deg DegW, bw QW (B,
 *                          16 fractional bits), bw_sum SumW and bw_max CntW
 *                          (sum and max of its per-slice request counters),
 *                          bw_hits CntW, bw_acc CntW
 *     deg_valid     1      the decision: deg DegW
 * A field whose valid bit is 0 is 0.
 *
 * Timing. Counting: at an edge with busy 0, the access and every valid
 * request lane update the tags and saturating counters (lanes of one edge
 * add up, then saturate). An edge with epoch 1 (and busy 0) counts that
 * cycle's inputs too, then starts the decision: per degree index d = 0 ..
 * ndeg-1 one load edge (sum, max, T and the operands of the division into
 * registers) and QW edges of restoring division (one quotient bit each,
 * MSB first), so bw_valid of degree d is seen (QW+1)*(d+1) cycles after
 * the epoch edge's cycle plus one, and deg_valid with the last degree's
 * bw_valid, gm_selrep_rddb_latency() cycles after the epoch cycle (the
 * cycle whose epoch input is 1). The
 * counters are cleared at that last edge; tags and ClusterIDs stay. The
 * choice is gm_selrep_pick's: largest B among cand, ties to the smallest
 * degree, B = 0 never chosen, keep when nothing qualifies. */
#ifndef GM_DESIGNS_SELREP_RDDB_H
#define GM_DESIGNS_SELREP_RDDB_H

#include <stdbool.h>
#include <stdint.h>

#include "designs/selrep/selrep_rdd.h"
#include "sim/error.h"

#define GM_SELREP_RDDB_MAX_LANES 8u
#define GM_SELREP_RDDB_BW_BITS 10u

typedef struct gm_selrep_rddb_in {
    uint8_t acc_valid;
    uint32_t acc_set;
    uint64_t acc_tag;
    uint8_t acc_cluster;
    uint8_t req_valid[GM_SELREP_RDDB_MAX_LANES];
    uint8_t req_home[GM_SELREP_RDDB_MAX_LANES];
    uint8_t req_cluster[GM_SELREP_RDDB_MAX_LANES];
    uint8_t epoch;
    uint8_t cand;
    uint8_t keep;
    uint16_t b_llc;
    uint16_t b_mem;
} gm_selrep_rddb_in;

typedef struct gm_selrep_rddb_out {
    uint8_t busy;
    uint8_t bw_valid;
    uint8_t bw_deg;
    uint64_t bw;
    uint32_t bw_sum;
    uint32_t bw_max;
    uint32_t bw_hits;
    uint32_t bw_acc;
    uint8_t deg_valid;
    uint8_t deg;
} gm_selrep_rddb_out;

/* The block's parameters (Verilog parameters of the same meaning). */
typedef struct gm_selrep_rddb_params {
    uint32_t sets, ways;      /* sampled sets and their ways, >= 1 */
    uint32_t clusters;        /* SM-clusters, a power of two up to 64 */
    uint32_t slices;          /* slices of the MC-router, a power of two up to 64 */
    uint32_t ndeg;            /* degree indices, 1 .. log2(min(clusters, slices)) + 1 */
    uint32_t counter_bits;    /* CntW, 1 .. gm_selrep_max_counter_bits(slices) */
    uint32_t tag_bits;        /* TagW, 1 .. 64 */
    uint32_t lanes;           /* request lanes, 1 .. GM_SELREP_RDDB_MAX_LANES */
    bool capacity;            /* Capacity: the LRU capacity test of a hit */
} gm_selrep_rddb_params;

typedef struct gm_selrep_rddb {
    gm_selrep_rddb_params p;
    gm_selrep_geom g;         /* only clusters, per_mc, ndeg are used */
    uint32_t qw;              /* quotient bits = division edges per degree */
    /* ---- registers: the state of the RTL twin ---- */
    gm_selrep_rdd rdd;        /* tags, ClusterIDs, LRU, counters */
    bool busy;
    uint32_t d, step;         /* degree being computed; 0 = load, 1..qw = division */
    uint64_t b[GM_SELREP_MAX_DEG];  /* results, computed at the epoch edge: the
                                       counters cannot change while busy */
    uint32_t pick;
    gm_selrep_counters snap;  /* the counters the decision reads */
    gm_selrep_rddb_out out;   /* output registers */
} gm_selrep_rddb;

/* An RTL twin of the RDD block for system co-simulation (the router's
 * gm_router_twin of noc/net.h, for this block): while one is attached the
 * design reads the twin's outputs, runs the C block in shadow on the same
 * inputs and has `compare` check every output field every cycle (nonzero:
 * a divergence, which the twin's owner reports and stops the run on). */
typedef struct gm_selrep_rdd_twin {
    void *ctx;
    void (*eval)(void *ctx, gm_selrep_rddb_out *out);
    void (*tick)(void *ctx, const gm_selrep_rddb_in *in);
    int (*compare)(void *ctx, uint64_t cycle, const gm_selrep_rddb_out *expected,
                   const gm_selrep_rddb_out *actual);
} gm_selrep_rdd_twin;

int gm_selrep_rddb_init(gm_selrep_rddb *b, const gm_selrep_rddb_params *p, gm_error *err);
void gm_selrep_rddb_free(gm_selrep_rddb *b);
void gm_selrep_rddb_eval(const gm_selrep_rddb *b, gm_selrep_rddb_out *out);
void gm_selrep_rddb_tick(gm_selrep_rddb *b, const gm_selrep_rddb_in *in);
/* Cycles from an epoch cycle to the cycle deg_valid is seen:
 * ndeg * (qw + 1) + 1. */
uint32_t gm_selrep_rddb_latency(const gm_selrep_rddb *b);
/* Quotient bits of B: clog2(slices) + BwW + 16. */
uint32_t gm_selrep_rddb_qw(uint32_t slices);

#endif
