/* The DRAM channel test harness shared by test_dram.c (GDDR5) and
 * test_dram_hbm.c (HBM): one channel of a 16-channel system driven through
 * its two links by a single clock domain at the standard's clock, a
 * command history copied from the channel's ring, reply bookkeeping that
 * fails on a lost or duplicated reply, the timing-test core
 * (expect_after), and an independent command-log checker written from the
 * datasheet rules, not from the model's tables. The includer defines
 * HARNESS_STANDARD, the [dram] standard of default_cfg. */
#ifndef GM_TEST_DRAM_HARNESS_H
#define GM_TEST_DRAM_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "dram/addr_map.h"
#include "dram/dram_channel.h"
#include "dram/dram_standard.h"
#include "dram/dram_timing.h"
#include "sim/clock.h"
#include "sim/link.h"
#include "sim/prng.h"
#include "sim/req.h"

#define NLINKS 2   /* 32 slices / 16 channels */

typedef struct harness {
    gm_clock clk;
    gm_dram_cfg cfg;
    gm_dram_channel ch;
    gm_addr_map map;
    gm_link in[NLINKS], out[NLINKS];
    gm_link *inp[NLINKS], *outp[NLINKS];
    gm_req_pool pool;
    gm_dram_cmd_rec *hist;     /* every command, copied from the ring */
    size_t nhist, caphist;
    uint64_t ticks;
    uint64_t replies;
    uint8_t *seen;             /* replies per request id */
    size_t nseen;
    uint64_t reply_hash;
    gm_prng rng;
    uint32_t pop_percent;      /* chance the L2 side pops a reply per tick */
} harness;

/* One channel of 16, two slices per channel, a 16-entry FR-FCFS queue,
 * and everything else (clock, organisation, timing) from the standard. */
static void std_cfg(gm_dram_cfg *c, const char *standard)
{
    const gm_dram_standard *s = gm_dram_standard_find(standard);
    assert_non_null(s);
    memset(c, 0, sizeof *c);
    for (uint32_t i = 0; i < gm_dram_standard_count(); i++)
        if (gm_dram_standard_at(i) == s)
            c->standard = i;
    c->channels = 16;
    c->queue = 16;
    c->sched = GM_DRAM_FRFCFS;
    c->partition_bytes = 256;
    gm_dram_standard_load(c);
}

/* The includer names its standard in HARNESS_STANDARD. */
static void default_cfg(gm_dram_cfg *c)
{
    std_cfg(c, HARNESS_STANDARD);
}

static harness *h_new(const gm_dram_cfg *cfg, uint32_t out_cap)
{
    harness *h = calloc(1, sizeof *h);
    assert_non_null(h);
    gm_error err = {{0}};
    if (cfg)
        h->cfg = *cfg;
    else
        default_cfg(&h->cfg);
    gm_clock_init(&h->clk);
    assert_int_equal(gm_clock_add(&h->clk, "dram", h->cfg.clock_mhz, &err), 0);
    assert_int_equal(gm_clock_finalize(&h->clk, &err), 0);
    for (int i = 0; i < NLINKS; i++) {
        assert_int_equal(gm_link_init(&h->in[i], 64, 1, &h->clk.d[0]), 0);
        assert_int_equal(gm_link_init(&h->out[i], out_cap, 1, &h->clk.d[0]), 0);
        h->inp[i] = &h->in[i];
        h->outp[i] = &h->out[i];
    }
    assert_int_equal(gm_dram_channel_init(&h->ch, &h->cfg, 0, &err), 0);
    gm_dram_channel_connect(&h->ch, (gm_dram_ports){h->inp, h->outp, NLINKS});
    assert_int_equal(gm_addr_map_init(&h->map, h->cfg.partition_bytes,
                                      NLINKS * h->cfg.channels, h->cfg.channels,
                                      h->cfg.banks, h->cfg.bank_groups,
                                      h->cfg.row_bytes, h->cfg.atom_bytes, &err), 0);
    gm_req_pool_init(&h->pool);
    gm_prng_seed(&h->rng, 42, 7);
    h->pop_percent = 100;
    return h;
}

