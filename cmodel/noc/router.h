/* Input-queued virtual-channel crossbar router: n_in inputs x n_out
 * outputs, `vcs` VCs per port, `depth` flits per VC buffer, credit flow
 * control, iSLIP VC allocation and iSLIP switch allocation, `stages`
 * output register stages. It is the golden model of the router RTL, which
 * is compared with it field by field every cycle, so the exact rules
 * (order within a tick, arbitration, credits) are written in docs/noc.md
 * and both must follow them.
 *
 * Modelling contract (SPEC 2.1, 2.2):
 *   gm_router_eval(r, out)  Moore outputs, from the registers only.
 *   gm_router_tick(r, in)   the clock edge: next registers from registers
 *                           and the inputs sampled at that edge.
 * A cycle is: every block evaluates its outputs, the outputs are routed to
 * the inputs of the blocks they drive, then every block ticks.
 *
 * Port naming. C field `p.in[i].flit_vc` is Verilog port `in_flit_vc`
 * element i, `p.out[o].credit_valid` is `out_credit_valid` element o, and
 * so on: gm_router_in holds the router's input ports, gm_router_out its
 * output ports. Widths, with VCW = max(1, clog2(vcs)) and
 * DW = max(1, clog2(n_out)):
 *
 *   inputs   in_flit_valid    [n_in]  1      flit presented on input i
 *            in_flit_vc       [n_in]  VCW    input VC it is written to
 *            in_flit_head     [n_in]  1      first flit of a packet
 *            in_flit_tail     [n_in]  1      last flit (head and tail: 1-flit packet)
 *            in_flit_dest     [n_in]  DW     output port (head flit decides)
 *            in_flit_seq      [n_in]  8      flit index in its packet
 *            in_flit_payload  [n_in]  32     packet handle
 *            out_credit_valid [n_out] 1      downstream freed one slot of...
 *            out_credit_vc    [n_out] VCW    ...this output VC
 *   outputs  out_flit_*       [n_out]        same fields as in_flit_*, with
 *                                            out_flit_vc the output VC and
 *                                            the other fields carried over
 *            in_credit_valid  [n_in]  1      one slot of input VC...
 *            in_credit_vc     [n_in]  VCW    ...this one was freed
 *
 * When a valid bit is 0 every other field of that flit or credit output is
 * 0 (so lockstep can compare all fields every cycle); input fields with
 * valid 0 are ignored. Upstream must send only with a credit and follow
 * the wormhole protocol (head ... tail on one VC, no interleaving);
 * downstream must return exactly one credit per flit received. */
#ifndef GM_NOC_ROUTER_H
#define GM_NOC_ROUTER_H

#include <stdbool.h>
#include <stdint.h>

#include "noc/islip.h"
#include "sim/error.h"

#define GM_ROUTER_MAX_PORTS 1024u
#define GM_ROUTER_MAX_VCS 64u
#define GM_ROUTER_MAX_DEPTH 1024u
#define GM_ROUTER_MAX_STAGES 16u

typedef struct gm_router_cfg {
    uint32_t n_in;     /* input ports, 1..GM_ROUTER_MAX_PORTS */
    uint32_t n_out;    /* output ports, 1..GM_ROUTER_MAX_PORTS */
    uint32_t vcs;      /* VCs per port, 1..64; n_in * vcs <= GM_ISLIP_MAX */
    uint32_t depth;    /* flits per input VC buffer, and the credits per
                          output VC (downstream depth), 1..1024 */
    uint32_t stages;   /* output register stages, 1..16 */
    uint32_t iters;    /* iSLIP iterations of both allocators, 1..255 */
} gm_router_cfg;

/* One flit port. Field widths in the file header. */
typedef struct gm_router_flit {
    uint8_t flit_valid;
    uint8_t flit_vc;
    uint8_t flit_head;
    uint8_t flit_tail;
    uint16_t flit_dest;
    uint8_t flit_seq;
    uint32_t flit_payload;
} gm_router_flit;

