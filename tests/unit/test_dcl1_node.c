/* One DC-L1 node (queue block + node cache + glue) between real links,
 * with the cores and the L2 played by the test: the paper's request,
 * reply, write, non-L1 and atomic flows, MSHR merging, reply sizing, the
 * hit latency, and the residency map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "designs/dcl1/dcl1_node.h"
#include "sim/clock.h"
#include "sim/link.h"
#include "sim/req.h"

#define LINE_A 0x10000ull
#define LINE_B 0x20080ull
#define MAXQ 64

typedef struct rig {
    gm_clock clk;
    int dom;
    gm_req_pool pool;
    gm_residency res;
    gm_link req_in, rep_out, l2_out, l2_in;
    gm_dcl1_node n;
    gm_time now;
    uint64_t cycle;
    /* what came out of the node, in order */
    gm_req *to_l2[MAXQ];
    uint32_t nto_l2;
    gm_req *to_core[MAXQ];
    uint64_t to_core_cycle[MAXQ];
    uint32_t nto_core;
} rig;

static gm_cache_cfg cache_cfg(uint32_t latency, uint32_t mshr, uint32_t merge)
{
    return (gm_cache_cfg){.size_bytes = 4096, .assoc = 4, .line_bytes = 128,
                          .latency = latency, .mshr_entries = mshr, .mshr_merge = merge,
                          .miss_queue = 4, .port_bytes = 128};
}

static rig *rig_new_homes(uint32_t latency, uint32_t mshr, uint32_t merge, uint32_t homes)
{
    rig *t = calloc(1, sizeof *t);
    gm_error err = {{0}};
    gm_clock_init(&t->clk);
    t->dom = gm_clock_add(&t->clk, "core", 1400, &err);
    assert_int_equal(gm_clock_finalize(&t->clk, &err), 0);
    gm_req_pool_init(&t->pool);
    assert_int_equal(gm_residency_init(&t->res, &err), 0);
    const gm_clock_domain *d = &t->clk.d[t->dom];
    gm_link *ls[4] = {&t->req_in, &t->rep_out, &t->l2_out, &t->l2_in};
    for (int i = 0; i < 4; i++)
        assert_int_equal(gm_link_init(ls[i], 4, 1, d), 0);
    gm_cache_cfg cc = cache_cfg(latency, mshr, merge);
    if (gm_dcl1_node_init(&t->n, 3, &cc, 4, &t->res, 1, 128, homes, d, &err) != 0)
        fail_msg("%s", err.msg);
    gm_dcl1_node_connect(&t->n, (gm_dcl1_node_ports){.req_in = &t->req_in,
                                                     .rep_out = &t->rep_out,
                                                     .l2_out = &t->l2_out,
                                                     .l2_in = &t->l2_in});
    gm_clock_advance(&t->clk);
    t->now = t->clk.now;
    return t;
}

static rig *rig_new(uint32_t latency, uint32_t mshr, uint32_t merge)
{
    return rig_new_homes(latency, mshr, merge, 1);
}

static void rig_free(rig *t)
{
    gm_dcl1_node_free(&t->n);
    gm_link *ls[4] = {&t->req_in, &t->rep_out, &t->l2_out, &t->l2_in};
    for (int i = 0; i < 4; i++)
        gm_link_free(ls[i]);
    gm_residency_free(&t->res);
    gm_req_pool_free(&t->pool);
    free(t);
}

/* A request as a lite core makes it (core.c set_direct_sizes). */
static gm_req *send(rig *t, uint8_t kind, uint64_t addr, uint8_t sectors, uint16_t src)
{
    gm_req *r = gm_req_alloc(&t->pool, t->now);
    r->kind = kind;
    r->addr = addr;
    r->sectors = sectors;
    r->src = src;
    uint32_t bytes = (uint32_t)__builtin_popcount(sectors) * 32;
    r->req_bytes = kind == GM_REQ_STORE || kind == GM_REQ_ATOMIC ? bytes : 0;
    r->reply_bytes = kind == GM_REQ_STORE ? 0 : bytes;
    assert_true(gm_link_can_push(&t->req_in, t->now));
    gm_link_push(&t->req_in, r, t->now);
    return r;
}

