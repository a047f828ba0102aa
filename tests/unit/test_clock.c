/* Clock scheduler (modelling contract 2.4).
 *
 * The scheduler is checked against a brute-force reference that knows
 * nothing of the LCM: it keeps the index k_a of the next edge of every domain
 * and fires the domain whose next edge comes first, comparing two edges by
 * cross-multiplication (edge k_a of a before edge k_b of b iff
 * k_a * f_b < k_b * f_a), ties going to the lower domain index. Times are
 * compared as rationals: the clock's `now` ticks of 1/L us against the
 * reference's k_a / f_a us. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/clock.h"

typedef struct ref_clock {
    int n;
    uint32_t f[GM_CLOCK_MAX_DOMAINS];
    uint64_t k[GM_CLOCK_MAX_DOMAINS]; /* index of the next edge = edges fired */
} ref_clock;

/* Fires the next edge; returns its domain and the edge index in *edge. */
static int ref_advance(ref_clock *r, uint64_t *edge)
{
    int best = 0;
    for (int a = 1; a < r->n; a++)
        if (r->k[a] * r->f[best] < r->k[best] * r->f[a])
            best = a;
    *edge = r->k[best]++;
    return best;
}

static void setup_clock(gm_clock *c, ref_clock *r, const uint32_t *mhz, int n)
{
    static const char *const names[GM_CLOCK_MAX_DOMAINS] = {
        "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
    };
    gm_error err = {{0}};
    gm_clock_init(c);
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        assert_int_equal(gm_clock_add(c, names[i], mhz[i], &err), i);
        r->f[i] = mhz[i];
    }
    r->n = n;
    assert_int_equal(gm_clock_finalize(c, &err), 0);
}

/* Advances both for `edges` edges and checks domain, time and all cycle
 * counts after every edge. */
static void run_against_reference(gm_clock *c, ref_clock *r, long edges)
{
    gm_time prev = c->now;
    for (long i = 0; i < edges; i++) {
        uint64_t k;
        int want = ref_advance(r, &k);
        int got = gm_clock_advance(c);
        if (got != want)
            fail_msg("edge %ld: clock fired domain %d, reference domain %d", i, got, want);
        /* now / L us == k / f us */
        if (c->now * r->f[want] != k * c->ticks_per_us)
            fail_msg("edge %ld: domain %d edge %llu at tick %llu, expected %llu/%u us",
                     i, want, (unsigned long long)k, (unsigned long long)c->now,
                     (unsigned long long)k, r->f[want]);
        if (c->now < prev)
            fail_msg("edge %ld: time went backwards", i);
        prev = c->now;
        for (int a = 0; a < r->n; a++)
            if (c->d[a].cycle != r->k[a])
                fail_msg("edge %ld: domain %d cycle %llu, reference %llu", i, a,
                         (unsigned long long)c->d[a].cycle, (unsigned long long)r->k[a]);
    }
}

static void test_three_domains_period_values(void **state)
{
    (void)state;
    static const uint32_t mhz[] = {1400, 700, 924};
    gm_clock c;
    ref_clock r;
    setup_clock(&c, &r, mhz, 3);
    /* 1400 = 2^3*5^2*7, 700 = 2^2*5^2*7, 924 = 2^2*3*7*11:
     * lcm = 2^3*3*5^2*7*11 = 46200 ticks per us. */
    assert_int_equal(c.ticks_per_us, 46200);
    assert_int_equal(c.d[0].period, 33);
    assert_int_equal(c.d[1].period, 66);
    assert_int_equal(c.d[2].period, 50);
    /* Every domain has an edge at time 0, fired in registration order. */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(gm_clock_advance(&c), i);
        assert_int_equal(c.now, 0);
    }
    assert_int_equal(gm_clock_advance(&c), 0);
    assert_int_equal(c.now, 33);
}

static void test_three_domains_match_reference(void **state)
{
    (void)state;
    static const uint32_t mhz[] = {1400, 700, 924};
    gm_clock c;
    ref_clock r;
    setup_clock(&c, &r, mhz, 3);
    /* The domains fire 1400 + 700 + 924 = 3024 edges per microsecond, so
     * after 330 * 3024 edges exactly the first 330 us have been played. */
    run_against_reference(&c, &r, 330L * 3024);
    assert_int_equal(c.d[0].cycle, 330 * 1400);
    assert_int_equal(c.d[1].cycle, 330 * 700);
    assert_int_equal(c.d[2].cycle, 330 * 924);
    assert_int_equal(c.d[0].next, 330 * 46200);
    assert_int_equal(c.d[1].next, 330 * 46200);
    assert_int_equal(c.d[2].next, 330 * 46200);
    run_against_reference(&c, &r, 1000000L - 330L * 3024);
    assert_int_equal(c.d[0].cycle + c.d[1].cycle + c.d[2].cycle, 1000000);
}

