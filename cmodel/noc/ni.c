#include "noc/ni.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- packet table ---- */

static int pkts_grow(gm_noc_pkts *t, uint32_t cap)
{
    gm_noc_pkt *p = realloc(t->pkt, (size_t)cap * sizeof *p);
    if (!p)
        return -1;
    t->pkt = p;
    uint32_t *f = realloc(t->free, (size_t)cap * sizeof *f);
    if (!f)
        return -1;
    t->free = f;
    memset(t->pkt + t->cap, 0, (size_t)(cap - t->cap) * sizeof *p);
    /* Push the new handles so the lowest comes out first. */
    for (uint32_t h = cap; h-- > t->cap;)
        t->free[t->n_free++] = h;
    t->cap = cap;
    return 0;
}

int gm_noc_pkts_init(gm_noc_pkts *t, uint32_t cap, gm_error *err)
{
    *t = (gm_noc_pkts){0};
    if (pkts_grow(t, cap ? cap : 1) != 0) {
        gm_noc_pkts_free(t);
        return gm_fail(err, "out of memory");
    }
    return 0;
}

void gm_noc_pkts_free(gm_noc_pkts *t)
{
    free(t->pkt);
    free(t->free);
    *t = (gm_noc_pkts){0};
}

uint32_t gm_noc_pkts_alloc(gm_noc_pkts *t)
{
    if (t->n_free == 0) {
        if (t->cap > UINT32_MAX / 2 || pkts_grow(t, t->cap * 2) != 0)
            return UINT32_MAX;
    }
    t->live++;
    return t->free[--t->n_free];
}

void gm_noc_pkts_release(gm_noc_pkts *t, uint32_t handle)
{
    assert(handle < t->cap && t->pkt[handle].req);
    t->pkt[handle] = (gm_noc_pkt){0};
    t->free[t->n_free++] = handle;
    t->live--;
}

/* ---- injection NI ---- */

int gm_ni_inject_init(gm_ni_inject *ni, uint32_t vcs, uint32_t depth,
                      uint32_t queue, uint32_t n_dest, gm_error *err)
{
    *ni = (gm_ni_inject){0};
    if (vcs < 1 || vcs > GM_ROUTER_MAX_VCS || depth < 1 ||
        depth > GM_ROUTER_MAX_DEPTH || queue < 1 || n_dest < 1)
        return gm_fail(err, "bad injection NI parameters (vcs %u depth %u queue %u)",
                       vcs, depth, queue);
    ni->vcs = vcs;
    ni->depth = depth;
    ni->n_dest = n_dest;
    ni->q_cap = queue;
    ni->q = calloc(queue, sizeof *ni->q);
    ni->dest_pending = calloc(n_dest, sizeof *ni->dest_pending);
    ni->dest_vc = calloc(n_dest, sizeof *ni->dest_vc);
    ni->unc_dest = calloc((size_t)vcs * depth, sizeof *ni->unc_dest);
    ni->unc_head = calloc(vcs, sizeof *ni->unc_head);
    ni->unc_count = calloc(vcs, sizeof *ni->unc_count);
    if (!ni->q || !ni->dest_pending || !ni->dest_vc || !ni->unc_dest ||
        !ni->unc_head || !ni->unc_count) {
        gm_ni_inject_free(ni);
        return gm_fail(err, "out of memory");
    }
    for (uint32_t k = 0; k < vcs; k++)
        ni->credit[k] = (uint16_t)depth;
    return 0;
}

void gm_ni_inject_free(gm_ni_inject *ni)
{
    free(ni->q);
    free(ni->dest_pending);
    free(ni->dest_vc);
    free(ni->unc_dest);
    free(ni->unc_head);
    free(ni->unc_count);
    *ni = (gm_ni_inject){0};
}

