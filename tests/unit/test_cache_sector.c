/* Sectored cache engine ([l1] sectored = 1): the defining properties.
 *
 *   - a miss fetches only the missing sectors (reply_bytes sized by them),
 *     a fill installs only those;
 *   - a hit needs every asked sector valid; a partial hit is a sector miss
 *     (GPGPU-Sim 4's SECTOR_MISS) that fetches exactly the missing ones;
 *   - MSHR merging per line: a read to a pending line merges when the
 *     pending fetch brings all of its missing sectors (a pending hit, per
 *     sector counted in sector_merges); otherwise it is refused with
 *     GM_CACHE_FAIL_SECTOR until the fill (docs/caches.md section 4.5);
 *   - every asked sector is exactly one of hit, merge, miss;
 *   - with sectored = 0 the same accesses fetch and fill whole lines.
 *
 * A toy front end as in test_cache_engine.c plays the next level. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cache/cache_engine.h"
#include "noc/ni.h"

#define L(n) ((uint64_t)(n) * 128u) /* address of line n */
#define NREQ 128

typedef struct fx {
    gm_clock clk;
    gm_tag_array tags;
    gm_mshr mshr;
    gm_cache_stats st;
    gm_cache_engine e;
    gm_req req[NREQ];
    int nreq;
} fx;

/* 64 lines (16 sets x 4 ways) of 128 B, 32 MSHRs merging 8, a 128 B port. */
static gm_cache_cfg cfg_of(uint32_t sectored)
{
    return (gm_cache_cfg){.size_bytes = 8192, .assoc = 4, .line_bytes = 128, .latency = 5,
                          .mshr_entries = 32, .mshr_merge = 8, .miss_queue = 8,
                          .port_bytes = 128, .sectored = sectored};
}

static fx *make(uint32_t sectored)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    gm_clock_init(&f->clk);
    assert_int_equal(gm_clock_add(&f->clk, "core", 1400, NULL), 0);
    assert_int_equal(gm_clock_finalize(&f->clk, NULL), 0);
    gm_cache_cfg cfg = cfg_of(sectored);
    gm_error err;
    if (gm_cache_engine_init(&f->e, &cfg, NULL, &f->tags, &f->mshr, &f->st, &err))
        fail_msg("%s", err.msg);
    gm_cache_engine_set_clock(&f->e, &f->clk.d[0]);
    return f;
}

static void destroy(fx *f)
{
    gm_cache_engine_free(&f->e);
    free(f);
}

static gm_time at(const fx *f, uint64_t k)
{
    return k * f->clk.d[0].period;
}

static gm_req *load(fx *f, uint64_t addr, uint8_t sectors)
{
    assert_true(f->nreq < NREQ);
    gm_req *r = &f->req[f->nreq++];
    *r = (gm_req){.id = (uint64_t)f->nreq, .kind = GM_REQ_LOAD, .addr = addr,
                  .sectors = sectors};
    return r;
}

/* Probes and takes a load at edge k; returns the probe. */
static gm_cache_probe take(fx *f, gm_req *r, uint64_t k)
{
    gm_cache_probe p = gm_cache_probe_read(&f->e, r->addr, r->sectors);
    assert_int_equal(p.fail, GM_CACHE_OK);
    gm_req_move(r, GM_LOC_L1, 0, at(f, k));
    gm_cache_read(&f->e, &p, r, at(f, k));
    return p;
}

/* The next level answers primary r at edge k with the engine's fill mask. */
static gm_req *fill(fx *f, gm_req *r, uint64_t k)
{
    gm_cache_filled out;
    assert_true(gm_cache_fill(&f->e, r, gm_cache_fill_mask(&f->e, r), at(f, k), &out));
    return out.waiters;
}

static uint8_t valid_of(const fx *f, uint64_t addr)
{
    int32_t way = gm_tag_probe(&f->tags, addr);
    return way < 0 ? 0 : gm_tag_line_const(&f->tags, way)->valid;
}

/* kmeans-like: one warp load touches one sector of each of 32 lines. */
static void kmeans_like(fx *f)
{
    gm_req *prim[32];
    for (int i = 0; i < 32; i++) {
        prim[i] = load(f, L(i), 0x1);
        assert_int_equal(take(f, prim[i], 1).outcome, GM_CACHE_MISS);
    }
    for (int i = 0; i < 32; i++)
        assert_ptr_equal(fill(f, prim[i], 10 + (uint64_t)i), prim[i]);
}

