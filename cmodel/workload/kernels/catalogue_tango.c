/* Catalogue entries of the tango kernels (see catalogue.c). */
#include "workload/kernels/kernels.h"

const gm_workload_info gm_catalogue_tango[] = {
    {NULL, NULL, NULL, NULL, NULL},
};