static void test_five_domains_with_boost(void **state)
{
    (void)state;
    /* core, interconnect, boosted NoC#1, L2, DRAM */
    static const uint32_t mhz[] = {1400, 700, 1400, 700, 924};
    gm_clock c;
    ref_clock r;
    setup_clock(&c, &r, mhz, 5);
    assert_int_equal(c.ticks_per_us, 46200);
    run_against_reference(&c, &r, 1000000);

    /* Independently: within the first microsecond [0, L) every domain
     * fires exactly its frequency in edges, and the boosted domain always
     * fires after the core domain it ties with. */
    setup_clock(&c, &r, mhz, 5);
    uint64_t count[5] = {0};
    int last = -1;
    gm_time last_now = 0;
    gm_time core_now = UINT64_MAX;
    for (;;) {
        int d = gm_clock_advance(&c);
        if (c.now >= c.ticks_per_us)
            break;
        count[d]++;
        if (d == 0)
            core_now = c.now;
        if (d == 2) {
            /* boosted NoC#1 edges coincide with core edges, core first */
            assert_int_equal(core_now, c.now);
            assert_true(last == 0 || (last == 1 && last_now == c.now));
        }
        if (d == 3) {
            /* the 700 MHz L2 edge ties with the interconnect and core
             * edges, and comes after the boosted NoC#1 edge */
            assert_int_equal(last, 2);
            assert_int_equal(last_now, c.now);
        }
        last = d;
        last_now = c.now;
    }
    for (int i = 0; i < 5; i++)
        assert_int_equal(count[i], mhz[i]);
}

static void test_equal_frequencies_tie_by_registration(void **state)
{
    (void)state;
    gm_clock c;
    ref_clock r;

    /* Two equal domains alone strictly alternate, lower index first. */
    static const uint32_t two[] = {700, 700};
    setup_clock(&c, &r, two, 2);
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(gm_clock_advance(&c), i % 2);
        assert_int_equal(c.now, (gm_time)(i / 2) * c.d[0].period);
    }

    /* With a third domain between them in the order, the equal pair still
     * fire back to back at the same time, the earlier registered first,
     * and whatever the name. */
    static const uint32_t three[] = {924, 700, 700};
    gm_error err;
    gm_clock_init(&c);
    assert_int_equal(gm_clock_add(&c, "zeta", 924, &err), 0);
    assert_int_equal(gm_clock_add(&c, "omega", 700, &err), 1);
    assert_int_equal(gm_clock_add(&c, "alpha", 700, &err), 2);
    assert_int_equal(gm_clock_finalize(&c, &err), 0);
    int prev = -1;
    gm_time prev_now = 0;
    for (int i = 0; i < 100000; i++) {
        int d = gm_clock_advance(&c);
        if (d == 2) {
            assert_int_equal(prev, 1);
            assert_int_equal(prev_now, c.now);
        }
        if (prev == 1)
            assert_int_equal(d, 2);
        prev = d;
        prev_now = c.now;
    }
    setup_clock(&c, &r, three, 3);
    run_against_reference(&c, &r, 100000);
}

static void test_edge_after(void **state)
{
    (void)state;
    static const uint32_t mhz[] = {1400, 700, 924};
    gm_clock c;
    ref_clock r;
    setup_clock(&c, &r, mhz, 3);

    /* Hand-computed on the 700 MHz domain (period 66 ticks). */
    assert_int_equal(gm_clock_edge_after(&c.d[1], 0, 1), 66);
    assert_int_equal(gm_clock_edge_after(&c.d[1], 65, 1), 66);
    assert_int_equal(gm_clock_edge_after(&c.d[1], 66, 1), 132);
    assert_int_equal(gm_clock_edge_after(&c.d[1], 66, 2), 198);
    assert_int_equal(gm_clock_edge_after(&c.d[1], 67, 2), 198);

    /* Against the edge times the scheduler actually produces. */
    enum { EDGES = 30000, MAXD = 3 };
    gm_time *times[MAXD];
    int n[MAXD] = {0};
    for (int d = 0; d < MAXD; d++) {
        times[d] = calloc(EDGES, sizeof *times[d]);
        assert_non_null(times[d]);
    }
    for (int i = 0; i < EDGES; i++) {
        int d = gm_clock_advance(&c);
        times[d][n[d]++] = c.now;
    }
    gm_time horizon = c.now / 2;
    for (int d = 0; d < MAXD; d++) {
        int j = 0; /* first recorded edge strictly after t */
        for (gm_time t = 0; t < horizon; t++) {
            while (times[d][j] <= t)
                j++;
            for (uint32_t e = 1; e <= 4; e++) {
                assert_true(j + (int)e - 1 < n[d]);
                gm_time want = times[d][j + e - 1];
                gm_time got = gm_clock_edge_after(&c.d[d], t, e);
                if (got != want)
                    fail_msg("domain %d t=%llu edges=%u: got %llu want %llu", d,
                             (unsigned long long)t, e, (unsigned long long)got,
                             (unsigned long long)want);
            }
        }
    }
    for (int d = 0; d < MAXD; d++)
        free(times[d]);
}

