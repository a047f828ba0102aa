/* The small framework pieces: gm_prng (contract 2.5), the gm_req pool
 * (contract 2.7 accounting) and gm_fail. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/error.h"
#include "sim/prng.h"
#include "sim/req.h"

/* ---- gm_prng ------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_prng_known_answers(void **state)
{
    (void)state;
    gm_prng p;
    /* Seed 0, component 0 seeds splitmix64 with 0, so the state is the
     * published first four outputs of splitmix64(0). */
    gm_prng_seed(&p, 0, 0);
    assert_int_equal(p.s[0], 0xe220a8397b1dcdafULL);
    assert_int_equal(p.s[1], 0x6e789e6aa1b965f4ULL);
    assert_int_equal(p.s[2], 0x06c45d188009454fULL);
    assert_int_equal(p.s[3], 0xf88bb8a8724c81ecULL);

    /* xoshiro256** reference outputs for the state {1, 2, 3, 4}. */
    static const uint64_t ref[] = {
        11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL,
        1216172134540287360ULL, 607988272756665600ULL, 16172922978634559625ULL,
        8476171486693032832ULL, 10595114339597558777ULL, 2904607092377533576ULL,
    };
    p.s[0] = 1;
    p.s[1] = 2;
    p.s[2] = 3;
    p.s[3] = 4;
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++)
        assert_int_equal(gm_prng_next(&p), ref[i]);
}

static void test_prng_same_seed_same_stream(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {0, 1, 42, UINT64_MAX};
    static const uint64_t comps[] = {0, 1, 7, 1ULL << 40};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            gm_prng a, b, other;
            gm_prng_seed(&a, seeds[i], comps[j]);
            gm_prng_seed(&other, seeds[i], comps[j] + 1);
            /* drawing from another component in between changes nothing */
            for (int k = 0; k < 3; k++)
                gm_prng_next(&other);
            gm_prng_seed(&b, seeds[i], comps[j]);
            for (int k = 0; k < 10000; k++) {
                gm_prng_next(&other);
                assert_int_equal(gm_prng_next(&a), gm_prng_next(&b));
            }
        }
    }
}

static void test_prng_components_differ(void **state)
{
    (void)state;
    enum { COMPS = 256, LEN = 4096 };

    /* Same seed, 256 components: the first outputs are pairwise distinct. */
    uint64_t first[COMPS];
    for (int c = 0; c < COMPS; c++) {
        gm_prng p;
        gm_prng_seed(&p, 42, (uint64_t)c);
        first[c] = gm_prng_next(&p);
    }
    qsort(first, COMPS, sizeof first[0], cmp_u64);
    for (int c = 1; c < COMPS; c++)
        assert_true(first[c] != first[c - 1]);

    /* Neighbouring components share no value in their first 4096 outputs
     * (so neither stream is a shifted copy of the other). Same for
     * neighbouring seeds. */
    uint64_t *a = malloc(2 * LEN * sizeof *a);
    assert_non_null(a);
    static const uint64_t pairs[][4] = {
        {42, 1, 42, 2}, {42, 0, 42, 1}, {1, 0, 2, 0}, {0, 0, 1, 0},
    };
    for (int pi = 0; pi < 4; pi++) {
        gm_prng p, q;
        gm_prng_seed(&p, pairs[pi][0], pairs[pi][1]);
        gm_prng_seed(&q, pairs[pi][2], pairs[pi][3]);
        for (int k = 0; k < LEN; k++) {
            a[k] = gm_prng_next(&p);
            a[LEN + k] = gm_prng_next(&q);
        }
        qsort(a, 2 * LEN, sizeof a[0], cmp_u64);
        for (int k = 1; k < 2 * LEN; k++)
            assert_true(a[k] != a[k - 1]);
    }
    free(a);
}

static void test_prng_below_bounds(void **state)
{
    (void)state;
    static const uint64_t bounds[] = {
        1, 2, 3, 7, 10, 1000, 1ULL << 32, (1ULL << 63) + 1, UINT64_MAX - 1, UINT64_MAX,
    };
    gm_prng p;
    gm_prng_seed(&p, 7, 3);
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        uint64_t b = bounds[i], lo = 0, hi = 0;
        for (int k = 0; k < 20000; k++) {
            uint64_t v = gm_prng_below(&p, b);
            assert_true(v < b);
            if (v < b / 2)
                lo++;
            else
                hi++;
        }
        if (b == 1) {
            assert_int_equal(hi, 20000);
        } else if (b >= 1000) {
            /* both halves of the range are reached, roughly evenly */
            assert_true(lo > 9000 && hi > 9000);
        }
    }
}

