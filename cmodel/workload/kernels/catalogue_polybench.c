/* Catalogue entries of the polybench kernels (see catalogue.c). */
#include "workload/kernels/kernels.h"

const gm_workload_info gm_catalogue_polybench[] = {
    {NULL, NULL, NULL, NULL, NULL},
};
