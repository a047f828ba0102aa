/* ATA design: the aggregated tag array's hit vector and remote choice, and
 * the L1 node's rules (docs/designs/ata.md section 4): a local hit is
 * preferred over a remote one; a local miss with a remote holder reads the
 * remote data array and fills the line locally; a remote line lost before
 * the read arrives sends the request on to L2; a write changes the local
 * L1 only; the decoupled comparator sends a line to its home; the
 * comparator ports limit lookups per cycle. The test builds K nodes of one
 * cluster and plays the rest of the system: an ideal cluster crossbar
 * (a packet put on a node's crossbar output link is delivered to the input
 * link of its destination at the next edge, unless the test holds it) and
 * L2 (requests are taken from l2_out and answered on l2_in by hand).
 * Expected values follow from the rules and the configured latencies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "designs/ata/ata_node.h"
#include "designs/ata/ata_tagblk.h"
#include "designs/ata/ata_tags.h"

#define L(n) ((uint64_t)(n) * 128u)
#define K 3

typedef struct rig {
    gm_clock clk;
    gm_time now;
    gm_req_pool pool;
    gm_residency res;
    gm_config cfg;
    gm_ata_tags ata;
    gm_tag_array *arrays[K];
    gm_mshr *mshrs[K];
    gm_ata_node n[K];
    gm_link l2_out[K], l2_in[K], xreq_out[K], xreq_in[K], xrep_out[K], xrep_in[K];
    bool hold_xbar;       /* leave crossbar packets where the nodes put them */
    gm_req *done[K][16];  /* completed at the last edge */
    int ndone[K];
} rig;

static void rig_init(rig *g, uint32_t org, uint32_t tag_ports)
{
    memset(g, 0, sizeof *g);
    gm_clock_init(&g->clk);
    assert_int_equal(gm_clock_add(&g->clk, "core", 1000, NULL), 0);
    assert_int_equal(gm_clock_finalize(&g->clk, NULL), 0);
    gm_req_pool_init(&g->pool);
    assert_int_equal(gm_residency_init(&g->res, NULL), 0);
    gm_config_defaults(&g->cfg);
    /* 4 sets of 2 ways, 2 banks, latency 5: small numbers to follow by hand */
    g->cfg.l1 = (gm_cache_cfg){.size_bytes = 1024, .assoc = 2, .line_bytes = 128,
                               .latency = 5, .mshr_entries = 4, .mshr_merge = 4,
                               .miss_queue = 2, .port_bytes = 128, .sectored = 1};
    g->cfg.ata = (gm_ata_cfg){.org = org, .banks = 2, .tag_ports = tag_ports,
                              .remote_fill = 1, .home_granule = 128,
                              .xbar_queue = 2};
    g->ata = (gm_ata_tags){.arrays = g->arrays, .mshrs = g->mshrs, .k = K, .ports = tag_ports ? tag_ports : K,
                           .cycle = UINT64_MAX};
    const gm_clock_domain *d = &g->clk.d[0];
    for (int i = 0; i < K; i++) {
        gm_error err;
        assert_int_equal(gm_ata_node_init(&g->n[i], (uint32_t)i, K, &g->cfg, &g->res, &g->ata,
                                          &err), 0);
        g->arrays[i] = &g->n[i].tags;
        g->mshrs[i] = &g->n[i].mshr;
        gm_link *ls[] = {&g->l2_out[i], &g->l2_in[i], &g->xreq_out[i], &g->xreq_in[i],
                         &g->xrep_out[i], &g->xrep_in[i]};
        for (int j = 0; j < 6; j++)
            assert_int_equal(gm_link_init(ls[j], 4, 1, d), 0);
        gm_ata_node_connect(&g->n[i], (gm_ata_node_ports){
            .l2_out = &g->l2_out[i], .l2_in = &g->l2_in[i], .xreq_out = &g->xreq_out[i],
            .xreq_in = &g->xreq_in[i], .xrep_out = &g->xrep_out[i],
            .xrep_in = &g->xrep_in[i]}, d);
    }
}

