/* `totex bounds --exact` and the exact algorithm's certificate in `totex plan` (tools/exact_cmd.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "exact_cmd.h"

int totex_cli_time_limit(const char *text, double *out)
{
    char *end;
    if (!text)
        return totex_cli_fail(2, "--time-limit needs a number of seconds, e.g. --time-limit 10");
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno == ERANGE || !(v > 0) || v > 31536000.0) {
        char msg[300];
        snprintf(msg, sizeof msg, "--time-limit '%.200s': give seconds as a number > 0 and <= 31536000, e.g. --time-limit 10",
                 text);
        return totex_cli_fail(2, msg);
    }
    *out = v;
    return 0;
}

int totex_cli_bounds_exact(const totex_network *net, const char *name, totex_ports ports, double time_limit,
                           int json)
{
    totex_exact_options o = {0};
    totex_exact_result r;
    totex_error err;
    totex_bound eb;
    int rc = 0;
    o.time_limit = time_limit;
    totex_status st = totex_exact_solve(net, ports, &o, &r, &err);
    if (st != TOTEX_OK)
        return totex_cli_fail(st == TOTEX_EVIOLATION ? 1 : 2, err.msg);
    /* the schedule behind the optimum goes through the simulator like every other */
    totex_sim *sim = totex_sim_new(net, ports, 0, &err);
    totex_sim_report rep;
    st = sim ? totex_schedule_replay(r.schedule, totex_sim_sink(sim), &err) : TOTEX_ENOMEM;
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, &rep, &err);
    totex_sim_free(sim);
    if (st == TOTEX_OK && rep.steps != r.steps) {
        snprintf(err.msg, sizeof err.msg, "exact: the simulator measured %llu steps for the %llu-step schedule",
                 (unsigned long long)rep.steps, (unsigned long long)r.steps);
        st = TOTEX_EVIOLATION;
    }
    if (st != TOTEX_OK) {
        totex_exact_result_free(&r);
        return totex_cli_fail(1, err.msg);
    }
    totex_exact_bound(&r, 1, &eb);
    if (json) {
        char *text = totex_cli_exact_json(totex_report_bounds_json_extra(net, name, ports, &eb, 1, &err), &r);
        if (!text)
            rc = totex_cli_fail(2, err.msg);
        else
            printf("%s\n", text);
        free(text);
    } else if (totex_report_bounds_text_extra(stdout, net, name, ports, &eb, 1, &err) != TOTEX_OK) {
        rc = totex_cli_fail(2, err.msg);
    }
    totex_exact_result_free(&r);
    return rc;
}

void totex_cli_exact_prepare(double time_limit)
{
    totex_exact_options o = {0};
    o.time_limit = time_limit;
    /* a schedule meeting an analytic bound is optimal by that bound: no solver run to prove bound - 1 steps
       infeasible again (that took 60-110 s on torus:4x4 and hypercube:4 single-port) */
    o.bound_proof_only = 1;
    totex_exact_set_options(&o);
}

void totex_cli_exact_finish(totex_plan_result *res)
{
    const totex_exact_result *r = totex_exact_last();
    if (!r || res->bound_count > TOTEX_MAX_BOUNDS || !res->bound_count)
        return;
    totex_exact_bound(r, res->verified, &res->bounds[res->bound_count]);
    if (res->bounds[res->bound_count].value > res->bounds[res->best_bound].value)
        res->best_bound = res->bound_count;
    res->bound_count++;
}

char *totex_cli_exact_json(char *json, const totex_exact_result *r)
{
    if (!r)
        r = totex_exact_last();
    if (!json || !r)
        return json;
    json_object *o = json_tokener_parse(json);
    if (!o)
        return json;
    json_object *e = json_object_new_object();
    json_object_object_add(e, "optimum", r->optimal ? json_object_new_uint64(r->steps) : NULL);
    json_object_object_add(e, "lower", json_object_new_uint64(r->lower));
    json_object_object_add(e, "upper", json_object_new_uint64(r->steps));
    json_object_object_add(e, "gap", json_object_new_uint64(r->steps - r->lower));
    json_object_object_add(e, "optimal", json_object_new_boolean(r->optimal));
    json_object_object_add(e, "timed_out", json_object_new_boolean(r->timed_out));
    json_object_object_add(e, "schedule_from", json_object_new_string(r->upper_from ? r->upper_from : ""));
    json_object_object_add(e, "proof", json_object_new_string(totex_exact_proof_name(r->proof)));
    json_object_object_add(e, "proof_solver",
                           r->proof == TOTEX_EXACT_PROOF_SOLVER ? json_object_new_string(r->proof_solver) : NULL);
    json_object_object_add(e, "proof_lp_relaxation", json_object_new_boolean(r->proof_by_lp));
    json_object_object_add(e, "proof_seconds", json_object_new_double(r->proof_seconds));
    json_object_object_add(e, "solver", json_object_new_string(r->solver));
    json_object_object_add(e, "solver_calls", json_object_new_uint64(r->solves));
    json_object_object_add(e, "seconds", json_object_new_double(r->seconds));
    json_object_object_add(e, "variables", json_object_new_uint64(r->variables));
    json_object_object_add(e, "constraints", json_object_new_uint64(r->constraints));
    json_object_object_add(o, "exact", e);
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *copy = text ? strdup(text) : NULL;
    json_object_put(o);
    if (!copy)
        return json;
    free(json);
    return copy;
}
