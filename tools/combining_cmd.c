/*
 * totex plan/compare --model combining and totex verify: the message-combining
 * model of 002 (Suh, Shin & Yalamanchili) Section 2 (include/totex/combining.h).
 * Exit status 0 on success, 2 on bad input, 1 if a schedule fails verification.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

/* where the report goes: standard output, or standard error when --schedule - takes standard output */
static FILE *report_fp;

static int rprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int rprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(report_fp ? report_fp : stdout, fmt, ap);
    va_end(ap);
    return r;
}
#include "combining_cmd.h"
#include "totex.h"

static const char *defaults_text =
    "Defaults (ILLUSTRATIVE orders of magnitude of a current cluster interconnect,\n"
    "the defaults of totex_comb_cost_default() in include/totex/combining.h; not\n"
    "measurements and not from 002, which gives only symbolic costs):\n"
    "  --ts 1e-05 (t_s, start-up, s)   --tc 1e-09 (t_c, s/byte: 1 GB/s per link)\n"
    "  --tl 5e-08 (t_l, s/hop, store-and-forward only)\n"
    "  --rho 5e-10 (rearrangement, s/byte)   --block 1024 (m, bytes per block)\n"
    "  --switching wormhole   --port one\n";

void totex_cmd_comb_usage_plan(FILE *fp)
{
    fprintf(fp,
            "usage: totex plan SPEC --model combining [--algorithm NAME|auto] [--ts S] [--tc S]\n"
            "                      [--tl S] [--rho S] [--block BYTES]\n"
            "                      [--switching wormhole|store-and-forward] [--port one|all]\n"
            "                      [--json] [--schedule FILE [--format json|msccl]] [--max-blocks N]\n"
            "\n"
            "Message-combining model (002 Section 2): a step costs t_s + (largest transfer)\n"
            "m t_c (+ longest route t_l under store-and-forward), rearranging costs\n"
            "blocks m rho. Builds every registered combining algorithm (auto, the default)\n"
            "or the named one, verifies it in the combining simulator and reports start-ups,\n"
            "blocks_transmitted (sum over steps of the largest transfer, in blocks: 002\n"
            "Table 1), rearranged_blocks and predicted_time (seconds). --schedule FILE writes\n"
            "the schedule as JSON (docs/schedule-format.md) for `totex verify`; --format msccl\n"
            "as MSCCL XML (each block a chunk, sent from the transfer's sender to its receiver;\n"
            "docs/unit-schedule-format.md), checked with totex verify FILE --network complete:N.\n"
            "--max-blocks N: most blocks n(n-1) to plan (default 2^22 = 4194304, every network\n"
            "of up to 2048 nodes: about 1 GiB at the peak; at most 2^27).\n"
            "\n%s",
            defaults_text);
}

void totex_cmd_comb_usage_compare(FILE *fp)
{
    fprintf(fp,
            "usage: totex compare SPEC --model combining [--ts S] [--tc S] [--tl S] [--rho S]\n"
            "                      [--block BYTES] [--switching wormhole|store-and-forward]\n"
            "                      [--port one|all] [--sweep [--picture FILE]] [--json] [--max-blocks N]\n"
            "\n"
            "Ranks every registered combining algorithm by predicted time (002 Section 2\n"
            "cost model), each verified in the combining simulator; algorithms that do not\n"
            "apply say why. --sweep: predicted time of each algorithm at block sizes 8 B ..\n"
            "1 MiB (powers of two), the winner per size and the crossover sizes where the\n"
            "winner changes (--block is then ignored). --picture FILE (.png or .svg) with\n"
            "--sweep: predicted time vs block size, log-log, crossovers marked.\n"
            "--max-blocks N: most blocks n(n-1) to plan (default 2^22 = 4194304; at most 2^27).\n"
            "\n%s",
            defaults_text);
}

void totex_cmd_comb_usage_verify(FILE *fp)
{
    fprintf(fp,
            "usage: totex verify FILE [--switching wormhole|store-and-forward] [--port one|all] [--json]\n"
            "\n"
            "Reads a combining schedule written by `totex plan --model combining --schedule\n"
            "FILE` (format: docs/schedule-format.md), rebuilds the network from its spec and\n"
            "replays the schedule in the combining simulator under the file's cost model\n"
            "(--switching and --port override it). Prints the report (exit 0), or the\n"
            "violation naming step, transfer, node and block (exit 1). A corrupt file (not\n"
            "JSON, truncated, wrong types, missing keys, ids out of range, over 256 MiB)\n"
            "exits 2 with one error line.\n");
}

