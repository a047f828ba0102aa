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
#define GM_CCN_NKEYS 14
extern const gm_config_key gm_ccn_keys[GM_CCN_NKEYS];
int gm_ccn_validate(const gm_config *c, gm_error *err);

/* Co-simulation of the shadow tags (docs/cosim.md): in a system built
 * with kind = ccn, instance k (0 .. count-1) is node k's shadow tag
 * array, named "ccn-shadow-<k>"; count is 0 for other designs. */
struct gm_system;
struct gm_shadow_twin;
uint32_t gm_ccn_shadow_count(const struct gm_system *s);
void gm_ccn_shadow_name(const struct gm_system *s, uint32_t k, char *buf, size_t len);
void gm_ccn_shadow_size(const struct gm_system *s, uint32_t k, uint32_t *sets, uint32_t *ways,
                        uint32_t *tag_bits);
/* Realizes instance k by twin from now on (twin must outlive the run). */
int gm_ccn_shadow_attach_twin(struct gm_system *s, uint32_t k, const struct gm_shadow_twin *twin,
                              gm_error *err);

#endif
