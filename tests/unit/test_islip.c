/* Tests of the round-robin arbiter and the iSLIP allocator (noc/islip.h).
 *
 * Rationale: the allocator is checked against a deliberately naive model
 * written here from the rule in docs/noc.md (boolean matrices, linear
 * scans), over sizes 1, 2, non-powers of two, word boundaries (63, 64,
 * 65, 127, 128) and the router's VA shape (320 x 4), with 1..3
 * iterations; then the properties that matter for the network: pointers
 * move only on first-iteration accepted grants, fairness under full load,
 * and a bound on waiting under contention. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "noc/islip.h"
#include "sim/prng.h"

#define MAXN 320

/* ---- naive reference ---- */

typedef struct ref_islip {
    uint32_t nr, ns, iters;
    uint32_t g[MAXN]; /* grant pointer per resource */
    uint32_t a[MAXN]; /* accept pointer per requester */
} ref_islip;

/* Round robin as the rule says: first index >= p, else first index < p. */
static int ref_pick(const uint8_t *cand, uint32_t n, uint32_t p)
{
    for (uint32_t k = p; k < n; k++)
        if (cand[k])
            return (int)k;
    for (uint32_t k = 0; k < p; k++)
        if (cand[k])
            return (int)k;
    return -1;
}

/* req[i][j]; fills match_res[i] (-1 if none) and match_iter[i]; applies
 * the pointer rule. Returns the number of matches. */
static uint32_t ref_alloc(ref_islip *s, uint8_t req[MAXN][MAXN],
                          int *match_res, int *match_iter)
{
    static uint8_t req_m[MAXN], res_m[MAXN], cand[MAXN];
    int grant_of_res[MAXN];
    uint32_t n = 0;
    memset(req_m, 0, sizeof req_m);
    memset(res_m, 0, sizeof res_m);
    for (uint32_t i = 0; i < s->nr; i++)
        match_res[i] = -1;
    for (uint32_t it = 0; it < s->iters; it++) {
        for (uint32_t j = 0; j < s->ns; j++) {
            grant_of_res[j] = -1;
            if (res_m[j])
                continue;
            for (uint32_t i = 0; i < s->nr; i++)
                cand[i] = req[i][j] && !req_m[i];
            grant_of_res[j] = ref_pick(cand, s->nr, s->g[j]);
        }
        for (uint32_t i = 0; i < s->nr; i++) {
            if (req_m[i])
                continue;
            for (uint32_t j = 0; j < s->ns; j++)
                cand[j] = grant_of_res[j] == (int)i;
            int j = ref_pick(cand, s->ns, s->a[i]);
            if (j < 0)
                continue;
            match_res[i] = j;
            match_iter[i] = (int)it;
            req_m[i] = 1;
            res_m[j] = 1;
            n++;
        }
    }
    for (uint32_t i = 0; i < s->nr; i++)
        if (match_res[i] >= 0 && match_iter[i] == 0) {
            s->g[match_res[i]] = (i + 1) % s->nr;
            s->a[i] = ((uint32_t)match_res[i] + 1) % s->ns;
        }
    return n;
}

static uint8_t ref_req[MAXN][MAXN];

/* Random request matrices of a given density, compared step by step
 * (matches and every pointer) for `rounds` allocations. */