static void h_free(harness *h)
{
    gm_dram_channel_free(&h->ch);
    for (int i = 0; i < NLINKS; i++) {
        gm_link_free(&h->in[i]);
        gm_link_free(&h->out[i]);
    }
    gm_req_pool_free(&h->pool);
    free(h->hist);
    free(h->seen);
    free(h);
}

static uint64_t period(const harness *h)
{
    return h->clk.d[0].period;
}

/* Line address in channel 0 at (bank, row, column in atoms). */
static uint64_t addr_of(const harness *h, uint32_t bank, uint64_t row, uint32_t col)
{
    gm_dram_coord c = {0};
    c.channel = 0;
    c.bank = bank;
    c.row = row;
    c.col = col;
    return gm_addr_from_coord(&h->map, &c);
}

static gm_req *h_send_addr(harness *h, uint64_t addr, int write)
{
    gm_req *r = gm_req_alloc(&h->pool, h->clk.now);
    assert_non_null(r);
    r->addr = addr;
    r->kind = write ? GM_REQ_WRITEBACK : GM_REQ_LOAD;
    r->slice = (uint16_t)gm_addr_slice(&h->map, addr);
    assert_int_equal(gm_addr_channel(&h->map, addr), 0);
    gm_link *in = &h->in[r->slice % NLINKS];
    assert_true(gm_link_can_push(in, h->clk.now));
    gm_link_push(in, r, h->clk.now);
    return r;
}

static gm_req *h_send(harness *h, uint32_t bank, uint64_t row, uint32_t col, int write)
{
    return h_send_addr(h, addr_of(h, bank, row, col), write);
}

static void check_reply(harness *h, gm_req *r, int link)
{
    assert_int_equal(r->loc, GM_LOC_L2);
    assert_int_equal(r->slice % NLINKS, link);
    assert_int_equal(r->loc_index, r->slice);
    assert_true(r->t_dram_done > r->t_dram);
    if (r->id >= h->nseen) {
        size_t n = (size_t)r->id * 2 + 64;
        h->seen = realloc(h->seen, n);
        assert_non_null(h->seen);
        memset(h->seen + h->nseen, 0, n - h->nseen);
        h->nseen = n;
    }
    h->seen[r->id]++;
    assert_int_equal(h->seen[r->id], 1);
    h->replies++;
    h->reply_hash = (h->reply_hash ^ r->id ^ (r->t_dram_done << 20)) * 0x100000001b3ULL;
}

static void h_tick(harness *h)
{
    gm_clock_advance(&h->clk);
    gm_time now = h->clk.now;
    gm_dram_channel_tick(&h->ch, now);
    h->ticks++;
    /* queue and return buffer never exceed their size; started requests
     * always hold a return slot */
    assert_true(h->ch.qn <= h->cfg.queue);
    assert_true(h->ch.dn + h->ch.started <= h->cfg.queue);
    for (uint64_t k = h->nhist; k < h->ch.log_n; k++) {
        const gm_dram_cmd_rec *rec = gm_dram_channel_cmd_log(&h->ch, k);
        assert_non_null(rec);
        if (h->nhist == h->caphist) {
            h->caphist = h->caphist ? h->caphist * 2 : 1024;
            h->hist = realloc(h->hist, h->caphist * sizeof *h->hist);
            assert_non_null(h->hist);
        }
        h->hist[h->nhist++] = *rec;
    }
    for (int i = 0; i < NLINKS; i++) {
        gm_req *r;
        while ((r = gm_link_peek(&h->out[i], now))) {
            if (h->pop_percent < 100 && gm_prng_below(&h->rng, 100) >= h->pop_percent)
                break;
            gm_link_pop(&h->out[i], now);
            check_reply(h, r, i);
            gm_req_release(&h->pool, r);
        }
    }
}

