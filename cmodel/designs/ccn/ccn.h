/* The CCN design ([design] kind = ccn, docs/designs/ccn.md; the CCN seed,
 * Dublish et al., "Cooperative Caching for GPUs", TACO 2016): private
 * write-through, no-write-allocate L1Ds whose load misses may first look
 * for the line in the other L1s over a ring (the Cooperative Caching
 * Network): per node a CCN buffer, a request queue (ReqQ) and a response
 * queue (RespQ), shadow tags answering ring lookups, a request throttler
 * per core (CCN-RT). Request and response rings are two gm_net rings in
 * opposite directions; the L2 is reached by the request and reply
 * crossbars of the baseline. */
#ifndef GM_DESIGNS_CCN_H
#define GM_DESIGNS_CCN_H

#include "config/config.h"
#include "config/config_keys.h"
#include "designs/design.h"

extern const gm_design_ops gm_ccn_design;

/* The [ccn] section (ccn_config.c). */
extern const gm_config_section gm_ccn_section;
#define GM_CCN_NKEYS 10
extern const gm_config_key gm_ccn_keys[GM_CCN_NKEYS];
int gm_ccn_validate(const gm_config *c, gm_error *err);

#endif
