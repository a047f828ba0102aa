/* The registry of DRAM standards. Adding a standard is one table (a new
 * dram_std_<name>.c defining gm_dram_std_<name>, declared in
 * dram_standard.h) and one line below. The line order is the value order
 * of [dram] standard; the INI files hold the names, so append only. */
#include "dram/dram_standard.h"

#include <string.h>

#define STANDARDS(X) \
    X(gddr5)         \
    X(hbm)

#define NAME(n) #n,
const char *const gm_dram_standard_names[] = { STANDARDS(NAME) NULL };
#undef NAME

#define ENTRY(n) &gm_dram_std_##n,
static const gm_dram_standard *const registry[] = { STANDARDS(ENTRY) };
#undef ENTRY

uint32_t gm_dram_standard_count(void)
{
    return (uint32_t)(sizeof registry / sizeof registry[0]);
}

const gm_dram_standard *gm_dram_standard_at(uint32_t i)
{
    return i < gm_dram_standard_count() ? registry[i] : NULL;
}

const gm_dram_standard *gm_dram_standard_find(const char *name)
{
    for (uint32_t i = 0; i < gm_dram_standard_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

void gm_dram_standard_load(gm_dram_cfg *d)
{
    const gm_dram_standard *s = gm_dram_standard_at(d->standard);
    if (!s)
        return;
    d->clock_mhz = s->clock_mhz;
    d->banks = s->banks;
    d->bank_groups = s->bank_groups;
    d->row_bytes = s->row_bytes;
    d->atom_bytes = s->atom_bytes;
    d->t = s->timing;
}

int gm_dram_standard_check(const gm_dram_cfg *d, gm_error *err)
{
    const gm_dram_standard *s = gm_dram_standard_at(d->standard);
    if (!s)
        return gm_fail(err, "[dram] standard = %u: no such standard (%u are known)",
                       d->standard, gm_dram_standard_count());
    if (s->refresh != GM_DRAM_REFRESH_ALL_BANK)
        return gm_fail(err, "[dram] standard = %s: refresh kind %u has no controller rule",
                       s->name, s->refresh);
    return s->check ? s->check(d, err) : 0;
}