/* Channel cycle of the last tick. */
static uint64_t h_cycle(const harness *h)
{
    return h->ch.cycle - 1;
}

static void h_run_idle(harness *h)
{
    for (int i = 0; i < 100000 && (gm_dram_channel_busy(&h->ch) || h->pool.live); i++)
        h_tick(h);
    assert_false(gm_dram_channel_busy(&h->ch));
    assert_int_equal(h->pool.live, 0);
}

static void h_run(harness *h, uint64_t n)
{
    while (n--)
        h_tick(h);
}

static size_t find_cmd(const harness *h, size_t from, gm_dram_cmd cmd, uint32_t bank)
{
    for (size_t i = from; i < h->nhist; i++)
        if (h->hist[i].cmd == cmd && (cmd == GM_DRAM_REF || h->hist[i].bank == bank))
            return i;
    return SIZE_MAX;
}

/* Ticks until cmd issues on bank (searching from history index `from`);
 * returns its index. */
static size_t run_until_cmd(harness *h, size_t from, gm_dram_cmd cmd, uint32_t bank)
{
    for (int i = 0; i < 20000; i++) {
        size_t k = find_cmd(h, from, cmd, bank);
        if (k != SIZE_MAX)
            return k;
        h_tick(h);
    }
    fail_msg("%s to bank %u never issued", gm_dram_cmd_name(cmd), bank);
    return 0;
}

/* The core of every timing test; see the comment at the top of the file.
 * prev must be the newest command when this is called. */
static size_t expect_after(harness *h, size_t prev, gm_dram_cmd next, uint32_t nb,
                           uint32_t dist, const gm_req *r)
{
    assert_int_equal(prev, h->nhist - 1);
    uint64_t pc = h->hist[prev].cycle;
    assert_int_equal(h_cycle(h), pc);
    assert_int_equal(gm_dram_channel_earliest(&h->ch, next, nb), pc + dist);
    while (h_cycle(h) < pc + dist - 1) {
        h_tick(h);
        assert_int_equal(find_cmd(h, prev + 1, next, nb), SIZE_MAX);
    }
    /* Accepted at least two ticks before, so it was schedulable at
     * pc + dist - 1 but for the timing. */
    assert_int_equal(r->loc, GM_LOC_DRAM);
    assert_true(r->t_dram / period(h) + 2 <= pc + dist);
    h_tick(h);
    size_t k = find_cmd(h, prev + 1, next, nb);
    assert_true(k != SIZE_MAX);
    assert_int_equal(h->hist[k].cycle, pc + dist);
    return k;
}

/* ---- independent command-log checker ------------------------------------ */

