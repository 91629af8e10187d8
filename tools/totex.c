/*
 * totex: the command-line tool. Thin: parses arguments, calls the library,
 * prints. Exit status 0 on success, 2 on bad input (spec, option, algorithm
 * that does not apply, unreadable file), 1 if a schedule fails verification.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "combining_cmd.h"
#include "demand_cmd.h"
#include "exact_cmd.h"
#include "reproduce_cmd.h"
#include "totex.h"
#include "verify_cmd.h"

static void usage_main(FILE *fp)
{
    fprintf(fp,
            "usage: totex <command> [options]\n"
            "\n"
            "Plan, verify and report total exchange (all-to-all personalized exchange)\n"
            "on multidimensional networks.\n"
            "\n"
            "commands:\n"
            "  machines                 list the presets of real machines' networks\n"
            "  bounds SPEC [options]    network metrics and every lower bound with its witness\n"
            "  plan SPEC [options]      plan a schedule, replay it in the simulator, report\n"
            "  compare SPEC [options]   every algorithm under every port model, side by side\n"
            "  algorithms               list the algorithms\n"
            "  verify FILE [options]    check a schedule file: unit-step, MSCCL XML, combining\n"
            "  reproduce [options]      run the papers' claims, write a Markdown report\n"
            "  help [command]           this text, or a command's options\n"
            "\n"
            "SPEC: factors joined by '*': path:M ring:M complete:M k2 file:PATH,\n"
            "      shorthands torus:AxB.. mesh:AxB.. hypercube:D ghc:AxB.., or a preset.\n"
            "      Example: totex plan 'ring:7*path:5*complete:4' --ports single\n"
            "\n"
            "plan and compare take --model combining for the message-combining model of\n"
            "002 (see totex plan --model combining --help).\n"
            "bounds, plan and compare take --demand D for non-uniform total exchange: W[i][j]\n"
            "bytes from node i to node j (see totex plan --demand x --help, docs/demand.md).\n"
            "\n"
            "defaults:\n"
            "  bounds, plan             --ports single (k:N k-port, multi every link at once)\n"
            "  plan                     --algorithm auto (the fewest steps of the algorithms\n"
            "                           that apply, then the smallest average delay; the\n"
            "                           report's first lines name the one it picked)\n"
            "  plan                     --exact-budget 2 (CPU s), --costly-budget 2^25 (hops; on\n"
            "                           larger networks auto skips greedy and its kin)\n"
            "  compare                  every algorithm under single, k:2 and multi ports;\n"
            "                           --exact-budget 2 (CPU s) for the exact row\n"
            "  plan, compare, verify    --max-messages 2^26 (the simulator's limit)\n"
            "  verify FILE              the port model the file names (--ports overrides)\n"
            "  verify FILE.xml (MSCCL)  --ports multi\n"
            "  plan/compare --model combining   wormhole, --port one, costs of totex plan\n"
            "                           --model combining --help\n"
            "  reproduce                --sweep small (seconds); the report on stdout\n"
            "Files written (--schedule, --picture and its -heatmap, --output and the report's\n"
            "figures) are named on a line 'wrote FILE' (on stderr when standard output\n"
            "carries JSON or the schedule).\n"
            "\n"
            "MPI: the library libtotex_mpi (totex_alltoall(), #include <totex/mpi.h>;\n"
            "pkg-config totex-mpi, CMake find_package(totex COMPONENTS MPI)) and the\n"
            "drop-in libtotex_pmpi.so (LD_PRELOAD, replaces MPI_Alltoall) run these\n"
            "schedules over MPI; TOTEX_VERBOSE=1 says which ran. See docs/mpi.md.\n"
            "\n"
            "Jobs of more than a second show progress on stderr when it is a terminal\n"
            "(steps done, rate, time left); TOTEX_PROGRESS=1 forces it, =0 silences it;\n"
            "TOTEX_PROGRESS_DELAY=S shows it after S seconds instead of 1.\n");
}

static void usage_bounds(FILE *fp)
{
    fprintf(fp, "usage: totex bounds SPEC [--ports single|multi|k:N] [--json] [--exact [--time-limit S]]\n"
                "\n"
                "Prints diameter, total status and average status (Theorem 1 / Corollary 1 of\n"
                "000 and 004), and every lower bound on total exchange steps under the port\n"
                "model with its witness: average status (000 eq. 3; k-port: 001 Section 7),\n"
                "cut (000 eq. 4), per-node receive bound, per-node relay bound (single-port and\n"
                "k-port). Default --ports single.\n"
                "\n"
                "--ports: single (a node sends one and receives one message per step),\n"
                "multi (every link at once), k:N (k-port: at most N links per node per step,\n"
                "1 <= N <= 4096, 001 Section 7; k:1 is single).\n"
                "--exact: also the exact optimum by integer programming (networks of at most 64\n"
                "nodes), a bound of kind exact with its certificate (the solver's proof that one\n"
                "step fewer is infeasible); --time-limit S stops the search after S seconds with\n"
                "the proved lower bound and the gap to the best schedule found.\n");
}

static void usage_plan(FILE *fp)
{
    fprintf(fp, "usage: totex plan SPEC [--ports single|multi|k:N] [--algorithm NAME|auto] [--json]\n"
                "                      [--schedule FILE [--format json|full|msccl]]\n"
                "                      [--objective steps|delay] [--max-messages N] [--picture FILE]\n"
                "                      [--verbose] [--exact-budget S] [--costly-budget HOPS]\n"
                "\n"
                "Plans total exchange with the algorithm (auto, the default: --objective steps\n"
                "picks the fewest steps, then the smallest average delay; --objective delay the\n"
                "smallest average delay, then the fewest steps),\n"
                "streams every step through the independent simulator, and reports steps,\n"
                "bounds with witness, ratio, optimality, average delay, peak queue,\n"
                "utilisation and wall time (of the whole command), the answer first;\n"
                "--verbose also lists the algorithms that do not apply and why. Default --ports single; k:N is k-port (at most N\n"
                "links per node per step, 1 <= N <= 4096, 001 Section 7). --max-messages N\n"
                "limits what is planned and replayed message by message (default 2^26 =\n"
                "67108864 messages, under 2 GiB with the planner's state; at most 2^31).\n"
                "--picture FILE (.png or .svg): space-time diagram of the schedule (one row per node\n"
                "on 1-D networks, per directed link otherwise; <= 64 nodes), else link utilisation\n"
                "per step; on 2-D networks also a link heat map in FILE-heatmap.png|.svg.\n"
                "--model combining: the message-combining model (totex plan --model combining --help).\n"
                "--algorithm exact [--time-limit S]: the exact optimum by integer programming (at most\n"
                "64 nodes); S seconds end the search with the best schedule found and the gap.\n"
                "--exact-budget S: CPU seconds auto gives the exact search (default 2; 0: none):\n"
                "on networks of at most 64 nodes whose integer program fits, auto searches down from\n"
                "the other algorithms' fewest steps and takes a better schedule it finds in time.\n"
                "--costly-budget HOPS: auto skips an algorithm whose prediction is a run of the whole\n"
                "algorithm (greedy and its kin) on a network of more than HOPS hops (its total status\n"
                "S_G) when a cheaper one applies (default 2^25 = 33554432; 1.5 HOPS for greedy under k-port,\n"
                "planned at once; 8 HOPS for pipeline); the report's choice line names what it skipped.\n"
                "A larger HOPS tries them.\n"

                "--schedule FILE [--format json|full|msccl]: write the verified schedule for `totex verify`\n"
                "(docs/unit-schedule-format.md): json (default) the symmetric form (node 0's moves and\n"
                "the translation rule) when the algorithm has one, else every hop; full every hop,\n"
                "streamed; msccl MSCCL XML for an all-to-all on ngpus = nodes, refused with the\n"
                "executor's limit it exceeds (steps per thread block, XML nodes per rank).\n");
}

typedef struct options {
    const char *spec;
    const char *algorithm;
    totex_ports ports;
    int json;
    int help;
    int ports_given;
    totex_objective objective;
    uint64_t max_messages;
    const char *picture; /* --picture FILE.png|.svg */
    int exact;           /* bounds --exact */
    double time_limit;   /* --time-limit S: seconds for the exact search, 0: none */
    double exact_budget; /* --exact-budget S: CPU seconds of auto's exact search; -1: not given */
    uint64_t costly_budget; /* plan --costly-budget HOPS: auto's budget of costly predictions; 0: the default */
    const char *schedule; /* --schedule FILE, --format json|full|msccl */
    totex_export_format format;
    int verbose; /* plan --verbose: also the algorithms that do not apply */
    int format_given;
} options;