/* The L2 answers r (as the L2 slice and the NoC#2 reply network would
 * leave it: a reply, just accepted by the network). */
static void answer(rig *t, gm_req *r)
{
    r->is_reply = 1;
    r->t_l2 = t->now;
    gm_req_move(r, GM_LOC_NOC_REP, 0, t->now);
    assert_true(gm_link_can_push(&t->l2_in, t->now));
    gm_link_push(&t->l2_in, r, t->now);
}

/* One node cycle; collects what the node sent out. */
static void step(rig *t)
{
    gm_clock_advance(&t->clk);
    t->now = t->clk.now;
    t->cycle++;
    gm_dcl1_node_tick(&t->n, t->now);
    gm_req *r;
    while ((r = gm_link_peek(&t->l2_out, t->now + 1000)) && t->nto_l2 < MAXQ) {
        gm_link_pop(&t->l2_out, t->now);
        t->to_l2[t->nto_l2++] = r;
    }
    while ((r = gm_link_peek(&t->rep_out, t->now + 1000)) && t->nto_core < MAXQ) {
        gm_link_pop(&t->rep_out, t->now);
        t->to_core_cycle[t->nto_core] = t->cycle;
        t->to_core[t->nto_core++] = r;
    }
}

static void steps(rig *t, int n)
{
    for (int i = 0; i < n; i++)
        step(t);
}

static void done_with(rig *t, gm_req *r)
{
    gm_req_release(&t->pool, r);
}

/* Loads a line into the node: miss, fetch, fill. */
static void warm(rig *t, uint64_t addr)
{
    uint32_t l2 = t->nto_l2, core = t->nto_core;
    send(t, GM_REQ_LOAD, addr, 0xf, 0);
    steps(t, 8);
    assert_int_equal(t->nto_l2, l2 + 1);
    answer(t, t->to_l2[l2]);
    steps(t, 8);
    assert_int_equal(t->nto_core, core + 1);
    done_with(t, t->to_core[core]);
}

/* Read miss: the node fetches the whole line from L2 and forwards to the
 * core only the sectors it asked for. */
static void test_miss_fetches_line_replies_requested_size(void **state)
{
    (void)state;
    rig *t = rig_new(10, 4, 4);
    gm_req *r = send(t, GM_REQ_LOAD, LINE_A, 0x2, 5);
    steps(t, 8);
    assert_int_equal(t->nto_l2, 1);
    assert_ptr_equal(t->to_l2[0], r);
    assert_int_equal(r->reply_bytes, 128);
    assert_int_equal(r->req_bytes, 0);
    assert_int_equal(r->l1, 3);
    assert_int_equal(r->is_reply, 0);
    answer(t, r);
    steps(t, 8);
    assert_int_equal(t->nto_core, 1);
    assert_ptr_equal(t->to_core[0], r);
    assert_int_equal(r->reply_bytes, 32);
    assert_true(r->is_reply);
    assert_int_equal(t->n.cache.stats.load_misses, 1);
    assert_int_equal(t->n.cache.stats.fills, 1);
    assert_int_equal(gm_residency_count(&t->res, LINE_A), 1);
    done_with(t, r);
    assert_false(gm_dcl1_node_busy(&t->n));
    gm_error err = {{0}};
    assert_int_equal(gm_dcl1_node_check_drained(&t->n, &err), 0);
    rig_free(t);
}

/* A second load to a line already being fetched merges into the node's
 * MSHR: one fetch, two replies, each at its own size. */
