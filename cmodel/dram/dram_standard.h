/* A DRAM standard as data, in the manner of Ramulator's standard tables:
 * the levels of a channel, the timing rules {scope (level), preceding
 * command, following command, latency}, the refresh kind, and the
 * organisation (the address-map fields: banks, bank groups, row and atom
 * size), clock and timing values the standard brings as defaults. The
 * channel controller (dram_channel.c) and the timer (dram_timing.c) know no
 * standard by name: [dram] standard picks one from the registry
 * (dram_standard.c). Each standard is one file, dram_std_<name>.c.
 * docs/dram.md, "Standards as data", has every table with the source of
 * every value and says how to add a standard. */
#ifndef GM_DRAM_DRAM_STANDARD_H
#define GM_DRAM_DRAM_STANDARD_H

#include <stdint.h>

#include "config/config.h"
#include "dram/dram_timing.h"
#include "sim/error.h"

/* How the channel is refreshed. Only all-bank refresh has a controller
 * rule (docs/dram.md section 5); a per-bank kind (HBM REFSB, LPDDR REFpb)
 * would be a second value with its own rule in dram_channel.c. */
typedef enum gm_dram_refresh {
    GM_DRAM_REFRESH_ALL_BANK = 0, /* one REF to the whole channel every tREFI,
                                   * every bank precharged first */
} gm_dram_refresh;

typedef struct gm_dram_standard {
    const char *name;             /* the [dram] standard value */
    const char *title;            /* one line, for listings and messages */
    const char *const *levels;    /* the hierarchy the scopes name, outermost
                                   * first, NULL-terminated */
    const gm_dram_rule *rules;    /* the timing table */
    uint32_t nrules;
    uint32_t refresh;             /* gm_dram_refresh */
    /* Defaults the standard owns: loaded into [dram] by gm_config_defaults
     * (gddr5) or by setting [dram] standard; keys set by the user win. */
    uint32_t clock_mhz;           /* command clock */
    uint32_t banks;               /* address-map fields of a channel, */
    uint32_t bank_groups;         /* low to high: atom offset | column  */
    uint32_t row_bytes;           /* (row_bytes / atom_bytes) | bank     */
    uint32_t atom_bytes;          /* (group = bank % bank_groups) | row  */
    gm_dram_timing timing;
    /* Limits of this standard beyond the generic ones (NULL: none). Errors
     * name the key and its allowed values. */
    int (*check)(const gm_dram_cfg *d, gm_error *err);
} gm_dram_standard;

/* The registry, index = value of [dram] standard. The names array is
 * NULL-terminated, for the key table. */
extern const char *const gm_dram_standard_names[];
uint32_t gm_dram_standard_count(void);
/* NULL if i is not a standard. */
const gm_dram_standard *gm_dram_standard_at(uint32_t i);
const gm_dram_standard *gm_dram_standard_find(const char *name);

/* Writes the owned defaults of d->standard into d: clock_mhz, banks,
 * bank_groups, row_bytes, atom_bytes and every timing value. Touches
 * nothing else (channels, queue, sched, partition_bytes, standard). An
 * unknown standard leaves d as it is (gm_dram_standard_check reports it). */
void gm_dram_standard_load(gm_dram_cfg *d);
/* Unknown standard, an unsupported refresh kind, or the standard's own
 * limits. */
int gm_dram_standard_check(const gm_dram_cfg *d, gm_error *err);

/* The standards (one file each). */
extern const gm_dram_standard gm_dram_std_gddr5;
extern const gm_dram_standard gm_dram_std_hbm;

#endif
