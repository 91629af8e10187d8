/* Reports of non-uniform total exchange: text for people, JSON (json-c) for programs. Formats only. */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "totex/demand_report.h"

static void bound_line(FILE *fp, const totex_wbound *b)
{
    fprintf(fp, "  %-10s %16.1f %13.6g  %s\n", totex_wbound_kind_name(b->kind), b->bytes, b->seconds, b->witness);
}

static void row_line(FILE *fp, const totex_demand_row *row, int chosen)
{
    if (row->status != TOTEX_OK) {
        fprintf(fp, "  %-16s %s\n", row->name, row->reason);
        return;
    }
    fprintf(fp, "  %-16s %8" PRIu64 " %13.6g %16" PRIu64 " %16" PRIu64 " %8.3f%s\n", row->name, row->sim.steps,
            row->sim.seconds, row->sim.step_bytes, row->sim.max_link, row->ratio, chosen ? "  <- chosen" : "");
}

void totex_report_demand_text(FILE *fp, const totex_network *net, const char *name, const totex_demand *d,
                              const totex_demand_plan_options *o, const totex_demand_report *r, totex_demand_view view)
{
    const char *nm = name ? name : totex_network_spec(net);
    if (view == TOTEX_DEMAND_VIEW_PLAN) {
        if (r->chosen != SIZE_MAX) {
            const totex_demand_row *c = &r->rows[r->chosen];
            fprintf(fp, "chose %s: %" PRIu64 " step%s, %.6g s, %.3f x the best bound (%s, %.6g s); verified by the "
                    "byte-weighted simulator\n", c->name, c->sim.steps, c->sim.steps == 1 ? "" : "s", c->sim.seconds,
                    c->ratio, totex_wbound_kind_name(r->best.kind), r->best.seconds);
        } else {
            fprintf(fp, "no schedule could be planned:\n");
            for (size_t k = 0; k < r->nrows; k++)
                fprintf(fp, "  %s: %s\n", r->rows[k].name, r->rows[k].reason);
        }
    }
    fprintf(fp, "network %s: %" PRIu32 " nodes, %" PRIu64 " directed links\n", nm, totex_network_nodes(net),
            2 * totex_network_links(net));
    fprintf(fp, "demand %s: %" PRIu64 " bytes in all, at most %" PRIu64 " per pair\n", d->what, totex_demand_total(d),
            totex_demand_max(d));
    fprintf(fp, "model: multiport, B = %.6g bytes/s per directed link, t_s = %.6g s per step\n", o->bandwidth, o->ts);
    if (view != TOTEX_DEMAND_VIEW_BOUNDS && r->nrows) {
        fprintf(fp, "\n  %-16s %8s %13s %16s %16s %8s\n", "schedule", "steps", "seconds", "step bytes", "busiest link", "ratio");
        for (size_t k = 0; k < r->nrows; k++)
            row_line(fp, &r->rows[k], k == r->chosen);
    }
    fprintf(fp, "\nlower bounds (bytes on the busiest directed link; seconds = t_s + bytes / B):\n");
    fprintf(fp, "  %-10s %16s %13s  %s\n", "bound", "bytes", "seconds", "witness");
    for (size_t k = 0; k < TOTEX_WBOUND_ANALYTIC; k++)
        bound_line(fp, &r->analytic[k]);
    if (r->has_fluid)
        bound_line(fp, &r->fluid);
    else
        fprintf(fp, "  %-10s %16s %13s  %s\n", "fluid-lp", "-", "-", r->fluid_reason);
    fprintf(fp, "best bound: %s, %.1f bytes, %.6g s\n", totex_wbound_kind_name(r->best.kind), r->best.bytes, r->best.seconds);
}

static json_object *bound_json(const totex_wbound *b)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "kind", json_object_new_string(totex_wbound_kind_name(b->kind)));
    json_object_object_add(o, "bytes", json_object_new_double(b->bytes));
    json_object_object_add(o, "seconds", json_object_new_double(b->seconds));
    json_object_object_add(o, "witness", json_object_new_string(b->witness));
    return o;
}

char *totex_report_demand_json(const totex_network *net, const char *name, const totex_demand *d,
                               const totex_demand_plan_options *o, const totex_demand_report *r, totex_demand_view view)
{
    json_object *root = json_object_new_object();
    if (!root)
        return NULL;
    json_object_object_add(root, "network", json_object_new_string(name ? name : totex_network_spec(net)));
    json_object_object_add(root, "spec", json_object_new_string(totex_network_spec(net)));
    json_object_object_add(root, "nodes", json_object_new_uint64(totex_network_nodes(net)));
    json_object_object_add(root, "links", json_object_new_uint64(totex_network_links(net)));
    json_object *dm = json_object_new_object();
    json_object_object_add(dm, "what", json_object_new_string(d->what));
    json_object_object_add(dm, "total_bytes", json_object_new_uint64(totex_demand_total(d)));
    json_object_object_add(dm, "max_bytes", json_object_new_uint64(totex_demand_max(d)));
    json_object_object_add(root, "demand", dm);
    json_object_object_add(root, "bandwidth", json_object_new_double(o->bandwidth));
    json_object_object_add(root, "ts", json_object_new_double(o->ts));
    json_object *bs = json_object_new_array();
    for (size_t k = 0; k < TOTEX_WBOUND_ANALYTIC; k++)
        json_object_array_add(bs, bound_json(&r->analytic[k]));
    if (r->has_fluid)
        json_object_array_add(bs, bound_json(&r->fluid));
    json_object_object_add(root, "bounds", bs);
    json_object *fl = json_object_new_object();
    json_object_object_add(fl, "solved", json_object_new_boolean(r->has_fluid));
    json_object_object_add(fl, "reason", r->has_fluid ? NULL : json_object_new_string(r->fluid_reason));
    json_object_object_add(root, "fluid", fl);
    json_object_object_add(root, "best", bound_json(&r->best));
    if (view != TOTEX_DEMAND_VIEW_BOUNDS) {
        json_object *rows = json_object_new_array();
        for (size_t k = 0; k < r->nrows; k++) {
            const totex_demand_row *row = &r->rows[k];
            json_object *x = json_object_new_object();
            json_object_object_add(x, "name", json_object_new_string(row->name));
            json_object_object_add(x, "status", json_object_new_string(totex_status_name(row->status)));
            json_object_object_add(x, "reason", row->status == TOTEX_OK ? NULL : json_object_new_string(row->reason));
            json_object_object_add(x, "steps", json_object_new_uint64(row->sim.steps));
            json_object_object_add(x, "transfers", json_object_new_uint64(row->sim.transfers));
            json_object_object_add(x, "seconds", json_object_new_double(row->sim.seconds));
            json_object_object_add(x, "step_bytes", json_object_new_uint64(row->sim.step_bytes));
            json_object_object_add(x, "max_link_bytes", json_object_new_uint64(row->sim.max_link));
            json_object_object_add(x, "ratio", json_object_new_double(row->ratio));
            json_object_array_add(rows, x);
        }
        json_object_object_add(root, "schedules", rows);
        json_object_object_add(root, "chosen",
                               r->chosen == SIZE_MAX ? NULL : json_object_new_string(r->rows[r->chosen].name));
    }
    const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *out = s ? strdup(s) : NULL;
    json_object_put(root);
    return out;
}
