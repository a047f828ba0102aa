#include "designs/ata/ata_tags.h"

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
