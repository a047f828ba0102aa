/* Ring stop: the rules are in ringstop.h and docs/noc.md section 10. */
#include "noc/ringstop.h"

#include <stdlib.h>

int gm_ringstop_init(gm_ringstop *s, uint32_t depth, gm_error *err)
{
    *s = (gm_ringstop){0};
    if (depth < 2 || depth > GM_RINGSTOP_MAX_DEPTH)
        return gm_fail(err, "ring stop depth %u outside 2..%u", depth,
                       GM_RINGSTOP_MAX_DEPTH);
    s->buf = calloc(depth, sizeof *s->buf);
    if (!s->buf)
        return gm_fail(err, "out of memory");
    s->depth = depth;
    s->credits = depth;
    return 0;
}

void gm_ringstop_free(gm_ringstop *s)
{
    free(s->buf);
    *s = (gm_ringstop){0};
}

static const gm_ringstop_pkt *buf_head(const gm_ringstop *s)
{
    return s->count ? &s->buf[s->head] : 0;
}

static void buf_pop(gm_ringstop *s)
{
    s->head = s->head + 1 == s->depth ? 0 : s->head + 1;
    s->count--;
}

static void buf_push(gm_ringstop *s, gm_ringstop_pkt p)
{
    uint32_t tail = (s->head + s->count) % s->depth;
    s->buf[tail] = p;
    s->count++;
}

void gm_ringstop_eval(const gm_ringstop *s, gm_ringstop_out *out)
{
    *out = (gm_ringstop_out){0};
    if (s->out_valid && s->out_left == 0) {
        out->ring_out_valid = 1;
        out->ring_out_flits = s->out.flits;
        out->ring_out_payload = s->out.payload;
    }
    out->ring_in_credit = s->credit_q;
    const gm_ringstop_pkt *h = buf_head(s);
    if (h && h->dest == GM_RINGSTOP_EJECT) {
        out->ej_valid = 1;
        out->ej_payload = h->payload;
    }
}

static void load_out(gm_ringstop *s, gm_ringstop_pkt p)
{
    s->out_valid = true;
    s->out = p;
    s->out_left = p.flits ? p.flits - 1u : 0;
    s->credits--;
}

/* The output register after this edge's send: free when empty or when its
 * tail leaves now. */
static bool out_free_after_send(gm_ringstop *s)
{
    if (s->out_valid && s->out_left == 0)
        s->out_valid = false;
    else if (s->out_valid)
        s->out_left--;
    return !s->out_valid;
}

void gm_ringstop_tick(gm_ringstop *s, const gm_ringstop_in *in)
{
    bool freed = false;
    s->inj_taken = false;
    s->credits += in->ring_out_credit;
    bool was_empty = s->count == 0;
    const gm_ringstop_pkt *h = buf_head(s);
    if (h && h->dest == GM_RINGSTOP_EJECT && in->ej_ready) {
        buf_pop(s);
        freed = true;
        h = 0;
    }
    gm_ringstop_pkt arr = {in->ring_in_payload, in->ring_in_dest, in->ring_in_flits};
    bool arriving = in->ring_in_valid;
    if (out_free_after_send(s) && s->credits > 0) {
        if (h && h->dest == GM_RINGSTOP_PASS) {
            load_out(s, *h);
            buf_pop(s);
            freed = true;
        } else if (was_empty && arriving && arr.dest == GM_RINGSTOP_PASS) {
            load_out(s, arr);
            arriving = false;
            freed = true;
        } else if (in->inj_valid && in->inj_dest == GM_RINGSTOP_PASS &&
                   s->credits >= 2) {
            load_out(s, (gm_ringstop_pkt){in->inj_payload, GM_RINGSTOP_PASS,
                                          in->inj_flits});
            s->inj_taken = true;
        }
    }
    if (arriving && s->count == s->depth)
        s->protocol_errors++;   /* sent without a credit: dropped, and reported */
    else if (arriving)
        buf_push(s, arr);
    s->credit_q = freed;
}

bool gm_ringstop_idle(const gm_ringstop *s)
{
    return !s->count && !s->out_valid && !s->credit_q && s->credits == s->depth;
}

void gm_ringstop_foreach(const gm_ringstop *s,
                         void (*fn)(void *arg, uint32_t slot, const gm_ringstop_pkt *p),
                         void *arg)
{
    for (uint32_t k = 0; k < s->count; k++)
        fn(arg, k, &s->buf[(s->head + k) % s->depth]);
    if (s->out_valid)
        fn(arg, s->depth, &s->out);
}
