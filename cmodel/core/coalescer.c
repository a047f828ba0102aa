#include "core/coalescer.h"

#include <stdbool.h>
#include <string.h>

#include "sim/req.h"

#define LINE_MASK ((uint64_t)GM_LINE_BYTES - 1)

/* Inserts or merges line into the sorted list. Lanes mostly walk addresses
 * upwards, so the search starts at the end and usually stops at once. */
static void add_line(gm_coalesced *o, uint64_t line, uint8_t sectors)
{
    uint32_t i = o->n;
    while (i > 0 && o->line[i - 1].addr > line)
        i--;
    if (i > 0 && o->line[i - 1].addr == line) {
        o->line[i - 1].sectors |= sectors;
        return;
    }
    if (i < o->n)
        memmove(&o->line[i + 1], &o->line[i], (o->n - i) * sizeof o->line[0]);
    o->line[i].addr = line;
    o->line[i].sectors = sectors;
    o->n++;
}

/* Marks the sectors of a lane's first byte a and last byte a + last in
 * seen; returns the bits by which either lies outside line (0: inside). */
static inline uint64_t mark_lane(uint64_t a, uint64_t last, uint64_t line, uint8_t *seen)
{
    uint64_t e = a + last;
    seen[(a / GM_SECTOR_BYTES) % GM_SECTORS_PER_LINE] = 1;
    seen[(e / GM_SECTOR_BYTES) % GM_SECTORS_PER_LINE] = 1;
    return ((a ^ line) | (e ^ line)) & ~LINE_MASK;
}

/* The common case: every active lane's bytes lie in one line. With a
 * width of at most one sector a lane touches the sector of its first byte
 * and that of its last, nothing between, so the line's mask is the OR of
 * both over the lanes. Returns false (out unchanged) when a lane lies
 * outside the first lane's line; the general walk then starts over. A
 * full warp (the usual case) is walked without a test per lane and
 * checked once at the end. */
static bool coalesce_one_line(const gm_inst *in, uint32_t mask, gm_coalesced *out)
{
    uint64_t last = (uint64_t)in->width - 1;
    uint32_t first = (uint32_t)__builtin_ctz(mask);
    uint64_t line = in->addr[first] & ~LINE_MASK;
    /* A store per touched sector is cheaper than building the mask lane
     * by lane (variable shifts). */
    uint8_t seen[GM_SECTORS_PER_LINE] = {0};
    if (mask == 0xffffffffu) {
        uint64_t outside = 0;
        for (uint32_t lane = 0; lane < GM_WARP_SIZE; lane++)
            outside |= mark_lane(in->addr[lane], last, line, seen);
        if (outside)
            return false;
    } else {
        for (uint32_t lane = first; lane < GM_WARP_SIZE; lane++)
            if ((mask >> lane & 1) && mark_lane(in->addr[lane], last, line, seen))
                return false;
    }
    unsigned sectors = 0;
    for (unsigned s = 0; s < GM_SECTORS_PER_LINE; s++)
        sectors |= (unsigned)seen[s] << s;
    out->n = 1;
    out->line[0].addr = line;
    out->line[0].sectors = (uint8_t)sectors;
    out->nsectors = (uint32_t)(0x4332322132212110ull >> (4u * sectors)) & 0xfu;
    return true;
}

int gm_coalesce(const gm_inst *in, gm_coalesced *out)
{
    out->n = 0;
    out->nsectors = 0;
    uint32_t mask = in->mask;
    if (!mask)
        return 0;
    if (in->width == 0 || in->width > GM_COALESCE_MAX_WIDTH)
        return -1;
    if (in->width <= GM_SECTOR_BYTES && coalesce_one_line(in, mask, out))
        return 1;
    uint64_t last = (uint64_t)in->width - 1;
    /* Pieces of consecutive lanes usually fall in the same line: gather
     * their sectors here and insert the line once it changes. */
    uint64_t cur_line = 1; /* no line address has low bits set: "none" */
    unsigned cur_mask = 0;
    while (mask) {
        int lane = __builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t a = in->addr[lane];
        uint64_t e = a + last;
        unsigned s0 = (unsigned)(a / GM_SECTOR_BYTES) % GM_SECTORS_PER_LINE;
        unsigned s1 = (unsigned)(e / GM_SECTOR_BYTES) % GM_SECTORS_PER_LINE;
        uint64_t la = a & ~LINE_MASK, le = e & ~LINE_MASK;
        unsigned first = 0xfu << s0, end = 0xfu >> (3 - s1);
        if (la == le)
            first &= end;
        if (la != cur_line) {
            if (cur_mask)
                add_line(out, cur_line, (uint8_t)cur_mask);
            cur_line = la;
            cur_mask = 0;
        }
        cur_mask |= first & 0xfu;
        if (la != le) { /* straddles into the next line */
            add_line(out, cur_line, (uint8_t)cur_mask);
            cur_line = le;
            cur_mask = end;
        }
    }
    add_line(out, cur_line, (uint8_t)cur_mask);
    /* Sectors per line: nibble k of the constant is popcount(k), which
     * saves a libgcc popcount call per line. */
    for (uint32_t i = 0; i < out->n; i++)
        out->nsectors += (uint32_t)(0x4332322132212110ull >> (4u * (out->line[i].sectors & 0xfu))) & 0xfu;
    return (int)out->n;
}
