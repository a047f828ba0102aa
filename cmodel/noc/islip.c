#include "noc/islip.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS GM_BITS_WORDS(GM_ISLIP_MAX)

static inline uint32_t ctz64(uint64_t x)
{
    return (uint32_t)__builtin_ctzll(x);
}

uint32_t gm_rr_search(const uint64_t *m, uint32_t n, uint32_t start)
{
    assert(n >= 1 && start < n);
    if (n <= 64)
        return gm_rr_search_word(m[0], start);
    uint32_t words = GM_BITS_WORDS(n);
    uint32_t w = start >> 6;
    uint64_t at_or_after = m[w] & (~0ull << (start & 63));
    if (at_or_after)
        return w * 64 + ctz64(at_or_after);
    for (uint32_t k = w + 1; k < words; k++)
        if (m[k])
            return k * 64 + ctz64(m[k]);
    /* Wrap. Bits of word w at or after start are known to be zero. */
    for (uint32_t k = 0; k <= w; k++)
        if (m[k])
            return k * 64 + ctz64(m[k]);
    return GM_ISLIP_NONE;
}

void gm_rr_init(gm_rr_arb *a, uint32_t n)
{
    assert(n >= 1 && n <= GM_ISLIP_MAX);
    a->n = (uint16_t)n;
    a->ptr = 0;
}

int gm_islip_init(gm_islip *s, uint32_t n_req, uint32_t n_res, uint32_t iters,
                  gm_error *err)
{
    *s = (gm_islip){0};
    if (n_req < 1 || n_req > GM_ISLIP_MAX || n_res < 1 || n_res > GM_ISLIP_MAX)
        return gm_fail(err, "iSLIP size %ux%u outside 1..%u", n_req, n_res,
                       GM_ISLIP_MAX);
    if (iters < 1 || iters > 255)
        return gm_fail(err, "iSLIP iterations %u outside 1..255", iters);
    s->grant_ptr = calloc(n_res, sizeof *s->grant_ptr);
    s->accept_ptr = calloc(n_req, sizeof *s->accept_ptr);
    if (!s->grant_ptr || !s->accept_ptr) {
        gm_islip_free(s);
        return gm_fail(err, "out of memory");
    }
    s->n_req = n_req;
    s->n_res = n_res;
    s->iters = iters;
    return 0;
}

void gm_islip_free(gm_islip *s)
{
    free(s->grant_ptr);
    free(s->accept_ptr);
    *s = (gm_islip){0};
}

/* gm_islip_alloc for n_req <= 64 and n_res <= 64: the same steps in the
 * same order, with every set one word held in a register. The small
 * crossbars of the designs (8x4 with 4 VCs: 32 input VCs) are all of this
 * size, and for them the word loops cost more than the matching. */
static uint32_t alloc_one_word(const gm_islip *s, const uint64_t *req,
                               gm_islip_match *out)
{
    const uint32_t ns = s->n_res;
    uint64_t live = s->res_hint ? s->res_hint[0] : ~0ull;
    if (ns < 64)
        live &= (1ull << ns) - 1;
    uint64_t req_matched = 0;
    uint8_t g_req[64], g_res[64], best_res[64], best_dist[64];
    uint32_t n = 0;
    for (uint32_t it = 0; it < s->iters; it++) {
        uint32_t ng = 0;
        uint64_t granted = 0;
        for (uint64_t bits = live; bits; bits &= bits - 1) {
            uint32_t j = ctz64(bits);
            uint64_t cand = req[j] & ~req_matched;
            if (!cand) {
                live &= ~(1ull << j);
                continue;
            }
            uint32_t i = gm_rr_search_word(cand, s->grant_ptr[j]);
            uint32_t a = s->accept_ptr[i];
            uint32_t dist = j >= a ? j - a : j + ns - a;
            g_req[ng] = (uint8_t)i;
            g_res[ng] = (uint8_t)j;
            ng++;
            if (!(granted >> i & 1) || dist < best_dist[i]) {
                best_res[i] = (uint8_t)j;
                best_dist[i] = (uint8_t)dist;
            }
            granted |= 1ull << i;
        }
        if (ng == 0)
            break;
        for (uint32_t g = 0; g < ng; g++) {
            uint32_t i = g_req[g], j = g_res[g];
            if (best_res[i] != j)
                continue;
            out[n++] = (gm_islip_match){(uint16_t)i, (uint16_t)j, (uint8_t)it};
            req_matched |= 1ull << i;
            live &= ~(1ull << j);
        }
    }
    return n;
}