static void compare_with_reference(uint32_t nr, uint32_t ns, uint32_t iters,
                                   uint32_t density_pct, uint32_t rounds,
                                   uint64_t seed)
{
    gm_islip s;
    assert_int_equal(gm_islip_init(&s, nr, ns, iters, 0), 0);
    ref_islip ref = {.nr = nr, .ns = ns, .iters = iters};
    gm_prng rng;
    gm_prng_seed(&rng, seed, nr * 1000 + ns);
    uint32_t words = GM_BITS_WORDS(nr);
    uint64_t *req = calloc((size_t)ns * words, sizeof *req);
    gm_islip_match *m = calloc(nr < ns ? nr : ns, sizeof *m);
    int match_res[MAXN], match_iter[MAXN];
    assert_non_null(req);
    assert_non_null(m);
    for (uint32_t r = 0; r < rounds; r++) {
        memset(req, 0, (size_t)ns * words * sizeof *req);
        for (uint32_t i = 0; i < nr; i++)
            for (uint32_t j = 0; j < ns; j++) {
                ref_req[i][j] = gm_prng_below(&rng, 100) < density_pct;
                if (ref_req[i][j])
                    gm_islip_request(req, nr, i, j);
            }
        /* Every other round with a resource hint: the columns in use and
         * some empty ones (a superset), which must not change anything. */
        uint64_t hint[GM_BITS_WORDS(MAXN)] = {0};
        for (uint32_t j = 0; j < ns; j++) {
            bool used = false;
            for (uint32_t i = 0; i < nr; i++)
                used |= ref_req[i][j] != 0;
            if (used || gm_prng_below(&rng, 4) == 0)
                gm_bit_set(hint, j);
        }
        s.res_hint = r & 1 ? hint : NULL;
        uint32_t n = gm_islip_alloc(&s, req, m);
        uint32_t nref = ref_alloc(&ref, ref_req, match_res, match_iter);
        assert_int_equal(n, nref);
        uint8_t res_seen[MAXN] = {0};
        for (uint32_t k = 0; k < n; k++) {
            assert_true(m[k].req < nr && m[k].res < ns);
            assert_true(ref_req[m[k].req][m[k].res]); /* grant implies request */
            assert_int_equal(match_res[m[k].req], m[k].res);
            assert_int_equal(match_iter[m[k].req], m[k].iter);
            assert_false(res_seen[m[k].res]);
            res_seen[m[k].res] = 1;
        }
        gm_islip_update(&s, m, n);
        for (uint32_t j = 0; j < ns; j++)
            assert_int_equal(s.grant_ptr[j], ref.g[j]);
        for (uint32_t i = 0; i < nr; i++)
            assert_int_equal(s.accept_ptr[i], ref.a[i]);
    }
    free(req);
    free(m);
    gm_islip_free(&s);
}

/* ---- round-robin search and arbiter ---- */

static void test_rr_search_matches_rule(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 2, 3, 5, 63, 64, 65, 100, 127, 128, 320};
    gm_prng rng;
    gm_prng_seed(&rng, 1, 1);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint32_t n = sizes[s];
        for (int trial = 0; trial < 300; trial++) {
            uint64_t m[GM_BITS_WORDS(MAXN)] = {0};
            uint8_t b[MAXN] = {0};
            uint32_t density = (uint32_t)gm_prng_below(&rng, 101);
            for (uint32_t k = 0; k < n; k++)
                if (gm_prng_below(&rng, 100) < density) {
                    b[k] = 1;
                    gm_bit_set(m, k);
                }
            uint32_t start = (uint32_t)gm_prng_below(&rng, n);
            int want = ref_pick(b, n, start);
            uint32_t got = gm_rr_search(m, n, start);
            if (want < 0)
                assert_int_equal(got, GM_ISLIP_NONE);
            else
                assert_int_equal(got, (uint32_t)want);
        }
    }
}

static void test_rr_arbiter_advance_input(void **state)
{
    (void)state;
    gm_rr_arb a;
    gm_rr_init(&a, 5);
    uint64_t req = (1u << 1) | (1u << 3);
    assert_int_equal(gm_rr_grant(&a, &req), 1);
    /* Without advance the pointer holds: the same winner again. */
    gm_rr_tick(&a, &req, false);
    assert_int_equal(a.ptr, 0);
    assert_int_equal(gm_rr_grant(&a, &req), 1);
    /* With advance it moves to one past the winner. */
    gm_rr_tick(&a, &req, true);
    assert_int_equal(a.ptr, 2);
    assert_int_equal(gm_rr_grant(&a, &req), 3);
    gm_rr_tick(&a, &req, true);
    assert_int_equal(a.ptr, 4);
    /* Wraps: from 4, the next request is 1. */
    assert_int_equal(gm_rr_grant(&a, &req), 1);
    /* No request: nothing granted, advance has no effect. */
    uint64_t none = 0;
    assert_int_equal(gm_rr_grant(&a, &none), GM_ISLIP_NONE);
    gm_rr_tick(&a, &none, true);
    assert_int_equal(a.ptr, 4);
    /* The last index wraps the pointer to 0. */
    uint64_t last = 1u << 4;
    gm_rr_tick(&a, &last, true);
    assert_int_equal(a.ptr, 0);
}