static void rig_free(rig *g)
{
    for (int i = 0; i < K; i++) {
        gm_ata_node_free(&g->n[i]);
        gm_link *ls[] = {&g->l2_out[i], &g->l2_in[i], &g->xreq_out[i], &g->xreq_in[i],
                         &g->xrep_out[i], &g->xrep_in[i]};
        for (int j = 0; j < 6; j++)
            gm_link_free(ls[j]);
    }
    gm_residency_free(&g->res);
    gm_req_pool_free(&g->pool);
}

/* The ideal crossbar: each output link's head goes to its destination. */
static void xbar(rig *g)
{
    for (int i = 0; i < K; i++) {
        gm_req *r = gm_link_peek(&g->xreq_out[i], g->now);
        if (r && gm_link_can_push(&g->xreq_in[r->block_handle], g->now))
            gm_link_push(&g->xreq_in[r->block_handle], gm_link_pop(&g->xreq_out[i], g->now),
                         g->now);
        r = gm_link_peek(&g->xrep_out[i], g->now);
        if (r && gm_link_can_push(&g->xrep_in[r->src % K], g->now))
            gm_link_push(&g->xrep_in[r->src % K], gm_link_pop(&g->xrep_out[i], g->now),
                         g->now);
    }
}

static void step(rig *g)
{
    gm_clock_advance(&g->clk);
    g->now = g->clk.now;
    if (!g->hold_xbar)
        xbar(g);
    for (int i = 0; i < K; i++) {
        gm_ata_node_cycle(&g->n[i], g->now);
        g->ndone[i] = 0;
        for (gm_req *r; (r = gm_ata_node_pop_reply(&g->n[i], g->now));) {
            g->done[i][g->ndone[i]++] = r;
            if (r->owner) /* what the core does as it takes a reply */
                ((gm_mem_rec *)r->owner)->remaining--;
        }
    }
}

static gm_req *mkreq(rig *g, int core, gm_req_kind kind, uint64_t addr, uint8_t sectors)
{
    gm_req *r = gm_req_alloc(&g->pool, g->now);
    r->kind = (uint8_t)kind;
    r->addr = addr;
    r->sectors = sectors;
    r->src = (uint16_t)core;
    return r;
}

static gm_req *issue(rig *g, int core, gm_req_kind kind, uint64_t addr, uint8_t sectors)
{
    gm_req *r = mkreq(g, core, kind, addr, sectors);
    assert_true(gm_ata_node_offer(&g->n[core], r, g->now));
    gm_ata_node_accept(&g->n[core], r, g->now);
    return r;
}

/* Steps until node `who` puts a request on l2_out; returns it. */
static gm_req *wait_l2(rig *g, int who)
{
    for (int i = 0; i < 50; i++) {
        step(g);
        if (gm_link_peek(&g->l2_out[who], g->now))
            return gm_link_pop(&g->l2_out[who], g->now);
    }
    fail_msg("nothing sent to L2 by node %d", who);
    return NULL;
}

static void answer_l2(rig *g, gm_req *r)
{
    r->is_reply = 1;
    gm_link_push(&g->l2_in[r->l1], r, g->now);
}

/* Steps until something completes at node `core`; returns the edge count. */
static int wait_done(rig *g, int core)
{
    for (int i = 1; i <= 100; i++) {
        step(g);
        if (g->ndone[core])
            return i;
    }
    fail_msg("nothing completed at node %d", core);
    return 0;
}

/* Line addr (all four sectors) into node `core`, from L2 or, when another
 * node holds it (ata), from that node. */
static void warm(rig *g, int core, uint64_t addr)
{
    step(g);
    gm_req *r = issue(g, core, GM_REQ_LOAD, addr, 0xf);
    for (int i = 0; i < 100 && !g->ndone[core]; i++) {
        step(g);
        if (gm_link_peek(&g->l2_out[core], g->now))
            answer_l2(g, gm_link_pop(&g->l2_out[core], g->now));
    }
    assert_int_equal(g->ndone[core], 1);
    assert_ptr_equal(g->done[core][0], r);
    gm_req_release(&g->pool, r);
    for (int i = 0; i < 4; i++)
        step(g);
}

