/*
 * Plan and verify in one call: bounds (from the network alone), the
 * algorithm's stream into a fresh simulator, and the simulator's report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/progress_scope.h"
#include "totex/delay.h"
#include "totex/exact.h"
#include "totex/plan.h"
#include "totex/progress.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/*
 * An algorithm without a symmetric form is planned and replayed in full: the
 * simulator and the planner keep state per message. Refuse it before it runs
 * (its prediction may run the whole planner) when the network has more
 * messages than @p max_messages (0: TOTEX_SIM_DEFAULT_MAX_MESSAGES), so that
 * memory is bounded before it is spent.
 */
static totex_status fits_in_full(const totex_network *net, const totex_algorithm *algo, uint64_t max_messages,
                                 totex_error *err)
{
    uint64_t limit = max_messages ? max_messages : TOTEX_SIM_DEFAULT_MAX_MESSAGES;
    if (algo->plan_symmetric || totex_network_messages(net) <= limit)
        return TOTEX_OK;
    return totex_fail(err, TOTEX_ENOMEM,
                      "%s plans and replays every message, and %s has %llu: more than the limit of %llu (about 23 bytes "
                      "each in the planner and simulator together); raise --max-messages N (up to 2^31), or use "
                      "`totex bounds` for a network this large",
                      algo->name, totex_network_spec(net), (unsigned long long)totex_network_messages(net),
                      (unsigned long long)limit);
}

/*
 * From this many messages on, the simulator replays on other threads while
 * the algorithm plans (src/schedule/sink_thread.c), split in its two parts
 * (links and ports; messages: totex_sim_stage_sink), one thread each: below
 * it threads buy nothing worth their start.
 */
#define THREADED_REPLAY_MESSAGES (UINT64_C(1) << 20)

/*
 * The replay split in its two parts (two threads beside the planner) on
 * machines of at least 3 online processors, where they buy wall time; on
 * fewer, the serial replay (both parts in one loop per step: less CPU time,
 * each hop read and checked once) on one thread beside the planner, since
 * three threads on two processors wait for each other. Figures:
 * docs/performance.md ("totex plan CPU time").
 */
static int split_replay(void)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus >= 3;
}

typedef totex_status (*producer_fn)(const void *a, const void *b, totex_sink sink, totex_error *err);

/*
 * Run @p produce(a, b, sink) into @p sim (progress ticks on @p prog), through
 * two worker threads for networks of at least THREADED_REPLAY_MESSAGES
 * messages (same steps, same order, and the same first violation as a serial
 * replay: totex_sim_stages_join). The simulator's failure wins over the
 * producer's (a violation is the cause; the producer only saw it passed back).
 */
static totex_status run_into(const totex_network *net, producer_fn produce, const void *a, const void *b,
                             totex_sim *sim, totex_progress *prog, totex_error *err)
{
    totex_sink_thread *th = NULL;
    const int split = split_replay();
    if (totex_network_messages(net) >= THREADED_REPLAY_MESSAGES) {
        const totex_sink parts[2] = {totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_LINKS),
                                     totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_MESSAGES)};
        const totex_sink whole = totex_sim_sink(sim);
        /* when no thread can be had, replay on this one */
        th = split ? totex_sink_thread_start_fanout(parts, 2, NULL) : totex_sink_thread_start(whole, NULL);
    }
    if (!th)
        return produce(a, b, totex_progress_sink(prog, totex_sim_sink(sim)), err);
    totex_status st = produce(a, b, totex_progress_sink(prog, totex_sink_thread_sink(th)), err);
    totex_error e2 = {{0}};
    totex_status st2;
    if (split) {
        totex_sink_thread_finish(th, NULL); /* each part's own failure: the join below orders them */
        st2 = totex_sim_stages_join(sim, &e2);
    } else {
        st2 = totex_sink_thread_finish(th, &e2); /* the serial replay's first failure */
    }
    if (st2 != TOTEX_OK) {
        st = st2;
        if (err)
            *err = e2;
    }
    return st;
}

typedef struct algo_args {
    const totex_network *net;
    totex_ports ports;
    const totex_algorithm *algo;
} algo_args;

