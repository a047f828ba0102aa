/* Coalescer: line and sector counts of the classic access patterns
 * (research/workloads.md section 4: a coalesced 4 B/lane warp touches 4
 * sectors of one line, a broadcast 1 sector, a 128 B stride 32 lines). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/coalescer.h"
#include "sim/prng.h"

static gm_inst strided(uint64_t base, uint64_t stride, uint8_t width, uint32_t mask)
{
    gm_inst in;
    memset(&in, 0, sizeof in);
    in.op = GM_OP_GLOBAL_LD;
    in.width = width;
    in.mask = mask;
    for (int i = 0; i < GM_WARP_SIZE; i++)
        in.addr[i] = base + stride * (uint64_t)i;
    return in;
}

static void test_fully_coalesced(void **state)
{
    (void)state;
    gm_inst in = strided(0x10000, 4, 4, 0xffffffffu);
    gm_coalesced c;
    assert_int_equal(gm_coalesce(&in, &c), 1);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.nsectors, 4);
    assert_int_equal(c.line[0].addr, 0x10000);
    assert_int_equal(c.line[0].sectors, 0xf);
}

static void test_broadcast(void **state)
{
    (void)state;
    gm_inst in = strided(0x2044, 0, 4, 0xffffffffu);
    gm_coalesced c;
    assert_int_equal(gm_coalesce(&in, &c), 1);
    assert_int_equal(c.nsectors, 1);
    assert_int_equal(c.line[0].addr, 0x2000);
    assert_int_equal(c.line[0].sectors, 0x4); /* byte 0x44 is in sector 2 */
}

static void test_scattered_128B_stride(void **state)
{
    (void)state;
    gm_inst in = strided(0x8000, 128, 4, 0xffffffffu);
    gm_coalesced c;
    assert_int_equal(gm_coalesce(&in, &c), 32);
    assert_int_equal(c.nsectors, 32);
    for (uint32_t i = 0; i < 32; i++) {
        assert_int_equal(c.line[i].addr, 0x8000 + 128 * i);
        assert_int_equal(c.line[i].sectors, 0x1);
    }
}

/* 4 B/lane starting 4 B into a line: lanes 0-30 in the first line
 * (sectors 0-3), lane 31 at byte 128 in the next (sector 0). */
static void test_misaligned(void **state)
{
    (void)state;
    gm_inst in = strided(0x4004, 4, 4, 0xffffffffu);
    gm_coalesced c;
    assert_int_equal(gm_coalesce(&in, &c), 2);
    assert_int_equal(c.nsectors, 5);
    assert_int_equal(c.line[0].addr, 0x4000);
    assert_int_equal(c.line[0].sectors, 0xf);
    assert_int_equal(c.line[1].addr, 0x4080);
    assert_int_equal(c.line[1].sectors, 0x1);
}

static void test_8B_per_lane(void **state)
{
    (void)state;
    gm_inst in = strided(0x6000, 8, 8, 0xffffffffu);
    gm_coalesced c;
    assert_int_equal(gm_coalesce(&in, &c), 2);
    assert_int_equal(c.nsectors, 8);
    assert_int_equal(c.line[0].sectors, 0xf);
    assert_int_equal(c.line[1].addr, 0x6080);
    assert_int_equal(c.line[1].sectors, 0xf);
}

static void test_partial_mask(void **state)
{
    (void)state;
    gm_inst in = strided(0x1000, 4, 4, 0x000000ffu); /* lanes 0-7: bytes 0-31 */
    gm_coalesced c;
    assert_int_equal(gm_coalesce(&in, &c), 1);
    assert_int_equal(c.nsectors, 1);
    assert_int_equal(c.line[0].sectors, 0x1);
    in.mask = 0x80000001u; /* lanes 0 and 31: bytes 0 and 124 */
    assert_int_equal(gm_coalesce(&in, &c), 1);
    assert_int_equal(c.line[0].sectors, 0x9);
    assert_int_equal(c.nsectors, 2);
    in.mask = 0;
    assert_int_equal(gm_coalesce(&in, &c), 0);
    assert_int_equal(c.nsectors, 0);
}

/* One lane whose access straddles a sector boundary and one that
 * straddles a line boundary. */
static void test_straddles(void **state)
{
    (void)state;
    gm_inst in = strided(0, 0, 8, 0x1);
    gm_coalesced c;
    in.addr[0] = 0x301c; /* bytes 0x1c-0x23: sectors 0 and 1 */
    assert_int_equal(gm_coalesce(&in, &c), 1);
    assert_int_equal(c.line[0].sectors, 0x3);
    in.addr[0] = 0x307c; /* bytes 0x7c-0x83: sector 3, then next line sector 0 */
    assert_int_equal(gm_coalesce(&in, &c), 2);
    assert_int_equal(c.line[0].addr, 0x3000);
    assert_int_equal(c.line[0].sectors, 0x8);
    assert_int_equal(c.line[1].addr, 0x3080);
    assert_int_equal(c.line[1].sectors, 0x1);
    in.width = 128; /* a whole line's worth from the middle of one */
    in.addr[0] = 0x3040;
    assert_int_equal(gm_coalesce(&in, &c), 2);
    assert_int_equal(c.line[0].sectors, 0xc);
    assert_int_equal(c.line[1].sectors, 0x3);
    in.width = 0;
    assert_int_equal(gm_coalesce(&in, &c), -1);
    in.width = 129;
    assert_int_equal(gm_coalesce(&in, &c), -1);
}