int totex_cmd_wants_combining(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--model") || !strncmp(argv[i], "--model=", 8))
            return 1;
    return 0;
}

/*
 * Default of --max-blocks: the blocks n(n-1) of total exchange the combining
 * plan and compare take. Building and simulating every algorithm peaks at
 * about 220-260 bytes per block (a3c and a2c, measured on mesh:32x32,
 * mesh:40x40 and mesh:48x48: 216 MB, 564 MB, 1.36 GB), so 2^22 blocks (every
 * network of up to 2048 nodes) stays near 1 GiB, under 2 GiB.
 */
#define COMB_DEFAULT_MAX_BLOCKS (UINT64_C(1) << 22)

typedef struct copts {
    const char *spec;
    const char *algorithm;
    const char *schedule;
    totex_comb_cost cost;
    const char *picture; /* --picture FILE.png|.svg with --sweep */
    uint64_t max_blocks; /* --max-blocks N: most blocks n(n-1) planned (default COMB_DEFAULT_MAX_BLOCKS) */
    int json, help, sweep, model;
    int msccl; /* --format msccl: the schedule as MSCCL XML */
    totex_comb_options run; /* how rankings, sweeps and simulations run: where progress goes */
} copts;

enum { ALLOW_ALGO = 1, ALLOW_SWEEP = 2, ALLOW_MODEL = 4, ALLOW_COSTS = 8 };

/* value of option `name` at argv[*i] (--name V or --name=V); NULL if it is not that option */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, len))
        return 0;
    if (a[len] == '=') {
        *val = a + len + 1;
        return 1;
    }
    if (a[len])
        return 0;
    *val = *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}

static int parse_seconds(const char *name, const char *v, double *out, const char *what)
{
    char msg[400], *end;
    double d;
    if (!v) {
        snprintf(msg, sizeof msg, "%s needs a value: %s", name, what);
        return totex_cli_fail(2, msg);
    }
    errno = 0;
    d = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(d) || d < 0) {
        snprintf(msg, sizeof msg, "%s '%.60s' is not valid: give %s (a finite number >= 0, e.g. 1e-6)", name, v, what);
        return totex_cli_fail(2, msg);
    }
    *out = d;
    return 0;
}