static void check_log(const harness *h)
{
    const gm_dram_timing *t = &h->cfg.t;
    uint32_t nb = h->cfg.banks, g = h->cfg.bank_groups;
    uint8_t open[64] = {0};
    uint64_t acts[5];
    uint64_t nacts = 0, nref = 0;
    assert_true(nb <= 64);
    for (size_t j = 0; j < h->nhist; j++) {
        const gm_dram_cmd_rec *b = &h->hist[j];
        /* bank state */
        switch (b->cmd) {
        case GM_DRAM_ACT:
            assert_false(open[b->bank]);
            open[b->bank] = 1;
            if (nacts >= 4)
                assert_true(b->cycle - acts[(nacts - 4) % 5] >= t->tFAW);
            acts[nacts++ % 5] = b->cycle;
            break;
        case GM_DRAM_PRE:
            assert_true(open[b->bank]);
            open[b->bank] = 0;
            break;
        case GM_DRAM_RD:
        case GM_DRAM_WR:
            assert_true(open[b->bank]);
            break;
        case GM_DRAM_REF:
            for (uint32_t k = 0; k < nb; k++)
                assert_false(open[k]);
            nref++;
            assert_true(b->cycle >= nref * t->tREFI);
            break;
        }
        /* pairwise distances to every earlier command close enough to matter */
        for (size_t i = j; i-- > 0;) {
            const gm_dram_cmd_rec *a = &h->hist[i];
            uint64_t d = b->cycle - a->cycle;
            if (d > 200)
                break;
            assert_true(d >= 1); /* one command per cycle */
            int same_bank = a->cmd != GM_DRAM_REF && b->cmd != GM_DRAM_REF &&
                            a->bank == b->bank;
            int same_group = a->bank % g == b->bank % g;
            uint32_t need = 0;
            if (a->cmd == GM_DRAM_REF)
                need = t->tRFC;
            else if (a->cmd == GM_DRAM_ACT && b->cmd == GM_DRAM_ACT)
                need = same_bank ? t->tRC : same_group ? t->tRRDL : t->tRRDS;
            else if (a->cmd == GM_DRAM_ACT && same_bank && b->cmd == GM_DRAM_RD)
                need = t->tRCD;
            else if (a->cmd == GM_DRAM_ACT && same_bank && b->cmd == GM_DRAM_WR)
                need = t->tRCDWR ? t->tRCDWR : t->tRCD;
            else if (a->cmd == GM_DRAM_ACT && same_bank && b->cmd == GM_DRAM_PRE)
                need = t->tRAS;
            else if (a->cmd == GM_DRAM_PRE && same_bank && b->cmd == GM_DRAM_ACT)
                need = t->tRP;
            else if (a->cmd == GM_DRAM_PRE && b->cmd == GM_DRAM_REF)
                need = t->tRP;
            else if (a->cmd == b->cmd && (a->cmd == GM_DRAM_RD || a->cmd == GM_DRAM_WR)) {
                need = same_group ? t->tCCDL : t->tCCDS;
                if (need < t->tBURST)
                    need = t->tBURST;
            } else if (a->cmd == GM_DRAM_RD && b->cmd == GM_DRAM_WR)
                need = t->tRTW;
            else if (a->cmd == GM_DRAM_WR && b->cmd == GM_DRAM_RD)
                need = t->tWL + t->tBURST + (same_group ? t->tWTRL : t->tWTRS);
            else if (a->cmd == GM_DRAM_RD && same_bank && b->cmd == GM_DRAM_PRE)
                need = t->tRTP;
            else if (a->cmd == GM_DRAM_WR && same_bank && b->cmd == GM_DRAM_PRE)
                need = t->tWL + t->tBURST + t->tWR;
            if (d < need)
                fail_msg("%s b%u @%llu -> %s b%u @%llu: %llu < %u",
                         gm_dram_cmd_name(a->cmd), a->bank, (unsigned long long)a->cycle,
                         gm_dram_cmd_name(b->cmd), b->bank, (unsigned long long)b->cycle,
                         (unsigned long long)d, need);
        }
    }
}

/* Opens row `row` in each of the banks and waits until idle. */
static void warm(harness *h, const uint32_t *banks, int n, uint64_t row)
{
    for (int i = 0; i < n; i++)
        h_send(h, banks[i], row, 0, 0);
    h_run_idle(h);
}

/* Random traffic to channel 0: rows 0..rows-1, every bank; `load` percent
 * chance of a new request per tick while fewer than `cap` are outstanding. */
static void h_random_traffic(harness *h, uint64_t ticks, uint32_t load, uint32_t rows,
                             uint32_t write_pct, uint64_t cap)
{
    gm_prng g;
    gm_prng_seed(&g, 99, rows * 100 + load);
    for (uint64_t i = 0; i < ticks; i++) {
        if (h->pool.live < cap && gm_prng_below(&g, 100) < load) {
            uint32_t bank = (uint32_t)gm_prng_below(&g, h->cfg.banks);
            uint64_t row = gm_prng_below(&g, rows);
            uint32_t col = (uint32_t)gm_prng_below(&g, h->cfg.row_bytes / GM_LINE_BYTES) *
                           (GM_LINE_BYTES / h->cfg.atom_bytes);
            uint64_t a = addr_of(h, bank, row, col);
            if (gm_link_can_push(&h->in[gm_addr_slice(&h->map, a) % NLINKS], h->clk.now))
                h_send_addr(h, a, gm_prng_below(&g, 100) < write_pct);
        }
        h_tick(h);
    }
}


