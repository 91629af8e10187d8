/* totex bounds|plan|compare SPEC --demand D: non-uniform total exchange, internal to tools/. */
#ifndef TOTEX_TOOLS_DEMAND_CMD_H
#define TOTEX_TOOLS_DEMAND_CMD_H
#include <stdio.h>
/** @return 1 when the arguments give --demand (the command is the demand one). */
int totex_cmd_wants_demand(int argc, char **argv);
/** Run `totex CMD ... --demand D` for @p cmd "bounds", "plan" or "compare" (argv after the command). @return the exit status. */
int totex_cmd_demand(const char *cmd, int argc, char **argv);
/** Print the demand options' usage on @p fp. */
void totex_cmd_demand_usage(FILE *fp);
#endif
