/* JSON reports (json-c): `totex plan --json` and `totex bounds --json`. Formats only. */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/error.h"
#include "totex/report.h"

static json_object *bound_json(const totex_bound *b)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "value", json_object_new_uint64(b->value));
    json_object_object_add(o, "kind", json_object_new_string(totex_bound_kind_name(b->kind)));
    json_object_object_add(o, "exact", json_object_new_double(b->exact));
    json_object_object_add(o, "witness", json_object_new_string(b->witness));
    return o;
}

static void add_network(json_object *o, const totex_network *net, const char *name)
{
    json_object *dims = json_object_new_array();
    json_object_object_add(o, "network", json_object_new_string(name ? name : totex_network_spec(net)));
    json_object_object_add(o, "spec", json_object_new_string(totex_network_spec(net)));
    json_object_object_add(o, "nodes", json_object_new_uint64(totex_network_nodes(net)));
    json_object_object_add(o, "links", json_object_new_uint64(totex_network_links(net)));
    json_object_object_add(o, "messages", json_object_new_uint64(totex_network_messages(net)));
    for (uint32_t i = 0; i < totex_network_dims(net); i++)
        json_object_array_add(dims, json_object_new_string(totex_factor_name(totex_network_factor(net, i))));
    json_object_object_add(o, "dimensions", dims);
}

/* "ports": "single-port", "multiport" or "3-port" (totex_ports_format); "k": 1, 0 (multiport) or k. */
static void add_ports(json_object *o, totex_ports ports)
{
    char pm[32];
    json_object_object_add(o, "ports", json_object_new_string(totex_ports_format(ports, pm, sizeof pm)));
    json_object_object_add(o, "k", json_object_new_uint64(totex_ports_k(ports)));
}

static char *finish(json_object *o)
{
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *copy = text ? strdup(text) : NULL;
    json_object_put(o);
    return copy;
}

char *totex_report_plan_json(const totex_plan_result *r)
{
    json_object *o = json_object_new_object(), *all = json_object_new_array();
    uint64_t lb = r->bound_count ? r->bounds[r->best_bound].value : 0;
    add_network(o, r->net, r->name);
    add_ports(o, r->ports);
    json_object_object_add(o, "algorithm", json_object_new_string(r->algorithm ? r->algorithm->name : ""));
    json_object_object_add(o, "algorithm_source",
                           json_object_new_string(r->algorithm ? r->algorithm->source : ""));
    json_object_object_add(o, "steps", json_object_new_uint64(r->sim.steps));
    json_object_object_add(o, "predicted_steps", json_object_new_uint64(r->predicted_steps));
    if (r->bound_count)
        json_object_object_add(o, "lower_bound", bound_json(&r->bounds[r->best_bound]));
    for (size_t i = 0; i < r->bound_count; i++)
        json_object_array_add(all, bound_json(&r->bounds[i]));
    json_object_object_add(o, "bounds", all);
    json_object_object_add(o, "ratio", json_object_new_double(lb ? (double)r->sim.steps / (double)lb : 0.0));
    json_object_object_add(o, "optimal", json_object_new_boolean(lb && r->sim.steps == lb));
    json_object_object_add(o, "verified", json_object_new_boolean(r->verified));
    json_object_object_add(o, "average_delay", json_object_new_double(r->sim.average_delay));
    if (r->has_delay_bound)
        json_object_object_add(o, "average_delay_lower_bound", json_object_new_double(r->delay_bound));
    json_object_object_add(o, "verification",
                           json_object_new_string(!r->verified ? "failed"
                                                  : r->symmetric ? (r->full_simulation ? "certified at one node and simulated in full" : "certified at one node")
                                                                 : "simulated in full"));
    json_object_object_add(o, "peak_queue", json_object_new_uint64(r->sim.peak_queue));
    json_object_object_add(o, "link_utilisation", json_object_new_double(r->sim.link_utilisation));
    json_object_object_add(o, "port_utilisation", json_object_new_double(r->sim.port_utilisation));
    json_object_object_add(o, "hops", json_object_new_uint64(r->sim.hops));
    json_object_object_add(o, "wall_seconds", json_object_new_double(r->plan_seconds));
    json_object_object_add(o, "candidates_skipped", json_object_new_uint64(r->skipped));
    json_object *nt = json_object_new_array();
    for (size_t i = 0; i < 64 && i < totex_algorithm_count(); i++)
        if (r->not_tried >> i & 1)
            json_object_array_add(nt, json_object_new_string(totex_algorithm_get(i)->name));
    json_object_object_add(o, "candidates_not_tried", nt);
    json_object *sp = json_object_new_array();
    for (size_t i = 0; i < 64 && i < totex_algorithm_count(); i++)
        if (r->superseded >> i & 1)
            json_object_array_add(sp, json_object_new_string(totex_algorithm_get(i)->name));
    json_object_object_add(o, "candidates_superseded", sp);
    if (r->superseded_by)
        json_object_object_add(o, "superseded_by", json_object_new_string(r->superseded_by->name));
    if (r->exact_reported) { /* the automatic choice's exact search */
        json_object *x = json_object_new_object();
        json_object_object_add(x, "budget_cpu_seconds", json_object_new_double(r->exact_budget));
        json_object_object_add(x, "ran", json_object_new_boolean(r->exact_ran));
        if (r->exact_ran) {
            json_object_object_add(x, "steps", json_object_new_uint64(r->exact_steps));
            json_object_object_add(x, "lower", json_object_new_uint64(r->exact_lower));
            json_object_object_add(x, "optimal", json_object_new_boolean(r->exact_optimal));
            json_object_object_add(x, "budget_used_up", json_object_new_boolean(r->exact_timed_out));
            json_object_object_add(x, "cpu_seconds", json_object_new_double(r->exact_cpu_seconds));
        } else {
            json_object_object_add(x, "why_not", json_object_new_string(r->exact_note));
        }
        json_object_object_add(o, "exact_search", x);
    }
    return finish(o);
}

