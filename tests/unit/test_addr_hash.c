/* The PAE-style address hashes of dram/addr_map ([dram] slice_hash and
 * bank_hash = pae, docs/dram.md section 1.1): a bijection on the address space it maps,
 * equal to an independent bit-matrix formulation, balanced over slices and
 * banks, the same slice function as the SelRep design's own hash, errors
 * on counts it cannot hash, and a whole-system run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "designs/selrep/selrep_rdd.h"
#include "dram/addr_map.h"
#include "system/system.h"
#include "workload/workload.h"

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: the test's own generator, independent of sim/prng */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void make_map2(gm_addr_map *m, uint32_t p, uint32_t s, uint32_t c, uint32_t b,
                      uint32_t g, uint32_t r, uint32_t a, uint32_t sh, uint32_t bh)
{
    gm_error err = {{0}};
    if (gm_addr_map_init(m, p, s, c, b, g, r, a, &err) ||
        gm_addr_map_set_hash(m, sh, bh, &err))
        fail_msg("%s", err.msg);
}

static void make_map(gm_addr_map *m, uint32_t p, uint32_t s, uint32_t c, uint32_t b,
                     uint32_t g, uint32_t r, uint32_t a)
{
    make_map2(m, p, s, c, b, g, r, a, GM_ADDR_PAE, GM_ADDR_PAE);
}

/* Output bit i of a k-bit PAE digit is the parity of every input bit j
 * with j % k == i: the binary matrix [I I I ...], written bit by bit. */
static uint32_t matrix_hash(uint64_t x, uint32_t k)
{
    uint32_t out = 0;
    for (uint32_t j = 0; j < 64; j++)
        if ((x >> j) & 1)
            out ^= 1u << (j % k);
    return out;
}

/* Every atom of [0, span) maps to a distinct (channel, local) pair with
 * local < span / channels, and gm_addr_from_coord inverts it; since the
 * counts are equal, the map is onto channels x [0, span / channels). */
static void check_space(const gm_addr_map *m, uint64_t span)
{
    uint64_t per_chan = span / m->channels;
    uint64_t atoms = per_chan / m->atom_bytes;
    uint8_t *seen = calloc((size_t)(atoms * m->channels), 1);
    assert_non_null(seen);
    for (uint64_t addr = 0; addr < span; addr += m->atom_bytes) {
        gm_dram_coord c;
        gm_addr_dram_coord(m, addr, &c);
        assert_true(c.channel < m->channels);
        assert_true(c.local < per_chan);
        assert_true(c.bank < m->banks);
        assert_int_equal(c.offset, 0);
        uint64_t k = c.channel * atoms + c.local / m->atom_bytes;
        assert_int_equal(seen[k], 0);
        seen[k] = 1;
        assert_int_equal(gm_addr_from_coord(m, &c), addr);
    }
    free(seen);
}

static void test_pae_bijection(void **state)
{
    (void)state;
    gm_addr_map m;
    /* configs/selrep: 64 slices on 32 HBM channels, 16 banks, 2 KB rows;
     * 64 MB covers 2^18 chunks, i.e. 4 full slice digits of round */
    make_map(&m, 256, 64, 32, 16, 4, 2048, 64);
    check_space(&m, 64ull << 20);
    /* each hash alone */
    make_map2(&m, 256, 64, 32, 16, 4, 2048, 64, GM_ADDR_PAE, GM_ADDR_LINEAR);
    check_space(&m, 16ull << 20);
    make_map2(&m, 256, 64, 32, 16, 4, 2048, 64, GM_ADDR_LINEAR, GM_ADDR_PAE);
    check_space(&m, 16ull << 20);
    /* baseline-like: 32 slices, 16 GDDR5 channels, 4 KB rows */
    make_map(&m, 256, 32, 16, 16, 4, 4096, 64);
    check_space(&m, 32ull << 20);
    /* one slice per channel, 8 banks, 512 B chunks */
    make_map(&m, 512, 8, 8, 8, 2, 2048, 32);
    check_space(&m, 8ull << 20);
}

/* Random coordinates round-trip the other way, far above the exhaustive
 * range (rows up to 2^28). */
