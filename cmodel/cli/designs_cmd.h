/* gmsim list-designs: the registered designs (designs/registry.c). */
#ifndef GM_CLI_DESIGNS_CMD_H
#define GM_CLI_DESIGNS_CMD_H

int gm_cmd_list_designs(int argc, char **argv);

#endif
