/*
 * The driver of non-uniform total exchange: the
 * bounds of a demand (analytic, and the fluid LP up to 64 nodes), every
 * byte-weighted schedule planned and replayed in the byte-weighted
 * simulator, the fastest verified one chosen and its ratio to the best bound.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/demand_plan.h"

void totex_demand_report_release(totex_demand_report *r)
{
    if (!r)
        return;
    free(r->link_bytes);
    r->link_bytes = NULL;
    totex_wlinks_free(&r->links);
}

static const char *const names[TOTEX_WPLAN_COUNT] = {"direct", "uniform", "bvn", "fluid-lp"};

totex_status totex_demand_plan(const totex_network *net, const totex_demand *d, const totex_demand_plan_options *o,
                               totex_demand_report *r, totex_error *err)
{
    if (!net || !d || !o || !r)
        return totex_fail(err, TOTEX_EINVAL, "totex_demand_plan needs a network, a demand, options and a report");
    memset(r, 0, sizeof *r);
    r->chosen = SIZE_MAX;
    int none = o->only && !strcmp(o->only, "none"), all = !o->only || !strcmp(o->only, "auto");
    int want[TOTEX_WPLAN_COUNT] = {0};
    for (size_t k = 0; k < TOTEX_WPLAN_COUNT; k++)
        want[k] = all || (o->only && !strcmp(o->only, names[k]));
    if (!none && !all && !want[0] && !want[1] && !want[2] && !want[3])
        return totex_fail(err, TOTEX_EINVAL, "unknown schedule '%.60s' for a demand: use auto, direct, uniform, bvn or fluid-lp",
                          o->only);
    uint32_t n = totex_network_nodes(net);
    if (!none && n > TOTEX_WPLAN_MAX_NODES)
        return totex_fail(err, TOTEX_EINVAL, "schedules for a demand are planned on networks of at most %u nodes; this one "
                          "has %" PRIu32 " (totex bounds --demand works up to %u)", TOTEX_WPLAN_MAX_NODES, n,
                          TOTEX_DEMAND_MAX_NODES);
    size_t bi;
    totex_status st = totex_demand_bounds(net, d, o->bandwidth, o->ts, r->analytic, &bi, err);
    if (st != TOTEX_OK)
        return st;
    r->best = r->analytic[bi];
    totex_fluid fl = {0};
    if (o->no_lp) {
        snprintf(r->fluid_reason, sizeof r->fluid_reason, "not solved (--no-lp)");
    } else {
        totex_error e2 = {{0}};
        st = totex_demand_fluid(net, d, o->bandwidth, o->ts, o->lp_seconds, &fl, &e2);
        if (st == TOTEX_OK) {
            r->has_fluid = 1;
            r->fluid = fl.bound;
            if (fl.bound.bytes >= r->best.bytes)
                r->best = fl.bound;
        } else if (st == TOTEX_ENOMEM) {
            return totex_fail(err, st, "%s", e2.msg);
        } else {
            snprintf(r->fluid_reason, sizeof r->fluid_reason, "%s", e2.msg);
        }
    }
    st = TOTEX_OK;
    if (none)
        goto done;
    if (o->keep_links && (st = totex_wlinks_build(net, &r->links, err)) != TOTEX_OK)
        goto done;
    uint64_t *links = o->keep_links ? calloc((size_t)(r->links.arcs ? r->links.arcs : 1), sizeof *links) : NULL;
    if (o->keep_links && !links) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory for the bytes per link");
        goto done;
    }
    for (size_t k = 0; k < TOTEX_WPLAN_COUNT; k++) {
        if (!want[k])
            continue;
        totex_demand_row *row = &r->rows[r->nrows++];
        snprintf(row->name, sizeof row->name, "%s", names[k]);
        totex_wschedule *s = NULL;
        totex_error e2 = {{0}};
        totex_status ps;
        if (k == 0)
            ps = totex_wplan_direct(net, d, &s, &e2);
        else if (k == 1)
            ps = n > TOTEX_WPLAN_UNIFORM_MAX
                     ? totex_fail(&e2, TOTEX_ENOTAPPLICABLE, "the uniform schedule with real lengths is planned on at most %u nodes",
                                  TOTEX_WPLAN_UNIFORM_MAX)
                     : totex_wplan_uniform(net, d, &s, &e2);
        else if (k == 2)
            ps = totex_wplan_bvn(net, d, &s, &e2);
        else
            ps = r->has_fluid ? totex_wplan_fluid(net, d, &fl, &s, &e2)
                              : totex_fail(&e2, TOTEX_ENOTAPPLICABLE, "no fluid LP: %s", r->fluid_reason);
        if (ps == TOTEX_OK) {
            snprintf(row->name, sizeof row->name, "%s", totex_wschedule_name(s));
            ps = totex_wsim_run(net, d, s, o->bandwidth, o->ts, NULL, &row->sim, &e2);
        }
        row->status = ps;
        if (ps != TOTEX_OK)
            snprintf(row->reason, sizeof row->reason, "%s", e2.msg);
        else
            row->ratio = r->best.seconds > 0 ? row->sim.seconds / r->best.seconds : 1.0;
        if (ps == TOTEX_OK && (r->chosen == SIZE_MAX || row->sim.seconds < r->rows[r->chosen].sim.seconds)) {
            r->chosen = r->nrows - 1;
            if (links) /* replayed once more for its links: cheap beside planning */
                totex_wsim_run(net, d, s, o->bandwidth, o->ts, links, &row->sim, NULL);
        }
        totex_wschedule_free(s);
        if (ps == TOTEX_EVIOLATION) {
            free(links);
            st = totex_fail(err, ps, "schedule %s failed verification: %s", row->name, row->reason);
            goto done;
        }
        if (ps == TOTEX_ENOMEM) {
            free(links);
            st = totex_fail(err, ps, "%s", row->reason);
            goto done;
        }
    }
    r->link_bytes = links;
done:
    totex_fluid_free(&fl);
    return st;
}