static totex_status produce_plan(const void *a, const void *unused, totex_sink sink, totex_error *err)
{
    const algo_args *x = a;
    return x->algo->plan(x->net, x->ports, sink, err);
}

static totex_status produce_expand(const void *task, const void *s, totex_sink sink, totex_error *err)
{
    return totex_sym_expand(task, s, sink, err);
}

/* Stream the schedule through a fresh simulator: every message, every hop (a phase of @p prog). */
static totex_status verify_full(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                                uint64_t max_messages, totex_progress *prog, totex_plan_result *out,
                                totex_error *err)
{
    totex_sim *sim = totex_sim_new(net, ports, max_messages, err);
    totex_status st;
    if (!sim)
        return TOTEX_ENOMEM;
    totex_progress_phase(prog, algo->name, out->predicted_steps);
    algo_args args = {net, ports, algo};
    st = run_into(net, produce_plan, &args, NULL, sim, prog, err);
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, &out->sim, err);
    totex_sim_free(sim);
    out->full_simulation = st == TOTEX_OK;
    return st;
}

/*
 * Symmetric form: certify at one node (001 Theorem 2) and report per-network
 * figures; on small networks also expand to every node and replay it in the
 * simulator, which must agree. Certification and replay are phases of @p prog.
 */
static totex_status verify_symmetric(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                                     uint64_t max_messages, int keep_schedule, totex_progress *prog,
                                     totex_plan_result *out, totex_error *err)
{
    totex_task *task = NULL;
    totex_sym_schedule *s = NULL;
    totex_sym_report rep;
    char label[64];
    totex_status st = algo->plan_symmetric(net, ports, &task, &s, err);
    if (st == TOTEX_OK && algo->costly_predict)
        out->predicted_steps = totex_sym_steps(s);
    if (st == TOTEX_OK) {
        snprintf(label, sizeof label, "%s: certifying at one node", algo->name);
        totex_progress_phase(prog, label, totex_sym_steps(s));
        st = totex_sym_certify_progress(task, ports, s, &rep, prog, err);
    }
    if (st == TOTEX_OK) {
        out->symmetric = 1;
        totex_sym_report_to_sim(net, s, &rep, &out->sim);
        if (totex_network_messages(net) <= TOTEX_FULL_CHECK_MESSAGES &&
            totex_network_messages(net) <= (max_messages ? max_messages : TOTEX_SIM_MAX_MESSAGES)) {
            totex_sim *sim = totex_sim_new(net, ports, max_messages, err);
            totex_sim_report full;
            if (!sim) {
                st = TOTEX_ENOMEM;
            } else {
                snprintf(label, sizeof label, "%s: replaying every node", algo->name);
                totex_progress_phase(prog, label, totex_sym_steps(s));
                st = run_into(net, produce_expand, task, s, sim, prog, err);
                if (st == TOTEX_OK)
                    st = totex_sim_finish(sim, &full, err);
                totex_sim_free(sim);
                if (st == TOTEX_OK && (full.steps != rep.steps || full.hops != out->sim.hops ||
                                       full.average_delay < rep.average_delay - 1e-9 ||
                                       full.average_delay > rep.average_delay + 1e-9))
                    st = totex_fail(err, TOTEX_EVIOLATION,
                                    "%s: certification at one node (%llu steps, delay %.6f) disagrees with the full simulation (%llu steps, delay %.6f)",
                                    algo->name, (unsigned long long)rep.steps, rep.average_delay,
                                    (unsigned long long)full.steps, full.average_delay);
                if (st == TOTEX_OK) {
                    out->sim.peak_queue = full.peak_queue;
                    out->full_simulation = 1;
                }
            }
        }
    }
    if (st == TOTEX_OK && keep_schedule) {
        out->kept_task = task;
        out->kept_schedule = s;
        return st;
    }
    totex_sym_free(s);
    totex_task_free(task);
    return st;
}

/* the process-wide defaults of the deprecated switches, read only by totex_plan_and_verify() and totex_plan_best() */
static int legacy_keep_schedule;
static uint64_t legacy_costly_budget = TOTEX_PLAN_COSTLY_BUDGET_HOPS;

void totex_plan_keep_schedule(int on)
{
    legacy_keep_schedule = on;
}

