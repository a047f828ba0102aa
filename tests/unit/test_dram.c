/* GDDR5 DRAM channel tests: address map, the gddr5 standard's values and
 * timing table, the registry of standards, and one channel driven through
 * its links by a single 924 MHz clock domain (test_dram_harness.h, shared
 * with the HBM tests of test_dram_hbm.c).
 *
 * Timing tests follow one pattern: real requests set up the preceding
 * command; the test then checks (a) the timing table's earliest cycle for
 * the following command is exactly prev + distance, (b) the request that
 * needs it was already in the controller queue, so one cycle earlier only
 * the timing held it back, and it did not issue, and (c) it issued on the
 * cycle prev + distance. Where the default values would let another
 * constraint hide the one under test, the test changes a timing value and
 * says why. Random-traffic tests replay the whole command log against an
 * independent checker written here from the datasheet rules, not from the
 * model's table. */
#define HARNESS_STANDARD "gddr5"
#include "test_dram_harness.h"

/* ---- address map ------------------------------------------------------- */

static void test_map_examples(void **state)
{
    (void)state;
    gm_addr_map m;
    gm_error err;
    gm_dram_coord c;
    assert_int_equal(gm_addr_map_init(&m, 256, 32, 16, 16, 4, 4096, 64, &err), 0);
    /* 256 B chunks round robin over 32 slices, slices 2k and 2k+1 on channel k */
    assert_int_equal(gm_addr_slice(&m, 0), 0);
    assert_int_equal(gm_addr_slice(&m, 255), 0);
    assert_int_equal(gm_addr_slice(&m, 256), 1);
    assert_int_equal(gm_addr_channel(&m, 256), 0);
    assert_int_equal(gm_addr_channel(&m, 512), 1);
    assert_int_equal(gm_addr_slice(&m, 31 * 256), 31);
    assert_int_equal(gm_addr_channel(&m, 31 * 256), 15);
    assert_int_equal(gm_addr_slice(&m, 32 * 256), 0);
    /* A channel owns 512 B of every 8 KB: local 0..511 is global 0..511,
     * local 512 is the next round, global 8192. */
    assert_int_equal(gm_addr_local(&m, 300), 300);
    assert_int_equal(gm_addr_local(&m, 8192), 512);
    assert_int_equal(gm_addr_local(&m, 8192 + 256 + 5), 512 + 256 + 5);
    assert_int_equal(gm_addr_local(&m, 512 + 7), 7); /* channel 1, its first byte */
    /* 4 KB of channel-local space = 8 rounds = 64 KB global -> bank 1 */
    gm_addr_dram_coord(&m, 65536, &c);
    assert_int_equal(c.channel, 0);
    assert_int_equal(c.local, 4096);
    assert_int_equal(c.bank, 1);
    assert_int_equal(c.bank_group, 1);
    assert_int_equal(c.row, 0);
    assert_int_equal(c.col, 0);
    /* 16 banks x 4 KB = 64 KB local = 1 MB global -> row 1 bank 0 */
    gm_addr_dram_coord(&m, 1u << 20, &c);
    assert_int_equal(c.bank, 0);
    assert_int_equal(c.row, 1);
    /* bank 5 -> group 1; column from the low bits */
    gm_addr_dram_coord(&m, 5 * 65536 + 8192 + 256 + 64 + 3, &c);
    assert_int_equal(c.bank, 5);
    assert_int_equal(c.bank_group, 1);
    assert_int_equal(c.col, (512 + 256 + 64) / 64);
    assert_int_equal(c.offset, 3);
}

static void check_bijection(uint32_t p, uint32_t slices, uint32_t channels, uint32_t banks,
                            uint32_t groups, uint32_t row, uint32_t atom)
{
    gm_addr_map m;
    gm_error err;
    gm_prng rng;
    assert_int_equal(gm_addr_map_init(&m, p, slices, channels, banks, groups, row, atom,
                                      &err), 0);
    gm_prng_seed(&rng, 1, slices * 1000 + channels);
    for (int i = 0; i < 200000; i++) {
        uint64_t a = gm_prng_next(&rng) >> (i % 2 ? 24 : 30);
        gm_dram_coord c;
        gm_addr_dram_coord(&m, a, &c);
        assert_true(c.slice < slices);
        assert_true(c.channel < channels);
        assert_int_equal(c.channel, c.slice / (slices / channels));
        assert_true(c.bank < banks);
        assert_int_equal(c.bank_group, c.bank % groups);
        assert_true((uint64_t)c.col * atom + c.offset < row);
        assert_int_equal(gm_addr_from_coord(&m, &c), a);
        /* and the other way: a random coordinate maps back to itself */
        gm_dram_coord d = {0}, e;
        d.channel = (uint32_t)gm_prng_below(&rng, channels);
        d.bank = (uint32_t)gm_prng_below(&rng, banks);
        d.row = gm_prng_below(&rng, 1u << 20);
        d.col = (uint32_t)gm_prng_below(&rng, row / atom);
        d.offset = (uint32_t)gm_prng_below(&rng, atom);
        gm_addr_dram_coord(&m, gm_addr_from_coord(&m, &d), &e);
        assert_int_equal(e.channel, d.channel);
        assert_int_equal(e.bank, d.bank);
        assert_int_equal(e.row, d.row);
        assert_int_equal(e.col, d.col);
        assert_int_equal(e.offset, d.offset);
    }
    /* Dense: one channel's first local bytes come from distinct addresses
     * and cover 0..N-1 exactly once (checked via the inverse). */
    uint32_t n = 1u << 16;
    uint8_t *hit = calloc(n, 1);
    assert_non_null(hit);
    uint64_t span = (uint64_t)n / (p * (slices / channels)) * p * slices + p * slices;
    for (uint64_t a = 0; a < span; a += atom) {
        gm_dram_coord c;
        gm_addr_dram_coord(&m, a, &c);
        if (c.channel == channels - 1 && c.local < n) {
            assert_int_equal(hit[c.local], 0);
            hit[c.local] = 1;
        }
    }
    for (uint32_t i = 0; i < n; i += atom)
        assert_int_equal(hit[i], 1);
    free(hit);
}

static void test_map_bijection(void **state)
{
    (void)state;
    check_bijection(256, 32, 16, 16, 4, 4096, 64);  /* baseline */
    check_bijection(256, 48, 24, 16, 4, 4096, 64);  /* 120-core: non power of two */
    check_bijection(256, 24, 12, 12, 3, 3072, 64);  /* ATA-like: all odd counts */
    check_bijection(384, 30, 6, 10, 5, 2048, 32);
}