/* One credit port. */
typedef struct gm_router_credit {
    uint8_t credit_valid;
    uint8_t credit_vc;
} gm_router_credit;

/* Input ports of the router. */
typedef struct gm_router_in {
    gm_router_flit *in;      /* [n_in]  in_flit_* */
    gm_router_credit *out;   /* [n_out] out_credit_* (from downstream) */
} gm_router_in;

/* Output ports of the router. */
typedef struct gm_router_out {
    gm_router_flit *out;     /* [n_out] out_flit_* */
    gm_router_credit *in;    /* [n_in]  in_credit_* (to upstream) */
} gm_router_out;

/* One input buffer entry: a flit without valid and vc (implied). */
typedef struct gm_router_entry {
    uint32_t payload;
    uint16_t dest;
    uint8_t seq;
    uint8_t head_tail;       /* bit 0 head, bit 1 tail */
} gm_router_entry;

/* An allocation made in the last tick, for lockstep observation. */
typedef struct gm_router_va_grant {
    uint16_t in_vc;          /* input VC, i * vcs + v */
    uint16_t out_vc;         /* output VC, o * vcs + k */
    uint8_t iter;            /* iSLIP iteration */
} gm_router_va_grant;

typedef struct gm_router_sa_grant {
    uint16_t in;             /* input port */
    uint16_t out;            /* output port */
    uint8_t vc;              /* input VC that sent */
    uint8_t iter;
} gm_router_sa_grant;

typedef struct gm_router {
    gm_router_cfg cfg;

    /* ---- Registers: exactly the state of the RTL twin. ----
     * Input VC iv = i * vcs + v; output VC ov = o * vcs + k. */
    gm_router_entry *buf;       /* [n_in*vcs*depth] input VC buffers */
    uint16_t *buf_rd;           /* [n_in*vcs] read pointer, 0..depth-1 */
    uint16_t *buf_count;        /* [n_in*vcs] flits held, 0..depth */
    uint8_t *ivc_has_ovc;       /* [n_in*vcs] the packet at the front holds an output VC */
    uint16_t *ivc_oport;        /* [n_in*vcs] its output port (DW bits) */
    uint8_t *ivc_ovc;           /* [n_in*vcs] its VC at that port (VCW bits) */
    uint64_t *ovc_busy;         /* [n_out] bit k: output VC k is held by a packet */
    uint16_t *ovc_credit;       /* [n_out*vcs] free downstream slots, 0..depth */
    uint16_t *va_grant_ptr;     /* [n_out*vcs] VA grant pointer, over input VCs */
    uint16_t *va_accept_ptr;    /* [n_in*vcs] VA accept pointer, over the vcs of a port */
    uint16_t *sa_grant_ptr;     /* [n_out] SA grant pointer, over inputs */
    uint16_t *sa_accept_ptr;    /* [n_in] SA accept pointer, over outputs */
    gm_rr_arb *vc_arb;          /* [n_in] SA input-stage VC arbiter (pointer over vcs) */
    gm_router_flit *pipe;       /* [stages*n_out] output registers, see pipe_base */
    gm_router_credit *credit;   /* [n_in] upstream credit registers */

    /* ---- Derived from the registers, for speed only. ---- */
    uint32_t pipe_base;         /* stage s of output o is pipe[((pipe_base + s)
                                   % stages) * n_out + o]; rotating the base
                                   shifts all stages at once */
    uint64_t *vc_nonempty;      /* [n_in] bit v: buffer of input VC v not empty */
    uint64_t *vc_has_ovc;       /* [n_in] bit v: ivc_has_ovc of input VC v */
    uint64_t *vc_can_send;      /* [n_in] bit v: input VC v holds an output VC
                                   that has a credit */
    uint16_t *ovc_holder;       /* [n_out*vcs] input VC holding each busy
                                   output VC */
    uint64_t *in_busy;          /* [words(n_in)] inputs with a non-empty VC */
    uint64_t *pipe_mask;        /* [stages*words(n_out)] valid flits per slot */
    uint64_t *credit_mask;      /* [words(n_in)] valid upstream credit registers */
    uint32_t flits_buffered;
    uint32_t flits_in_pipe;
    uint32_t credits_out;

    /* ---- Scratch of one tick; the grant lists stay readable after the
     * tick as the observation record of that tick. ---- */
    uint32_t w_iv;              /* words(n_in * vcs) */
    uint32_t w_in;              /* words(n_in) */
    uint32_t w_out;             /* words(n_out) */
    uint64_t *va_req;           /* [n_out*w_iv] input VCs requesting each port */
    uint64_t *va_port_mask;     /* [w_out] ports with VA requests */
    uint64_t *va_cols;          /* [vcs*w_iv] request matrix of one port */
    gm_islip_match *va_tmp;     /* [vcs] */
    uint64_t *sa_req;           /* [n_out*w_in] SA request matrix, zero between ticks */
    uint64_t *sa_out_mask;      /* [w_out] outputs with an SA request, zero between ticks */
    uint64_t *sa_elig;          /* [n_in] VCs of each input that may request SA */
    uint16_t *sa_inputs;        /* [n_in] inputs with an SA request */
    uint32_t n_sa_inputs;
    uint8_t *sa_vc;             /* [n_in] VC chosen by each input's VC arbiter */
    gm_router_va_grant *va_grants; /* [n_out*vcs] VA grants of the last tick */
    uint32_t n_va_grants;
    gm_router_sa_grant *sa_grants; /* [min(n_in, n_out)] SA grants of the last tick */
    uint32_t n_sa_grants;

    /* ---- Statistics (not registers). ---- */
    uint64_t ticks_active;      /* ticks that did work (not the early exit) */
    uint64_t va_grant_count;
    uint64_t sa_grant_count;
} gm_router;