uint64_t totex_plan_costly_budget(uint64_t hops)
{
    legacy_costly_budget = hops ? hops : TOTEX_PLAN_COSTLY_BUDGET_HOPS;
    return legacy_costly_budget;
}

/* the options the deprecated entry points stand for: their arguments and the process-wide switches */
static totex_plan_options legacy_options(uint64_t max_messages, totex_objective objective)
{
    totex_plan_options o = {0};
    o.max_messages = max_messages;
    o.objective = objective;
    o.keep_schedule = legacy_keep_schedule;
    o.costly_budget = legacy_costly_budget;
    o.progress = totex_progress_enabled() ? stderr : NULL;
    return o;
}

static totex_status plan_best(const totex_network *net, totex_ports ports, const totex_plan_options *o,
                              totex_plan_result *out, totex_error *err);

void totex_plan_result_release(totex_plan_result *r)
{
    if (!r)
        return;
    totex_sym_free(r->kept_schedule);
    totex_task_free(r->kept_task);
    r->kept_schedule = NULL;
    r->kept_task = NULL;
}

totex_status totex_plan_and_verify(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                                   uint64_t max_messages, totex_plan_result *out, totex_error *err)
{
    const totex_plan_options o = legacy_options(max_messages, TOTEX_OBJECTIVE_STEPS);
    if (!algo) { /* as it always did: the bounds first, so that their failure is the one reported */
        totex_status st;
        memset(out, 0, sizeof *out);
        if ((st = totex_bounds_compute(net, ports, out->bounds, &out->bound_count, &out->best_bound, err)) != TOTEX_OK)
            return st;
    }
    return totex_plan_run(net, ports, algo, &o, out, err);
}

static totex_status plan_run(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                             const totex_plan_options *opt, totex_plan_result *out, totex_error *err);

/* the meters inside the algorithms write where @p o says for the length of the call (this thread only) */
totex_status totex_plan_run(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                            const totex_plan_options *opt, totex_plan_result *out, totex_error *err)
{
    FILE *saved;
    const int was = totex_progress_scope_begin(opt ? opt->progress : NULL, &saved);
    const totex_status st = plan_run(net, ports, algo, opt, out, err);
    totex_progress_scope_end(was, saved);
    return st;
}

static totex_status plan_run(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                             const totex_plan_options *opt, totex_plan_result *out, totex_error *err)
{
    totex_status st;
    double t0 = now_seconds();
    const totex_plan_options o = opt ? *opt : (totex_plan_options){0};
    const uint64_t max_messages = o.max_messages;
    memset(out, 0, sizeof *out);
    out->net = net;
    out->ports = ports;
    if (!algo) /* the choice computes the bounds once, and each candidate's run its own */
        return plan_best(net, ports, &o, out, err);
    if ((st = totex_bounds_compute(net, ports, out->bounds, &out->bound_count, &out->best_bound, err)) != TOTEX_OK)
        return st;
    if ((st = algo->applies(net, ports, err)) != TOTEX_OK)
        return st;
    if ((st = fits_in_full(net, algo, max_messages, err)) != TOTEX_OK)
        return st;
    {
        /* lower bound on the average delay, from the task matrix alone (001 appendix) */
        totex_task *task = totex_task_total_exchange(net, NULL);
        if (task && totex_delay_lower_bound(task, ports, &out->delay_bound, NULL) == TOTEX_OK)
            out->has_delay_bound = 1;
        totex_task_free(task);
    }
    out->algorithm = algo;
    /* progress on stderr when enabled: one meter for the job, its second of silence from here */
    totex_progress *prog = o.progress ? totex_progress_new(o.progress, algo->name, 0, NULL, 1) : NULL;
    /*
     * A costly prediction is a run of the whole algorithm:
     * plan first and take the count from that run (the algorithm's memo, or
     * the symmetric schedule's steps) instead of running it twice.
     */
    if (!algo->costly_predict && (st = algo->predict(net, ports, &out->predicted_steps, err)) != TOTEX_OK) {
        totex_progress_free(prog);
        return st;
    }
    if (algo->plan_symmetric)
        st = verify_symmetric(net, ports, algo, max_messages, o.keep_schedule, prog, out, err);
    else
        st = verify_full(net, ports, algo, max_messages, prog, out, err);
    if (st == TOTEX_OK && algo->costly_predict && !algo->plan_symmetric)
        st = algo->predict(net, ports, &out->predicted_steps, err);
    totex_progress_free(prog);
    out->plan_seconds = now_seconds() - t0;
    out->verified = st == TOTEX_OK;
    return st;
}