/* Compares gm_coalesce with a byte-by-byte reference: the set of sectors
 * the active lanes touch, for addresses in [0x100000, 0x100000 + 81 * 128). */
static void check_against_bytes(const gm_inst *in)
{
    enum { MAXS = (81 * 128 + 128) / 32 + 1 };
    static uint8_t touched[MAXS];
    memset(touched, 0, sizeof touched);
    for (int i = 0; i < GM_WARP_SIZE; i++)
        if (in->mask >> i & 1)
            for (uint64_t b = in->addr[i]; b < in->addr[i] + in->width; b++)
                touched[(b - 0x100000) / 32] = 1;
    gm_coalesced c;
    int n = gm_coalesce(in, &c);
    uint32_t lines = 0, sectors = 0;
    for (int s = 0; s < MAXS; s += 4) {
        uint8_t m = 0;
        for (int k = 0; k < 4 && s + k < MAXS; k++)
            m |= (uint8_t)(touched[s + k] << k);
        if (!m)
            continue;
        assert_true(lines < c.n);
        assert_int_equal(c.line[lines].addr, 0x100000 + (uint64_t)s * 32);
        assert_int_equal(c.line[lines].sectors, m);
        lines++;
        sectors += (uint32_t)__builtin_popcount(m);
    }
    assert_int_equal(n, (int)lines);
    assert_int_equal(c.n, lines);
    assert_int_equal(c.nsectors, sectors);
    assert_true(c.n <= GM_COALESCE_MAX_LINES);
}

/* Descending and shuffled addresses come out sorted and de-duplicated;
 * compared with the byte-by-byte reference over random patterns (up to the
 * 64-line maximum with misaligned 16 B accesses). */
static void test_random_vs_reference(void **state)
{
    (void)state;
    gm_prng p;
    gm_prng_seed(&p, 3, 0);
    for (int iter = 0; iter < 3000; iter++) {
        gm_inst in = strided(0, 0, 0, 0);
        static const uint8_t widths[] = {1, 2, 4, 8, 16, 128};
        in.width = widths[gm_prng_below(&p, 6)];
        in.mask = (uint32_t)gm_prng_next(&p);
        uint64_t span = 128u * (1 + gm_prng_below(&p, 80));
        for (int i = 0; i < GM_WARP_SIZE; i++)
            in.addr[i] = 0x100000 + gm_prng_below(&p, span);
        check_against_bytes(&in);
    }
    /* The 64-line maximum: every lane straddles a different line pair. */
    gm_inst in = strided(0x7c, 256, 8, 0xffffffffu);
    gm_coalesced c;
    assert_int_equal(gm_coalesce(&in, &c), 64);
    assert_int_equal(c.nsectors, 64);
    /* Descending: sorted on output. */
    in = strided(0x10000 + 31 * 128, (uint64_t)-128, 4, 0xffffffffu);
    assert_int_equal(gm_coalesce(&in, &c), 32);
    for (uint32_t i = 1; i < 32; i++)
        assert_true(c.line[i - 1].addr < c.line[i].addr);
}

/* Lanes that mostly share one line (the one-line shortcut), with widths
 * around a sector and lanes that leave the line at any position: the
 * first, the last, in between, or by their last byte only. */
static void test_one_line_vs_reference(void **state)
{
    (void)state;
    gm_prng p;
    gm_prng_seed(&p, 7, 0);
    for (int iter = 0; iter < 3000; iter++) {
        gm_inst in = strided(0, 0, 0, 0);
        static const uint8_t widths[] = {1, 4, 8, 16, 31, 32, 33, 64};
        in.width = widths[gm_prng_below(&p, 8)];
        in.mask = gm_prng_below(&p, 4) ? 0xffffffffu : (uint32_t)gm_prng_next(&p);
        uint64_t line = 0x100000 + 128u * gm_prng_below(&p, 40);
        for (int i = 0; i < GM_WARP_SIZE; i++)
            in.addr[i] = line + gm_prng_below(&p, 129 - in.width);
        if (gm_prng_below(&p, 2)) /* one lane elsewhere, or straddling */
            in.addr[gm_prng_below(&p, GM_WARP_SIZE)] = line + gm_prng_below(&p, 256);
        check_against_bytes(&in);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fully_coalesced),
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_scattered_128B_stride),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_8B_per_lane),
        cmocka_unit_test(test_partial_mask),
        cmocka_unit_test(test_straddles),
        cmocka_unit_test(test_random_vs_reference),
        cmocka_unit_test(test_one_line_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
