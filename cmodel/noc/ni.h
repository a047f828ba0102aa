/* Network interfaces: the flit-level ends of a network, reusable by every
 * topology built from gm_router (docs/noc.md section 6).
 *
 * - gm_noc_pkts maps the 32-bit flit payload (packet handle) to the gm_req
 *   it carries.
 * - gm_ni_inject turns queued packets into flits for one router input,
 *   with per-VC credit counters for that input's buffers.
 * - gm_ni_eject is the downstream of one router output: vcs x depth flit
 *   slots, drained one flit per cycle in arrival order, reassembly, a
 *   queue of completed packets, one credit per drained flit.
 *
 * Both follow the block contract: *_eval gives the Moore outputs towards
 * the router from the registers, *_tick is the clock edge. Neither knows
 * about links or gm_req; the network (net.c) does that glue. */
#ifndef GM_NOC_NI_H
#define GM_NOC_NI_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "noc/router.h"
#include "sim/error.h"
#include "sim/req.h"

/* Flits of a packet: ceil((header_bytes + payload) / flit_bytes), payload
 * being reply_bytes for a reply and req_bytes for a request. */
static inline uint32_t gm_noc_packet_flits(const gm_noc_cfg *c, const gm_req *r)
{
    uint32_t payload = r->is_reply ? r->reply_bytes : r->req_bytes;
    uint32_t bytes = c->header_bytes + payload;
    uint32_t f = (bytes + c->flit_bytes - 1) / c->flit_bytes;
    return f ? f : 1;
}

/* ---- packet table ---- */

typedef struct gm_noc_pkt {
    gm_req *req;        /* NULL when the entry is free */
    uint64_t t_enter;   /* network cycle the injection NI accepted it */
    uint32_t src;       /* injection port */
    uint32_t dst;       /* ejection port */
    uint32_t flits;
} gm_noc_pkt;

typedef struct gm_noc_pkts {
    gm_noc_pkt *pkt;    /* [cap], index = handle */
    uint32_t cap;
    uint32_t *free;     /* stack of free handles, lowest on top at start */
    uint32_t n_free;
    uint32_t live;      /* handles in use */
} gm_noc_pkts;

int gm_noc_pkts_init(gm_noc_pkts *t, uint32_t cap, gm_error *err);
void gm_noc_pkts_free(gm_noc_pkts *t);
/* Returns a free handle (growing the table when needed), or UINT32_MAX
 * when out of memory. Handles are reused last-freed-first. */
uint32_t gm_noc_pkts_alloc(gm_noc_pkts *t);
void gm_noc_pkts_release(gm_noc_pkts *t, uint32_t handle);

/* ---- injection NI ---- */

typedef struct gm_ni_pkt {
    uint32_t handle;
    uint32_t dest;      /* router output port */
    uint32_t flits;     /* >= 1 */
} gm_ni_pkt;

typedef struct gm_ni_inject {
    uint32_t vcs, depth, n_dest, q_cap;
    /* registers */
    gm_ni_pkt *q;               /* [q_cap] inject queue, packets */
    uint32_t q_head, q_count;
    uint32_t sent;              /* flits of the front packet already sent */
    uint8_t cur_vc;             /* VC of the front packet once its head is sent */
    uint8_t vc_ptr;             /* round-robin pointer for a new packet's VC */
    uint16_t credit[GM_ROUTER_MAX_VCS]; /* free slots of each router input VC */
    uint32_t *dest_pending;     /* [n_dest] flits to that dest not yet credited */
    uint8_t *dest_vc;           /* [n_dest] VC they were sent on */
    uint32_t *unc_dest;         /* [vcs*depth] per VC, dests of uncredited flits
                                   in send order (credits return in that order) */
    uint16_t *unc_head;         /* [vcs] */
    uint16_t *unc_count;        /* [vcs] = depth - credit[vc] */
    uint32_t uncredited;        /* sum of unc_count */
    /* derived, for speed only: the last edge had a packet queued, sent
     * nothing and took no credit, so the registers eval reads are as
     * they were and it would find no credit again */
    bool blocked;
    /* statistics */
    uint64_t flits_sent;
    uint64_t stall_cycles;      /* cycles with a packet queued and no flit sent */
} gm_ni_inject;

