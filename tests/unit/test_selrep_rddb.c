/* The SelRep RDD block (cmodel/designs/selrep/selrep_rddb.h): the timing
 * of the decision, its results on stimulus whose B is worked out by hand,
 * inputs ignored while busy, lanes adding up before saturating, and
 * fields that are 0 while their valid is 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "designs/selrep/selrep_rddb.h"

static void init(gm_selrep_rddb *b, uint32_t clusters, uint32_t slices, uint32_t ndeg,
                 uint32_t cntw)
{
    gm_selrep_rddb_params p = {.sets = 2, .ways = 4, .clusters = clusters, .slices = slices,
                               .ndeg = ndeg, .counter_bits = cntw, .tag_bits = 32,
                               .lanes = 4, .capacity = true};
    gm_error err;
    assert_int_equal(gm_selrep_rddb_init(b, &p, &err), 0);
}

/* Ticks with `in`; returns the outputs seen in the cycle before the edge. */
static gm_selrep_rddb_out cycle(gm_selrep_rddb *b, const gm_selrep_rddb_in *in)
{
    gm_selrep_rddb_out o;
    gm_selrep_rddb_eval(b, &o);
    if (!o.bw_valid)
        assert_true(o.bw_deg == 0 && o.bw == 0 && o.bw_sum == 0 && o.bw_max == 0 &&
                    o.bw_hits == 0 && o.bw_acc == 0);
    if (!o.deg_valid)
        assert_int_equal(o.deg, 0);
    gm_selrep_rddb_tick(b, in);
    return o;
}

/* Quotient bits and latency by hand: 16 slices -> 4 + 10 + 16 = 30 bits,
 * 5 degrees x 31 edges + 1 = 156; 1 slice -> 26 bits, 1 x 27 + 1 = 28. */
static void test_latency(void **st)
{
    (void)st;
    gm_selrep_rddb b;
    init(&b, 16, 16, 5, 16);
    assert_int_equal(b.qw, 30);
    assert_int_equal(gm_selrep_rddb_latency(&b), 156);
    gm_selrep_rddb_free(&b);
    init(&b, 1, 1, 1, 8);
    assert_int_equal(gm_selrep_rddb_latency(&b), 28);
    gm_selrep_rddb_free(&b);
}

/* 4 clusters, 4 slices, degrees 1, 2, 4. For 8 cycles every cluster sends
 * a request homed in slice 0. Degree 1: all 32 at slice 0, LSP 1. Degree 2:
 * clusters 0,1 -> slice 0 and 2,3 -> slice 2 (16 each), LSP 2. Degree 4: 8
 * at each slice, LSP 4. With `sampled`, cluster 0 reads one tag of set 0 in
 * the first two cycles: a cold miss, then a hit under every degree (its own
 * ClusterID bit, LRU position 0 < 4 >> d), so acc = 2, hits = 1. */
static void send_epoch(gm_selrep_rddb *b, bool sampled)
{
    gm_selrep_rddb_in in;
    for (uint32_t c = 0; c < 8; c++) {
        memset(&in, 0, sizeof in);
        for (uint32_t k = 0; k < 4; k++) {
            in.req_valid[k] = 1;
            in.req_home[k] = 0;
            in.req_cluster[k] = (uint8_t)k;
        }
        if (sampled && c < 2) {
            in.acc_valid = 1;
            in.acc_tag = 0x40;
        }
        cycle(b, &in);
    }
}

/* Ends the epoch with keep = 1, b_llc = 300, b_mem = 5 and checks each
 * degree's B and the decision, (qw+1)(d+1)+1 cycles after the epoch cycle. */
static void check_decision(gm_selrep_rddb *b, const uint64_t want_bw[3], uint32_t want_acc,
                           uint32_t want_deg)
{
    gm_selrep_rddb_in in = {0};
    in.epoch = 1;
    in.cand = 7;
    in.keep = 1;
    in.b_llc = 300;
    in.b_mem = 5;
    gm_selrep_rddb_out o = cycle(b, &in);
    assert_int_equal(o.busy, 0);
    memset(&in, 0, sizeof in);
    uint32_t qw = 2 + 10 + 16;
    uint32_t want_max[3] = {32, 16, 8};
    uint32_t seen = 0;
    for (uint32_t t = 1; t <= 3 * (qw + 1) + 1; t++) {
        o = cycle(b, &in);
        if (t <= 3 * (qw + 1))
            assert_int_equal(o.busy, 1);
        if (o.bw_valid) {
            assert_int_equal(t, (qw + 1) * (seen + 1) + 1);
            assert_int_equal(o.bw_deg, seen);
            assert_int_equal(o.bw, want_bw[seen]);
            assert_int_equal(o.bw_sum, 32);
            assert_int_equal(o.bw_max, want_max[seen]);
            assert_int_equal(o.bw_acc, want_acc);
            seen++;
        }
        assert_int_equal(o.deg_valid, t == 3 * (qw + 1) + 1);
        if (o.deg_valid) {
            assert_int_equal(o.deg, want_deg);
            assert_int_equal(o.busy, 0);
        }
    }
    assert_int_equal(seen, 3);
}

/* First epoch: nothing sampled, so no hit rate to predict: every B is 0
 * and the degree in force (keep = 1) stays, although degree 4 balances
 * best. Second epoch: T = 1 * 300 + min(1 * 300, 2 * 5) = 310 over acc =
 * 2, so B = LSP * 155 and degree index 2 wins. */