static int parse_options(int argc, char **argv, options *o, int allow_algo)
{
    totex_error err;
    memset(o, 0, sizeof *o);
    o->ports = TOTEX_PORTS_SINGLE;
    o->exact_budget = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (allow_algo && (!strcmp(a, "--verbose") || !strcmp(a, "-v"))) {
            o->verbose = 1;
        } else if (!strcmp(a, "--ports") || !strncmp(a, "--ports=", 8)) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return totex_cli_fail(2, "--ports needs a value: single, multi or k:N (k-port, 1 <= N <= 4096)");
            if (totex_ports_parse(v, &o->ports, &err) != TOTEX_OK)
                return totex_cli_fail(2, err.msg);
            o->ports_given = 1;
        } else if (allow_algo && (!strcmp(a, "--objective") || !strncmp(a, "--objective=", 12))) {
            const char *v = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);
            if (v && !strcmp(v, "steps"))
                o->objective = TOTEX_OBJECTIVE_STEPS;
            else if (v && !strcmp(v, "delay"))
                o->objective = TOTEX_OBJECTIVE_DELAY;
            else
                return totex_cli_fail(2, "--objective needs steps (fewest steps, then smallest average delay) or delay (smallest average delay, then fewest steps)");
        } else if (allow_algo && (!strcmp(a, "--algorithm") || !strncmp(a, "--algorithm=", 12))) {
            o->algorithm = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);
            if (!o->algorithm)
                return totex_cli_fail(2, "--algorithm needs a name (see `totex algorithms`) or auto");
        } else if (allow_algo && (!strcmp(a, "--max-messages") || !strncmp(a, "--max-messages=", 15))) {
            const char *v = a[14] == '=' ? a + 15 : (i + 1 < argc ? argv[++i] : NULL);
            char *end;
            if (!v)
                return totex_cli_fail(2, "--max-messages needs a number");
            errno = 0;
            o->max_messages = strtoull(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end || !o->max_messages || errno == ERANGE ||
                o->max_messages > TOTEX_SIM_MAX_MESSAGES)
                return totex_cli_fail(2, "--max-messages needs a whole number from 1 to 2^31 = 2147483648 (messages the "
                                         "simulator may hold, 4 bytes each)");
        } else if (allow_algo && (!strcmp(a, "--picture") || !strncmp(a, "--picture=", 10))) {
            o->picture = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
            if (!o->picture)
                return totex_cli_fail(2, "--picture needs a file name ending in .png or .svg");
        } else if (!strcmp(a, "--exact") && !allow_algo) {
            o->exact = 1;
        } else if (!strcmp(a, "--time-limit") || !strncmp(a, "--time-limit=", 13)) {
            int rc = totex_cli_time_limit(a[12] == '=' ? a + 13 : (i + 1 < argc ? argv[++i] : NULL), &o->time_limit);
            if (rc)
                return rc;
        } else if (allow_algo && (!strcmp(a, "--exact-budget") || !strncmp(a, "--exact-budget=", 15))) {
            int rc = totex_cli_exact_budget(a[14] == '=' ? a + 15 : (i + 1 < argc ? argv[++i] : NULL), &o->exact_budget);
            if (rc)
                return rc;
        } else if (allow_algo == 2 && (!strcmp(a, "--costly-budget") || !strncmp(a, "--costly-budget=", 16))) {
            const char *v = a[15] == '=' ? a + 16 : (i + 1 < argc ? argv[++i] : NULL);
            char *end = NULL;
            errno = 0;
            o->costly_budget = v ? strtoull(v, &end, 10) : 0;
            if (!v || !isdigit((unsigned char)v[0]) || *end || !o->costly_budget || errno == ERANGE ||
                o->costly_budget > (UINT64_C(1) << 62))
                return totex_cli_fail(2, "--costly-budget needs a whole number of hops from 1 to 2^62, e.g. "
                                         "--costly-budget 268435456 (default 2^25 = 33554432)");
        } else if (allow_algo == 2 && (!strcmp(a, "--schedule") || !strncmp(a, "--schedule=", 11))) {
            o->schedule = a[10] == '=' ? a + 11 : (i + 1 < argc ? argv[++i] : NULL);
            if (!o->schedule || !*o->schedule)
                return totex_cli_fail(2, "--schedule needs a FILE to write the schedule to");
        } else if (allow_algo == 2 && (!strcmp(a, "--format") || !strncmp(a, "--format=", 9))) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (v && !strcmp(v, "json"))
                o->format = TOTEX_EXPORT_JSON;
            else if (v && !strcmp(v, "full"))
                o->format = TOTEX_EXPORT_JSON_FULL;
            else if (v && !strcmp(v, "msccl"))
                o->format = TOTEX_EXPORT_MSCCL;
            else
                return totex_cli_fail(2, "--format needs json (symmetric form when the algorithm has one), full (every hop) or msccl (MSCCL XML)");
            o->format_given = 1;
        } else if (a[0] == '-' && a[1]) {
            char msg[400];
            /* an option of the message-combining model given without it: say so rather than ignore it */
            static const char *const comb[] = {"--ts", "--tc", "--tl", "--rho", "--block", "--switching", "--port",
                                               "--sweep", "--max-blocks"};
            for (size_t k = 0; k < sizeof comb / sizeof *comb; k++) {
                size_t l = strlen(comb[k]);
                if (!strncmp(a, comb[k], l) && (a[l] == 0 || a[l] == '=')) {
                    snprintf(msg, sizeof msg, "%.40s is an option of the message-combining model: add --model combining "
                             "(see totex %s --model combining --help)", comb[k], allow_algo == 1 ? "compare" : "plan");
                    return totex_cli_fail(2, msg);
                }
            }
            snprintf(msg, sizeof msg, "unknown option '%.200s' (see --help)", a);
            return totex_cli_fail(2, msg);
        } else if (!o->spec) {
            o->spec = a;
        } else {
            char msg[300];
            snprintf(msg, sizeof msg, "unexpected argument '%s': give one SPEC (quote it if it contains '*')", a);
            return totex_cli_fail(2, msg);
        }
    }
    return 0;
}