static int parse_copts(int argc, char **argv, copts *o, int allow)
{
    char msg[400];
    memset(o, 0, sizeof *o);
    totex_comb_cost_default(&o->cost);
    o->max_blocks = COMB_DEFAULT_MAX_BLOCKS;
    o->run.progress = totex_cli_progress();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        int rc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if ((allow & ALLOW_SWEEP) && !strcmp(a, "--sweep")) {
            o->sweep = 1;
        } else if ((allow & ALLOW_SWEEP) && opt_value(argc, argv, &i, "--picture", &v)) {
            if (!v)
                return totex_cli_fail(2, "--picture needs a file name ending in .png or .svg");
            o->picture = v;
        } else if ((allow & ALLOW_MODEL) && opt_value(argc, argv, &i, "--model", &v)) {
            if (!v || strcmp(v, "combining"))
                return totex_cli_fail(2, "--model needs 'combining' (the message-combining model of 002); omit --model for the unit-step model");
            o->model = 1;
        } else if ((allow & ALLOW_ALGO) && opt_value(argc, argv, &i, "--algorithm", &v)) {
            if (!v)
                return totex_cli_fail(2, "--algorithm needs a combining algorithm name (see totex compare SPEC --model combining) or auto");
            o->algorithm = v;
        } else if ((allow & ALLOW_ALGO) && opt_value(argc, argv, &i, "--schedule", &v)) {
            if (!v || !*v)
                return totex_cli_fail(2, "--schedule needs a FILE to write the schedule to");
            o->schedule = v;
        } else if ((allow & ALLOW_ALGO) && opt_value(argc, argv, &i, "--format", &v)) {
            if (!v || (strcmp(v, "json") && strcmp(v, "msccl")))
                return totex_cli_fail(2, "--format needs json (docs/schedule-format.md) or msccl (MSCCL XML, docs/unit-schedule-format.md)");
            o->msccl = !strcmp(v, "msccl");
        } else if ((allow & ALLOW_COSTS) && opt_value(argc, argv, &i, "--ts", &v)) {
            if ((rc = parse_seconds("--ts", v, &o->cost.t_s, "the start-up time t_s in seconds")))
                return rc;
        } else if ((allow & ALLOW_COSTS) && opt_value(argc, argv, &i, "--tc", &v)) {
            if ((rc = parse_seconds("--tc", v, &o->cost.t_c, "the transmission time t_c in seconds per byte")))
                return rc;
        } else if ((allow & ALLOW_COSTS) && opt_value(argc, argv, &i, "--tl", &v)) {
            if ((rc = parse_seconds("--tl", v, &o->cost.t_l, "the per-hop time t_l in seconds")))
                return rc;
        } else if ((allow & ALLOW_COSTS) && opt_value(argc, argv, &i, "--rho", &v)) {
            if ((rc = parse_seconds("--rho", v, &o->cost.rho, "the rearrangement time rho in seconds per byte")))
                return rc;
        } else if ((allow & ALLOW_COSTS) && opt_value(argc, argv, &i, "--block", &v)) {
            char *end;
            unsigned long long b;
            errno = 0;
            b = v ? strtoull(v, &end, 10) : 0;
            if (!v || v[0] < '0' || v[0] > '9' || *end || errno == ERANGE || b == 0 || b > (1ULL << 40)) {
                snprintf(msg, sizeof msg,
                         "--block '%.60s' is not valid: give the block size m in bytes, a whole number 1..2^40",
                         v ? v : "");
                return totex_cli_fail(2, msg);
            }
            o->cost.m = (double)b;
        } else if ((allow & ALLOW_MODEL) && opt_value(argc, argv, &i, "--max-blocks", &v)) {
            char *end;
            unsigned long long b;
            errno = 0;
            b = v ? strtoull(v, &end, 10) : 0;
            if (!v || v[0] < '0' || v[0] > '9' || *end || errno == ERANGE || b == 0 || b > TOTEX_COMB_MAX_BLOCKS) {
                snprintf(msg, sizeof msg,
                         "--max-blocks '%.60s' is not valid: give the most blocks n(n-1) to plan, a whole number 1..%llu",
                         v ? v : "", (unsigned long long)TOTEX_COMB_MAX_BLOCKS);
                return totex_cli_fail(2, msg);
            }
            o->max_blocks = b;
        } else if (opt_value(argc, argv, &i, "--switching", &v)) {
            if (v && !strcmp(v, "wormhole"))
                o->cost.switching = TOTEX_SWITCH_WORMHOLE;
            else if (v && (!strcmp(v, "store-and-forward") || !strcmp(v, "saf")))
                o->cost.switching = TOTEX_SWITCH_STORE_FORWARD;
            else {
                snprintf(msg, sizeof msg, "--switching '%.60s' is not valid: give wormhole or store-and-forward",
                         v ? v : "");
                return totex_cli_fail(2, msg);
            }
            o->model |= 2;
        } else if (opt_value(argc, argv, &i, "--port", &v)) {
            totex_ports p;
            if (v && (!strcmp(v, "one") || !strcmp(v, "all")) && totex_ports_parse(v, &p, NULL) == TOTEX_OK)
                o->cost.ports = p;
            else {
                snprintf(msg, sizeof msg, "--port '%.60s' is not valid: give one (one-port) or all (all-port)",
                         v ? v : "");
                return totex_cli_fail(2, msg);
            }
            o->model |= 4;
        } else if (a[0] == '-' && a[1]) {
            snprintf(msg, sizeof msg, "unknown option '%.200s' for the combining model (see --help)", a);
            return totex_cli_fail(2, msg);
        } else if (!o->spec) {
            o->spec = a;
        } else {
            snprintf(msg, sizeof msg, "unexpected argument '%.200s': give one %s", a,
                     (allow & ALLOW_MODEL) ? "SPEC (quote it if it contains '*')" : "FILE");
            return totex_cli_fail(2, msg);
        }
    }
    return 0;
}

static const char *switching_name(totex_switching s)
{
    return s == TOTEX_SWITCH_STORE_FORWARD ? "store-and-forward" : "wormhole";
}

