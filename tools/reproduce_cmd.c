/*
 * totex reproduce [--sweep small|full] [--output FILE.md]: run every numbered
 * claim of the papers that totex implements (include/totex/reproduce.h) and
 * write the Markdown report; exit 1 on any disagreement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reproduce_cmd.h"
#include "totex.h"

void totex_cmd_reproduce_usage(FILE *fp)
{
    fprintf(fp, "usage: totex reproduce [--sweep small|full] [--output FILE.md]\n"
                "\n"
                "Runs every numbered claim totex implements from the papers (003 Theorems 1-3 and\n"
                "eqs. (1)-(2); 000/004 Theorem 1, Corollaries 1-3, Theorems 3 and 5, Figs. 1-2;\n"
                "001 Sections 4.1, 6.2, 7, 8.2, 8.3, 8.5; 002 Tables 1-2) over a sweep of sizes\n"
                "and writes a Markdown report: for each claim its source, the paper's value (the\n"
                "closed form, evaluated independently of the algorithm), totex's measured value\n"
                "(simulator, certifier, bounds) and agree/disagree. With --output a summary line\n"
                "goes to stdout; each disagreement is named on stderr. --sweep small (default)\n"
                "takes seconds; full takes minutes. Without --output the report goes to stdout.\n"
                "\n"
                "Exit status: 0 every claim agrees, 1 some claim disagrees, 2 bad option or\n"
                "unwritable output file.\n");
}

static int bad(const char *msg, const char *arg)
{
    fprintf(stderr, "totex: error: %s '%.200s' (see totex reproduce --help)\n", msg, arg);
    return 2;
}

int totex_cmd_reproduce(int argc, char **argv)
{
    totex_reproduce_options opt = {TOTEX_SWEEP_SMALL, 0.0};
    const char *output = NULL;
    totex_error err = {{0}};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            totex_cmd_reproduce_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--sweep") || !strncmp(a, "--sweep=", 8)) {
            v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return bad("--sweep needs small or full, got", "");
            if (totex_sweep_parse(v, &opt.sweep, &err) != TOTEX_OK) {
                fprintf(stderr, "totex: error: %s\n", err.msg);
                return 2;
            }
        } else if (!strcmp(a, "--output") || !strcmp(a, "-o") || !strncmp(a, "--output=", 9)) {
            v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || !*v)
                return bad("--output needs a file name, got", "");
            output = v;
        } else {
            return bad("unknown option", a);
        }
    }
    FILE *fp = stdout;
    if (output && !(fp = fopen(output, "w"))) {
        fprintf(stderr, "totex: error: cannot write '%.200s': check the directory exists and is writable\n", output);
        return 2;
    }
    totex_reproduction *r = NULL;
    if (totex_reproduce_run(&opt, &r, &err) != TOTEX_OK) {
        fprintf(stderr, "totex: error: %s\n", err.msg);
        if (output)
            fclose(fp);
        return 2;
    }
    totex_reproduction_write_markdown(fp, r);
    if (output && fclose(fp) != 0) {
        fprintf(stderr, "totex: error: writing '%.200s' failed\n", output);
        totex_reproduction_free(r);
        return 2;
    }
    if (output) /* the summary line; without --output the report itself (on stdout) carries it */
        printf("totex reproduce (%s sweep): %zu instances of %zu claims, %zu agree, %zu disagree, %.2f s; report in %s\n",
               opt.sweep == TOTEX_SWEEP_FULL ? "full" : "small", r->count, totex_reproduce_family_count(), r->agree,
               r->disagree, r->seconds, output);
    for (size_t i = 0; i < r->count; i++)
        if (!r->rows[i].agree)
            fprintf(stderr, "totex: disagreement: %s, %s: %s, paper %.9g, totex %.9g%s%s\n",
                    totex_reproduce_family(r->rows[i].family)->id, r->rows[i].instance, r->rows[i].quantity,
                    r->rows[i].paper, r->rows[i].measured, r->rows[i].note[0] ? ": " : "", r->rows[i].note);
    int code = r->disagree ? 1 : 0;
    totex_reproduction_free(r);
    return code;
}
