/* The key reference of docs/config.md, generated from the key table so
 * the documentation cannot drift from the parser (tests/unit/test_config.c
 * compares the file against this output). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config/config_keys.h"

static const char *source_name(gm_key_source s)
{
    switch (s) {
    case GM_SRC_TABLE2: return "Table II";
    case GM_SRC_HYNIX: return "Hynix GDDR5";
    case GM_SRC_ASSUMED: return "assumed";
    case GM_SRC_RUN: return "run control";
    }
    return "?";
}

static void write_allowed(FILE *f, const gm_config_key *k)
{
    char lo[GM_CONFIG_VALUE_LEN], hi[GM_CONFIG_VALUE_LEN];
    if (k->type == GM_KEY_ENUM) {
        for (size_t i = 0; k->names[i]; i++)
            fprintf(f, "%s`%s`", i ? ", " : "", k->names[i]);
    } else if (k->max == UINT64_MAX && k->min == 0) {
        fputs("any", f);
    } else if (k->max == UINT64_MAX) {
        fprintf(f, ">= %s", gm_config_format_value(k, k->min, lo, sizeof lo));
    } else {
        fprintf(f, "%s..%s", gm_config_format_value(k, k->min, lo, sizeof lo),
                gm_config_format_value(k, k->max, hi, sizeof hi));
    }
}

int gm_config_write_markdown(FILE *f)
{
    gm_config def;
    gm_config_defaults(&def);
    for (size_t s = 0; s < gm_config_section_count(); s++) {
        const gm_config_section *sec = gm_config_section_at(s);
        fprintf(f, "%s### [%s]\n\n%s\n\n", s ? "\n" : "", sec->name, sec->doc);
        fputs("| key | default | allowed | unit | default from | description |\n", f);
        fputs("|---|---|---|---|---|---|\n", f);
        for (size_t i = 0; i < gm_config_key_count(); i++) {
            const gm_config_key *k = gm_config_key_at(i);
            char v[GM_CONFIG_VALUE_LEN];
            if (strcmp(k->section, sec->name) != 0)
                continue;
            fprintf(f, "| `%s` | %s | ", k->name,
                    gm_config_format_value(k, gm_config_key_get(&def, k), v, sizeof v));
            write_allowed(f, k);
            fprintf(f, " | %s | %s | %s |\n", k->unit, source_name(k->source), k->doc);
        }
    }
    return ferror(f) ? -1 : 0;
}