int gm_ni_inject_init(gm_ni_inject *ni, uint32_t vcs, uint32_t depth,
                      uint32_t queue, uint32_t n_dest, gm_error *err);
void gm_ni_inject_free(gm_ni_inject *ni);

static inline bool gm_ni_inject_has_room(const gm_ni_inject *ni)
{
    return ni->q_count < ni->q_cap;
}

/* No packet queued and every credit back. */
static inline bool gm_ni_inject_idle(const gm_ni_inject *ni)
{
    return ni->q_count == 0 && ni->uncredited == 0;
}

/* False when gm_ni_inject_eval gives no flit for certain: nothing is
 * queued, or the front packet still waits for a credit. */
static inline bool gm_ni_inject_may_send(const gm_ni_inject *ni)
{
    return ni->q_count && !ni->blocked;
}

/* Queues a packet (call only with room; dest < n_dest, flits >= 1). */
void gm_ni_inject_push(gm_ni_inject *ni, uint32_t handle, uint32_t dest,
                       uint32_t flits);
/* Moore output to the router input: the next flit, if it may be sent. */
void gm_ni_inject_eval(const gm_ni_inject *ni, gm_router_flit *out);
/* The edges at which a flit is sent or a credit taken (ni.c). */
void gm_ni_inject_move(gm_ni_inject *ni, const gm_router_flit *sent,
                       const gm_router_credit *credit);

/* Clock edge: `sent`, the flit gm_ni_inject_eval gave in this cycle
 * (handed back so it is not computed twice), is sent, the credit (from
 * the router's in_credit port) is taken. With neither, only the stall is
 * counted, inline: most edges of a busy network are of that kind. */
static inline void gm_ni_inject_tick(gm_ni_inject *ni, const gm_router_flit *sent,
                                     const gm_router_credit *credit)
{
    if (sent->flit_valid || (credit && credit->credit_valid)) {
        gm_ni_inject_move(ni, sent, credit);
        return;
    }
    /* A queued packet that sent nothing and got no credit stays blocked:
     * eval's inputs are unchanged (a push adds behind the front packet,
     * which eval never reads). */
    ni->blocked = ni->q_count != 0;
    ni->stall_cycles += ni->blocked;
}

/* ---- ejection NI ---- */

typedef struct gm_ni_eject {
    uint32_t vcs, depth, q_cap;
    /* registers */
    gm_router_flit *fifo;       /* [vcs*depth] flits in arrival order */
    uint32_t f_head, f_count;
    uint16_t *vc_count;         /* [vcs] flits held per VC, <= depth */
    uint8_t *asm_open;          /* [vcs] a packet is being reassembled */
    uint32_t *asm_handle;       /* [vcs] its handle */
    uint8_t *asm_seq;           /* [vcs] flit_seq expected next */
    uint32_t *q;                /* [q_cap] completed packets (handles) */
    uint32_t q_head, q_count;
    gm_router_credit credit;    /* credit register towards the router */
    /* statistics and checks */
    uint64_t flits_received;
    uint64_t protocol_errors;   /* overflow, seq gap, interleaving: must stay 0 */
} gm_ni_eject;

int gm_ni_eject_init(gm_ni_eject *ni, uint32_t vcs, uint32_t depth,
                     uint32_t queue, gm_error *err);
void gm_ni_eject_free(gm_ni_eject *ni);

/* No flit held, no packet waiting, no credit being returned. */
static inline bool gm_ni_eject_idle(const gm_ni_eject *ni)
{
    return ni->f_count == 0 && ni->q_count == 0 && !ni->credit.credit_valid;
}

/* Moore output to the router's out_credit port. */
static inline void gm_ni_eject_eval(const gm_ni_eject *ni, gm_router_credit *out)
{
    *out = ni->credit;
}
/* Clock edge: drains the oldest flit (a tail only when the completed
 * queue has room, judged before this edge's gm_ni_eject_pop), then stores
 * the flit arriving from the router output. */
void gm_ni_eject_tick(gm_ni_eject *ni, const gm_router_flit *in);
/* Oldest completed packet, if any. */
static inline bool gm_ni_eject_front(const gm_ni_eject *ni, uint32_t *handle)
{
    if (ni->q_count == 0)
        return false;
    *handle = ni->q[ni->q_head];
    return true;
}
void gm_ni_eject_pop(gm_ni_eject *ni);

#endif
