/* The "gmsim trace" command: trace export and inspection (trace_cmd.c). */
#ifndef GM_CLI_TRACE_CMD_H
#define GM_CLI_TRACE_CMD_H

/* argv[0] is "trace". Returns the process exit status. */
int gm_cmd_trace(int argc, char **argv);

#endif
