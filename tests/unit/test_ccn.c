/* CCN design blocks (docs/designs/ccn.md): the routing of a load miss,
 * the queue priority rules (forwarded before new in the ReqQ, local
 * before forwarded in the RespQ, the bubble), the ReqQ head's actions
 * (full-buffer bypass, stalled head), the shadow tags against a reference
 * model written here, the L1's tag-update observer (a line pending a fill
 * is not in the tags the ring looks up), and the request throttler on a
 * hand-built trace. Expected values come from the seed's text, worked by
 * hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cache/l1d.h"
#include "designs/ccn/ccn_node.h"
#include "designs/ccn/ccn_rt.h"
#include "designs/ccn/ccn_shadow.h"
#include "sim/prng.h"

/* ---- routing of a load miss (seed 4.2, 4.4) ---- */

static void test_route_miss(void **state)
{
    (void)state;
    assert_int_equal(gm_ccn_route_miss(GM_REQ_LOAD, true, false, 0, 8), GM_CCN_TO_CB);
    assert_int_equal(gm_ccn_route_miss(GM_REQ_LOAD, true, false, 7, 8), GM_CCN_TO_CB);
    /* a full CCN buffer sends the miss straight to L2 */
    assert_int_equal(gm_ccn_route_miss(GM_REQ_LOAD, true, false, 8, 8), GM_CCN_TO_L2_FULL);
    assert_int_equal(gm_ccn_route_miss(GM_REQ_LOAD, true, false, 1, 1), GM_CCN_TO_L2_FULL);
    /* the throttler bypasses the CCN, full or not */
    assert_int_equal(gm_ccn_route_miss(GM_REQ_LOAD, true, true, 0, 8),
                     GM_CCN_TO_L2_THROTTLED);
    /* writes are not forwarded on the ring; nor atomics or non-L1 */
    assert_int_equal(gm_ccn_route_miss(GM_REQ_STORE, true, false, 0, 8), GM_CCN_TO_L2_OTHER);
    assert_int_equal(gm_ccn_route_miss(GM_REQ_ATOMIC, true, false, 0, 8), GM_CCN_TO_L2_OTHER);
    assert_int_equal(gm_ccn_route_miss(GM_REQ_NONL1, true, false, 0, 8), GM_CCN_TO_L2_OTHER);
    assert_int_equal(gm_ccn_route_miss(GM_REQ_LOAD, false, false, 0, 8), GM_CCN_TO_L2_OTHER);
}

/* ---- queue priorities ---- */

/* ReqQ: the preferred writer is the forwarded (older) request, which
 * needs one unreserved slot; the new one from the CCN buffer needs two. */
static void test_reqq_prefers_forwarded(void **state)
{
    (void)state;
    bool fwd, nw;
    /* one slot: the forwarded request takes it, the new one waits */
    gm_ccn_grant(1, true, false, true, true, &fwd, &nw);
    assert_true(fwd);
    assert_false(nw);
    /* two slots: forwarded takes one, the new one would take the last */
    gm_ccn_grant(2, true, false, true, true, &fwd, &nw);
    assert_true(fwd);
    assert_false(nw);
    /* three: both */
    gm_ccn_grant(3, true, false, true, true, &fwd, &nw);
    assert_true(fwd);
    assert_true(nw);
    /* no forwarded request: a new one needs two free slots (the bubble) */
    gm_ccn_grant(2, false, false, true, true, &fwd, &nw);
    assert_false(fwd);
    assert_true(nw);
    gm_ccn_grant(1, false, false, true, true, &fwd, &nw);
    assert_false(nw);
    gm_ccn_grant(0, true, false, true, true, &fwd, &nw);
    assert_false(fwd);
    assert_false(nw);
}

