/* gmsim topology: the routers a configuration builds, per network. */
#ifndef GM_CLI_TOPOLOGY_CMD_H
#define GM_CLI_TOPOLOGY_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "sim/error.h"

/* Builds the system of cfg (no workload), groups its crossbars by network
 * and direction and by size, and prints them as JSON (or a table). */
int gm_topology_print(const gm_config *cfg, const char *config_name, bool table, FILE *out,
                      gm_error *err);

#endif
