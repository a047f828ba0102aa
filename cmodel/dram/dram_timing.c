#include "dram/dram_timing.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram/dram_standard.h"

const char *gm_dram_cmd_name(gm_dram_cmd c)
{
    static const char *const names[GM_DRAM_NCMD] = {"ACT", "PRE", "RD", "WR", "REF"};
    return c < GM_DRAM_NCMD ? names[c] : "?";
}

const char *gm_dram_scope_name(gm_dram_scope s)
{
    static const char *const names[] = {"bank", "group", "other groups", "channel"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

#define PARAM(f) [GM_DRAM_T(f)] = #f
static const char *const param_names[GM_DRAM_NPARAMS + 1] = {
    PARAM(tRCD), PARAM(tRP),   PARAM(tRAS),  PARAM(tRC),   PARAM(tCL),   PARAM(tWL),
    PARAM(tCCDS), PARAM(tCCDL), PARAM(tRRDS), PARAM(tRRDL), PARAM(tFAW),  PARAM(tWTRS),
    PARAM(tWTRL), PARAM(tRTW),  PARAM(tWR),   PARAM(tRTP),  PARAM(tREFI), PARAM(tRFC),
    PARAM(tBURST), PARAM(tRCDWR),
};
#undef PARAM

const char *gm_dram_param_name(uint8_t p)
{
    return p >= 1 && p <= GM_DRAM_NPARAMS && param_names[p] ? param_names[p] : "?";
}

uint32_t gm_dram_param(const gm_dram_timing *t, uint8_t p)
{
    uint32_t v = 0;
    if (p >= 1 && p <= GM_DRAM_NPARAMS)
        memcpy(&v, (const char *)t + (size_t)(p - 1) * sizeof v, sizeof v);
    if (p == GM_DRAM_T(tRCDWR) && v == 0)
        v = t->tRCD;
    return v;
}

uint32_t gm_dram_rule_latency(const gm_dram_rule *r, const gm_dram_timing *t)
{
    uint32_t d = 0;
    for (int k = 0; k < GM_DRAM_RULE_TERMS; k++)
        d += gm_dram_param(t, r->sum[k]);
    return d;
}

char *gm_dram_rule_text(const gm_dram_rule *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < GM_DRAM_RULE_TERMS && r->sum[k] && used < len; k++) {
        int w = snprintf(buf + used, len - used, "%s%s", k ? "+" : "",
                         gm_dram_param_name(r->sum[k]));
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

void gm_dram_timing_hynix_gddr5(gm_dram_timing *t)
{
    *t = gm_dram_std_gddr5.timing;
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

/* ---- the engine ---------------------------------------------------------- */

static int check_rule(const gm_dram_rule *r, uint32_t i, gm_error *err)
{
    bool chan_only = r->window || r->prev == GM_DRAM_REF || r->next == GM_DRAM_REF;
    bool ok = r->prev < GM_DRAM_NCMD && r->next < GM_DRAM_NCMD &&
              r->scope <= GM_SCOPE_CHANNEL && r->window <= GM_DRAM_MAX_WINDOW &&
              (!chan_only || r->scope == GM_SCOPE_CHANNEL) && r->sum[0] != 0;
    for (int k = 0; k < GM_DRAM_RULE_TERMS; k++)
        ok = ok && r->sum[k] <= GM_DRAM_NPARAMS;
    if (!ok)
        return gm_fail(err, "dram timing table: rule %u (%s -> %s) has an unsupported"
                            " command, scope, window or latency", i,
                       gm_dram_cmd_name(r->prev), gm_dram_cmd_name(r->next));
    return 0;
}

int gm_dram_timer_init(gm_dram_timer *tm, const gm_dram_rule *rules, uint32_t nrules,
                       const gm_dram_timing *t, uint32_t banks, uint32_t bank_groups,
                       gm_error *err)
{
    *tm = (gm_dram_timer){0};
    if (banks == 0 || bank_groups == 0 || banks % bank_groups)
        return gm_fail(err, "dram timing: %u banks do not divide into %u bank groups",
                       banks, bank_groups);
    if (nrules > GM_DRAM_MAX_RULES)
        return gm_fail(err, "dram timing table: %u rules, at most %u", nrules,
                       GM_DRAM_MAX_RULES);
    for (uint32_t i = 0; i < nrules; i++)
        if (check_rule(&rules[i], i, err))
            return -1;
    tm->rules = rules;
    tm->nrules = nrules;
    tm->banks = banks;
    tm->bank_groups = bank_groups;
    tm->dist = calloc(nrules ? nrules : 1, sizeof *tm->dist);
    tm->hist = calloc(nrules ? nrules : 1, sizeof *tm->hist);
    tm->hist_n = calloc(nrules ? nrules : 1, sizeof *tm->hist_n);
    tm->earliest = calloc((size_t)banks * GM_DRAM_NCMD, sizeof *tm->earliest);
    if (!tm->dist || !tm->hist || !tm->hist_n || !tm->earliest) {
        gm_dram_timer_free(tm);
        return gm_fail(err, "dram timing: out of memory");
    }
    for (uint32_t i = 0; i < nrules; i++) {
        const gm_dram_rule *r = &rules[i];
        tm->dist[i] = gm_dram_rule_latency(r, t);
        tm->by_prev[r->prev][tm->nby_prev[r->prev]++] = (uint8_t)i;
    }
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
    for (uint32_t k = 0; k < tm->nby_prev[cmd]; k++) {
        uint32_t i = tm->by_prev[cmd][k];
        const gm_dram_rule *r = &tm->rules[i];
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
