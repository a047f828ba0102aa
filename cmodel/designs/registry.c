/* The design registry: every design gmsim can build, in `gmsim
 * list-designs` order. Adding a design is one folder under designs/ and
 * one line in each list below (docs/architecture.md, "Adding a design"). */
#include "designs/design.h"

#include <string.h>

#include "designs/baseline/baseline.h"
#include "designs/dcl1/dcl1.h"
#include "designs/selrep/selrep.h"
#include "designs/sharedl1/sharedl1.h"
#include "designs/ccn/ccn.h"
#include "designs/ata/ata.h"

/* The index is the value of [design] kind: keep the order stable. */
static const gm_design_ops *const designs[] = {
    &gm_baseline_design,
    &gm_dcl1_design,
    &gm_selrep_design,
    &gm_sharedl1_design,
    &gm_ccn_design,
    &gm_ata_design,
};

const char *const gm_design_names[] = { "baseline", "dcl1",     "selrep", "sharedl1",
                                        "ccn",      "ata",      NULL };

#define NDESIGNS (sizeof designs / sizeof designs[0])
_Static_assert(sizeof gm_design_names / sizeof gm_design_names[0] == NDESIGNS + 1,
               "one name per registered design");

size_t gm_design_count(void)
{
    return NDESIGNS;
}

const gm_design_ops *gm_design_at(size_t i)
{
    return i < NDESIGNS ? designs[i] : NULL;
}

const gm_design_ops *gm_design_find(const char *name)
{
    for (size_t i = 0; i < NDESIGNS; i++)
        if (strcmp(designs[i]->name, name) == 0)
            return designs[i];
    return NULL;
}

const gm_design_ops *gm_design_of(const gm_config *c)
{
    return gm_design_at(c->design.kind);
}