static void test_map_rejects(void **state)
{
    (void)state;
    gm_addr_map m;
    gm_error err = {{0}};
    assert_int_not_equal(gm_addr_map_init(&m, 256, 30, 16, 16, 4, 4096, 64, &err), 0);
    assert_non_null(strstr(err.msg, "multiple of channels"));
    assert_int_not_equal(gm_addr_map_init(&m, 256, 32, 16, 16, 3, 4096, 64, &err), 0);
    assert_int_not_equal(gm_addr_map_init(&m, 256, 32, 16, 16, 4, 4000, 64, &err), 0);
    assert_int_not_equal(gm_addr_map_init(&m, 0, 32, 16, 16, 4, 4096, 64, &err), 0);
}

/* ---- timing table ------------------------------------------------------ */

static void test_hynix_defaults(void **state)
{
    (void)state;
    gm_dram_timing t;
    gm_dram_timing_hynix_gddr5(&t);
    /* GPGPU-Sim GTX480 gpgpu_dram_timing_opt (brief and docs/dram.md) */
    assert_int_equal(t.tRCD, 12);
    assert_int_equal(t.tRP, 12);
    assert_int_equal(t.tRAS, 28);
    assert_int_equal(t.tRC, 40);
    assert_int_equal(t.tCL, 12);
    assert_int_equal(t.tWL, 4);
    assert_int_equal(t.tCCDS, 2);
    assert_int_equal(t.tCCDL, 3);
    assert_int_equal(t.tRRDS, 6);
    assert_int_equal(t.tRRDL, 6);
    assert_int_equal(t.tWR, 12);
    assert_int_equal(t.tRTP, 2);
    assert_int_equal(t.tWTRS, 5);
    assert_int_equal(t.tWTRL, 5);
    /* BL8 over 4 beats per command clock */
    assert_int_equal(t.tBURST, 8 / 4);
    assert_int_equal(t.tRTW, t.tCL + t.tBURST + 2 - t.tWL);
    /* ns -> cycles at 924 MHz: cycles = ns * 924 / 1000, tFAW and tRFC
     * rounded up, tREFI rounded down. */
    assert_true(t.tFAW * 1000u >= 23u * 924 && (t.tFAW - 1) * 1000u < 23u * 924);
    assert_true(t.tRFC * 1000u >= 65u * 924 && (t.tRFC - 1) * 1000u < 65u * 924);
    assert_true(t.tREFI * 1000u <= 3900u * 924 && (t.tREFI + 1) * 1000u > 3900u * 924);
    /* one tRCD for reads and writes */
    assert_int_equal(t.tRCDWR, 0);
    gm_error err;
    assert_int_equal(gm_dram_timing_check(&t, &err), 0);
    t.tBURST = 0;
    assert_int_not_equal(gm_dram_timing_check(&t, &err), 0);
    /* the rest of the standard: Table II's 924 MHz and 16 banks in 4
     * groups; a 64-bit channel (two x32 devices) with BL8 moves 8 x 8 B per
     * column command; two devices' 2 KB pages make the row */
    const gm_dram_standard *s = &gm_dram_std_gddr5;
    assert_int_equal(s->clock_mhz, 924);
    assert_int_equal(s->banks, 16);
    assert_int_equal(s->bank_groups, 4);
    assert_int_equal(s->atom_bytes, 8 * 8);
    assert_int_equal(s->row_bytes, 2 * 2048);
    assert_int_equal(s->refresh, GM_DRAM_REFRESH_ALL_BANK);
    assert_null(s->check);
}

/* The registry: value 0 is gddr5 (the default), every entry's name is its
 * INI name, lookup by name, and loading a standard touches only the keys
 * it owns. */
static void test_registry(void **state)
{
    (void)state;
    assert_true(gm_dram_standard_count() >= 2);
    assert_ptr_equal(gm_dram_standard_at(0), &gm_dram_std_gddr5);
    for (uint32_t i = 0; i < gm_dram_standard_count(); i++) {
        const gm_dram_standard *s = gm_dram_standard_at(i);
        assert_non_null(s);
        assert_string_equal(gm_dram_standard_names[i], s->name);
        assert_ptr_equal(gm_dram_standard_find(s->name), s);
        assert_true(s->nrules >= 1 && s->nrules <= GM_DRAM_MAX_RULES);
        assert_string_equal(s->levels[0], "channel");
    }
    assert_null(gm_dram_standard_names[gm_dram_standard_count()]);
    assert_null(gm_dram_standard_at(gm_dram_standard_count()));
    assert_null(gm_dram_standard_find("ddr3"));

    gm_dram_cfg d;
    memset(&d, 0xA5, sizeof d);
    d.standard = 1;
    gm_dram_standard_load(&d);
    const gm_dram_standard *s = gm_dram_standard_at(1);
    assert_int_equal(d.clock_mhz, s->clock_mhz);
    assert_int_equal(d.banks, s->banks);
    assert_int_equal(d.bank_groups, s->bank_groups);
    assert_int_equal(d.row_bytes, s->row_bytes);
    assert_int_equal(d.atom_bytes, s->atom_bytes);
    assert_memory_equal(&d.t, &s->timing, sizeof d.t);
    assert_int_equal(d.channels, 0xA5A5A5A5u);
    assert_int_equal(d.queue, 0xA5A5A5A5u);
    assert_int_equal(d.sched, 0xA5A5A5A5u);
    assert_int_equal(d.partition_bytes, 0xA5A5A5A5u);
    assert_int_equal(d.standard, 1);

    gm_error err = {{0}};
    d.standard = gm_dram_standard_count();
    assert_int_not_equal(gm_dram_standard_check(&d, &err), 0);
    assert_non_null(strstr(err.msg, "[dram] standard"));
    gm_dram_cfg before = d;
    gm_dram_standard_load(&d); /* unknown: untouched */
    assert_memory_equal(&d, &before, sizeof d);
}

/* The GDDR5 table is exactly the datasheet's constraints (docs/dram.md),
 * and the engine applies each row to exactly the banks of its scope. */
