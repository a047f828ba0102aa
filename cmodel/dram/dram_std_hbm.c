/* HBM in legacy (128-bit channel) mode, as in the SelRep seed (Table I:
 * 4 stacks x 8 channels, 16 banks per channel, open page, FR-FCFS,
 * 600 GB/s, and its timing), which was simulated with Ramulator 1.0's HBM
 * model. The rules follow Ramulator 1.0's HBM::init_timing (src/HBM.cpp),
 * its single rank folded into the channel; the values come from the seed
 * where it gives them and from Ramulator's HBM table otherwise.
 * docs/dram.md ("Standards as data") gives the source of every value and
 * the clock arithmetic. */
#include "dram/dram_standard.h"

#define P(f) GM_DRAM_T(f)
#define R(scope, prev, next, window, a, b, c) \
    { GM_SCOPE_##scope, GM_DRAM_##prev, GM_DRAM_##next, window, { a, b, c } }

static const gm_dram_rule rules[] = {
    /* channel: the shared data bus (Ramulator level Channel) */
    R(CHANNEL, RD, RD, 0, P(tBURST), 0, 0),
    R(CHANNEL, WR, WR, 0, P(tBURST), 0, 0),
    /* channel: Ramulator level Rank (one rank per channel) */
    R(CHANNEL, RD, RD, 0, P(tCCDS), 0, 0),
    R(CHANNEL, WR, WR, 0, P(tCCDS), 0, 0),
    R(CHANNEL, RD, WR, 0, P(tRTW), 0, 0),
    R(CHANNEL, WR, RD, 0, P(tWL), P(tBURST), P(tWTRS)),
    R(CHANNEL, ACT, ACT, 0, P(tRRDS), 0, 0),
    R(CHANNEL, ACT, ACT, 4, P(tFAW), 0, 0), /* at most 4 ACTs per tFAW */
    R(CHANNEL, PRE, REF, 0, P(tRP), 0, 0),
    R(CHANNEL, REF, ACT, 0, P(tRFC), 0, 0),
    R(CHANNEL, REF, REF, 0, P(tRFC), 0, 0),
    /* bank group */
    R(GROUP, RD, RD, 0, P(tCCDL), 0, 0),
    R(GROUP, WR, WR, 0, P(tCCDL), 0, 0),
    R(GROUP, WR, RD, 0, P(tWL), P(tBURST), P(tWTRL)),
    R(GROUP, ACT, ACT, 0, P(tRRDL), 0, 0),
    /* bank */
    R(BANK, ACT, RD, 0, P(tRCD), 0, 0),
    R(BANK, ACT, WR, 0, P(tRCDWR), 0, 0),
    R(BANK, RD, PRE, 0, P(tRTP), 0, 0),
    R(BANK, WR, PRE, 0, P(tWL), P(tBURST), P(tWR)),
    R(BANK, ACT, ACT, 0, P(tRC), 0, 0),
    R(BANK, ACT, PRE, 0, P(tRAS), 0, 0),
    R(BANK, PRE, ACT, 0, P(tRP), 0, 0),
};

static const char *const levels[] = { "channel", "bank group", "bank", "row", "column", NULL };

/* What the table and the values below assume: the seed's 16 banks in 4
 * bank groups (JEDEC HBM 4 Gb channel, Ramulator's HBM_4Gb), a 2 KB page,
 * and a 128-bit double-data-rate channel, which moves 32 B per command
 * clock: BL2 (32 B, tBURST 1) or BL4 (64 B, tBURST 2). */
static int check_hbm(const gm_dram_cfg *d, gm_error *err)
{
    if (d->banks != 16)
        return gm_fail(err, "[dram] banks = %u: must be 16 with [dram] standard = hbm "
                            "(16 banks in 4 bank groups per channel)", d->banks);
    if (d->bank_groups != 4)
        return gm_fail(err, "[dram] bank_groups = %u: must be 4 with [dram] standard = hbm "
                            "(16 banks in 4 bank groups per channel)", d->bank_groups);
    if (d->row_bytes != 2048)
        return gm_fail(err, "[dram] row_bytes = %u: must be 2K with [dram] standard = hbm "
                            "(the 2 KB page of a 128-bit HBM channel)", d->row_bytes);
    if (d->t.tBURST != 1 && d->t.tBURST != 2)
        return gm_fail(err, "[dram] tBURST = %u: must be 1 (BL2) or 2 (BL4) with [dram] "
                            "standard = hbm", d->t.tBURST);
    if (d->atom_bytes != 32 * d->t.tBURST)
        return gm_fail(err, "[dram] atom_bytes = %u: must be 32 x [dram] tBURST = %u with "
                            "[dram] standard = hbm (a 128-bit double-data-rate channel moves "
                            "32 B per command clock)", d->atom_bytes, 32 * d->t.tBURST);
    return 0;
}

const gm_dram_standard gm_dram_std_hbm = {
    .name = "hbm",
    .title = "HBM, legacy 128-bit channels, SelRep seed Table I timing",
    .levels = levels,
    .rules = rules,
    .nrules = sizeof rules / sizeof rules[0],
    /* Ramulator 1.0 refreshes every standard but DSARP with all-bank REF
     * (src/Refresh.h), so the seed's runs did too. */
    .refresh = GM_DRAM_REFRESH_ALL_BANK,
    /* 4 stacks x 8 channels x 32 B per command clock x 586 MHz
     * = 600.06 GB/s, the seed's 600 GB/s. */
    .clock_mhz = 586,
    .banks = 16,
    .bank_groups = 4,
    .row_bytes = 2048,
    .atom_bytes = 64,
    .timing = {
        /* seed, Table I ("HBM Timing") */
        .tRC = 24,
        .tRCD = 7,
        .tRP = 7,
        .tCL = 7,
        .tWL = 2,
        .tRAS = 17,
        .tRRDL = 5,
        .tRRDS = 4,
        .tFAW = 20,
        .tRTP = 7,
        .tCCDL = 1,
        .tCCDS = 1,
        /* Ramulator 1.0 HBM_1Gbps: nBL = 2 (BL4, 4 beats on a DDR bus),
         * nWR = 8, nWTRS = 2, nWTRL = 4 */
        .tBURST = 2,
        .tWR = 8,
        .tWTRS = 2,
        .tWTRL = 4,
        /* Ramulator's RD -> WR: CL + BL/2 + 2 - CWL = 7 + 2 + 2 - 2 */
        .tRTW = 9,
        /* JEDEC HBM 4 Gb channel: tRFC 260 ns, tREFI 3.9 us (Ramulator 1.0:
         * 130 and 1950 cycles of 2 ns), at 1.7065 ns per cycle: tRFC
         * rounded up, tREFI rounded down */
        .tRFC = 153,
        .tREFI = 2285,
        /* the seed gives one tRCD (Ramulator 1.0 has nRCDW = 6) */
        .tRCDWR = 0,
    },
    .check = check_hbm,
};
