/*
 * totex bounds|plan|compare SPEC --demand D: the bounds
 * of a demand matrix with their witnesses, the byte-weighted schedules
 * verified by the byte-weighted simulator, the automatic choice and its
 * ratio to the best bound, the bytes per link as a picture. Thin: parses,
 * calls the library, prints.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "demand_cmd.h"
#include "totex.h"

int totex_cmd_wants_demand(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--demand") || !strncmp(argv[i], "--demand=", 9))
            return 1;
    return 0;
}

void totex_cmd_demand_usage(FILE *fp)
{
    fprintf(fp,
            "usage: totex bounds  SPEC --demand D [--seed N] [--bandwidth B] [--ts S] [--no-lp] [--time-limit S] [--json]\n"
            "       totex plan    SPEC --demand D [... as bounds] [--algorithm auto|direct|uniform|bvn|fluid-lp] [--picture FILE]\n"
            "       totex compare SPEC --demand D [... as bounds]\n"
            "\n"
            "Non-uniform total exchange: node i sends W[i][j] bytes to node j (docs/demand.md).\n"
            "D: a generator, seeded by --seed N (default 1): uniform:M (M bytes per pair), zipf:S:M\n"
            "(destinations' popularity Zipf with exponent S, mean M), hotspot:K:M (K nodes receive 8M\n"
            "from everyone, the others M), random:M (uniform on [0, 2M]); or a file: CSV (n lines of n\n"
            "byte counts) or JSON ({\"bytes\": [[...], ...]}, a path ending .json).\n"
            "Model: multiport, every directed link B bytes/s (--bandwidth, default 1e9), a step costs\n"
            "t_s (--ts, default 1e-6 s) + the most bytes on one link / B.\n"
            "bounds: injection, ejection, cut (every dimension cut, 000 eq. 4 / Theorem 5), hop-bytes,\n"
            "and on at most 64 nodes the exact fluid optimum by LP (GLPK; --no-lp skips it, --time-limit S\n"
            "limits it), in bytes on the busiest link and in seconds, each with its witness.\n"
            "plan: the schedules direct, uniform (the unit-step optimum carrying real lengths), bvn\n"
            "(Birkhoff-von Neumann permutations) and fluid-lp (the LP's routing), each replayed by the\n"
            "byte-weighted simulator; auto picks the fastest and reports its ratio to the best bound.\n"
            "--picture FILE (.png|.svg, 2-D networks): the bytes each directed link carried.\n"
            "compare: every schedule side by side.\n");
}

static int number(const char *opt, const char *v, double lo, double *out)
{
    char *end, msg[300];
    errno = 0;
    double x = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || errno || !(x >= lo) || x > 1e18) {
        snprintf(msg, sizeof msg, "%s needs a number%s (see totex plan --demand x --help)", opt,
                 lo > 0 ? " above 0" : " of at least 0");
        return totex_cli_fail(2, msg);
    }
    *out = x;
    return 0;
}

int totex_cmd_demand(const char *cmd, int argc, char **argv)
{
    const char *spec = NULL, *demand = NULL, *algorithm = NULL, *picture = NULL;
    int json = 0, help = 0, rc;
    uint64_t seed = 1;
    totex_demand_plan_options o = {0};
    o.bandwidth = 1e9;
    o.ts = 1e-6;
    int is_plan = !strcmp(cmd, "plan"), is_bounds = !strcmp(cmd, "bounds");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
#define VALUE(name) (a[strlen(name)] == '=' ? a + strlen(name) + 1 : (i + 1 < argc ? argv[++i] : NULL))
#define IS(name) (!strcmp(a, name) || (!strncmp(a, name "=", strlen(name) + 1)))
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--no-lp")) {
            o.no_lp = 1;
        } else if (IS("--demand")) {
            if (!(demand = VALUE("--demand")))
                return totex_cli_fail(2, "--demand needs a generator (uniform:M, zipf:S:M, hotspot:K:M, random:M) or a file");
        } else if (IS("--seed")) {
            const char *v = VALUE("--seed");
            char *end;
            errno = 0;
            unsigned long long s = v ? strtoull(v, &end, 10) : 0;
            if (!v || *v < '0' || *v > '9' || *end || errno)
                return totex_cli_fail(2, "--seed needs a whole number (0 .. 2^64-1)");
            seed = s;
        } else if (IS("--bandwidth")) {
            if ((rc = number("--bandwidth", VALUE("--bandwidth"), 1e-300, &o.bandwidth)))
                return rc;
        } else if (IS("--ts")) {
            if ((rc = number("--ts", VALUE("--ts"), 0, &o.ts)))
                return rc;
        } else if (IS("--time-limit")) {
            if ((rc = number("--time-limit", VALUE("--time-limit"), 0, &o.lp_seconds)))
                return rc;
        } else if (IS("--ports")) {
            const char *v = VALUE("--ports");
            totex_ports p;
            totex_error e;
            if (!v || totex_ports_parse(v, &p, &e) != TOTEX_OK || p != TOTEX_PORTS_MULTI)
                return totex_cli_fail(2, "with --demand the model is multiport (every link at once): drop --ports or give --ports multi");
        } else if (is_plan && IS("--algorithm")) {
            if (!(algorithm = VALUE("--algorithm")))
                return totex_cli_fail(2, "--algorithm needs auto, direct, uniform, bvn or fluid-lp");
        } else if (is_plan && IS("--picture")) {
            if (!(picture = VALUE("--picture")) || !*picture)
                return totex_cli_fail(2, "--picture needs a file name ending in .png or .svg");
        } else if (a[0] == '-' && a[1]) {
            char msg[400];
            snprintf(msg, sizeof msg, "unknown option '%.200s' for totex %s --demand (see totex %s --demand x --help)", a, cmd, cmd);
            return totex_cli_fail(2, msg);
        } else if (!spec) {
            spec = a;
        } else {
            char msg[300];
            snprintf(msg, sizeof msg, "unexpected argument '%.200s': give one SPEC (quote it if it contains '*')", a);
            return totex_cli_fail(2, msg);
        }
#undef VALUE
#undef IS
    }
    if (help) {
        totex_cmd_demand_usage(stdout);
        return 0;
    }
    if (!spec)
        return totex_cli_fail(2, "a SPEC is needed, e.g. totex plan torus:4x4 --demand zipf:1.2:65536");
    if (!demand)
        return totex_cli_fail(2, "--demand needs a generator (uniform:M, zipf:S:M, hotspot:K:M, random:M) or a file");
    if (o.lp_seconds > 0 && o.no_lp)
        return totex_cli_fail(2, "--time-limit limits the fluid LP: drop --no-lp or --time-limit");
    totex_cli_output outs[] = {{"--picture", picture}, {"--demand", NULL}};
    if ((rc = totex_cli_check_outputs(spec, outs, 1)))
        return rc;
    if (picture) { /* the picture never overwrites the demand file it reads */
        char a[PATH_MAX], b[PATH_MAX];
        if (!strcmp(picture, demand) || (realpath(picture, a) && realpath(demand, b) && !strcmp(a, b)))
            return totex_cli_fail(2, "--picture names the demand file it reads: give another file");
    }
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net)
        return totex_cli_fail(2, err.msg);
    if (picture && totex_network_dims(net) != 2) { /* refused before any work */
        char msg[300];
        snprintf(msg, sizeof msg, "--picture draws the bytes per link of 2-D networks only; %.100s has %u dimensions",
                 spec, totex_network_dims(net));
        totex_network_free(net);
        return totex_cli_fail(2, msg);
    }
    totex_demand *d = totex_demand_parse(demand, totex_network_nodes(net), seed, &err);
    if (!d) {
        totex_network_free(net);
        return totex_cli_fail(2, err.msg);
    }
    o.only = is_bounds ? "none" : algorithm;
    o.keep_links = picture != NULL;
    totex_demand_view view = is_bounds ? TOTEX_DEMAND_VIEW_BOUNDS : is_plan ? TOTEX_DEMAND_VIEW_PLAN : TOTEX_DEMAND_VIEW_COMPARE;
    totex_demand_report r;
    totex_status st = totex_demand_plan(net, d, &o, &r, &err);
    rc = 0;
    if (st != TOTEX_OK) {
        rc = totex_cli_fail(st == TOTEX_EVIOLATION ? 1 : 2, err.msg);
    } else if (!is_bounds && r.chosen == SIZE_MAX) {
        char msg[700];
        snprintf(msg, sizeof msg, "no schedule could be planned for this demand: %.600s", r.nrows ? r.rows[0].reason : "none asked");
        rc = totex_cli_fail(2, msg);
    } else {
        if (picture) {
            totex_picture_labels lb = {0};
            char title[300];
            snprintf(title, sizeof title, "%.100s, demand %.100s, schedule %.40s", spec, d->what, r.rows[r.chosen].name);
            lb.title = title;
            if (totex_picture_link_bytes(picture, net, &r.links, r.link_bytes, &lb, 0, 0, &err) != TOTEX_OK)
                rc = totex_cli_fail(2, err.msg);
        }
        if (!rc) {
            if (json) {
                if (totex_cli_put_json(stdout, totex_report_demand_json(net, spec, d, &o, &r, view)))
                    rc = 1;
            } else {
                totex_report_demand_text(stdout, net, spec, d, &o, &r, view);
            }
            totex_cli_wrote(stdout, json, picture);
        }
    }
    totex_demand_report_release(&r);
    totex_demand_free(d);
    totex_network_free(net);
    return rc;
}