char *totex_report_bounds_json(const totex_network *net, const char *name, totex_ports ports, totex_error *err)
{
    return totex_report_bounds_json_extra(net, name, ports, NULL, 0, err);
}

char *totex_report_bounds_json_extra(const totex_network *net, const char *name, totex_ports ports,
                                     const totex_bound *extra, size_t nextra, totex_error *err)
{
    totex_bound b[TOTEX_MAX_BOUNDS + 2];
    size_t count, best;
    uint64_t sg = 0;
    if (totex_bounds_compute(net, ports, b, &count, &best, err) != TOTEX_OK)
        return NULL;
    for (size_t i = 0; i < nextra && i < 2; i++) {
        b[count] = extra[i];
        if (b[count].value > b[best].value)
            best = count;
        count++;
    }
    json_object *o = json_object_new_object(), *all = json_object_new_array();
    add_network(o, net, name);
    add_ports(o, ports);
    json_object_object_add(o, "diameter", json_object_new_uint64(totex_network_diameter(net)));
    if (totex_network_status_sum(net, &sg, NULL) == TOTEX_OK)
        json_object_object_add(o, "total_status", json_object_new_uint64(sg));
    json_object_object_add(o, "average_status", json_object_new_double(totex_network_average_status(net)));
    json_object_object_add(o, "average_distance", json_object_new_double(totex_network_average_distance(net)));
    {
        totex_task *t = totex_task_total_exchange(net, NULL);
        if (t) {
            char line[256];
            json_object *tm = json_object_new_object();
            json_object_object_add(tm, "rows", json_object_new_uint64(totex_task_rows(t)));
            json_object_object_add(tm, "columns", json_object_new_uint64(totex_task_cols(t)));
            json_object_object_add(tm, "critical_sum", json_object_new_uint64(totex_task_critical_sum(t)));
            json_object_object_add(tm, "total_sum", json_object_new_uint64(totex_task_total_sum(t)));
            json_object_object_add(tm, "critical_line",
                                   json_object_new_string(totex_task_critical_line(t, line, sizeof line)));
            json_object_object_add(o, "task_matrix", tm);
            totex_task_free(t);
        }
    }
    for (size_t i = 0; i < count; i++)
        json_object_array_add(all, bound_json(&b[i]));
    json_object_object_add(o, "bounds", all);
    if (count)
        json_object_object_add(o, "lower_bound", bound_json(&b[best]));
    return finish(o);
}
