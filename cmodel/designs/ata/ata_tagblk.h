/* The C twin of rtl/gm_ata_tags.sv: the banked aggregated tag array of one
 * cluster as a synchronous block with the RTL's ports (SPEC section 2;
 * docs/designs/ata.md section 9). The port structs map one-to-one onto the
 * Verilog ports: element p of a flat Verilog vector is element p of the
 * array field of the same name (req_set_i[p*SetW +: SetW] is
 * in.req_set[p]).
 *
 * eval gives the Moore outputs from the registered state: per request port
 * the hit vector of the request registered at the last edge against the
 * tag state after that edge's updates (bit n: array n holds the tag in the
 * request's set with every sector of its mask valid), and per array the
 * line the last edge's fill replaced. tick commits one edge: per array its
 * update (touch, fill, invalidate; at most one per array and cycle), then
 * the requests are registered. LRU and victim choice are those of the RTL
 * header comment: exact LRU as per-way ages, a fill takes the way holding
 * the tag, else the lowest-numbered free way, else the least recently used
 * one. */
#ifndef GM_DESIGNS_ATA_TAGBLK_H
#define GM_DESIGNS_ATA_TAGBLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/error.h"

#define GM_ATA_TBLK_MAX_PORTS 32u
#define GM_ATA_TBLK_MAX_ARRAYS 32u   /* hit vectors are 32-bit */
#define GM_ATA_TBLK_MAX_SECTORS 8u   /* sector masks are 8-bit */
#define GM_ATA_TBLK_MAX_TAG 64u

/* upd_op */
enum { GM_ATA_OP_TOUCH = 0, GM_ATA_OP_FILL = 1, GM_ATA_OP_INVAL = 2 };

typedef struct gm_ata_tblk_in {
    uint8_t req_valid[GM_ATA_TBLK_MAX_PORTS];
    uint32_t req_set[GM_ATA_TBLK_MAX_PORTS];
    uint64_t req_tag[GM_ATA_TBLK_MAX_PORTS];
    uint8_t req_sectors[GM_ATA_TBLK_MAX_PORTS];
    uint8_t upd_valid[GM_ATA_TBLK_MAX_ARRAYS];
    uint8_t upd_op[GM_ATA_TBLK_MAX_ARRAYS];
    uint32_t upd_set[GM_ATA_TBLK_MAX_ARRAYS];
    uint64_t upd_tag[GM_ATA_TBLK_MAX_ARRAYS];
    uint8_t upd_sectors[GM_ATA_TBLK_MAX_ARRAYS];
} gm_ata_tblk_in;

typedef struct gm_ata_tblk_out {
    uint8_t hit_valid[GM_ATA_TBLK_MAX_PORTS];
    uint32_t hit_vec[GM_ATA_TBLK_MAX_PORTS];
    uint8_t evict_valid[GM_ATA_TBLK_MAX_ARRAYS];
    uint64_t evict_tag[GM_ATA_TBLK_MAX_ARRAYS];
} gm_ata_tblk_out;

/* One way: the RTL's entry {sectors, used, tag} and its age. */
typedef struct gm_ata_tblk_way {
    uint64_t tag;
    uint8_t used;
    uint8_t sectors;
    uint32_t age;   /* 0 = most recently used */
} gm_ata_tblk_way;

typedef struct gm_ata_tblk {
    /* parameters (the RTL's) */
    uint32_t arrays, sets, ways, tag_bits, ports, sectors;
    /* registered state */
    gm_ata_tblk_way *way;   /* [arrays][sets][ways] */
    uint8_t rv[GM_ATA_TBLK_MAX_PORTS];
    uint32_t rset[GM_ATA_TBLK_MAX_PORTS];
    uint64_t rtag[GM_ATA_TBLK_MAX_PORTS];
    uint8_t rsec[GM_ATA_TBLK_MAX_PORTS];
    uint8_t ev_valid[GM_ATA_TBLK_MAX_ARRAYS];
    uint64_t ev_tag[GM_ATA_TBLK_MAX_ARRAYS];
} gm_ata_tblk;

/* A second implementation of the block (its Verilated RTL) for system
 * co-simulation, shaped as gm_router_twin (noc/net.h): at every edge of
 * the block the owner clocks the twin with the same inputs as the C
 * block (tick), takes the twin's outputs (eval) in place of the C
 * block's, and hands both to compare(), which returns non-zero on a
 * divergence (the twin's owner stops the run). */
typedef struct gm_ata_tblk_twin {
    void *ctx;
    void (*eval)(void *ctx, gm_ata_tblk_out *out);
    void (*tick)(void *ctx, const gm_ata_tblk_in *in);
    int (*compare)(void *ctx, uint64_t cycle, const gm_ata_tblk_out *expected,
                   const gm_ata_tblk_out *actual);
} gm_ata_tblk_twin;

int gm_ata_tblk_init(gm_ata_tblk *b, uint32_t arrays, uint32_t sets, uint32_t ways,
                     uint32_t tag_bits, uint32_t ports, uint32_t sectors, gm_error *err);
void gm_ata_tblk_free(gm_ata_tblk *b);
/* The RTL's reset: every way free, way w of every set at age w, nothing
 * registered. */
void gm_ata_tblk_reset(gm_ata_tblk *b);
void gm_ata_tblk_eval(const gm_ata_tblk *b, gm_ata_tblk_out *out);
void gm_ata_tblk_tick(gm_ata_tblk *b, const gm_ata_tblk_in *in);

static inline gm_ata_tblk_way *gm_ata_tblk_at(const gm_ata_tblk *b, uint32_t n, uint32_t s,
                                              uint32_t w)
{
    return &b->way[((size_t)n * b->sets + s) * b->ways + w];
}

#endif
