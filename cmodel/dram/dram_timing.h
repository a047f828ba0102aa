/* DRAM command timing, held as tables of rules
 *   {scope, preceding command, following command, latency}
 * (one table per DRAM standard, dram_standard.h), plus a small engine
 * (gm_dram_timer) that applies a table to a channel's banks. A rule's
 * latency is data: the sum of up to three timing parameters of
 * gm_dram_timing, e.g. tWL + tBURST + tWTRL. The controller never tests a
 * timing parameter itself: it asks the timer for the earliest legal cycle
 * of a command. docs/dram.md lists every table and the source of every
 * default value. */
#ifndef GM_DRAM_DRAM_TIMING_H
#define GM_DRAM_DRAM_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "sim/error.h"

typedef enum gm_dram_cmd {
    GM_DRAM_ACT = 0,  /* activate (open) a row in one bank */
    GM_DRAM_PRE,      /* precharge (close) one bank */
    GM_DRAM_RD,       /* column read, one atom */
    GM_DRAM_WR,       /* column write, one atom */
    GM_DRAM_REF,      /* all-bank refresh; every bank must be precharged */
    GM_DRAM_NCMD
} gm_dram_cmd;

/* Which banks a rule constrains, relative to the bank of the preceding
 * command. In Ramulator's terms a scope is a level of the channel's
 * hierarchy (channel, bank group, bank), with OTHER_GROUPS the "sibling"
 * form of the bank-group level. The bank group of bank b is
 * b % bank_groups. */
typedef enum gm_dram_scope {
    GM_SCOPE_BANK = 0,     /* the same bank only */
    GM_SCOPE_GROUP,        /* every bank of the same bank group, itself included */
    GM_SCOPE_OTHER_GROUPS, /* every bank of the other bank groups */
    GM_SCOPE_CHANNEL,      /* every bank of the channel */
} gm_dram_scope;

/* A timing parameter: 1 + the index of its uint32_t field in
 * gm_dram_timing; 0 means "no parameter". */
#define GM_DRAM_T(field) ((uint8_t)(1 + offsetof(gm_dram_timing, field) / sizeof(uint32_t)))
#define GM_DRAM_NPARAMS ((uint32_t)(sizeof(gm_dram_timing) / sizeof(uint32_t)))
#define GM_DRAM_RULE_TERMS 3

typedef struct gm_dram_rule {
    uint8_t scope;     /* gm_dram_scope */
    uint8_t prev;      /* gm_dram_cmd */
    uint8_t next;      /* gm_dram_cmd */
    uint8_t window;    /* 0: latency from the last `prev`; N > 0: from the
                        * N-th most recent `prev` (tFAW: 4) */
    uint8_t sum[GM_DRAM_RULE_TERMS]; /* latency = sum of these parameters
                                      * (GM_DRAM_T values, 0 = unused) */
} gm_dram_rule;

const char *gm_dram_cmd_name(gm_dram_cmd c);
const char *gm_dram_scope_name(gm_dram_scope s);
/* Field name of a GM_DRAM_T value ("tRCD"), "?" if there is none. */
const char *gm_dram_param_name(uint8_t p);
/* Value of a GM_DRAM_T parameter in t (0 for p == 0). */
uint32_t gm_dram_param(const gm_dram_timing *t, uint8_t p);
/* The rule's latency in t. tRCDWR = 0 is read as tRCD (config.h). */
uint32_t gm_dram_rule_latency(const gm_dram_rule *r, const gm_dram_timing *t);
/* The latency as text, "tWL+tBURST+tWTRL". Returns buf. */
char *gm_dram_rule_text(const gm_dram_rule *r, char *buf, size_t len);

/* The Hynix H5GQ1H24AFR GDDR5 timing of the DC-L1 baseline (the gddr5
 * standard's defaults, dram_standard.h). */
void gm_dram_timing_hynix_gddr5(gm_dram_timing *t);
/* Rejects values the model cannot run with (tBURST 0, refresh interval not
 * longer than tRFC). tREFI 0 means "no refresh". */
int gm_dram_timing_check(const gm_dram_timing *t, gm_error *err);

/* Per-bank earliest issue cycle of every command, updated when a command
 * issues (cost: the rules with that preceding command x banks in scope, at
 * most one command per cycle) so a query is one load. Cycles are DRAM
 * command-clock cycles. */
#define GM_DRAM_MAX_WINDOW 8
#define GM_DRAM_MAX_RULES 64
typedef struct gm_dram_timer {
    uint32_t banks;
    uint32_t bank_groups;
    uint32_t nrules;
    const gm_dram_rule *rules;
    uint32_t *dist;          /* per rule, resolved from the timing */
    uint64_t *earliest;      /* [bank * GM_DRAM_NCMD + cmd] */
    uint64_t (*hist)[GM_DRAM_MAX_WINDOW]; /* per rule: last `window` prev times */
    uint64_t *hist_n;        /* per rule: times recorded so far */
    uint8_t nby_prev[GM_DRAM_NCMD];                 /* rules per preceding command */
    uint8_t by_prev[GM_DRAM_NCMD][GM_DRAM_MAX_RULES]; /* their indices */
} gm_dram_timer;

/* rules[nrules] must outlive the timer (a standard's static table). Fails
 * on a rule the engine cannot apply (window or REF rule not of channel
 * scope, unknown command, scope or parameter). */
int gm_dram_timer_init(gm_dram_timer *tm, const gm_dram_rule *rules, uint32_t nrules,
                       const gm_dram_timing *t, uint32_t banks, uint32_t bank_groups,
                       gm_error *err);
void gm_dram_timer_free(gm_dram_timer *tm);
/* Earliest cycle at which cmd may issue to bank (REF: to the channel; bank
 * is ignored). */
static inline uint64_t gm_dram_timer_earliest(const gm_dram_timer *tm, gm_dram_cmd cmd,
                                              uint32_t bank)
{
    /* Every REF rule is channel-wide, so all banks hold the same value. */
    if (cmd == GM_DRAM_REF)
        bank = 0;
    return tm->earliest[(size_t)bank * GM_DRAM_NCMD + cmd];
}
/* Records that cmd issued to bank at cycle (REF: bank ignored). */
void gm_dram_timer_issue(gm_dram_timer *tm, gm_dram_cmd cmd, uint32_t bank,
                         uint64_t cycle);

#endif