static void test_timing_table(void **state)
{
    (void)state;
    gm_dram_timing t;
    gm_dram_timing_hynix_gddr5(&t);
    /* distinct values so a wrong row shows */
    t.tRRDS = 5; t.tRRDL = 7; t.tCCDS = 2; t.tCCDL = 4; t.tWTRS = 3; t.tWTRL = 6;
    t.tRCDWR = 9;
    const want_rule want[] = {
        W(BANK, ACT, ACT, 0, "tRC", t.tRC),
        W(GROUP, ACT, ACT, 0, "tRRDL", t.tRRDL),
        W(OTHER_GROUPS, ACT, ACT, 0, "tRRDS", t.tRRDS),
        W(CHANNEL, ACT, ACT, 4, "tFAW", t.tFAW),
        W(BANK, ACT, RD, 0, "tRCD", t.tRCD),
        W(BANK, ACT, WR, 0, "tRCDWR", 9),
        W(BANK, ACT, PRE, 0, "tRAS", t.tRAS),
        W(BANK, PRE, ACT, 0, "tRP", t.tRP),
        W(GROUP, RD, RD, 0, "tCCDL", t.tCCDL),
        W(OTHER_GROUPS, RD, RD, 0, "tCCDS", t.tCCDS),
        W(CHANNEL, RD, RD, 0, "tBURST", t.tBURST),
        W(GROUP, WR, WR, 0, "tCCDL", t.tCCDL),
        W(OTHER_GROUPS, WR, WR, 0, "tCCDS", t.tCCDS),
        W(CHANNEL, WR, WR, 0, "tBURST", t.tBURST),
        W(CHANNEL, RD, WR, 0, "tRTW", t.tRTW),
        W(GROUP, WR, RD, 0, "tWL+tBURST+tWTRL", t.tWL + t.tBURST + t.tWTRL),
        W(OTHER_GROUPS, WR, RD, 0, "tWL+tBURST+tWTRS", t.tWL + t.tBURST + t.tWTRS),
        W(BANK, RD, PRE, 0, "tRTP", t.tRTP),
        W(BANK, WR, PRE, 0, "tWL+tBURST+tWR", t.tWL + t.tBURST + t.tWR),
        W(CHANNEL, PRE, REF, 0, "tRP", t.tRP),
        W(CHANNEL, REF, ACT, 0, "tRFC", t.tRFC),
        W(CHANNEL, REF, REF, 0, "tRFC", t.tRFC),
    };
    check_rules_equal(&gm_dram_std_gddr5, &t, want, sizeof want / sizeof want[0]);
    check_engine(&gm_dram_std_gddr5, &t);
    /* tRCDWR = 0 (the default) is read as tRCD */
    t.tRCDWR = 0;
    for (uint32_t i = 0; i < gm_dram_std_gddr5.nrules; i++) {
        const gm_dram_rule *r = &gm_dram_std_gddr5.rules[i];
        if (r->prev == GM_DRAM_ACT && r->next == GM_DRAM_WR)
            assert_int_equal(gm_dram_rule_latency(r, &t), t.tRCD);
    }
    check_engine(&gm_dram_std_gddr5, &t);
}

/* REF -> REF cannot be reached through traffic (tREFI > tRFC is enforced),
 * so this row is checked on the timer alone: a second REF, and any ACT,
 * must wait tRFC; 4 ACTs then close the tFAW window. */
static void test_tRFC_ref_to_ref_timer(void **state)
{
    (void)state;
    gm_dram_timing t;
    gm_dram_timing_hynix_gddr5(&t);
    gm_dram_timer tm;
    gm_error err;
    assert_int_equal(gm_dram_timer_init(&tm, gm_dram_std_gddr5.rules,
                                        gm_dram_std_gddr5.nrules, &t, 16, 4, &err), 0);
    assert_int_equal(gm_dram_timer_earliest(&tm, GM_DRAM_REF, 0), 0);
    gm_dram_timer_issue(&tm, GM_DRAM_REF, 0, 100);
    assert_int_equal(gm_dram_timer_earliest(&tm, GM_DRAM_REF, 0), 100 + 61);
    for (uint32_t b = 0; b < 16; b++)
        assert_int_equal(gm_dram_timer_earliest(&tm, GM_DRAM_ACT, b), 100 + 61);
    /* 4 ACTs to banks of 4 groups at tRRDS spacing: 5th waits for the
     * window of the 1st */
    t.tFAW = 40;
    gm_dram_timer_free(&tm);
    assert_int_equal(gm_dram_timer_init(&tm, gm_dram_std_gddr5.rules,
                                        gm_dram_std_gddr5.nrules, &t, 16, 4, &err), 0);
    for (uint32_t k = 0; k < 4; k++)
        gm_dram_timer_issue(&tm, GM_DRAM_ACT, k, 1000 + 6 * k);
    assert_int_equal(gm_dram_timer_earliest(&tm, GM_DRAM_ACT, 9), 1040);
    gm_dram_timer_issue(&tm, GM_DRAM_ACT, 9, 1040);
    assert_int_equal(gm_dram_timer_earliest(&tm, GM_DRAM_ACT, 10), 1006 + 40);
    gm_dram_timer_free(&tm);
}

/* Input links are served round robin, one request per tick. */
static void test_accept_round_robin(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    gm_req *r[8];
    int n0 = 0, n1 = 0;
    /* four lines for each link: local 0..127 is slice 0, 256..383 slice 1 */
    for (uint32_t k = 0; n0 < 4 || n1 < 4; k++) {
        uint64_t a = addr_of(h, k % 16, 0, 0);
        uint64_t a1 = addr_of(h, k % 16, 0, 4); /* +256 B local: the other slice */
        if (n0 < 4)
            r[2 * n0++] = h_send_addr(h, a, 0);
        if (n1 < 4)
            r[2 * n1++ + 1] = h_send_addr(h, a1, 0);
    }
    h_tick(h);
    for (int i = 0; i < 8; i++)
        h_tick(h);
    int first = r[0]->t_dram < r[1]->t_dram ? 0 : 1;
    uint64_t prev = 0;
    for (int i = 0; i < 8; i++) {
        /* alternate between the links, one per tick */
        gm_req *q = r[(i / 2) * 2 + ((i + first) % 2)];
        assert_int_equal(q->slice % NLINKS, (uint32_t)((i + first) % 2));
        if (i)
            assert_int_equal(q->t_dram, prev + period(h));
        prev = q->t_dram;
    }
    h_run_idle(h);
    h_free(h);
}

/* ---- one test per timing constraint, through the channel ---------------- */