static void model_json(json_object *o, const totex_comb_cost *c)
{
    char pm[32];
    totex_ports_format_words(c->ports, TOTEX_PORTS_WORDS_COMBINING, pm, sizeof pm);
    json_object_object_add(o, "model", json_object_new_string("combining"));
    json_object_object_add(o, "switching", json_object_new_string(switching_name(c->switching)));
    json_object_object_add(o, "ports", json_object_new_string(pm));
    json_object_object_add(o, "t_s", json_object_new_double(c->t_s));
    json_object_object_add(o, "t_c", json_object_new_double(c->t_c));
    json_object_object_add(o, "t_l", json_object_new_double(c->t_l));
    json_object_object_add(o, "rho", json_object_new_double(c->rho));
    json_object_object_add(o, "m", json_object_new_double(c->m));
}

static void report_json(json_object *o, const totex_comb_report *r)
{
    json_object_object_add(o, "steps", json_object_new_uint64(r->steps));
    json_object_object_add(o, "startups", json_object_new_uint64(r->startups));
    json_object_object_add(o, "blocks_transmitted", json_object_new_uint64(r->blocks_transmitted));
    json_object_object_add(o, "rearranged_blocks", json_object_new_uint64(r->rearranged_blocks));
    json_object_object_add(o, "transfers", json_object_new_uint64(r->transfers));
    json_object_object_add(o, "block_hops", json_object_new_uint64(r->block_hops));
    json_object_object_add(o, "max_route_hops", json_object_new_uint64(r->max_route_hops));
    json_object_object_add(o, "time_startup", json_object_new_double(r->time_startup));
    json_object_object_add(o, "time_transmission", json_object_new_double(r->time_transmission));
    json_object_object_add(o, "time_propagation", json_object_new_double(r->time_propagation));
    json_object_object_add(o, "time_rearrangement", json_object_new_double(r->time_rearrangement));
    json_object_object_add(o, "predicted_time", json_object_new_double(r->predicted_time));
}

static int print_json(json_object *o)
{
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = text ? (rprintf("%s\n", text), 0) : totex_cli_fail(1, "out of memory writing JSON");
    json_object_put(o);
    return rc;
}

static void model_text(const totex_network *net, const totex_comb_cost *c)
{
    char pm[32];
    rprintf("%-19s %s\n", "network", totex_network_spec(net));
    rprintf("%-19s %u\n", "nodes", totex_network_nodes(net));
    rprintf("%-19s combining (002 Section 2), %s, %s\n", "model", switching_name(c->switching),
            totex_ports_format_words(c->ports, TOTEX_PORTS_WORDS_COMBINING, pm, sizeof pm));
    rprintf("%-19s t_s %g s, t_c %g s/B, t_l %g s/hop, rho %g s/B, m %g B\n", "cost", c->t_s, c->t_c, c->t_l, c->rho,
           c->m);
}

/* what the simulator checked: the port rule named only where it limits a step (one-port) */
static void verified_text(const totex_comb_cost *c)
{
    char pm[32] = "";
    if (c->ports == TOTEX_PORTS_SINGLE) {
        pm[0] = ',';
        pm[1] = ' ';
        totex_ports_format_words(c->ports, TOTEX_PORTS_WORDS_COMBINING, pm + 2, sizeof pm - 2);
    }
    rprintf("%-19s yes (combining simulator: every block delivered once, no link contention%s)\n", "verified", pm);
}

static void report_text(const totex_comb_report *r)
{
    rprintf("%-19s %llu (%llu non-empty: start-ups)\n", "steps", (unsigned long long)r->steps,
           (unsigned long long)r->startups);
    rprintf("%-19s %llu\n", "startups", (unsigned long long)r->startups);
    rprintf("%-19s %llu (sum over steps of the largest transfer, 002 Table 1)\n", "blocks_transmitted",
           (unsigned long long)r->blocks_transmitted);
    rprintf("%-19s %llu\n", "rearranged_blocks", (unsigned long long)r->rearranged_blocks);
    rprintf("%-19s %llu (%llu block-hops, longest route %u hops)\n", "transfers", (unsigned long long)r->transfers,
           (unsigned long long)r->block_hops, r->max_route_hops);
    rprintf("%-19s %.6g s (start-up %.6g + transmission %.6g + propagation %.6g + rearrangement %.6g)\n",
           "predicted_time", r->predicted_time, r->time_startup, r->time_transmission, r->time_propagation,
           r->time_rearrangement);
}

