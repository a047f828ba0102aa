#include "designs/ccn/ccn_shadow.h"

#include <assert.h>
#include <stdlib.h>

int gm_shadow_tags_init(gm_shadow_tags *st, uint32_t sets, uint32_t ways, uint32_t tag_bits,
                        gm_error *err)
{
    *st = (gm_shadow_tags){0};
    if (sets < 1 || sets > 65536 || ways < 1 || ways > 255)
        return gm_fail(err, "shadow tags of %u sets x %u ways: sets 1..65536, ways 1..255",
                       sets, ways);
    if (tag_bits < 1 || tag_bits > GM_SHADOW_MAX_TAG_BITS)
        return gm_fail(err, "shadow tags of %u-bit tags: 1..%u bits", tag_bits,
                       GM_SHADOW_MAX_TAG_BITS);
    st->sets = sets;
    st->ways = ways;
    st->tag_bits = tag_bits;
    st->valid = calloc((size_t)sets * ways, 1);
    st->tag = calloc((size_t)sets * ways, sizeof *st->tag);
    if (!st->valid || !st->tag) {
        gm_shadow_tags_free(st);
        return gm_fail(err, "out of memory for %u x %u shadow tags", sets, ways);
    }
    return 0;
}

void gm_shadow_tags_free(gm_shadow_tags *st)
{
    free(st->valid);
    free(st->tag);
    st->valid = NULL;
    st->tag = NULL;
}

void gm_shadow_tags_reset(gm_shadow_tags *st)
{
    for (size_t i = 0; i < (size_t)st->sets * st->ways; i++)
        st->valid[i] = 0;
    st->q = (gm_shadow_tags_out){0};
}

void gm_shadow_tags_eval(const gm_shadow_tags *st, gm_shadow_tags_out *out)
{
    *out = st->q;
}

static void write_port(gm_shadow_tags *st, uint8_t en, uint16_t set, uint8_t way,
                       uint8_t tag_valid, uint64_t tag)
{
    if (!en)
        return;
    assert(set < st->sets && way < st->ways);
    size_t i = (size_t)set * st->ways + way;
    st->valid[i] = tag_valid ? 1 : 0;
    st->tag[i] = tag & ((1ull << st->tag_bits) - 1);
}

/* The lookup sees this edge's writes, so a line installed or dropped in a
 * cycle is answered for as the L1's own tags would be at its end. */
void gm_shadow_tags_tick(gm_shadow_tags *st, const gm_shadow_tags_in *in)
{
    write_port(st, in->wr0_valid, in->wr0_set, in->wr0_way, in->wr0_tag_valid, in->wr0_tag);
    write_port(st, in->wr1_valid, in->wr1_set, in->wr1_way, in->wr1_tag_valid, in->wr1_tag);
    gm_shadow_tags_out q = {0};
    if (in->lk_valid) {
        assert(in->lk_set < st->sets);
        uint64_t tag = in->lk_tag & ((1ull << st->tag_bits) - 1);
        q.lk_done = 1;
        const uint8_t *v = &st->valid[(size_t)in->lk_set * st->ways];
        const uint64_t *t = &st->tag[(size_t)in->lk_set * st->ways];
        for (uint32_t w = 0; w < st->ways; w++)
            if (v[w] && t[w] == tag) {
                q.lk_hit = 1;
                q.lk_way = (uint8_t)w;
                break;
            }
        q.steal = q.lk_hit;
    }
    st->q = q;
}
