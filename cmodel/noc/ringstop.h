/* Ring stop: the second block kind of gm_net (docs/noc.md section 10).
 * One stop joins a local node to a unidirectional ring: it takes packets
 * from the node (inject), gives packets to the node (eject), receives
 * packets from the upstream stop (ring input) and sends packets to the
 * downstream stop (ring output). Packets move whole: a packet of F flits
 * holds the ring output for F cycles and is handed on in the cycle its
 * tail leaves, so a ring link carries at most one flit per cycle.
 *
 * Modelling contract (SPEC 2.1, 2.2):
 *   gm_ringstop_eval(s, out)  Moore outputs, from the registers only.
 *   gm_ringstop_tick(s, in)   the clock edge.
 *
 * Registers: a FIFO of `depth` packets behind the ring input (the ring
 * buffer), one output register (the packet on the ring output), a credit
 * counter for the downstream stop's ring buffer, and a credit register
 * towards the upstream stop.
 *
 * One cycle, in this order at the edge:
 *   1. Eject: the ring buffer's head, when its packet is for this stop, is
 *      presented on ej_* (a Moore output); it leaves when ej_ready is 1.
 *   2. Ring output: the output register, after sending its tail, may load
 *      a packet when a credit is held. Ring traffic first: the ring
 *      buffer's head if it is passing through, else (ring buffer empty) a
 *      packet arriving on the ring input this cycle that is passing
 *      through (bypass: it never occupies the buffer). Only when neither
 *      wants the output does the local injection get it, and then only
 *      with two credits held, so that a ring of stops always keeps one
 *      free buffer slot and cannot deadlock (bubble flow control).
 *   3. A ring arrival that was not bypassed is written to the ring buffer
 *      (its upstream held a credit, so there is room).
 *   4. One credit goes upstream for every ring buffer slot freed (at most
 *      one per cycle: a head leaves, or an arrival is bypassed).
 * A packet for this stop therefore ejects one cycle after it arrives, and
 * a packet passing through leaves one cycle after it arrives: a hop costs
 * the link latency L plus this one cycle (F - 1 more for F flits).
 *
 * The stop does not arbitrate between kinds of traffic of its node (the
 * CCN's ReqQ and RespQ rules live in the node, designs/ccn); a node that
 * forwards hop by hop never has packets passing through. A packet injected
 * for this very stop's own ejection is not taken (inj_dest must be
 * GM_RINGSTOP_PASS; gm_net reports a fault instead).
 *
 * There is no RTL twin of the stop; the fields below are plain fixed-width
 * ports nonetheless, named as a twin's ports would be. */
#ifndef GM_NOC_RINGSTOP_H
#define GM_NOC_RINGSTOP_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/error.h"

#define GM_RINGSTOP_EJECT 0u      /* a packet's dest at this stop: leave here */
#define GM_RINGSTOP_PASS 1u       /* ... go on round the ring */
#define GM_RINGSTOP_MAX_DEPTH 4096u
#define GM_RINGSTOP_MAX_FLITS 255u

typedef struct gm_ringstop_in {
    /* local injection: the head of the node's injection queue */
    uint8_t inj_valid;
    uint8_t inj_dest;         /* GM_RINGSTOP_PASS (EJECT is refused) */
    uint8_t inj_flits;        /* 1..255 */
    uint32_t inj_payload;     /* packet handle */
    /* ring input, from the upstream stop's channel */
    uint8_t ring_in_valid;
    uint8_t ring_in_dest;     /* GM_RINGSTOP_EJECT or GM_RINGSTOP_PASS */
    uint8_t ring_in_flits;
    uint32_t ring_in_payload;
    /* a credit from the downstream stop: one of its ring buffer slots freed */
    uint8_t ring_out_credit;
    /* the node can take the ejected packet this cycle */
    uint8_t ej_ready;
} gm_ringstop_in;

typedef struct gm_ringstop_out {
    /* ring output: valid in the cycle the packet's tail leaves */
    uint8_t ring_out_valid;
    uint8_t ring_out_flits;
    uint32_t ring_out_payload;
    /* a credit to the upstream stop */
    uint8_t ring_in_credit;
    /* local ejection */
    uint8_t ej_valid;
    uint32_t ej_payload;
} gm_ringstop_out;

typedef struct gm_ringstop_pkt {
    uint32_t payload;
    uint8_t dest;
    uint8_t flits;
} gm_ringstop_pkt;

typedef struct gm_ringstop {
    uint32_t depth;           /* ring buffer slots = credits of the upstream stop */
    /* registers */
    gm_ringstop_pkt *buf;     /* [depth] ring buffer, FIFO */
    uint32_t head, count;
    bool out_valid;
    gm_ringstop_pkt out;      /* the output register */
    uint32_t out_left;        /* cycles until its tail leaves */
    uint32_t credits;         /* free slots of the downstream ring buffer */
    bool credit_q;            /* credit to send upstream this cycle */
    /* result of the last tick, read by the net to pop its injection queue */
    bool inj_taken;
    uint64_t protocol_errors; /* ring arrivals with the ring buffer full */
} gm_ringstop;

/* depth >= 2 (the bubble rule needs two credits to inject). The downstream
 * stop's depth is its credit count: a ring's stops share one depth. */
int gm_ringstop_init(gm_ringstop *s, uint32_t depth, gm_error *err);
void gm_ringstop_free(gm_ringstop *s);
void gm_ringstop_eval(const gm_ringstop *s, gm_ringstop_out *out);
void gm_ringstop_tick(gm_ringstop *s, const gm_ringstop_in *in);
/* Nothing held, no credit to send, every credit back. */
bool gm_ringstop_idle(const gm_ringstop *s);

/* Calls fn on every packet the stop holds: ring buffer slots in order,
 * then the output register (slot == depth). */
void gm_ringstop_foreach(const gm_ringstop *s,
                         void (*fn)(void *arg, uint32_t slot, const gm_ringstop_pkt *p),
                         void *arg);

#endif