/* RespQ: the preferred writer is the new local response (seed 4.2.1). */
static void test_respq_prefers_local(void **state)
{
    (void)state;
    bool local, fwd;
    /* two slots: local takes one; the forwarded one the other */
    gm_ccn_grant(2, true, true, true, false, &local, &fwd);
    assert_true(local);
    assert_true(fwd);
    /* three slots, both; with the forwarded first it would be the same */
    gm_ccn_grant(3, true, true, true, false, &local, &fwd);
    assert_true(local && fwd);
    /* one slot: the local response would fill the queue, so it waits (and
     * stalls its ReqQ head); the forwarded one, which leaves, goes in */
    gm_ccn_grant(1, true, true, true, false, &local, &fwd);
    assert_false(local);
    assert_true(fwd);
}

/* ---- the ReqQ head ---- */

static void test_head_actions(void **state)
{
    (void)state;
    gm_ccn_head_in in = {0};
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_NONE);
    /* new at home: no lookup in its own L1, on to the next node */
    in = (gm_ccn_head_in){.present = true, .at_home = true};
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_FORWARD);
    /* back home after the whole ring without a hit: to L2 */
    in.went_round = true;
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_TO_L2);
    /* elsewhere: look up first, decide on the answer */
    in = (gm_ccn_head_in){.present = true, .went_round = true, .respq_room = true,
                          .port_free = true};
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_LOOKUP);
    in.answer = true;
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_FORWARD);
    in.hit = true;
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_RESPOND);
    /* a hit that cannot enqueue its response stalls the head */
    in.respq_room = false;
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_STALL_RESPQ);
    /* a hit whose L1 data array is busy waits for its stolen cycle */
    in.respq_room = true;
    in.port_free = false;
    assert_int_equal(gm_ccn_head_action(&in), GM_CCN_HEAD_STALL_PORT);
}

static void test_queue_fifo(void **state)
{
    (void)state;
    gm_ccn_q q;
    gm_req r[3];
    assert_int_equal(gm_ccn_q_init(&q, 2), 0);
    assert_null(gm_ccn_q_head(&q));
    gm_ccn_q_push(&q, &r[0]);
    gm_ccn_q_push(&q, &r[1]);
    assert_ptr_equal(gm_ccn_q_pop(&q), &r[0]);
    gm_ccn_q_push(&q, &r[2]);
    assert_ptr_equal(gm_ccn_q_at(&q, 1), &r[2]);
    assert_ptr_equal(gm_ccn_q_pop(&q), &r[1]);
    assert_ptr_equal(gm_ccn_q_pop(&q), &r[2]);
    assert_int_equal(q.freed, 3);
    gm_ccn_q_free(&q);
}

/* ---- shadow tags against a reference ---- */

typedef struct ref_st {
    uint32_t sets, ways, bits;
    uint8_t v[64][8];
    uint64_t t[64][8];
    int hit, way, done;     /* registered answer */
} ref_st;

static void ref_tick(ref_st *m, const gm_shadow_tags_in *in)
{
    uint64_t mask = (1ull << m->bits) - 1;
    if (in->wr0_valid) {
        m->v[in->wr0_set][in->wr0_way] = in->wr0_tag_valid;
        m->t[in->wr0_set][in->wr0_way] = in->wr0_tag & mask;
    }
    if (in->wr1_valid) {
        m->v[in->wr1_set][in->wr1_way] = in->wr1_tag_valid;
        m->t[in->wr1_set][in->wr1_way] = in->wr1_tag & mask;
    }
    m->done = in->lk_valid;
    m->hit = 0;
    m->way = 0;
    if (in->lk_valid)
        for (int w = (int)m->ways - 1; w >= 0; w--)
            if (m->v[in->lk_set][w] && m->t[in->lk_set][w] == (in->lk_tag & mask)) {
                m->hit = 1;
                m->way = w;
            }
}

