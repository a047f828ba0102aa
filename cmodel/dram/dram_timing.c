#include "dram/dram_timing.h"

#include <stdbool.h>
#include <stdlib.h>

/* Distances. One function per row expression so the table reads like the
 * datasheet. */
static uint32_t d_tRC(const gm_dram_timing *t) { return t->tRC; }
static uint32_t d_tRRDL(const gm_dram_timing *t) { return t->tRRDL; }
static uint32_t d_tRRDS(const gm_dram_timing *t) { return t->tRRDS; }
static uint32_t d_tFAW(const gm_dram_timing *t) { return t->tFAW; }
static uint32_t d_tRCD(const gm_dram_timing *t) { return t->tRCD; }
static uint32_t d_tRAS(const gm_dram_timing *t) { return t->tRAS; }
static uint32_t d_tRP(const gm_dram_timing *t) { return t->tRP; }
static uint32_t d_tCCDL(const gm_dram_timing *t) { return t->tCCDL; }
static uint32_t d_tCCDS(const gm_dram_timing *t) { return t->tCCDS; }
static uint32_t d_tBURST(const gm_dram_timing *t) { return t->tBURST; }
static uint32_t d_tRTW(const gm_dram_timing *t) { return t->tRTW; }
static uint32_t d_tRTP(const gm_dram_timing *t) { return t->tRTP; }
static uint32_t d_tRFC(const gm_dram_timing *t) { return t->tRFC; }
static uint32_t d_wtrl(const gm_dram_timing *t) { return t->tWL + t->tBURST + t->tWTRL; }
static uint32_t d_wtrs(const gm_dram_timing *t) { return t->tWL + t->tBURST + t->tWTRS; }
static uint32_t d_wr(const gm_dram_timing *t) { return t->tWL + t->tBURST + t->tWR; }