static const char *status_word(totex_status st)
{
    return st == TOTEX_ENOTAPPLICABLE ? "not applicable" : st == TOTEX_EVIOLATION ? "VIOLATION" : "failed";
}

/* The combining simulator, with progress where @p run says ("simulating NAME: step ...") */
static totex_status simulate_with_progress(const totex_network *net, const totex_comb_schedule *s,
                                           const totex_comb_cost *cost, const char *name,
                                           const totex_comb_options *run, totex_comb_report *rep,
                                           totex_comb_fault *fault, totex_error *err)
{
    char label[64];
    snprintf(label, sizeof label, "simulating %.50s", name ? name : "the schedule");
    totex_progress *prog =
        run->progress ? totex_progress_new(run->progress, label, totex_comb_steps(s), NULL, 1) : NULL;
    totex_status st = totex_comb_simulate_progress(net, s, cost, rep, fault, prog, err);
    totex_progress_free(prog);
    return st;
}

/* memory bounded before it is spent: refuse a network of more blocks than --max-blocks (exit 2) */
static int too_many_blocks(const totex_network *net, const copts *o)
{
    uint64_t blocks = totex_network_messages(net);
    char msg[500];
    if (blocks <= o->max_blocks)
        return 0;
    snprintf(msg, sizeof msg,
             "%.100s has %llu blocks n(n-1): the combining model plans at most %llu (about 256 bytes each at the peak, "
             "every algorithm built and simulated); raise --max-blocks N (up to %llu) to plan it",
             totex_network_spec(net), (unsigned long long)blocks, (unsigned long long)o->max_blocks,
             (unsigned long long)TOTEX_COMB_MAX_BLOCKS);
    return totex_cli_fail(2, msg);
}

/* the opening of the combining plan and compare: parse the options under
   @p allow, print @p usage on --help, refuse a missing SPEC with @p no_spec;
   returns the exit status when the command is done, -1 when it goes on */
static int copts_open(int argc, char **argv, copts *o, int allow, void (*usage)(FILE *), const char *no_spec)
{
    int rc = parse_copts(argc, argv, o, allow);
    return totex_cli_open(rc, rc ? 0 : o->help, rc ? "" : o->spec, usage, no_spec);
}

