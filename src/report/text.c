/* Human-readable reports: `totex plan` and `totex bounds`. Formats only. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "totex/report.h"

static void print_network(FILE *fp, const totex_network *net, const char *name)
{
    const char *spec = totex_network_spec(net);
    if (name && *name && strcmp(name, spec))
        fprintf(fp, "network        %s = %s\n", name, spec);
    else
        fprintf(fp, "network        %s\n", spec);
    fprintf(fp, "nodes          %" PRIu32 " (%" PRIu32 " dimension%s), %" PRIu64 " links, %" PRIu64 " messages\n",
            totex_network_nodes(net), totex_network_dims(net), totex_network_dims(net) == 1 ? "" : "s",
            totex_network_links(net), totex_network_messages(net));
}

static void print_bounds(FILE *fp, const totex_bound *b, size_t count, size_t best)
{
    for (size_t i = 0; i < count; i++)
        fprintf(fp, "%-14s %-15s %12" PRIu64 " steps%s  %s\n", i ? "" : "lower bounds", totex_bound_kind_name(b[i].kind),
                b[i].value, i == best ? " *" : "  ", b[i].witness);
    if (count)
        fprintf(fp, "best bound     %" PRIu64 " steps (%s)\n", b[best].value, totex_bound_kind_name(b[best].kind));
}

void totex_report_plan_text_verbose(FILE *fp, const totex_plan_result *r, int verbose)
{
    uint64_t lb = r->bound_count ? r->bounds[r->best_bound].value : 0;
    char pm[32];
    /* the question */
    print_network(fp, r->net, r->name);
    fprintf(fp, "ports          %s\n", totex_ports_format(r->ports, pm, sizeof pm));
    /* the answer first: which algorithm, its steps, whether optimal and verified; the details after */
    fprintf(fp, "algorithm      %s: %s [%s]\n", r->algorithm->name, r->algorithm->title, r->algorithm->source);
    fprintf(fp, "steps          %" PRIu64 " (formula predicts %" PRIu64 ")\n", r->sim.steps, r->predicted_steps);
    fprintf(fp, "optimal        %s\n", r->sim.steps == lb ? "yes (steps equal the best lower bound)"
                                                          : "not proved (steps exceed the best lower bound)");
    if (!r->verified)
        fprintf(fp, "verified       NO\n");
    else if (r->symmetric)
        fprintf(fp, "verified       yes: symmetric schedule certified at one node (001 Theorem 2)%s\n",
                r->full_simulation ? "; also expanded and replayed in full by the simulator, which agrees" : "");
    else
        fprintf(fp, "verified       yes (simulator replayed every step: no violation, every message delivered once)\n");
    if (r->skipped)
        fprintf(fp, "choice         %u tied candidate%s not planned: this schedule meets the step bound and the average-delay bound, so none could be better\n",
                r->skipped, r->skipped == 1 ? "" : "s");
    if (r->not_tried) {
        fprintf(fp, "choice         not tried:");
        for (size_t i = 0; i < 64 && i < totex_algorithm_count(); i++)
            if (r->not_tried >> i & 1)
                fprintf(fp, " %s", totex_algorithm_get(i)->name);
        fprintf(fp, " (a prediction that runs the whole algorithm over S_G = %" PRIu64
                    " hops, above auto's budget of %" PRIu64 " (scaled for one planned at once or cheaper a hop: totex plan --help); --algorithm NAME plans it, "
                    "--costly-budget HOPS lets auto try it)\n",
                r->not_tried_hops, r->not_tried_budget);
    }
    if (r->superseded && r->superseded_by) {
        fprintf(fp, "choice         not tried:");
        for (size_t i = 0; i < 64 && i < totex_algorithm_count(); i++)
            if (r->superseded >> i & 1)
                fprintf(fp, " %s", totex_algorithm_get(i)->name);
        fprintf(fp, " (%s applies, and on networks of more than %" PRIu64 " hops it beat them wherever measured;"
                    " --algorithm NAME plans them)\n",
                r->superseded_by->name, r->superseded_by->supersedes_costly_above);
    }
    if (r->exact_reported && r->exact_ran)
        fprintf(fp, "exact search   budget %g CPU s, used %.2f: %s %" PRIu64 " steps%s; proved lower bound %" PRIu64 "%s\n",
                r->exact_budget, r->exact_cpu_seconds,
                !strcmp(r->algorithm->name, "exact") ? "found" : "no schedule below",
                r->exact_steps, r->exact_optimal ? " (optimal)" : "", r->exact_lower,
                r->exact_timed_out ? " (budget used up; --exact-budget S gives it more)" : "");
    else if (r->exact_reported)
        fprintf(fp, "exact search   budget %g CPU s: not run: %s\n", r->exact_budget, r->exact_note);
    /* then why: the bounds, and what the simulator measured */
    if (lb)
        fprintf(fp, "ratio          %.4f of the best bound\n", (double)r->sim.steps / (double)lb);
    print_bounds(fp, r->bounds, r->bound_count, r->best_bound);
    fprintf(fp, "average delay  %.3f steps", r->sim.average_delay);
    if (r->has_delay_bound)
        fprintf(fp, " (lower bound %.3f, 001 appendix; ratio %.4f)", r->delay_bound,
                r->delay_bound > 0 ? r->sim.average_delay / r->delay_bound : 0.0);
    fprintf(fp, "\n");
    fprintf(fp, "peak queue     %" PRIu64 " messages (node %" PRIu32 ")\n", r->sim.peak_queue, r->sim.peak_queue_node);
    fprintf(fp, "utilisation    %.1f%% of directed links, %.3f sends per node per step\n",
            100.0 * r->sim.link_utilisation, r->sim.port_utilisation);
    fprintf(fp, "hops           %" PRIu64 "\n", r->sim.hops);
    for (size_t i = 0; verbose && i < totex_algorithm_count(); i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        totex_error why;
        if (a->applies(r->net, r->ports, &why) != TOTEX_OK)
            fprintf(fp, "not applicable %s: %s\n", a->name, why.msg);
    }
    fprintf(fp, "wall time      %.3f s\n", r->plan_seconds);
}

