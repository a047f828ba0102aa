/* Arbitration primitives of the network: a round-robin arbiter and the
 * iSLIP allocator, both over bitmasks of uint64_t words.
 *
 * These are the C twins of the RTL primitives the router is built from, so
 * their rules are written down exactly (docs/noc.md, section 3):
 *
 * Round-robin search. Over n candidates with pointer p (0 <= p < n), the
 * winner is the lowest-numbered set request at index >= p, or if there is
 * none, the lowest-numbered set request at index < p.
 *
 * Round-robin arbiter (gm_rr_arb). grant = search(req, ptr); at the clock
 * edge, ptr <- (grant + 1) mod n if `advance` is 1 and some request was set,
 * else ptr is kept. Whoever instantiates the arbiter decides what
 * `advance` means (e.g. "the winner was also granted by the next stage").
 *
 * iSLIP (gm_islip). n_req requesters, n_res resources, `iters` iterations.
 * Each resource j has a grant pointer g[j] in [0, n_req); each requester i
 * has an accept pointer a[i] in [0, n_res). In every iteration:
 *   1. Grant: every resource not yet matched picks, by round-robin search
 *      from g[j], one requester that requests it and is not yet matched.
 *   2. Accept: every requester not yet matched that received grants picks,
 *      by round-robin search from a[i], one of the resources that granted
 *      it. Each accepted (i, j) is a match.
 * THE RULE: only matches made in the first iteration (iteration 0) move
 * pointers: g[j] <- (i + 1) mod n_req and a[i] <- (j + 1) mod n_res. A
 * grant that is not accepted moves nothing; later iterations move nothing.
 * gm_islip_alloc() is pure (computes the matches); gm_islip_update() is the
 * separate clock-edge step that applies the pointer rule.
 *
 * Bitmask layout. A set of n elements is GM_BITS_WORDS(n) words, element k
 * being bit (k % 64) of word k / 64. Bits at indices >= n must be zero. */
#ifndef GM_NOC_ISLIP_H
#define GM_NOC_ISLIP_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

/* Largest number of requesters or resources of one allocator. 1024 covers
 * the VC allocator of an 80x32 router with 4 VCs (320 input VCs) and leaves
 * room for the bigger crossbars of the designs. */
#define GM_ISLIP_MAX 1024u
#define GM_ISLIP_NONE 0xffffu
#define GM_BITS_WORDS(n) (((n) + 63u) / 64u)

static inline void gm_bit_set(uint64_t *m, uint32_t k)
{
    m[k >> 6] |= 1ull << (k & 63);
}

static inline void gm_bit_clear(uint64_t *m, uint32_t k)
{
    m[k >> 6] &= ~(1ull << (k & 63));
}

static inline bool gm_bit_test(const uint64_t *m, uint32_t k)
{
    return (m[k >> 6] >> (k & 63)) & 1u;
}

/* Round-robin search over the n-element set m starting at `start`
 * (0 <= start < n). Returns the winning index or GM_ISLIP_NONE. */
uint32_t gm_rr_search(const uint64_t *m, uint32_t n, uint32_t start);

/* The same search over a set of at most 64 elements held in one word. */
static inline uint32_t gm_rr_search_word(uint64_t m, uint32_t start)
{
    if (!m)
        return GM_ISLIP_NONE;
    uint64_t at_or_after = m & (~0ull << start);
    return (uint32_t)__builtin_ctzll(at_or_after ? at_or_after : m);
}

/* ---- round-robin arbiter with a separate advance input ---- */

typedef struct gm_rr_arb {
    uint16_t n;    /* candidates, 1..GM_ISLIP_MAX */
    uint16_t ptr;  /* register: index with the highest priority */
} gm_rr_arb;

void gm_rr_init(gm_rr_arb *a, uint32_t n);

/* Combinational: the candidate the arbiter grants, or GM_ISLIP_NONE.
 * Inline, with the one-word search for arbiters of up to 64 (the
 * router's VC arbiters), as the router calls it for every input. */
static inline uint32_t gm_rr_grant(const gm_rr_arb *a, const uint64_t *req)
{
    if (a->n <= 64)
        return gm_rr_search_word(req[0], a->ptr);
    return gm_rr_search(req, a->n, a->ptr);
}

/* Clock edge: ptr <- grant + 1 (mod n) when advance and a grant exists. */
static inline void gm_rr_tick(gm_rr_arb *a, const uint64_t *req, bool advance)
{
    uint32_t g = gm_rr_grant(a, req);
    if (advance && g != GM_ISLIP_NONE)
        a->ptr = (uint16_t)((g + 1) % a->n);
}

/* ---- iSLIP allocator ---- */

typedef struct gm_islip_match {
    uint16_t req;   /* requester */
    uint16_t res;   /* resource */
    uint8_t iter;   /* iteration in which the match was made, 0-based */
} gm_islip_match;

/* The state is the two pointer arrays. They are pointers so a block can
 * keep its allocator state in its own arrays (the router shares one
 * accept-pointer array between the per-port VC allocators, see
 * docs/noc.md); gm_islip_init allocates them for standalone use. */
typedef struct gm_islip {
    uint32_t n_req;        /* 1..GM_ISLIP_MAX */
    uint32_t n_res;        /* 1..GM_ISLIP_MAX */
    uint32_t iters;        /* 1..255 */
    uint16_t *grant_ptr;   /* [n_res], each in [0, n_req) */
    uint16_t *accept_ptr;  /* [n_req], each in [0, n_res) */
    /* Optional, GM_BITS_WORDS(n_res) words: a superset of the resources
     * whose request column is not empty, so the grant arbiters of the
     * others are not visited (a router knows which outputs its inputs
     * asked for). NULL: every resource is looked at. The matching is the
     * same either way. */
    const uint64_t *res_hint;
} gm_islip;

/* Allocates zeroed pointers (every arbiter starts at index 0). */
int gm_islip_init(gm_islip *s, uint32_t n_req, uint32_t n_res, uint32_t iters,
                  gm_error *err);
void gm_islip_free(gm_islip *s);

/* The request matrix is stored by resource: column j is the set of
 * requesters asking for resource j, GM_BITS_WORDS(n_req) words starting at
 * req + j * GM_BITS_WORDS(n_req). This is what the grant arbiter of
 * resource j reads, and it lets callers fill only the columns in use. */
static inline void gm_islip_request(uint64_t *req, uint32_t n_req,
                                    uint32_t i, uint32_t j)
{
    gm_bit_set(req + (uint64_t)j * GM_BITS_WORDS(n_req), i);
}

/* Pure: computes the matching for request matrix req with the current
 * pointers. Writes at most min(n_req, n_res) matches to out, in increasing
 * iteration, then increasing resource order, and returns their number. */
uint32_t gm_islip_alloc(const gm_islip *s, const uint64_t *req,
                        gm_islip_match *out);

/* Clock edge: applies THE RULE for the matches returned by gm_islip_alloc. */
void gm_islip_update(gm_islip *s, const gm_islip_match *m, uint32_t n);

#endif
