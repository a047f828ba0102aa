/* GDDR5, the DC-L1 baseline's memory (Table II: 16 controllers, 16 banks in
 * 4 bank groups, 924 MHz, Hynix GDDR5 timing). The rules are the GDDR5
 * constraints GPGPU-Sim models for the GTX480 "Hynix H5GQ1H24AFR" timing;
 * docs/dram.md ("Standards as data") gives the source of every value. */
#include "dram/dram_standard.h"

#define P(f) GM_DRAM_T(f)
#define R(scope, prev, next, window, a, b, c) \
    { GM_SCOPE_##scope, GM_DRAM_##prev, GM_DRAM_##next, window, { a, b, c } }

/* tCL and tWL also fix when data moves (read data done at
 * RD + tCL + tBURST, write data done at WR + tWL + tBURST); that is used by
 * the controller, not by this table. The data bus is shared by the
 * channel: RD->RD and WR->WR at tBURST keep bursts apart even if
 * tCCDS < tBURST; RD->WR (tRTW) and WR->RD (tWTR) cover the turnarounds.
 * tREFI is the refresh period, not a pairwise distance. */
static const gm_dram_rule rules[] = {
    /* row commands */
    R(BANK, ACT, ACT, 0, P(tRC), 0, 0),
    R(GROUP, ACT, ACT, 0, P(tRRDL), 0, 0),
    R(OTHER_GROUPS, ACT, ACT, 0, P(tRRDS), 0, 0),
    R(CHANNEL, ACT, ACT, 4, P(tFAW), 0, 0), /* at most 4 ACTs per tFAW */
    R(BANK, ACT, RD, 0, P(tRCD), 0, 0),
    R(BANK, ACT, WR, 0, P(tRCDWR), 0, 0),
    R(BANK, ACT, PRE, 0, P(tRAS), 0, 0),
    R(BANK, PRE, ACT, 0, P(tRP), 0, 0),
    /* column commands */
    R(GROUP, RD, RD, 0, P(tCCDL), 0, 0),
    R(OTHER_GROUPS, RD, RD, 0, P(tCCDS), 0, 0),
    R(CHANNEL, RD, RD, 0, P(tBURST), 0, 0),
    R(GROUP, WR, WR, 0, P(tCCDL), 0, 0),
    R(OTHER_GROUPS, WR, WR, 0, P(tCCDS), 0, 0),
    R(CHANNEL, WR, WR, 0, P(tBURST), 0, 0),
    R(CHANNEL, RD, WR, 0, P(tRTW), 0, 0),
    R(GROUP, WR, RD, 0, P(tWL), P(tBURST), P(tWTRL)),
    R(OTHER_GROUPS, WR, RD, 0, P(tWL), P(tBURST), P(tWTRS)),
    R(BANK, RD, PRE, 0, P(tRTP), 0, 0),
    R(BANK, WR, PRE, 0, P(tWL), P(tBURST), P(tWR)),
    /* refresh */
    R(CHANNEL, PRE, REF, 0, P(tRP), 0, 0),
    R(CHANNEL, REF, ACT, 0, P(tRFC), 0, 0),
    R(CHANNEL, REF, REF, 0, P(tRFC), 0, 0),
};

static const char *const levels[] = { "channel", "bank group", "bank", "row", "column", NULL };

const gm_dram_standard gm_dram_std_gddr5 = {
    .name = "gddr5",
    .title = "GDDR5, Hynix H5GQ1H24AFR timing (DC-L1 baseline, Table II)",
    .levels = levels,
    .rules = rules,
    .nrules = sizeof rules / sizeof rules[0],
    .refresh = GM_DRAM_REFRESH_ALL_BANK,
    .clock_mhz = 924,
    /* 64-bit channel (two x32 devices), BL8 at 4 data beats per command
     * clock: 64 B per column command in tBURST = 2 cycles; 2 KB page per
     * device. */
    .banks = 16,
    .bank_groups = 4,
    .row_bytes = 4096,
    .atom_bytes = 64,
    /* GPGPU-Sim GTX480 gpgpu_dram_timing_opt, "GDDR5 timing from hynix
     * H5GQ1H24AFR": nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:
     * WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2 */
    .timing = {
        .tRCD = 12,
        .tRP = 12,
        .tRAS = 28,
        .tRC = 40,
        .tCL = 12,
        .tWL = 4,
        .tCCDS = 2,
        .tCCDL = 3,
        .tRRDS = 6,
        .tRRDL = 6,
        .tWR = 12,
        .tRTP = 2,
        .tWTRS = 5,
        .tWTRL = 5,
        .tBURST = 2,
        /* GPGPU-Sim: tRTW = CL + BL/ratio + 2 - WL = 12 + 2 + 2 - 4 */
        .tRTW = 12,
        /* datasheet ns at 1.0823 ns per cycle: tFAW 23 ns and tRFC 65 ns
         * rounded up, tREFI 3.9 us rounded down */
        .tFAW = 22,
        .tRFC = 61,
        .tREFI = 3603,
        /* one tRCD for reads and writes, as GPGPU-Sim's table gives one */
        .tRCDWR = 0,
    },
    .check = NULL,
};