static void test_one_sector_of_32_lines_fills_32_sectors(void **state)
{
    (void)state;
    fx *f = make(1);
    kmeans_like(f);
    assert_int_equal(f->st.load_misses, 32);
    assert_int_equal(f->st.fills, 32);
    assert_int_equal(f->st.fill_sectors, 32);        /* 32 sectors, not 32 lines */
    assert_int_equal(f->st.sector_misses, 32);
    for (int i = 0; i < 32; i++) {
        assert_int_equal(valid_of(f, L(i)), 0x1);
        assert_int_equal(f->req[i].reply_bytes, 32); /* the request asks for 32 B */
        assert_int_equal(f->req[i].sectors, 0x1);    /* given back at the fill */
    }
    destroy(f);

    /* The same accesses in line mode fill 32 whole lines. */
    f = make(0);
    kmeans_like(f);
    assert_int_equal(f->st.fills, 32);
    assert_int_equal(f->st.fill_sectors, 128);
    for (int i = 0; i < 32; i++) {
        assert_int_equal(valid_of(f, L(i)), 0xf);
        assert_int_equal(f->req[i].reply_bytes, 128);
    }
    destroy(f);
}

/* The fetch of a sectored miss is sized by its sectors, so its reply
 * packet is ceil((header + sectors x 32) / flit) flits on any network
 * (noc/ni.h): 1, 2, 3 and 4 missing sectors with the baseline's 8 B
 * header and 32 B flits take 2, 3, 4 and 5 flits; a line-mode fetch 5. */
static void test_reply_flits_follow_sector_bytes(void **state)
{
    (void)state;
    const gm_noc_cfg noc = {.flit_bytes = 32, .header_bytes = 8};
    static const uint8_t ask[4] = {0x1, 0x5, 0x7, 0xf};
    for (uint32_t sectored = 0; sectored <= 1; sectored++) {
        fx *f = make(sectored);
        for (int i = 0; i < 4; i++) {
            gm_req *r = load(f, L(i), ask[i]);
            take(f, r, 1);
            r->is_reply = 1;
            uint32_t n = (uint32_t)__builtin_popcount(ask[i]);
            uint32_t bytes = sectored ? n * 32 : 128;
            assert_int_equal(r->reply_bytes, bytes);
            assert_int_equal(gm_noc_packet_flits(&noc, r), (8 + bytes + 31) / 32);
        }
        destroy(f);
    }
}

/* Write-evict per sector: a store evicts only the sectors it writes, the
 * line when none is left; a store to invalid sectors is a store miss. In
 * line mode the first store drops the whole line. */
static void test_write_evict_per_sector(void **state)
{
    (void)state;
    fx *f = make(1);
    gm_req *r = load(f, L(5), 0xf);
    take(f, r, 1);
    fill(f, r, 2);
    assert_int_equal(valid_of(f, L(5)), 0xf);
    gm_cache_write_evict_sectors(&f->e, L(5), 0x1);
    assert_int_equal(valid_of(f, L(5)), 0xe);
    assert_int_equal(f->st.write_evicts, 1);
    gm_cache_write_evict_sectors(&f->e, L(5), 0x1);  /* already invalid */
    assert_int_equal(f->st.store_misses, 1);
    assert_int_equal(valid_of(f, L(5)), 0xe);
    /* a load of sector 0 is a sector miss fetching just that sector */
    gm_req *q = load(f, L(5), 0x3);
    gm_cache_probe p = take(f, q, 3);
    assert_int_equal(p.outcome, GM_CACHE_MISS);
    assert_int_equal(q->sectors, 0x1);
    fill(f, q, 4);
    assert_int_equal(valid_of(f, L(5)), 0xf);
    gm_cache_write_evict_sectors(&f->e, L(5), 0xf);
    assert_int_equal(gm_tag_probe(&f->tags, L(5)), -1);  /* nothing left: line freed */
    assert_int_equal(f->st.write_evicts, 2);
    destroy(f);

    f = make(0);
    r = load(f, L(5), 0x1);
    take(f, r, 1);
    fill(f, r, 2);
    gm_cache_write_evict_sectors(&f->e, L(5), 0x2);
    assert_int_equal(gm_tag_probe(&f->tags, L(5)), -1);
    assert_int_equal(f->st.write_evicts, 1);
    destroy(f);
}

