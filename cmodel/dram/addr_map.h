/* Physical address -> L2 slice -> DRAM channel -> bank/row/column.
 *
 * The global address space is cut into partition_bytes chunks dealt round
 * robin to the L2 slices; consecutive slices share a channel
 * (slices_per_channel = slices / channels). Inside a channel the slice
 * selection is removed again, giving a dense channel-local address that is
 * then split, from low to high, into column | bank | row. Every count may be
 * a non-power of two: the splits are divisions, not bit fields.
 *
 * With the PAE-style hashes (gm_addr_map_set_hash, [dram] slice_hash and
 * bank_hash = pae) the slice digit is XORed with every higher digit of the
 * chunk number and the bank digit with every digit of the row, so strided
 * streams spread over slices and banks; both are bijections.
 * docs/dram.md has the formulas and a worked example. */
#ifndef GM_DRAM_ADDR_MAP_H
#define GM_DRAM_ADDR_MAP_H

#include <stdint.h>

#include "sim/error.h"

typedef struct gm_addr_map {
    uint32_t partition_bytes;     /* interleaving chunk, 256 */
    uint32_t slices;              /* L2 slices in the system */
    uint32_t channels;            /* DRAM channels */
    uint32_t slices_per_channel;  /* slices / channels */
    uint32_t banks;               /* per channel */
    uint32_t bank_groups;         /* banks % bank_groups == 0 */
    uint32_t row_bytes;           /* page of one bank across the channel */
    uint32_t atom_bytes;          /* bytes of one column command */
    uint32_t slice_hash;          /* gm_addr_hash (config/config.h) */
    uint32_t bank_hash;           /* gm_addr_hash */
    uint32_t slice_bits;          /* log2(slices) under slice pae, else 0 */
    uint32_t bank_bits;           /* log2(banks) under bank pae, else 0 */
} gm_addr_map;

/* Where a byte address lives inside its channel. */
typedef struct gm_dram_coord {
    uint32_t slice;       /* global L2 slice */
    uint32_t channel;
    uint64_t local;       /* channel-local byte address */
    uint32_t bank;
    uint32_t bank_group;  /* bank % bank_groups */
    uint64_t row;
    uint32_t col;         /* column in atoms (column-command units) */
    uint32_t offset;      /* byte inside the atom */
} gm_dram_coord;

/* Fails (returns -1 with err set) on a zero count, slices not a multiple
 * of channels, banks not a multiple of bank_groups, or row_bytes not a
 * multiple of atom_bytes. */
int gm_addr_map_init(gm_addr_map *m, uint32_t partition_bytes, uint32_t slices,
                     uint32_t channels, uint32_t banks, uint32_t bank_groups,
                     uint32_t row_bytes, uint32_t atom_bytes, gm_error *err);

/* Selects the slice and bank hashes (each GM_ADDR_LINEAR, the state after
 * init, or GM_ADDR_PAE). PAE needs power-of-two slices (slice) and banks
 * (bank): otherwise returns -1 with err naming the key and the offending
 * count, and m is unchanged. */
int gm_addr_map_set_hash(gm_addr_map *m, uint32_t slice_hash, uint32_t bank_hash,
                         gm_error *err);

/* Linear: (addr / partition_bytes) % slices. PAE: the XOR of every
 * log2(slices)-bit digit of addr / partition_bytes. */
uint32_t gm_addr_slice(const gm_addr_map *m, uint64_t addr);
/* gm_addr_slice(addr) / slices_per_channel */
uint32_t gm_addr_channel(const gm_addr_map *m, uint64_t addr);
/* Channel-local byte address (slice-selection digits removed). */
uint64_t gm_addr_local(const gm_addr_map *m, uint64_t addr);
void gm_addr_dram_coord(const gm_addr_map *m, uint64_t addr, gm_dram_coord *c);

/* Inverse of gm_addr_dram_coord: the byte address with the given channel,
 * bank, row, col and offset (slice, local and bank_group are ignored).
 * Used by tests and by anyone who wants to aim traffic at one bank. */
uint64_t gm_addr_from_coord(const gm_addr_map *m, const gm_dram_coord *c);

#endif