static void usage_compare(FILE *fp)
{
    fprintf(fp, "usage: totex compare SPEC [--ports single|multi|k:N] [--json] [--max-messages N] [--picture FILE]\n"
                "                         [--exact-budget S]\n"
                "\n"
                "Plans and verifies every algorithm under every port model (single-port, 2-port\n"
                "and multiport, or only the one given with --ports) and prints them side by side:\n"
                "steps, best lower bound, ratio, average delay, peak queue, wall time, and how\n"
                "the schedule was verified; algorithms that do not apply say why.\n"
                "--picture FILE (.png or .svg): bar chart of the steps, lower bound drawn across.\n"
                "--exact-budget S: CPU seconds for the exact row's search (default 2; 0: the row says off).\n"
                "--model combining: the message-combining model (totex compare --model combining --help).\n");
}

/* the opening of plan, compare and bounds: parse the options (@p many: as
   parse_options), print @p usage on --help, refuse a missing SPEC with @p no_spec;
   returns the exit status when the command is done, -1 when it goes on */
static int command_options(int argc, char **argv, options *o, int many, void (*usage)(FILE *), const char *no_spec)
{
    int rc = parse_options(argc, argv, o, many);
    return totex_cli_open(rc, rc ? 0 : o->help, rc ? "" : o->spec, usage, no_spec);
}