static void test_mshr_merge(void **state)
{
    (void)state;
    rig *t = rig_new(10, 4, 4);
    gm_req *a = send(t, GM_REQ_LOAD, LINE_A, 0x1, 0);
    step(t);
    gm_req *b = send(t, GM_REQ_LOAD, LINE_A, 0xc, 1);
    steps(t, 10);
    assert_int_equal(t->nto_l2, 1);
    assert_int_equal(t->n.cache.stats.mshr_merges, 1);
    assert_int_equal(t->nto_core, 0);
    answer(t, a);
    steps(t, 10);
    assert_int_equal(t->nto_core, 2);
    assert_ptr_equal(t->to_core[0], a); /* primary first */
    assert_ptr_equal(t->to_core[1], b);
    assert_int_equal(a->reply_bytes, 32);
    assert_int_equal(b->reply_bytes, 64);
    done_with(t, a);
    done_with(t, b);
    rig_free(t);
}

/* A hit costs exactly the configured latency (the rest of the path is the
 * same, so compare two latencies), and sends nothing to L2. Latency 0
 * behaves as 1 (the reply is offered from the state at the start of a
 * cycle), so the comparison uses 1 and 31. */
static uint64_t hit_round_trip(uint32_t latency)
{
    rig *t = rig_new(latency, 4, 4);
    warm(t, LINE_A);
    uint32_t l2 = t->nto_l2;
    uint64_t t0 = t->cycle;
    gm_req *r = send(t, GM_REQ_LOAD, LINE_A, 0x1, 0);
    while (t->nto_core == 1)
        step(t);
    assert_int_equal(t->nto_l2, l2);
    assert_ptr_equal(t->to_core[1], r);
    assert_int_equal(r->reply_bytes, 32);
    uint64_t rt = t->to_core_cycle[1] - t0;
    assert_int_equal(t->n.cache.stats.load_hits, 1);
    done_with(t, r);
    rig_free(t);
    return rt;
}

static void test_hit_latency(void **state)
{
    (void)state;
    uint64_t fast = hit_round_trip(1), slow = hit_round_trip(31);
    assert_int_equal(slow - fast, 30);
}

/* Write hit: the line is evicted (write-evict), the store goes to L2 with
 * its data, the ACK comes back through Q4 -> Q2; the next load misses. */
static void test_write_evict_and_ack(void **state)
{
    (void)state;
    rig *t = rig_new(10, 4, 4);
    warm(t, LINE_A);
    assert_int_equal(gm_residency_count(&t->res, LINE_A), 1);
    gm_req *st = send(t, GM_REQ_STORE, LINE_A, 0x3, 2);
    steps(t, 8);
    assert_int_equal(t->nto_l2, 2);
    assert_ptr_equal(t->to_l2[1], st);
    assert_int_equal(st->req_bytes, 64);
    assert_int_equal(t->n.cache.stats.write_evicts, 1);
    assert_int_equal(gm_residency_count(&t->res, LINE_A), 0);
    assert_int_equal(t->nto_core, 1); /* no reply before the ACK */
    answer(t, st);
    steps(t, 8);
    assert_int_equal(t->nto_core, 2);
    assert_ptr_equal(t->to_core[1], st);
    assert_int_equal(st->reply_bytes, 0);
    assert_int_equal(t->n.q.st.bypass_q4_q2, 1);
    done_with(t, st);
    gm_req *ld = send(t, GM_REQ_LOAD, LINE_A, 0x1, 2);
    steps(t, 8);
    assert_int_equal(t->nto_l2, 3);
    assert_ptr_equal(t->to_l2[2], ld);
    assert_int_equal(t->n.cache.stats.load_misses, 2);
    answer(t, ld);
    steps(t, 8);
    done_with(t, ld);
    rig_free(t);
}