int totex_cmd_comb_plan(int argc, char **argv)
{
    copts o;
    totex_error err;
    totex_comb_schedule *s = NULL;
    totex_comb_report rep;
    const totex_comb_algorithm *algo = NULL;
    int rc = copts_open(argc, argv, &o, ALLOW_ALGO | ALLOW_MODEL | ALLOW_COSTS, totex_cmd_comb_usage_plan,
                        "totex plan needs a SPEC, e.g. totex plan mesh:4x4 --model combining (see --help)");
    if (rc >= 0)
        return rc;
    rc = 0;
    if (o.algorithm && strcmp(o.algorithm, "auto")) {
        algo = totex_comb_algorithm_find(o.algorithm, &err);
        if (!algo)
            return totex_cli_fail(2, err.msg);
    }
    totex_cli_output outs[] = {{"--schedule", o.schedule}};
    if ((rc = totex_cli_check_outputs(o.spec, outs, 1)))
        return rc;
    report_fp = o.schedule && !strcmp(o.schedule, "-") ? stderr : stdout;
    totex_network *net = totex_network_parse(o.spec, &err);
    if (!net)
        return totex_cli_fail(2, err.msg);
    if ((rc = too_many_blocks(net, &o))) {
        totex_network_free(net);
        return rc;
    }
    if (!algo) {
        size_t count = totex_comb_algorithm_count();
        totex_comb_choice *rows = calloc(count ? count : 1, sizeof *rows);
        if (!rows) {
            totex_network_free(net);
            return totex_cli_fail(1, "out of memory");
        }
        count = totex_comb_rank_with(net, &o.cost, &o.run, rows, count);
        if (count && rows[0].status == TOTEX_OK) {
            algo = rows[0].algorithm;
        } else {
            char msg[600], pm[32];
            int viol = 0;
            for (size_t i = 0; i < count; i++)
                viol |= rows[i].status == TOTEX_EVIOLATION;
            snprintf(msg, sizeof msg, "no combining algorithm applies to %.100s under %s, %s%s%.300s",
                     totex_network_spec(net), switching_name(o.cost.switching),
                     totex_ports_format_words(o.cost.ports, TOTEX_PORTS_WORDS_COMBINING, pm, sizeof pm),
                     count ? ": " : "", count ? rows[0].reason : "");
            free(rows);
            totex_network_free(net);
            return totex_cli_fail(viol ? 1 : 2, msg);
        }
        free(rows);
    }
    totex_status st = algo->build(net, &o.cost, &s, &err);
    if (st != TOTEX_OK) {
        totex_network_free(net);
        return totex_cli_fail(st == TOTEX_EVIOLATION ? 1 : 2, err.msg);
    }
    st = simulate_with_progress(net, s, &o.cost, algo->name, &o.run, &rep, NULL, &err);
    if (st != TOTEX_OK) {
        rc = totex_cli_fail(st == TOTEX_EVIOLATION ? 1 : 2, err.msg);
    } else if (o.schedule && (o.msccl ? totex_comb_export_msccl(o.schedule, net, s, algo->name, &err)
                                      : totex_comb_export_file(o.schedule, net, s, &o.cost, algo->name, &err)) != TOTEX_OK) {
        rc = totex_cli_fail(2, err.msg);
    } else if (o.json) {
        json_object *j = json_object_new_object();
        json_object_object_add(j, "network", json_object_new_string(totex_network_spec(net)));
        json_object_object_add(j, "nodes", json_object_new_uint64(totex_network_nodes(net)));
        model_json(j, &o.cost);
        json_object_object_add(j, "algorithm", json_object_new_string(algo->name));
        json_object_object_add(j, "source", json_object_new_string(algo->source));
        json_object_object_add(j, "cost_formula", json_object_new_string(algo->cost));
        report_json(j, &rep);
        json_object_object_add(j, "verified", json_object_new_boolean(1));
        if (o.schedule)
            json_object_object_add(j, "schedule", json_object_new_string(o.schedule));
        rc = print_json(j);
    } else {
        model_text(net, &o.cost);
        rprintf("%-19s %s: %s [%s]\n", "algorithm", algo->name, algo->title, algo->source);
        rprintf("%-19s %s\n", "cost formula", algo->cost);
        report_text(&rep);
        verified_text(&o.cost);
        if (o.schedule)
            rprintf("%-19s written to %s\n", "schedule", o.schedule);
    }
    if (rc == 0)
        totex_cli_wrote(report_fp ? report_fp : stdout, o.json, o.schedule);
    totex_comb_schedule_free(s);
    totex_network_free(net);
    return rc;
}