void gm_ni_inject_push(gm_ni_inject *ni, uint32_t handle, uint32_t dest,
                       uint32_t flits)
{
    assert(ni->q_count < ni->q_cap && dest < ni->n_dest && flits >= 1);
    ni->q[(ni->q_head + ni->q_count) % ni->q_cap] =
        (gm_ni_pkt){.handle = handle, .dest = dest, .flits = flits};
    ni->q_count++;
}

/* VC of the next flit, or GM_ISLIP_NONE when it may not be sent:
 * - a packet already started continues on its VC;
 * - a new packet whose destination still has uncredited flits from this
 *   NI must follow them on their VC (keeps per-destination order);
 * - otherwise round robin from vc_ptr over VCs with a credit. */
static uint32_t next_vc(const gm_ni_inject *ni, const gm_ni_pkt *p)
{
    uint32_t vc;
    if (ni->sent > 0)
        vc = ni->cur_vc;
    else if (ni->dest_pending[p->dest] > 0)
        vc = ni->dest_vc[p->dest];
    else {
        uint64_t have = 0;
        for (uint32_t k = 0; k < ni->vcs; k++)
            if (ni->credit[k])
                have |= 1ull << k;
        return gm_rr_search(&have, ni->vcs, ni->vc_ptr);
    }
    return ni->credit[vc] ? vc : GM_ISLIP_NONE;
}

void gm_ni_inject_eval(const gm_ni_inject *ni, gm_router_flit *out)
{
    *out = (gm_router_flit){0};
    if (!gm_ni_inject_may_send(ni))
        return;
    const gm_ni_pkt *p = &ni->q[ni->q_head];
    uint32_t vc = next_vc(ni, p);
    if (vc == GM_ISLIP_NONE)
        return;
    *out = (gm_router_flit){
        .flit_valid = 1,
        .flit_vc = (uint8_t)vc,
        .flit_head = ni->sent == 0,
        .flit_tail = ni->sent + 1 == p->flits,
        .flit_dest = (uint16_t)p->dest,
        .flit_seq = (uint8_t)ni->sent,
        .flit_payload = p->handle,
    };
}

void gm_ni_inject_move(gm_ni_inject *ni, const gm_router_flit *sent,
                       const gm_router_credit *credit)
{
    const gm_router_flit f = *sent;
    if (f.flit_valid) {
        uint32_t vc = f.flit_vc, dest = f.flit_dest;
        assert(ni->credit[vc] > 0 && ni->unc_count[vc] < ni->depth);
        ni->credit[vc]--;
        ni->unc_dest[vc * ni->depth + (ni->unc_head[vc] + ni->unc_count[vc]) % ni->depth] = dest;
        ni->unc_count[vc]++;
        ni->uncredited++;
        ni->dest_pending[dest]++;
        ni->dest_vc[dest] = (uint8_t)vc;
        if (f.flit_head) {
            ni->cur_vc = (uint8_t)vc;
            ni->vc_ptr = (uint8_t)((vc + 1) % ni->vcs);
        }
        ni->flits_sent++;
        if (f.flit_tail) {
            ni->q_head = (ni->q_head + 1) % ni->q_cap;
            ni->q_count--;
            ni->sent = 0;
        } else {
            ni->sent++;
        }
    } else if (ni->q_count) {
        ni->stall_cycles++;
    }
    ni->blocked = false; /* a flit was sent or a credit came */
    if (credit && credit->credit_valid) {
        uint32_t vc = credit->credit_vc;
        assert(vc < ni->vcs && ni->unc_count[vc] > 0);
        uint32_t dest = ni->unc_dest[vc * ni->depth + ni->unc_head[vc]];
        ni->unc_head[vc] = (uint16_t)((ni->unc_head[vc] + 1u) % ni->depth);
        ni->unc_count[vc]--;
        ni->uncredited--;
        ni->dest_pending[dest]--;
        ni->credit[vc]++;
    }
}

/* ---- ejection NI ---- */