/* Better result under the objective: fewer steps then less delay, or the converse. */
static int better(const totex_plan_result *a, const totex_plan_result *b, totex_objective objective)
{
    const double eps = 1e-9;
    if (objective == TOTEX_OBJECTIVE_DELAY) {
        if (a->sim.average_delay < b->sim.average_delay - eps)
            return 1;
        if (a->sim.average_delay > b->sim.average_delay + eps)
            return 0;
        return a->sim.steps < b->sim.steps;
    }
    if (a->sim.steps != b->sim.steps)
        return a->sim.steps < b->sim.steps;
    return a->sim.average_delay < b->sim.average_delay - eps;
}

/* Nothing can beat @p r under either objective: its steps meet @p lower and its delay meets the delay bound. */
static int proved_optimal(const totex_plan_result *r, uint64_t lower)
{
    return lower && r->sim.steps == lower && r->has_delay_bound &&
           r->sim.average_delay <= r->delay_bound + 1e-9 * (1.0 + r->delay_bound);
}

totex_status totex_plan_best(const totex_network *net, totex_ports ports, totex_objective objective,
                             uint64_t max_messages, totex_plan_result *out, totex_error *err)
{
    const totex_plan_options o = legacy_options(max_messages, objective);
    FILE *saved;
    memset(out, 0, sizeof *out);
    const int was = totex_progress_scope_begin(o.progress, &saved);
    const totex_status st = plan_best(net, ports, &o, out, err);
    totex_progress_scope_end(was, saved);
    return st;
}

/*
 * The costly budget of candidate @p a, in hops of S_G: @p costly_budget, times a->costly_budget_scale for one
 * cheaper a hop than greedy (pipeline), or 1.5 times it for one planned at once instead of predicted (one run,
 * not a prediction and a second run when it wins, but that run is replayed by the simulator too: with twice,
 * mesh:36x44 2-port, 66.9 M hops, took 4.8 s of CPU). Saturates at UINT64_MAX.
 */
static uint64_t candidate_budget(const totex_algorithm *a, int at_once, uint64_t costly_budget)
{
    if (a->costly_budget_scale > 1)
        return costly_budget <= UINT64_MAX / a->costly_budget_scale ? costly_budget * a->costly_budget_scale
                                                                    : UINT64_MAX;
    if (at_once)
        return costly_budget <= UINT64_MAX / 2 ? costly_budget + costly_budget / 2 : UINT64_MAX;
    return costly_budget;
}