static bool holds(const rig *g, int node, uint64_t addr, uint8_t sectors)
{
    int32_t way = gm_tag_probe(&g->n[node].tags, addr);
    return way >= 0 && gm_tag_has_sectors(&g->n[node].tags, way, sectors);
}

/* ---- the hit vector and the remote choice ---------------------------------- */

static void test_hit_vector(void **state)
{
    (void)state;
    gm_tag_array t[4];
    gm_tag_array *arr[4];
    for (int i = 0; i < 4; i++) {
        assert_int_equal(gm_tag_array_init(&t[i], 1024, 128, 2, NULL), 0);
        arr[i] = &t[i];
    }
    gm_tag_victim v;
    /* line 5 whole in arrays 0 and 2; sectors 0-1 only in array 3; line 9
     * (same set, another tag) in array 1 */
    int32_t w = gm_tag_allocate(&t[0], L(5), &v);
    gm_tag_line_at(&t[0], w)->valid = 0xf;
    w = gm_tag_allocate(&t[2], L(5), &v);
    gm_tag_line_at(&t[2], w)->valid = 0xf;
    w = gm_tag_allocate(&t[3], L(5), &v);
    gm_tag_line_at(&t[3], w)->valid = 0x3;
    w = gm_tag_allocate(&t[1], L(9), &v);
    gm_tag_line_at(&t[1], w)->valid = 0xf;
    gm_ata_tags a = {.arrays = arr, .k = 4, .ports = 4, .cycle = UINT64_MAX};
    assert_int_equal(gm_ata_hit_vector(&a, L(5), 0xf), 0x5);  /* 0 and 2 */
    assert_int_equal(gm_ata_hit_vector(&a, L(5), 0x2), 0xd);  /* and 3 */
    assert_int_equal(gm_ata_hit_vector(&a, L(5), 0x4), 0x5);
    assert_int_equal(gm_ata_hit_vector(&a, L(9), 0x1), 0x2);
    assert_int_equal(gm_ata_hit_vector(&a, L(13), 0x1), 0x0); /* same set, no tag */
    for (int i = 0; i < 4; i++)
        gm_tag_array_free(&t[i]);
}

static void test_pick_remote(void **state)
{
    (void)state;
    /* the first holder after local, going round; never local itself */
    assert_int_equal(gm_ata_pick_remote(0xb, 1, 4), 3);
    assert_int_equal(gm_ata_pick_remote(0xb, 3, 4), 0);
    assert_int_equal(gm_ata_pick_remote(0xb, 0, 4), 1);
    assert_int_equal(gm_ata_pick_remote(0x4, 2, 4), -1);
    assert_int_equal(gm_ata_pick_remote(0x0, 0, 1), -1);
    assert_int_equal(gm_ata_pick_remote(0x1, 1, 2), 0);
}

static void test_tag_ports(void **state)
{
    (void)state;
    gm_ata_tags a = {.ports = 2, .cycle = UINT64_MAX};
    assert_true(gm_ata_tags_port_free(&a, 10));
    gm_ata_tags_take_port(&a, 10);
    assert_true(gm_ata_tags_port_free(&a, 10));
    gm_ata_tags_take_port(&a, 10);
    assert_false(gm_ata_tags_port_free(&a, 10));
    assert_true(gm_ata_tags_port_free(&a, 11)); /* a new cycle */
}

/* ---- node rules ---------------------------------------------------------------- */

static void test_local_preferred(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_ATA, 0);
    warm(&g, 0, L(6));
    warm(&g, 1, L(6));
    step(&g);
    gm_req *r = issue(&g, 0, GM_REQ_LOAD, L(6), 0x1);
    /* hit vector [1,1,0]: local wins, nothing crosses the crossbar */
    assert_int_equal(g.n[0].st.local_hits, 1);
    assert_int_equal(g.n[0].st.remote_hits, 0);
    assert_int_equal(g.n[0].st.hv_pop[2], 1);
    int edges = wait_done(&g, 0);
    assert_int_equal(edges, (int)g.cfg.l1.latency);
    assert_ptr_equal(g.done[0][0], r);
    assert_int_equal(g.n[1].st.remote_served, 0);
    gm_req_release(&g.pool, r);
    rig_free(&g);
}