#define R(p, n, s, w, fn, text) \
    { GM_DRAM_##p, GM_DRAM_##n, GM_SCOPE_##s, w, text, fn }

/* Every timing constraint of the model. tCL and tWL also fix when data
 * moves (read data done at RD + tCL + tBURST, write data done at
 * WR + tWL + tBURST); that is used by the controller, not by this table.
 * The data bus is shared by the channel: RD->RD and WR->WR at tBURST keep
 * bursts apart even if tCCDS < tBURST; RD->WR (tRTW) and WR->RD (tWTR)
 * cover the turnarounds. tREFI is the refresh period, not a pairwise
 * distance; the controller schedules REF (docs/dram.md). */
static const gm_dram_rule rules[] = {
    /* row commands */
    R(ACT, ACT, BANK, 0, d_tRC, "tRC"),
    R(ACT, ACT, GROUP, 0, d_tRRDL, "tRRDL"),
    R(ACT, ACT, OTHER_GROUPS, 0, d_tRRDS, "tRRDS"),
    R(ACT, ACT, CHANNEL, 4, d_tFAW, "tFAW (4 ACTs per window)"),
    R(ACT, RD, BANK, 0, d_tRCD, "tRCD"),
    R(ACT, WR, BANK, 0, d_tRCD, "tRCD"),
    R(ACT, PRE, BANK, 0, d_tRAS, "tRAS"),
    R(PRE, ACT, BANK, 0, d_tRP, "tRP"),
    /* column commands */
    R(RD, RD, GROUP, 0, d_tCCDL, "tCCDL"),
    R(RD, RD, OTHER_GROUPS, 0, d_tCCDS, "tCCDS"),
    R(RD, RD, CHANNEL, 0, d_tBURST, "tBURST"),
    R(WR, WR, GROUP, 0, d_tCCDL, "tCCDL"),
    R(WR, WR, OTHER_GROUPS, 0, d_tCCDS, "tCCDS"),
    R(WR, WR, CHANNEL, 0, d_tBURST, "tBURST"),
    R(RD, WR, CHANNEL, 0, d_tRTW, "tRTW"),
    R(WR, RD, GROUP, 0, d_wtrl, "tWL+tBURST+tWTRL"),
    R(WR, RD, OTHER_GROUPS, 0, d_wtrs, "tWL+tBURST+tWTRS"),
    R(RD, PRE, BANK, 0, d_tRTP, "tRTP"),
    R(WR, PRE, BANK, 0, d_wr, "tWL+tBURST+tWR"),
    /* refresh */
    R(PRE, REF, CHANNEL, 0, d_tRP, "tRP"),
    R(REF, ACT, CHANNEL, 0, d_tRFC, "tRFC"),
    R(REF, REF, CHANNEL, 0, d_tRFC, "tRFC"),
};

#undef R

const gm_dram_rule *gm_dram_rules(uint32_t *n)
{
    *n = (uint32_t)(sizeof rules / sizeof rules[0]);
    return rules;
}

const char *gm_dram_cmd_name(gm_dram_cmd c)
{
    static const char *const names[GM_DRAM_NCMD] = {"ACT", "PRE", "RD", "WR", "REF"};
    return c < GM_DRAM_NCMD ? names[c] : "?";
}

void gm_dram_timing_hynix_gddr5(gm_dram_timing *t)
{
    /* GPGPU-Sim GTX480 gpgpu_dram_timing_opt, "GDDR5 timing from hynix
     * H5GQ1H24AFR": nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:
     * WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2 */
    t->tRCD = 12;
    t->tRP = 12;
    t->tRAS = 28;
    t->tRC = 40;
    t->tCL = 12;
    t->tWL = 4;
    t->tCCDS = 2;
    t->tCCDL = 3;
    t->tRRDS = 6;
    t->tRRDL = 6;
    t->tWR = 12;
    t->tRTP = 2;
    t->tWTRS = 5;
    t->tWTRL = 5;
    /* BL8 on a 64-bit channel, 4 data beats per command clock: 64 B per
     * column command in 2 command cycles. */
    t->tBURST = 2;
    /* GPGPU-Sim: tRTW = CL + BL/ratio + 2 - WL = 12 + 2 + 2 - 4 */
    t->tRTW = t->tCL + t->tBURST + 2 - t->tWL;
    /* Datasheet ns at 1.0823 ns per cycle: tFAW 23 ns and tRFC 65 ns
     * rounded up, tREFI 3.9 us rounded down. */
    t->tFAW = 22;
    t->tRFC = 61;
    t->tREFI = 3603;
}

int gm_dram_timing_check(const gm_dram_timing *t, gm_error *err)
{
    if (t->tBURST == 0)
        return gm_fail(err, "dram timing: tBURST must be >= 1");
    if (t->tREFI != 0 && t->tREFI <= t->tRFC)
        return gm_fail(err, "dram timing: tREFI (%u) must be larger than tRFC (%u),"
                            " or 0 to disable refresh", t->tREFI, t->tRFC);
    return 0;
}

int gm_dram_timer_init(gm_dram_timer *tm, const gm_dram_timing *t, uint32_t banks,
                       uint32_t bank_groups, gm_error *err)
{
    *tm = (gm_dram_timer){0};
    if (banks == 0 || bank_groups == 0 || banks % bank_groups)
        return gm_fail(err, "dram timing: %u banks do not divide into %u bank groups",
                       banks, bank_groups);
    tm->rules = gm_dram_rules(&tm->nrules);
    for (uint32_t i = 0; i < tm->nrules; i++) {
        const gm_dram_rule *r = &tm->rules[i];
        bool chan_only = r->window || r->prev == GM_DRAM_REF || r->next == GM_DRAM_REF;
        if ((chan_only && r->scope != GM_SCOPE_CHANNEL) || r->window > GM_DRAM_MAX_WINDOW)
            return gm_fail(err, "dram timing table: rule %u (%s) has an unsupported"
                                " scope or window", i, r->expr);
    }
    tm->banks = banks;
    tm->bank_groups = bank_groups;
    tm->dist = calloc(tm->nrules, sizeof *tm->dist);
    tm->hist = calloc(tm->nrules, sizeof *tm->hist);
    tm->hist_n = calloc(tm->nrules, sizeof *tm->hist_n);
    tm->earliest = calloc((size_t)banks * GM_DRAM_NCMD, sizeof *tm->earliest);
    if (!tm->dist || !tm->hist || !tm->hist_n || !tm->earliest) {
        gm_dram_timer_free(tm);
        return gm_fail(err, "dram timing: out of memory");
    }
    for (uint32_t i = 0; i < tm->nrules; i++)
        tm->dist[i] = tm->rules[i].dist(t);
    return 0;
}

void gm_dram_timer_free(gm_dram_timer *tm)
{
    free(tm->dist);
    free(tm->hist);
    free(tm->hist_n);
    free(tm->earliest);
    *tm = (gm_dram_timer){0};
}

uint64_t gm_dram_timer_earliest(const gm_dram_timer *tm, gm_dram_cmd cmd, uint32_t bank)
{
    /* Every REF rule is channel-wide, so all banks hold the same value. */
    if (cmd == GM_DRAM_REF)
        bank = 0;
    return tm->earliest[(size_t)bank * GM_DRAM_NCMD + cmd];
}

static void raise_bank(gm_dram_timer *tm, uint32_t bank, uint8_t cmd, uint64_t t)
{
    uint64_t *e = &tm->earliest[(size_t)bank * GM_DRAM_NCMD + cmd];
    if (*e < t)
        *e = t;
}

/* Oldest of the last `window` issue times of the rule's prev command, once
 * there have been that many; the ring keeps exactly `window` entries. */
static bool window_base(gm_dram_timer *tm, uint32_t i, uint64_t cycle, uint64_t *base)
{
    uint32_t w = tm->rules[i].window;
    uint64_t n = tm->hist_n[i]++;
    tm->hist[i][n % w] = cycle;
    if (n + 1 < w)
        return false;
    *base = tm->hist[i][(n + 1) % w];
    return true;
}

void gm_dram_timer_issue(gm_dram_timer *tm, gm_dram_cmd cmd, uint32_t bank,
                         uint64_t cycle)
{
    if (cmd == GM_DRAM_REF)
        bank = 0;
    uint32_t group = bank % tm->bank_groups;
    for (uint32_t i = 0; i < tm->nrules; i++) {
        const gm_dram_rule *r = &tm->rules[i];
        if (r->prev != cmd)
            continue;
        uint64_t base = cycle;
        if (r->window && !window_base(tm, i, cycle, &base))
            continue;
        uint64_t t = base + tm->dist[i];
        switch (r->scope) {
        case GM_SCOPE_BANK:
            raise_bank(tm, bank, r->next, t);
            break;
        case GM_SCOPE_GROUP:
            for (uint32_t b = group; b < tm->banks; b += tm->bank_groups)
                raise_bank(tm, b, r->next, t);
            break;
        case GM_SCOPE_OTHER_GROUPS:
            for (uint32_t b = 0; b < tm->banks; b++)
                if (b % tm->bank_groups != group)
                    raise_bank(tm, b, r->next, t);
            break;
        default:
            for (uint32_t b = 0; b < tm->banks; b++)
                raise_bank(tm, b, r->next, t);
            break;
        }
    }
}