/* Write miss: nothing is allocated (no-write-allocate). */
static void test_store_miss_no_allocate(void **state)
{
    (void)state;
    rig *t = rig_new(10, 4, 4);
    gm_req *st = send(t, GM_REQ_STORE, LINE_B, 0x1, 0);
    steps(t, 8);
    assert_int_equal(t->nto_l2, 1);
    answer(t, st);
    steps(t, 8);
    assert_int_equal(t->nto_core, 1);
    done_with(t, st);
    assert_int_equal(t->n.cache.stats.store_misses, 1);
    assert_int_equal(t->n.cache.stats.fills, 0);
    assert_int_equal(gm_residency_count(&t->res, LINE_B), 0);
    gm_req *ld = send(t, GM_REQ_LOAD, LINE_B, 0x1, 0);
    steps(t, 8);
    assert_int_equal(t->nto_l2, 2); /* still a miss */
    answer(t, ld);
    steps(t, 8);
    done_with(t, ld);
    rig_free(t);
}

/* Atomics and non-L1 requests bypass the cache both ways: a resident line
 * is neither hit nor evicted, and their replies install nothing. */
static void test_atomic_and_nonl1_bypass(void **state)
{
    (void)state;
    rig *t = rig_new(10, 4, 4);
    warm(t, LINE_A);
    uint64_t accesses_before = t->n.cache.stats.load_hits + t->n.cache.stats.load_misses;
    gm_req *at = send(t, GM_REQ_ATOMIC, LINE_A, 0x1, 0);
    step(t);
    gm_req *nl = send(t, GM_REQ_NONL1, LINE_B, 0x3, 1);
    steps(t, 8);
    assert_int_equal(t->nto_l2, 3);
    assert_ptr_equal(t->to_l2[1], at);
    assert_ptr_equal(t->to_l2[2], nl);
    assert_int_equal(at->req_bytes, 32);
    assert_int_equal(nl->reply_bytes, 64); /* not widened to a line */
    assert_int_equal(gm_residency_count(&t->res, LINE_A), 1);
    answer(t, at);
    step(t);
    answer(t, nl);
    steps(t, 8);
    assert_int_equal(t->nto_core, 3);
    assert_ptr_equal(t->to_core[1], at);
    assert_ptr_equal(t->to_core[2], nl);
    assert_int_equal(at->reply_bytes, 32);
    assert_int_equal(nl->reply_bytes, 64);
    assert_int_equal(t->n.q.st.bypass_q1_q3, 2);
    assert_int_equal(t->n.q.st.bypass_q4_q2, 2);
    assert_int_equal(t->n.cache.stats.fills, 1);
    assert_int_equal(gm_residency_count(&t->res, LINE_B), 0);
    assert_int_equal(t->n.cache.stats.load_hits + t->n.cache.stats.load_misses,
                     accesses_before);
    assert_int_equal(t->n.cache.stats.accesses[GM_REQ_ATOMIC], 1);
    assert_int_equal(t->n.cache.stats.accesses[GM_REQ_NONL1], 1);
    done_with(t, at);
    done_with(t, nl);
    rig_free(t);
}

/* With one MSHR, a miss to a second line waits at the head of Q1 (FIFO
 * service: nothing behind it passes) until the first fill frees it. */
static void test_mshr_full_blocks_fifo(void **state)
{
    (void)state;
    rig *t = rig_new(10, 1, 4);
    gm_req *a = send(t, GM_REQ_LOAD, LINE_A, 0x1, 0);
    step(t);
    gm_req *b = send(t, GM_REQ_LOAD, LINE_B, 0x1, 0);
    step(t);
    gm_req *c = send(t, GM_REQ_LOAD, LINE_A, 0x2, 0); /* would merge, but is behind b */
    steps(t, 10);
    assert_int_equal(t->nto_l2, 1);
    assert_true(t->n.cache.stats.res_fail[GM_L1D_FAIL_MSHR] > 0);
    assert_int_equal(t->n.cache.stats.mshr_merges, 0);
    answer(t, a);
    steps(t, 10);
    assert_int_equal(t->nto_l2, 2);
    assert_ptr_equal(t->to_l2[1], b);
    /* c then hits the freshly filled line A */
    assert_int_equal(t->n.cache.stats.load_hits, 1);
    answer(t, b);
    steps(t, 40);
    assert_int_equal(t->nto_core, 3);
    assert_ptr_equal(t->to_core[0], a);
    done_with(t, a);
    done_with(t, b);
    done_with(t, c);
    rig_free(t);
}