static void test_pae_inverse_random(void **state)
{
    (void)state;
    gm_addr_map m;
    make_map(&m, 256, 64, 32, 16, 4, 2048, 64);
    uint64_t s = 7;
    for (int i = 0; i < 200000; i++) {
        gm_dram_coord c = {0};
        c.channel = (uint32_t)(rng_next(&s) % m.channels);
        c.bank = (uint32_t)(rng_next(&s) % m.banks);
        c.row = rng_next(&s) % (1ull << 28);
        c.col = (uint32_t)(rng_next(&s) % (m.row_bytes / m.atom_bytes));
        c.offset = (uint32_t)(rng_next(&s) % m.atom_bytes);
        uint64_t addr = gm_addr_from_coord(&m, &c);
        gm_dram_coord d;
        gm_addr_dram_coord(&m, addr, &d);
        assert_int_equal(d.channel, c.channel);
        assert_int_equal(d.bank, c.bank);
        assert_int_equal(d.row, c.row);
        assert_int_equal(d.col, c.col);
        assert_int_equal(d.offset, c.offset);
    }
}

/* The slice and bank digits equal the bit-matrix formulation; the slice
 * equals the SelRep design's own hash ([selrep] hash = 1), so the system
 * map and the design agree on every line's home. */
static void test_pae_matches_matrix_and_selrep(void **state)
{
    (void)state;
    gm_addr_map m;
    make_map(&m, 256, 64, 32, 16, 4, 2048, 64);
    gm_selrep_geom g;
    gm_error err = {{0}};
    if (gm_selrep_geom_init(&g, 64, 4, 16, 256, true, &err))
        fail_msg("%s", err.msg);
    uint64_t s = 11;
    for (int i = 0; i < 200000; i++) {
        uint64_t addr = rng_next(&s) >> (i & 31);
        uint64_t chunk = addr / 256;
        uint32_t slice = gm_addr_slice(&m, addr);
        assert_int_equal(slice, matrix_hash(chunk, 6));
        assert_int_equal(slice, gm_selrep_hash_slice(&g, addr));
        /* local address by the linear formula of docs/dram.md 1 */
        uint64_t local = ((chunk / 64) * 2 + slice % 2) * 256 + addr % 256;
        gm_dram_coord c;
        gm_addr_dram_coord(&m, addr, &c);
        assert_int_equal(c.channel, slice / 2);
        assert_int_equal(c.local, local);
        uint64_t row_index = local / 2048;
        assert_int_equal(c.row, row_index / 16);
        assert_int_equal(c.bank, (uint32_t)(row_index % 16) ^ matrix_hash(row_index / 16, 4));
    }
}

/* What the hash is for: a stride that the linear map sends to one slice
 * (chunk stride S) or to one bank (local stride B rows) is spread evenly
 * over all slices or banks. */
static void test_pae_spreads_strides(void **state)
{
    (void)state;
    gm_addr_map lin, pae;
    gm_error err = {{0}};
    assert_int_equal(gm_addr_map_init(&lin, 256, 64, 32, 16, 4, 2048, 64, &err), 0);
    make_map(&pae, 256, 64, 32, 16, 4, 2048, 64);
    uint32_t slices[64] = {0}, banks[16] = {0};
    for (uint64_t k = 0; k < 64 * 64; k++) {
        uint64_t addr = k * 64 * 256; /* same linear slice 0 */
        assert_int_equal(gm_addr_slice(&lin, addr), 0);
        slices[gm_addr_slice(&pae, addr)]++;
    }
    for (int i = 0; i < 64; i++)
        assert_int_equal(slices[i], 64);
    /* channel 0, bank 0 of the linear map, rows 0 .. 16 * 16 - 1 */
    for (uint64_t row = 0; row < 256; row++) {
        gm_dram_coord c = {.channel = 0, .bank = 0, .row = row};
        uint64_t addr = gm_addr_from_coord(&lin, &c);
        gm_dram_coord d;
        gm_addr_dram_coord(&pae, addr, &d);
        banks[d.bank]++;
    }
    for (int i = 0; i < 16; i++)
        assert_int_equal(banks[i], 16);
}