void totex_report_plan_text(FILE *fp, const totex_plan_result *r) { totex_report_plan_text_verbose(fp, r, 0); }

totex_status totex_report_bounds_text(FILE *fp, const totex_network *net, const char *name, totex_ports ports,
                                      totex_error *err)
{
    return totex_report_bounds_text_extra(fp, net, name, ports, NULL, 0, err);
}

totex_status totex_report_bounds_text_extra(FILE *fp, const totex_network *net, const char *name, totex_ports ports,
                                            const totex_bound *extra, size_t nextra, totex_error *err)
{
    totex_bound b[TOTEX_MAX_BOUNDS + 2];
    size_t count, best;
    uint64_t sg;
    totex_status st = totex_bounds_compute(net, ports, b, &count, &best, err);
    if (st != TOTEX_OK)
        return st;
    for (size_t i = 0; i < nextra && i < 2; i++) {
        b[count] = extra[i];
        if (b[count].value > b[best].value)
            best = count;
        count++;
    }
    char pm[32];
    print_network(fp, net, name);
    fprintf(fp, "ports          %s\n", totex_ports_format(ports, pm, sizeof pm));
    fprintf(fp, "diameter       %" PRIu64 " hops\n", totex_network_diameter(net));
    if (totex_network_status_sum(net, &sg, NULL) == TOTEX_OK)
        fprintf(fp, "total status   %" PRIu64 " hops (Theorem 1 / Corollary 1)\n", sg);
    fprintf(fp, "average status %.4f hops\n", totex_network_average_status(net));
    fprintf(fp, "average dist.  %.4f hops\n", totex_network_average_distance(net));
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint32_t m = totex_factor_nodes(f);
        fprintf(fp, "dimension %-4" PRIu32 " %-12s m=%-6" PRIu32 " diameter %-5" PRIu32 " average status %.4f\n", i,
                totex_factor_name(f), m, totex_factor_diameter(f), (double)totex_factor_status_sum(f) / m);
    }
    {
        /* the task matrix of total exchange (001 Sections 2, 8.1) on vertex-transitive products */
        totex_task *t = totex_task_total_exchange(net, NULL);
        if (t) {
            char line[256];
            uint64_t k = totex_ports_k(ports), sigma = totex_task_total_sum(t), h = totex_task_critical_sum(t);
            fprintf(fp, "task matrix    %u rows (packets) x %u columns (link types), total sum sigma = %llu hops\n",
                    totex_task_rows(t), totex_task_cols(t), (unsigned long long)sigma);
            fprintf(fp, "critical sum   h = %llu steps, critical line %s\n", (unsigned long long)h,
                    totex_task_critical_line(t, line, sizeof line));
            if (k)
                fprintf(fp, "optimum        max(ceil(sigma/k), h) = %llu steps for symmetric schemes (001 Theorem 7)\n",
                        (unsigned long long)((sigma + k - 1) / k > h ? (sigma + k - 1) / k : h));
            else
                fprintf(fp, "optimum        h = %llu steps for symmetric schemes (001 Theorems 5, 9)\n",
                        (unsigned long long)h);
            totex_task_free(t);
        }
    }
    print_bounds(fp, b, count, best);
    return TOTEX_OK;
}
