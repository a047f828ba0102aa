/* The DC-L1 node queue block (designs/dcl1/dcl1_queues.h) on its ports alone:
 * FIFO order, full queues and registered ready, the two bypass paths,
 * the Q2 write-port arbitration, handshake violations, and a random run
 * that checks conservation and per-path order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "designs/dcl1/dcl1_queues.h"
#include "sim/prng.h"

enum { LD = GM_DCL1Q_LOAD, ST = GM_DCL1Q_STORE, AT = GM_DCL1Q_ATOMIC, NL = GM_DCL1Q_NONL1 };

static void init(gm_dcl1q *q, uint32_t depth)
{
    gm_error err = {{0}};
    assert_int_equal(gm_dcl1q_init(q, depth, &err), 0);
}

static gm_dcl1q_out eval(const gm_dcl1q *q)
{
    gm_dcl1q_out o;
    gm_dcl1q_eval(q, &o);
    return o;
}

/* One edge with only a request arriving from NoC#1. */
static void arrive(gm_dcl1q *q, uint32_t h, uint8_t kind)
{
    assert_true(eval(q).n1_req_ready);
    gm_dcl1q_in in = {.n1_req_valid = 1, .n1_req_handle = h, .n1_req_kind = kind};
    gm_dcl1q_tick(q, &in);
}

static void reply_arrives(gm_dcl1q *q, uint32_t h, uint8_t kind)
{
    assert_true(eval(q).n2_rep_ready);
    gm_dcl1q_in in = {.n2_rep_valid = 1, .n2_rep_handle = h, .n2_rep_kind = kind};
    gm_dcl1q_tick(q, &in);
}

static void idle_tick(gm_dcl1q *q)
{
    gm_dcl1q_in in = {0};
    gm_dcl1q_tick(q, &in);
}

/* Q1 fills to its depth, ready drops, the cache sees the heads in arrival
 * order, and an idle edge changes nothing. */
static void test_q1_fifo_and_full(void **state)
{
    (void)state;
    gm_dcl1q q;
    init(&q, 4);
    for (uint32_t h = 10; h < 14; h++)
        arrive(&q, h, h & 1 ? ST : LD);
    gm_dcl1q_out o = eval(&q);
    assert_false(o.n1_req_ready);
    assert_true(o.c_req_valid);
    idle_tick(&q);
    gm_dcl1q_out o2 = eval(&q);
    assert_memory_equal(&o, &o2, sizeof o);
    for (uint32_t h = 10; h < 14; h++) {
        o = eval(&q);
        assert_true(o.c_req_valid);
        assert_int_equal(o.c_req_handle, h);
        assert_int_equal(o.c_req_kind, h & 1 ? ST : LD);
        gm_dcl1q_in in = {.c_req_accept = 1};
        gm_dcl1q_tick(&q, &in);
    }
    o = eval(&q);
    assert_false(o.c_req_valid);
    assert_int_equal(o.c_req_handle, 0); /* fields are 0 when not valid */
    assert_true(o.n1_req_ready);
    assert_true(gm_dcl1q_idle(&q));
    assert_int_equal(q.st.protocol_errors, 0);
    assert_int_equal(q.st.occ_max[GM_DCL1Q_Q1], 4);
    gm_dcl1q_free(&q);
}

/* Ready is registered: a full Q1 that is popped this edge still refuses a
 * push this edge; driving valid anyway is a handshake error and the entry
 * is dropped, not written. */
static void test_ready_is_registered(void **state)
{
    (void)state;
    gm_dcl1q q;
    init(&q, 2);
    arrive(&q, 1, LD);
    arrive(&q, 2, LD);
    gm_dcl1q_in in = {.c_req_accept = 1, .n1_req_valid = 1, .n1_req_handle = 3};
    gm_dcl1q_tick(&q, &in);
    assert_int_equal(q.st.protocol_errors, 1);
    assert_int_equal(q.q[GM_DCL1Q_Q1].count, 1);
    assert_int_equal(eval(&q).c_req_handle, 2);
    /* an accept with nothing offered is an error too */
    gm_dcl1q_in acc = {.c_req_accept = 1};
    gm_dcl1q_tick(&q, &acc);
    gm_dcl1q_tick(&q, &acc);
    assert_int_equal(q.st.protocol_errors, 2);
    gm_dcl1q_free(&q);
}

/* Atomics and non-L1 requests go Q1 -> Q3 without being offered to the
 * cache; a load behind them waits its turn; a load miss goes to Q3 after
 * them, so Q3 keeps the arrival order. */