static int compare_sweep(const totex_network *net, const copts *o)
{
    size_t count = totex_comb_algorithm_count();
    double *times = calloc(TOTEX_COMB_SWEEP_SIZES * (count ? count : 1), sizeof *times);
    size_t winners[TOTEX_COMB_SWEEP_SIZES];
    totex_error err;
    int rc = 0;
    if (!times)
        return totex_cli_fail(1, "out of memory");
    totex_status st = totex_comb_sweep_with(net, &o->cost, &o->run, times, winners, &err);
    if (st != TOTEX_OK) {
        free(times);
        return totex_cli_fail(st == TOTEX_EVIOLATION ? 1 : 2, err.msg);
    }
    /* the picture first: a failed write is the only output, not a line after the whole table */
    if (o->picture && totex_picture_sweep(o->picture, net, times, winners, 0, 0, &err) != TOTEX_OK) {
        free(times);
        return totex_cli_fail(2, err.msg);
    }
    if (o->json) {
        json_object *j = json_object_new_object(), *rows = json_object_new_array(), *cross = json_object_new_array();
        json_object_object_add(j, "network", json_object_new_string(totex_network_spec(net)));
        json_object_object_add(j, "nodes", json_object_new_uint64(totex_network_nodes(net)));
        model_json(j, &o->cost);
        json_object_object_del(j, "m");
        for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES; i++) {
            json_object *r = json_object_new_object(), *t = json_object_new_object();
            json_object_object_add(r, "block", json_object_new_double(TOTEX_COMB_SWEEP_BLOCK(i)));
            for (size_t a = 0; a < count; a++)
                json_object_object_add(t, totex_comb_algorithm_get(a)->name,
                                       isnan(times[i * count + a]) ? NULL
                                                                   : json_object_new_double(times[i * count + a]));
            json_object_object_add(r, "predicted_time", t);
            json_object_object_add(r, "winner", winners[i] == SIZE_MAX
                                                    ? NULL
                                                    : json_object_new_string(totex_comb_algorithm_get(winners[i])->name));
            json_object_array_add(rows, r);
            if (i && winners[i] != winners[i - 1]) {
                json_object *c = json_object_new_object();
                json_object_object_add(c, "block", json_object_new_double(TOTEX_COMB_SWEEP_BLOCK(i)));
                json_object_object_add(c, "from", winners[i - 1] == SIZE_MAX ? NULL : json_object_new_string(totex_comb_algorithm_get(winners[i - 1])->name));
                json_object_object_add(c, "to", winners[i] == SIZE_MAX ? NULL : json_object_new_string(totex_comb_algorithm_get(winners[i])->name));
                json_object_array_add(cross, c);
            }
        }
        json_object_object_add(j, "sweep", rows);
        json_object_object_add(j, "crossovers", cross);
        rc = print_json(j);
    } else {
        model_text(net, &o->cost);
        rprintf("\npredicted time (seconds) per block size m:\n%9s", "block");
        for (size_t a = 0; a < count; a++)
            rprintf(" %12.12s", totex_comb_algorithm_get(a)->name);
        rprintf("  winner\n");
        for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES; i++) {
            rprintf("%9.0f", TOTEX_COMB_SWEEP_BLOCK(i));
            for (size_t a = 0; a < count; a++) {
                if (isnan(times[i * count + a]))
                    rprintf(" %12s", "n/a");
                else
                    rprintf(" %12.5g", times[i * count + a]);
            }
            rprintf("  %s\n", winners[i] == SIZE_MAX ? "(none applies)" : totex_comb_algorithm_get(winners[i])->name);
        }
        rprintf("\ncrossovers:\n");
        int any = 0;
        for (size_t i = 1; i < TOTEX_COMB_SWEEP_SIZES; i++) {
            if (winners[i] == winners[i - 1])
                continue;
            any = 1;
            rprintf("  at %.0f B: %s -> %s\n", TOTEX_COMB_SWEEP_BLOCK(i),
                   winners[i - 1] == SIZE_MAX ? "(none)" : totex_comb_algorithm_get(winners[i - 1])->name,
                   winners[i] == SIZE_MAX ? "(none)" : totex_comb_algorithm_get(winners[i])->name);
        }
        if (!any)
            rprintf("  none: %s at every size from 8 B to 1 MiB\n",
                   winners[0] == SIZE_MAX ? "no algorithm applies" : totex_comb_algorithm_get(winners[0])->name);
    }
    if (rc == 0)
        totex_cli_wrote(stdout, o->json, o->picture);
    free(times);
    return rc;
}