static void test_pae_rejects_and_linear(void **state)
{
    (void)state;
    gm_addr_map m;
    gm_error err = {{0}};
    assert_int_equal(gm_addr_map_init(&m, 256, 48, 24, 16, 4, 4096, 64, &err), 0);
    assert_int_not_equal(gm_addr_map_set_hash(&m, GM_ADDR_PAE, GM_ADDR_LINEAR, &err), 0);
    assert_non_null(strstr(err.msg, "[dram] slice_hash"));
    assert_non_null(strstr(err.msg, "48"));
    assert_int_equal(m.slice_hash, GM_ADDR_LINEAR);
    /* 48 slices are fine for the bank hash alone */
    assert_int_equal(gm_addr_map_set_hash(&m, GM_ADDR_LINEAR, GM_ADDR_PAE, &err), 0);
    assert_int_equal(gm_addr_map_init(&m, 256, 32, 16, 12, 3, 3072, 64, &err), 0);
    assert_int_not_equal(gm_addr_map_set_hash(&m, GM_ADDR_LINEAR, GM_ADDR_PAE, &err), 0);
    assert_non_null(strstr(err.msg, "[dram] bank_hash"));
    assert_non_null(strstr(err.msg, "12"));
    assert_int_equal(m.bank_hash, GM_ADDR_LINEAR);
    assert_int_not_equal(gm_addr_map_set_hash(&m, 2, GM_ADDR_LINEAR, &err), 0);
    assert_int_not_equal(gm_addr_map_set_hash(&m, GM_ADDR_LINEAR, 2, &err), 0);
    /* linear after init and after setting it back */
    make_map(&m, 256, 32, 16, 16, 4, 4096, 64);
    assert_int_equal(gm_addr_map_set_hash(&m, GM_ADDR_LINEAR, GM_ADDR_LINEAR, &err), 0);
    for (uint64_t addr = 0; addr < (1u << 22); addr += 4096 + 64) {
        gm_dram_coord c;
        gm_addr_dram_coord(&m, addr, &c);
        assert_int_equal(c.slice, (addr / 256) % 32);
        assert_int_equal(c.bank, (c.local / 4096) % 16);
    }
    /* the key: a bad value is refused with the allowed names */
    gm_config c;
    gm_config_defaults(&c);
    assert_int_equal(c.dram.slice_hash, GM_ADDR_LINEAR);
    assert_int_equal(c.dram.bank_hash, GM_ADDR_LINEAR);
    assert_int_not_equal(gm_config_set(&c, "dram.slice_hash=xor", &err), 0);
    assert_non_null(strstr(err.msg, "pae"));
    assert_int_not_equal(gm_config_set(&c, "dram.bank_hash=1", &err), 0);
    assert_int_equal(gm_config_set(&c, "dram.slice_hash=pae", &err), 0);
    assert_int_equal(gm_config_set(&c, "dram.bank_hash=pae", &err), 0);
    assert_int_equal(c.dram.slice_hash, GM_ADDR_PAE);
    assert_int_equal(c.dram.bank_hash, GM_ADDR_PAE);
}

/* configs/small.ini with pae runs gemm (tiny) to the end with every
 * request answered; 48 slices are refused by gm_system_init. */
static void test_pae_system_run(void **state)
{
    (void)state;
    const char *src = getenv("GM_SOURCE_DIR");
    if (!src)
        skip();
    char path[1024];
    gm_config c;
    gm_error err = {{0}};
    snprintf(path, sizeof path, "%s/configs/small.ini", src);
    gm_config_defaults(&c);
    if (gm_config_load_file(&c, path, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(gm_config_set(&c, "dram.slice_hash=pae", &err), 0);
    assert_int_equal(gm_config_set(&c, "dram.bank_hash=pae", &err), 0);
    gm_workload wl;
    if (gm_workload_build(&wl, "gemm", GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
    gm_system *s = calloc(1, sizeof *s);
    assert_non_null(s);
    if (gm_system_init(s, &c, &err) != 0)
        fail_msg("%s", err.msg);
    if (gm_system_run(s, &wl, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s->status, GM_RUN_DONE);
    uint64_t reads = 0;
    for (uint32_t i = 0; i < c.dram.channels; i++)
        reads += s->chans[i].stats.reads;
    assert_true(reads > 0);
    gm_system_free(s);

    gm_config bad = c;
    bad.l2.slices = 48;
    bad.dram.channels = 24;
    assert_int_not_equal(gm_system_init(s, &bad, &err), 0);
    assert_non_null(strstr(err.msg, "slice_hash"));
    free(s);
    gm_workload_free(&wl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pae_bijection),
        cmocka_unit_test(test_pae_inverse_random),
        cmocka_unit_test(test_pae_matches_matrix_and_selrep),
        cmocka_unit_test(test_pae_spreads_strides),
        cmocka_unit_test(test_pae_rejects_and_linear),
        cmocka_unit_test(test_pae_system_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
