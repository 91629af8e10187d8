/*
 * totex verify FILE: which file it is decides how it is checked.
 *   - unit-step JSON ("format": "totex-unit-schedule"): full form replayed
 *     through the simulator, symmetric form certified at one node
 *     (include/totex/schedule_io.h);
 *   - MSCCL XML (starts with '<'), with --network SPEC [--ports ...]: run as
 *     the executor would and replayed through the simulator;
 *   - anything else: a combining schedule (tools/combining_cmd.c).
 * Exit 0 valid, 1 the schedule breaks the model, 2 a bad file or option.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "combining_cmd.h"
#include "totex.h"
#include "verify_cmd.h"

void totex_cmd_verify_usage(FILE *fp)
{
    fprintf(fp,
            "usage: totex verify FILE [--network SPEC] [--ports single|multi|k:N] [--max-messages N] [--json]\n"
            "       totex verify FILE.xml --network SPEC [--ports single|multi|k:N] [--max-messages N] [--json]\n"
            "       totex verify FILE [--switching ...] [--port one|all] [--json]   (combining schedule)\n"
            "\n"
            "Reads a schedule file, recognised by its content (docs/unit-schedule-format.md):\n"
            "  unit-step JSON written by `totex plan SPEC --schedule FILE`: the full form is\n"
            "    replayed hop by hop through the simulator, the symmetric form certified at\n"
            "    one node (001 Theorem 2); --ports overrides the file's port model;\n"
            "  MSCCL XML all-to-all (msccl-tools, TACCL, TE-CCL, or totex plan --format msccl),\n"
            "    with --network SPEC: two answers apart. Correct: run by the MSCCL executor's\n"
            "    rules (thread blocks in order, deps an XML position with nops counted, sends\n"
            "    and receives paired in order per channel and peer, cnt chunks as one\n"
            "    transfer, k chunks per pair), every chunk exactly once in its output slot,\n"
            "    no read before its write, no deadlock, every transfer on a link of SPEC, the\n"
            "    executor's limits; only this fails. Cost: rounds under --ports (default\n"
            "    multi), an executor step carrying c chunks on a link costing c;\n"
            "  a combining schedule (totex plan --model combining --schedule FILE): see\n"
            "    docs/schedule-format.md.\n"
            "A schedule file names its network; one naming a graph file (file:PATH) is\n"
            "refused unless you give the network with --network SPEC: totex opens no file a\n"
            "schedule names.\n"
            "Reports steps, the best lower bound, the ratio and whether it is optimal.\n"
            "--max-messages N: messages the simulator may hold (4 bytes each; default 2^26).\n"
            "Exit 0 valid, 1 the schedule breaks the model (naming step, node and block),\n"
            "2 the file is malformed, exceeds a limit, or an option is wrong.\n");
}

static void report(const totex_network *net, totex_ports ports, const char *kind, const char *algorithm,
                   const totex_sim_report *sim, const char *how, int json, int msccl)
{
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t nb = 0, best = 0;
    totex_error err;
    char pm[32];
    uint64_t lb = 0;
    if (totex_bounds_compute(net, ports, b, &nb, &best, &err) == TOTEX_OK && nb)
        lb = b[best].value;
    totex_ports_format(ports, pm, sizeof pm);
    if (json) {
        json_object *j = json_object_new_object();
        json_object_object_add(j, "network", json_object_new_string(totex_network_spec(net)));
        json_object_object_add(j, "nodes", json_object_new_uint64(totex_network_nodes(net)));
        json_object_object_add(j, "ports", json_object_new_string(pm));
        json_object_object_add(j, "file", json_object_new_string(kind));
        json_object_object_add(j, "algorithm", json_object_new_string(algorithm));
        json_object_object_add(j, "steps", json_object_new_uint64(sim->steps));
        if (msccl) {
            json_object_object_add(j, "correct", json_object_new_boolean(1));
            json_object_object_add(j, "rounds", json_object_new_uint64(sim->steps));
            json_object_object_add(j, "executor_steps", json_object_new_uint64(sim->steps_emitted));
        }
        if (nb) {
            json_object *l = json_object_new_object();
            json_object_object_add(l, "value", json_object_new_uint64(lb));
            json_object_object_add(l, "kind", json_object_new_string(totex_bound_kind_name(b[best].kind)));
            json_object_object_add(l, "witness", json_object_new_string(b[best].witness));
            json_object_object_add(j, "lower_bound", l);
            json_object_object_add(j, "ratio", json_object_new_double(lb ? (double)sim->steps / (double)lb : 0.0));
            json_object_object_add(j, "optimal", json_object_new_boolean(sim->steps == lb));
        }
        json_object_object_add(j, "average_delay", json_object_new_double(sim->average_delay));
        json_object_object_add(j, "hops", json_object_new_uint64(sim->hops));
        json_object_object_add(j, "verified", json_object_new_boolean(1));
        json_object_object_add(j, "verified_by", json_object_new_string(how));
        printf("%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(j);
        return;
    }
    printf("network        %s\n", totex_network_spec(net));
    printf("nodes          %u\n", totex_network_nodes(net));
    printf("ports          %s\n", pm);
    printf("file           %s, algorithm %s (as recorded)\n", kind, algorithm);
    if (msccl)
        printf("correct        yes: %s\n", how);
    printf("steps          %" PRIu64 "\n", sim->steps);
    if (msccl)
        printf("cost           %" PRIu64 " rounds under %s in %" PRIu64 " executor steps (an executor step carrying c "
               "chunks on a link costs c rounds)\n", sim->steps, pm, sim->steps_emitted);
    if (nb) {
        printf("best bound     %" PRIu64 " steps (%s)  %s\n", lb, totex_bound_kind_name(b[best].kind), b[best].witness);
        printf("ratio          %.4f of the best bound\n", lb ? (double)sim->steps / (double)lb : 0.0);
        printf("optimal        %s\n", sim->steps == lb ? "yes (steps equal the best lower bound)"
                                                      : "not proved (steps exceed the best lower bound)");
    }
    printf("average delay  %.3f steps\n", sim->average_delay);
    printf("hops           %" PRIu64 "\n", sim->hops);
    if (msccl)
        printf("verified       yes: correct (above); the cost is measured, never a failure\n");
    else
        printf("verified       yes: %s\n", how);
}

int totex_cmd_verify(int argc, char **argv)
{
    const char *file = NULL, *spec = NULL;
    totex_ports ports = TOTEX_PORTS_MULTI;
    int ports_given = 0, json = 0, combining_opts = 0;
    uint64_t max_messages = 0;
    totex_error err;
    char msg[600];
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            totex_cmd_verify_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--max-messages") || !strncmp(a, "--max-messages=", 15)) {
            const char *v = a[14] == '=' ? a + 15 : (i + 1 < argc ? argv[++i] : NULL);
            char *end;
            errno = 0;
            max_messages = v ? strtoull(v, &end, 10) : 0;
            if (!v || !isdigit((unsigned char)v[0]) || *end || !max_messages || errno == ERANGE ||
                max_messages > TOTEX_SIM_MAX_MESSAGES)
                return totex_cli_fail(2, "--max-messages needs a whole number from 1 to 2^31 = 2147483648 (messages the "
                                         "simulator may hold, 4 bytes each)");
        } else if (!strcmp(a, "--network") || !strncmp(a, "--network=", 10)) {
            spec = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
            if (!spec)
                return totex_cli_fail(2, "--network needs a SPEC, e.g. --network torus:8x8");
        } else if (!strcmp(a, "--ports") || !strncmp(a, "--ports=", 8)) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return totex_cli_fail(2, "--ports needs a value: single, multi or k:N (k-port, 1 <= N <= 4096)");
            if (totex_ports_parse(v, &ports, &err) != TOTEX_OK)
                return totex_cli_fail(2, err.msg);
            ports_given = 1;
        } else if (!strncmp(a, "--switching", 11) || !strncmp(a, "--port", 6)) {
            combining_opts = 1;
            if (!strchr(a, '=') && i + 1 < argc)
                i++;
        } else if (a[0] == '-' && a[1]) {
            snprintf(msg, sizeof msg, "unknown option '%.200s' for totex verify (see totex verify --help)", a);
            return totex_cli_fail(2, msg);
        } else if (!file) {
            file = a;
        } else {
            snprintf(msg, sizeof msg, "unexpected argument '%.200s': totex verify takes one FILE", a);
            return totex_cli_fail(2, msg);
        }
    }
    if (!file)
        return totex_cli_fail(2, "totex verify needs a FILE (a schedule written by totex plan --schedule, or MSCCL XML with --network SPEC)");
    totex_schedule_kind kind;
    if (totex_schedule_file_kind(file, &kind, &err) != TOTEX_OK)
        return totex_cli_fail(2, err.msg);
    if (kind == TOTEX_SCHEDULE_COMBINING) {
        /* the combining schedule's reader, without --network (passed on) */
        char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
        int nrest = 0;
        if (!rest)
            return totex_cli_fail(1, "out of memory");
        for (int i = 0; i < argc; i++) {
            if (!strcmp(argv[i], "--network")) {
                i++;
                continue;
            }
            if (!strncmp(argv[i], "--network=", 10))
                continue;
            rest[nrest++] = argv[i];
        }
        rest[nrest] = NULL;
        int rc = totex_cmd_comb_verify(nrest, rest, spec);
        free(rest);
        return rc;
    }
    if (kind == TOTEX_SCHEDULE_MSCCL) {
        if (combining_opts)
            return totex_cli_fail(2, "--switching and --port are for combining schedules; an MSCCL file takes --network and --ports");
        if (!spec)
            return totex_cli_fail(2, "an MSCCL XML file needs --network SPEC (the network whose links the ranks use), e.g. --network torus:8x8");
        totex_network *net = totex_network_parse(spec, &err);
        if (!net)
            return totex_cli_fail(2, err.msg);
        totex_sim_report rep;
        char name[128];
        totex_status st = totex_msccl_verify_file(file, net, ports, max_messages, &rep, name, sizeof name, &err);
        int rc = 0;
        if (st == TOTEX_EVIOLATION) {
            snprintf(msg, sizeof msg, "MSCCL schedule fails verification on %.100s: %.450s", totex_network_spec(net), err.msg);
            rc = totex_cli_fail(1, msg);
        } else if (st != TOTEX_OK) {
            rc = totex_cli_fail(2, err.msg);
        } else {
            report(net, ports, "MSCCL XML all-to-all", name, &rep,
                   "run by the MSCCL executor's rules: every chunk once in its output slot, no read before its write, "
                   "no deadlock, every transfer on a link", json, 1);
        }
        totex_network_free(net);
        return rc;
    }
    if (combining_opts)
        return totex_cli_fail(2, "--switching and --port are for combining schedules: drop them for a unit-step schedule");
    totex_unit_verdict v;
    totex_unit_limits lim = {0, max_messages, 0, spec}; /* --network: the network instead of the file's */
    totex_status st = totex_unit_verify_file(file, &lim, ports_given ? &ports : NULL, &v, &err);
    int rc = 0;
    if (st == TOTEX_EVIOLATION) {
        snprintf(msg, sizeof msg, "schedule fails verification: %.550s", err.msg);
        rc = totex_cli_fail(1, msg);
    } else if (st != TOTEX_OK) {
        rc = totex_cli_fail(2, err.msg);
    } else {
        report(v.net, v.ports, v.symmetric ? "unit-step JSON, symmetric form" : "unit-step JSON, full form", v.algorithm,
               &v.sim, v.symmetric ? "symmetric schedule certified at one node (001 Theorem 2)"
                                   : "every hop replayed through the simulator", json, 0);
    }
    totex_unit_verdict_free(&v);
    return rc;
}
