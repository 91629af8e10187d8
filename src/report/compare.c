/*
 * The `totex compare` table and JSON: formats the rows that
 * totex_compare() (src/plan/compare.c) planned, verified and measured.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/error.h"
#include "totex/report.h"

static uint64_t best_bound(const totex_plan_result *r)
{
    return r->bound_count ? r->bounds[r->best_bound].value : 0;
}

void totex_report_compare_text(FILE *fp, const totex_network *net, const char *name, const totex_compare_row *rows,
                               size_t count)
{
    const char *spec = totex_network_spec(net);
    if (name && strcmp(name, spec))
        fprintf(fp, "network %s = %s, %u nodes\n", name, spec, totex_network_nodes(net));
    else
        fprintf(fp, "network %s, %u nodes\n", spec, totex_network_nodes(net));
    /* the first two columns as wide as their longest entry (balanced-greedy, k-port names), at least 12 */
    int wa = 12, wp = 12;
    for (size_t i = 0; i < count; i++) {
        char pb[32];
        int la = (int)strlen(rows[i].algorithm->name), lp = (int)strlen(totex_ports_format(rows[i].ports, pb, sizeof pb));
        wa = la > wa ? la : wa;
        wp = lp > wp ? lp : wp;
    }
    fprintf(fp, "%-*s %-*s %10s %10s %7s %12s %10s %9s %-8s\n", wa, "algorithm", wp, "ports", "steps", "bound", "ratio",
            "avg delay", "peak queue", "wall s", "verified");
    for (size_t i = 0; i < count; i++) {
        const totex_compare_row *r = &rows[i];
        char pb[32];
        totex_ports_format(r->ports, pb, sizeof pb);
        if (r->status != TOTEX_OK) {
            fprintf(fp, "%-*s %-*s %s: %s\n", wa, r->algorithm->name, wp, pb,
                    r->status == TOTEX_ENOTAPPLICABLE ? "not applicable" : totex_status_name(r->status), r->reason);
            continue;
        }
        uint64_t lb = best_bound(&r->result);
        fprintf(fp, "%-*s %-*s %10llu %10llu %7.3f %12.3f %10llu %9.3f %-8s\n", wa, r->algorithm->name, wp, pb,
                (unsigned long long)r->result.sim.steps, (unsigned long long)lb,
                lb ? (double)r->result.sim.steps / (double)lb : 0.0, r->result.sim.average_delay,
                (unsigned long long)r->result.sim.peak_queue, r->result.plan_seconds,
                r->result.full_simulation ? "full" : r->result.symmetric ? "one node" : "yes");
    }
    fprintf(fp, "verified: full = every message replayed by the simulator; one node = symmetric schedule certified at one node (001 Theorem 2)\n");
}

char *totex_report_compare_json(const totex_network *net, const char *name, const totex_compare_row *rows,
                                size_t count)
{
    json_object *o = json_object_new_object(), *arr = json_object_new_array();
    json_object_object_add(o, "network", json_object_new_string(name ? name : totex_network_spec(net)));
    json_object_object_add(o, "spec", json_object_new_string(totex_network_spec(net)));
    json_object_object_add(o, "nodes", json_object_new_uint64(totex_network_nodes(net)));
    for (size_t i = 0; i < count; i++) {
        const totex_compare_row *r = &rows[i];
        json_object *row = json_object_new_object();
        json_object_object_add(row, "algorithm", json_object_new_string(r->algorithm->name));
        json_object_object_add(row, "ports", json_object_new_string(totex_ports_name(r->ports)));
        json_object_object_add(row, "k", json_object_new_uint64(totex_ports_k(r->ports)));
        json_object_object_add(row, "applies", json_object_new_boolean(r->status != TOTEX_ENOTAPPLICABLE));
        if (r->status != TOTEX_OK) {
            json_object_object_add(row, "error", json_object_new_string(r->reason));
        } else {
            uint64_t lb = best_bound(&r->result);
            json_object *b = json_object_new_object();
            json_object_object_add(row, "steps", json_object_new_uint64(r->result.sim.steps));
            json_object_object_add(b, "value", json_object_new_uint64(lb));
            json_object_object_add(b, "kind", json_object_new_string(
                                                  r->result.bound_count ? totex_bound_kind_name(r->result.bounds[r->result.best_bound].kind) : ""));
            json_object_object_add(row, "lower_bound", b);
            json_object_object_add(row, "ratio", json_object_new_double(lb ? (double)r->result.sim.steps / (double)lb : 0.0));
            json_object_object_add(row, "optimal", json_object_new_boolean(lb && r->result.sim.steps == lb));
            json_object_object_add(row, "average_delay", json_object_new_double(r->result.sim.average_delay));
            json_object_object_add(row, "peak_queue", json_object_new_uint64(r->result.sim.peak_queue));
            json_object_object_add(row, "wall_seconds", json_object_new_double(r->result.plan_seconds));
            json_object_object_add(row, "verified", json_object_new_boolean(r->result.verified));
            json_object_object_add(row, "full_simulation", json_object_new_boolean(r->result.full_simulation));
        }
        json_object_array_add(arr, row);
    }
    json_object_object_add(o, "rows", arr);
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *copy = text ? strdup(text) : NULL;
    json_object_put(o);
    return copy;
}