static void test_rr_arbiter_size_one(void **state)
{
    (void)state;
    gm_rr_arb a;
    gm_rr_init(&a, 1);
    uint64_t req = 1;
    for (int k = 0; k < 3; k++) {
        assert_int_equal(gm_rr_grant(&a, &req), 0);
        gm_rr_tick(&a, &req, true);
        assert_int_equal(a.ptr, 0);
    }
}

/* ---- iSLIP against the reference ---- */

static void test_islip_reference_small(void **state)
{
    (void)state;
    static const uint32_t sz[][2] = {
        {1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 3}, {3, 5}, {5, 3}, {7, 2}, {6, 10},
    };
    for (size_t k = 0; k < sizeof sz / sizeof sz[0]; k++)
        for (uint32_t iters = 1; iters <= 3; iters++)
            for (uint32_t d = 10; d <= 100; d += 45)
                compare_with_reference(sz[k][0], sz[k][1], iters, d, 200,
                                       k * 10 + iters);
}

static void test_islip_reference_word_boundaries(void **state)
{
    (void)state;
    static const uint32_t sz[][2] = {
        {63, 64}, {64, 63}, {65, 65}, {127, 33}, {128, 128}, {80, 32}, {32, 80},
        {64, 64}, {32, 4}, {40, 8}, {8, 10},
    };
    for (size_t k = 0; k < sizeof sz / sizeof sz[0]; k++)
        for (uint32_t iters = 1; iters <= 3; iters += 2)
            compare_with_reference(sz[k][0], sz[k][1], iters, k & 1 ? 5 : 40,
                                   40, 100 + k);
}

/* The router's VC allocator: 320 input VCs x 4 output VCs of one port. */
static void test_islip_reference_va_shape(void **state)
{
    (void)state;
    compare_with_reference(320, 4, 1, 3, 60, 7);
    compare_with_reference(320, 4, 2, 30, 60, 8);
}

/* ---- the pointer rule ---- */

/* Two requesters both asking for two resources, all pointers at 0.
 * Iteration 0: both resources grant requester 0; it accepts resource 0.
 * Resource 1's grant is refused, so its pointer must stay at 0.
 * Iteration 1: resource 1 grants requester 1, accepted, but it is not a
 * first-iteration match, so neither pointer moves. */
static void test_islip_pointers_move_only_on_first_iteration_accept(void **state)
{
    (void)state;
    gm_islip s;
    assert_int_equal(gm_islip_init(&s, 2, 2, 2, 0), 0);
    uint64_t req[2] = {0};
    for (uint32_t i = 0; i < 2; i++)
        for (uint32_t j = 0; j < 2; j++)
            gm_islip_request(req, 2, i, j);
    gm_islip_match m[2];
    uint32_t n = gm_islip_alloc(&s, req, m);
    assert_int_equal(n, 2);
    assert_int_equal(m[0].req, 0);
    assert_int_equal(m[0].res, 0);
    assert_int_equal(m[0].iter, 0);
    assert_int_equal(m[1].req, 1);
    assert_int_equal(m[1].res, 1);
    assert_int_equal(m[1].iter, 1);
    /* alloc is pure */
    assert_int_equal(s.grant_ptr[0], 0);
    assert_int_equal(s.accept_ptr[0], 0);
    gm_islip_update(&s, m, n);
    assert_int_equal(s.grant_ptr[0], 1);  /* one past requester 0 */
    assert_int_equal(s.accept_ptr[0], 1); /* one past resource 0 */
    assert_int_equal(s.grant_ptr[1], 0);  /* refused in iteration 0 */
    assert_int_equal(s.accept_ptr[1], 0); /* matched only in iteration 1 */

    /* Next round, same requests: resource 0 now starts at requester 1,
     * resource 1 at requester 0; requester 0 starts accepting at 1, so
     * both first-iteration grants are accepted: a full match in iter 0. */
    n = gm_islip_alloc(&s, req, m);
    assert_int_equal(n, 2);
    for (uint32_t k = 0; k < n; k++) {
        assert_int_equal(m[k].iter, 0);
        assert_int_equal(m[k].req, m[k].res == 0 ? 1 : 0);
    }
    gm_islip_update(&s, m, n);
    assert_int_equal(s.grant_ptr[0], 0); /* (1 + 1) % 2 */
    assert_int_equal(s.grant_ptr[1], 1);
    assert_int_equal(s.accept_ptr[0], 0); /* (1 + 1) % 2 */
    assert_int_equal(s.accept_ptr[1], 1);
    gm_islip_free(&s);
}

