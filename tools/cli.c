/* The CLI's one-line errors and the shared opening of its commands (tools/cli.h). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "totex.h"

int totex_cli_fail(int code, const char *msg)
{
    fputs("totex: error: ", stderr);
    for (const char *p = msg; *p; p++)
        fputc(((unsigned char)*p < 0x20 || *p == 0x7f) ? '?' : *p, stderr);
    fputc('\n', stderr);
    return code;
}

int totex_cli_open(int parse_rc, int help, const char *spec, void (*usage)(FILE *), const char *no_spec)
{
    if (parse_rc)
        return parse_rc;
    if (help) {
        usage(stdout);
        return 0;
    }
    if (!spec)
        return totex_cli_fail(2, no_spec);
    return -1;
}

int totex_cli_check_outputs(const char *spec, const totex_cli_output *outs, size_t nouts)
{
    char msg[900];
    for (size_t i = 0; i < nouts; i++) {
        if (!outs[i].path)
            continue;
        for (size_t j = 0; j < i; j++)
            if (outs[j].path && totex_output_same_file(outs[i].path, outs[j].path)) {
                snprintf(msg, sizeof msg, "%s '%.200s' and %s '%.200s' name the same file: give each output its own path",
                         outs[j].option, outs[j].path, outs[i].option, outs[i].path);
                return totex_cli_fail(2, msg);
            }
        /* the graph files of the spec: factors "file:PATH" between '*' */
        for (const char *p = spec; p && *p;) {
            const char *end = strchr(p, '*');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (len > 5 && !strncmp(p, "file:", 5)) {
                char *path = strndup(p + 5, len - 5);
                int same = path && totex_output_same_file(outs[i].path, path);
                free(path);
                if (same) {
                    snprintf(msg, sizeof msg, "%s '%.200s' is the graph file the spec reads (%.*s): writing it would "
                             "overwrite the input; give another path", outs[i].option, outs[i].path,
                             (int)(len > 300 ? 300 : len), p);
                    return totex_cli_fail(2, msg);
                }
            }
            p = end ? end + 1 : NULL;
        }
    }
    return 0;
}

int totex_cli_put_json(FILE *fp, char *text)
{
    if (!text)
        return totex_cli_fail(1, "out of memory writing JSON");
    fprintf(fp, "%s\n", text);
    free(text);
    return 0;
}

void totex_cli_wrote(FILE *fp, int json, const char *path)
{
    if (!path || !*path || !strcmp(path, "-"))
        return;
    fprintf(json ? stderr : fp, "wrote %s\n", path);
}

FILE *totex_cli_progress(void)
{
    return totex_progress_enabled() ? stderr : NULL;
}