static void test_remote_hit_then_local_fill(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_ATA, 0);
    warm(&g, 1, L(7));
    assert_false(holds(&g, 0, L(7), 0x1));
    step(&g);
    gm_req *r = issue(&g, 0, GM_REQ_LOAD, L(7), 0x3);
    assert_int_equal(g.n[0].st.remote_hits, 1);
    assert_int_equal(g.n[0].st.hv_pop[1], 1);
    assert_int_equal(g.n[0].mshr.used, 1);     /* the local fetch */
    assert_int_equal(r->block_handle, 1);
    int edges = wait_done(&g, 0);
    /* out of node 0 (1 edge to the link), the ideal crossbar (1), node 1's
     * data array (latency), back (1 + 1) and the local fill: more than the
     * local hit latency, far less than an L2 round trip */
    assert_true(edges > (int)g.cfg.l1.latency);
    assert_true(edges < 4 * (int)g.cfg.l1.latency);
    assert_ptr_equal(g.done[0][0], r);
    assert_int_equal(r->sectors, 0x3);         /* what it asked for */
    assert_int_equal(g.n[1].st.remote_served, 1);
    assert_true(holds(&g, 0, L(7), 0x3));       /* filled locally */
    assert_false(holds(&g, 0, L(7), 0xc));      /* sectored: only what was fetched */
    assert_true(holds(&g, 1, L(7), 0xf));       /* the remote copy stays */
    assert_int_equal(g.n[0].mshr.used, 0);
    gm_req_release(&g.pool, r);
    /* the same sectors again: now a local hit */
    for (int i = 0; i < 4; i++)
        step(&g);
    r = issue(&g, 0, GM_REQ_LOAD, L(7), 0x1);
    assert_int_equal(g.n[0].st.local_hits, 1);
    wait_done(&g, 0);
    gm_req_release(&g.pool, r);
    for (int i = 0; i < K; i++)
        assert_false(gm_ata_node_busy(&g.n[i]));
    rig_free(&g);
}

static void test_remote_lost_goes_to_l2(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_ATA, 0);
    warm(&g, 1, L(8));
    step(&g);
    g.hold_xbar = true;
    gm_req *r = issue(&g, 0, GM_REQ_LOAD, L(8), 0xf);
    assert_int_equal(g.n[0].st.remote_hits, 1);
    /* before the read arrives, node 1's core writes the line (write-evict:
     * the model's form of the seed's dirty remote line) */
    step(&g);
    gm_req *w = issue(&g, 1, GM_REQ_STORE, L(8), 0x1);
    assert_false(holds(&g, 1, L(8), 0x1));
    gm_req *ws = wait_l2(&g, 1);
    assert_ptr_equal(ws, w);
    g.hold_xbar = false;
    gm_req *m = wait_l2(&g, 1); /* node 1 sends node 0's fetch on to L2 */
    assert_ptr_equal(m, r);
    assert_int_equal(m->l1, 0); /* the reply goes to the L1 that fetches */
    assert_int_equal(g.n[1].st.remote_stale, 1);
    assert_int_equal(g.n[1].st.remote_served, 0);
    answer_l2(&g, m);
    wait_done(&g, 0);
    assert_ptr_equal(g.done[0][0], r);
    assert_true(holds(&g, 0, L(8), 0xf));
    gm_req_release(&g.pool, r);
    ws->is_reply = 1;
    gm_link_push(&g.l2_in[1], ws, g.now);
    wait_done(&g, 1);
    gm_req_release(&g.pool, ws);
    rig_free(&g);
}