static int cmd_compare(int argc, char **argv)
{
    options o;
    totex_error err;
    int rc = command_options(argc, argv, &o, 1, usage_compare,
                             "totex compare needs a SPEC, e.g. totex compare torus:4x4x4 (see totex compare --help)");
    if (rc >= 0)
        return rc;
    rc = 0;
    if (o.algorithm)
        return totex_cli_fail(2, "totex compare runs every algorithm: drop --algorithm (use totex plan for one)");
    if (o.time_limit > 0)
        return totex_cli_fail(2, "--time-limit is for totex plan --algorithm exact and totex bounds --exact, not compare");
    if (o.exact_budget >= 0)
        totex_exact_set_auto_budget(o.exact_budget);
    totex_cli_output outs[] = {{"--picture", o.picture}};
    if ((rc = totex_cli_check_outputs(o.spec, outs, 1)))
        return rc;
    totex_network *net = totex_network_parse(o.spec, &err);
    if (!net)
        return totex_cli_fail(2, err.msg);
    totex_ports all[3] = {TOTEX_PORTS_SINGLE, TOTEX_PORTS_K(2), TOTEX_PORTS_MULTI};
    size_t nports = 3;
    if (o.ports_given) {
        all[0] = o.ports;
        nports = 1;
    }
    size_t cap = nports * totex_algorithm_count();
    totex_compare_row *rows = calloc(cap, sizeof *rows);
    if (!rows) {
        totex_network_free(net);
        return totex_cli_fail(1, "out of memory");
    }
    size_t count = totex_compare(net, all, nports, o.max_messages, rows, cap);
    for (size_t i = 0; i < count; i++)
        if (rows[i].status == TOTEX_EVIOLATION)
            rc = totex_cli_fail(1, rows[i].reason);
    /* the picture first: a failed write is the only output, not a line after the whole table */
    if (o.picture && totex_picture_compare(o.picture, net, o.spec, rows, count, 0, 0, &err) != TOTEX_OK) {
        free(rows);
        totex_network_free(net);
        return totex_cli_fail(2, err.msg);
    }
    if (o.json) {
        if (totex_cli_put_json(stdout, totex_report_compare_json(net, o.spec, rows, count)))
            rc = 1;
    } else {
        totex_report_compare_text(stdout, net, o.spec, rows, count);
    }
    totex_cli_wrote(stdout, o.json, o.picture);
    /* every row failed (none applies, or every one was refused by a limit): the table says why, the status too */
    size_t planned = 0;
    for (size_t i = 0; i < count; i++)
        planned += rows[i].status == TOTEX_OK;
    if (!planned && !rc) {
        char msg[300];
        snprintf(msg, sizeof msg, "no algorithm could plan %.120s under the port models compared: each row above "
                 "says why (a limit such as --max-messages, or the algorithm does not apply)", o.spec);
        rc = totex_cli_fail(2, msg);
    }
    free(rows);
    totex_network_free(net);
    return rc;
}

