/* GDDR5 command timing, held as one table of
 *   (previous command, next command, scope, minimum distance)
 * rows, plus a small engine (gm_dram_timer) that applies the table to a
 * channel's banks. The controller never tests a timing parameter itself: it
 * asks the timer for the earliest legal cycle of a command. docs/dram.md
 * lists the rows and the source of every default value. */
#ifndef GM_DRAM_DRAM_TIMING_H
#define GM_DRAM_DRAM_TIMING_H

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

/* Which banks a row constrains, relative to the bank of the previous
 * command. Bank group of bank b is b % bank_groups. */
typedef enum gm_dram_scope {
    GM_SCOPE_BANK = 0,     /* the same bank only */
    GM_SCOPE_GROUP,        /* every bank of the same bank group, itself included */
    GM_SCOPE_OTHER_GROUPS, /* every bank of the other bank groups */
    GM_SCOPE_CHANNEL,      /* every bank of the channel */
} gm_dram_scope;

typedef struct gm_dram_rule {
    uint8_t prev;      /* gm_dram_cmd */
    uint8_t next;      /* gm_dram_cmd */
    uint8_t scope;     /* gm_dram_scope */
    uint8_t window;    /* 0: distance from the last `prev`; N > 0: distance
                        * from the N-th most recent `prev` (tFAW: 4) */
    const char *expr;  /* the distance as text, e.g. "tWL+tBURST+tWTRL" */
    uint32_t (*dist)(const gm_dram_timing *t);
} gm_dram_rule;

/* The table (static, read-only) and its length. Rules whose prev or next
 * is REF, and window rules, always have channel scope. */
const gm_dram_rule *gm_dram_rules(uint32_t *n);
const char *gm_dram_cmd_name(gm_dram_cmd c);

/* Defaults for the Hynix H5GQ1H24AFR 1 Gb GDDR5 part at a 924 MHz command
 * clock (the DC-L1 baseline). Sources in docs/dram.md. */
void gm_dram_timing_hynix_gddr5(gm_dram_timing *t);
/* Rejects values the model cannot run with (tBURST 0, refresh interval not
 * longer than tRFC). tREFI 0 means "no refresh". */
int gm_dram_timing_check(const gm_dram_timing *t, gm_error *err);

/* Per-bank earliest issue cycle of every command, updated when a command
 * issues (cost: rules with that prev x banks in scope, at most one command
 * per cycle) so a query is one load. Cycles are DRAM command-clock cycles. */
#define GM_DRAM_MAX_WINDOW 8
typedef struct gm_dram_timer {
    uint32_t banks;
    uint32_t bank_groups;
    uint32_t nrules;
    const gm_dram_rule *rules;
    uint32_t *dist;          /* per rule, resolved from the timing */
    uint64_t *earliest;      /* [bank * GM_DRAM_NCMD + cmd] */
    uint64_t (*hist)[GM_DRAM_MAX_WINDOW]; /* per rule: last `window` prev times */
    uint64_t *hist_n;        /* per rule: times recorded so far */
} gm_dram_timer;

int gm_dram_timer_init(gm_dram_timer *tm, const gm_dram_timing *t, uint32_t banks,
                       uint32_t bank_groups, gm_error *err);
void gm_dram_timer_free(gm_dram_timer *tm);
/* Earliest cycle at which cmd may issue to bank (REF: to the channel; bank
 * is ignored). */
uint64_t gm_dram_timer_earliest(const gm_dram_timer *tm, gm_dram_cmd cmd, uint32_t bank);
/* Records that cmd issued to bank at cycle (REF: bank ignored). */
void gm_dram_timer_issue(gm_dram_timer *tm, gm_dram_cmd cmd, uint32_t bank,
                         uint64_t cycle);

#endif
