/* The [ccn] section: key rows and cross-key rules of the CCN design
 * (docs/designs/ccn.md section 6). */
#include "designs/ccn/ccn.h"

#include "designs/ccn/ccn_shadow.h"
#include "noc/ringstop.h"

#define AS GM_SRC_ASSUMED

/* gm_ccn_variant order */
static const char *const variant_names[] = { "ccn_b", "ccn_rt", "ideal", "off", NULL };
/* gm_ccn_ring order */
static const char *const ring_names[] = { "stop", "router", NULL };

const gm_config_section gm_ccn_section = {
    "ccn", "CCN (`[design] kind = ccn`): private L1Ds joined by a request ring and a "
           "response ring in opposite directions; per node a CCN buffer, a ReqQ, a RespQ "
           "and shadow tags; a request throttler per core (docs/designs/ccn.md). The L2 "
           "is reached by the [noc] crossbars, as in the baseline."
};

const gm_config_key gm_ccn_keys[GM_CCN_NKEYS] = {
    GM_CFG_ENUM("ccn", ccn.variant, "variant", GM_CCN_RT, variant_names, AS,
                "ccn_b (CCN-B), ccn_rt (CCN-B plus the request throttler), ideal (remote "
                "hits at zero latency, no CCN overhead: the seed's upper bound), off (every "
                "miss to L2: the private baseline with the ring idle)."),
    GM_CFG_U32("ccn", ccn.hop_latency, "hop_latency", 1, 1, 64, AS, "core cycles",
               "Ring channel latency between neighbouring nodes (seed: 1..5 cycles at "
               "1.4 GHz)."),
    GM_CFG_U32("ccn", ccn.cb_entries, "cb_entries", 8, 1, 1024, AS, "requests",
               "CCN buffer: load misses waiting to enter the ReqQ (seed: 8)."),
    GM_CFG_U32("ccn", ccn.reqq_entries, "reqq_entries", 8, 2, 1024, AS, "requests",
               "ReqQ entries (seed: 8); at least 2 (a new request needs a second free "
               "slot, docs/designs/ccn.md section 4)."),
    GM_CFG_U32("ccn", ccn.respq_entries, "respq_entries", 8, 2, 1024, AS, "responses",
               "RespQ entries (seed: 8); at least 2, as the ReqQ."),
    GM_CFG_U32("ccn", ccn.tag_bits, "tag_bits", 26, 1, GM_SHADOW_MAX_TAG_BITS, AS, "bits",
               "Shadow tag width (seed Table II(b): 26); a line whose tag needs more bits "
               "stops the run."),
    GM_CFG_U32("ccn", ccn.rt_sample, "rt_sample", 1000000, 1, 0xFFFFFFFFu, AS,
               "thread insts", "tS: instructions per core sampled at the start of each "
               "throttler epoch (seed: 1 M)."),
    GM_CFG_U32("ccn", ccn.rt_period, "rt_period", 10000000, 1, 0xFFFFFFFFu, AS,
               "thread insts", "tP: instructions per core in one throttler epoch (seed: "
               "10 M); at least rt_sample."),
    GM_CFG_U32("ccn", ccn.rt_hmin_pct, "rt_hmin_pct", 5, 0, 100, AS, "percent",
               "Hmin: a sample whose CCN hit rate is below this throttles the core for "
               "the rest of the epoch (seed: 5%)."),
    GM_CFG_U32("ccn", ccn.cb_timeout, "cb_timeout", 1000, 0, 1u << 20, AS, "core cycles",
               "A CCN buffer head that has waited this long for its ReqQ goes to L2 instead "
               "(forwarded requests always win the ReqQ, so a node can starve; 0: no "
               "limit, the seed's text)."),
    GM_CFG_U32("ccn", ccn.steal_cycles, "steal_cycles", 1, 1, 16, AS, "core cycles",
               "L1 data-array cycles a remote hit takes from the owner's core to read the "
               "line (seed: one)."),
    GM_CFG_U32("ccn", ccn.check_every, "check_every", 64, 0, 1u << 30, AS, "core cycles",
               "Shadow tags compared with their L1's tags every this many cycles (1: every "
               "cycle; 0: never); a difference stops the run."),
    GM_CFG_ENUM("ccn", ccn.ring, "ring", GM_CCN_RING_STOP, ring_names, AS,
                "What the two rings are built of: stop (ring stops, noc/ringstop.h: a hop "
                "costs hop_latency + 1 cycles, the seed's bare ring) or router (the VC "
                "router block of the crossbars: a hop costs at least 11 + hop_latency; "
                "its routers can run in RTL)."),
    GM_CFG_U32("ccn", ccn.stop_depth, "stop_depth", 0, 0, GM_RINGSTOP_MAX_DEPTH, AS,
               "packets", "With ring = stop: each stop's ring buffer (the credits of "
               "its upstream stop); 0: 2 hop_latency + 2, a credit's round trip, so a "
               "link can carry a packet every cycle; else at least 2 (the bubble rule)."),
};

int gm_ccn_validate(const gm_config *c, gm_error *err)
{
    const gm_ccn_cfg *k = &c->ccn;
    if (k->rt_period < k->rt_sample)
        return gm_fail(err, "[ccn] rt_period = %u must be at least rt_sample = %u",
                       k->rt_period, k->rt_sample);
    if (k->stop_depth == 1)
        return gm_fail(err, "[ccn] stop_depth = 1: a ring stop needs 0 (automatic) or at "
                            "least 2 (a local packet enters only with two credits)");
    if (c->l1.sectored)
        return gm_fail(err, "[l1] sectored = 1 is not supported by kind = ccn (a remote "
                            "L1 answers with whole lines)");
    if (c->core.num_cores < 2)
        return gm_fail(err, "[core] num_cores = %u: a CCN ring needs at least 2 cores",
                       c->core.num_cores);
    uint32_t sets = c->l1.size_bytes / (c->l1.line_bytes * c->l1.assoc);
    if (sets > 65536 || c->l1.assoc > 255)
        return gm_fail(err, "[l1] %u sets x %u ways: CCN shadow tags take at most 65536 "
                            "sets and 255 ways", sets, c->l1.assoc);
    return 0;
}