static int cmd_machines(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: totex machines\n\nLists the presets; each name is usable wherever a SPEC is.\n");
            return 0;
        }
        return totex_cli_fail(2, "totex machines takes no arguments");
    }
    printf("%-17s %-28s %9s  %s\n", "preset", "spec", "nodes", "description / source");
    for (size_t i = 0; i < totex_machine_count(); i++) {
        const totex_machine *m = totex_machine_get(i);
        totex_error err;
        totex_network *net = totex_network_parse(m->spec, &err);
        printf("%-17s %-28s %9u  %s\n%-17s %-28s %9s  source: %s\n", m->name, m->spec,
               net ? totex_network_nodes(net) : 0, m->description, "", "", "", m->source);
        totex_network_free(net);
    }
    return 0;
}

static int cmd_algorithms(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: totex algorithms\n\nLists the total-exchange algorithms with their papers and sections.\n");
            return 0;
        }
        char msg[300];
        snprintf(msg, sizeof msg, "totex algorithms takes no arguments, got '%.200s' (see totex algorithms --help)", argv[i]);
        return totex_cli_fail(2, msg);
    }
    for (size_t i = 0; i < totex_algorithm_count(); i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        printf("%-10s %s [%s]\n", a->name, a->title, a->source);
    }
    return 0;
}

static int cmd_bounds(int argc, char **argv)
{
    options o;
    totex_error err;
    int rc = command_options(argc, argv, &o, 0, usage_bounds,
                             "totex bounds needs a SPEC, e.g. totex bounds torus:4x4x4 (see totex help)");
    if (rc >= 0)
        return rc;
    rc = 0;
    if (o.time_limit > 0 && !o.exact)
        return totex_cli_fail(2, "--time-limit limits the exact search: add --exact");
    totex_network *net = totex_network_parse(o.spec, &err);
    if (!net)
        return totex_cli_fail(2, err.msg);
    if (o.exact) {
        rc = totex_cli_bounds_exact(net, o.spec, o.ports, o.time_limit, o.json);
    } else if (o.json) {
        char *text = totex_report_bounds_json(net, o.spec, o.ports, &err);
        if (!text)
            rc = totex_cli_fail(2, err.msg);
        else
            printf("%s\n", text);
        free(text);
    } else if (totex_report_bounds_text(stdout, net, o.spec, o.ports, &err) != TOTEX_OK) {
        rc = totex_cli_fail(2, err.msg);
    }
    totex_network_free(net);
    return rc;
}