/* Reference advance that drops edges of domain d before time t (in ticks
 * of L): edge k of d is before t iff k/f_d < t/L iff k*L < t*f_d. */
static int ref_advance_skipping(ref_clock *r, uint64_t *edge, int d, gm_time t, uint64_t L)
{
    for (;;) {
        int a = ref_advance(r, edge);
        if (a != d || *edge * L >= t * r->f[d])
            return a;
    }
}

static void test_skip_to_preserves_order(void **state)
{
    (void)state;
    static const uint32_t mhz[] = {1400, 700, 924};
    gm_clock c;
    ref_clock r;
    setup_clock(&c, &r, mhz, 3);
    const uint64_t L = c.ticks_per_us;

    run_against_reference(&c, &r, 1000);

    /* Skip the 924 MHz domain to a time that is not one of its edges. */
    gm_time t = c.now + 5000 + 7;
    assert_int_not_equal(t % c.d[2].period, 0);
    uint64_t cycle_before = c.d[2].cycle;
    gm_clock_skip_to(&c, 2, t);
    /* cycle now counts every edge of the domain before t */
    uint64_t before_t = (t * mhz[2] + L - 1) / L;
    assert_int_equal(c.d[2].cycle, before_t);
    assert_true(c.d[2].cycle > cycle_before);
    assert_true(c.d[2].next >= t);

    /* A skip to a time the domain is already past is a no-op. */
    gm_time next = c.d[2].next;
    gm_clock_skip_to(&c, 2, t);
    gm_clock_skip_to(&c, 2, next);
    assert_int_equal(c.d[2].next, next);
    assert_int_equal(c.d[2].cycle, before_t);

    for (long i = 0; i < 20000; i++) {
        uint64_t k;
        int want = ref_advance_skipping(&r, &k, 2, t, L);
        int got = gm_clock_advance(&c);
        if (got != want)
            fail_msg("after skip, edge %ld: clock %d reference %d", i, got, want);
        assert_true(c.now * r.f[want] == k * L);
        if (want == 2)
            assert_true(c.now >= t);
        if (c.now >= t)
            for (int a = 0; a < 3; a++)
                assert_int_equal(c.d[a].cycle, r.k[a]);
        else
            assert_int_equal(c.d[2].cycle, before_t);
    }

    assert_true(c.now > t);

    /* Skip the fastest domain to a time where all three domains have an
     * edge (a multiple of 33, 66 and 50 ticks): it must still fire first
     * there, before the two later-registered domains. */
    gm_time t2 = (c.now / 1650 + 3) * 1650;
    gm_clock_skip_to(&c, 0, t2);
    assert_int_equal(c.d[0].next, t2);
    assert_int_equal(c.d[0].cycle, t2 / 33);
    int seen_at_t2 = 0;
    for (long i = 0; i < 20000; i++) {
        uint64_t k;
        int want = ref_advance_skipping(&r, &k, 0, t2, L);
        int got = gm_clock_advance(&c);
        if (got != want)
            fail_msg("after second skip, edge %ld: clock %d reference %d", i, got, want);
        assert_true(c.now * r.f[want] == k * L);
        if (c.now == t2)
            assert_int_equal(got, seen_at_t2++);
    }
    assert_int_equal(seen_at_t2, 3);
    for (int a = 0; a < 3; a++)
        assert_int_equal(c.d[a].cycle, r.k[a]);
}