static void test_tRCD(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    gm_req *r = h_send(h, 3, 5, 0, 0);
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 3);
    expect_after(h, a, GM_DRAM_RD, 3, h->cfg.t.tRCD, r);
    h_run_idle(h);
    size_t mark = h->nhist;
    r = h_send(h, 6, 2, 0, 1);
    a = run_until_cmd(h, mark, GM_DRAM_ACT, 6);
    expect_after(h, a, GM_DRAM_WR, 6, h->cfg.t.tRCD, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);

    /* a separate activate-to-write (GPGPU-Sim would use tRCD - (WL + 1)
     * = 7) */
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRCDWR = 7;
    h = h_new(&c, 16);
    r = h_send(h, 6, 2, 0, 1);
    a = run_until_cmd(h, 0, GM_DRAM_ACT, 6);
    expect_after(h, a, GM_DRAM_WR, 6, 7, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tRAS(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, 0, 2, 0, 0);  /* conflict: needs PRE */
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    /* the open row's reads end at ACT+15, their tRTP at +17: tRAS binds */
    expect_after(h, a, GM_DRAM_PRE, 0, h->cfg.t.tRAS, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tRP(void **state)
{
    (void)state;
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRC = 30;  /* default tRC = tRAS + tRP would bind at the same cycle */
    harness *h = h_new(&c, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, 0, 2, 0, 0);
    size_t p = run_until_cmd(h, 0, GM_DRAM_PRE, 0);
    expect_after(h, p, GM_DRAM_ACT, 0, c.t.tRP, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tRC(void **state)
{
    (void)state;
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRC = 50;  /* longer than tRAS + tRP = 40, so tRC binds */
    harness *h = h_new(&c, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, 0, 2, 0, 0);
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    size_t a2 = expect_after(h, a, GM_DRAM_ACT, 0, c.t.tRC, r);
    /* the PRE in between came at tRAS; its tRP alone would allow ACT+40 */
    size_t p = find_cmd(h, a, GM_DRAM_PRE, 0);
    assert_true(p < a2);
    assert_int_equal(h->hist[p].cycle, h->hist[a].cycle + c.t.tRAS);
    assert_true(h->hist[p].cycle + c.t.tRP < h->hist[a2].cycle);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void rrd_case(uint32_t b2, int long_)
{
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRRDS = 4;  /* different from tRRDL so the test sees which applies */
    c.t.tRRDL = 8;
    harness *h = h_new(&c, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, b2, 1, 0, 0);
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    expect_after(h, a, GM_DRAM_ACT, b2, long_ ? c.t.tRRDL : c.t.tRRDS, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tRRDS(void **state)
{
    (void)state;
    rrd_case(1, 0);  /* bank 1 is in group 1, bank 0 in group 0 */
}

static void test_tRRDL(void **state)
{
    (void)state;
    rrd_case(4, 1);  /* bank 4 is in group 0 like bank 0 */
}

static void test_tFAW(void **state)
{
    (void)state;
    gm_dram_cfg c;
    default_cfg(&c);
    /* defaults: 4 x tRRD = 24 > tFAW = 22, so tFAW never binds; make it
     * bind, and push the reads out of the way so they do not take the
     * command bus on the cycles under test. */
    c.t.tFAW = 30;
    c.t.tRCD = 60;
    c.t.tRAS = 60;
    c.t.tRC = 72;
    harness *h = h_new(&c, 16);
    gm_req *r[6];
    r[0] = h_send(h, 0, 1, 0, 0);
    h_run(h, 10);  /* the 2nd ACT comes late, so the window must slide */
    for (uint32_t b = 1; b < 6; b++)
        r[b] = h_send(h, b, 1, 0, 0);
    size_t a[6];
    a[0] = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    for (uint32_t b = 1; b < 4; b++)
        a[b] = run_until_cmd(h, 0, GM_DRAM_ACT, b);
    /* 1st..4th at x, x+10, x+16, x+22 (tRRD); 5th waits for 1st + tFAW */
    assert_true(h->hist[a[3]].cycle + c.t.tRRDS < h->hist[a[0]].cycle + c.t.tFAW);
    a[4] = expect_after(h, a[3], GM_DRAM_ACT, 4,
                        (uint32_t)(h->hist[a[0]].cycle + c.t.tFAW - h->hist[a[3]].cycle),
                        r[4]);
    assert_int_equal(h->hist[a[4]].cycle - h->hist[a[0]].cycle, c.t.tFAW);
    /* 6th: tRRD from the 5th would allow x+36; the window from the 2nd
     * (x+10) says x+40 */
    assert_true(h->hist[a[4]].cycle + c.t.tRRDS < h->hist[a[1]].cycle + c.t.tFAW);
    a[5] = expect_after(h, a[4], GM_DRAM_ACT, 5,
                        (uint32_t)(h->hist[a[1]].cycle + c.t.tFAW - h->hist[a[4]].cycle),
                        r[5]);
    assert_int_equal(h->hist[a[5]].cycle - h->hist[a[1]].cycle, c.t.tFAW);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tCCDL(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    /* one line = two column commands to the same bank (same group) */
    gm_req *r = h_send(h, 2, 1, 0, 0);
    size_t c1 = run_until_cmd(h, 0, GM_DRAM_RD, 2);
    expect_after(h, c1, GM_DRAM_RD, 2, h->cfg.t.tCCDL, r);
    h_run_idle(h);
    size_t mark = h->nhist;
    r = h_send(h, 7, 1, 0, 1);
    c1 = run_until_cmd(h, mark, GM_DRAM_WR, 7);
    expect_after(h, c1, GM_DRAM_WR, 7, h->cfg.t.tCCDL, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void ccds_case(int write)
{
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tCCDS = 3;  /* above tBURST (2) so the data bus does not bind */
    c.t.tCCDL = 5;
    harness *h = h_new(&c, 16);
    uint32_t banks[2] = {0, 1};
    warm(h, banks, 2, 9);
    size_t mark = h->nhist;
    h_send(h, 0, 9, 2, write);
    gm_req *r = h_send(h, 1, 9, 2, write);
    gm_dram_cmd cmd = write ? GM_DRAM_WR : GM_DRAM_RD;
    size_t c1 = run_until_cmd(h, mark, cmd, 0);
    expect_after(h, c1, cmd, 1, c.t.tCCDS, r);
    h_run_idle(h);
    assert_int_equal(h->ch.stats.row_hits, 2);
    check_log(h);
    h_free(h);
}

static void test_tCCDS(void **state)
{
    (void)state;
    ccds_case(0);
    ccds_case(1);
}

static void test_tBURST(void **state)
{
    (void)state;
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tCCDS = 1;  /* only the shared data bus spaces column commands */
    c.t.tCCDL = 1;
    harness *h = h_new(&c, 16);
    gm_req *r = h_send(h, 0, 1, 0, 0);
    size_t c1 = run_until_cmd(h, 0, GM_DRAM_RD, 0);
    expect_after(h, c1, GM_DRAM_RD, 0, c.t.tBURST, r);
    h_run_idle(h);
    size_t mark = h->nhist;
    r = h_send(h, 1, 1, 0, 1);
    c1 = run_until_cmd(h, mark, GM_DRAM_WR, 1);
    expect_after(h, c1, GM_DRAM_WR, 1, c.t.tBURST, r);
    h_run_idle(h);
    assert_int_equal(h->ch.stats.bus_busy, 4 * c.t.tBURST);
    check_log(h);
    h_free(h);
}

static void wtr_case(uint32_t rbank, int long_)
{
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tWTRS = 3;  /* different, so the test sees which one applies */
    c.t.tWTRL = 7;
    harness *h = h_new(&c, 16);
    uint32_t banks[2] = {0, rbank};
    warm(h, banks, 2, 4);
    size_t mark = h->nhist;
    h_send(h, 0, 4, 4, 1);
    gm_req *r = h_send(h, rbank, 4, 4, 0);
    size_t w1 = run_until_cmd(h, mark, GM_DRAM_WR, 0);
    size_t w2 = run_until_cmd(h, w1 + 1, GM_DRAM_WR, 0);
    expect_after(h, w2, GM_DRAM_RD, rbank,
                 c.t.tWL + c.t.tBURST + (long_ ? c.t.tWTRL : c.t.tWTRS), r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tWTRL(void **state)
{
    (void)state;
    wtr_case(4, 1);
}

static void test_tWTRS(void **state)
{
    (void)state;
    wtr_case(1, 0);
}

static void test_tRTW(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    uint32_t banks[2] = {0, 1};
    warm(h, banks, 2, 3);
    size_t mark = h->nhist;
    h_send(h, 0, 3, 2, 0);
    gm_req *r = h_send(h, 1, 3, 2, 1);
    size_t r1 = run_until_cmd(h, mark, GM_DRAM_RD, 0);
    size_t r2 = run_until_cmd(h, r1 + 1, GM_DRAM_RD, 0);
    expect_after(h, r2, GM_DRAM_WR, 1, h->cfg.t.tRTW, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tRTP(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    uint32_t bank0 = 0;
    warm(h, &bank0, 1, 1);
    h_run(h, 50);  /* tRAS of the warm-up ACT is long over */
    size_t mark = h->nhist;
    h_send(h, 0, 1, 2, 0);           /* hit */
    gm_req *r = h_send(h, 0, 2, 0, 0); /* conflict */
    size_t r1 = run_until_cmd(h, mark, GM_DRAM_RD, 0);
    size_t r2 = run_until_cmd(h, r1 + 1, GM_DRAM_RD, 0);
    expect_after(h, r2, GM_DRAM_PRE, 0, h->cfg.t.tRTP, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_tWR(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    uint32_t bank0 = 0;
    warm(h, &bank0, 1, 1);
    h_run(h, 50);
    size_t mark = h->nhist;
    h_send(h, 0, 1, 2, 1);           /* write hit */
    gm_req *r = h_send(h, 0, 2, 0, 0); /* conflict */
    size_t w1 = run_until_cmd(h, mark, GM_DRAM_WR, 0);
    size_t w2 = run_until_cmd(h, w1 + 1, GM_DRAM_WR, 0);
    const gm_dram_timing *t = &h->cfg.t;
    expect_after(h, w2, GM_DRAM_PRE, 0, t->tWL + t->tBURST + t->tWR, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* Data timing: read data is complete tCL + tBURST after the last RD, write
 * data tWL + tBURST after the last WR; the reply leaves on that cycle. */
static void data_case(int write)
{
    harness *h = h_new(NULL, 16);
    gm_req *r = h_send(h, 5, 1, 0, write);
    gm_dram_cmd cmd = write ? GM_DRAM_WR : GM_DRAM_RD;
    size_t c1 = run_until_cmd(h, 0, cmd, 5);
    size_t c2 = run_until_cmd(h, c1 + 1, cmd, 5);
    uint64_t done = h->hist[c2].cycle + (write ? h->cfg.t.tWL : h->cfg.t.tCL) +
                    h->cfg.t.tBURST;
    uint64_t accepted = r->t_dram / period(h);
    while (h_cycle(h) < done - 1) {
        h_tick(h);
        assert_int_equal(r->loc, GM_LOC_DRAM);
    }
    h_tick(h);
    assert_int_equal(r->loc, GM_LOC_L2);
    assert_int_equal(r->t_dram_done, done * period(h));
    if (!write) {
        assert_int_equal(h->ch.stats.read_latency_count, 1);
        assert_int_equal(h->ch.stats.read_latency_sum, done - accepted);
        /* closed bank: tRCD + tCCDL + tCL + tBURST after the ACT, which
         * comes one cycle after acceptance */
        const gm_dram_timing *t = &h->cfg.t;
        assert_int_equal(done - accepted, 1 + t->tRCD + t->tCCDL + t->tCL + t->tBURST);
    }
    h_run_idle(h);
    h_free(h);
}

static void test_tCL(void **state)
{
    (void)state;
    data_case(0);
}

static void test_tWL(void **state)
{
    (void)state;
    data_case(1);
}

/* Refresh: open row closed by PRE, REF tRP later, next ACT tRFC after REF. */
static void test_tRFC_and_pre_to_ref(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    const gm_dram_timing *t = &h->cfg.t;
    uint32_t bank0 = 0;
    warm(h, &bank0, 1, 1);
    while (h_cycle(h) < t->tREFI - 3)
        h_tick(h);
    assert_int_equal(h->ch.stats.refreshes, 0);
    size_t mark = h->nhist;
    gm_req *r = h_send(h, 2, 1, 0, 0);  /* accepted at tREFI - 2 */
    size_t a = run_until_cmd(h, mark, GM_DRAM_ACT, 2);
    /* the ACT went before refresh was due; it delays the PRE by tRAS */
    assert_true(h->hist[a].cycle < t->tREFI);
    size_t mark2 = h->nhist;
    gm_req *r2 = h_send(h, 3, 1, 0, 0);
    size_t p = run_until_cmd(h, mark2, GM_DRAM_PRE, 2);
    assert_int_equal(h->hist[p].cycle, h->hist[a].cycle + t->tRAS);
    /* bank 0 was closed on the due cycle itself */
    size_t p0 = find_cmd(h, mark, GM_DRAM_PRE, 0);
    assert_int_equal(h->hist[p0].cycle, t->tREFI);
    /* no ACT for bank 3 while the refresh is pending */
    assert_int_equal(find_cmd(h, mark2, GM_DRAM_ACT, 3), SIZE_MAX);
    size_t ref = expect_after(h, p, GM_DRAM_REF, 0, t->tRP, r2);
    /* bank 2's request lost its row to the refresh and is the oldest */
    size_t a2 = expect_after(h, ref, GM_DRAM_ACT, 2, t->tRFC, r);
    assert_true(find_cmd(h, a2, GM_DRAM_ACT, 3) == SIZE_MAX ||
                find_cmd(h, a2, GM_DRAM_ACT, 3) > a2);
    h_run_idle(h);
    assert_int_equal(h->ch.stats.refreshes, 1);
    check_log(h);
    h_free(h);
}

/* ---- refresh rate ------------------------------------------------------- */

static void test_refresh_idle(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    const gm_dram_timing *t = &h->cfg.t;
    h_run(h, 10 * (uint64_t)t->tREFI + 50);
    assert_int_equal(h->ch.stats.refreshes, 10);
    assert_int_equal(h->nhist, 10);
    for (size_t i = 0; i < h->nhist; i++) {
        assert_int_equal(h->hist[i].cmd, GM_DRAM_REF);
        assert_int_equal(h->hist[i].cycle, (i + 1) * t->tREFI);  /* banks closed */
    }
    assert_false(gm_dram_channel_busy(&h->ch));
    h_free(h);
}

static void test_refresh_busy(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 64);
    const gm_dram_timing *t = &h->cfg.t;
    uint64_t run = 10 * (uint64_t)t->tREFI + 200;
    h_random_traffic(h, run, 60, 4, 30, 40);
    assert_int_equal(h->ch.stats.refreshes, 10);
    size_t k = 0;
    for (size_t i = 0; i < h->nhist; i++) {
        if (h->hist[i].cmd != GM_DRAM_REF)
            continue;
        k++;
        /* due at k * tREFI; closing the banks takes at most tRAS (or a
         * write's recovery) + tRP plus one cycle per open bank */
        assert_true(h->hist[i].cycle >= k * t->tREFI);
        assert_true(h->hist[i].cycle <= k * t->tREFI + 100);
        if (i + 1 < h->nhist)
            assert_true(h->hist[i + 1].cycle >= h->hist[i].cycle + t->tRFC);
    }
    assert_true(h->ch.stats.rd_cmds > 1000);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* ---- scheduling --------------------------------------------------------- */

/* Three requests to bank 0, queued back to back: a miss that opens row 1,
 * an older conflict (row 2), a younger hit (row 1). tRAS of the first ACT
 * holds the conflict's PRE back while the hit is queued. */
static void order_case(uint32_t sched)
{
    gm_dram_cfg c;
    default_cfg(&c);
    c.sched = sched;
    harness *h = h_new(&c, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *old = h_send(h, 0, 2, 0, 0);
    gm_req *young = h_send(h, 0, 1, 2, 0);
    uint64_t t_old = 0, t_young = 0;
    for (int i = 0; i < 1000 && gm_dram_channel_busy(&h->ch); i++) {
        h_tick(h);
        if (!t_old && old->loc == GM_LOC_L2)
            t_old = old->t_dram_done;
        if (!t_young && young->loc == GM_LOC_L2)
            t_young = young->t_dram_done;
    }
    h_run_idle(h);
    static const uint8_t frfcfs[] = {GM_DRAM_ACT, GM_DRAM_RD, GM_DRAM_RD, GM_DRAM_RD,
                                     GM_DRAM_RD, GM_DRAM_PRE, GM_DRAM_ACT, GM_DRAM_RD,
                                     GM_DRAM_RD};
    static const uint8_t fcfs[] = {GM_DRAM_ACT, GM_DRAM_RD, GM_DRAM_RD, GM_DRAM_PRE,
                                   GM_DRAM_ACT, GM_DRAM_RD, GM_DRAM_RD, GM_DRAM_PRE,
                                   GM_DRAM_ACT, GM_DRAM_RD, GM_DRAM_RD};
    const uint8_t *want = sched == GM_DRAM_FRFCFS ? frfcfs : fcfs;
    size_t n = sched == GM_DRAM_FRFCFS ? sizeof frfcfs : sizeof fcfs;
    assert_int_equal(h->nhist, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(h->hist[i].cmd, want[i]);
    const gm_dram_stats *s = &h->ch.stats;
    assert_int_equal(s->row_misses, 1);
    if (sched == GM_DRAM_FRFCFS) {
        /* the younger hit rides on the open row before the older conflict */
        assert_int_equal(h->hist[6].row, 2);
        assert_true(t_young < t_old);
        assert_int_equal(s->row_hits, 1);
        assert_int_equal(s->row_conflicts, 1);
        assert_int_equal(s->activates, 2);
    } else {
        /* strict order: the old request closes row 1, the young one must
         * reopen it */
        assert_int_equal(h->hist[4].row, 2);
        assert_int_equal(h->hist[8].row, 1);
        assert_true(t_old < t_young);
        assert_int_equal(s->row_hits, 0);
        assert_int_equal(s->row_conflicts, 2);
        assert_int_equal(s->activates, 3);
    }
    check_log(h);
    h_free(h);
}

static void test_frfcfs_order(void **state)
{
    (void)state;
    order_case(GM_DRAM_FRFCFS);
}

static void test_fcfs_order(void **state)
{
    (void)state;
    order_case(GM_DRAM_FCFS);
}

/* FR-FCFS first-ready across banks: an older request whose ACT is held
 * back by tRRD does not stop a younger row hit in another bank. */
static void test_frfcfs_first_ready(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    uint32_t bank5 = 5;
    warm(h, &bank5, 1, 7);
    h_run(h, 40);
    size_t mark = h->nhist;
    h_send(h, 0, 1, 0, 0);    /* ACT bank 0 */
    h_tick(h);
    h_send(h, 1, 1, 0, 0);    /* ACT bank 1: waits tRRDS after bank 0's */
    h_tick(h);
    h_send(h, 5, 7, 2, 0);    /* youngest: hit in bank 5 */
    h_run_idle(h);
    size_t a1 = find_cmd(h, mark, GM_DRAM_ACT, 1);
    size_t hit = find_cmd(h, mark, GM_DRAM_RD, 5);
    assert_true(hit < a1);
    check_log(h);
    h_free(h);
}

/* ---- conservation, back-pressure, determinism --------------------------- */

static void conservation_case(uint32_t sched, uint32_t out_cap, uint32_t pop_pct,
                              const gm_dram_timing *tt)
{
    gm_dram_cfg c;
    default_cfg(&c);
    c.sched = sched;
    if (tt)
        c.t = *tt;
    harness *h = h_new(&c, out_cap);
    h->pop_percent = pop_pct;
    h_random_traffic(h, 12000, 50, 3, 30, 64);
    uint64_t sent = h->pool.allocated;
    h->pop_percent = 100;
    h_run_idle(h);
    assert_true(sent > 500);
    assert_int_equal(h->replies, sent);
    assert_int_equal(h->ch.qn, 0);
    assert_int_equal(h->ch.dn, 0);
    const gm_dram_stats *s = gm_dram_channel_stats(&h->ch);
    assert_int_equal(s->reads + s->writes, sent);
    assert_int_equal(s->row_hits + s->row_misses + s->row_conflicts, sent);
    assert_int_equal(s->rd_cmds, 2 * s->reads);
    assert_int_equal(s->wr_cmds, 2 * s->writes);
    assert_true(s->max_queue <= c.queue);
    assert_int_equal(s->bus_busy, (s->rd_cmds + s->wr_cmds) * c.t.tBURST);
    assert_true(s->bus_busy <= s->cycles);
    assert_true(s->refreshes >= 3);
    uint64_t acts = 0, pres = 0;
    for (size_t i = 0; i < h->nhist; i++) {
        acts += h->hist[i].cmd == GM_DRAM_ACT;
        pres += h->hist[i].cmd == GM_DRAM_PRE;
    }
    assert_int_equal(acts, s->activates);
    assert_int_equal(pres, s->precharges);
    check_log(h);
    h_free(h);
}

static void test_conservation(void **state)
{
    (void)state;
    conservation_case(GM_DRAM_FRFCFS, 64, 100, NULL);
    conservation_case(GM_DRAM_FCFS, 64, 100, NULL);
    /* return links of one entry, drained at random: replies are held,
     * never lost or duplicated */
    conservation_case(GM_DRAM_FRFCFS, 1, 30, NULL);
    conservation_case(GM_DRAM_FRFCFS, 1, 3, NULL);
    /* tight timings where the data bus and tFAW bind */
    gm_dram_timing t;
    gm_dram_timing_hynix_gddr5(&t);
    t.tCCDS = 1;
    t.tCCDL = 1;
    t.tRRDS = 2;
    t.tRRDL = 3;
    t.tFAW = 20;
    t.tREFI = 1500;
    conservation_case(GM_DRAM_FRFCFS, 64, 100, &t);
}

/* Expected throughput from first principles (independent of the model's
 * code). A read is 2 column commands = 2 x tBURST = 4 data-bus cycles.
 * - Lines spread over banks of all 4 groups, rows kept open: column
 *   commands to different groups may go every tCCDS = tBURST cycles, so the
 *   data bus should be busy nearly all the time.
 * - One bank streaming through its rows: column commands to one bank group
 *   are tCCDL = 3 apart, so at most tBURST/tCCDL = 2/3 of the bus, less the
 *   row switches.
 * - Random rows: one ACT per request, ACTs at least tRRDS = tRRDL = 6
 *   apart (tFAW/4 = 5.5 is looser): 6 cycles per request is a hard floor. */
enum { FEED_GROUPS, FEED_ONE_BANK, FEED_RANDOM };

static uint64_t feed(harness *h, uint64_t n, int mode)
{
    gm_prng g;
    gm_prng_seed(&g, 5, (uint64_t)mode);
    uint64_t sent = 0, first = 0;
    while (sent < n) {
        if (h->pool.live < 48) {
            uint32_t bank, col;
            uint64_t row;
            if (mode == FEED_RANDOM) {
                bank = (uint32_t)gm_prng_below(&g, h->cfg.banks);
                row = gm_prng_below(&g, 1u << 14);
                col = (uint32_t)gm_prng_below(&g, 32) * 2;
            } else if (mode == FEED_GROUPS) {
                bank = (uint32_t)(sent % 4);      /* banks 0..3 = groups 0..3 */
                row = sent / 4 / 32;
                col = (uint32_t)(sent / 4 % 32) * 2;
            } else {
                bank = 0;
                row = sent / 32;
                col = (uint32_t)(sent % 32) * 2;
            }
            uint64_t a = addr_of(h, bank, row, col);
            if (gm_link_can_push(&h->in[gm_addr_slice(&h->map, a) % NLINKS], h->clk.now)) {
                h_send_addr(h, a, 0);
                sent++;
            }
        }
        h_tick(h);
        if (!first)
            first = h->ticks;
    }
    h_run_idle(h);
    return h->ticks - first;
}

static void test_bandwidth(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 64);
    uint64_t cyc = feed(h, 4000, FEED_GROUPS);
    const gm_dram_stats *s = &h->ch.stats;
    assert_int_equal(s->bus_busy, 4000 * 4);
    /* >= 95 % of the data bus (refresh alone costs ~2.5 %) */
    assert_true(s->bus_busy * 100 >= cyc * 95);
    assert_true(s->row_hits >= 4000 - 4000 / 32 - 2 * s->refreshes * 4);
    check_log(h);
    h_free(h);

    h = h_new(NULL, 64);
    cyc = feed(h, 2000, FEED_ONE_BANK);
    s = &h->ch.stats;
    uint32_t tccdl = h->cfg.t.tCCDL;
    assert_true(cyc >= 2000 * 2 * (uint64_t)tccdl);
    assert_true(cyc * 100 <= 2000 * 2 * (uint64_t)tccdl * 115);
    check_log(h);
    h_free(h);

    h = h_new(NULL, 64);
    cyc = feed(h, 3000, FEED_RANDOM);
    s = &h->ch.stats;
    assert_true(s->activates >= 2990);
    assert_true(cyc >= 6 * (s->activates - 1));
    /* within 15 % of the tRRD floor: refresh costs ~2.5 %, and with 4
     * commands per request every 6 cycles the single command bus often
     * has a column command (which has priority) on the cycle an ACT became
     * legal, pushing the whole ACT chain back a cycle */
    assert_true(cyc * 100 <= 6 * 3000 * 115);
    check_log(h);
    h_free(h);
}

static uint64_t run_hash(void)
{
    harness *h = h_new(NULL, 4);
    h->pop_percent = 50;
    h_random_traffic(h, 8000, 40, 4, 25, 64);
    h->pop_percent = 100;
    h_run_idle(h);
    uint64_t x = 1469598103934665603ULL;
    for (size_t i = 0; i < h->nhist; i++)
        x = (x ^ (h->hist[i].cycle * 131 + h->hist[i].cmd * 17 + h->hist[i].bank)) *
            0x100000001b3ULL;
    x ^= h->reply_hash;
    const gm_dram_stats *s = gm_dram_channel_stats(&h->ch);
    x = (x ^ s->read_latency_sum ^ (s->row_hits << 32) ^ s->cycles) * 0x100000001b3ULL;
    h_free(h);
    return x;
}

static void test_determinism(void **state)
{
    (void)state;
    assert_true(run_hash() == run_hash());
}

static void test_init_rejects(void **state)
{
    (void)state;
    gm_dram_cfg c;
    gm_dram_channel ch;
    gm_error err = {{0}};
    default_cfg(&c);
    c.queue = 0;
    assert_int_not_equal(gm_dram_channel_init(&ch, &c, 0, &err), 0);
    default_cfg(&c);
    c.atom_bytes = 48;
    assert_int_not_equal(gm_dram_channel_init(&ch, &c, 0, &err), 0);
    default_cfg(&c);
    c.t.tREFI = 50;
    assert_int_not_equal(gm_dram_channel_init(&ch, &c, 0, &err), 0);
    assert_non_null(strstr(err.msg, "tREFI"));
    default_cfg(&c);
    assert_int_not_equal(gm_dram_channel_init(&ch, &c, 16, &err), 0);
    default_cfg(&c);
    c.bank_groups = 3;
    assert_int_not_equal(gm_dram_channel_init(&ch, &c, 0, &err), 0);
}

/* ---- sector access (sectored L2) ----------------------------------------- */

/* Column commands for a sector mask, counted by hand from the byte ranges
 * (sector k = bytes 32k..32k+31 of the 128 B line). */
static void test_cols_for_sectors(void **state)
{
    (void)state;
    /* 64 B atoms: sectors 0-1 share atom 0, sectors 2-3 atom 1 */
    assert_int_equal(gm_dram_cols_for_sectors(64, 0x1), 1);
    assert_int_equal(gm_dram_cols_for_sectors(64, 0x3), 1);
    assert_int_equal(gm_dram_cols_for_sectors(64, 0x5), 2);
    assert_int_equal(gm_dram_cols_for_sectors(64, 0x6), 2);
    assert_int_equal(gm_dram_cols_for_sectors(64, 0xf), 2);
    /* 32 B atoms: one per sector */
    assert_int_equal(gm_dram_cols_for_sectors(32, 0x5), 2);
    assert_int_equal(gm_dram_cols_for_sectors(32, 0xf), 4);
    /* 128 B atom: the whole line whatever is asked */
    assert_int_equal(gm_dram_cols_for_sectors(128, 0x8), 1);
    assert_int_equal(gm_dram_cols_for_sectors(128, 0xf), 1);
    /* 16 B atoms: two per sector */
    assert_int_equal(gm_dram_cols_for_sectors(16, 0x1), 2);
    assert_int_equal(gm_dram_cols_for_sectors(16, 0x9), 4);
    assert_int_equal(gm_dram_cols_for_sectors(16, 0xf), 8);
    assert_int_equal(gm_dram_cols_for_sectors(64, 0x0), 0);
}

/* With sector access on, a read of one sector issues one column command
 * (64 B atom) where a line read issues two; off, the mask is ignored. */
static void test_sector_access_reads(void **state)
{
    (void)state;
    for (int on = 0; on <= 1; on++) {
        harness *h = h_new(NULL, 16);
        assert_int_equal(h->cfg.atom_bytes, 64); /* the counts below assume it */
        gm_dram_channel_set_sector_access(&h->ch, on);
        gm_req *r = h_send(h, 2, 5, 0, 0);
        r->sectors = 0x4;
        gm_req *w = h_send(h, 3, 5, 0, 1);
        w->sectors = 0x3;
        h_run_idle(h);
        const gm_dram_stats *st = gm_dram_channel_stats(&h->ch);
        uint32_t line_cols = GM_LINE_BYTES / h->cfg.atom_bytes;
        assert_int_equal(st->rd_cmds, on ? 1 : line_cols);
        assert_int_equal(st->wr_cmds, on ? 1 : line_cols);
        assert_int_equal(st->reads, 1);
        assert_int_equal(st->writes, 1);
        h_free(h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_examples),
        cmocka_unit_test(test_map_bijection),
        cmocka_unit_test(test_map_rejects),
        cmocka_unit_test(test_hynix_defaults),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_timing_table),
        cmocka_unit_test(test_tRFC_ref_to_ref_timer),
        cmocka_unit_test(test_accept_round_robin),
        cmocka_unit_test(test_tRCD),
        cmocka_unit_test(test_tRAS),
        cmocka_unit_test(test_tRP),
        cmocka_unit_test(test_tRC),
        cmocka_unit_test(test_tRRDS),
        cmocka_unit_test(test_tRRDL),
        cmocka_unit_test(test_tFAW),
        cmocka_unit_test(test_tCCDL),
        cmocka_unit_test(test_tCCDS),
        cmocka_unit_test(test_tBURST),
        cmocka_unit_test(test_tWTRL),
        cmocka_unit_test(test_tWTRS),
        cmocka_unit_test(test_tRTW),
        cmocka_unit_test(test_tRTP),
        cmocka_unit_test(test_tWR),
        cmocka_unit_test(test_tCL),
        cmocka_unit_test(test_tWL),
        cmocka_unit_test(test_tRFC_and_pre_to_ref),
        cmocka_unit_test(test_refresh_idle),
        cmocka_unit_test(test_refresh_busy),
        cmocka_unit_test(test_frfcfs_order),
        cmocka_unit_test(test_fcfs_order),
        cmocka_unit_test(test_frfcfs_first_ready),
        cmocka_unit_test(test_conservation),
        cmocka_unit_test(test_bandwidth),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_init_rejects),
        cmocka_unit_test(test_cols_for_sectors),
        cmocka_unit_test(test_sector_access_reads),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