static void run_shadow_random(uint32_t sets, uint32_t ways, uint32_t bits, uint64_t seed)
{
    gm_shadow_tags st;
    gm_error err;
    assert_int_equal(gm_shadow_tags_init(&st, sets, ways, bits, &err), 0);
    ref_st m;
    memset(&m, 0, sizeof m);
    m.sets = sets, m.ways = ways, m.bits = bits;
    gm_prng p;
    gm_prng_seed(&p, seed, 0);
    /* few distinct tags, so lookups hit often */
    uint64_t tags[4] = {0, 1, (1ull << bits) - 1, 5 & ((1ull << bits) - 1)};
    uint32_t hits = 0;
    for (int cyc = 0; cyc < 5000; cyc++) {
        gm_shadow_tags_out o;
        gm_shadow_tags_eval(&st, &o);
        assert_int_equal(o.lk_done, m.done);
        assert_int_equal(o.lk_hit, m.hit);
        assert_int_equal(o.lk_way, m.way);
        assert_int_equal(o.steal, m.hit);
        hits += o.lk_hit;
        gm_shadow_tags_in in = {0};
        uint64_t x = gm_prng_next(&p);
        in.wr0_valid = x & 1;
        in.wr0_set = (uint16_t)((x >> 8) % sets);
        in.wr0_way = (uint8_t)((x >> 20) % ways);
        in.wr0_tag_valid = (x >> 30) & 1 || (x >> 31) & 1;
        in.wr0_tag = tags[(x >> 32) & 3];
        in.wr1_valid = (x >> 1) & 1;
        /* often the same entry as port 0: port 1 must win */
        in.wr1_set = (x >> 2) & 1 ? in.wr0_set : (uint16_t)((x >> 40) % sets);
        in.wr1_way = (x >> 3) & 1 ? in.wr0_way : (uint8_t)((x >> 48) % ways);
        in.wr1_tag_valid = (x >> 56) & 1;
        in.wr1_tag = tags[(x >> 58) & 3];
        uint64_t y = gm_prng_next(&p);
        in.lk_valid = (y & 3) != 0;
        in.lk_set = (uint16_t)((y >> 8) % sets);
        in.lk_tag = tags[(y >> 32) & 3];
        gm_shadow_tags_tick(&st, &in);
        ref_tick(&m, &in);
    }
    assert_true(hits > 100);
    gm_shadow_tags_free(&st);
}

static void test_shadow_matches_reference(void **state)
{
    (void)state;
    run_shadow_random(32, 4, 26, 1);  /* the seed's 16 KB 4-way L1 */
    run_shadow_random(1, 1, 1, 2);
    run_shadow_random(2, 2, 3, 3);
    run_shadow_random(3, 5, 7, 4);
    run_shadow_random(48, 6, 20, 5);
}

/* A lookup answers one cycle later and sees that cycle's writes. */
static void test_shadow_timing(void **state)
{
    (void)state;
    gm_shadow_tags st;
    gm_error err;
    assert_int_equal(gm_shadow_tags_init(&st, 4, 2, 8, &err), 0);
    gm_shadow_tags_out o;
    gm_shadow_tags_in in = {.wr0_valid = 1, .wr0_set = 3, .wr0_way = 1, .wr0_tag_valid = 1,
                            .wr0_tag = 0x5a, .lk_valid = 1, .lk_set = 3, .lk_tag = 0x5a};
    gm_shadow_tags_eval(&st, &o);
    assert_int_equal(o.lk_done, 0);
    gm_shadow_tags_tick(&st, &in);
    gm_shadow_tags_eval(&st, &o);
    assert_int_equal(o.lk_done, 1);
    assert_int_equal(o.lk_hit, 1);
    assert_int_equal(o.lk_way, 1);
    /* invalidated by port 1 in the cycle of the lookup: a miss */
    in = (gm_shadow_tags_in){.wr1_valid = 1, .wr1_set = 3, .wr1_way = 1, .lk_valid = 1,
                             .lk_set = 3, .lk_tag = 0x5a};
    gm_shadow_tags_tick(&st, &in);
    gm_shadow_tags_eval(&st, &o);
    assert_int_equal(o.lk_done, 1);
    assert_int_equal(o.lk_hit, 0);
    /* no lookup: nothing answered */
    in = (gm_shadow_tags_in){0};
    gm_shadow_tags_tick(&st, &in);
    gm_shadow_tags_eval(&st, &o);
    assert_int_equal(o.lk_done, 0);
    assert_int_equal(o.steal, 0);
    gm_shadow_tags_free(&st);
    assert_int_not_equal(gm_shadow_tags_init(&st, 0, 2, 8, &err), 0);
    assert_int_not_equal(gm_shadow_tags_init(&st, 2, 2, 49, &err), 0);
}