/* Chi-square with integer arithmetic: sum (o-e)^2 / e < limit. */
static void check_uniform(uint64_t seed, uint64_t bound, uint64_t draws, uint64_t limit)
{
    uint64_t *count = calloc(bound, sizeof *count);
    assert_non_null(count);
    gm_prng p;
    gm_prng_seed(&p, seed, 11);
    for (uint64_t k = 0; k < draws; k++)
        count[gm_prng_below(&p, bound)]++;
    uint64_t e = draws / bound, sum = 0;
    for (uint64_t v = 0; v < bound; v++) {
        assert_true(count[v] > 0);
        uint64_t d = count[v] > e ? count[v] - e : e - count[v];
        sum += d * d;
    }
    if (sum >= limit * e)
        fail_msg("bound %llu: chi-square %llu/%llu above %llu", (unsigned long long)bound,
                 (unsigned long long)sum, (unsigned long long)e, (unsigned long long)limit);
    free(count);
}

static void test_prng_below_uniform(void **state)
{
    (void)state;
    /* Limits are the 99.99% quantiles of chi-square with bound-1 degrees of
     * freedom (9: 33.7; 5: 25.7; 63: 111). */
    check_uniform(1, 10, 100000, 34);
    check_uniform(2, 6, 60000, 26);
    check_uniform(3, 64, 640000, 111);

    /* Rejection matters for a bound near 2/3 of 2^64: plain r % b would
     * return a value below b/2 with probability 2/3 instead of 1/2. */
    const uint64_t b = 0xaaaaaaaaaaaaaaaaULL;
    gm_prng p;
    gm_prng_seed(&p, 5, 0);
    const int64_t n = 200000;
    int64_t below_half = 0;
    for (int64_t k = 0; k < n; k++)
        below_half += gm_prng_below(&p, b) < b / 2;
    int64_t dev = 2 * below_half - n;
    if (dev < 0)
        dev = -dev;
    assert_true(dev < n / 50); /* |fraction - 1/2| < 1%; 1 sigma is 0.11% */
}

/* ---- gm_req pool -------------------------------------------------------- */

