/* Catalogue entries of the rodinia kernels (see catalogue.c). */
#include "workload/kernels/kernels.h"

const gm_workload_info gm_catalogue_rodinia[] = {
    {NULL, NULL, NULL, NULL, NULL},
};