/* ---- the L1's tag-update observer: pending lines are not shared ---- */

typedef struct obs {
    int calls;
    int32_t idx;
    uint64_t addr;
    uint8_t used;
} obs;

static void observe(void *ctx, int32_t idx, const gm_tag_line *l)
{
    obs *o = ctx;
    o->calls++;
    o->idx = idx;
    o->addr = l->addr;
    o->used = l->used;
}

static void test_pending_line_not_in_tags(void **state)
{
    (void)state;
    gm_clock clk;
    gm_clock_init(&clk);
    assert_int_equal(gm_clock_add(&clk, "core", 1400, NULL), 0);
    assert_int_equal(gm_clock_finalize(&clk, NULL), 0);
    gm_req_pool pool;
    gm_req_pool_init(&pool);
    gm_cache_cfg cfg = {.size_bytes = 16384, .assoc = 4, .line_bytes = 128, .latency = 28,
                        .mshr_entries = 8, .mshr_merge = 4, .miss_queue = 4, .port_bytes = 128};
    gm_l1d l1;
    gm_link miss, fill;
    gm_error err;
    assert_int_equal(gm_l1d_init(&l1, &cfg, 0, NULL, &err), 0);
    assert_int_equal(gm_link_init(&miss, 4, 1, &clk.d[0]), 0);
    assert_int_equal(gm_link_init(&fill, 4, 1, &clk.d[0]), 0);
    gm_l1d_connect(&l1, (gm_l1d_ports){.miss_out = &miss, .fill_in = &fill});
    obs o = {0};
    l1.tags.on_update = observe;
    l1.tags.on_update_ctx = &o;
    gm_clock_advance(&clk);
    gm_req *r = gm_req_alloc(&pool, clk.now);
    r->kind = GM_REQ_LOAD;
    r->addr = 0x12380;
    r->sectors = 0xf;
    assert_true(gm_l1d_try_access(&l1, r, clk.now));
    /* the miss is pending (an MSHR entry): nothing written to the tags,
     * so a shadow copy cannot offer the line to the ring */
    gm_req *sent = NULL;
    for (int i = 0; i < 10 && !sent; i++) {
        gm_clock_advance(&clk);
        gm_l1d_tick(&l1, clk.now);
        if (gm_link_peek(&miss, clk.now))
            sent = gm_link_pop(&miss, clk.now);
    }
    assert_ptr_equal(sent, r);
    assert_int_equal(o.calls, 0);
    assert_true(gm_tag_probe(&l1.tags, 0x12380) < 0);
    sent->is_reply = 1;
    gm_link_push(&fill, sent, clk.now);
    for (int i = 0; i < 4; i++) {
        gm_clock_advance(&clk);
        gm_l1d_tick(&l1, clk.now);
    }
    /* the fill allocates: one update, the line now valid in its set */
    assert_int_equal(o.calls, 1);
    assert_int_equal(o.used, 1);
    assert_int_equal(o.addr, 0x12380);
    assert_int_equal(o.idx / 4, (0x12380 >> 7) % 32);
    assert_int_equal(o.idx, gm_tag_probe(&l1.tags, 0x12380));
    /* a store write-evicts: a second update, the way invalid */
    gm_clock_advance(&clk);
    gm_req *w = gm_req_alloc(&pool, clk.now);
    w->kind = GM_REQ_STORE;
    w->addr = 0x12380;
    w->sectors = 0x1;
    assert_true(gm_l1d_try_access(&l1, w, clk.now));
    assert_int_equal(o.calls, 2);
    assert_int_equal(o.used, 0);
    gm_l1d_free(&l1);
    gm_link_free(&miss);
    gm_link_free(&fill);
    gm_req_pool_free(&pool);
}

/* ---- the request throttler on a hand-built trace ---- */

