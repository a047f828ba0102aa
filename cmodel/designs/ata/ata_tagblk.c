#include "designs/ata/ata_tagblk.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mask_bits(uint32_t bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

int gm_ata_tblk_init(gm_ata_tblk *b, uint32_t arrays, uint32_t sets, uint32_t ways,
                     uint32_t tag_bits, uint32_t ports, uint32_t sectors, gm_error *err)
{
    memset(b, 0, sizeof *b);
    if (arrays < 1 || arrays > GM_ATA_TBLK_MAX_ARRAYS || ports < 1 ||
        ports > GM_ATA_TBLK_MAX_PORTS || sectors < 1 || sectors > GM_ATA_TBLK_MAX_SECTORS ||
        tag_bits < 1 || tag_bits > GM_ATA_TBLK_MAX_TAG || sets < 1 || ways < 1)
        return gm_fail(err, "ata tag block: arrays %u (1..%u), ports %u (1..%u), sectors %u "
                            "(1..%u), tag bits %u (1..%u), sets %u, ways %u (>= 1)",
                       arrays, GM_ATA_TBLK_MAX_ARRAYS, ports, GM_ATA_TBLK_MAX_PORTS, sectors,
                       GM_ATA_TBLK_MAX_SECTORS, tag_bits, GM_ATA_TBLK_MAX_TAG, sets, ways);
    b->way = calloc((size_t)arrays * sets * ways, sizeof *b->way);
    if (!b->way)
        return gm_fail(err, "out of memory for the ata tag block");
    b->arrays = arrays;
    b->sets = sets;
    b->ways = ways;
    b->tag_bits = tag_bits;
    b->ports = ports;
    b->sectors = sectors;
    gm_ata_tblk_reset(b);
    return 0;
}

void gm_ata_tblk_free(gm_ata_tblk *b)
{
    free(b->way);
    b->way = NULL;
}

void gm_ata_tblk_reset(gm_ata_tblk *b)
{
    for (uint32_t n = 0; n < b->arrays; n++)
        for (uint32_t s = 0; s < b->sets; s++)
            for (uint32_t w = 0; w < b->ways; w++)
                *gm_ata_tblk_at(b, n, s, w) = (gm_ata_tblk_way){.age = w};
    memset(b->rv, 0, sizeof b->rv);
    memset(b->rset, 0, sizeof b->rset);
    memset(b->rtag, 0, sizeof b->rtag);
    memset(b->rsec, 0, sizeof b->rsec);
    memset(b->ev_valid, 0, sizeof b->ev_valid);
    memset(b->ev_tag, 0, sizeof b->ev_tag);
}

/* The set index as the RTL's SetW-bit port carries it. */
static uint32_t set_bits(const gm_ata_tblk *b)
{
    uint32_t w = 1;
    while ((1u << w) < b->sets)
        w++;
    return w;
}

void gm_ata_tblk_eval(const gm_ata_tblk *b, gm_ata_tblk_out *out)
{
    memset(out, 0, sizeof *out);
    uint8_t smask = (uint8_t)mask_bits(b->sectors);
    for (uint32_t p = 0; p < b->ports; p++) {
        out->hit_valid[p] = b->rv[p];
        if (!b->rv[p] || b->rset[p] >= b->sets)
            continue; /* the tag selector of an absent set selects nothing */
        uint8_t need = b->rsec[p] & smask;
        for (uint32_t n = 0; n < b->arrays; n++)
            for (uint32_t w = 0; w < b->ways; w++) {
                const gm_ata_tblk_way *x = gm_ata_tblk_at(b, n, b->rset[p], w);
                if (x->used && x->tag == b->rtag[p] && (x->sectors & need) == need) {
                    out->hit_vec[p] |= 1u << n;
                    break;
                }
            }
    }
    for (uint32_t n = 0; n < b->arrays; n++) {
        out->evict_valid[n] = b->ev_valid[n];
        out->evict_tag[n] = b->ev_tag[n];
    }
}

static void touch(gm_ata_tblk *b, uint32_t n, uint32_t s, uint32_t target)
{
    uint32_t old = gm_ata_tblk_at(b, n, s, target)->age;
    for (uint32_t w = 0; w < b->ways; w++) {
        gm_ata_tblk_way *x = gm_ata_tblk_at(b, n, s, w);
        if (w == target)
            x->age = 0;
        else if (x->age < old)
            x->age++;
    }
}

static void update(gm_ata_tblk *b, uint32_t n, const gm_ata_tblk_in *in)
{
    b->ev_valid[n] = 0;
    b->ev_tag[n] = 0;
    if (!in->upd_valid[n] || in->upd_set[n] >= b->sets)
        return;
    uint32_t s = in->upd_set[n];
    uint64_t tag = in->upd_tag[n] & mask_bits(b->tag_bits);
    uint8_t sec = in->upd_sectors[n] & (uint8_t)mask_bits(b->sectors);
    int32_t match = -1, free_way = -1, lru = -1;
    for (uint32_t w = 0; w < b->ways; w++) {
        const gm_ata_tblk_way *x = gm_ata_tblk_at(b, n, s, w);
        if (x->used && x->tag == tag)
            match = (int32_t)w;
        if (!x->used && free_way < 0)
            free_way = (int32_t)w;
        if (x->age == b->ways - 1)
            lru = (int32_t)w;
    }
    switch (in->upd_op[n]) {
    case GM_ATA_OP_TOUCH:
        if (match >= 0)
            touch(b, n, s, (uint32_t)match);
        break;
    case GM_ATA_OP_FILL: {
        if (match >= 0) {
            gm_ata_tblk_at(b, n, s, (uint32_t)match)->sectors |= sec;
            touch(b, n, s, (uint32_t)match);
            break;
        }
        uint32_t v = (uint32_t)(free_way >= 0 ? free_way : lru);
        gm_ata_tblk_way *x = gm_ata_tblk_at(b, n, s, v);
        b->ev_valid[n] = x->used;
        b->ev_tag[n] = x->used ? x->tag : 0;
        x->tag = tag;
        x->used = 1;
        x->sectors = sec;
        touch(b, n, s, v);
        break;
    }
    case GM_ATA_OP_INVAL:
        if (match >= 0) {
            gm_ata_tblk_way *x = gm_ata_tblk_at(b, n, s, (uint32_t)match);
            x->used = 0;
            x->sectors = 0;
            x->tag = 0;
        }
        break;
    default: /* reserved: the RTL asserts it never comes */
        break;
    }
}

void gm_ata_tblk_tick(gm_ata_tblk *b, const gm_ata_tblk_in *in)
{
    for (uint32_t n = 0; n < b->arrays; n++)
        update(b, n, in);
    uint32_t smask = (uint32_t)mask_bits(set_bits(b));
    for (uint32_t p = 0; p < b->ports; p++) {
        b->rv[p] = in->req_valid[p] & 1u;
        b->rset[p] = in->req_set[p] & smask;
        b->rtag[p] = in->req_tag[p] & mask_bits(b->tag_bits);
        b->rsec[p] = in->req_sectors[p] & (uint8_t)mask_bits(b->sectors);
    }
}
