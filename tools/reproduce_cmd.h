/* `totex reproduce` (internal to tools/). */
#ifndef TOTEX_TOOLS_REPRODUCE_CMD_H
#define TOTEX_TOOLS_REPRODUCE_CMD_H
#include <stdio.h>

/** `totex reproduce [--sweep small|full] [--output FILE.md]`; returns the exit status
    (0 all claims agree, 1 any disagreement, 2 bad input or unwritable output). */
int totex_cmd_reproduce(int argc, char **argv);
/** Its help text. */
void totex_cmd_reproduce_usage(FILE *fp);

#endif