static void test_skip_to_exact_edge_fires_it(void **state)
{
    (void)state;
    static const uint32_t mhz[] = {1400, 700, 924};
    gm_clock c;
    ref_clock r;
    setup_clock(&c, &r, mhz, 3);
    /* An edge exactly at t is the first edge at or after t: it is kept. */
    gm_clock_skip_to(&c, 1, 66 * 10);
    assert_int_equal(c.d[1].next, 660);
    assert_int_equal(c.d[1].cycle, 10);
    gm_time last = 0;
    for (;;) {
        int d = gm_clock_advance(&c);
        if (d == 1) {
            last = c.now;
            break;
        }
    }
    assert_int_equal(last, 660);
    assert_int_equal(c.d[1].cycle, 11);
}

static void test_rejects_zero_mhz(void **state)
{
    (void)state;
    gm_clock c;
    gm_error err = {{0}};
    gm_clock_init(&c);
    assert_int_equal(gm_clock_add(&c, "core", 1400, &err), 0);
    assert_int_equal(gm_clock_add(&c, "dram", 0, &err), -1);
    assert_non_null(strstr(err.msg, "dram"));
    assert_int_equal(c.n, 1);
    /* the domain after the rejected one still gets the next index */
    assert_int_equal(gm_clock_add(&c, "dram", 924, &err), 1);
    memset(&err, 0, sizeof err);
    assert_int_equal(gm_clock_add(&c, "huge", 100001, &err), -1);
    assert_true(err.msg[0] != '\0');
    /* A NULL error is allowed. */
    assert_int_equal(gm_clock_add(&c, "x", 0, NULL), -1);
}

static void test_rejects_too_many_domains(void **state)
{
    (void)state;
    gm_clock c;
    gm_error err = {{0}};
    gm_clock_init(&c);
    for (int i = 0; i < GM_CLOCK_MAX_DOMAINS; i++)
        assert_int_equal(gm_clock_add(&c, "d", 700, &err), i);
    assert_int_equal(gm_clock_add(&c, "one too many", 700, &err), -1);
    assert_non_null(strstr(err.msg, "too many"));
    assert_int_equal(c.n, GM_CLOCK_MAX_DOMAINS);
    assert_int_equal(gm_clock_finalize(&c, &err), 0);
}

static void test_rejects_lcm_overflow(void **state)
{
    (void)state;
    gm_clock c;
    gm_error err = {{0}};

    /* Four primes near 1 GHz: each is a fine frequency on its own, but the
     * common multiple is ~1.06e12 ticks per us. */
    static const uint32_t primes[] = {1009, 1013, 1019, 1021};
    gm_clock_init(&c);
    for (int i = 0; i < 4; i++)
        assert_int_equal(gm_clock_add(&c, "p", primes[i], &err), i);
    assert_int_equal(gm_clock_finalize(&c, &err), -1);
    assert_true(err.msg[0] != '\0');

    /* Two large primes overflow on their own. */
    memset(&err, 0, sizeof err);
    gm_clock_init(&c);
    assert_int_equal(gm_clock_add(&c, "a", 99991, &err), 0);
    assert_int_equal(gm_clock_add(&c, "b", 99989, &err), 1);
    assert_int_equal(gm_clock_finalize(&c, &err), -1);
    assert_true(err.msg[0] != '\0');

    /* Three of those primes still fit: 1009*1013*1019 = 1041537223. */
    gm_clock_init(&c);
    for (int i = 0; i < 3; i++)
        assert_int_equal(gm_clock_add(&c, "p", primes[i], &err), i);
    assert_int_equal(gm_clock_finalize(&c, &err), 0);
    assert_int_equal(c.ticks_per_us, 1041537223ULL);
}

static void test_large_lcm_below_limit(void **state)
{
    (void)state;
    /* 65536 and 65535 are coprime: L = 4294901760, just below 2^32. */
    static const uint32_t mhz[] = {65536, 65535};
    gm_clock c;
    ref_clock r;
    setup_clock(&c, &r, mhz, 2);
    assert_int_equal(c.ticks_per_us, 4294901760ULL);
    assert_int_equal(c.d[0].period, 65535);
    assert_int_equal(c.d[1].period, 65536);
    run_against_reference(&c, &r, 300000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_domains_period_values),
        cmocka_unit_test(test_three_domains_match_reference),
        cmocka_unit_test(test_five_domains_with_boost),
        cmocka_unit_test(test_equal_frequencies_tie_by_registration),
        cmocka_unit_test(test_edge_after),
        cmocka_unit_test(test_skip_to_preserves_order),
        cmocka_unit_test(test_skip_to_exact_edge_fires_it),
        cmocka_unit_test(test_rejects_zero_mhz),
        cmocka_unit_test(test_rejects_too_many_domains),
        cmocka_unit_test(test_rejects_lcm_overflow),
        cmocka_unit_test(test_large_lcm_below_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
