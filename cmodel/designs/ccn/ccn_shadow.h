/* gm_shadow_tags: the shadow tag array of one CCN node (seed section 4.3),
 * the C twin of rtl/gm_shadow_tags.sv. An exact copy of the valid bits and
 * tags of one L1's tag array, written by up to two tag updates per cycle
 * (a fill's allocation and a store's invalidation can fall in one core
 * cycle), looked up by the ring request at the head of the node's ReqQ.
 *
 * Ports map one-to-one onto the Verilog ports (names without _i/_o).
 * Outputs are registered (SPEC 2.2): a lookup presented in cycle t is
 * answered in cycle t+1, against the array as written at the end of cycle
 * t (write port 0, then write port 1: on the same entry port 1 wins). A
 * hit also raises `steal` for that one cycle: the request to take one
 * cycle of the L1 data array to read the line. */
#ifndef GM_DESIGNS_CCN_SHADOW_H
#define GM_DESIGNS_CCN_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

#define GM_SHADOW_MAX_TAG_BITS 48u

typedef struct gm_shadow_tags_in {
    uint8_t wr0_valid;      /* write port 0: entry (wr0_set, wr0_way) becomes */
    uint16_t wr0_set;       /*   valid = wr0_tag_valid, tag = wr0_tag */
    uint8_t wr0_way;
    uint8_t wr0_tag_valid;
    uint64_t wr0_tag;
    uint8_t wr1_valid;      /* write port 1, applied after port 0 */
    uint16_t wr1_set;
    uint8_t wr1_way;
    uint8_t wr1_tag_valid;
    uint64_t wr1_tag;
    uint8_t lk_valid;       /* lookup of (lk_set, lk_tag) */
    uint16_t lk_set;
    uint64_t lk_tag;
} gm_shadow_tags_in;

typedef struct gm_shadow_tags_out {
    uint8_t lk_done;        /* a lookup was presented last cycle */
    uint8_t lk_hit;         /* ... and some valid way of its set holds its tag */
    uint8_t lk_way;         /* the lowest such way (0 when no hit) */
    uint8_t steal;          /* take one L1 data-array cycle (= lk_hit) */
} gm_shadow_tags_out;

typedef struct gm_shadow_tags {
    uint32_t sets, ways, tag_bits;
    uint8_t *valid;         /* [sets * ways] */
    uint64_t *tag;          /* [sets * ways] */
    gm_shadow_tags_out q;   /* registered outputs */
} gm_shadow_tags;

/* A second implementation of the block (its Verilated RTL) that answers
 * lookups in place of the C model during system co-simulation, as
 * gm_router_twin does for a router (noc/net.h): each cycle the node takes
 * the twin's outputs (eval) and uses them; the C model runs in shadow on
 * the same inputs (tick) and compare() gets both outputs, returning
 * non-zero on a divergence (the twin's owner stops the run). */
typedef struct gm_shadow_twin {
    void *ctx;
    void (*eval)(void *ctx, gm_shadow_tags_out *out);
    void (*tick)(void *ctx, const gm_shadow_tags_in *in);
    int (*compare)(void *ctx, uint64_t cycle, const gm_shadow_tags_out *expected,
                   const gm_shadow_tags_out *actual);
} gm_shadow_twin;

/* sets 1..65536, ways 1..255, tag_bits 1..GM_SHADOW_MAX_TAG_BITS. All
 * entries invalid after init (the reset state). */
int gm_shadow_tags_init(gm_shadow_tags *st, uint32_t sets, uint32_t ways, uint32_t tag_bits,
                        gm_error *err);
void gm_shadow_tags_free(gm_shadow_tags *st);
void gm_shadow_tags_reset(gm_shadow_tags *st);
void gm_shadow_tags_eval(const gm_shadow_tags *st, gm_shadow_tags_out *out);
/* One clock edge with inputs in (fields outside their widths are a
 * caller's bug: set < sets, way < ways, tag < 2^tag_bits). */
void gm_shadow_tags_tick(gm_shadow_tags *st, const gm_shadow_tags_in *in);

#endif