uint32_t gm_islip_alloc(const gm_islip *s, const uint64_t *req,
                        gm_islip_match *out)
{
    if (s->n_req <= 64 && s->n_res <= 64)
        return alloc_one_word(s, req, out);
    const uint32_t nr = s->n_req, ns = s->n_res;
    const uint32_t words = GM_BITS_WORDS(nr), rwords = GM_BITS_WORDS(ns);
    uint64_t req_matched[MAX_WORDS];
    /* Resources still worth a grant arbiter: not matched, and with a
     * candidate at the last look (a column with no unmatched requester
     * stays so, as matched requesters stay matched). */
    uint64_t live[MAX_WORDS];
    uint64_t granted[MAX_WORDS];
    uint64_t cand[MAX_WORDS];
    /* Grants of one iteration, in resource order; the accept arbiter of a
     * requester keeps the granting resource nearest after its pointer. */
    uint16_t g_req[GM_ISLIP_MAX], g_res[GM_ISLIP_MAX];
    uint16_t best_res[GM_ISLIP_MAX], best_dist[GM_ISLIP_MAX];
    uint32_t n = 0;

    /* Only the words in use are cleared, the first one by hand: gcc
     * turns a clearing loop into a libc memset call, which for the one
     * word of a small router cost more than the allocation itself. */
    req_matched[0] = granted[0] = 0;
    for (uint32_t w = 1; w < words; w++)
        req_matched[w] = granted[w] = 0;
    for (uint32_t w = 0; w < rwords; w++)
        live[w] = s->res_hint ? s->res_hint[w] : ~0ull;
    if (ns & 63)
        live[rwords - 1] &= (1ull << (ns & 63)) - 1;
    for (uint32_t it = 0; it < s->iters; it++) {
        uint32_t ng = 0;
        for (uint32_t rw = 0; rw < rwords; rw++) {
            for (uint64_t bits = live[rw]; bits; bits &= bits - 1) {
                uint32_t j = rw * 64 + (uint32_t)__builtin_ctzll(bits);
                const uint64_t *col = req + (uint64_t)j * words;
                uint64_t any = 0;
                for (uint32_t w = 0; w < words; w++) {
                    cand[w] = col[w] & ~req_matched[w];
                    any |= cand[w];
                }
                if (!any) {
                    gm_bit_clear(live, j);
                    continue;
                }
                uint32_t i = gm_rr_search(cand, nr, s->grant_ptr[j]);
                uint32_t a = s->accept_ptr[i];
                uint16_t dist = (uint16_t)(j >= a ? j - a : j + ns - a);
                g_req[ng] = (uint16_t)i;
                g_res[ng] = (uint16_t)j;
                ng++;
                if (!gm_bit_test(granted, i) || dist < best_dist[i]) {
                    best_res[i] = (uint16_t)j;
                    best_dist[i] = dist;
                }
                gm_bit_set(granted, i);
            }
        }
        if (ng == 0)
            break; /* nothing changes in later iterations either */
        for (uint32_t g = 0; g < ng; g++) {
            uint32_t i = g_req[g], j = g_res[g];
            if (best_res[i] != j)
                continue;
            out[n++] = (gm_islip_match){(uint16_t)i, (uint16_t)j, (uint8_t)it};
            gm_bit_set(req_matched, i);
            gm_bit_clear(live, j);
        }
        /* Cleared where this iteration set it, for the same reason. */
        for (uint32_t g = 0; g < ng; g++)
            granted[g_req[g] >> 6] = 0;
    }
    return n;
}

void gm_islip_update(gm_islip *s, const gm_islip_match *m, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        if (m[k].iter != 0)
            continue;
        s->grant_ptr[m[k].res] = (uint16_t)((m[k].req + 1u) % s->n_req);
        s->accept_ptr[m[k].req] = (uint16_t)((m[k].res + 1u) % s->n_res);
    }
}
