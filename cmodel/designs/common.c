#include "designs/common.h"

#include <stdlib.h>

#include "system/system.h"

void gm_l1d_port_cycle(void *l1, gm_time now)
{
    gm_l1d_tick(l1, now);
}

gm_req *gm_l1d_port_pop_reply(void *l1, gm_time now)
{
    return gm_l1d_pop_done(l1, now);
}

/* One check, counted when it refuses: a refused LD/ST head is offered
 * again every cycle, so asking twice (can_access, then count_refusal)
 * doubled the cost of the most frequent call of a stalled core. */
bool gm_l1d_port_offer(void *l1, const gm_req *probe, gm_time now)
{
    return gm_l1d_offer(l1, probe, now);
}

void gm_l1d_port_accept(void *l1, gm_req *r, gm_time now)
{
    gm_l1d_access(l1, r, now);
}

bool gm_l1d_port_busy(const void *l1)
{
    return gm_l1d_busy(l1);
}

const gm_core_port_ops gm_l1d_core_port = {
    .cycle = gm_l1d_port_cycle,
    .pop_reply = gm_l1d_port_pop_reply,
    .offer = gm_l1d_port_offer,
    .accept = gm_l1d_port_accept,
    .busy = gm_l1d_port_busy,
};

uint32_t gm_dest_slice(const gm_req *r, void *ctx)
{
    (void)ctx;
    return r->slice;
}

uint32_t gm_dest_core(const gm_req *r, void *ctx)
{
    (void)ctx;
    return r->src;
}

int gm_core_l2_ports_init(gm_core_l2_ports *p, const gm_system *s, gm_link *core_req,
                          gm_link *core_rep, gm_error *err)
{
    uint32_t nc = s->ncores, ns = s->nslices;
    p->block = calloc(2 * ((size_t)nc + ns), sizeof *p->block);
    if (!p->block)
        return gm_fail(err, "out of memory");
    p->req.in = p->block;
    p->req.out = p->req.in + nc;
    p->rep.in = p->req.out + ns;
    p->rep.out = p->rep.in + ns;
    for (uint32_t i = 0; i < nc; i++) {
        p->req.in[i] = &core_req[i];
        p->rep.out[i] = &core_rep[i];
    }
    for (uint32_t j = 0; j < ns; j++) {
        p->req.out[j] = &s->l2_in[j];
        p->rep.in[j] = &s->l2_out[j];
    }
    return 0;
}

void gm_core_l2_ports_free(gm_core_l2_ports *p)
{
    free(p->block);
    p->block = NULL;
}
