/* A design: what sits between the cores' memory ports and the L2 slices
 * (SPEC section 4). The system (system/system.h) owns the clocks, the
 * cores, the CTA scheduler, the L2 slices, DRAM, the run loop, the
 * watchdog and the conservation checks, and knows no design by name; a
 * design is one folder under designs/ that fills a gm_design_ops and is
 * listed once in designs/registry.c (docs/architecture.md, "Adding a
 * design").
 *
 * At build time a design
 *   - wires every core's memory port (gm_core_attach_port),
 *   - connects its blocks to the L2 slices' links (s->l2_in, s->l2_out),
 *   - registers what the system drives and reports generically:
 *     its clocked work per clock domain (gm_system_on_edge), its networks
 *     (gm_system_add_net: busy, drain, watchdog search, co-simulation,
 *     topology and network statistics), its L1-level caches
 *     (gm_system_add_l1: the "l1" statistics) and the bound on copies of
 *     a line in those caches (s->copies.max_allowed).
 * The ops below are what remains design-specific. */
#ifndef GM_DESIGNS_DESIGN_H
#define GM_DESIGNS_DESIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config_keys.h"
#include "sim/error.h"
#include "sim/req.h"

struct gm_system;
struct cJSON;

typedef struct gm_design_ops {
    const char *name;        /* value of [design] kind */
    const char *summary;     /* one line, for `gmsim list-designs` */
    const char *l1_noun;     /* what its L1-level caches are called in messages */
    const char *node_name;   /* what GM_LOC_NODE is in its deadlock reports, or NULL */

    /* Its own config section (NULL when it has none) and key rows; the
     * rows' offsets point into gm_config like every other key's. */
    const gm_config_section *section;
    const gm_config_key *keys;
    size_t nkeys;
    /* Cross-key rules of its section, checked only when it is selected.
     * May be NULL. */
    int (*validate)(const gm_config *c, gm_error *err);
    /* Clock domains of its own, in MHz, for the time-base check before
     * build (at most 4; returns how many). May be NULL. */
    unsigned (*extra_clocks)(const gm_config *c, uint32_t mhz[4]);

    /* Builds the design into s (see above); *state is passed back to
     * every other op. On failure the system calls destroy. */
    int (*build)(struct gm_system *s, void **state, gm_error *err);
    void (*destroy)(void *state);

    /* Anything inside its blocks other than its registered networks
     * (those the system checks itself). */
    bool (*busy)(const void *state);
    /* End-of-run conservation of its blocks and links; invariants it
     * keeps (e.g. copy limits). Networks are checked by the system. */
    int (*check_drained)(const void *state, gm_error *err);
    /* Where request r sits inside its blocks, for the deadlock report;
     * false when not found there. May be NULL. */
    bool (*find_req)(const void *state, const gm_req *r, char *buf, size_t len);

    /* Statistics: adds its fields to the "design" object and may add
     * top-level sections to root; prints its summary line (may be NULL). */
    void (*stats_json)(const struct gm_system *s, const void *state, struct cJSON *design,
                       struct cJSON *root);
    void (*stats_text)(const struct gm_system *s, const void *state, FILE *f);
    /* Short name of the design point (e.g. "Sh40+C10+Boost"). */
    void (*point_name)(const void *state, char *buf, size_t len);
} gm_design_ops;

/* The registry (designs/registry.c), in `gmsim list-designs` order. */
const gm_design_ops *gm_design_at(size_t i);
size_t gm_design_count(void);
/* NULL if name is not registered. */
const gm_design_ops *gm_design_find(const char *name);
/* The design selected by c ([design] kind). */
const gm_design_ops *gm_design_of(const gm_config *c);
/* [design] kind's names, NULL-terminated, in registry order (the
 * config key table's enum). */
extern const char *const gm_design_names[];

#endif
