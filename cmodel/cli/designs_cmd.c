#include "cli/designs_cmd.h"

#include <stdio.h>
#include <string.h>

#include "designs/design.h"

int gm_cmd_list_designs(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: gmsim list-designs\n\n"
                 "Lists every design gmsim can build between the cores and the L2 slices:\n"
                 "the value of [design] kind that selects it, its config section, and a\n"
                 "one-line summary (docs/designs/).");
            return 0;
        }
        fprintf(stderr, "gmsim list-designs: unexpected argument '%s'\n", argv[i]);
        return 1;
    }
    printf("%-10s %-10s %s\n", "kind", "section", "summary");
    for (size_t i = 0; i < gm_design_count(); i++) {
        const gm_design_ops *d = gm_design_at(i);
        char section[40];
        snprintf(section, sizeof section, "[%s]", d->section ? d->section->name : "-");
        printf("%-10s %-10s %s\n", d->name, d->section ? section : "-", d->summary);
    }
    return 0;
}
