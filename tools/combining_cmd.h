/* The message-combining subcommands of the CLI (internal to tools/). */
#ifndef TOTEX_TOOLS_COMBINING_CMD_H
#define TOTEX_TOOLS_COMBINING_CMD_H

/** 1 if the arguments of plan/compare contain --model (then the combining command handles them). */
int totex_cmd_wants_combining(int argc, char **argv);
/** `totex plan SPEC --model combining ...`; returns the exit status. */
int totex_cmd_comb_plan(int argc, char **argv);
/** `totex compare SPEC --model combining ...`; returns the exit status. */
int totex_cmd_comb_compare(int argc, char **argv);
/** `totex verify FILE ...`; returns the exit status. */
/* network: a spec given with --network (NULL: the file's own, which may not name a graph file) */
int totex_cmd_comb_verify(int argc, char **argv, const char *network);
/** Help texts. */
void totex_cmd_comb_usage_plan(FILE *fp);
void totex_cmd_comb_usage_compare(FILE *fp);
void totex_cmd_comb_usage_verify(FILE *fp);

#endif
