/* gmsim: the reference-model-only command (no RTL). */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return gm_cli_main(argc, argv, NULL);
}