/* The automatic choice under @p o (totex_plan_best()); @p out zeroed by the caller, its bounds may be set. */
static totex_status plan_best(const totex_network *net, totex_ports ports, const totex_plan_options *o,
                              totex_plan_result *out, totex_error *err)
{
    const totex_objective objective = o->objective;
    const uint64_t max_messages = o->max_messages;
    const uint64_t costly_budget = o->costly_budget ? o->costly_budget : TOTEX_PLAN_COSTLY_BUDGET_HOPS;
    totex_plan_options one = *o; /* each candidate's run: the same options */
    double t0 = now_seconds(); /* the choice's wall time covers every candidate, not only the winner's run */
    uint64_t fewest = UINT64_MAX;
    int found = 0;
    totex_error why = {{0}};
    totex_status last = TOTEX_ENOTAPPLICABLE;
    size_t count = totex_algorithm_count();
    uint64_t *pred = calloc(count, sizeof *pred);
    unsigned char *ok = calloc(count, 1);
    totex_plan_result *done = calloc(count, sizeof *done); /* costly candidates, planned and verified once */
    unsigned char *has = calloc(count, 1);
    if (!pred || !ok || !done || !has) {
        free(pred);
        free(ok);
        free(done);
        free(has);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory");
    }
    /* the best lower bound: once a cheap prediction meets it, costly predictions cannot win on steps */
    totex_bound bnd[TOTEX_MAX_BOUNDS];
    size_t nb = 0, ib = 0;
    uint64_t lower = 0;
    if (totex_bounds_compute(net, ports, bnd, &nb, &ib, NULL) == TOTEX_OK && nb)
        lower = bnd[ib].value;
    /*
     * Without a lower bound on the average delay (001 appendix: vertex-transitive
     * products only) no result is ever proved optimal, so a candidate whose
     * prediction ties is always replayed: there a costly prediction (a run of
     * the whole algorithm) of an algorithm that usually wins where it applies
     * (plan_instead_of_predict) is replaced by planning and verifying it once.
     */
    int provable = 0;
    {
        totex_task *task = totex_task_total_exchange(net, NULL);
        double dl;
        provable = task && totex_delay_lower_bound(task, ports, &dl, NULL) == TOTEX_OK;
        totex_task_free(task);
    }
    /* the hops of every shortest-path schedule (000 Theorem 1): the work of a costly prediction */
    uint64_t hops = 0, not_tried = 0, superseded = 0;
    /* what the automatic exact search did: reported with the choice */
    char exact_note[192] = "";
    int exact_ran = 0;
    if (totex_network_status_sum(net, &hops, NULL) != TOTEX_OK)
        hops = UINT64_MAX;
    /* a costly candidate that supersedes the others on networks this large, when it applies and is itself
       within its budget (steps objective) */
    const totex_algorithm *sup = NULL;
    for (size_t i = 0; objective == TOTEX_OBJECTIVE_STEPS && !sup && i < count; i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        if (a->costly_predict && a->supersedes_costly_above && hops != UINT64_MAX && hops > a->supersedes_costly_above &&
            hops <= candidate_budget(a, a->plan_instead_of_predict && !provable, costly_budget) &&
            a->applies(net, ports, NULL) == TOTEX_OK)
            sup = a;
    }
    for (int pass = 0; pass < 2 && last != TOTEX_EVIOLATION; pass++)
    for (size_t i = 0; i < count; i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        totex_error e2 = {{0}};
        totex_status st1;
        if (a->costly_predict != pass)
            continue; /* cheap predictions first, costly ones in the second pass */
        if (pass && objective == TOTEX_OBJECTIVE_STEPS && fewest == lower) {
            if (!strcmp(a->name, "exact"))
                snprintf(exact_note, sizeof exact_note, "not needed: a candidate meets the best lower bound");
            continue;
        }
        /* planned and verified at once instead of predicted (under k-port: within the budget, below) */
        const int at_once = a->plan_instead_of_predict ||
                            (a->plan_instead_under_k_port && ports != TOTEX_PORTS_SINGLE && ports != TOTEX_PORTS_MULTI);
        const uint64_t budget = candidate_budget(a, at_once && !provable, costly_budget);
        if (a->applies(net, ports, &e2) != TOTEX_OK)
            st1 = TOTEX_ENOTAPPLICABLE;
        else if (pass && sup && a != sup && !a->plan_symmetric && i < 64) {
            superseded |= UINT64_C(1) << i; /* not tried: sup applies and beats it on networks this large */
            continue;
        } else if (pass && fewest != UINT64_MAX && !a->plan_symmetric &&
                   (!a->plan_instead_of_predict || a->costly_budget_scale) && hops > budget && i < 64) {
            /* a prediction that runs the whole algorithm, to be planned again if it wins, over more hops
               than the budget, while a cheaper candidate applies: not tried (totex_plan_costly_budget) */
            not_tried |= UINT64_C(1) << i;
            continue;
        } else if ((st1 = fits_in_full(net, a, max_messages, &e2)) == TOTEX_OK) {
            if (!pass || provable || !at_once) {
                st1 = a->predict(net, ports, &pred[i], &e2);
            } else {
                /*
                 * A costly prediction runs the whole algorithm: plan and verify it
                 * instead, once; its simulated steps are its
                 * prediction, and the result is kept for the choice below.
                 */
                st1 = totex_plan_run(net, ports, a, &one, &done[i], &e2);
                if (st1 == TOTEX_OK) {
                    has[i] = 1;
                    pred[i] = done[i].sim.steps;
                } else if (st1 == TOTEX_EVIOLATION) {
                    why = e2;
                    last = st1;
                    break; /* a schedule failed verification: report it, never hide it */
                }
            }
        }
        if (!strcmp(a->name, "exact")) {
            if (st1 == TOTEX_OK)
                exact_ran = 1;
            else
                snprintf(exact_note, sizeof exact_note, "%.180s", e2.msg);
            const totex_exact_result *x = st1 == TOTEX_OK ? totex_exact_last() : NULL;
            if (x && x->upper_from && strcmp(x->upper_from, "exact"))
                continue; /* no schedule of its own: it would replay another candidate's again */
        }
        if (st1 != TOTEX_OK) {
            /* when nothing runs, say first what a larger limit would change */
            if (!why.msg[0] || (st1 == TOTEX_ENOMEM && last != TOTEX_ENOMEM)) {
                why = e2;
                if (st1 == TOTEX_ENOMEM)
                    last = TOTEX_ENOMEM;
            }
            continue;
        }
        ok[i] = 1;
        if (pred[i] < fewest)
            fewest = pred[i];
    }
    /*
     * Candidates with a certificate at one node (a symmetric form, 001 Theorem 2)
     * first, full replays after: once a result is optimal under both criteria
     * (steps = the best lower bound and average delay = its lower bound, 001
     * appendix), no other candidate can be better, so none is replayed.
     * Costly candidates were already planned and verified above: their results
     * are taken as they are.
     */
    for (int cheap = 1; cheap >= 0 && last != TOTEX_EVIOLATION; cheap--)
    for (size_t i = 0; i < count; i++) {
        totex_plan_result r;
        totex_error e2;
        const totex_algorithm *a = totex_algorithm_get(i);
        if (!ok[i] || (objective == TOTEX_OBJECTIVE_STEPS && pred[i] != fewest) || (a->plan_symmetric != NULL) != cheap)
            continue;
        if (has[i]) {
            r = done[i];
            has[i] = 0;
        } else {
            if (found && proved_optimal(out, lower)) {
                out->skipped++;
                continue;
            }
            last = totex_plan_run(net, ports, a, &one, &r, &e2);
            if (last != TOTEX_OK) {
                why = e2;
                if (last == TOTEX_EVIOLATION)
                    break; /* a schedule failed verification: report it, never hide it */
                continue;
            }
        }
        last = TOTEX_OK;
        if (!found || better(&r, out, objective)) {
            if (found)
                totex_plan_result_release(out);
            *out = r;
        } else {
            totex_plan_result_release(&r);
        }
        found = 1;
    }
    for (size_t i = 0; i < count; i++)
        if (has[i])
            totex_plan_result_release(&done[i]); /* planned, verified and not chosen */
    free(pred);
    free(ok);
    free(done);
    free(has);
    if (last == TOTEX_EVIOLATION) {
        if (err)
            *err = why;
        return TOTEX_EVIOLATION;
    }
    if (!found)
        return totex_fail(err, last == TOTEX_ENOTAPPLICABLE ? TOTEX_ENOTAPPLICABLE : last,
                          "no algorithm could plan %s under %s: %s", totex_network_spec(net), totex_ports_name(ports),
                          why.msg);
    out->not_tried = not_tried;
    out->superseded = superseded;
    out->superseded_by = superseded ? sup : NULL;
    out->not_tried_hops = not_tried ? hops : 0;
    out->exact_reported = 1;
    out->exact_budget = totex_exact_auto_budget();
    const totex_exact_result *x = exact_ran ? totex_exact_last() : NULL;
    if (x) {
        out->exact_ran = 1;
        out->exact_steps = x->steps;
        out->exact_lower = x->lower;
        out->exact_optimal = x->optimal;
        out->exact_timed_out = x->timed_out;
        out->exact_cpu_seconds = x->cpu_seconds;
    } else {
        snprintf(out->exact_note, sizeof out->exact_note, "%s", exact_note[0] ? exact_note : "not tried");
    }
    out->not_tried_budget = not_tried ? costly_budget : 0;
    out->plan_seconds = now_seconds() - t0;
    return TOTEX_OK;
}