static void test_write_local_only(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_ATA, 0);
    warm(&g, 0, L(4));
    warm(&g, 2, L(4));
    step(&g);
    gm_req *w = issue(&g, 0, GM_REQ_STORE, L(4), 0x2);
    assert_false(holds(&g, 0, L(4), 0x1)); /* write-evict, locally */
    assert_true(holds(&g, 2, L(4), 0xf));  /* the remote copy is not touched */
    assert_int_equal(g.n[0].cstats.write_evicts, 1);
    gm_req *m = wait_l2(&g, 0);
    assert_ptr_equal(m, w);
    assert_int_equal(m->req_bytes, 32);
    assert_int_equal(g.n[0].xq_n, 0);
    answer_l2(&g, m);
    wait_done(&g, 0);
    gm_req_release(&g.pool, w);
    rig_free(&g);
}

static void test_miss_everywhere_goes_to_l2(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_ATA, 0);
    step(&g);
    gm_req *r = issue(&g, 2, GM_REQ_LOAD, L(3), 0x4);
    assert_int_equal(g.n[2].st.l2_misses, 1);
    assert_int_equal(g.n[2].st.hv_pop[0], 1);
    assert_int_equal(g.n[2].st.l2_while_pending, 0);
    /* node 0 wants the line while node 2 fetches it: not in the hit
     * vector (no valid sectors yet), so node 0 goes to L2 too */
    gm_req *r0 = issue(&g, 0, GM_REQ_LOAD, L(3), 0x4);
    assert_int_equal(g.n[0].st.l2_misses, 1);
    assert_int_equal(g.n[0].st.l2_while_pending, 1);
    gm_req *m0 = wait_l2(&g, 0);
    answer_l2(&g, m0);
    gm_req *m = wait_l2(&g, 2);
    assert_ptr_equal(m, r);
    assert_int_equal(m->reply_bytes, 32); /* sectored: the missing sector only */
    answer_l2(&g, m);
    wait_done(&g, 2);
    for (int i = 0; i < 10; i++)
        step(&g);
    assert_false(gm_ata_node_busy(&g.n[0]));
    gm_req_release(&g.pool, r);
    gm_req_release(&g.pool, r0);
    rig_free(&g);
}

static void test_comparator_ports(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_ATA, 1);
    step(&g);
    gm_req *a = issue(&g, 0, GM_REQ_LOAD, L(1), 0x1);
    gm_req *b = mkreq(&g, 1, GM_REQ_LOAD, L(2), 0x1);
    assert_false(gm_ata_node_offer(&g.n[1], b, g.now)); /* one port, taken */
    assert_int_equal(g.n[1].st.tag_port_refusals, 1);
    step(&g);
    assert_true(gm_ata_node_offer(&g.n[1], b, g.now));
    gm_ata_node_accept(&g.n[1], b, g.now);
    gm_req *ma = wait_l2(&g, 0);
    answer_l2(&g, ma);
    gm_req *mb = wait_l2(&g, 1);
    answer_l2(&g, mb);
    wait_done(&g, 1);
    for (int i = 0; i < 20; i++)
        step(&g);
    gm_req_release(&g.pool, a);
    gm_req_release(&g.pool, b);
    rig_free(&g);
}

static void test_private_never_remote(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_PRIVATE, 0);
    warm(&g, 1, L(7));
    step(&g);
    gm_req *r = issue(&g, 0, GM_REQ_LOAD, L(7), 0x1);
    assert_int_equal(g.n[0].st.remote_hits, 0);
    assert_int_equal(g.n[0].st.l2_misses, 1);
    gm_req *m = wait_l2(&g, 0);
    answer_l2(&g, m);
    wait_done(&g, 0);
    gm_req_release(&g.pool, r);
    rig_free(&g);
}

