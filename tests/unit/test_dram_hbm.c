/* HBM tests: the hbm standard's values and table, one test per timing rule
 * through a channel (the pattern of test_dram.c: the request that needs
 * the following command is queued, it does not issue one cycle early, and
 * issues exactly at the bound), refresh, the four-activate window, the
 * bank-group short/long pairs, HBM's own limits, an end-to-end channel
 * (reads and writes complete, row hits and peak bandwidth of a stream
 * against the arithmetic), the [dram] standard key, and a whole-system run.
 *
 * Expected values are written from the SelRep seed's Table I, Ramulator
 * 1.0's HBM table and JEDEC figures (docs/dram.md), not read back from the
 * model. */
#define HARNESS_STANDARD "hbm"
#include "test_dram_harness.h"

#include <stdio.h>

#include "config/config.h"
#include "stats/report.h"
#include "system/system.h"
#include "workload/workload.h"

/* ---- the standard ----------------------------------------------------- */

static void test_hbm_values(void **state)
{
    (void)state;
    const gm_dram_standard *s = gm_dram_standard_find("hbm");
    assert_ptr_equal(s, &gm_dram_std_hbm);
    const gm_dram_timing *t = &s->timing;
    /* seed, Table I: tRC=24, tRCD=7, tRP=7, tCL=7, tWL=2, tRAS=17,
     * tRRDl=5, tRRDs=4, tFAW=20, tRTP=7, tCCDl=1, tCCDs=1 */
    assert_int_equal(t->tRC, 24);
    assert_int_equal(t->tRCD, 7);
    assert_int_equal(t->tRP, 7);
    assert_int_equal(t->tCL, 7);
    assert_int_equal(t->tWL, 2);
    assert_int_equal(t->tRAS, 17);
    assert_int_equal(t->tRRDL, 5);
    assert_int_equal(t->tRRDS, 4);
    assert_int_equal(t->tFAW, 20);
    assert_int_equal(t->tRTP, 7);
    assert_int_equal(t->tCCDL, 1);
    assert_int_equal(t->tCCDS, 1);
    /* seed: 16 banks per channel; Ramulator HBM_4Gb: 4 bank groups of 4 */
    assert_int_equal(s->banks, 16);
    assert_int_equal(s->bank_groups, 4);
    /* 128-bit channel, BL4 on a double-data-rate bus: 4 x 16 B per column
     * command in 2 clocks; page 128 columns x 16 B */
    assert_int_equal(s->atom_bytes, 4 * 16);
    assert_int_equal(t->tBURST, 4 / 2);
    assert_int_equal(s->row_bytes, 128 * 16);
    /* Ramulator 1.0 HBM_1Gbps: nWR 8, nWTRS 2, nWTRL 4; RD->WR as
     * CL + BL/2 + 2 - CWL */
    assert_int_equal(t->tWR, 8);
    assert_int_equal(t->tWTRS, 2);
    assert_int_equal(t->tWTRL, 4);
    assert_int_equal(t->tRTW, t->tCL + t->tBURST + 2 - t->tWL);
    assert_int_equal(t->tRCDWR, 0);
    /* clock: 4 stacks x 8 channels x (atom / tBURST) B per clock x f gives
     * the seed's 600 GB/s within 0.1 % */
    uint64_t bw = 4ull * 8 * (s->atom_bytes / t->tBURST) * s->clock_mhz * 1000000ull;
    assert_true(bw >= 600000000000ull && bw <= 600600000000ull);
    /* JEDEC 4 Gb HBM channel: tRFC 260 ns (rounded up), tREFI 3.9 us
     * (rounded down), at clock_mhz: cycles = ns * MHz / 1000 */
    assert_true(t->tRFC * 1000u >= 260u * s->clock_mhz &&
                (t->tRFC - 1) * 1000u < 260u * s->clock_mhz);
    assert_true(t->tREFI * 1000u <= 3900u * s->clock_mhz &&
                (t->tREFI + 1) * 1000u > 3900u * s->clock_mhz);
    assert_int_equal(s->refresh, GM_DRAM_REFRESH_ALL_BANK);
    gm_error err = {{0}};
    assert_int_equal(gm_dram_timing_check(t, &err), 0);
}

/* The table is Ramulator 1.0's HBM::init_timing for the commands gmsim
 * issues (ACT, PRE, RD, WR, REF), its one rank folded into the channel,
 * and the engine applies every row to exactly the banks of its scope. */