static int cmd_plan(int argc, char **argv)
{
    options o;
    totex_error err;
    const totex_algorithm *algo = NULL;
    totex_plan_result res;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0); /* the wall time reported covers the whole command, parsing and output included */
    int rc = command_options(argc, argv, &o, 2, usage_plan,
                             "totex plan needs a SPEC, e.g. totex plan tpu-v4-cube --ports multi (see totex help)");
    if (rc >= 0)
        return rc;
    rc = 0;
    if (o.format_given && !o.schedule)
        return totex_cli_fail(2, "--format says how to write the schedule: add --schedule FILE");
    /* outputs that would overwrite an input or each other are refused before anything runs */
    char *heat = NULL;
    if (o.picture && strlen(o.picture) > 4 && (heat = malloc(strlen(o.picture) + 16)))
        snprintf(heat, strlen(o.picture) + 16, "%.*s-heatmap%s", (int)(strlen(o.picture) - 4), o.picture,
                 o.picture + strlen(o.picture) - 4);
    totex_cli_output outs[] = {{"--schedule", o.schedule}, {"--picture", o.picture}, {"--picture's heat map", heat}};
    rc = totex_cli_check_outputs(o.spec, outs, 3);
    free(heat);
    if (rc)
        return rc;
    /* --schedule -: the schedule on standard output, the report on standard error */
    FILE *report_fp = o.schedule && !strcmp(o.schedule, "-") ? stderr : stdout;
    if (o.algorithm && strcmp(o.algorithm, "auto")) {
        algo = totex_algorithm_find(o.algorithm, &err);
        if (!algo)
            return totex_cli_fail(2, err.msg);
    }
    int exact = algo && !strcmp(algo->name, "exact");
    if (o.time_limit > 0 && !exact)
        return totex_cli_fail(2, "--time-limit limits the exact search: use it with --algorithm exact");
    if (o.exact_budget >= 0 && algo)
        return totex_cli_fail(2, algo && exact ? "--exact-budget is the automatic choice's budget: with --algorithm exact use --time-limit S"
                                               : "--exact-budget is the automatic choice's budget for the exact search: drop --algorithm (or use --algorithm auto)");
    if (o.costly_budget && algo)
        return totex_cli_fail(2, "--costly-budget is the automatic choice's budget: drop --algorithm (or use --algorithm auto)");
    if (o.exact_budget >= 0)
        totex_exact_set_auto_budget(o.exact_budget);
    if (exact)
        totex_cli_exact_prepare(o.time_limit); /* asked for by name: up to its size limit, not only auto's */
    totex_network *net = totex_network_parse(o.spec, &err);
    if (!net)
        return totex_cli_fail(2, err.msg);
    memset(&res, 0, sizeof res);
    totex_plan_options popt = {0};
    popt.max_messages = o.max_messages;
    popt.objective = o.objective;
    popt.costly_budget = o.costly_budget; /* 0: TOTEX_PLAN_COSTLY_BUDGET_HOPS */
    popt.keep_schedule = o.schedule != NULL; /* the certified symmetric schedule is written, not planned again */
    popt.progress = totex_cli_progress();
    totex_status st = totex_plan_run(net, o.ports, algo, &popt, &res, &err);
    res.name = o.spec;
    if (st == TOTEX_OK && exact)
        totex_cli_exact_finish(&res); /* the certificate: a bound of kind exact */
    char heat_written[4200] = ""; /* the heat map's path when one was drawn */
    if (st == TOTEX_OK && o.picture &&
        totex_picture_plan(o.picture, &res, o.max_messages, heat_written, sizeof heat_written, &err) != TOTEX_OK) {
        /* the files first: a failed write is the only output, not a line after the whole report */
        rc = totex_cli_fail(2, err.msg);
    } else if (st == TOTEX_OK && o.schedule &&
               totex_plan_export_result(o.schedule, &res, o.format, &err) != TOTEX_OK) {
        /* the schedule file next: one that cannot be written (or does not fit MSCCL) is the only output */
        rc = totex_cli_fail(2, err.msg);
    } else if (st == TOTEX_OK) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        res.plan_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (o.json) {
            char *text = totex_report_plan_json(&res);
            if (exact)
                text = totex_cli_exact_json(text, NULL); /* the certificate, key "exact" */
            if (totex_cli_put_json(report_fp, text))
                rc = 1;
        } else {
            totex_report_plan_text_verbose(report_fp, &res, o.verbose);
        }
        totex_cli_wrote(report_fp, o.json, o.picture);
        totex_cli_wrote(report_fp, o.json, heat_written);
        totex_cli_wrote(report_fp, o.json, o.schedule);
    } else {
        rc = totex_cli_fail(st == TOTEX_EVIOLATION ? 1 : 2, err.msg);
    }
    totex_plan_result_release(&res);
    totex_network_free(net);
    return rc;
}