static void test_decoupled_home(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_DECOUPLED, 0);
    /* home of line n is n mod 3: line 5 lives in node 2 */
    step(&g);
    gm_req *r = issue(&g, 0, GM_REQ_LOAD, L(5), 0x1);
    assert_int_equal(r->block_handle, 2);
    assert_int_equal(r->l1, 2);
    gm_req *m = wait_l2(&g, 2); /* the home misses and fetches */
    assert_ptr_equal(m, r);
    assert_int_equal(g.n[2].st.l2_misses, 1);
    answer_l2(&g, m);
    wait_done(&g, 0);
    assert_ptr_equal(g.done[0][0], r);
    assert_true(holds(&g, 2, L(5), 0x1));
    assert_false(holds(&g, 0, L(5), 0x1));
    gm_req_release(&g.pool, r);
    for (int i = 0; i < 4; i++)
        step(&g);
    /* core 1 reads it: a hit in node 2, counted as remote */
    r = issue(&g, 1, GM_REQ_LOAD, L(5), 0x1);
    wait_done(&g, 1);
    assert_int_equal(g.n[2].st.remote_hits, 1);
    gm_req_release(&g.pool, r);
    /* a line whose home is the requester's own node is looked up there */
    step(&g);
    r = issue(&g, 1, GM_REQ_LOAD, L(4), 0x1);
    assert_int_equal(g.n[1].st.l2_misses, 1);
    m = wait_l2(&g, 1);
    answer_l2(&g, m);
    wait_done(&g, 1);
    gm_req_release(&g.pool, r);
    rig_free(&g);
}


/* ---- the RTL twin against the cache engine's tag array ---------------------- */

/* The block's LRU, victim choice and sector bits against gm_tag_array (an
 * independent implementation with use stamps), driven with the same random
 * fills, touches and invalidates on 2 arrays of 3 sets x 4 ways: after
 * every edge, each array's hit bit for every pooled tag of the touched set
 * must equal what the tag array finds, and a fill's evicted line must be
 * the tag array's victim. */
static void test_tagblk_matches_tag_array(void **state)
{
    (void)state;
    enum { NA = 2, SETS = 3, WAYS = 4, POOL = 7 };
    gm_ata_tblk b;
    assert_int_equal(gm_ata_tblk_init(&b, NA, SETS, WAYS, 12, 1, 4, NULL), 0);
    gm_tag_array t[NA];
    for (int n = 0; n < NA; n++)
        assert_int_equal(gm_tag_array_init(&t[n], SETS * WAYS * 128, 128, WAYS, NULL), 0);
    uint64_t x = 12345;
    int evictions = 0, hits = 0;
    for (int step = 0; step < 20000; step++) {
        gm_ata_tblk_in in = {0};
        uint64_t addr[NA];
        for (int n = 0; n < NA; n++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t set = (uint32_t)(x >> 33) % SETS, tag = (uint32_t)(x >> 40) % POOL;
            uint32_t op = (uint32_t)(x >> 50) % 10;
            uint8_t sec = (uint8_t)(1 + (x >> 20) % 15);
            in.upd_valid[n] = 1;
            in.upd_op[n] = op < 6 ? GM_ATA_OP_FILL : op < 8 ? GM_ATA_OP_TOUCH : GM_ATA_OP_INVAL;
            in.upd_set[n] = set;
            in.upd_tag[n] = tag;
            in.upd_sectors[n] = sec;
            addr[n] = ((uint64_t)tag * SETS + set) * 128;
        }
        gm_ata_tblk_tick(&b, &in);
        for (int n = 0; n < NA; n++) {
            int32_t way = gm_tag_probe(&t[n], addr[n]);
            gm_tag_victim v = {0};
            switch (in.upd_op[n]) {
            case GM_ATA_OP_FILL:
                if (way < 0)
                    way = gm_tag_allocate(&t[n], addr[n], &v);
                else
                    gm_tag_touch(&t[n], way);
                gm_tag_line_at(&t[n], way)->valid |= in.upd_sectors[n];
                break;
            case GM_ATA_OP_TOUCH:
                if (way >= 0)
                    gm_tag_touch(&t[n], way);
                break;
            default:
                if (way >= 0)
                    gm_tag_invalidate(&t[n], way);
                break;
            }
            gm_ata_tblk_out o;
            gm_ata_tblk_eval(&b, &o);
            assert_int_equal(o.evict_valid[n], v.evicted);
            if (v.evicted) {
                evictions++;
                assert_int_equal(o.evict_tag[n], v.addr / 128 / SETS);
            }
        }
        /* every pooled tag of each touched set: present, and with which sectors */
        for (int n = 0; n < NA; n++)
            for (uint32_t tag = 0; tag < POOL; tag++) {
                uint64_t a = ((uint64_t)tag * SETS + in.upd_set[n]) * 128;
                int32_t way = gm_tag_probe(&t[n], a);
                for (uint8_t need = 1; need < 16; need <<= 1) {
                    gm_ata_tblk_in q = {0};
                    q.req_valid[0] = 1;
                    q.req_set[0] = in.upd_set[n];
                    q.req_tag[0] = tag;
                    q.req_sectors[0] = need;
                    /* a lookup alone: registers the request, changes no tag */
                    gm_ata_tblk_tick(&b, &q);
                    gm_ata_tblk_out o;
                    gm_ata_tblk_eval(&b, &o);
                    bool want = way >= 0 && gm_tag_has_sectors(&t[n], way, need);
                    assert_int_equal((o.hit_vec[0] >> n) & 1u, want);
                    hits += want;
                }
            }
    }
    assert_true(evictions > 1000); /* the test exercised replacement */
    assert_true(hits > 1000);
    for (int n = 0; n < NA; n++)
        gm_tag_array_free(&t[n]);
    gm_ata_tblk_free(&b);
}