static void test_hbm_table(void **state)
{
    (void)state;
    gm_dram_timing t = gm_dram_std_hbm.timing;
    /* distinct values so a wrong row shows */
    t.tCCDS = 2;
    t.tCCDL = 3;
    t.tRCDWR = 6;
    const want_rule want[] = {
        /* Channel */
        W(CHANNEL, RD, RD, 0, "tBURST", t.tBURST),
        W(CHANNEL, WR, WR, 0, "tBURST", t.tBURST),
        /* Rank */
        W(CHANNEL, RD, RD, 0, "tCCDS", 2),
        W(CHANNEL, WR, WR, 0, "tCCDS", 2),
        W(CHANNEL, RD, WR, 0, "tRTW", t.tRTW),
        W(CHANNEL, WR, RD, 0, "tWL+tBURST+tWTRS", t.tWL + t.tBURST + t.tWTRS),
        W(CHANNEL, ACT, ACT, 0, "tRRDS", t.tRRDS),
        W(CHANNEL, ACT, ACT, 4, "tFAW", t.tFAW),
        W(CHANNEL, PRE, REF, 0, "tRP", t.tRP),
        W(CHANNEL, REF, ACT, 0, "tRFC", t.tRFC),
        W(CHANNEL, REF, REF, 0, "tRFC", t.tRFC),
        /* BankGroup */
        W(GROUP, RD, RD, 0, "tCCDL", 3),
        W(GROUP, WR, WR, 0, "tCCDL", 3),
        W(GROUP, WR, RD, 0, "tWL+tBURST+tWTRL", t.tWL + t.tBURST + t.tWTRL),
        W(GROUP, ACT, ACT, 0, "tRRDL", t.tRRDL),
        /* Bank */
        W(BANK, ACT, RD, 0, "tRCD", t.tRCD),
        W(BANK, ACT, WR, 0, "tRCDWR", 6),
        W(BANK, RD, PRE, 0, "tRTP", t.tRTP),
        W(BANK, WR, PRE, 0, "tWL+tBURST+tWR", t.tWL + t.tBURST + t.tWR),
        W(BANK, ACT, ACT, 0, "tRC", t.tRC),
        W(BANK, ACT, PRE, 0, "tRAS", t.tRAS),
        W(BANK, PRE, ACT, 0, "tRP", t.tRP),
    };
    check_rules_equal(&gm_dram_std_hbm, &t, want, sizeof want / sizeof want[0]);
    check_engine(&gm_dram_std_hbm, &t);
}

/* What the hbm table and values assume; each error names the key and the
 * allowed value. The defaults pass. */
static void expect_rejected(void (*edit)(gm_dram_cfg *), const char *key, const char *allowed)
{
    gm_dram_cfg c;
    gm_dram_channel ch;
    gm_error err = {{0}};
    std_cfg(&c, "hbm");
    assert_int_equal(gm_dram_standard_check(&c, &err), 0);
    edit(&c);
    assert_int_not_equal(gm_dram_standard_check(&c, &err), 0);
    if (!strstr(err.msg, key) || !strstr(err.msg, allowed) ||
        !strstr(err.msg, "[dram] standard = hbm"))
        fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", err.msg, key, allowed);
    err.msg[0] = '\0';
    assert_int_not_equal(gm_dram_channel_init(&ch, &c, 0, &err), 0);
    assert_non_null(strstr(err.msg, key));
}

static void banks8(gm_dram_cfg *c) { c->banks = 8; c->bank_groups = 2; }
static void groups2(gm_dram_cfg *c) { c->bank_groups = 2; }
static void row1k(gm_dram_cfg *c) { c->row_bytes = 1024; }
static void burst3(gm_dram_cfg *c) { c->t.tBURST = 3; }
static void atom32(gm_dram_cfg *c) { c->atom_bytes = 32; }

static void test_hbm_limits(void **state)
{
    (void)state;
    expect_rejected(banks8, "[dram] banks = 8", "must be 16");
    expect_rejected(groups2, "[dram] bank_groups = 2", "must be 4");
    expect_rejected(row1k, "[dram] row_bytes = 1024", "must be 2K");
    expect_rejected(burst3, "[dram] tBURST = 3", "must be 1 (BL2) or 2 (BL4)");
    expect_rejected(atom32, "[dram] atom_bytes = 32", "must be 32 x [dram] tBURST = 64");
    /* BL2: 32 B atoms in one clock is the other legal burst */
    gm_dram_cfg c;
    gm_error err = {{0}};
    std_cfg(&c, "hbm");
    c.atom_bytes = 32;
    c.t.tBURST = 1;
    assert_int_equal(gm_dram_standard_check(&c, &err), 0);
    /* GDDR5 has no such limits */
    std_cfg(&c, "gddr5");
    c.banks = 8;
    c.row_bytes = 1024;
    assert_int_equal(gm_dram_standard_check(&c, &err), 0);
}

/* REF -> REF cannot be reached through traffic (tREFI > tRFC), so it is
 * checked on the timer: a second REF, and any ACT, wait tRFC. */