static void test_other_sector_is_sector_miss(void **state)
{
    (void)state;
    fx *f = make(1);
    gm_req *a = load(f, L(3), 0x1);
    take(f, a, 1);
    fill(f, a, 5);
    /* Another sector of the same, resident line: a sector miss. */
    gm_req *b = load(f, L(3), 0x4);
    gm_cache_probe p = take(f, b, 6);
    assert_int_equal(p.outcome, GM_CACHE_MISS);
    assert_true(p.way >= 0);
    assert_int_equal(p.missing, 0x4);
    assert_int_equal(f->st.sector_miss_lines, 1);
    assert_int_equal(b->sectors, 0x4);
    assert_int_equal(b->reply_bytes, 32);
    fill(f, b, 8);
    assert_int_equal(valid_of(f, L(3)), 0x5);
    /* A partial hit fetches exactly the missing sectors. */
    gm_req *c = load(f, L(3), 0xf);
    p = take(f, c, 9);
    assert_int_equal(p.outcome, GM_CACHE_MISS);
    assert_int_equal(p.missing, 0xa);
    assert_int_equal(c->sectors, 0xa);
    assert_int_equal(c->reply_bytes, 64);
    assert_int_equal(gm_cache_fill_mask(&f->e, c), 0xa);
    fill(f, c, 12);
    assert_int_equal(c->sectors, 0xf); /* what it asked for, back */
    assert_int_equal(valid_of(f, L(3)), 0xf);
    /* Now all valid: a hit. */
    gm_req *d = load(f, L(3), 0xf);
    assert_int_equal(take(f, d, 20).outcome, GM_CACHE_HIT);
    assert_int_equal(f->st.sector_miss_lines, 2);
    assert_int_equal(f->st.sector_hits, 2 + 4); /* c's two valid sectors, d's four */
    assert_int_equal(f->st.sector_misses, 1 + 1 + 2);
    assert_int_equal(f->st.fill_sectors, 4);
    destroy(f);

    /* Line mode: the second sector hits (the first miss filled the line). */
    f = make(0);
    a = load(f, L(3), 0x1);
    take(f, a, 1);
    fill(f, a, 5);
    b = load(f, L(3), 0x4);
    assert_int_equal(take(f, b, 6).outcome, GM_CACHE_HIT);
    destroy(f);
}

static void test_merge_rules(void **state)
{
    (void)state;
    fx *f = make(1);
    gm_req *a = load(f, L(9), 0x3);
    take(f, a, 1);
    /* Sectors the pending fetch brings: a merge (pending hit). */
    gm_req *b = load(f, L(9), 0x2);
    assert_int_equal(take(f, b, 2).outcome, GM_CACHE_MERGE);
    assert_int_equal(f->st.sector_merges, 1);
    /* A sector the pending fetch lacks: refused until the fill. */
    gm_req *c = load(f, L(9), 0x6);
    gm_cache_probe p = gm_cache_probe_read(&f->e, c->addr, c->sectors);
    assert_int_equal(p.outcome, GM_CACHE_MERGE);
    assert_int_equal(p.fail, GM_CACHE_FAIL_SECTOR);
    assert_int_equal(f->mshr.used, 1);
    /* The fill completes the primary and the merged request. */
    gm_req *w = fill(f, a, 6);
    assert_ptr_equal(w, a);
    assert_ptr_equal(w->next, b);
    assert_null(b->next);
    assert_int_equal(valid_of(f, L(9)), 0x3);
    /* Retried after the fill: sector 1 hits, sector 2 is fetched alone. */
    p = take(f, c, 7);
    assert_int_equal(p.outcome, GM_CACHE_MISS);
    assert_int_equal(c->sectors, 0x4);
    assert_int_equal(c->reply_bytes, 32);
    /* Every asked sector is one of hit, merge, miss: 2 + 1 + 2 asked. */
    assert_int_equal(f->st.sector_hits + f->st.sector_merges + f->st.sector_misses, 5);
    assert_int_equal(f->st.sector_hits, 1);
    assert_int_equal(f->st.sector_misses, 3);
    destroy(f);

    /* Line mode: any sector of a pending line merges (the fetch is the line). */
    f = make(0);
    a = load(f, L(9), 0x1);
    take(f, a, 1);
    c = load(f, L(9), 0x8);
    p = gm_cache_probe_read(&f->e, c->addr, c->sectors);
    assert_int_equal(p.outcome, GM_CACHE_MERGE);
    assert_int_equal(p.fail, GM_CACHE_OK);
    destroy(f);
}

/* A line evicted while sectors of it are fetched is allocated again by
 * the fill with only the fetched sectors. */
static void test_fill_after_eviction(void **state)
{
    (void)state;
    fx *f = make(1);
    gm_req *a = load(f, L(0), 0x1);
    take(f, a, 1);
    fill(f, a, 2);
    gm_req *b = load(f, L(0), 0x2);
    take(f, b, 3);
    assert_true(gm_cache_invalidate(&f->e, L(0)));
    fill(f, b, 4);
    assert_int_equal(valid_of(f, L(0)), 0x2);
    destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_sector_of_32_lines_fills_32_sectors),
        cmocka_unit_test(test_other_sector_is_sector_miss),
        cmocka_unit_test(test_merge_rules),
        cmocka_unit_test(test_fill_after_eviction),
        cmocka_unit_test(test_reply_flits_follow_sector_bytes),
        cmocka_unit_test(test_write_evict_per_sector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