/* The seed's L1 access latency: one load instruction of two line requests,
 * the second accepted 3 cycles after the first; one hits (latency 5), the
 * other misses and is answered 20 cycles after its acceptance: the
 * instruction's latency is from the first acceptance to the last reply. */
static void test_instruction_latency(void **state)
{
    (void)state;
    rig g;
    rig_init(&g, GM_ATA_ATA, 0);
    warm(&g, 0, L(6));
    gm_mem_rec rec = {.remaining = 2};
    step(&g);
    gm_time t0 = g.now;
    gm_req *a = mkreq(&g, 0, GM_REQ_LOAD, L(9), 0x1);
    a->owner = &rec;
    assert_true(gm_ata_node_offer(&g.n[0], a, g.now));
    gm_ata_node_accept(&g.n[0], a, g.now);
    for (int i = 0; i < 3; i++)
        step(&g);
    gm_req *b = mkreq(&g, 0, GM_REQ_LOAD, L(6), 0x1);
    b->owner = &rec;
    assert_true(gm_ata_node_offer(&g.n[0], b, g.now));
    gm_ata_node_accept(&g.n[0], b, g.now);
    gm_req *m = wait_l2(&g, 0);
    assert_ptr_equal(m, a);
    while ((g.now - t0) / g.clk.d[0].period < 20)
        step(&g);
    assert_int_equal(rec.remaining, 1);          /* the hit came back first */
    assert_int_equal(g.n[0].st.inst_lat_n, 0);   /* not the last one */
    answer_l2(&g, m);
    wait_done(&g, 0);
    assert_int_equal(rec.remaining, 0);
    assert_int_equal(g.n[0].st.inst_lat_n, 1);
    assert_int_equal(g.n[0].st.inst_lat_sum, (g.now - t0) / g.clk.d[0].period);
    assert_true(g.n[0].st.inst_lat_sum > 20);
    assert_int_equal(g.n[0].inst_used, 0);
    gm_req_release(&g.pool, a);
    gm_req_release(&g.pool, b);
    rig_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_vector),
        cmocka_unit_test(test_pick_remote),
        cmocka_unit_test(test_tag_ports),
        cmocka_unit_test(test_local_preferred),
        cmocka_unit_test(test_remote_hit_then_local_fill),
        cmocka_unit_test(test_remote_lost_goes_to_l2),
        cmocka_unit_test(test_write_local_only),
        cmocka_unit_test(test_miss_everywhere_goes_to_l2),
        cmocka_unit_test(test_comparator_ports),
        cmocka_unit_test(test_private_never_remote),
        cmocka_unit_test(test_decoupled_home),
        cmocka_unit_test(test_tagblk_matches_tag_array),
        cmocka_unit_test(test_instruction_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
