/* The ATA-Cache design ([design] kind = ata, docs/designs/ata.md; the ATA
 * seed's Table II): per cluster of num_cores / clusters cores, one L1 per
 * core (ata_node.h) whose tag arrays form the cluster's aggregated tag
 * array (ata_tags.h), a request and a reply crossbar between the cluster's
 * L1s, and a request and a reply crossbar between all L1s and the L2
 * slices. [ata] org selects private, decoupled-sharing or ATA. */
#ifndef GM_DESIGNS_ATA_H
#define GM_DESIGNS_ATA_H

#include "config/config.h"
#include "config/config_keys.h"
#include "designs/design.h"

extern const gm_design_ops gm_ata_design;

/* The [ata] section (ata_config.c). */
extern const gm_config_section gm_ata_section;
#define GM_ATA_NKEYS 6
extern const gm_config_key gm_ata_keys[GM_ATA_NKEYS];
int gm_ata_validate(const gm_config *c, gm_error *err);

/* System co-simulation of the clusters' aggregated tag array blocks
 * (ata_tagblk.h), as gm_ccn_shadow_* for the CCN shadow tags: how many
 * (0 when the system is not kind = ata), block z's parameters, and
 * attaching an RTL twin to block z (before the run). */
struct gm_system;
struct gm_ata_tblk;
struct gm_ata_tblk_twin;
uint32_t gm_ata_tags_count(const struct gm_system *s);
const struct gm_ata_tblk *gm_ata_tags_block(const struct gm_system *s, uint32_t z);
int gm_ata_tags_attach_twin(struct gm_system *s, uint32_t z,
                            const struct gm_ata_tblk_twin *twin, gm_error *err);

#endif
