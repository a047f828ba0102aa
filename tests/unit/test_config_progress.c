/* Configurations that cannot make progress are configuration errors, and
 * the watchdog's bound follows the longest legal wait (docs/reliability.md,
 * "Configurations that cannot make progress"):
 *
 * - the refresh rule of gm_config_validate at its boundary, for both DRAM
 *   standards and for each term of the rule, with the expected minimum
 *   written here from the datasheet parameters;
 * - the same rule against the model: a DRAM channel driven with saturating
 *   traffic serves requests steadily at the smallest tREFI the rule
 *   accepts, for random timing tables of both standards, while the
 *   configuration of issue 13 (tRFC 61, tREFI 101) livelocks;
 * - a CTA must fit one core: gm_system_check_workload at its boundary, and
 *   gm_system_run refusing such a workload before simulating;
 * - gm_system_watchdog_cycles: explicit values win, the derived bound for
 *   the shipped defaults and for extreme but legal configurations, with
 *   the expected values computed here by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "config/config_keys.h"
#include "dram/addr_map.h"
#include "dram/dram_channel.h"
#include "dram/dram_standard.h"
#include "dram/dram_timing.h"
#include "sim/clock.h"
#include "sim/link.h"
#include "sim/prng.h"
#include "sim/req.h"
#include "system/system.h"
#include "workload/workload.h"

/* ---- helpers ------------------------------------------------------------ */

static void assert_has(const char *msg, const char *needle)
{
    if (!strstr(msg, needle))
        fail_msg("message \"%s\"\n  does not contain \"%s\"", msg, needle);
}

static void set(gm_config *c, const char *assignment)
{
    gm_error err = { "" };
    if (gm_config_set(c, assignment, &err) != 0)
        fail_msg("%s: %s", assignment, err.msg);
}

/* The built-in defaults with [dram] standard = std. */
static void std_config(gm_config *c, const char *std)
{
    char a[64];
    gm_config_defaults(c);
    snprintf(a, sizeof a, "dram.standard=%s", std);
    set(c, a);
}