static void test_decision_by_hand(void **st)
{
    (void)st;
    gm_selrep_rddb b;
    init(&b, 4, 4, 3, 16);
    const uint64_t none[3] = {0, 0, 0};
    send_epoch(&b, false);
    check_decision(&b, none, 0, 1);
    const uint64_t want[3] = {155ull << 16, 310ull << 16, 620ull << 16};
    send_epoch(&b, true);
    check_decision(&b, want, 2, 2);
    gm_selrep_rddb_free(&b);
}

/* Requests while busy are not counted, and the counters are cleared at
 * the decision: the next epoch sees nothing and keeps its keep degree. */
static void test_busy_ignores_and_clears(void **st)
{
    (void)st;
    gm_selrep_rddb b;
    init(&b, 2, 2, 2, 16);
    gm_selrep_rddb_in in = {0};
    in.req_valid[0] = 1;
    in.req_cluster[0] = 1;
    in.epoch = 1;
    in.cand = 3;
    in.keep = 0;
    in.b_llc = 10;
    in.b_mem = 10;
    cycle(&b, &in);   /* counted: this cycle's inputs go in before the decision */
    in.epoch = 0;
    gm_selrep_rddb_out o;
    uint32_t decided = 0, deg = 9;
    for (uint32_t t = 0; t < gm_selrep_rddb_latency(&b) + 2; t++) {
        gm_selrep_rddb_eval(&b, &o);
        if (!o.busy)
            memset(&in, 0, sizeof in);   /* requests only while busy */
        o = cycle(&b, &in);
        if (o.bw_valid)
            assert_int_equal(o.bw_sum, 1);
        if (o.deg_valid) {
            decided++;
            deg = o.deg;
        }
    }
    /* One request from cluster 1 homed in slice 0: degree 1 -> slice 0,
     * degree 2 -> slice 1; both LSP 1, B equal: the smaller degree wins. */
    assert_int_equal(decided, 1);
    assert_int_equal(deg, 0);
    memset(&in, 0, sizeof in);
    in.epoch = 1;
    in.cand = 3;
    in.keep = 1;
    in.b_llc = 10;
    cycle(&b, &in);
    memset(&in, 0, sizeof in);
    for (uint32_t t = 0; t < gm_selrep_rddb_latency(&b); t++) {
        o = cycle(&b, &in);
        if (o.bw_valid)
            assert_true(o.bw == 0 && o.bw_sum == 0);
        if (o.deg_valid)
            assert_int_equal(o.deg, 1);   /* nothing counted: keep */
    }
    gm_selrep_rddb_free(&b);
}

/* 3-bit counters: four lanes at one home for three cycles are 12 requests.
 * Degree 1 sends all 12 to slice 0, whose counter stops at 7. Degree 2
 * sends cluster 0 (lanes 0, 1) to slice 0 and cluster 1 (lanes 2, 3) to
 * slice 1: 6 each, below the maximum. */
static void test_lanes_saturate(void **st)
{
    (void)st;
    gm_selrep_rddb b;
    init(&b, 2, 2, 2, 3);
    gm_selrep_rddb_in in = {0};
    for (uint32_t c = 0; c < 3; c++) {
        memset(&in, 0, sizeof in);
        for (uint32_t k = 0; k < 4; k++) {
            in.req_valid[k] = 1;
            in.req_home[k] = 0;
            in.req_cluster[k] = (uint8_t)(k / 2);
        }
        cycle(&b, &in);
    }
    memset(&in, 0, sizeof in);
    in.epoch = 1;
    in.cand = 3;
    in.b_llc = 1;
    cycle(&b, &in);
    memset(&in, 0, sizeof in);
    uint32_t want_sum[2] = {7, 12}, want_max[2] = {7, 6}, n = 0;
    for (uint32_t t = 0; t < gm_selrep_rddb_latency(&b); t++) {
        gm_selrep_rddb_out o = cycle(&b, &in);
        if (o.bw_valid) {
            assert_int_equal(o.bw_sum, want_sum[n]);
            assert_int_equal(o.bw_max, want_max[n]);
            n++;
        }
    }
    assert_int_equal(n, 2);
    gm_selrep_rddb_free(&b);
}

static void test_bad_params(void **st)
{
    (void)st;
    gm_selrep_rddb b;
    gm_error err;
    gm_selrep_rddb_params p = {.sets = 2, .ways = 4, .clusters = 4, .slices = 4, .ndeg = 4,
                               .counter_bits = 16, .tag_bits = 32, .lanes = 4};
    assert_int_not_equal(gm_selrep_rddb_init(&b, &p, &err), 0);  /* 4 degrees > log2(4)+1 */
    p.ndeg = 3;
    p.slices = 3;
    assert_int_not_equal(gm_selrep_rddb_init(&b, &p, &err), 0);
    p.slices = 4;
    p.lanes = GM_SELREP_RDDB_MAX_LANES + 1;
    assert_int_not_equal(gm_selrep_rddb_init(&b, &p, &err), 0);
    p.lanes = 1;
    p.counter_bits = 18;   /* (64 - 26 - log2 4) / 2 = 18: the largest for 4 slices */
    assert_int_equal(gm_selrep_rddb_init(&b, &p, &err), 0);
    gm_selrep_rddb_free(&b);
    p.counter_bits = 19;
    assert_int_not_equal(gm_selrep_rddb_init(&b, &p, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency),
        cmocka_unit_test(test_decision_by_hand),
        cmocka_unit_test(test_busy_ignores_and_clears),
        cmocka_unit_test(test_lanes_saturate),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