int gm_ni_eject_init(gm_ni_eject *ni, uint32_t vcs, uint32_t depth,
                     uint32_t queue, gm_error *err)
{
    *ni = (gm_ni_eject){0};
    if (vcs < 1 || vcs > GM_ROUTER_MAX_VCS || depth < 1 ||
        depth > GM_ROUTER_MAX_DEPTH || queue < 1)
        return gm_fail(err, "bad ejection NI parameters (vcs %u depth %u queue %u)",
                       vcs, depth, queue);
    ni->vcs = vcs;
    ni->depth = depth;
    ni->q_cap = queue;
    ni->fifo = calloc((size_t)vcs * depth, sizeof *ni->fifo);
    ni->vc_count = calloc(vcs, sizeof *ni->vc_count);
    ni->asm_open = calloc(vcs, 1);
    ni->asm_handle = calloc(vcs, sizeof *ni->asm_handle);
    ni->asm_seq = calloc(vcs, 1);
    ni->q = calloc(queue, sizeof *ni->q);
    if (!ni->fifo || !ni->vc_count || !ni->asm_open || !ni->asm_handle ||
        !ni->asm_seq || !ni->q) {
        gm_ni_eject_free(ni);
        return gm_fail(err, "out of memory");
    }
    return 0;
}

void gm_ni_eject_free(gm_ni_eject *ni)
{
    free(ni->fifo);
    free(ni->vc_count);
    free(ni->asm_open);
    free(ni->asm_handle);
    free(ni->asm_seq);
    free(ni->q);
    *ni = (gm_ni_eject){0};
}

/* Reassembly of one drained flit on its VC. Packets never interleave on a
 * VC, so one open packet per VC is enough. */
static void reassemble(gm_ni_eject *ni, const gm_router_flit *f)
{
    uint32_t vc = f->flit_vc;
    if (f->flit_head) {
        if (ni->asm_open[vc] || f->flit_seq != 0)
            ni->protocol_errors++;
        ni->asm_open[vc] = 1;
        ni->asm_handle[vc] = f->flit_payload;
        ni->asm_seq[vc] = 0;
    } else if (!ni->asm_open[vc] || ni->asm_handle[vc] != f->flit_payload ||
               ni->asm_seq[vc] != f->flit_seq) {
        ni->protocol_errors++;
    }
    ni->asm_seq[vc] = (uint8_t)(f->flit_seq + 1u);
    if (f->flit_tail) {
        ni->asm_open[vc] = 0;
        ni->q[(ni->q_head + ni->q_count) % ni->q_cap] = f->flit_payload;
        ni->q_count++;
    }
}

void gm_ni_eject_tick(gm_ni_eject *ni, const gm_router_flit *in)
{
    const uint32_t cap = ni->vcs * ni->depth;
    ni->credit = (gm_router_credit){0};
    if (ni->f_count > 0) {
        const gm_router_flit *f = &ni->fifo[ni->f_head];
        if (!f->flit_tail || ni->q_count < ni->q_cap) {
            gm_router_flit flit = *f;
            ni->f_head = (ni->f_head + 1) % cap;
            ni->f_count--;
            ni->vc_count[flit.flit_vc]--;
            reassemble(ni, &flit);
            ni->credit = (gm_router_credit){1, flit.flit_vc};
        }
    }
    if (in && in->flit_valid) {
        if (in->flit_vc >= ni->vcs || ni->vc_count[in->flit_vc] >= ni->depth) {
            ni->protocol_errors++; /* the router ignored our credits */
            return;
        }
        ni->fifo[(ni->f_head + ni->f_count) % cap] = *in;
        ni->f_count++;
        ni->vc_count[in->flit_vc]++;
        ni->flits_received++;
    }
}

void gm_ni_eject_pop(gm_ni_eject *ni)
{
    assert(ni->q_count > 0);
    ni->q_head = (ni->q_head + 1) % ni->q_cap;
    ni->q_count--;
}
