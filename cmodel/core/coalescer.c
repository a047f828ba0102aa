#include "core/coalescer.h"

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
    memmove(&o->line[i + 1], &o->line[i], (o->n - i) * sizeof o->line[0]);
    o->line[i].addr = line;
    o->line[i].sectors = sectors;
    o->n++;
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
    uint64_t last = (uint64_t)in->width - 1;
    while (mask) {
        int lane = __builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t a = in->addr[lane];
        uint64_t e = a + last;
        unsigned s0 = (unsigned)(a / GM_SECTOR_BYTES) % GM_SECTORS_PER_LINE;
        unsigned s1 = (unsigned)(e / GM_SECTOR_BYTES) % GM_SECTORS_PER_LINE;
        uint64_t la = a & ~LINE_MASK, le = e & ~LINE_MASK;
        if (la == le) {
            add_line(out, la, (uint8_t)((0xfu << s0) & (0xfu >> (3 - s1))));
        } else {
            add_line(out, la, (uint8_t)((0xfu << s0) & 0xfu));
            add_line(out, le, (uint8_t)(0xfu >> (3 - s1)));
        }
    }
    for (uint32_t i = 0; i < out->n; i++)
        out->nsectors += (uint32_t)__builtin_popcount(out->line[i].sectors);
    return (int)out->n;
}