static void test_throttler_trace(void **state)
{
    (void)state;
    gm_ccn_rt rt;
    /* tS = 100, tP = 1000 instructions, Hmin = 5% */
    gm_ccn_rt_init(&rt, 100, 1000, 5);
    assert_true(gm_ccn_rt_use_ccn(&rt));
    /* epoch 1, sample: 40 requests, 1 hit = 2.5% < 5% */
    for (int i = 0; i < 40; i++)
        gm_ccn_rt_injected(&rt);
    gm_ccn_rt_hit(&rt);
    gm_ccn_rt_advance(&rt, 99);
    assert_true(gm_ccn_rt_use_ccn(&rt)); /* still sampling */
    gm_ccn_rt_advance(&rt, 100);
    assert_false(gm_ccn_rt_use_ccn(&rt));
    assert_int_equal(rt.throttled_epochs, 1);
    /* hits after the sample do not count */
    gm_ccn_rt_hit(&rt);
    assert_int_equal(rt.n_hits, 1);
    gm_ccn_rt_advance(&rt, 999);
    assert_false(gm_ccn_rt_use_ccn(&rt));
    /* epoch 2 at 1000: back on the CCN, counts reset; 20 requests, 1 hit
     * = 5%, not below Hmin: stays on */
    gm_ccn_rt_advance(&rt, 1000);
    assert_true(gm_ccn_rt_use_ccn(&rt));
    assert_int_equal(rt.n_total, 0);
    for (int i = 0; i < 20; i++)
        gm_ccn_rt_injected(&rt);
    gm_ccn_rt_hit(&rt);
    gm_ccn_rt_advance(&rt, 1100);
    assert_true(gm_ccn_rt_use_ccn(&rt));
    assert_int_equal(rt.throttled_epochs, 1);
    /* epoch 3: no requests at all in the sample: no evidence, stays on */
    gm_ccn_rt_advance(&rt, 2150);
    assert_true(gm_ccn_rt_use_ccn(&rt));
    assert_int_equal(rt.epochs, 3);
    /* epoch 4: 21 requests, 1 hit = 4.76% < 5%: throttled; then a jump over
     * epochs 5 and 6 (no requests) to the middle of epoch 7's sample */
    gm_ccn_rt_advance(&rt, 3000);
    for (int i = 0; i < 21; i++)
        gm_ccn_rt_injected(&rt);
    gm_ccn_rt_hit(&rt);
    gm_ccn_rt_advance(&rt, 3100);
    assert_false(gm_ccn_rt_use_ccn(&rt));
    assert_int_equal(rt.throttled_epochs, 2);
    gm_ccn_rt_advance(&rt, 6050);
    assert_int_equal(rt.epochs, 7);
    assert_true(rt.sampling);
    assert_true(gm_ccn_rt_use_ccn(&rt));
    assert_int_equal(rt.throttled_epochs, 2);
    /* Hmin = 0 never throttles; Hmin = 100 throttles unless every request hit */
    gm_ccn_rt_init(&rt, 10, 20, 0);
    gm_ccn_rt_injected(&rt);
    gm_ccn_rt_advance(&rt, 10);
    assert_true(gm_ccn_rt_use_ccn(&rt));
    gm_ccn_rt_init(&rt, 10, 20, 100);
    gm_ccn_rt_injected(&rt);
    gm_ccn_rt_injected(&rt);
    gm_ccn_rt_hit(&rt);
    gm_ccn_rt_advance(&rt, 10);
    assert_false(gm_ccn_rt_use_ccn(&rt));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_route_miss),
        cmocka_unit_test(test_reqq_prefers_forwarded),
        cmocka_unit_test(test_respq_prefers_local),
        cmocka_unit_test(test_head_actions),
        cmocka_unit_test(test_queue_fifo),
        cmocka_unit_test(test_shadow_matches_reference),
        cmocka_unit_test(test_shadow_timing),
        cmocka_unit_test(test_pending_line_not_in_tags),
        cmocka_unit_test(test_throttler_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
