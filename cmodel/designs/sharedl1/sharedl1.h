/* The shared-L1 design (SPEC section 4.5, the Choo et al. seed): every
 * group of SF consecutive cores shares one L1 of SF x the private size
 * (gm_sl1, sharedl1_cache.h), one port per core; the shared L1s reach the
 * L2 slices through a request and a reply crossbar of gm_net.
 * docs/designs/sharedl1.md. */
#ifndef GM_DESIGNS_SHAREDL1_SHAREDL1_H
#define GM_DESIGNS_SHAREDL1_SHAREDL1_H

#include "config/config.h"
#include "config/config_keys.h"
#include "designs/design.h"

extern const gm_design_ops gm_sharedl1_design;

/* The [sharedl1] section (sharedl1_config.c). */
extern const gm_config_section gm_sharedl1_section;
#define GM_SHAREDL1_NKEYS 4
extern const gm_config_key gm_sharedl1_keys[GM_SHAREDL1_NKEYS];
int gm_sharedl1_validate(const gm_config *c, gm_error *err);
/* The geometry of one shared L1: [l1] with SF x the size (more sets or
 * more ways, [sharedl1] grow) and SF x the MSHR entries and merges. */
gm_cache_cfg gm_sharedl1_cache_cfg(const gm_config *c);

#endif
