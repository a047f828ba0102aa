#include "dram/addr_map.h"

#include "config/config.h"

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
    m->slice_hash = m->bank_hash = GM_ADDR_LINEAR;
    m->slice_bits = 0;
    m->bank_bits = 0;
    return 0;
}

static int log2_exact(uint32_t x)
{
    if (!x || (x & (x - 1)))
        return -1;
    int n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

static int check_hash(uint32_t hash, const char *key, gm_error *err)
{
    if (hash != GM_ADDR_LINEAR && hash != GM_ADDR_PAE)
        return gm_fail(err, "[dram] %s = %u: allowed linear (0) or pae (1)", key, hash);
    return 0;
}

int gm_addr_map_set_hash(gm_addr_map *m, uint32_t slice_hash, uint32_t bank_hash,
                         gm_error *err)
{
    if (check_hash(slice_hash, "slice_hash", err) || check_hash(bank_hash, "bank_hash", err))
        return -1;
    int sb = log2_exact(m->slices), bb = log2_exact(m->banks);
    if (slice_hash == GM_ADDR_PAE && sb < 0)
        return gm_fail(err, "[dram] slice_hash = pae needs a power-of-two number of L2"
                            " slices ([l2] slices = %u)", m->slices);
    if (bank_hash == GM_ADDR_PAE && bb < 0)
        return gm_fail(err, "[dram] bank_hash = pae needs a power-of-two [dram] banks"
                            " (%u)", m->banks);
    m->slice_hash = slice_hash;
    m->bank_hash = bank_hash;
    m->slice_bits = slice_hash == GM_ADDR_PAE ? (uint32_t)sb : 0;
    m->bank_bits = bank_hash == GM_ADDR_PAE ? (uint32_t)bb : 0;
    return 0;
}

/* XOR of the bits-wide digits of x, lowest digit included. A fold with
 * bits = 0 (one slice or one bank) is 0. */
static uint64_t xor_fold(uint64_t x, uint32_t bits)
{
    if (!bits)
        return 0;
    uint64_t mask = ((uint64_t)1 << bits) - 1, h = 0;
    for (; x; x >>= bits)
        h ^= x & mask;
    return h;
}

uint32_t gm_addr_slice(const gm_addr_map *m, uint64_t addr)
{
    uint64_t chunk = addr / m->partition_bytes;
    if (m->slice_hash == GM_ADDR_PAE)
        return (uint32_t)xor_fold(chunk, m->slice_bits);
    return (uint32_t)(chunk % m->slices);
}

uint32_t gm_addr_channel(const gm_addr_map *m, uint64_t addr)
{
    return gm_addr_slice(m, addr) / m->slices_per_channel;
}

/* chunk = addr / P; slice = gm_addr_slice; round = chunk / S.
 * local = (round * spc + slice % spc) * P + addr % P.
 * Given the channel (slice / spc) this is invertible, see below: under
 * pae the slice is chunk % S XOR a function of round alone. */
uint64_t gm_addr_local(const gm_addr_map *m, uint64_t addr)
{
    uint64_t chunk = addr / m->partition_bytes;
    uint64_t round = chunk / m->slices;
    uint32_t within = gm_addr_slice(m, addr) % m->slices_per_channel;
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
    c->row = row_index / m->banks;
    /* pae: XOR with a function of the row permutes the banks of each row */
    c->bank = (uint32_t)((row_index % m->banks) ^ xor_fold(c->row, m->bank_bits));
    c->bank_group = c->bank % m->bank_groups;
}

uint64_t gm_addr_from_coord(const gm_addr_map *m, const gm_dram_coord *c)
{
    uint64_t bank = c->bank ^ xor_fold(c->row, m->bank_bits);
    uint64_t local = (c->row * m->banks + bank) * m->row_bytes +
                     (uint64_t)c->col * m->atom_bytes + c->offset;
    uint64_t lchunk = local / m->partition_bytes;
    uint64_t round = lchunk / m->slices_per_channel;
    uint64_t slice = (uint64_t)c->channel * m->slices_per_channel +
                     lchunk % m->slices_per_channel;
    /* pae: the slice digit of the chunk is the hashed slice XOR the fold of
     * the higher digits (round), so undo that XOR */
    if (m->slice_hash == GM_ADDR_PAE)
        slice ^= xor_fold(round, m->slice_bits);
    return (round * m->slices + slice) * m->partition_bytes +
           local % m->partition_bytes;
}