int gm_router_init(gm_router *r, const gm_router_cfg *cfg, gm_error *err);
void gm_router_free(gm_router *r);

/* Allocates zeroed port structs sized for cfg. */
int gm_router_ports_init(gm_router_in *in, gm_router_out *out,
                         const gm_router_cfg *cfg, gm_error *err);
void gm_router_ports_free(gm_router_in *in, gm_router_out *out);

/* Moore outputs: writes every field of out->out[0..n_out) and
 * out->in[0..n_in) from the registers. */
void gm_router_eval(const gm_router *r, gm_router_out *out);

/* Clock edge (docs/noc.md section 4 gives the order of the steps). */
void gm_router_tick(gm_router *r, const gm_router_in *in);

/* Nothing buffered, nothing in the output registers and no credit being
 * returned upstream: the outputs are all 0 and a tick whose inputs are all
 * invalid leaves every register unchanged, so it may be skipped. */
static inline bool gm_router_idle(const gm_router *r)
{
    return r->flits_buffered == 0 && r->flits_in_pipe == 0 &&
           r->credits_out == 0;
}

/* Idle, every output VC free with all `depth` credits, no input VC holding
 * an output VC. Fails with a description of the first difference. */
int gm_router_check_drained(const gm_router *r, gm_error *err);

/* Where a flit sits, for watchdogs and drain reports. */
typedef enum gm_router_site {
    GM_ROUTER_SITE_INPUT = 0,   /* port = input, index = input VC */
    GM_ROUTER_SITE_OUTPUT,      /* port = output, index = stage (0 = first) */
} gm_router_site;

/* Calls fn on every flit held by the router (flit_vc is the input VC for
 * input sites, the output VC for output sites). */
void gm_router_foreach_flit(const gm_router *r,
                            void (*fn)(void *arg, gm_router_site site,
                                       uint32_t port, uint32_t index,
                                       const gm_router_flit *f),
                            void *arg);

#endif