/* A grant that is refused leaves the grant pointer on the refuser, so the
 * same requester is granted again next round (the arbiter "holds"). */
static void test_islip_refused_grant_holds(void **state)
{
    (void)state;
    gm_islip s;
    assert_int_equal(gm_islip_init(&s, 3, 3, 1, 0), 0);
    /* Requester 1 asks for resources 0 and 2; requester 2 for resource 2.
     * g = {1, 0, 1}: resource 0 grants 1, resource 2 grants 1; requester 1
     * with a = 0 accepts resource 0, refuses resource 2. */
    s.grant_ptr[0] = 1;
    s.grant_ptr[2] = 1;
    uint64_t req[3] = {0};
    gm_islip_request(req, 3, 1, 0);
    gm_islip_request(req, 3, 1, 2);
    gm_islip_request(req, 3, 2, 2);
    gm_islip_match m[3];
    uint32_t n = gm_islip_alloc(&s, req, m);
    assert_int_equal(n, 1);
    assert_int_equal(m[0].req, 1);
    assert_int_equal(m[0].res, 0);
    gm_islip_update(&s, m, n);
    assert_int_equal(s.grant_ptr[0], 2);
    assert_int_equal(s.grant_ptr[2], 1); /* refused: unchanged */
    assert_int_equal(s.accept_ptr[1], 1);
    assert_int_equal(s.accept_ptr[2], 0);
    /* Requester 2 got nothing with one iteration even though resource 2
     * was left unmatched: that is iSLIP with iters = 1. */
    gm_islip_free(&s);
}

/* ---- fairness and starvation ---- */

/* Every requester asks for every resource every round. iSLIP's grant
 * pointers desynchronize within max(n_req, n_res) rounds (McKeown 1999:
 * after a match a pointer moves one past its requester, so no two
 * resources keep granting the same requester); from then on every round
 * is a maximum matching and service rotates, so over a window that is a
 * multiple of both sizes every requester and every resource is served
 * equally often. */
static void full_load_fairness(uint32_t nr, uint32_t ns, uint32_t iters)
{
    gm_islip s;
    assert_int_equal(gm_islip_init(&s, nr, ns, iters, 0), 0);
    uint32_t words = GM_BITS_WORDS(nr);
    uint64_t *req = calloc((size_t)ns * words, sizeof *req);
    gm_islip_match *m = calloc(nr < ns ? nr : ns, sizeof *m);
    uint64_t served[MAXN] = {0}, used[MAXN] = {0};
    for (uint32_t i = 0; i < nr; i++)
        for (uint32_t j = 0; j < ns; j++)
            gm_islip_request(req, nr, i, j);
    uint32_t warmup = nr > ns ? nr : ns;
    uint32_t window = nr * ns * 10;
    uint32_t full = nr < ns ? nr : ns;
    for (uint32_t r = 0; r < warmup + window; r++) {
        uint32_t n = gm_islip_alloc(&s, req, m);
        if (r >= warmup) {
            assert_int_equal(n, full);
            for (uint32_t k = 0; k < n; k++) {
                served[m[k].req]++;
                used[m[k].res]++;
            }
        }
        gm_islip_update(&s, m, n);
    }
    for (uint32_t i = 0; i < nr; i++)
        assert_int_equal(served[i], (uint64_t)window * full / nr);
    for (uint32_t j = 0; j < ns; j++)
        assert_int_equal(used[j], (uint64_t)window * full / ns);
    free(req);
    free(m);
    gm_islip_free(&s);
}

static void test_islip_fairness_full_load(void **state)
{
    (void)state;
    full_load_fairness(1, 1, 1);
    full_load_fairness(2, 1, 1);
    full_load_fairness(1, 2, 1);
    full_load_fairness(4, 4, 1);
    full_load_fairness(5, 3, 1);
    full_load_fairness(3, 5, 1);
    full_load_fairness(7, 7, 2);
    full_load_fairness(6, 4, 1);
    full_load_fairness(80, 32, 1);
    full_load_fairness(32, 80, 3);
}

