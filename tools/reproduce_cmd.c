/*
 * totex reproduce [--sweep small|full] [--output FILE.md]: run every numbered
 * claim of the papers that totex implements (tools/reproduce.h) and
 * write the Markdown report; exit 1 on any disagreement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "reproduce.h"
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

/* Pictures of the papers' figure cases, written beside the report and linked from it. */
static void write_pictures(FILE *md, const char *output)
{
    static const struct {
        const char *spec, *algo, *file, *caption;
        totex_ports ports;
    } figs[] = {
        {"path:6", "dimension", "fig-003-2-path6.png",
         "003 Fig. 2: furthest-first on a 6-node linear array, multiport (9 steps = ceil((n^2-1)/4))", TOTEX_PORTS_MULTI},
        {"ring:7", "dimension", "fig-003-3a-ring7.png",
         "003 Fig. 3(a): message-shift on a 7-node ring, multiport (6 steps = (n^2-1)/8)", TOTEX_PORTS_MULTI},
        {"ring:6", "dimension", "fig-003-3b-ring6.png",
         "003 Fig. 3(b): modified message-shift on a 6-node ring, multiport (5 steps = ceil((n^2-1)/8))", TOTEX_PORTS_MULTI},
        {"torus:4x4", "octr", "fig-001-torus4x4.png",
         "001 Section 8: OCTR on a 4x4 torus, multiport (8 steps = critical sum = cut bound); its heat map follows",
         TOTEX_PORTS_MULTI},
    };
    char dir[1024] = ".";
    const char *slash = strrchr(output, '/');
    if (slash && (size_t)(slash - output) < sizeof dir) {
        memcpy(dir, output, (size_t)(slash - output));
        dir[slash - output] = '\0';
    }
    fprintf(md, "\n## Pictures\n\n");
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        totex_error err = {{0}};
        char path[1200], heat[1300] = "";
        totex_plan_result r;
        totex_network *net = totex_network_parse(figs[i].spec, &err);
        const totex_algorithm *a = totex_algorithm_find(figs[i].algo, &err);
        snprintf(path, sizeof path, "%s/%s", dir, figs[i].file);
        if (net && a && totex_plan_and_verify(net, figs[i].ports, a, 0, &r, &err) == TOTEX_OK) {
            r.name = figs[i].spec;
            if (totex_picture_plan(path, &r, 0, heat, sizeof heat, &err) == TOTEX_OK) {
                totex_cli_wrote(stdout, 0, path);
                totex_cli_wrote(stdout, 0, heat);
                fprintf(md, "![%s](%s)\n\n*%s*\n\n", figs[i].caption, figs[i].file, figs[i].caption);
                if (heat[0]) {
                    const char *base = strrchr(heat, '/');
                    fprintf(md, "![heat map](%s)\n\n", base ? base + 1 : heat);
                }
                totex_network_free(net);
                continue;
            }
        }
        fprintf(md, "*%s: no picture (%s)*\n\n", figs[i].caption, err.msg);
        totex_network_free(net);
    }
    /* every algorithm under every port model on the TPU v4 cube */
    totex_network *net = totex_network_parse("tpu-v4-cube", NULL);
    if (net) {
        totex_ports models[3] = {TOTEX_PORTS_SINGLE, 2, TOTEX_PORTS_MULTI};
        size_t cap = 3 * totex_algorithm_count();
        totex_compare_row *rows = calloc(cap, sizeof *rows);
        char path[1200];
        totex_error err = {{0}};
        snprintf(path, sizeof path, "%s/%s", dir, "compare-tpu-v4-cube.png");
        if (rows) {
            size_t count = totex_compare(net, models, 3, 0, rows, cap);
            if (totex_picture_compare(path, net, "tpu-v4-cube", rows, count, 1100, 560, &err) == TOTEX_OK) {
                totex_cli_wrote(stdout, 0, path);
                fprintf(md, "![compare](compare-tpu-v4-cube.png)\n\n*Every algorithm under single-port, 2-port and "
                            "multiport on the TPU v4 cube (4x4x4 torus), with the best lower bound of each model.*\n\n");
            } else
                fprintf(md, "*compare picture: %s*\n\n", err.msg);
        }
        free(rows);
        totex_network_free(net);
    }
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
    /* the report is written beside its path and renamed when complete: opened first, so that a
       path that cannot be written fails before the run */
    FILE *fp = stdout;
    totex_output *out = NULL;
    if (output && strcmp(output, "-")) {
        if (!(out = totex_output_open(output, &err))) {
            fprintf(stderr, "totex: error: %s\n", err.msg);
            return 2;
        }
        fp = totex_output_file(out);
    }
    totex_reproduce_report *r = NULL;
    if (totex_reproduce_run(&opt, &r, &err) != TOTEX_OK) {
        fprintf(stderr, "totex: error: %s\n", err.msg);
        totex_output_abort(out);
        return 2;
    }
    totex_reproduce_write_markdown(fp, r);
    struct stat sb;
    /* the figures go beside a report file (not beside a device such as /dev/null, nor for standard output) */
    if (out && (stat(output, &sb) != 0 || S_ISREG(sb.st_mode)))
        write_pictures(fp, output);
    if (out && totex_output_commit(out, &err) != TOTEX_OK) {
        fprintf(stderr, "totex: error: %s\n", err.msg);
        totex_reproduce_free(r);
        return 2;
    }
    if (!out)
        output = NULL; /* "-": the report itself, on stdout, carries the summary */
    totex_cli_wrote(stdout, 0, output);
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
    totex_reproduce_free(r);
    return code;
}
