/* The SelRep LLC design ([design] kind = selrep, docs/designs/selrep.md;
 * the SelRep seed's Table I): private L1Ds; a two-level H-Xbar request and
 * reply network (SM-routers of `clusters` SMs joined to MC-routers of
 * slices/mc_routers LLC slices); LLC slices that hold replicas of
 * read-only lines for the organizations that replicate; per MC-router a
 * request and a reply crossbar between its slices and the channels of its
 * HBM stack, which the design registers with gm_system_set_dram_ports. */
#ifndef GM_DESIGNS_SELREP_H
#define GM_DESIGNS_SELREP_H

#include "config/config.h"
#include "config/config_keys.h"
#include "designs/design.h"
#include "designs/selrep/selrep_rddb.h"

typedef struct gm_system gm_system;

extern const gm_design_ops gm_selrep_design;

/* The [selrep] section (selrep_config.c). */
extern const gm_config_section gm_selrep_section;
#define GM_SELREP_NKEYS 16
extern const gm_config_key gm_selrep_keys[GM_SELREP_NKEYS];
int gm_selrep_validate(const gm_config *c, gm_error *err);

/* System co-simulation (tb/cosim, `--rtl selrep-rdd`): the parameters of
 * the system's RDD block, and realizing it by `twin` from now on (the C
 * block in shadow). Both fail unless the system's design is selrep with an
 * RDD (org selrep or adaptive). */
int gm_selrep_rdd_params(const gm_system *s, gm_selrep_rddb_params *p, gm_error *err);
int gm_selrep_attach_rdd_twin(gm_system *s, const gm_selrep_rdd_twin *twin, gm_error *err);

#endif