static void test_bypass_q1_to_q3(void **state)
{
    (void)state;
    gm_dcl1q q;
    init(&q, 4);
    arrive(&q, 1, AT);
    arrive(&q, 2, NL); /* edge 2: handle 1 moved to Q3 during this edge */
    arrive(&q, 3, LD);
    gm_dcl1q_out o = eval(&q);
    assert_true(o.c_req_valid);
    assert_int_equal(o.c_req_handle, 3);
    assert_true(o.n2_req_valid);
    assert_int_equal(o.n2_req_handle, 1);
    assert_int_equal(o.n2_req_kind, AT);
    gm_dcl1q_in in = {.c_req_accept = 1, .c_req_miss = 1};
    gm_dcl1q_tick(&q, &in);
    uint32_t want[3] = {1, 2, 3};
    uint8_t kinds[3] = {AT, NL, LD};
    for (int i = 0; i < 3; i++) {
        o = eval(&q);
        assert_true(o.n2_req_valid);
        assert_int_equal(o.n2_req_handle, want[i]);
        assert_int_equal(o.n2_req_kind, kinds[i]);
        gm_dcl1q_in pop = {.n2_req_ready = 1};
        gm_dcl1q_tick(&q, &pop);
    }
    assert_true(gm_dcl1q_idle(&q));
    assert_int_equal(q.st.bypass_q1_q3, 2);
    assert_int_equal(q.st.protocol_errors, 0);
    gm_dcl1q_free(&q);
}

/* A full Q3 stops both ways into it: the bypass head waits, and the cache
 * is told (c_miss_ready = 0) it may not send a miss. */
static void test_q3_full_blocks(void **state)
{
    (void)state;
    gm_dcl1q q;
    init(&q, 1);
    arrive(&q, 1, NL);       /* into Q1 */
    idle_tick(&q);           /* Q1 -> Q3 */
    arrive(&q, 2, NL);
    idle_tick(&q);           /* Q3 full: stays in Q1 */
    gm_dcl1q_out o = eval(&q);
    assert_false(o.c_miss_ready);
    assert_false(o.c_req_valid);
    assert_int_equal(q.q[GM_DCL1Q_Q1].count, 1);
    gm_dcl1q_in pop = {.n2_req_ready = 1};
    gm_dcl1q_tick(&q, &pop); /* Q3 empties; Q1 still judged against full Q3 */
    assert_int_equal(q.q[GM_DCL1Q_Q1].count, 1);
    idle_tick(&q);
    assert_int_equal(q.q[GM_DCL1Q_Q1].count, 0);
    assert_int_equal(eval(&q).n2_req_handle, 2);
    gm_dcl1q_free(&q);
}

/* Q4: a load reply is offered to the cache as a fill; store ACKs, atomic
 * and non-L1 replies go to Q2 in order; a fill at the head blocks the
 * replies behind it until the cache takes it. */
static void test_q4_fill_and_bypass(void **state)
{
    (void)state;
    gm_dcl1q q;
    init(&q, 4);
    reply_arrives(&q, 5, ST);
    reply_arrives(&q, 6, LD);  /* handle 5 moves to Q2 during this edge */
    reply_arrives(&q, 7, AT);
    gm_dcl1q_out o = eval(&q);
    assert_true(o.c_fill_valid);
    assert_int_equal(o.c_fill_handle, 6);
    assert_int_equal(o.n1_rep_handle, 5);
    assert_int_equal(o.n1_rep_kind, ST);
    idle_tick(&q);             /* the cache does not take the fill */
    assert_int_equal(q.q[GM_DCL1Q_Q4].count, 2);
    gm_dcl1q_in in = {.c_fill_accept = 1};
    gm_dcl1q_tick(&q, &in);
    idle_tick(&q);             /* the atomic reply moves to Q2 */
    uint32_t want[2] = {5, 7};
    for (int i = 0; i < 2; i++) {
        o = eval(&q);
        assert_true(o.n1_rep_valid);
        assert_int_equal(o.n1_rep_handle, want[i]);
        gm_dcl1q_in pop = {.n1_rep_ready = 1};
        gm_dcl1q_tick(&q, &pop);
    }
    assert_true(gm_dcl1q_idle(&q));
    assert_int_equal(q.st.bypass_q4_q2, 2);
    assert_int_equal(q.st.protocol_errors, 0);
    gm_dcl1q_free(&q);
}

