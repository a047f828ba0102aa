#include "noc/router.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define HEAD 1u
#define TAIL 2u

static inline uint32_t ctz64(uint64_t x)
{
    return (uint32_t)__builtin_ctzll(x);
}

static inline uint64_t vc_mask(uint32_t vcs)
{
    return vcs == 64 ? ~0ull : (1ull << vcs) - 1;
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* Sets of one word are the common case (every router of up to 64 ports,
 * and VC allocation up to 64 input VCs); gcc would make a loop a libc
 * call, which costs more than the word. */
static inline void clear_words(uint64_t *m, uint32_t words)
{
    if (words == 1)
        m[0] = 0;
    else
        memset(m, 0, words * sizeof *m);
}

static inline void copy_words(uint64_t *dst, const uint64_t *src, uint32_t words)
{
    if (words == 1)
        dst[0] = src[0];
    else
        memcpy(dst, src, words * sizeof *dst);
}

static int check_cfg(const gm_router_cfg *c, gm_error *err)
{
    if (c->n_in < 1 || c->n_in > GM_ROUTER_MAX_PORTS || c->n_out < 1 ||
        c->n_out > GM_ROUTER_MAX_PORTS)
        return gm_fail(err, "router size %ux%u outside 1..%u", c->n_in,
                       c->n_out, GM_ROUTER_MAX_PORTS);
    if (c->vcs < 1 || c->vcs > GM_ROUTER_MAX_VCS)
        return gm_fail(err, "router vcs %u outside 1..%u", c->vcs,
                       GM_ROUTER_MAX_VCS);
    if (c->n_in * c->vcs > GM_ISLIP_MAX)
        return gm_fail(err, "router has %u input VCs, VC allocator takes at most %u",
                       c->n_in * c->vcs, GM_ISLIP_MAX);
    if (c->depth < 1 || c->depth > GM_ROUTER_MAX_DEPTH)
        return gm_fail(err, "router VC depth %u outside 1..%u", c->depth,
                       GM_ROUTER_MAX_DEPTH);
    if (c->stages < 1 || c->stages > GM_ROUTER_MAX_STAGES)
        return gm_fail(err, "router stages %u outside 1..%u", c->stages,
                       GM_ROUTER_MAX_STAGES);
    if (c->iters < 1 || c->iters > 255)
        return gm_fail(err, "router iSLIP iterations %u outside 1..255",
                       c->iters);
    return 0;
}

int gm_router_init(gm_router *r, const gm_router_cfg *cfg, gm_error *err)
{
    *r = (gm_router){0};
    if (check_cfg(cfg, err) != 0)
        return -1;
    const uint32_t n = cfg->n_in, m = cfg->n_out, v = cfg->vcs;
    const uint32_t niv = n * v, nov = m * v;
    r->cfg = *cfg;
    r->w_iv = GM_BITS_WORDS(niv);
    r->w_in = GM_BITS_WORDS(n);
    r->w_out = GM_BITS_WORDS(m);

    r->buf = calloc((size_t)niv * cfg->depth, sizeof *r->buf);
    r->buf_rd = calloc(niv, sizeof *r->buf_rd);
    r->buf_count = calloc(niv, sizeof *r->buf_count);
    r->ivc_has_ovc = calloc(niv, 1);
    r->ivc_oport = calloc(niv, sizeof *r->ivc_oport);
    r->ivc_ovc = calloc(niv, 1);
    r->ovc_busy = calloc(m, sizeof *r->ovc_busy);
    r->ovc_credit = calloc(nov, sizeof *r->ovc_credit);
    r->va_grant_ptr = calloc(nov, sizeof *r->va_grant_ptr);
    r->va_accept_ptr = calloc(niv, sizeof *r->va_accept_ptr);
    r->sa_grant_ptr = calloc(m, sizeof *r->sa_grant_ptr);
    r->sa_accept_ptr = calloc(n, sizeof *r->sa_accept_ptr);
    r->vc_arb = calloc(n, sizeof *r->vc_arb);
    r->pipe = calloc((size_t)cfg->stages * m, sizeof *r->pipe);
    r->credit = calloc(n, sizeof *r->credit);
    r->vc_nonempty = calloc(n, sizeof *r->vc_nonempty);
    r->vc_has_ovc = calloc(n, sizeof *r->vc_has_ovc);
    r->vc_can_send = calloc(n, sizeof *r->vc_can_send);
    r->ovc_holder = calloc(nov, sizeof *r->ovc_holder);
    r->in_busy = calloc(r->w_in, sizeof *r->in_busy);
    r->pipe_mask = calloc((size_t)cfg->stages * r->w_out, sizeof *r->pipe_mask);
    r->credit_mask = calloc(r->w_in, sizeof *r->credit_mask);
    r->va_req = calloc((size_t)m * r->w_iv, sizeof *r->va_req);
    r->va_port_mask = calloc(r->w_out, sizeof *r->va_port_mask);
    r->va_cols = calloc((size_t)v * r->w_iv, sizeof *r->va_cols);
    r->va_tmp = calloc(v, sizeof *r->va_tmp);
    r->sa_req = calloc((size_t)m * r->w_in, sizeof *r->sa_req);
    r->sa_out_mask = calloc(r->w_out, sizeof *r->sa_out_mask);
    r->sa_elig = calloc(n, sizeof *r->sa_elig);
    r->sa_inputs = calloc(n, sizeof *r->sa_inputs);
    r->sa_vc = calloc(n, 1);
    r->va_grants = calloc(nov, sizeof *r->va_grants);
    r->sa_grants = calloc(min_u32(n, m), sizeof *r->sa_grants);
    if (!r->buf || !r->buf_rd || !r->buf_count || !r->ivc_has_ovc ||
        !r->ivc_oport || !r->ivc_ovc || !r->ovc_busy || !r->ovc_credit ||
        !r->va_grant_ptr || !r->va_accept_ptr || !r->sa_grant_ptr ||
        !r->sa_accept_ptr || !r->vc_arb || !r->pipe || !r->credit ||
        !r->vc_nonempty || !r->vc_has_ovc || !r->vc_can_send || !r->ovc_holder ||
        !r->in_busy || !r->pipe_mask || !r->credit_mask ||
        !r->va_req || !r->va_port_mask || !r->va_cols || !r->va_tmp ||
        !r->sa_req || !r->sa_out_mask || !r->sa_elig || !r->sa_inputs || !r->sa_vc ||
        !r->va_grants || !r->sa_grants) {
        gm_router_free(r);
        return gm_fail(err, "out of memory");
    }
    /* Reset: every output VC has the whole downstream buffer as credit. */
    for (uint32_t ov = 0; ov < nov; ov++)
        r->ovc_credit[ov] = (uint16_t)cfg->depth;
    for (uint32_t i = 0; i < n; i++)
        gm_rr_init(&r->vc_arb[i], v);
    return 0;
}

void gm_router_free(gm_router *r)
{
    free(r->buf);
    free(r->buf_rd);
    free(r->buf_count);
    free(r->ivc_has_ovc);
    free(r->ivc_oport);
    free(r->ivc_ovc);
    free(r->ovc_busy);
    free(r->ovc_credit);
    free(r->va_grant_ptr);
    free(r->va_accept_ptr);
    free(r->sa_grant_ptr);
    free(r->sa_accept_ptr);
    free(r->vc_arb);
    free(r->pipe);
    free(r->credit);
    free(r->vc_nonempty);
    free(r->vc_has_ovc);
    free(r->vc_can_send);
    free(r->ovc_holder);
    free(r->in_busy);
    free(r->pipe_mask);
    free(r->credit_mask);
    free(r->va_req);
    free(r->va_port_mask);
    free(r->va_cols);
    free(r->va_tmp);
    free(r->sa_req);
    free(r->sa_out_mask);
    free(r->sa_elig);
    free(r->sa_inputs);
    free(r->sa_vc);
    free(r->va_grants);
    free(r->sa_grants);
    *r = (gm_router){0};
}

int gm_router_ports_init(gm_router_in *in, gm_router_out *out,
                         const gm_router_cfg *cfg, gm_error *err)
{
    *in = (gm_router_in){0};
    *out = (gm_router_out){0};
    in->in = calloc(cfg->n_in, sizeof *in->in);
    in->out = calloc(cfg->n_out, sizeof *in->out);
    out->out = calloc(cfg->n_out, sizeof *out->out);
    out->in = calloc(cfg->n_in, sizeof *out->in);
    if (!in->in || !in->out || !out->out || !out->in) {
        gm_router_ports_free(in, out);
        return gm_fail(err, "out of memory");
    }
    return 0;
}

void gm_router_ports_free(gm_router_in *in, gm_router_out *out)
{
    free(in->in);
    free(in->out);
    free(out->out);
    free(out->in);
    *in = (gm_router_in){0};
    *out = (gm_router_out){0};
}

static inline uint32_t out_slot(const gm_router *r)
{
    return (r->pipe_base + r->cfg.stages - 1) % r->cfg.stages;
}

void gm_router_eval(const gm_router *r, gm_router_out *out)
{
    /* Invalid registers hold all-zero fields, so copying is the output. */
    memcpy(out->out, r->pipe + (size_t)out_slot(r) * r->cfg.n_out,
           r->cfg.n_out * sizeof *out->out);
    memcpy(out->in, r->credit, r->cfg.n_in * sizeof *out->in);
}

static const gm_router_entry *front(const gm_router *r, uint32_t iv)
{
    return &r->buf[(size_t)iv * r->cfg.depth + r->buf_rd[iv]];
}

/* ---- Step 1: requests, from the registers ---- */

/* One pass over the inputs that hold flits. A VC whose front packet has
 * no output VC asks VA for its destination port; a VC that has one asks
 * SA when that output VC has a credit (vc_can_send), so VCs waiting for
 * credits are not visited. */
static void collect_requests(gm_router *r)
{
    const uint32_t v = r->cfg.vcs;
    clear_words(r->va_port_mask, r->w_out);
    r->n_sa_inputs = 0;
    for (uint32_t w = 0; w < r->w_in; w++) {
        for (uint64_t bits = r->in_busy[w]; bits; bits &= bits - 1) {
            uint32_t i = w * 64 + ctz64(bits);
            uint64_t nonempty = r->vc_nonempty[i];
            for (uint64_t vb = nonempty & ~r->vc_has_ovc[i]; vb; vb &= vb - 1) {
                uint32_t iv = i * v + ctz64(vb);
                const gm_router_entry *e = front(r, iv);
                assert(e->head_tail & HEAD); /* wormhole protocol */
                uint32_t p = e->dest;
                if (!(~r->ovc_busy[p] & vc_mask(v)))
                    continue; /* no free output VC: VA cannot grant */
                uint64_t *col = r->va_req + (size_t)p * r->w_iv;
                if (!gm_bit_test(r->va_port_mask, p)) {
                    gm_bit_set(r->va_port_mask, p);
                    clear_words(col, r->w_iv);
                }
                gm_bit_set(col, iv);
            }
            uint64_t elig = nonempty & r->vc_can_send[i];
            if (elig) {
                r->sa_elig[i] = elig;
                r->sa_inputs[r->n_sa_inputs++] = (uint16_t)i;
            }
        }
    }
}

/* ---- Step 2: VC allocation ---- */

/* The VA iSLIP of output port p: requesters are all input VCs (only those
 * routed to p request), resources are the vcs output VCs of p. Every
 * requester asks for every free output VC of the port. */
static gm_islip va_view(const gm_router *r, uint32_t p)
{
    return (gm_islip){
        .n_req = r->cfg.n_in * r->cfg.vcs,
        .n_res = r->cfg.vcs,
        .iters = r->cfg.iters,
        .grant_ptr = r->va_grant_ptr + (size_t)p * r->cfg.vcs,
        .accept_ptr = r->va_accept_ptr,
    };
}

/* The one input VC in the request set col, or GM_ISLIP_NONE when more
 * than one asks. */
static uint32_t sole_requester(const uint64_t *col, uint32_t words)
{
    uint32_t found = GM_ISLIP_NONE;
    for (uint32_t w = 0; w < words; w++) {
        if (!col[w])
            continue;
        if (found != GM_ISLIP_NONE || (col[w] & (col[w] - 1)))
            return GM_ISLIP_NONE;
        found = w * 64 + ctz64(col[w]);
    }
    return found;
}

static void allocate_vcs(gm_router *r)
{
    const uint32_t v = r->cfg.vcs, w_iv = r->w_iv;
    r->n_va_grants = 0;
    for (uint32_t w = 0; w < r->w_out; w++) {
        for (uint64_t bits = r->va_port_mask[w]; bits; bits &= bits - 1) {
            uint32_t p = w * 64 + ctz64(bits);
            uint64_t free_vcs = ~r->ovc_busy[p] & vc_mask(v);
            const uint64_t *col = r->va_req + (size_t)p * w_iv;
            /* One input VC asking: every free VC grants it, and it
             * accepts the first at or after its accept pointer, in
             * iteration 0 (what gm_islip_alloc gives). */
            uint32_t sole = sole_requester(col, w_iv);
            if (sole != GM_ISLIP_NONE) {
                uint32_t k = gm_rr_search_word(free_vcs, r->va_accept_ptr[sole]);
                r->va_grants[r->n_va_grants++] = (gm_router_va_grant){
                    .in_vc = (uint16_t)sole, .out_vc = (uint16_t)(p * v + k), .iter = 0,
                };
                continue;
            }
            /* Only the free VCs' columns are filled: the hint keeps the
             * allocator off the others, whose columns would be empty. */
            for (uint64_t fb = free_vcs; fb; fb &= fb - 1)
                copy_words(r->va_cols + (size_t)ctz64(fb) * w_iv, col, w_iv);
            gm_islip view = va_view(r, p);
            view.res_hint = &free_vcs;
            uint32_t n = gm_islip_alloc(&view, r->va_cols, r->va_tmp);
            for (uint32_t k = 0; k < n; k++)
                r->va_grants[r->n_va_grants++] = (gm_router_va_grant){
                    .in_vc = r->va_tmp[k].req,
                    .out_vc = (uint16_t)(p * v + r->va_tmp[k].res),
                    .iter = r->va_tmp[k].iter,
                };
        }
    }
}

/* ---- Step 3: switch allocation ---- */

/* Each requesting input picks one VC with its round-robin arbiter; that
 * VC's output port is the input's single request to the iSLIP over
 * inputs x outputs. With one request per input the accept step has
 * nothing to choose: every grant is accepted in the first iteration, and
 * a later iteration finds no unmatched input asking for an unmatched
 * output. So the matching is the grant arbiter of each requested output,
 * in increasing output order, all in iteration 0: what gm_islip_alloc
 * returns for these requests (architecture.md, "Exact shortcuts"). */
static void allocate_switch(gm_router *r)
{
    const uint32_t v = r->cfg.vcs, w_in = r->w_in;
    r->n_sa_grants = 0;
    if (r->n_sa_inputs == 0)
        return;
    for (uint32_t k = 0; k < r->n_sa_inputs; k++) {
        uint32_t i = r->sa_inputs[k];
        uint32_t vc = gm_rr_grant(&r->vc_arb[i], &r->sa_elig[i]);
        uint32_t o = r->ivc_oport[i * v + vc];
        r->sa_vc[i] = (uint8_t)vc;
        gm_bit_set(r->sa_req + (size_t)o * w_in, i);
        gm_bit_set(r->sa_out_mask, o);
    }
    for (uint32_t w = 0; w < r->w_out; w++) {
        for (uint64_t bits = r->sa_out_mask[w]; bits; bits &= bits - 1) {
            uint32_t o = w * 64 + ctz64(bits);
            uint64_t *col = r->sa_req + (size_t)o * w_in;
            uint32_t i = w_in == 1 ? gm_rr_search_word(col[0], r->sa_grant_ptr[o])
                                   : gm_rr_search(col, r->cfg.n_in, r->sa_grant_ptr[o]);
            clear_words(col, w_in); /* zero again for the next tick */
            r->sa_grants[r->n_sa_grants++] = (gm_router_sa_grant){
                .in = (uint16_t)i, .out = (uint16_t)o, .vc = r->sa_vc[i], .iter = 0,
            };
        }
        r->sa_out_mask[w] = 0;
    }
}

/* ---- Step 4: commit ---- */

/* Shift the output stages by one: the slot that was the last stage (seen
 * downstream during the cycle that ends now) becomes the empty stage 0. */
static void shift_pipeline(gm_router *r)
{
    const uint32_t m = r->cfg.n_out;
    uint32_t slot = out_slot(r);
    uint64_t *mask = r->pipe_mask + (size_t)slot * r->w_out;
    gm_router_flit *stage = r->pipe + (size_t)slot * m;
    for (uint32_t w = 0; w < r->w_out; w++) {
        for (uint64_t bits = mask[w]; bits; bits &= bits - 1) {
            stage[w * 64 + ctz64(bits)] = (gm_router_flit){0};
            r->flits_in_pipe--;
        }
        mask[w] = 0;
    }
    r->pipe_base = slot; /* (base + s - 1) % s: old last stage is stage 0 */
}

static void clear_credit_outputs(gm_router *r)
{
    for (uint32_t w = 0; w < r->w_in; w++) {
        for (uint64_t bits = r->credit_mask[w]; bits; bits &= bits - 1)
            r->credit[w * 64 + ctz64(bits)] = (gm_router_credit){0};
        r->credit_mask[w] = 0;
    }
    r->credits_out = 0;
}

static gm_router_entry pop_flit(gm_router *r, uint32_t i, uint32_t vc)
{
    uint32_t iv = i * r->cfg.vcs + vc;
    gm_router_entry e = *front(r, iv);
    assert(r->buf_count[iv] > 0);
    r->buf_rd[iv] = (uint16_t)((r->buf_rd[iv] + 1u) % r->cfg.depth);
    if (--r->buf_count[iv] == 0) {
        r->vc_nonempty[i] &= ~(1ull << vc);
        if (!r->vc_nonempty[i])
            gm_bit_clear(r->in_busy, i);
    }
    r->flits_buffered--;
    return e;
}

static void commit_switch(gm_router *r)
{
    const uint32_t v = r->cfg.vcs;
    gm_router_flit *stage0 = r->pipe + (size_t)r->pipe_base * r->cfg.n_out;
    uint64_t *mask0 = r->pipe_mask + (size_t)r->pipe_base * r->w_out;
    for (uint32_t k = 0; k < r->n_sa_grants; k++) {
        const gm_router_sa_grant *g = &r->sa_grants[k];
        uint32_t iv = g->in * v + g->vc;
        uint32_t ovc = r->ivc_ovc[iv];
        gm_router_entry e = pop_flit(r, g->in, g->vc);
        assert(r->ovc_credit[g->out * v + ovc] > 0);
        if (--r->ovc_credit[g->out * v + ovc] == 0)
            r->vc_can_send[g->in] &= ~(1ull << g->vc);
        stage0[g->out] = (gm_router_flit){
            .flit_valid = 1,
            .flit_vc = (uint8_t)ovc,
            .flit_head = e.head_tail & HEAD,
            .flit_tail = (e.head_tail & TAIL) != 0,
            .flit_dest = e.dest,
            .flit_seq = e.seq,
            .flit_payload = e.payload,
        };
        gm_bit_set(mask0, g->out);
        r->flits_in_pipe++;
        r->credit[g->in] = (gm_router_credit){1, g->vc};
        gm_bit_set(r->credit_mask, g->in);
        r->credits_out++;
        if (e.head_tail & TAIL) {
            /* The tail leaves: the output VC is free for the next packet
             * and the input VC's next packet must allocate again. */
            r->ovc_busy[g->out] &= ~(1ull << ovc);
            r->ivc_has_ovc[iv] = 0;
            r->vc_has_ovc[g->in] &= ~(1ull << g->vc);
            r->vc_can_send[g->in] &= ~(1ull << g->vc);
        }
    }
    /* The VC arbiter of an input advances only when that input won the
     * switch (its choice was granted and accepted) and moves one past the
     * VC it chose; iSLIP pointers follow THE RULE (every match is of
     * iteration 0, see allocate_switch). */
    for (uint32_t k = 0; k < r->n_sa_grants; k++) {
        const gm_router_sa_grant *g = &r->sa_grants[k];
        r->vc_arb[g->in].ptr = (uint16_t)((g->vc + 1u) % v);
        r->sa_grant_ptr[g->out] = (uint16_t)((g->in + 1u) % r->cfg.n_in);
        r->sa_accept_ptr[g->in] = (uint16_t)((g->out + 1u) % r->cfg.n_out);
    }
    r->sa_grant_count += r->n_sa_grants;
}

static void commit_vcs(gm_router *r)
{
    const uint32_t v = r->cfg.vcs;
    for (uint32_t k = 0; k < r->n_va_grants; k++) {
        const gm_router_va_grant *g = &r->va_grants[k];
        uint32_t p = g->out_vc / v, ovc = g->out_vc % v;
        assert(!(r->ovc_busy[p] >> ovc & 1));
        uint32_t i = g->in_vc / v;
        uint64_t bit = 1ull << (g->in_vc % v);
        r->ivc_has_ovc[g->in_vc] = 1;
        r->ivc_oport[g->in_vc] = (uint16_t)p;
        r->ivc_ovc[g->in_vc] = (uint8_t)ovc;
        r->ovc_busy[p] |= 1ull << ovc;
        r->ovc_holder[g->out_vc] = g->in_vc;
        r->vc_has_ovc[i] |= bit;
        if (r->ovc_credit[g->out_vc])
            r->vc_can_send[i] |= bit;
        /* THE RULE of the per-port iSLIP (gm_islip_update, inline). */
        if (g->iter == 0) {
            r->va_grant_ptr[g->out_vc] = (uint16_t)((g->in_vc + 1u) % (r->cfg.n_in * v));
            r->va_accept_ptr[g->in_vc] = (uint16_t)((ovc + 1u) % v);
        }
    }
    r->va_grant_count += r->n_va_grants;
}

static void take_credits(gm_router *r, const gm_router_in *in)
{
    const uint32_t v = r->cfg.vcs;
    for (uint32_t o = 0; o < r->cfg.n_out; o++) {
        const gm_router_credit *c = &in->out[o];
        if (!c->credit_valid)
            continue;
        assert(c->credit_vc < v);
        uint16_t *cr = &r->ovc_credit[o * v + c->credit_vc];
        assert(*cr < r->cfg.depth); /* downstream returned more than it got */
        if ((*cr)++ == 0 && (r->ovc_busy[o] >> c->credit_vc & 1)) {
            uint32_t iv = r->ovc_holder[o * v + c->credit_vc];
            r->vc_can_send[iv / v] |= 1ull << (iv % v);
        }
    }
}

static void take_flits(gm_router *r, const gm_router_in *in)
{
    const uint32_t v = r->cfg.vcs, d = r->cfg.depth;
    for (uint32_t i = 0; i < r->cfg.n_in; i++) {
        const gm_router_flit *f = &in->in[i];
        if (!f->flit_valid)
            continue;
        assert(f->flit_vc < v);
        assert(!f->flit_head || f->flit_dest < r->cfg.n_out);
        uint32_t iv = i * v + f->flit_vc;
        assert(r->buf_count[iv] < d); /* upstream sent without a credit */
        uint32_t wr = (r->buf_rd[iv] + r->buf_count[iv]) % d;
        r->buf[(size_t)iv * d + wr] = (gm_router_entry){
            .payload = f->flit_payload,
            .dest = f->flit_dest,
            .seq = f->flit_seq,
            .head_tail = (uint8_t)((f->flit_head ? HEAD : 0) |
                                   (f->flit_tail ? TAIL : 0)),
        };
        r->buf_count[iv]++;
        r->vc_nonempty[i] |= 1ull << f->flit_vc;
        gm_bit_set(r->in_busy, i);
        r->flits_buffered++;
    }
}

static bool inputs_active(const gm_router *r, const gm_router_in *in)
{
    for (uint32_t i = 0; i < r->cfg.n_in; i++)
        if (in->in[i].flit_valid)
            return true;
    for (uint32_t o = 0; o < r->cfg.n_out; o++)
        if (in->out[o].credit_valid)
            return true;
    return false;
}

void gm_router_tick(gm_router *r, const gm_router_in *in)
{
    if (gm_router_idle(r) && !inputs_active(r, in)) {
        r->n_va_grants = 0;
        r->n_sa_grants = 0;
        return;
    }
    r->ticks_active++;
    /* Decisions, all from the registers as they were before this edge. */
    collect_requests(r);
    allocate_vcs(r);
    allocate_switch(r);
    /* Next state. Every step writes registers the others do not read. */
    shift_pipeline(r);
    clear_credit_outputs(r);
    commit_switch(r);
    commit_vcs(r);
    take_credits(r, in);
    take_flits(r, in);
}

int gm_router_check_drained(const gm_router *r, gm_error *err)
{
    const uint32_t v = r->cfg.vcs;
    if (r->flits_buffered)
        return gm_fail(err, "router holds %u flits in input buffers",
                       r->flits_buffered);
    if (r->flits_in_pipe)
        return gm_fail(err, "router holds %u flits in output registers",
                       r->flits_in_pipe);
    if (r->credits_out)
        return gm_fail(err, "router still returns %u credits", r->credits_out);
    for (uint32_t iv = 0; iv < r->cfg.n_in * v; iv++)
        if (r->ivc_has_ovc[iv])
            return gm_fail(err, "router input %u VC %u still holds output %u VC %u",
                           iv / v, iv % v, r->ivc_oport[iv], r->ivc_ovc[iv]);
    for (uint32_t o = 0; o < r->cfg.n_out; o++) {
        if (r->ovc_busy[o])
            return gm_fail(err, "router output %u VCs 0x%llx still held", o,
                           (unsigned long long)r->ovc_busy[o]);
        for (uint32_t k = 0; k < v; k++)
            if (r->ovc_credit[o * v + k] != r->cfg.depth)
                return gm_fail(err, "router output %u VC %u has %u of %u credits",
                               o, k, r->ovc_credit[o * v + k], r->cfg.depth);
    }
    return 0;
}

void gm_router_foreach_flit(const gm_router *r,
                            void (*fn)(void *arg, gm_router_site site,
                                       uint32_t port, uint32_t index,
                                       const gm_router_flit *f),
                            void *arg)
{
    const uint32_t v = r->cfg.vcs, d = r->cfg.depth;
    for (uint32_t i = 0; i < r->cfg.n_in; i++) {
        for (uint32_t vc = 0; vc < v; vc++) {
            uint32_t iv = i * v + vc;
            for (uint32_t k = 0; k < r->buf_count[iv]; k++) {
                const gm_router_entry *e =
                    &r->buf[(size_t)iv * d + (r->buf_rd[iv] + k) % d];
                gm_router_flit f = {
                    .flit_valid = 1,
                    .flit_vc = (uint8_t)vc,
                    .flit_head = e->head_tail & HEAD,
                    .flit_tail = (e->head_tail & TAIL) != 0,
                    .flit_dest = e->dest,
                    .flit_seq = e->seq,
                    .flit_payload = e->payload,
                };
                fn(arg, GM_ROUTER_SITE_INPUT, i, vc, &f);
            }
        }
    }
    for (uint32_t s = 0; s < r->cfg.stages; s++) {
        uint32_t slot = (r->pipe_base + s) % r->cfg.stages;
        for (uint32_t o = 0; o < r->cfg.n_out; o++) {
            const gm_router_flit *f = &r->pipe[(size_t)slot * r->cfg.n_out + o];
            if (f->flit_valid)
                fn(arg, GM_ROUTER_SITE_OUTPUT, o, s, f);
        }
    }
}
