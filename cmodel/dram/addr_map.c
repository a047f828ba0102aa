#include "dram/addr_map.h"

int gm_addr_map_init(gm_addr_map *m, uint32_t partition_bytes, uint32_t slices,
                     uint32_t channels, uint32_t banks, uint32_t bank_groups,
                     uint32_t row_bytes, uint32_t atom_bytes, gm_error *err)
{
    if (!partition_bytes || !slices || !channels || !banks || !bank_groups ||
        !row_bytes || !atom_bytes)
        return gm_fail(err, "address map: partition_bytes, slices, channels, banks,"
                            " bank_groups, row_bytes and atom_bytes must all be >= 1");
    if (slices % channels)
        return gm_fail(err, "address map: %u L2 slices cannot be spread evenly over"
                            " %u DRAM channels (slices must be a multiple of channels)",
                       slices, channels);
    if (banks % bank_groups)
        return gm_fail(err, "address map: %u banks do not divide into %u bank groups",
                       banks, bank_groups);
    if (row_bytes % atom_bytes)
        return gm_fail(err, "address map: row of %u B is not a whole number of"
                            " %u B atoms", row_bytes, atom_bytes);
    m->partition_bytes = partition_bytes;
    m->slices = slices;
    m->channels = channels;
    m->slices_per_channel = slices / channels;
    m->banks = banks;
    m->bank_groups = bank_groups;
    m->row_bytes = row_bytes;
    m->atom_bytes = atom_bytes;
    return 0;
}

uint32_t gm_addr_slice(const gm_addr_map *m, uint64_t addr)
{
    return (uint32_t)((addr / m->partition_bytes) % m->slices);
}

uint32_t gm_addr_channel(const gm_addr_map *m, uint64_t addr)
{
    return gm_addr_slice(m, addr) / m->slices_per_channel;
}

/* chunk = addr / P; slice = chunk % S; round = chunk / S.
 * local = (round * spc + slice % spc) * P + addr % P.
 * Given the channel (slice / spc) this is invertible, see below. */
uint64_t gm_addr_local(const gm_addr_map *m, uint64_t addr)
{
    uint64_t chunk = addr / m->partition_bytes;
    uint64_t round = chunk / m->slices;
    uint32_t within = (uint32_t)(chunk % m->slices) % m->slices_per_channel;
    return (round * m->slices_per_channel + within) * m->partition_bytes +
           addr % m->partition_bytes;
}

void gm_addr_dram_coord(const gm_addr_map *m, uint64_t addr, gm_dram_coord *c)
{
    c->slice = gm_addr_slice(m, addr);
    c->channel = c->slice / m->slices_per_channel;
    c->local = gm_addr_local(m, addr);
    uint64_t in_row = c->local % m->row_bytes;
    uint64_t row_index = c->local / m->row_bytes;
    c->col = (uint32_t)(in_row / m->atom_bytes);
    c->offset = (uint32_t)(in_row % m->atom_bytes);
    c->bank = (uint32_t)(row_index % m->banks);
    c->row = row_index / m->banks;
    c->bank_group = c->bank % m->bank_groups;
}

uint64_t gm_addr_from_coord(const gm_addr_map *m, const gm_dram_coord *c)
{
    uint64_t local = (c->row * m->banks + c->bank) * m->row_bytes +
                     (uint64_t)c->col * m->atom_bytes + c->offset;
    uint64_t lchunk = local / m->partition_bytes;
    uint64_t round = lchunk / m->slices_per_channel;
    uint64_t slice = (uint64_t)c->channel * m->slices_per_channel +
                     lchunk % m->slices_per_channel;
    return (round * m->slices + slice) * m->partition_bytes +
           local % m->partition_bytes;
}
