/* Shared by the CLI's command files (internal to tools/): the one-line error
 * and the opening every SPEC-taking command shares. */
#ifndef TOTEX_TOOLS_CLI_H
#define TOTEX_TOOLS_CLI_H

#include <stdio.h>

/** Print "totex: error: MSG" as one line on stderr (control characters of
 *  quoted input become '?'); returns @p code (the exit status to give). */
int totex_cli_fail(int code, const char *msg);

/** The opening of a command after its options were parsed with status
 *  @p parse_rc: a non-zero status is returned as is; with @p help, @p usage is
 *  printed on stdout and 0 returned; without a SPEC (@p spec NULL), @p no_spec
 *  is the error (status 2). Returns -1 when the command goes on. */
/* One output of a command: its option (for the message) and its path (NULL: not given). */
typedef struct totex_cli_output {
    const char *option;
    const char *path;
} totex_cli_output;

/* Before anything runs: refuse (exit 2, one line) an output that is a graph file the spec reads (file:PATH)
   or another output; 0 when none is. */
int totex_cli_check_outputs(const char *spec, const totex_cli_output *outs, size_t nouts);

/* "wrote PATH": the line naming a file a command wrote (--schedule, --picture and its heat map, --output),
   on @p fp (where the command's report goes), or on stderr when @p json (standard output carries JSON);
   nothing for NULL, "" or "-" (standard output itself). */
void totex_cli_wrote(FILE *fp, int json, const char *path);

/* A command's JSON document @p text (malloc'ed, NULL when it could not be made) and a newline on @p fp,
   then freed: 0, or 1 with "out of memory writing JSON" on stderr when @p text is NULL. */
int totex_cli_put_json(FILE *fp, char *text);

/* Where a command's progress meters write, the CLI's one decision: stderr when progress is on (a terminal, or
   TOTEX_PROGRESS=1; totex_progress_enabled()), else NULL. Commands pass it down in their options. */
FILE *totex_cli_progress(void);

int totex_cli_open(int parse_rc, int help, const char *spec, void (*usage)(FILE *), const char *no_spec);

#endif