static int run_command(int argc, char **argv)
{
    if (argc < 2) {
        usage_main(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    totex_progress_enable(isatty(2)); /* progress on long jobs, on a terminal only */
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        if (argc > 2 && !strcmp(argv[2], "plan"))
            usage_plan(stdout);
        else if (argc > 2 && !strcmp(argv[2], "bounds"))
            usage_bounds(stdout);
        else if (argc > 2 && !strcmp(argv[2], "compare"))
            usage_compare(stdout);
        else if (argc > 2 && !strcmp(argv[2], "verify"))
            totex_cmd_verify_usage(stdout);
        else if (argc > 2 && !strcmp(argv[2], "reproduce"))
            totex_cmd_reproduce_usage(stdout);
        else if (argc > 2 && (!strcmp(argv[2], "machines") || !strcmp(argv[2], "algorithms")))
            return !strcmp(argv[2], "machines") ? cmd_machines(1, (char *[]){"--help", NULL})
                                                : cmd_algorithms(1, (char *[]){"--help", NULL});
        else if (argc > 2 && strcmp(argv[2], "help") && strcmp(argv[2], "--help") && strcmp(argv[2], "-h")) {
            char msg[300];
            snprintf(msg, sizeof msg,
                     "no help on '%.100s': give a command (machines, bounds, plan, compare, verify, reproduce, algorithms)",
                     argv[2]);
            return totex_cli_fail(2, msg);
        } else
            usage_main(stdout);
        return 0;
    }
    if (!strcmp(cmd, "machines"))
        return cmd_machines(argc - 2, argv + 2);
    if (!strcmp(cmd, "algorithms"))
        return cmd_algorithms(argc - 2, argv + 2);
    if ((!strcmp(cmd, "bounds") || !strcmp(cmd, "plan") || !strcmp(cmd, "compare")) &&
        totex_cmd_wants_demand(argc - 2, argv + 2))
        return totex_cmd_demand(cmd, argc - 2, argv + 2); /* non-uniform total exchange */
    if (!strcmp(cmd, "bounds"))
        return cmd_bounds(argc - 2, argv + 2);
    if (!strcmp(cmd, "plan"))
        return totex_cmd_wants_combining(argc - 2, argv + 2) ? totex_cmd_comb_plan(argc - 2, argv + 2)
                                                             : cmd_plan(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare"))
        return totex_cmd_wants_combining(argc - 2, argv + 2) ? totex_cmd_comb_compare(argc - 2, argv + 2)
                                                             : cmd_compare(argc - 2, argv + 2);
    if (!strcmp(cmd, "verify"))
        return totex_cmd_verify(argc - 2, argv + 2);
    if (!strcmp(cmd, "reproduce"))
        return totex_cmd_reproduce(argc, argv);
    char msg[300];
    snprintf(msg, sizeof msg, "unknown command '%s': use machines, bounds, plan, compare, verify, reproduce, algorithms or help", cmd);
    return totex_cli_fail(2, msg);
}

/*
 * Every output is checked: a file-size limit makes a write
 * fail with EFBIG instead of killing the process (SIGXFSZ), so that the
 * temporary file is removed and the path left as it was; a standard output
 * that was closed at start is held by /dev/null (so that no file opened later
 * becomes descriptor 1) and reported; a standard output that cannot be
 * written (a full disk, a closed pipe) makes the command exit 2 with
 * "cannot write output: standard output: REASON".
 */
int main(int argc, char **argv)
{
    signal(SIGXFSZ, SIG_IGN);
    int stdout_closed = fcntl(1, F_GETFD) < 0 && errno == EBADF;
    if (stdout_closed) {
        int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (fd >= 0 && fd != 1)
            close(fd);
    }
    int rc = run_command(argc, argv);
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (stdout_closed && !bad) {
        bad = 1;
        e = EBADF;
    }
    if (bad) {
        char msg[200];
        snprintf(msg, sizeof msg, "cannot write output: standard output: %s", e ? strerror(e) : "write error");
        totex_cli_fail(2, msg);
        return 2;
    }
    return rc;
}