/* Q2 has one write port. Under contention the Q4 bypass reply goes first
 * (rr starts at 0), then they alternate; c_rsp_ready tells the cache in
 * advance whether its reply is taken. */
static void test_q2_arbitration(void **state)
{
    (void)state;
    gm_dcl1q q;
    init(&q, 4);
    reply_arrives(&q, 200, AT);
    /* Q4 = {200}: rr = 0, the bypass reply wins, the cache's 900 waits */
    assert_false(eval(&q).c_rsp_ready);
    gm_dcl1q_in b = {.n2_rep_valid = 1, .n2_rep_handle = 201, .n2_rep_kind = NL,
                     .c_rsp_valid = 1, .c_rsp_handle = 900};
    gm_dcl1q_tick(&q, &b);
    assert_int_equal(q.rr, 1);
    uint32_t out[8], nout = 0;
    bool won[4];
    for (uint32_t i = 0; i < 4; i++) {
        gm_dcl1q_out o = eval(&q);
        if (o.n1_rep_valid)
            out[nout++] = o.n1_rep_handle;
        gm_dcl1q_in in = {.c_rsp_valid = 1, .c_rsp_handle = 901 + i, .n1_rep_ready = 1};
        won[i] = o.c_rsp_ready;
        gm_dcl1q_tick(&q, &in);
    }
    for (int i = 0; i < 4; i++) {
        gm_dcl1q_out o = eval(&q);
        if (o.n1_rep_valid)
            out[nout++] = o.n1_rep_handle;
        gm_dcl1q_in pop = {.n1_rep_ready = 1};
        gm_dcl1q_tick(&q, &pop);
    }
    /* edge 1: the cache's turn (901); edge 2: Q4's 201, 902 refused;
     * edges 3, 4: Q4 empty, 903 and 904 */
    assert_true(won[0]);
    assert_false(won[1]);
    assert_true(won[2]);
    assert_true(won[3]);
    uint32_t want[5] = {200, 901, 201, 903, 904};
    assert_int_equal(nout, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(out[i], want[i]);
    assert_true(gm_dcl1q_idle(&q));
    assert_int_equal(q.st.protocol_errors, 0);
    gm_dcl1q_free(&q);
}

/* ---- random traffic -------------------------------------------------------------- */

#define NH 4096

/* A stand-in for the cache and the networks, driven only by the block's
 * outputs and a PRNG: every handle must leave exactly once, by the path
 * its kind and the cache's choices dictate, and each path keeps order. */
static void test_random_conservation(void **state)
{
    (void)state;
    gm_prng rng;
    gm_prng_seed(&rng, 7, 0);
    for (uint32_t depth = 1; depth <= 5; depth += 2) {
        gm_dcl1q q;
        init(&q, depth);
        static uint8_t left_by[NH];   /* 0 not yet, 1 via n1_rep, 2 via n2_req */
        static uint8_t kind_of[NH];
        memset(left_by, 0, sizeof left_by);
        uint32_t next_req = 1, next_rep = 2048, kept[NH], nkept = 0;
        uint32_t last_n2 = 0, last_n1_bypass = 0;
        for (int cyc = 0; cyc < 20000; cyc++) {
            gm_dcl1q_out o = eval(&q);
            gm_dcl1q_in in = {0};
            if (o.n1_req_ready && next_req < 2048 && gm_prng_below(&rng, 2)) {
                in.n1_req_valid = 1;
                in.n1_req_handle = next_req;
                in.n1_req_kind = (uint8_t)gm_prng_below(&rng, 4);
                kind_of[next_req++] = in.n1_req_kind;
            }
            if (o.n2_rep_ready && next_rep < NH && gm_prng_below(&rng, 3) == 0) {
                in.n2_rep_valid = 1;
                in.n2_rep_handle = next_rep;
                in.n2_rep_kind = (uint8_t)gm_prng_below(&rng, 4);
                kind_of[next_rep++] = in.n2_rep_kind;
            }
            in.n1_rep_ready = (uint8_t)gm_prng_below(&rng, 2);
            in.n2_req_ready = (uint8_t)gm_prng_below(&rng, 2);
            if (o.c_req_valid && gm_prng_below(&rng, 2)) {
                assert_true(o.c_req_kind == LD || o.c_req_kind == ST);
                in.c_req_accept = 1;
                /* stores always go to L2; loads sometimes (misses) */
                in.c_req_miss = o.c_miss_ready &&
                                (o.c_req_kind == ST || gm_prng_below(&rng, 2));
                if (!in.c_req_miss && o.c_req_kind == ST)
                    in.c_req_accept = 0;
                if (in.c_req_accept && !in.c_req_miss)
                    kept[nkept++] = o.c_req_handle;
            }
            if (o.c_fill_valid && gm_prng_below(&rng, 2)) {
                in.c_fill_accept = 1;
                kept[nkept++] = o.c_fill_handle; /* forwarded to the core later */
            }
            uint32_t rsp = 0;
            if (nkept && gm_prng_below(&rng, 2)) {
                in.c_rsp_valid = 1;
                in.c_rsp_handle = rsp = kept[0];
            }
            if (o.n1_rep_valid && in.n1_rep_ready) {
                uint32_t h = o.n1_rep_handle;
                assert_int_equal(left_by[h], 0);
                left_by[h] = 1;
                if (o.n1_rep_kind != LD) { /* a bypass reply: Q4 order kept */
                    assert_true(h > last_n1_bypass);
                    last_n1_bypass = h;
                }
            }
            if (o.n2_req_valid && in.n2_req_ready) {
                uint32_t h = o.n2_req_handle;
                assert_int_equal(left_by[h], 0);
                assert_int_equal(o.n2_req_kind, kind_of[h]);
                left_by[h] = 2;
                assert_true(h > last_n2); /* Q1 order kept into Q3 */
                last_n2 = h;
            }
            bool taken = o.c_rsp_ready && in.c_rsp_valid;
            gm_dcl1q_tick(&q, &in);
            if (taken) {
                memmove(kept, kept + 1, (nkept - 1) * sizeof *kept);
                nkept--;
            }
            (void)rsp;
            for (uint32_t i = 0; i < GM_DCL1Q_NQ; i++)
                assert_true(q.q[i].count <= depth);
        }
        /* drain: everything offered is taken */
        for (int cyc = 0; cyc < 1000; cyc++) {
            gm_dcl1q_out o = eval(&q);
            gm_dcl1q_in in = {.n1_rep_ready = 1, .n2_req_ready = 1};
            if (o.c_req_valid) {
                in.c_req_accept = o.c_req_kind == LD || o.c_miss_ready;
                in.c_req_miss = o.c_req_kind == ST && o.c_miss_ready;
                if (in.c_req_accept && !in.c_req_miss)
                    kept[nkept++] = o.c_req_handle;
            }
            if (o.c_fill_valid) {
                in.c_fill_accept = 1;
                kept[nkept++] = o.c_fill_handle;
            }
            if (nkept) {
                in.c_rsp_valid = 1;
                in.c_rsp_handle = kept[0];
            }
            if (o.n1_rep_valid)
                left_by[o.n1_rep_handle] = 1;
            if (o.n2_req_valid)
                left_by[o.n2_req_handle] = 2;
            bool taken = o.c_rsp_ready && in.c_rsp_valid;
            gm_dcl1q_tick(&q, &in);
            if (taken) {
                memmove(kept, kept + 1, (nkept - 1) * sizeof *kept);
                nkept--;
            }
        }
        assert_true(gm_dcl1q_idle(&q));
        assert_int_equal(nkept, 0);
        assert_int_equal(q.st.protocol_errors, 0);
        /* every handle that entered left exactly once, by the right path */
        for (uint32_t h = 1; h < next_req; h++) {
            assert_int_not_equal(left_by[h], 0);
            if (kind_of[h] == AT || kind_of[h] == NL || kind_of[h] == ST)
                assert_int_equal(left_by[h], 2);
        }
        for (uint32_t h = 2048; h < next_rep; h++)
            assert_int_equal(left_by[h], 1);
        assert_true(next_req > 500 && next_rep > 2048 + 300);
        gm_dcl1q_free(&q);
    }
}

static void test_bad_depth(void **state)
{
    (void)state;
    gm_dcl1q q;
    gm_error err = {{0}};
    assert_int_equal(gm_dcl1q_init(&q, 0, &err), -1);
    assert_int_equal(gm_dcl1q_init(&q, GM_DCL1Q_MAX_DEPTH + 1, &err), -1);
    assert_non_null(strstr(err.msg, "queues"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_q1_fifo_and_full),
        cmocka_unit_test(test_ready_is_registered),
        cmocka_unit_test(test_bypass_q1_to_q3),
        cmocka_unit_test(test_q3_full_blocks),
        cmocka_unit_test(test_q4_fill_and_bypass),
        cmocka_unit_test(test_q2_arbitration),
        cmocka_unit_test(test_random_conservation),
        cmocka_unit_test(test_bad_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