static uint32_t max32(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

/* The smallest legal tREFI, written from the datasheet parameters (the
 * model reads the same values out of the standard's rule table): rows
 * held tRAS and precharged one per cycle over `banks` banks, tRP, tRFC,
 * or the longest ACT->ACT distance if that is longer, then tRCD or
 * tRCDWR; every step at least one cycle. */
static uint32_t expected_min_trefi(const gm_dram_cfg *d)
{
    const gm_dram_timing *t = &d->t;
    uint32_t cycle = max32(t->tRAS, 1) + (d->banks - 1) + max32(t->tRP, 1) + max32(t->tRFC, 1);
    uint32_t act = max32(max32(t->tRC, t->tRRDL), max32(t->tRRDS, t->tFAW));
    uint32_t col = max32(max32(t->tRCD, t->tRCDWR ? t->tRCDWR : t->tRCD), 1);
    return max32(cycle, act) + col;
}

static int valid(const gm_config *c, gm_error *err)
{
    return gm_config_validate(c, err) == 0;
}

/* need is legal, need - 1 is rejected with a message that names the key,
 * the value and the range, and 0 (no refresh) is legal. */
static void expect_boundary(gm_config c, uint32_t need)
{
    gm_error err = { "" };
    char want[96];
    c.dram.t.tREFI = need;
    if (!valid(&c, &err))
        fail_msg("tREFI = %u rejected: %s", need, err.msg);
    c.dram.t.tREFI = need - 1;
    assert_false(valid(&c, &err));
    snprintf(want, sizeof want, "[dram] tREFI = %u leaves no time for an access", need - 1);
    assert_has(err.msg, want);
    snprintf(want, sizeof want, "must be 0 (no refresh) or in %u..1000000", need);
    assert_has(err.msg, want);
    c.dram.t.tREFI = 0;
    assert_true(valid(&c, &err));
}

/* ---- the refresh rule at its boundary -------------------------------------- */

static void test_refresh_rule_boundaries(void **state)
{
    (void)state;
    gm_config c;

    /* GDDR5 (Hynix): 28 + 15 + 12 + 61 + 12 */
    std_config(&c, "gddr5");
    assert_int_equal(expected_min_trefi(&c.dram), 128);
    expect_boundary(c, 128);
    /* each term of the rule in turn */
    std_config(&c, "gddr5");
    c.dram.t.tRFC = 0;
    assert_int_equal(expected_min_trefi(&c.dram), 28 + 15 + 12 + 1 + 12);
    expect_boundary(c, 68);
    std_config(&c, "gddr5");
    c.dram.t.tRCDWR = 30; /* writes open later than reads */
    expect_boundary(c, 28 + 15 + 12 + 61 + 30);
    std_config(&c, "gddr5");
    c.dram.t.tFAW = 400;  /* the four-activate window holds the next ACT */
    expect_boundary(c, 400 + 12);
    std_config(&c, "gddr5");
    c.dram.t.tRC = 500;
    expect_boundary(c, 500 + 12);
    std_config(&c, "gddr5");
    c.dram.banks = 64;    /* 64 precharges, one per cycle */
    expect_boundary(c, 28 + 63 + 12 + 61 + 12);
    std_config(&c, "gddr5");  /* zero latencies still cost a cycle each */
    c.dram.t.tRAS = c.dram.t.tRCD = c.dram.t.tRP = c.dram.t.tRC = c.dram.t.tRFC = 0;
    c.dram.t.tRRDS = c.dram.t.tRRDL = c.dram.t.tFAW = 0;
    expect_boundary(c, 1 + 15 + 1 + 1 + 1);

    /* HBM (seed Table I, JEDEC refresh): 17 + 15 + 7 + 153 + 7 */
    std_config(&c, "hbm");
    assert_int_equal(expected_min_trefi(&c.dram), 199);
    expect_boundary(c, 199);
    std_config(&c, "hbm");
    c.dram.t.tRFC = 300;
    expect_boundary(c, 17 + 15 + 7 + 300 + 7);

    /* Issue 13: tRFC 61 with every tREFI from 62 to 101 livelocked; now
     * every tREFI up to the bound is a configuration error. */
    gm_error err = { "" };
    std_config(&c, "gddr5");
    for (uint32_t refi = 62; refi < 128; refi++) {
        c.dram.t.tREFI = refi;
        assert_false(valid(&c, &err));
        assert_has(err.msg, "[dram] tREFI");
    }
}

/* ---- the refresh rule against the model -------------------------------------- */

#define NLINKS 2

typedef struct served {
    uint64_t done;    /* requests completed */
    uint64_t gap;     /* longest run of channel cycles without a completion */
} served;

/* One channel of d fed through NLINKS links that are kept full with
 * requests of `pattern` (0: any bank and row; 1: one bank, 64 rows; 2: any
 * bank, 2 rows; 3: two banks, 8 rows), 30 % writes (50 % for pattern 1),
 * for `ticks` channel cycles; replies are taken at once. */
static served drive(const gm_dram_cfg *d, uint64_t seed, int pattern, uint64_t ticks)
{
    gm_clock clk;
    gm_error err = { "" };
    gm_link in[NLINKS], out[NLINKS];
    gm_link *inp[NLINKS], *outp[NLINKS];
    gm_dram_channel ch;
    gm_addr_map map;
    gm_req_pool pool;
    gm_prng g;
    gm_clock_init(&clk);
    assert_true(gm_clock_add(&clk, "dram", d->clock_mhz, &err) >= 0);
    assert_int_equal(gm_clock_finalize(&clk, &err), 0);
    for (int i = 0; i < NLINKS; i++) {
        assert_int_equal(gm_link_init(&in[i], 64, 1, &clk.d[0]), 0);
        assert_int_equal(gm_link_init(&out[i], 64, 1, &clk.d[0]), 0);
        inp[i] = &in[i];
        outp[i] = &out[i];
    }
    if (gm_dram_channel_init(&ch, d, 0, &err) != 0)
        fail_msg("%s", err.msg);
    gm_dram_channel_connect(&ch, (gm_dram_ports){ inp, outp, NLINKS });
    assert_int_equal(gm_addr_map_init(&map, d->partition_bytes, NLINKS * d->channels,
                                      d->channels, d->banks, d->bank_groups, d->row_bytes,
                                      d->atom_bytes, &err), 0);
    gm_req_pool_init(&pool);
    gm_prng_seed(&g, seed, (uint64_t)pattern);
    served s = { 0, 0 };
    uint64_t last = 0;
    for (uint64_t k = 0; k < ticks; k++) {
        gm_clock_advance(&clk);
        gm_time now = clk.now;
        for (int n = 0; n < NLINKS; n++) {
            gm_dram_coord co = { 0 };
            switch (pattern) {
            case 0:
                co.bank = (uint32_t)gm_prng_below(&g, d->banks);
                co.row = gm_prng_below(&g, 64);
                break;
            case 1:
                co.bank = 3 % d->banks;
                co.row = gm_prng_below(&g, 64);
                break;
            case 2:
                co.bank = (uint32_t)gm_prng_below(&g, d->banks);
                co.row = gm_prng_below(&g, 2);
                break;
            default:
                co.bank = (uint32_t)(gm_prng_below(&g, 2) * 5) % d->banks;
                co.row = gm_prng_below(&g, 8);
                break;
            }
            co.col = (uint32_t)gm_prng_below(&g, d->row_bytes / GM_LINE_BYTES) *
                     (GM_LINE_BYTES / d->atom_bytes);
            uint64_t a = gm_addr_from_coord(&map, &co);
            gm_link *l = &in[gm_addr_slice(&map, a) % NLINKS];
            if (!gm_link_can_push(l, now))
                continue;
            gm_req *r = gm_req_alloc(&pool, now);
            assert_non_null(r);
            r->addr = a;
            r->kind = gm_prng_below(&g, 100) < (pattern == 1 ? 50u : 30u) ? GM_REQ_WRITEBACK
                                                                         : GM_REQ_LOAD;
            r->slice = (uint16_t)gm_addr_slice(&map, a);
            gm_link_push(l, r, now);
        }
        gm_dram_channel_tick(&ch, now);
        for (int i = 0; i < NLINKS; i++) {
            gm_req *r;
            while ((r = gm_link_peek(&out[i], now))) {
                gm_link_pop(&out[i], now);
                gm_req_release(&pool, r);
                if (k - last > s.gap)
                    s.gap = k - last;
                last = k;
                s.done++;
            }
        }
    }
    if (ticks - last > s.gap)
        s.gap = ticks - last;
    gm_dram_channel_free(&ch);
    for (int i = 0; i < NLINKS; i++) {
        gm_link_free(&in[i]);
        gm_link_free(&out[i]);
    }
    gm_req_pool_free(&pool);
    return s;
}

/* Every timing parameter but tREFI, once. */
static uint64_t timing_sum(const gm_dram_timing *t)
{
    uint64_t sum = 0;
    for (uint8_t p = 1; p <= GM_DRAM_NPARAMS; p++)
        if (p != GM_DRAM_T(tREFI))
            sum += gm_dram_param(t, p);
    return sum;
}

static uint32_t skewed(gm_prng *g, uint32_t hi)
{
    uint64_t k = gm_prng_below(g, 10);
    return (uint32_t)(k < 6 ? gm_prng_below(g, 16) : gm_prng_below(g, hi + 1));
}

/* A random timing table (and, for GDDR5, organisation and queue) that
 * passes every rule but the refresh one. */
static void random_table(gm_config *c, const char *std, gm_prng *g)
{
    static const uint32_t queues[] = { 1, 2, 4, 8, 32, 64 };
    std_config(c, std);
    gm_dram_timing *t = &c->dram.t;
    c->dram.queue = queues[gm_prng_below(g, 6)];
    c->dram.sched = gm_prng_below(g, 4) == 0 ? GM_DRAM_FCFS : GM_DRAM_FRFCFS;
    t->tRCD = skewed(g, 60);
    t->tRP = skewed(g, 60);
    t->tRAS = t->tRCD + skewed(g, 60);
    t->tRC = t->tRAS + t->tRP + (gm_prng_below(g, 2) ? 0 : skewed(g, 120));
    t->tCL = skewed(g, 40);
    t->tWL = skewed(g, 40);
    t->tCCDS = skewed(g, 20);
    t->tCCDL = t->tCCDS + skewed(g, 20);
    t->tRRDS = skewed(g, 40);
    t->tRRDL = t->tRRDS + skewed(g, 40);
    t->tFAW = skewed(g, 160);
    t->tWTRS = skewed(g, 40);
    t->tWTRL = t->tWTRS + skewed(g, 40);
    t->tRTW = skewed(g, 40);
    t->tWR = skewed(g, 60);
    t->tRTP = skewed(g, 40);
    t->tRFC = skewed(g, 160);
    t->tRCDWR = gm_prng_below(g, 2) ? 0 : skewed(g, 60);
    if (strcmp(std, "gddr5") == 0) {
        static const uint32_t banks[] = { 1, 2, 4, 8, 16, 32, 64 };
        t->tBURST = 1 + (uint32_t)gm_prng_below(g, 8);
        c->dram.banks = banks[gm_prng_below(g, 7)];
        c->dram.bank_groups = max32(1, c->dram.banks < 4 ? 1 : 4);
        c->dram.atom_bytes = 32u << gm_prng_below(g, 3);
        c->dram.row_bytes = max32(128, c->dram.atom_bytes << (2 + gm_prng_below(g, 5)));
    }
}

/* At the smallest tREFI the rule allows, the channel never stops serving:
 * no stretch without a completion longer than a few refresh intervals
 * plus one access's worth of timing (below the rule, as in the next test,
 * the channel stops for the whole run). */
static void test_refresh_minimum_keeps_serving(void **state)
{
    (void)state;
    static const char *const stds[] = { "gddr5", "hbm" };
    gm_prng g;
    gm_prng_seed(&g, 2013, 7);
    for (int si = 0; si < 2; si++) {
        for (int n = 0; n < 24; n++) {
            gm_config c;
            gm_error err = { "" };
            random_table(&c, stds[si], &g);
            uint32_t need = expected_min_trefi(&c.dram);
            c.dram.t.tREFI = need;
            if (!valid(&c, &err))
                fail_msg("%s table %d at tREFI = %u: %s", stds[si], n, need, err.msg);
            c.dram.t.tREFI = need - 1;
            assert_false(valid(&c, &err));
            c.dram.t.tREFI = need;
            uint64_t unit = need + timing_sum(&c.dram.t);
            for (int pat = 0; pat < 4; pat++) {
                served s = drive(&c.dram, 100 + (uint64_t)n, pat, 24 * unit + 4000);
                if (s.done == 0 || s.gap > 8 * unit)
                    fail_msg("%s table %d pattern %d, tREFI = %u: %llu served, %llu cycles "
                             "without a completion (bound %llu)",
                             stds[si], n, pat, need, (unsigned long long)s.done,
                             (unsigned long long)s.gap, (unsigned long long)(8 * unit));
            }
        }
    }
}

/* The configuration of issue 13 (GDDR5, tRFC 61, tREFI 101, which the
 * old rule tREFI > tRFC let through): after the first few requests the
 * channel only opens and closes rows. At the rule's minimum, 128, it
 * serves throughout. */
static void test_refresh_issue_config_livelocks(void **state)
{
    (void)state;
    gm_config c;
    std_config(&c, "gddr5");
    c.dram.t.tRFC = 61;
    for (int pat = 0; pat < 4; pat++) {
        c.dram.t.tREFI = 101;
        served bad = drive(&c.dram, 5, pat, 40000);
        assert_true(bad.gap > 39000);
        assert_true(bad.done < 64);
        c.dram.t.tREFI = 128;
        served good = drive(&c.dram, 5, pat, 40000);
        assert_true(good.gap < 200);
        assert_true(good.done > 400);
    }
}

/* ---- a CTA must fit one core --------------------------------------------------- */

static void small_config(gm_config *c)
{
    gm_config_defaults(c);
    c->core.num_cores = 8;
    c->core.clusters = 8;
    c->l2.slices = 4;
    c->dram.channels = 2;
}

/* A workload of kernels with these grid sizes and threads per CTA; the
 * kernels have no generator, as they are only checked, never run. */
typedef struct fake_workload {
    gm_workload wl;
    gm_kernel k[2];
} fake_workload;

static void fake(fake_workload *f, uint32_t n, const uint32_t *ctas, const uint32_t *threads)
{
    memset(f, 0, sizeof *f);
    snprintf(f->wl.name, sizeof f->wl.name, "fake");
    for (uint32_t i = 0; i < n; i++) {
        snprintf(f->k[i].name, sizeof f->k[i].name, "k%u", i);
        f->k[i].grid = (gm_dim3){ ctas[i], 1, 1 };
        f->k[i].block = (gm_dim3){ threads[i], 1, 1 };
    }
    f->wl.nkernels = n;
    f->wl.kernels = f->k;
}

/* 0, or -1 with the message in err. */
static int check(const gm_config *c, const fake_workload *f, gm_error *err)
{
    gm_system *s = malloc(sizeof *s);
    assert_non_null(s);
    if (gm_system_init(s, c, err) != 0)
        fail_msg("%s", err->msg);
    int r = gm_system_check_workload(s, &f->wl, err);
    gm_system_free(s);
    free(s);
    return r;
}

static void test_cta_must_fit_a_core(void **state)
{
    (void)state;
    gm_config c;
    gm_error err = { "" };
    fake_workload f;
    const uint32_t ctas[2] = { 4, 4 }, threads[2] = { 32, 256 }; /* 1 and 8 warps */

    /* 8 warps per CTA: max_warps 8 is the last legal value, 7 the first
     * rejected (max_ctas and schedulers lowered to keep the config valid) */
    small_config(&c);
    fake(&f, 2, ctas, threads);
    c.core.max_warps = 8;
    assert_int_equal(check(&c, &f, &err), 0);
    c.core.max_warps = 7;
    c.core.max_ctas = 7;
    assert_int_equal(check(&c, &f, &err), -1);
    assert_has(err.msg, "kernel 1 (k1) has CTAs of 256 threads, 8 warps");
    assert_has(err.msg, "[core] max_warps = 7 must be at least 8");
    /* 33 threads are two warps */
    const uint32_t odd[1] = { 33 };
    fake(&f, 1, ctas, odd);
    c.core.max_warps = 1;
    c.core.max_ctas = 1;
    c.core.schedulers = 1;
    assert_int_equal(check(&c, &f, &err), -1);
    assert_has(err.msg, "2 warps");
    c.core.max_warps = 2;
    assert_int_equal(check(&c, &f, &err), 0);

    /* cta_policy = block places cta_block CTAs on one core at once */
    small_config(&c);
    fake(&f, 2, ctas, threads);
    c.core.cta_policy = GM_CTA_BLOCK;
    c.core.cta_block = 2;
    c.core.max_warps = 16;
    assert_int_equal(check(&c, &f, &err), 0);
    c.core.max_warps = 15;
    assert_int_equal(check(&c, &f, &err), -1);
    assert_has(err.msg, "[core] cta_block = 2 of them on one core at once: 16 warps");
    assert_has(err.msg, "[core] max_warps = 15");
    /* ... but never more CTAs than the grid has */
    const uint32_t one[2] = { 1, 1 };
    fake(&f, 2, one, threads);
    c.core.max_warps = 8;
    assert_int_equal(check(&c, &f, &err), 0);

    /* a kernel without CTAs or threads could never finish */
    small_config(&c);
    const uint32_t none[1] = { 0 };
    fake(&f, 1, none, threads);
    assert_int_equal(check(&c, &f, &err), -1);
    assert_has(err.msg, "no CTAs");
    fake(&f, 1, ctas, none);
    assert_int_equal(check(&c, &f, &err), -1);
    assert_has(err.msg, "no threads");
}

/* gm_system_run checks too, before its first cycle. */
static void test_run_refuses_unfit_workload(void **state)
{
    (void)state;
    gm_config c;
    gm_error err = { "" };
    fake_workload f;
    const uint32_t ctas[1] = { 4 }, threads[1] = { 256 };
    small_config(&c);
    c.core.max_warps = c.core.max_ctas = 4;
    fake(&f, 1, ctas, threads);
    gm_system *s = malloc(sizeof *s);
    assert_non_null(s);
    assert_int_equal(gm_system_init(s, &c, &err), 0);
    assert_int_equal(gm_system_run(s, &f.wl, &err), -1);
    assert_int_equal(s->status, GM_RUN_ERROR);
    assert_int_equal(s->core_cycle, 0);
    assert_has(err.msg, "[core] max_warps = 4 must be at least 8");
    gm_system_free(s);
    free(s);
}

/* ---- the watchdog's bound ------------------------------------------------------ */

static uint64_t wd(const gm_config *c)
{
    gm_error err = { "" };
    if (gm_config_validate(c, &err) != 0)
        fail_msg("%s", err.msg);
    return gm_system_watchdog_cycles(c);
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

static void test_watchdog_bound(void **state)
{
    (void)state;
    gm_config c;

    /* An explicit [sim] watchdog_cycles wins, small or large. */
    gm_config_defaults(&c);
    assert_int_equal(c.sim.watchdog_cycles, 0);
    c.sim.watchdog_cycles = 7;
    assert_int_equal(wd(&c), 7);
    c.sim.watchdog_cycles = 100000;
    c.noc.header_bytes = 4096;
    c.noc.flit_bytes = 4;
    assert_int_equal(wd(&c), 100000);

    /* The built-in GDDR5 baseline: its slowest hand-off is a DRAM access,
     * the 17 Hynix timings but tREFI once (tRCD, not tRCDWR too) = 246,
     * plus the line's second 64 B burst (2) = 248 DRAM cycles, 376 core
     * cycles at 1400 / 924 MHz; 256 requests ahead make 96256, under the
     * floor of 100000. small.ini is the same per channel. */
    gm_config_defaults(&c);
    assert_int_equal(12 + 12 + 28 + 40 + 12 + 4 + 2 + 3 + 6 + 6 + 22 + 5 + 5 + 12 + 12 + 2 + 61 +
                         2 + 2,
                     248);
    assert_int_equal(ceil_div(248 * 1400, 924), 376);
    assert_int_equal(wd(&c), 100000);
    small_config(&c);
    assert_int_equal(wd(&c), 100000);

    /* HBM: 7+7+17+24+7+2+1+1+4+5+20+2+4+9+8+7+153+2 = 280, + 2 = 282 DRAM
     * cycles at 586 MHz = 674 core cycles; x 256 */
    std_config(&c, "hbm");
    c.dram.channels = 32;
    assert_int_equal(ceil_div(282 * 1400, 586), 674);
    assert_int_equal(wd(&c), 256 * 674);

    /* 4096-byte headers on 4-byte flits: a packet of ceil(4224 / 4) =
     * 1056 flits, 2 core cycles each at 700 MHz; with one VC of depth 1 a
     * flit waits for its credit, 1 + 3 cycles */
    gm_config_defaults(&c);
    c.noc.header_bytes = 4096;
    c.noc.flit_bytes = 4;
    assert_int_equal(wd(&c), 256 * 1056 * 2);
    c.noc.vcs = 1;
    c.noc.vc_depth = 1;
    assert_int_equal(wd(&c), 256 * 1056 * 4 * 2);

    /* tRAS = 65535 (with tRC = 65535, tRP = 0 and no refresh): 246 - 28 -
     * 40 - 12 + 2 * 65535 + 2 DRAM cycles */
    gm_config_defaults(&c);
    c.dram.t.tRAS = c.dram.t.tRC = 65535;
    c.dram.t.tRP = 0;
    c.dram.t.tREFI = 0;
    uint64_t dram = 246 - 28 - 40 - 12 + 2 * 65535 + 2;
    assert_int_equal(wd(&c), 256 * ceil_div(dram * 1400, 924));

    /* A slow DRAM clock scales the same hand-off: 248 x 1400 / 7 */
    gm_config_defaults(&c);
    c.dram.clock_mhz = 7;
    assert_int_equal(wd(&c), 256 * 248 * 200);

    /* More requests queued for one channel: 2 slices x (in_queue 16 +
     * MSHRs 1024 + dram_queue 16) + the channel's 32 */
    gm_config_defaults(&c);
    c.l2.cache.mshr_entries = 1024;
    assert_int_equal(wd(&c), (uint64_t)(2 * (16 + 1024 + 16) + 32) * 376);
    /* ... or one packet from every core at a network output */
    gm_config_defaults(&c);
    c.core.num_cores = c.core.clusters = 1024;
    c.noc.vcs = 1;
    assert_int_equal(wd(&c), 1024 * 376);
    /* A long L2 latency on a slow L2 clock: (4096 + 1) x 1400 / 7 */
    gm_config_defaults(&c);
    c.l2.cache.latency = 4096;
    c.l2.clock_mhz = 7;
    assert_int_equal(wd(&c), (uint64_t)256 * 4097 * 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refresh_rule_boundaries),
        cmocka_unit_test(test_refresh_minimum_keeps_serving),
        cmocka_unit_test(test_refresh_issue_config_livelocks),
        cmocka_unit_test(test_cta_must_fit_a_core),
        cmocka_unit_test(test_run_refuses_unfit_workload),
        cmocka_unit_test(test_watchdog_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