/* ---- a standard's table ------------------------------------------------- */

/* One expected rule: written in the test from the datasheet, with its
 * latency as text and as a value computed by the test. */
typedef struct want_rule {
    uint8_t scope, prev, next, window;
    const char *text;
    uint32_t value;
} want_rule;
#define W(scope, prev, next, window, text, value) \
    { GM_SCOPE_##scope, GM_DRAM_##prev, GM_DRAM_##next, window, text, value }

/* The standard's table is exactly `want`, in any order: same scopes,
 * commands, windows and latencies (as text and in t). */
static void check_rules_equal(const gm_dram_standard *s, const gm_dram_timing *t,
                              const want_rule *want, size_t n)
{
    uint8_t used[GM_DRAM_MAX_RULES] = {0};
    assert_int_equal(s->nrules, n);
    for (size_t w = 0; w < n; w++) {
        int found = 0;
        for (uint32_t i = 0; i < s->nrules && !found; i++) {
            const gm_dram_rule *r = &s->rules[i];
            char text[64];
            gm_dram_rule_text(r, text, sizeof text);
            if (!used[i] && r->scope == want[w].scope && r->prev == want[w].prev &&
                r->next == want[w].next && r->window == want[w].window &&
                strcmp(text, want[w].text) == 0) {
                assert_int_equal(gm_dram_rule_latency(r, t), want[w].value);
                used[i] = 1;
                found = 1;
            }
        }
        if (!found)
            fail_msg("%s: rule %s -> %s, %s scope, window %u, %s missing", s->name,
                     gm_dram_cmd_name(want[w].prev), gm_dram_cmd_name(want[w].next),
                     gm_dram_scope_name(want[w].scope), want[w].window, want[w].text);
    }
}

static int in_scope(gm_dram_scope s, uint32_t a, uint32_t b, uint32_t groups)
{
    switch (s) {
    case GM_SCOPE_BANK: return a == b;
    case GM_SCOPE_GROUP: return a % groups == b % groups;
    case GM_SCOPE_OTHER_GROUPS: return a % groups != b % groups;
    default: return 1;
    }
}

/* The engine applies each rule of s to exactly the banks of its scope:
 * after one command on bank 5 (of 16 in 4 groups) at cycle 1000, every
 * command's earliest cycle on every bank is the largest latency among the
 * non-window rules that reach it. */
static void check_engine(const gm_dram_standard *s, const gm_dram_timing *t)
{
    for (int prev = 0; prev < GM_DRAM_NCMD; prev++) {
        gm_dram_timer tm;
        gm_error err;
        assert_int_equal(gm_dram_timer_init(&tm, s->rules, s->nrules, t, 16, 4, &err), 0);
        gm_dram_timer_issue(&tm, prev, 5, 1000);
        for (int next = 0; next < GM_DRAM_NCMD; next++)
            for (uint32_t b = 0; b < 16; b++) {
                uint64_t want_t = 0;
                for (uint32_t i = 0; i < s->nrules; i++) {
                    const gm_dram_rule *r = &s->rules[i];
                    uint64_t at = 1000 + gm_dram_rule_latency(r, t);
                    if (r->prev == prev && r->next == next && r->window == 0 &&
                        (prev == GM_DRAM_REF || in_scope(r->scope, 5, b, 4)) && at > want_t)
                        want_t = at;
                }
                assert_int_equal(gm_dram_timer_earliest(&tm, next, b), want_t);
            }
        gm_dram_timer_free(&tm);
    }
}

#endif