static int cmp_uptr(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct visit {
    uint8_t *seen; /* by id */
    uint64_t max_id;
    uint64_t calls;
} visit;

static void count_visit(const gm_req *r, void *arg)
{
    visit *v = arg;
    assert_true(r->id >= 1 && r->id <= v->max_id);
    assert_int_not_equal(r->loc, GM_LOC_FREE);
    v->seen[r->id]++;
    v->calls++;
}

static void test_req_pool_accounting(void **state)
{
    (void)state;
    enum { N = 10000 }; /* more than one chunk */
    gm_req_pool pool;
    gm_req_pool_init(&pool);
    gm_req **r = calloc(N + 1, sizeof *r); /* by id */
    uint8_t *live = calloc(N + 1, 1);
    assert_non_null(r);
    assert_non_null(live);

    uint64_t last_id = 0;
    for (int i = 0; i < N; i++) {
        gm_req *q = gm_req_alloc(&pool, (gm_time)(100 + i));
        assert_non_null(q);
        assert_true(q->id > last_id);
        assert_true(q->id <= N);
        last_id = q->id;
        assert_null(r[q->id]);
        r[q->id] = q;
        live[q->id] = 1;
        assert_int_equal(q->t_create, 100 + i);
        assert_int_equal(q->t_loc, 100 + i);
        assert_int_equal(q->loc, GM_LOC_CORE);
        assert_int_equal(q->addr, 0);
        assert_null(q->owner);
        assert_null(q->next);
    }
    assert_int_equal(pool.allocated, N);
    assert_int_equal(pool.completed, 0);
    assert_int_equal(pool.live, N);

    /* Distinct objects. */
    uintptr_t *addr = malloc(N * sizeof *addr);
    assert_non_null(addr);
    for (int i = 0; i < N; i++)
        addr[i] = (uintptr_t)r[i + 1];
    qsort(addr, N, sizeof addr[0], cmp_uptr);
    for (int i = 1; i < N; i++)
        assert_true(addr[i] - addr[i - 1] >= sizeof(gm_req));
    free(addr);

    /* Release a random ~half; move some of the others around. */
    gm_prng p;
    gm_prng_seed(&p, 123, 0);
    uint64_t released = 0;
    for (uint64_t id = 1; id <= N; id++) {
        uint64_t x = gm_prng_below(&p, 4);
        if (x < 2) {
            gm_req_release(&pool, r[id]);
            live[id] = 0;
            released++;
        } else if (x == 2) {
            gm_req_move(r[id], GM_LOC_DRAM, 3, 5000);
            assert_int_equal(r[id]->loc, GM_LOC_DRAM);
            assert_int_equal(r[id]->loc_index, 3);
            assert_int_equal(r[id]->t_loc, 5000);
        }
    }
    assert_true(released > N / 3 && released < 2 * N / 3);
    assert_int_equal(pool.completed, released);
    assert_int_equal(pool.live, N - released);
    assert_int_equal(pool.allocated - pool.completed, pool.live);

    visit v = {calloc(N + 1, 1), N, 0};
    assert_non_null(v.seen);
    gm_req_pool_foreach_live(&pool, count_visit, &v);
    assert_int_equal(v.calls, pool.live);
    for (uint64_t id = 1; id <= N; id++)
        assert_int_equal(v.seen[id], live[id]);

    /* Dirty the live ones, then release them all: nothing is left. */
    for (uint64_t id = 1; id <= N; id++) {
        if (!live[id])
            continue;
        r[id]->addr = 0x1234580;
        r[id]->is_reply = 1;
        r[id]->owner = &pool;
        r[id]->next = r[id];
        gm_req_release(&pool, r[id]);
    }
    assert_int_equal(pool.live, 0);
    assert_int_equal(pool.completed, N);
    memset(v.seen, 0, N + 1);
    v.calls = 0;
    gm_req_pool_foreach_live(&pool, count_visit, &v);
    assert_int_equal(v.calls, 0);

    free(v.seen);
    free(live);
    free(r);
    gm_req_pool_free(&pool);
}

static void test_req_pool_release_and_reuse(void **state)
{
    (void)state;
    enum { N = 5000, K = 1000 };
    gm_req_pool pool;
    gm_req_pool_init(&pool);
    gm_req **r = calloc(N, sizeof *r);
    assert_non_null(r);
    for (int i = 0; i < N; i++) {
        r[i] = gm_req_alloc(&pool, 1);
        assert_non_null(r[i]);
    }
    uint64_t max_id = r[N - 1]->id;
    uint32_t chunks = pool.nchunks;

    /* Release K scattered, dirtied requests. */
    for (int i = 0; i < K; i++) {
        gm_req *q = r[i * 5];
        q->addr = 0xdead80;
        q->kind = GM_REQ_ATOMIC;
        q->sectors = 0xf;
        q->is_reply = 1;
        q->src = 9;
        q->owner = q;
        q->t_dram = 77;
        gm_req_release(&pool, q);
        assert_int_equal(q->loc, GM_LOC_FREE);
    }
    /* Reallocating K requests reuses those objects: no new memory, each
     * one comes back zeroed with a fresh, larger id. */
    uint8_t *taken = calloc(K, 1);
    assert_non_null(taken);
    for (int i = 0; i < K; i++) {
        gm_req *q = gm_req_alloc(&pool, 900);
        assert_non_null(q);
        int slot = -1;
        for (int j = 0; j < K; j++)
            if (r[j * 5] == q)
                slot = j;
        assert_true(slot >= 0);
        assert_int_equal(taken[slot], 0);
        taken[slot] = 1;
        assert_true(q->id > max_id);
        max_id = q->id;
        assert_int_equal(q->addr, 0);
        assert_int_equal(q->kind, 0);
        assert_int_equal(q->sectors, 0);
        assert_int_equal(q->is_reply, 0);
        assert_int_equal(q->src, 0);
        assert_null(q->owner);
        assert_null(q->next);
        assert_int_equal(q->t_dram, 0);
        assert_int_equal(q->t_create, 900);
        assert_int_equal(q->loc, GM_LOC_CORE);
    }
    assert_int_equal(pool.nchunks, chunks);
    assert_int_equal(pool.allocated, N + K);
    assert_int_equal(pool.completed, K);
    assert_int_equal(pool.live, N);
    free(taken);
    free(r);
    gm_req_pool_free(&pool);
    assert_int_equal(pool.nchunks, 0);
    assert_null(pool.chunks);
}

static void test_req_names(void **state)
{
    (void)state;
    for (int a = 0; a < GM_LOC_COUNT; a++) {
        const char *n = gm_loc_name((gm_loc)a);
        assert_non_null(n);
        assert_string_not_equal(n, "?");
        for (int b = 0; b < a; b++)
            assert_string_not_equal(n, gm_loc_name((gm_loc)b));
    }
    assert_string_equal(gm_loc_name(GM_LOC_COUNT), "?");
    for (int a = 0; a < GM_REQ_KIND_COUNT; a++) {
        const char *n = gm_req_kind_name((gm_req_kind)a);
        assert_non_null(n);
        assert_string_not_equal(n, "?");
        for (int b = 0; b < a; b++)
            assert_string_not_equal(n, gm_req_kind_name((gm_req_kind)b));
    }
    assert_string_equal(gm_req_kind_name(GM_REQ_KIND_COUNT), "?");
}

/* ---- gm_fail ------------------------------------------------------------ */

typedef struct guarded_error {
    gm_error e;
    unsigned char guard[64];
} guarded_error;

static void check_guard(const guarded_error *g)
{
    for (size_t i = 0; i < sizeof g->guard; i++)
        assert_int_equal(g->guard[i], 0xa5);
}

static void test_fail_formats(void **state)
{
    (void)state;
    gm_error err;
    memset(&err, 'z', sizeof err);
    assert_int_equal(gm_fail(&err, "[%s] %s = %d: must be %u..%llx", "l1", "ways", -3, 1u,
                             0xffULL),
                     -1);
    assert_string_equal(err.msg, "[l1] ways = -3: must be 1..ff");
    assert_int_equal(gm_fail(&err, "plain"), -1);
    assert_string_equal(err.msg, "plain");
    assert_int_equal(gm_fail(&err, "%s", ""), -1);
    assert_string_equal(err.msg, "");
    /* NULL err: nothing to fill, still -1. */
    assert_int_equal(gm_fail(NULL, "ignored %d", 1), -1);
}

static void test_fail_wraps_own_message(void **state)
{
    (void)state;
    /* Adding context to an error that is already in err is the natural way
     * to report where it came from. */
    gm_error err;
    gm_fail(&err, "[dram] channels = %d: must be a power of two", 6);
    gm_fail(&err, "configs/base.ini: %s", err.msg);
    assert_string_equal(err.msg, "configs/base.ini: [dram] channels = 6: must be a power of two");
    gm_fail(&err, "%s (while loading %s)", err.msg, "x");
    assert_string_equal(err.msg, "configs/base.ini: [dram] channels = 6: must be a power of two"
                                 " (while loading x)");
}

static void test_fail_truncates_safely(void **state)
{
    (void)state;
    enum { MAX = sizeof(((gm_error *)0)->msg) };
    char *big = malloc(2 * MAX);
    assert_non_null(big);
    memset(big, 'x', 2 * MAX - 1);
    big[2 * MAX - 1] = '\0';

    guarded_error g;
    memset(g.guard, 0xa5, sizeof g.guard);

    /* Much longer than the buffer: the first MAX-1 characters and a NUL. */
    assert_int_equal(gm_fail(&g.e, "E%s", big), -1);
    assert_int_equal(strlen(g.e.msg), MAX - 1);
    assert_int_equal(g.e.msg[0], 'E');
    assert_int_equal(g.e.msg[MAX - 2], 'x');
    check_guard(&g);

    /* Exactly MAX-1 characters fit whole; one more is cut by one. */
    big[MAX - 1] = '\0';
    gm_fail(&g.e, "%s", big);
    assert_int_equal(strlen(g.e.msg), MAX - 1);
    assert_memory_equal(g.e.msg, big, MAX);
    check_guard(&g);
    big[MAX - 1] = 'y';
    big[MAX] = '\0';
    gm_fail(&g.e, "%s", big);
    assert_int_equal(strlen(g.e.msg), MAX - 1);
    assert_int_equal(g.e.msg[MAX - 2], 'x');
    check_guard(&g);

    /* Wrapping a full-length message is cut the same way. */
    gm_fail(&g.e, "ctx: %s", g.e.msg);
    assert_int_equal(strlen(g.e.msg), MAX - 1);
    assert_memory_equal(g.e.msg, "ctx: xxxx", 9);
    check_guard(&g);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prng_known_answers),
        cmocka_unit_test(test_prng_same_seed_same_stream),
        cmocka_unit_test(test_prng_components_differ),
        cmocka_unit_test(test_prng_below_bounds),
        cmocka_unit_test(test_prng_below_uniform),
        cmocka_unit_test(test_req_pool_accounting),
        cmocka_unit_test(test_req_pool_release_and_reuse),
        cmocka_unit_test(test_req_names),
        cmocka_unit_test(test_fail_formats),
        cmocka_unit_test(test_fail_wraps_own_message),
        cmocka_unit_test(test_fail_truncates_safely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
