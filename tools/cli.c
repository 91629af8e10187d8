/* The CLI's one-line errors and the shared opening of its commands (tools/cli.h). */
#include "cli.h"

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
