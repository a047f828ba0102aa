#include "designs/ata/ata_tags.h"

#include "sim/req.h"

uint32_t gm_ata_hit_vector(const gm_ata_tags *t, uint64_t addr, uint8_t need)
{
    uint32_t hv = 0;
    for (uint32_t i = 0; i < t->k; i++) {
        int32_t way = gm_tag_probe(t->arrays[i], addr);
        if (way >= 0 && gm_tag_has_sectors(t->arrays[i], way, need))
            hv |= 1u << i;
    }
    return hv;
}

int32_t gm_ata_pick_remote(uint32_t hv, uint32_t local, uint32_t k)
{
    for (uint32_t d = 1; d < k; d++) {
        uint32_t j = (local + d) % k;
        if (hv >> j & 1u)
            return (int32_t)j;
    }
    return -1;
}

/* The block's (set, tag) of a line address, with the tag arrays' set
 * index (line mod sets). */
static void split(const gm_ata_tags *t, uint64_t addr, uint32_t *set, uint64_t *tag)
{
    uint64_t line = addr / GM_LINE_BYTES;
    *set = (uint32_t)(line % t->blk->sets);
    *tag = line / t->blk->sets;
}

/* One edge of the block with inputs in; out gets the outputs after it
 * (the twin's when one is attached) when want_out, or always with a twin,
 * which is compared every edge. */
static void block_edge(gm_ata_tags *t, const gm_ata_tblk_in *in, gm_ata_tblk_out *out,
                       bool want_out)
{
    gm_ata_tblk_tick(t->blk, in);
    if (t->twin) {
        gm_ata_tblk_out c;
        gm_ata_tblk_eval(t->blk, &c);
        t->twin->tick(t->twin->ctx, in);
        t->twin->eval(t->twin->ctx, out);
        t->twin->compare(t->twin->ctx, t->edges, &c, out);
    } else if (want_out) {
        gm_ata_tblk_eval(t->blk, out);
    }
    t->edges++;
}

void gm_ata_tags_mirror(gm_ata_tags *t, uint32_t n, uint8_t op, uint64_t addr,
                        uint8_t sectors, uint64_t victim_line)
{
    if (!t->blk)
        return;
    gm_ata_tblk_in in = {0};
    in.upd_valid[n] = 1;
    in.upd_op[n] = op;
    in.upd_sectors[n] = sectors;
    split(t, addr, &in.upd_set[n], &in.upd_tag[n]);
    gm_ata_tblk_out out;
    block_edge(t, &in, &out, op == GM_ATA_OP_FILL);
    if (op != GM_ATA_OP_FILL)
        return;
    t->blk_checks++;
    bool want = victim_line != UINT64_MAX;
    if (out.evict_valid[n] != want ||
        (want && out.evict_tag[n] != victim_line / t->blk->sets))
        t->blk_mismatches++;
}

void gm_ata_tags_check(gm_ata_tags *t, uint64_t addr, uint8_t need, uint32_t hv)
{
    if (!t->blk)
        return;
    gm_ata_tblk_in in = {0};
    in.req_valid[0] = 1;
    in.req_sectors[0] = need;
    split(t, addr, &in.req_set[0], &in.req_tag[0]);
    gm_ata_tblk_out out;
    block_edge(t, &in, &out, true);
    t->blk_checks++;
    if (out.hit_vec[0] != hv)
        t->blk_mismatches++;
}