/* Requester 0 keeps asking for resource 0 while the others ask at random.
 * With round-robin pointers that move only on accepted grants, resource
 * 0's pointer passes at least one requester ahead of 0 every n_res rounds
 * (a refusing requester's accept pointer reaches resource 0 in at most
 * n_res rounds), so requester 0 waits at most n_req * n_res rounds. */
static void no_starvation(uint32_t nr, uint32_t ns, uint32_t iters, uint64_t seed)
{
    gm_islip s;
    assert_int_equal(gm_islip_init(&s, nr, ns, iters, 0), 0);
    gm_prng rng;
    gm_prng_seed(&rng, seed, 99);
    uint32_t words = GM_BITS_WORDS(nr);
    uint64_t *req = calloc((size_t)ns * words, sizeof *req);
    gm_islip_match *m = calloc(nr < ns ? nr : ns, sizeof *m);
    uint32_t wait = 0, worst = 0, served = 0;
    for (uint32_t r = 0; r < 5000; r++) {
        memset(req, 0, (size_t)ns * words * sizeof *req);
        gm_islip_request(req, nr, 0, 0);
        for (uint32_t i = 1; i < nr; i++)
            for (uint32_t j = 0; j < ns; j++)
                if (j == 0 ? gm_prng_below(&rng, 10) < 9 : gm_prng_below(&rng, 2))
                    gm_islip_request(req, nr, i, j);
        uint32_t n = gm_islip_alloc(&s, req, m);
        bool got = false;
        for (uint32_t k = 0; k < n; k++)
            got |= m[k].req == 0;
        gm_islip_update(&s, m, n);
        wait = got ? 0 : wait + 1;
        served += got;
        worst = wait > worst ? wait : worst;
        assert_true(wait < nr * ns);
    }
    assert_true(served > 0);
    free(req);
    free(m);
    gm_islip_free(&s);
}

static void test_islip_no_starvation(void **state)
{
    (void)state;
    no_starvation(2, 1, 1, 1);
    no_starvation(5, 1, 1, 2);
    no_starvation(6, 3, 1, 3);
    no_starvation(9, 4, 2, 4);
    no_starvation(33, 7, 1, 5);
}

/* N x 1 is a plain round robin: with everyone asking, service rotates
 * 0, 1, ..., N-1 exactly. */
static void test_islip_single_resource_round_robin(void **state)
{
    (void)state;
    for (uint32_t nr = 1; nr <= 7; nr += 3) {
        gm_islip s;
        assert_int_equal(gm_islip_init(&s, nr, 1, 1, 0), 0);
        uint64_t req = nr == 64 ? ~0ull : (1ull << nr) - 1;
        gm_islip_match m[1];
        for (uint32_t r = 0; r < 3 * nr; r++) {
            assert_int_equal(gm_islip_alloc(&s, &req, m), 1);
            assert_int_equal(m[0].req, r % nr);
            gm_islip_update(&s, m, 1);
        }
        gm_islip_free(&s);
    }
}

static void test_islip_init_rejects_bad_sizes(void **state)
{
    (void)state;
    gm_islip s;
    gm_error err;
    assert_int_not_equal(gm_islip_init(&s, 0, 4, 1, &err), 0);
    assert_int_not_equal(gm_islip_init(&s, 4, GM_ISLIP_MAX + 1, 1, &err), 0);
    assert_int_not_equal(gm_islip_init(&s, 4, 4, 0, &err), 0);
    assert_int_equal(gm_islip_init(&s, GM_ISLIP_MAX, GM_ISLIP_MAX, 1, &err), 0);
    gm_islip_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rr_search_matches_rule),
        cmocka_unit_test(test_rr_arbiter_advance_input),
        cmocka_unit_test(test_rr_arbiter_size_one),
        cmocka_unit_test(test_islip_reference_small),
        cmocka_unit_test(test_islip_reference_word_boundaries),
        cmocka_unit_test(test_islip_reference_va_shape),
        cmocka_unit_test(test_islip_pointers_move_only_on_first_iteration_accept),
        cmocka_unit_test(test_islip_refused_grant_holds),
        cmocka_unit_test(test_islip_fairness_full_load),
        cmocka_unit_test(test_islip_no_starvation),
        cmocka_unit_test(test_islip_single_resource_round_robin),
        cmocka_unit_test(test_islip_init_rejects_bad_sizes),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
