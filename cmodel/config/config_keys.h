/* The configuration key table: one row per INI key, giving its section,
 * name, type, place in gm_config, default, allowed range, unit and a
 * one-line description. Parsing, defaults, range checks, gm_config_to_ini
 * and docs/config.md are all driven from this table; adding a key means
 * adding a field to gm_config and a row to config_keys.c, nothing else. */
#ifndef GM_CONFIG_CONFIG_KEYS_H
#define GM_CONFIG_CONFIG_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"

typedef enum gm_key_type {
    GM_KEY_U32 = 0, /* uint32_t field, decimal or 0x hex */
    GM_KEY_U64,     /* uint64_t field, decimal or 0x hex */
    GM_KEY_I64,     /* int64_t field, decimal or 0x hex with an optional '-';
                     * def, min and max hold the value converted to uint64_t */
    GM_KEY_SIZE,    /* uint32_t byte count, decimal with optional B/K/KB/M/MB */
    GM_KEY_ENUM,    /* uint32_t field holding the index of one of `names` */
} gm_key_type;

/* Where a default value comes from (shown in docs/config.md). */
typedef enum gm_key_source {
    GM_SRC_TABLE2 = 0, /* DC-L1 seed, Table II */
    GM_SRC_HYNIX,      /* set by gm_dram_timing_hynix_gddr5(), not by `def` */
    GM_SRC_ASSUMED,    /* not given by Table II: a gmsim assumption */
    GM_SRC_RUN,        /* run control, not a hardware parameter */
} gm_key_source;

typedef struct gm_config_key {
    const char *section;
    const char *name;
    gm_key_type type;
    size_t offset;             /* offsetof(gm_config, field) */
    uint64_t def;              /* unused when source is GM_SRC_HYNIX */
    uint64_t min, max;         /* inclusive; unused for enums */
    const char *const *names;  /* enums: NULL-terminated, value i is names[i] */
    gm_key_source source;
    const char *unit;
    const char *doc;
} gm_config_key;

typedef struct gm_config_section {
    const char *name;
    const char *doc;
} gm_config_section;

/* The generic table: rows grouped by section, sections in
 * gm_config_sections order. Each design brings its own section and rows
 * (gm_design_ops.section, .keys); use the *_count / *_at functions below to
 * walk all of them: the generic ones first, then every design's in
 * registry order. */
extern const gm_config_key gm_config_keys[];
extern const size_t gm_config_nkeys;
extern const gm_config_section gm_config_sections[];
extern const size_t gm_config_nsections;

size_t gm_config_key_count(void);
const gm_config_key *gm_config_key_at(size_t i);
/* Position of k in the gm_config_key_at order. */
size_t gm_config_key_index(const gm_config_key *k);
size_t gm_config_section_count(void);
const gm_config_section *gm_config_section_at(size_t i);

/* Building key rows (config_keys.c and every design's table).
 * GM_CFG_FIELD is offsetof(gm_config, f), plus a term that is always 0 but
 * does not compile when the field's width differs from the row type's. */
#define GM_CFG_FIELD(f, width) \
    (offsetof(gm_config, f) + 0 * sizeof(char[sizeof(((gm_config *)0)->f) == (width) ? 1 : -1]))
#define GM_CFG_U32(sec, f, key, def, lo, hi, src, unit, doc) \
    { sec, key, GM_KEY_U32, GM_CFG_FIELD(f, 4), def, lo, hi, NULL, src, unit, doc }
#define GM_CFG_U64(sec, f, key, def, lo, hi, src, unit, doc) \
    { sec, key, GM_KEY_U64, GM_CFG_FIELD(f, 8), def, lo, hi, NULL, src, unit, doc }
#define GM_CFG_I64(sec, f, key, def, lo, hi, src, unit, doc) \
    { sec, key, GM_KEY_I64, GM_CFG_FIELD(f, 8), (uint64_t)(int64_t)(def), \
      (uint64_t)(int64_t)(lo), (uint64_t)(int64_t)(hi), NULL, src, unit, doc }
#define GM_CFG_SIZE(sec, f, key, def, lo, hi, src, doc) \
    { sec, key, GM_KEY_SIZE, GM_CFG_FIELD(f, 4), def, lo, hi, NULL, src, "bytes", doc }
#define GM_CFG_ENUM(sec, f, key, def, names, src, doc) \
    { sec, key, GM_KEY_ENUM, GM_CFG_FIELD(f, 4), def, 0, 0, names, src, "", doc }
#define GM_CFG_K 1024u
#define GM_CFG_M (1024u * 1024u)

/* NULL if unknown. Names are case-sensitive. */
const gm_config_section *gm_config_section_find(const char *section);
const gm_config_key *gm_config_key_find(const char *section, const char *name);

/* Values travel as uint64_t; a GM_KEY_I64 value is its two's complement
 * bit pattern. */
uint64_t gm_config_key_get(const gm_config *c, const gm_config_key *k);
void gm_config_key_put(gm_config *c, const gm_config_key *k, uint64_t v);
/* <0, 0, >0 as a < b, a == b, a > b in the key's own signedness. */
int gm_config_key_cmp(const gm_config_key *k, uint64_t a, uint64_t b);
/* Nonzero if v is allowed for k (in min..max, or a valid enum index). */
int gm_config_key_allows(const gm_config_key *k, uint64_t v);

/* Formats v the way gm_config_to_ini writes it (enum name, size with a
 * K/M suffix when exact). Returns buf. */
char *gm_config_format_value(const gm_config_key *k, uint64_t v, char *buf, size_t len);
#define GM_CONFIG_VALUE_LEN 32

/* Writes gm_config_to_ini's text to f. Returns 0, or -1 on a write error. */
int gm_config_write_ini(const gm_config *c, FILE *f);

/* Writes the key reference of docs/config.md (the text between its
 * GM_CONFIG_DOC_BEGIN and GM_CONFIG_DOC_END markers, exclusive).
 * Returns 0, or -1 on a write error. */
int gm_config_write_markdown(FILE *f);
#define GM_CONFIG_DOC_BEGIN "<!-- BEGIN KEYS: generated by gm_config_write_markdown(), do not edit -->\n"
#define GM_CONFIG_DOC_END "<!-- END KEYS -->\n"

#endif