static void test_hbm_ref_to_ref_timer(void **state)
{
    (void)state;
    const gm_dram_standard *s = &gm_dram_std_hbm;
    gm_dram_timer tm;
    gm_error err;
    assert_int_equal(gm_dram_timer_init(&tm, s->rules, s->nrules, &s->timing, 16, 4, &err), 0);
    gm_dram_timer_issue(&tm, GM_DRAM_REF, 0, 100);
    assert_int_equal(gm_dram_timer_earliest(&tm, GM_DRAM_REF, 0), 100 + s->timing.tRFC);
    for (uint32_t b = 0; b < 16; b++)
        assert_int_equal(gm_dram_timer_earliest(&tm, GM_DRAM_ACT, b), 100 + s->timing.tRFC);
    gm_dram_timer_free(&tm);
}

/* ---- one test per timing rule, through the channel --------------------- */

/* ACT -> RD tRCD, ACT -> WR tRCD (tRCDWR = 0) and tRCDWR when set. */
static void test_hbm_tRCD(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    gm_req *r = h_send(h, 3, 5, 0, 0);
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 3);
    expect_after(h, a, GM_DRAM_RD, 3, 7, r);
    h_run_idle(h);
    size_t mark = h->nhist;
    r = h_send(h, 6, 2, 0, 1);
    a = run_until_cmd(h, mark, GM_DRAM_ACT, 6);
    expect_after(h, a, GM_DRAM_WR, 6, 7, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);

    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRCDWR = 5;  /* Ramulator 1.0 has 6; any value other than tRCD shows */
    h = h_new(&c, 16);
    r = h_send(h, 6, 2, 0, 1);
    a = run_until_cmd(h, 0, GM_DRAM_ACT, 6);
    expect_after(h, a, GM_DRAM_WR, 6, 5, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* ACT -> PRE tRAS: the open row's reads are at ACT + 7 and + 9, their tRTP
 * ends at + 16, so tRAS (17) binds. */
static void test_hbm_tRAS(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, 0, 2, 0, 0);
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    expect_after(h, a, GM_DRAM_PRE, 0, 17, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* PRE -> ACT tRP. The seed's tRC (24) = tRAS + tRP would bind on the same
 * cycle, so tRC is lowered. */
static void test_hbm_tRP(void **state)
{
    (void)state;
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRC = 20;
    harness *h = h_new(&c, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, 0, 2, 0, 0);
    size_t p = run_until_cmd(h, 0, GM_DRAM_PRE, 0);
    expect_after(h, p, GM_DRAM_ACT, 0, 7, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* ACT -> ACT tRC, raised above tRAS + tRP so that it binds. */
static void test_hbm_tRC(void **state)
{
    (void)state;
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRC = 30;
    harness *h = h_new(&c, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, 0, 2, 0, 0);
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    size_t a2 = expect_after(h, a, GM_DRAM_ACT, 0, 30, r);
    size_t p = find_cmd(h, a, GM_DRAM_PRE, 0);
    assert_true(p < a2);
    assert_int_equal(h->hist[p].cycle, h->hist[a].cycle + 17);
    assert_true(h->hist[p].cycle + 7 < h->hist[a2].cycle);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* Bank-group pair tRRDS (4) / tRRDL (5): bank 1 is in group 1, bank 4 in
 * group 0 like bank 0. */
static void hbm_rrd_case(uint32_t b2, uint32_t want)
{
    harness *h = h_new(NULL, 16);
    h_send(h, 0, 1, 0, 0);
    gm_req *r = h_send(h, b2, 1, 0, 0);
    size_t a = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    expect_after(h, a, GM_DRAM_ACT, b2, want, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_hbm_tRRD(void **state)
{
    (void)state;
    hbm_rrd_case(1, 4);
    hbm_rrd_case(4, 5);
}

/* Four-activate window. With the seed's values it binds by itself
 * (4 x tRRDS = 16 < tFAW = 20). Reads are pushed out of the way (tRCD,
 * tRAS, tRC raised) so they do not take the command bus on the cycles
 * under test, and the 2nd ACT comes 6 cycles late so the window must
 * slide: ACTs at x, x+6, x+10, x+14; the 5th waits for x+20 (tRRDS alone
 * would allow x+18), the 6th for x+6+20 = x+26 (tRRDS: x+24). */
static void test_hbm_tFAW(void **state)
{
    (void)state;
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tRCD = 60;
    c.t.tRAS = 60;
    c.t.tRC = 72;
    harness *h = h_new(&c, 16);
    gm_req *r[6];
    r[0] = h_send(h, 0, 1, 0, 0);
    size_t a0 = run_until_cmd(h, 0, GM_DRAM_ACT, 0);
    /* sent on cycle x + 4: accepted on x + 5, first command on x + 6 */
    while (h_cycle(h) < h->hist[a0].cycle + 4)
        h_tick(h);
    for (uint32_t b = 1; b < 6; b++)
        r[b] = h_send(h, b, 1, 0, 0);
    size_t a[6];
    a[0] = a0;
    for (uint32_t b = 1; b < 4; b++)
        a[b] = run_until_cmd(h, 0, GM_DRAM_ACT, b);
    uint64_t x = h->hist[a[0]].cycle;
    assert_int_equal(h->hist[a[1]].cycle, x + 6);
    assert_int_equal(h->hist[a[2]].cycle, x + 10);
    assert_int_equal(h->hist[a[3]].cycle, x + 14);
    a[4] = expect_after(h, a[3], GM_DRAM_ACT, 4, 6, r[4]);
    assert_int_equal(h->hist[a[4]].cycle, x + 20);
    a[5] = expect_after(h, a[4], GM_DRAM_ACT, 5, 6, r[5]);
    assert_int_equal(h->hist[a[5]].cycle, x + 26);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* The data bus: a line's two column commands to one bank are tBURST (2)
 * apart, tCCDL (1) being shorter. */
static void test_hbm_tBURST(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    gm_req *r = h_send(h, 0, 1, 0, 0);
    size_t c1 = run_until_cmd(h, 0, GM_DRAM_RD, 0);
    expect_after(h, c1, GM_DRAM_RD, 0, 2, r);
    h_run_idle(h);
    size_t mark = h->nhist;
    r = h_send(h, 1, 1, 0, 1);
    c1 = run_until_cmd(h, mark, GM_DRAM_WR, 1);
    expect_after(h, c1, GM_DRAM_WR, 1, 2, r);
    h_run_idle(h);
    assert_int_equal(h->ch.stats.bus_busy, 4 * 2);
    check_log(h);
    h_free(h);
}

/* Bank-group pair tCCDL / tCCDS. The seed's 1 / 1 hide behind the data
 * bus (tBURST = 2), so both are raised above it: tCCDS = 3, tCCDL = 5. */
static void hbm_ccd_case(int write, uint32_t b2, uint32_t want)
{
    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tCCDS = 3;
    c.t.tCCDL = 5;
    harness *h = h_new(&c, 16);
    uint32_t banks[2] = {0, b2};
    warm(h, banks, 2, 9);
    size_t mark = h->nhist;
    h_send(h, 0, 9, 2, write);
    gm_req *r = h_send(h, b2, 9, 2, write);
    gm_dram_cmd cmd = write ? GM_DRAM_WR : GM_DRAM_RD;
    size_t c1 = run_until_cmd(h, mark, cmd, 0);
    if (b2 % 4 != 0) {
        expect_after(h, c1, cmd, b2, want, r);
    } else {
        /* the older request's second column (same bank, tCCDL) wins the
         * tie; the younger one follows tCCDL after it */
        size_t c2 = run_until_cmd(h, c1 + 1, cmd, 0);
        assert_int_equal(h->hist[c2].cycle - h->hist[c1].cycle, 5);
        expect_after(h, c2, cmd, b2, want, r);
    }
    h_run_idle(h);
    assert_int_equal(h->ch.stats.row_hits, 2);
    check_log(h);
    h_free(h);
}

static void test_hbm_tCCD(void **state)
{
    (void)state;
    hbm_ccd_case(0, 1, 3);  /* other group: tCCDS */
    hbm_ccd_case(0, 4, 5);  /* same group: tCCDL */
    hbm_ccd_case(1, 1, 3);
    hbm_ccd_case(1, 4, 5);
}

/* Bank-group pair of WR -> RD: tWL + tBURST + tWTRS (2 + 2 + 2) to another
 * group, tWL + tBURST + tWTRL (2 + 2 + 4) in the same group. */
static void hbm_wtr_case(uint32_t rbank, uint32_t want)
{
    harness *h = h_new(NULL, 16);
    uint32_t banks[2] = {0, rbank};
    warm(h, banks, 2, 4);
    size_t mark = h->nhist;
    h_send(h, 0, 4, 4, 1);
    gm_req *r = h_send(h, rbank, 4, 4, 0);
    size_t w1 = run_until_cmd(h, mark, GM_DRAM_WR, 0);
    size_t w2 = run_until_cmd(h, w1 + 1, GM_DRAM_WR, 0);
    expect_after(h, w2, GM_DRAM_RD, rbank, want, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_hbm_tWTR(void **state)
{
    (void)state;
    hbm_wtr_case(1, 6);
    hbm_wtr_case(4, 8);
}

/* RD -> WR: tRTW = 9. */
static void test_hbm_tRTW(void **state)
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
    expect_after(h, r2, GM_DRAM_WR, 1, 9, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* RD -> PRE tRTP (7) and WR -> PRE tWL + tBURST + tWR (2 + 2 + 8), on a
 * row opened long ago (tRAS over). */
static void hbm_to_pre_case(int write, uint32_t want)
{
    harness *h = h_new(NULL, 16);
    uint32_t bank0 = 0;
    warm(h, &bank0, 1, 1);
    h_run(h, 50);
    size_t mark = h->nhist;
    h_send(h, 0, 1, 2, write);         /* hit */
    gm_req *r = h_send(h, 0, 2, 0, 0); /* conflict */
    gm_dram_cmd cmd = write ? GM_DRAM_WR : GM_DRAM_RD;
    size_t c1 = run_until_cmd(h, mark, cmd, 0);
    size_t c2 = run_until_cmd(h, c1 + 1, cmd, 0);
    expect_after(h, c2, GM_DRAM_PRE, 0, want, r);
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

static void test_hbm_tRTP_tWR(void **state)
{
    (void)state;
    hbm_to_pre_case(0, 7);
    hbm_to_pre_case(1, 12);
}

/* Data timing: read data complete tCL + tBURST after the last RD, write
 * data tWL + tBURST after the last WR. A read to a closed bank is
 * complete 1 + tRCD + tBURST + tCL + tBURST = 19 cycles after acceptance
 * (ACT the cycle after, two RDs tBURST apart). */
static void hbm_data_case(int write)
{
    harness *h = h_new(NULL, 16);
    gm_req *r = h_send(h, 5, 1, 0, write);
    gm_dram_cmd cmd = write ? GM_DRAM_WR : GM_DRAM_RD;
    size_t c1 = run_until_cmd(h, 0, cmd, 5);
    size_t c2 = run_until_cmd(h, c1 + 1, cmd, 5);
    uint64_t done = h->hist[c2].cycle + (write ? 2 : 7) + 2;
    uint64_t accepted = r->t_dram / period(h);
    while (h_cycle(h) < done - 1) {
        h_tick(h);
        assert_int_equal(r->loc, GM_LOC_DRAM);
    }
    h_tick(h);
    assert_int_equal(r->loc, GM_LOC_L2);
    assert_int_equal(r->t_dram_done, done * period(h));
    if (!write) {
        assert_int_equal(h->ch.stats.read_latency_sum, done - accepted);
        assert_int_equal(done - accepted, 19);
    }
    h_run_idle(h);
    h_free(h);
}

static void test_hbm_tCL_tWL(void **state)
{
    (void)state;
    hbm_data_case(0);
    hbm_data_case(1);
}

/* ---- refresh ------------------------------------------------------------ */

/* All-bank refresh: PRE of the open banks when due, REF tRP after the last
 * PRE, the next ACT tRFC after REF (same flow as the GDDR5 test). */
static void test_hbm_refresh_flow(void **state)
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
    gm_req *r = h_send(h, 2, 1, 0, 0);
    size_t a = run_until_cmd(h, mark, GM_DRAM_ACT, 2);
    assert_true(h->hist[a].cycle < t->tREFI);
    size_t mark2 = h->nhist;
    gm_req *r2 = h_send(h, 3, 1, 0, 0);
    size_t p = run_until_cmd(h, mark2, GM_DRAM_PRE, 2);
    assert_int_equal(h->hist[p].cycle, h->hist[a].cycle + 17);
    size_t p0 = find_cmd(h, mark, GM_DRAM_PRE, 0);
    assert_int_equal(h->hist[p0].cycle, t->tREFI);
    assert_int_equal(find_cmd(h, mark2, GM_DRAM_ACT, 3), SIZE_MAX);
    size_t ref = expect_after(h, p, GM_DRAM_REF, 0, 7, r2);
    expect_after(h, ref, GM_DRAM_ACT, 2, 153, r);
    h_run_idle(h);
    assert_int_equal(h->ch.stats.refreshes, 1);
    check_log(h);
    h_free(h);
}

static void test_hbm_refresh_rate(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 16);
    const gm_dram_timing *t = &h->cfg.t;
    h_run(h, 10 * (uint64_t)t->tREFI + 50);
    assert_int_equal(h->ch.stats.refreshes, 10);
    for (size_t i = 0; i < h->nhist; i++) {
        assert_int_equal(h->hist[i].cmd, GM_DRAM_REF);
        assert_int_equal(h->hist[i].cycle, (i + 1) * t->tREFI);
    }
    h_free(h);

    /* under random traffic: REF k no earlier than k * tREFI, soon after */
    h = h_new(NULL, 64);
    t = &h->cfg.t;
    h_random_traffic(h, 10 * (uint64_t)t->tREFI + 200, 60, 4, 30, 40);
    assert_int_equal(h->ch.stats.refreshes, 10);
    size_t k = 0;
    for (size_t i = 0; i < h->nhist; i++) {
        if (h->hist[i].cmd != GM_DRAM_REF)
            continue;
        k++;
        assert_true(h->hist[i].cycle >= k * t->tREFI);
        assert_true(h->hist[i].cycle <= k * t->tREFI + 60);
    }
    h_run_idle(h);
    check_log(h);
    h_free(h);
}

/* ---- the channel end to end ------------------------------------------- */

/* Random reads and writes under FR-FCFS and FCFS, with and without return
 * back-pressure: every request returns once, the counters add up, and
 * the whole command log obeys the datasheet rules (check_log). */
static void hbm_random_case(uint32_t sched, uint32_t out_cap, uint32_t pop_pct)
{
    gm_dram_cfg c;
    default_cfg(&c);
    c.sched = sched;
    harness *h = h_new(&c, out_cap);
    h->pop_percent = pop_pct;
    h_random_traffic(h, 12000, 50, 3, 30, 64);
    uint64_t sent = h->pool.allocated;
    h->pop_percent = 100;
    h_run_idle(h);
    assert_true(sent > 500);
    assert_int_equal(h->replies, sent);
    const gm_dram_stats *s = gm_dram_channel_stats(&h->ch);
    assert_int_equal(s->reads + s->writes, sent);
    assert_true(s->reads > 100 && s->writes > 100);
    assert_int_equal(s->row_hits + s->row_misses + s->row_conflicts, sent);
    assert_int_equal(s->rd_cmds, 2 * s->reads);
    assert_int_equal(s->wr_cmds, 2 * s->writes);
    assert_int_equal(s->bus_busy, (s->rd_cmds + s->wr_cmds) * 2);
    assert_true(s->refreshes >= 5);
    check_log(h);
    h_free(h);
}

static void test_hbm_random_traffic(void **state)
{
    (void)state;
    hbm_random_case(GM_DRAM_FRFCFS, 64, 100);
    hbm_random_case(GM_DRAM_FCFS, 64, 100);
    hbm_random_case(GM_DRAM_FRFCFS, 1, 30);
}

/* n reads streaming through consecutive lines of banks 0..3 (one bank per
 * group, rows kept open until they are used up), at most 48 outstanding.
 * Returns the cycles from the first request to idle. */
static uint64_t hbm_stream(harness *h, uint64_t n)
{
    uint64_t sent = 0, first = 0;
    uint32_t lines_per_row = h->cfg.row_bytes / GM_LINE_BYTES;
    uint32_t atoms_per_line = GM_LINE_BYTES / h->cfg.atom_bytes;
    while (sent < n) {
        if (h->pool.live < 48) {
            uint32_t bank = (uint32_t)(sent % 4);
            /* bank b starts 4b lines into its first row, so the banks
             * change rows at different times */
            uint64_t line = sent / 4 + 4 * bank;
            uint64_t a = addr_of(h, bank, line / lines_per_row,
                                 (uint32_t)(line % lines_per_row) * atoms_per_line);
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

/* Row misses of hbm_stream: bank b reads lines 4b .. 4b + n/4 - 1 of its
 * rows, one miss per row touched. */
static uint64_t stream_misses(uint64_t n, uint32_t lines_per_row)
{
    uint64_t m = 0;
    for (uint64_t b = 0; b < 4; b++) {
        uint64_t first = 4 * b, last = 4 * b + n / 4 - 1;
        m += last / lines_per_row - first / lines_per_row + 1;
    }
    return m;
}

/* Peak bandwidth of one channel: 64 B every tBURST = 2 cycles of 586 MHz
 * = 18.75 GB/s. A stream over four bank groups, the banks changing rows at
 * different times, keeps the data bus busy except for start-up and
 * refresh: without refresh at least 99 % of peak. Each REF costs about
 * tRTP + tRP + tRFC + tRCD = 174 bus cycles (last read, PRE, REF, ACT,
 * first read) of every tREFI = 2285, so 1 - 174 / 2285 = 92.4 % of peak;
 * the test allows 2 % below that. Row hits: one miss per 2 KB row (16
 * lines) touched, plus at most one per open bank (4) per refresh. */
static void test_hbm_stream_bandwidth(void **state)
{
    (void)state;
    const uint64_t n = 8000;
    harness *h = h_new(NULL, 64);
    const gm_dram_timing *t = &h->cfg.t;
    uint64_t cyc = hbm_stream(h, n);
    const gm_dram_stats *s = &h->ch.stats;
    uint64_t misses = stream_misses(n, h->cfg.row_bytes / GM_LINE_BYTES);
    assert_int_equal(s->reads, n);
    assert_int_equal(s->bus_busy, n * 2 * t->tBURST);
    assert_true(s->refreshes >= cyc / t->tREFI - 1);
    uint64_t cost = t->tRTP + t->tRP + t->tRFC + t->tRCD;
    /* busy / cycles >= (1 - cost / tREFI) - 2 % */
    assert_true(s->bus_busy * 100 * t->tREFI >= cyc * (100 * (t->tREFI - cost) - 2 * t->tREFI));
    /* the same in GB/s: bytes / cycles * 586 MHz, against 18.75 GB/s */
    double gbs = (double)(s->rd_cmds * h->cfg.atom_bytes) / (double)cyc *
                 h->cfg.clock_mhz / 1000.0;
    double peak = (double)h->cfg.atom_bytes / t->tBURST * h->cfg.clock_mhz / 1000.0;
    assert_true(peak > 18.74 && peak < 18.76);
    assert_true(gbs >= 0.904 * peak && gbs <= peak);
    assert_true(s->row_hits >= n - misses - 4 * s->refreshes);
    assert_true(s->row_hits <= n - misses);
    check_log(h);
    h_free(h);

    gm_dram_cfg c;
    default_cfg(&c);
    c.t.tREFI = 0;
    h = h_new(&c, 64);
    cyc = hbm_stream(h, n);
    s = &h->ch.stats;
    assert_int_equal(s->refreshes, 0);
    assert_true(s->bus_busy * 100 >= cyc * 99);
    assert_int_equal(s->row_hits, n - stream_misses(n, 16));
    assert_int_equal(s->activates, stream_misses(n, 16));
    check_log(h);
    h_free(h);
}

/* Random rows in every bank: one ACT per request, and at most 4 ACTs per
 * tFAW = 20 cycles (the window binds before tRRDS: 4 x 4 = 16), so 5
 * cycles per request is a floor; refresh adds about 7.5 %. */
static void test_hbm_random_rows(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 64);
    gm_prng g;
    gm_prng_seed(&g, 5, 2);
    uint64_t sent = 0, first = 0, n = 3000;
    while (sent < n) {
        if (h->pool.live < 48) {
            uint64_t a = addr_of(h, (uint32_t)gm_prng_below(&g, 16),
                                 gm_prng_below(&g, 1u << 14),
                                 (uint32_t)gm_prng_below(&g, 16) * 2);
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
    uint64_t cyc = h->ticks - first;
    const gm_dram_stats *s = &h->ch.stats;
    assert_true(s->activates >= n - 10);
    assert_true(cyc >= 5 * (s->activates - 4));
    assert_true(cyc * 100 <= 5 * n * 115);
    check_log(h);
    h_free(h);
}

/* ---- the [dram] standard key ---------------------------------------------- */

static void set(gm_config *c, const char *a)
{
    gm_error err = {{0}};
    if (gm_config_set(c, a, &err) != 0)
        fail_msg("%s: %s", a, err.msg);
}

static int load_text(gm_config *c, const char *text, gm_error *err)
{
    char path[] = "/tmp/gm_test_dram_hbm_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    int r = gm_config_load_file(c, path, err);
    remove(path);
    return r;
}

static void assert_hbm_values(const gm_config *c)
{
    const gm_dram_standard *s = &gm_dram_std_hbm;
    assert_int_equal(c->dram.clock_mhz, s->clock_mhz);
    assert_int_equal(c->dram.banks, s->banks);
    assert_int_equal(c->dram.bank_groups, s->bank_groups);
    assert_int_equal(c->dram.atom_bytes, s->atom_bytes);
    assert_int_equal(c->dram.row_bytes, s->row_bytes);
}

/* Setting the standard loads its defaults; keys set after it win, and so
 * do keys set anywhere in the same file; a later layer's standard replaces
 * an earlier layer's values. The result validates and survives
 * gm_config_to_ini. */
static void test_hbm_config_key(void **state)
{
    (void)state;
    gm_config c, d;
    gm_error err = {{0}};
    gm_config_defaults(&c);
    assert_int_equal(c.dram.standard, 0);
    gm_dram_timing hynix;
    gm_dram_timing_hynix_gddr5(&hynix);
    assert_memory_equal(&c.dram.t, &hynix, sizeof hynix);

    set(&c, "dram.standard=hbm");
    assert_int_equal(c.dram.standard, 1);
    assert_hbm_values(&c);
    assert_memory_equal(&c.dram.t, &gm_dram_std_hbm.timing, sizeof c.dram.t);
    assert_int_equal(c.dram.channels, 16); /* not the standard's */
    set(&c, "dram.tRCD=9");
    assert_int_equal(c.dram.t.tRCD, 9);
    if (gm_config_validate(&c, &err) != 0)
        fail_msg("%s", err.msg);
    /* -o in order: a standard set after a key replaces it */
    set(&c, "dram.standard=hbm");
    assert_int_equal(c.dram.t.tRCD, 7);
    /* back to gddr5: exactly the defaults again */
    set(&c, "dram.standard=gddr5");
    gm_config_defaults(&d);
    assert_memory_equal(&c, &d, sizeof c);

    /* in one file the order does not matter */
    gm_config_defaults(&c);
    if (load_text(&c, "[dram]\ntRCD = 9\nbanks = 16\nstandard = hbm\ntWR = 10\n", &err))
        fail_msg("%s", err.msg);
    assert_int_equal(c.dram.t.tRCD, 9);
    assert_int_equal(c.dram.t.tWR, 10);
    assert_int_equal(c.dram.t.tRAS, 17);
    assert_hbm_values(&c);
    if (gm_config_validate(&c, &err) != 0)
        fail_msg("%s", err.msg);
    /* a later file switching back replaces what the earlier file set */
    if (load_text(&c, "[dram]\nstandard = gddr5\n", &err))
        fail_msg("%s", err.msg);
    gm_config_defaults(&d);
    assert_memory_equal(&c.dram, &d.dram, sizeof c.dram);

    /* to_ini round trip of an hbm config with overrides */
    gm_config_defaults(&c);
    set(&c, "dram.standard=hbm");
    set(&c, "dram.channels=32");
    set(&c, "dram.tWR=10");
    char *text = gm_config_to_ini(&c);
    assert_non_null(text);
    gm_config_defaults(&d);
    if (load_text(&d, text, &err))
        fail_msg("%s", err.msg);
    assert_memory_equal(&c, &d, sizeof c);
    memset(&d, 0, sizeof d);
    if (load_text(&d, text, &err))
        fail_msg("%s", err.msg);
    assert_memory_equal(&c, &d, sizeof c);
    free(text);

    /* the standard's limits are config errors naming the key */
    set(&c, "dram.banks=8");
    set(&c, "dram.bank_groups=2");
    assert_int_not_equal(gm_config_validate(&c, &err), 0);
    assert_non_null(strstr(err.msg, "[dram] banks = 8: must be 16"));
    assert_int_not_equal(gm_config_set(&c, "dram.standard=ddr4", &err), 0);
    assert_non_null(strstr(err.msg, "gddr5, hbm"));
}

/* ---- a whole system on HBM ---------------------------------------------- */

/* configs/small.ini with -o dram.standard=hbm runs gemm (tiny) to the end:
 * status done (the run's own conservation and drain checks passed), every
 * request answered, and DRAM traffic went through HBM channels. */
static void test_hbm_system_run(void **state)
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
    set(&c, "dram.standard=hbm");
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
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gm_run_info info = {.workload = "gemm", .size = "tiny"};
    assert_int_equal(gm_stats_write_json(s, &info, f, &err), 0);
    fclose(f);
    assert_non_null(strstr(text, "\"standard\":\t\"hbm\""));
    assert_non_null(strstr(text, "\"requests_in_flight\":\t0"));
    uint64_t reads = 0, refs = 0;
    for (uint32_t i = 0; i < c.dram.channels; i++) {
        reads += s->chans[i].stats.reads;
        refs += s->chans[i].stats.refreshes;
        assert_int_equal(s->chans[i].cfg.clock_mhz, 586);
    }
    assert_true(reads > 0);
    assert_true(refs > 0);
    free(text);
    gm_system_free(s);
    free(s);
    gm_workload_free(&wl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hbm_values),
        cmocka_unit_test(test_hbm_table),
        cmocka_unit_test(test_hbm_limits),
        cmocka_unit_test(test_hbm_ref_to_ref_timer),
        cmocka_unit_test(test_hbm_tRCD),
        cmocka_unit_test(test_hbm_tRAS),
        cmocka_unit_test(test_hbm_tRP),
        cmocka_unit_test(test_hbm_tRC),
        cmocka_unit_test(test_hbm_tRRD),
        cmocka_unit_test(test_hbm_tFAW),
        cmocka_unit_test(test_hbm_tBURST),
        cmocka_unit_test(test_hbm_tCCD),
        cmocka_unit_test(test_hbm_tWTR),
        cmocka_unit_test(test_hbm_tRTW),
        cmocka_unit_test(test_hbm_tRTP_tWR),
        cmocka_unit_test(test_hbm_tCL_tWL),
        cmocka_unit_test(test_hbm_refresh_flow),
        cmocka_unit_test(test_hbm_refresh_rate),
        cmocka_unit_test(test_hbm_random_traffic),
        cmocka_unit_test(test_hbm_stream_bandwidth),
        cmocka_unit_test(test_hbm_random_rows),
        cmocka_unit_test(test_hbm_config_key),
        cmocka_unit_test(test_hbm_system_run),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