/* Full queues push back: with the reply side never taking anything, the
 * node stops taking requests once Q2, the cache's output buffer and Q1
 * are full, and nothing is lost when the reply side opens. */
static void test_backpressure(void **state)
{
    (void)state;
    rig *t = rig_new(2, 4, 4);
    warm(t, LINE_A);
    gm_link *out = &t->rep_out;
    /* block the reply link: fill it with dummies */
    gm_req *dummy[4];
    for (int i = 0; i < 4; i++) {
        dummy[i] = gm_req_alloc(&t->pool, t->now);
        gm_link_push(out, dummy[i], t->now);
    }
    uint32_t sent = 0;
    for (int i = 0; i < 60; i++) {
        if (gm_link_can_push(&t->req_in, t->now)) {
            send(t, GM_REQ_LOAD, LINE_A, 0x1, 0);
            sent++;
        }
        gm_clock_advance(&t->clk);
        t->now = t->clk.now;
        gm_dcl1_node_tick(&t->n, t->now);
    }
    /* Q1 + Q2 (4 each) + the hit pipeline (latency 2) + the input link (4) */
    assert_int_equal(sent, 4 + 4 + 2 + 4);
    assert_int_equal(t->n.q.q[GM_DCL1Q_Q2].count, 4);
    assert_int_equal(t->n.q.q[GM_DCL1Q_Q1].count, 4);
    for (int i = 0; i < 4; i++) {
        gm_link_pop(out, t->now);
        done_with(t, dummy[i]);
    }
    uint32_t before = t->nto_core;
    steps(t, 100);
    assert_int_equal(t->nto_core - before, sent);
    for (uint32_t i = before; i < t->nto_core; i++)
        done_with(t, t->to_core[i]);
    assert_int_equal(t->n.q.st.protocol_errors, 0);
    gm_error err = {{0}};
    assert_int_equal(gm_dcl1_node_check_drained(&t->n, &err), 0);
    rig_free(t);
}

/* A node that is the home of one line in four (ShY with 4 homes, lines
 * 4k) must still use its whole capacity: 32 such lines fit in its 4 KB
 * (32 lines) without an eviction, and all hit when read again. Indexed by
 * the global line number they would fall into 2 of its 8 sets. */
static void test_home_node_uses_all_sets(void **state)
{
    (void)state;
    rig *t = rig_new_homes(2, 4, 4, 4);
    for (uint64_t i = 0; i < 32; i++) {
        uint64_t addr = 0x40000 + i * 4 * 128;
        gm_req *r = send(t, GM_REQ_LOAD, addr, 0x1, 0);
        steps(t, 6);
        assert_int_equal(t->nto_l2, i + 1);
        answer(t, r);
        steps(t, 6);
        assert_int_equal(t->nto_core, i + 1);
        done_with(t, r);
    }
    assert_int_equal(t->n.cache.stats.evictions, 0);
    for (uint64_t i = 0; i < 32; i++) {
        gm_req *r = send(t, GM_REQ_LOAD, 0x40000 + i * 4 * 128, 0x1, 0);
        steps(t, 8);
        done_with(t, r);
    }
    assert_int_equal(t->n.cache.stats.load_hits, 32);
    assert_int_equal(t->nto_l2, 32);
    rig_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_fetches_line_replies_requested_size),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_hit_latency),
        cmocka_unit_test(test_write_evict_and_ack),
        cmocka_unit_test(test_store_miss_no_allocate),
        cmocka_unit_test(test_atomic_and_nonl1_bypass),
        cmocka_unit_test(test_mshr_full_blocks_fifo),
        cmocka_unit_test(test_backpressure),
        cmocka_unit_test(test_home_node_uses_all_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