int totex_cmd_comb_compare(int argc, char **argv)
{
    copts o;
    totex_error err;
    int rc = copts_open(argc, argv, &o, ALLOW_SWEEP | ALLOW_MODEL | ALLOW_COSTS, totex_cmd_comb_usage_compare,
                        "totex compare needs a SPEC, e.g. totex compare mesh:4x4 --model combining (see --help)");
    if (rc >= 0)
        return rc;
    rc = 0;
    totex_cli_output outs[] = {{"--picture", o.picture}};
    if ((rc = totex_cli_check_outputs(o.spec, outs, 1)))
        return rc;
    totex_network *net = totex_network_parse(o.spec, &err);
    if (!net)
        return totex_cli_fail(2, err.msg);
    if ((rc = too_many_blocks(net, &o))) {
        totex_network_free(net);
        return rc;
    }
    if (o.picture && !o.sweep) {
        totex_network_free(net);
        return totex_cli_fail(2, "--picture with --model combining draws the block-size sweep: add --sweep");
    }
    if (o.sweep) {
        rc = compare_sweep(net, &o);
        totex_network_free(net);
        return rc;
    }
    size_t count = totex_comb_algorithm_count();
    totex_comb_choice *rows = calloc(count ? count : 1, sizeof *rows);
    if (!rows) {
        totex_network_free(net);
        return totex_cli_fail(1, "out of memory");
    }
    count = totex_comb_rank_with(net, &o.cost, &o.run, rows, count);
    for (size_t i = 0; i < count; i++)
        if (rows[i].status == TOTEX_EVIOLATION) {
            char msg[700];
            snprintf(msg, sizeof msg, "%s fails verification: %.600s", rows[i].algorithm->name, rows[i].reason);
            rc = totex_cli_fail(1, msg);
        }
    if (o.json) {
        json_object *j = json_object_new_object(), *arr = json_object_new_array();
        json_object_object_add(j, "network", json_object_new_string(totex_network_spec(net)));
        json_object_object_add(j, "nodes", json_object_new_uint64(totex_network_nodes(net)));
        model_json(j, &o.cost);
        for (size_t i = 0; i < count; i++) {
            json_object *r = json_object_new_object();
            json_object_object_add(r, "algorithm", json_object_new_string(rows[i].algorithm->name));
            json_object_object_add(r, "network", json_object_new_string(totex_network_spec(net)));
            json_object_object_add(r, "nodes", json_object_new_uint64(totex_network_nodes(net)));
            if (rows[i].status == TOTEX_OK) {
                json_object_object_add(r, "rank", json_object_new_uint64(i + 1));
                report_json(r, &rows[i].report);
                json_object_object_add(r, "verified", json_object_new_boolean(1));
            } else {
                json_object_object_add(r, "verified", json_object_new_boolean(0));
                json_object_object_add(r, "status", json_object_new_string(status_word(rows[i].status)));
                json_object_object_add(r, "reason", json_object_new_string(rows[i].reason));
            }
            json_object_array_add(arr, r);
        }
        json_object_object_add(j, "algorithms", arr);
        int prc = print_json(j);
        rc = rc ? rc : prc;
    } else {
        model_text(net, &o.cost);
        rprintf("\n%4s %-12s %10s %18s %17s %14s  %s\n", "rank", "algorithm", "startups", "blocks_transmitted",
               "rearranged_blocks", "predicted_s", "verified");
        for (size_t i = 0; i < count; i++) {
            const totex_comb_choice *r = &rows[i];
            if (r->status == TOTEX_OK)
                rprintf("%4zu %-12s %10llu %18llu %17llu %14.6g  yes\n", i + 1, r->algorithm->name,
                       (unsigned long long)r->report.startups, (unsigned long long)r->report.blocks_transmitted,
                       (unsigned long long)r->report.rearranged_blocks, r->report.predicted_time);
            else
                rprintf("%4s %-12s %s: %s\n", "-", r->algorithm->name, status_word(r->status), r->reason);
        }
    }
    free(rows);
    totex_network_free(net);
    return rc;
}

int totex_cmd_comb_verify(int argc, char **argv, const char *network)
{
    copts o;
    totex_error err;
    totex_comb_imported im;
    totex_comb_report rep;
    totex_comb_fault fault;
    int rc = parse_copts(argc, argv, &o, 0);
    if (rc)
        return rc;
    if (o.help) {
        totex_cmd_comb_usage_verify(stdout);
        return 0;
    }
    if (!o.spec)
        return totex_cli_fail(2, "totex verify needs a FILE written by totex plan --model combining --schedule FILE");
    if (totex_comb_import_file_on(o.spec, network, &im, &err) != TOTEX_OK)
        return totex_cli_fail(2, err.msg);
    if (o.model & 2)
        im.cost.switching = o.cost.switching;
    if (o.model & 4)
        im.cost.ports = o.cost.ports;
    totex_status st = simulate_with_progress(im.net, im.schedule, &im.cost, im.algorithm, &o.run, &rep, &fault, &err);
    if (st == TOTEX_EVIOLATION) {
        char msg[700];
        snprintf(msg, sizeof msg, "schedule fails verification: %.650s", err.msg);
        rc = totex_cli_fail(1, msg);
    } else if (st != TOTEX_OK) {
        rc = totex_cli_fail(2, err.msg);
    } else if (o.json) {
        json_object *j = json_object_new_object();
        json_object_object_add(j, "network", json_object_new_string(totex_network_spec(im.net)));
        json_object_object_add(j, "nodes", json_object_new_uint64(totex_network_nodes(im.net)));
        model_json(j, &im.cost);
        json_object_object_add(j, "algorithm", json_object_new_string(im.algorithm));
        report_json(j, &rep);
        json_object_object_add(j, "verified", json_object_new_boolean(1));
        rc = print_json(j);
    } else {
        model_text(im.net, &im.cost);
        rprintf("%-19s %s (as recorded in the file)\n", "algorithm", im.algorithm);
        report_text(&rep);
        verified_text(&im.cost);
    }
    totex_comb_imported_free(&im);
    return rc;
}
