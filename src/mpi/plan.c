/* Plans of totex_alltoall: rank 0 ranks the candidates (combining
 * algorithms, and unit-step schedules with their chunking) by the cost model
 * of choice.c (or TOTEX_ALGORITHM forces one), every rank builds its share of
 * each candidate's schedule (share.h; a symmetric unit-step schedule is node
 * 0's moves translated, no rank builds the whole schedule) and compiles it
 * (compile.c) into a program for run.c; the model's best few are timed on
 * the communicator and the fastest kept. The schedules themselves are not kept. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"



#define MAX_CANDIDATES (8 + TOTEX_PROG_PAD_VARIANTS) /* 8, and padded forms when padding may pay */
#define TRIAL_ROUNDS 2
#define TRIAL_RUNS 3
#define TRIAL_RUNS_MAX 32
#define TRIAL_ROUND_SECONDS 100e-6 /* short calls: runs per round up to this long (predicted), at most TRIAL_RUNS_MAX */
#define TRIAL_KEEP_BYTES (1 << 20) /* n blocks up to this size: a candidate keeps its buffers between rounds */
#define CAND_DOUBLES 8 /* unit, idx, ports, chunks, predicted, steps, pad, stagger */
#define OPT_AT (4 + CAND_DOUBLES * MAX_CANDIDATES) /* rank 0's program knobs: window, arena blocks, receive window,
                                                      then its test interval (TOTEX_TEST_INTERVAL) */
#define MSG_DOUBLES (OPT_AT + 4)

/* TOTEX_TUNE=0: no trials, the model's first choice runs */
static int tuning_on(void)
{
    return totex_mpi_env_switch("TOTEX_TUNE", 1);
}

/* TOTEX_CHUNKS=C (1 .. TOTEX_PROG_MAX_CHUNKS) forces the chunks of unit-step candidates (and of a combining
   algorithm forced by TOTEX_ALGORITHM); 0 when unset or invalid */
static int forced_chunks(void)
{
    long long v = 0;
    return totex_mpi_env_int("TOTEX_CHUNKS", 1, TOTEX_PROG_MAX_CHUNKS, &v) ? (int)v : 0;
}

/* TOTEX_OWN_MESSAGES=W (1 .. TOTEX_PROG_MAX_CHUNKS): a combining algorithm forced by TOTEX_ALGORITHM in its
   relayed-in-chunks form (direct-relay) sends its own blocks in W messages per transfer (1: whole, the
   default), when W divides its chunks; 0 when unset or invalid */
static int forced_own_messages(void)
{
    long long v = 0;
    return totex_mpi_env_int("TOTEX_OWN_MESSAGES", 1, TOTEX_PROG_MAX_CHUNKS, &v) ? (int)v : 0;
}

/* TOTEX_STAGGER=0|1|2 forces unstaggered lanes, staggered lanes, or staggered lanes after start rounds
   (compile.c) on unit-step candidates of more than one chunk; -1 when unset or invalid (the model's
   candidates, both kinds timed, start rounds where the model says they pay) */
static int forced_stagger(void)
{
    long long v = -1;
    return totex_mpi_env_int("TOTEX_STAGGER", 0, 2, &v) ? (int)v : -1;
}

/* rank 0: the candidates, in the model's order, into msg = {count, t_s, t_c, t_l, candidates...} */
static void choose_candidates(const totex_network *net, const char *spec, const totex_comb_cost *cost,
                              const totex_prog_linkcost *lc,
                              const totex_error *perr, double *msg, char *why, size_t cap)
{
    totex_error err = *perr;
    const char *forced = totex_mpi_env_string("TOTEX_ALGORITHM");
    const int fc = forced_chunks(), fs = forced_stagger();
    totex_prog_cand c[MAX_CANDIDATES];
    size_t k = 0;
    if (!net) {
        snprintf(why, cap, "network '%.200s': %.300s", spec, err.msg);
    } else if (forced && *forced && strcmp(forced, "auto") != 0) {
        totex_ports ports = 0;
        const totex_algorithm *u = totex_prog_unit_algorithm(forced, &ports);
        const totex_comb_algorithm *a = u ? NULL : totex_comb_algorithm_find(forced, &err);
        if (u) {
            uint64_t steps = 0;
            size_t ai = 0;
            while (totex_algorithm_get(ai) != u)
                ai++;
            /* the model's chunks (staggered unless TOTEX_STAGGER=0 says otherwise) */
            int ch = fc ? fc : totex_prog_model_chunks((long long)cost->m, fs != 0, lc);
            int sg = ch > 1 && fs != 0;
            if (u->applies(net, ports, &err) != TOTEX_OK || u->predict(net, ports, &steps, &err) != TOTEX_OK)
                snprintf(why, cap, "TOTEX_ALGORITHM=%.40s on %.200s: %.300s", forced, spec, err.msg);
            else {
                if (sg) /* start rounds as forced, else where the model says they pay */
                    sg = fs > 0 ? fs
                                : 1 + totex_prog_start_rounds_pay(steps, (long long)cost->m, ch,
                                                                  totex_network_diameter(net), lc);
                c[k++] = (totex_prog_cand){1, (int)ai, ports, ch,
                                          totex_prog_unit_time(steps, (long long)cost->m, ch, sg, lc),
                                          steps, 0, lc->pad_forced ? lc->pad : 0, sg};
            }
        } else if (!a) {
            snprintf(why, cap, "TOTEX_ALGORITHM: %s (or a unit-step schedule: octr, sym2, a3, greedy-sym, greedy, a2)",
                     err.msg);
        }
        for (size_t i = 0; a && i < totex_comb_algorithm_count(); i++)
            if (totex_comb_algorithm_get(i) == a) {
                c[k] = (totex_prog_cand){0, (int)i, 0, fc ? fc : 1, 0, 0, 0, lc->pad_forced ? lc->pad : 0, 0};
                if (!fc && !lc->pad_forced) /* its own form (direct-relay: relayed blocks in chunks) */
                    totex_prog_comb_form((long long)cost->m, &c[k]);
                const int own = forced_own_messages(); /* and its own blocks in that many messages */
                if (own && c[k].stagger && c[k].chunks % own == 0)
                    c[k].stagger = own;
                k++;
            }
    } else {
        /* padded forms take extra places in the trial (only where padding may pay: lc->pad > 0) */
        const size_t places = !tuning_on() ? 1
                              : (lc->pad > (long long)cost->m && !lc->pad_forced) ||
                                        totex_prog_split_chunks((long long)cost->m, lc, NULL) > 1
                                  ? MAX_CANDIDATES
                                  : MAX_CANDIDATES - TOTEX_PROG_PAD_VARIANTS;
        k = totex_prog_rank_candidates(net, cost, lc, c, places, why, cap);
        for (size_t i = 0; i < k; i++)
            if (c[i].unit) {
                c[i].chunks = fc ? fc : c[i].chunks;
                c[i].stagger = c[i].chunks < 2 ? 0 : fs >= 0 ? fs : c[i].stagger;
            }
        if (!k && !why[0])
            snprintf(why, cap, "no algorithm applies to %.200s", spec);
    }
    msg[0] = (double)k;
    for (size_t i = 0; i < k; i++) {
        double *m = msg + 4 + CAND_DOUBLES * i;
        m[0] = c[i].unit;
        m[1] = c[i].idx;
        m[2] = c[i].ports;
        m[3] = c[i].chunks;
        m[4] = c[i].predicted;
        m[5] = (double)c[i].steps;
        m[6] = c[i].pad;
        m[7] = c[i].stagger;
    }
}

/* @p c's program for this rank (the program layer, build.h) as a plan of the cache (*out, NULL on failure);
   MPI code with why[] (no MPI calls) */
static int build_plan(const totex_network *net, const totex_comb_cost *cost, const totex_prog_cand *c, int size,
                      int rank, long long slot, const totex_prog_opts *o, totex_mpi_plan **out, char *why, size_t cap)
{
    totex_prog *prog = NULL;
    totex_error err;
    err.msg[0] = '\0';
    *out = NULL;
    totex_status ts = totex_prog_build(net, cost, c, (uint32_t)size, (uint32_t)rank, slot, o, &prog, &err);
    if (ts != TOTEX_OK) {
        snprintf(why, cap, "%s", err.msg);
        totex_prog_free(prog);
        return ts == TOTEX_ENOMEM ? MPI_ERR_NO_MEM : ts == TOTEX_EOVERFLOW ? MPI_ERR_COUNT
                                                   : ts == TOTEX_EVIOLATION ? MPI_ERR_INTERN : MPI_ERR_ARG;
    }
    if (!(*out = totex_mpi_plan_new(prog, slot))) {
        snprintf(why, cap, "out of memory");
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

/* time each candidate on the communicator in TRIAL_ROUNDS rounds, the candidates in turn (a
   different one first in each round): per candidate and round, one untimed run when its buffers
   are not allocated (connections, pages), a barrier, then @p runs back-to-back runs (the barrier's
   skew shared out); the slowest rank's time per run; of the rounds the fastest (a shared machine's
   interruptions only ever add time, and they hit a candidate timed in one piece as a whole). A
   candidate's buffers are kept between rounds when its n blocks take at most TRIAL_KEEP_BYTES (the
   same on every rank: they must all make the same untimed runs), else freed after each of its
   rounds, so that at most one large candidate holds buffers at a time. Results stay in the
   plans' arenas: the caller's buffers are not touched. */
static int time_candidates(MPI_Comm comm, totex_mpi_guard *g, totex_mpi_plan **cand, int nc, const char *send,
                           int runs, double *worst)
{
    double t[MAX_CANDIDATES * TRIAL_ROUNDS], w[MAX_CANDIDATES * TRIAL_ROUNDS];
    int rc = MPI_SUCCESS;
    for (int r = 0; r < TRIAL_ROUNDS; r++)
        for (int k = 0; k < nc; k++) {
            const int c = (k + r) % nc;
            t[c * TRIAL_ROUNDS + r] = -1;
            if (!cand[c])
                continue;
            /* the same on every rank (a rank's own buffer sizes are not): n blocks of slot bytes */
            const int keep = (double)cand[c]->slot * cand[c]->prog->n <= TRIAL_KEEP_BYTES;
            if (r == 0 || !keep)
                rc = totex_mpi_exec(cand[c], comm, TOTEX_MPI_TRIAL_TAG, g, 0, send, NULL, 0);
            if (rc == MPI_SUCCESS)
                rc = MPI_Barrier(comm);
            double t0 = MPI_Wtime();
            for (int run = 0; run < runs && rc == MPI_SUCCESS; run++)
                rc = totex_mpi_exec(cand[c], comm, TOTEX_MPI_TRIAL_TAG, g, 0, send, NULL, 0);
            if (rc != MPI_SUCCESS)
                return rc;
            t[c * TRIAL_ROUNDS + r] = (MPI_Wtime() - t0) / runs;
            if (r == TRIAL_ROUNDS - 1 || !keep)
                totex_prog_release(cand[c]->prog);
        }
    if ((rc = MPI_Allreduce(t, w, nc * TRIAL_ROUNDS, MPI_DOUBLE, MPI_MAX, comm)) != MPI_SUCCESS)
        return rc;
    for (int c = 0; c < nc; c++) {
        worst[c] = w[c * TRIAL_ROUNDS];
        for (int r = 1; r < TRIAL_ROUNDS; r++)
            if (w[c * TRIAL_ROUNDS + r] < worst[c])
                worst[c] = w[c * TRIAL_ROUNDS + r];
    }
    return MPI_SUCCESS;
}

/* the size class of @p slot bytes: floor(log2(slot)) */
static int size_class_of(long long slot)
{
    int c = 0;
    while (c < 63 && (slot >> (c + 1)) > 0)
        c++;
    return c;
}

/*
 * A block size of a class already planned: compile the class's
 * choice for @p slot without ranking or timing the candidates again (a program
 * with 1000 distinct block sizes planned and timed 1000 times). Collective: every
 * rank has the same classes (same calls, same choices). 1 with *out when every
 * rank built it, 0 to plan in full (the class is forgotten), -1 with *rc on an
 * MPI error. TOTEX_SIZE_CLASSES=0 (read once; the same on every rank) plans every
 * size in full, as before: the baseline of bench/mpi/mpi_sizes_bench.sh.
 */
static int reuse_class_choice(MPI_Comm comm, const totex_network *net, const totex_comb_cost *base, int size, int rank,
                              long long slot, int verbose, totex_mpi_state *st, totex_mpi_plan **out, int *rc)
{
    const int enabled = st->size_classes; /* rank 0's TOTEX_SIZE_CLASSES (state.c) */
    int cls = size_class_of(slot);
    if (!enabled || !st->size_class[cls].known)
        return 0;
    totex_comb_cost cost = *base;
    cost.t_s = st->size_class[cls].t_s;
    cost.t_c = st->size_class[cls].t_c;
    totex_prog_cand c = {st->size_class[cls].unit,   st->size_class[cls].idx,       st->size_class[cls].ports,
                        st->size_class[cls].chunks, st->size_class[cls].predicted, st->size_class[cls].steps,
                        0,                          st->size_class[cls].pad,       st->size_class[cls].stagger};
    totex_mpi_plan *p = NULL;
    char why[600] = "";
    int bad = net ? build_plan(net, &cost, &c, size, rank, slot, &st->prog_opts, &p, why, sizeof why) : MPI_ERR_OTHER;
    int anybad = 0;
    if ((*rc = MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm)) != MPI_SUCCESS) {
        totex_mpi_plan_free(p);
        return -1;
    }
    if (anybad) {
        totex_mpi_plan_free(p);
        st->size_class[cls].known = 0;
        return 0;
    }
    if (verbose > 1 && rank == 0)
        fprintf(stderr, "totex: %s on %d ranks, %lld-byte blocks: %s (the choice for %lld..%lld-byte blocks, "
                        "compiled for this size without timing the candidates again)\n",
                st->entry ? st->entry : "totex_alltoall", size, slot, p->prog->label, 1LL << cls, cls < 62 ? (2LL << cls) - 1 : LLONG_MAX);
    (void)totex_mpi_run_prepare(p); /* (as for a plan chosen by trials) */
    p->predicted = st->size_class[cls].predicted;
    p->measured = -1;
    p->has_cand = 1;
    p->cand = c;
    p->cost = cost;
    p->reused = 1;
    p->has_nb = st->size_class[cls].has_nb;
    p->nb = st->size_class[cls].nb;
    p->nb_predicted = st->size_class[cls].nb_predicted;
    p->nb_choice_predicted = st->size_class[cls].nb_choice_predicted;
    p->nb_interval = st->size_class[cls].nb_interval;
    *out = p;
    return 1;
}

/*
 * The nonblocking choice: among the candidates the trial timed (@p t: seconds per blocking call, the slowest
 * rank's, the same on every rank), the one whose nonblocking run is predicted fastest when the caller tests
 * every @p interval seconds (totex_prog_nonblocking_time: each dependent step after the first waits half an
 * interval), with each candidate's dependent steps the largest over ranks (totex_prog_dependent_steps).
 * *nbpick = -1 when none is predicted faster than the blocking choice @p pick (ties keep it), when the
 * interval is 0 or a rank could not count some candidate's steps; else its index, with every timed
 * candidate's prediction in @p nbt. Collective (one MPI_Allreduce); MPI error code.
 */
static int nonblocking_choice(MPI_Comm comm, totex_mpi_plan *const *cand, int nc, const double *t, int pick,
                              double interval, int *nbpick, double *nbt)
{
    *nbpick = -1;
    if (!(interval > 0) || pick < 0)
        return MPI_SUCCESS;
    long long dep[MAX_CANDIDATES] = {0};
    uint64_t dmax[MAX_CANDIDATES] = {0};
    for (int c = 0; c < nc; c++) /* 0: not built, or out of memory (unknown) */
        dep[c] = cand[c] ? (long long)totex_prog_dependent_steps(cand[c]->prog) : 0;
    long long both[2 * MAX_CANDIDATES], red[2 * MAX_CANDIDATES];
    for (int c = 0; c < nc; c++) {
        both[c] = dep[c];
        both[nc + c] = dep[c] > 0 ? 0 : 1; /* 1 when some rank has no count */
    }
    int rc = MPI_Allreduce(both, red, 2 * nc, MPI_LONG_LONG, MPI_MAX, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    double tt[MAX_CANDIDATES];
    for (int c = 0; c < nc; c++) {
        dmax[c] = red[nc + c] > 0 ? 0 : (uint64_t)red[c];
        tt[c] = cand[c] ? t[c] : -1;
    }
    *nbpick = totex_prog_nonblocking_pick(nc, tt, dmax, pick, interval, nbt);
    return MPI_SUCCESS;
}

int totex_mpi_plan_make(MPI_Comm comm, int size, int rank, long long slot, const char *send, int verbose,
                        totex_mpi_state *st, totex_mpi_guard *g, totex_mpi_plan **out)
{
    int rc;
    char spec[512];
    if ((rc = totex_mpi_comm_spec(st, comm, size, spec, sizeof spec)) != MPI_SUCCESS)
        return rc;
    totex_error err;
    err.msg[0] = '\0';
    totex_network *net = totex_network_parse(spec, &err);
    if ((rc = totex_mpi_costs(comm, size, rank, st)) != MPI_SUCCESS) {
        totex_network_free(net);
        return rc;
    }
    /* the executor does not limit a rank to one message at a time: build under all-port */
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    cost.m = (double)slot;
    cost.t_s = st->t_s;
    cost.t_c = st->t_c;
    {
        int r = reuse_class_choice(comm, net, &cost, size, rank, slot, verbose, st, out, &rc);
        if (r) {
            totex_network_free(net);
            return r > 0 ? MPI_SUCCESS : rc;
        }
    }
    double msg[MSG_DOUBLES] = {0};
    char why[600] = "", note[640] = "";
    if (rank == 0) {
        const totex_prog_linkcost lc = {st->t_s,   st->t_c,    st->t_l,   st->t_c_chunk, st->t_l_chunk,
                                       st->pad,   st->t_pad,  st->pad_forced, st->split, st->t_split,
                                       st->t_4k,  st->t_8k,   st->t_64k};
        choose_candidates(net, spec, &cost, &lc, &err, msg, why, sizeof why);
        if (msg[0] > 0 && why[0]) { /* candidates left out at this scale: said by the verbose line */
            snprintf(note, sizeof note, "; %s", why);
            why[0] = '\0';
        }
        msg[1] = cost.t_s;
        msg[2] = cost.t_c;
        msg[3] = st->t_l;
        totex_prog_opts o;
        totex_mpi_env_prog_opts(&o);
        msg[OPT_AT] = o.window;
        msg[OPT_AT + 1] = (double)o.arena_blocks;
        msg[OPT_AT + 2] = (double)o.recv_window;
        msg[OPT_AT + 3] = totex_mpi_env_test_interval();
    }
    if ((rc = MPI_Bcast(msg, MSG_DOUBLES, MPI_DOUBLE, 0, comm)) != MPI_SUCCESS) {
        totex_network_free(net);
        return rc;
    }
    cost.t_s = msg[1];
    cost.t_c = msg[2];
    st->prog_opts = (totex_prog_opts){(int)msg[OPT_AT], (long long)msg[OPT_AT + 1], (long long)msg[OPT_AT + 2]};
    st->test_interval = msg[OPT_AT + 3];
    int nc = (int)msg[0];
    totex_prog_cand cd[MAX_CANDIDATES];
    totex_mpi_plan *cand[MAX_CANDIDATES] = {0};
    int bad[MAX_CANDIDATES + 1] = {0}, anybad[MAX_CANDIDATES + 1] = {0};
    bad[MAX_CANDIDATES] = nc == 0 ? MPI_ERR_ARG : 0;
    for (int c = 0; c < nc; c++) {
        const double *m = msg + 4 + CAND_DOUBLES * c;
        cd[c] = (totex_prog_cand){(int)m[0], (int)m[1], (uint32_t)m[2], (int)m[3], m[4], (uint64_t)m[5], c, (int)m[6],
                                 (int)m[7]};
        bad[c] = build_plan(net, &cost, &cd[c], size, rank, slot, &st->prog_opts, &cand[c], why, sizeof why);
        if (bad[c] && rank == 0) { /* why it was dropped, for the verbose line (e.g. over the memory rule) */
            char lab[64];
            totex_prog_cand_name(&cd[c], lab, sizeof lab);
            size_t nl = strlen(note);
            snprintf(note + nl, sizeof note - nl, "; %s dropped: %s", lab, why);
        }
    }
    totex_network_free(net);
    rc = MPI_Allreduce(bad, anybad, MAX_CANDIDATES + 1, MPI_INT, MPI_MAX, comm);
    int left = 0;
    for (int c = 0; c < nc; c++)
        if (rc != MPI_SUCCESS || anybad[c]) {
            if (rc == MPI_SUCCESS && !bad[c] && rank == 0) {
                char lab[64];
                totex_prog_cand_name(&cd[c], lab, sizeof lab);
                size_t nl = strlen(note);
                snprintf(note + nl, sizeof note - nl, "; %s dropped: not built on another rank", lab);
            }
            totex_mpi_plan_free(cand[c]);
            cand[c] = NULL;
        } else {
            left++;
        }
    if (rc != MPI_SUCCESS)
        return rc;
    if (!left) { /* what went wrong is said by the ranks that saw it */
        int code = anybad[MAX_CANDIDATES] ? anybad[MAX_CANDIDATES] : MPI_ERR_ARG;
        for (int c = 0; c < nc; c++)
            if (anybad[c])
                code = anybad[c];
        if (why[0] && (rank == 0 || nc > 0))
            fprintf(stderr, "totex_alltoall: rank %d: %s\n", rank, why);
        return code;
    }
    double t[MAX_CANDIDATES], nbt[MAX_CANDIDATES];
    int pick = -1, nbpick = -1;
    if (left > 1) {
        /* TRIAL_RUNS runs per round; where the model predicts calls so short that a round would last under
           TRIAL_ROUND_SECONDS, more (the same on every rank: from the broadcast predictions). Rounds of 3 calls
           of a few microseconds are decided by the scheduler on an oversubscribed machine: Open MPI, 4 ranks on
           2 cores, 8 B, the trial took ssy in 2 launches of 12 (there 1.39 and 1.40 x MPI_Alltoall, pairwise
           1.11 .. 1.27); with more runs pairwise in 8 of 8 (1.11 .. 1.20). Not under SimGrid SMPI: a
           simulation has no such noise, and its tables were measured with 3 */
        int runs = TRIAL_RUNS;
#ifndef SMPI_H
        double fastest = 0;
        for (int c = 0; c < nc; c++)
            if (cand[c] && cd[c].predicted > 0 && (fastest == 0 || cd[c].predicted < fastest))
                fastest = cd[c].predicted;
        while (fastest > 0 && runs < TRIAL_RUNS_MAX && runs * fastest < TRIAL_ROUND_SECONDS)
            runs++;
#endif
        if ((rc = time_candidates(comm, g, cand, nc, send, runs, t)) != MPI_SUCCESS) {
            for (int c = 0; c < nc; c++)
                totex_mpi_plan_free(cand[c]);
            return rc;
        }
        for (int c = 0; c < nc; c++)
            if (cand[c] && (pick < 0 || t[c] < t[pick]))
                pick = c;
        if ((rc = nonblocking_choice(comm, cand, nc, t, pick, st->test_interval, &nbpick, nbt)) != MPI_SUCCESS) {
            for (int c = 0; c < nc; c++)
                totex_mpi_plan_free(cand[c]);
            return rc;
        }
    } else {
        for (int c = 0; c < nc; c++)
            if (cand[c])
                pick = c;
    }
    if (verbose && (verbose > 1 || !st->verbose_done) && rank == 0) {
        char cw[512], times[900] = "", what[224];
        totex_mpi_cost_words(st, cw, sizeof cw);
        size_t len = 0;
        for (int c = 0; left > 1 && c < nc && len < sizeof times; c++)
            if (cand[c])
                len += (size_t)snprintf(times + len, sizeof times - len, "%s%s %.3g s", len ? ", " : "",
                                        cand[c]->prog->label, t[c]);
        const totex_prog *pp = cand[pick]->prog;
        char portw[32];
        char padw[64] = "";
        if (pp->pad)
            snprintf(padw, sizeof padw, ", messages under %d bytes padded to %d", pp->pad, pp->pad);
        if (pp->unit)
            snprintf(what, sizeof what, "unit-step schedule %s (%s, %llu steps, %d chunk%s per transfer%s%s)",
                     pp->algorithm, totex_ports_format(pp->ports, portw, sizeof portw),
                     (unsigned long long)pp->steps, pp->chunks, pp->chunks > 1 ? "s" : "",
                     pp->stagger ? pp->sync_rounds ? ", lanes staggered after start rounds" : ", lanes staggered" : "", padw);
        else
            snprintf(what, sizeof what, "algorithm %s (message combining, %llu steps%s%s)", pp->algorithm,
                     (unsigned long long)pp->steps,
                     pp->chunks > 1 ? pp->own_whole ? ", its relayed blocks in chunks: " : ", every message in chunks: " : "",
                     pp->chunks > 1 ? pp->label : padw);
        const char *forced = totex_mpi_env_string("TOTEX_ALGORITHM");
        char first[64];
        totex_prog_cand_name(&cd[0], first, sizeof first);
        if (left == 1 && forced && *forced && strcmp(forced, "auto") != 0)
            fprintf(stderr,
                    "totex: %s on %d ranks, network %s, %lld-byte blocks: %s (forced by "
                    "TOTEX_ALGORITHM; %s)\n",
                    st->entry ? st->entry : "totex_alltoall", size, spec, slot, what, cw);
        else
            fprintf(stderr,
                    "totex: %s on %d ranks, network %s, %lld-byte blocks: %s (%s%s; "
                    "model's choice %s, predicted %.3g s; %s%s)\n",
                    st->entry ? st->entry : "totex_alltoall", size, spec, slot, what, left > 1 ? "fastest of the model's candidates timed here: " : "",
                    left > 1 ? times : "the only candidate", first, cd[0].predicted, cw, note);
    }
    st->verbose_done = 1;
    { /* the choice of the size class: its next new sizes only compile it */
        int cls = size_class_of(slot);
        st->size_class[cls].known = 1;
        st->size_class[cls].unit = cd[pick].unit;
        st->size_class[cls].idx = cd[pick].idx;
        st->size_class[cls].chunks = cd[pick].chunks;
        st->size_class[cls].pad = cd[pick].pad;
        st->size_class[cls].stagger = cd[pick].stagger;
        st->size_class[cls].ports = cd[pick].ports;
        st->size_class[cls].steps = cd[pick].steps;
        st->size_class[cls].predicted = cd[pick].predicted;
        st->size_class[cls].t_s = cost.t_s;
        st->size_class[cls].t_c = cost.t_c;
        st->size_class[cls].has_nb = nbpick >= 0 && nbpick != pick;
        if (st->size_class[cls].has_nb) {
            st->size_class[cls].nb = cd[nbpick];
            st->size_class[cls].nb_predicted = nbt[nbpick];
            st->size_class[cls].nb_choice_predicted = nbt[pick];
            st->size_class[cls].nb_interval = st->test_interval;
        }
    }
    for (int c = 0; c < nc; c++)
        if (c != pick)
            totex_mpi_plan_free(cand[c]);
    /* the kept plan's buffers (freed after its trial rounds when large) made now: the first call after the
       choice then costs what the next ones do (a failure here is left to that call, which says it) */
    (void)totex_mpi_run_prepare(cand[pick]);
    cand[pick]->predicted = cd[pick].predicted;
    cand[pick]->measured = left > 1 ? t[pick] : -1;
    cand[pick]->reused = 0;
    cand[pick]->has_cand = 1;
    cand[pick]->cand = cd[pick];
    cand[pick]->cost = cost;
    cand[pick]->has_nb = nbpick >= 0 && nbpick != pick;
    if (cand[pick]->has_nb) {
        cand[pick]->nb = cd[nbpick];
        cand[pick]->nb_predicted = nbt[nbpick];
        cand[pick]->nb_choice_predicted = nbt[pick];
        cand[pick]->nb_interval = st->test_interval;
    }
    *out = cand[pick];
    return MPI_SUCCESS;
}

int totex_mpi_plan_nonblocking(totex_mpi_state *st, MPI_Comm comm, int size, int rank, totex_mpi_plan *pl, int verbose,
                               totex_mpi_plan **out)
{
    *out = pl;
    if (!pl->has_cand || (!pl->has_nb && (!pl->cand.unit || !pl->cand.stagger)))
        return MPI_SUCCESS;
    if (pl->nonblocking) {
        *out = pl->nonblocking;
        return MPI_SUCCESS;
    }
    char spec[512], why[600] = "";
    int rc = totex_mpi_comm_spec(st, comm, size, spec, sizeof spec);
    if (rc != MPI_SUCCESS)
        return rc;
    totex_error err;
    err.msg[0] = '\0';
    totex_network *net = totex_network_parse(spec, &err);
    totex_prog_cand c = pl->has_nb ? pl->nb : pl->cand;
    if (c.unit) /* (a combining candidate's stagger is its form: relayed blocks in chunks) */
        c.stagger = 0;
    totex_mpi_plan *w = NULL;
    rc = net ? build_plan(net, &pl->cost, &c, size, rank, pl->slot, &st->prog_opts, &w, why, sizeof why)
             : MPI_ERR_OTHER;
    totex_network_free(net);
    if (rc == MPI_SUCCESS)
        rc = totex_mpi_run_prepare(w);
    char lab[64];
    totex_prog_cand_name(&c, lab, sizeof lab);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "totex_ialltoall: the program %s%s for %lld-byte blocks could not be built: %s\n", lab,
                c.unit ? " with unstaggered lanes" : "", pl->slot, why[0] ? why : net ? "out of memory" : err.msg);
        totex_mpi_plan_free(w);
        return rc;
    }
    w->sig = pl->sig;
    w->id = pl->id;
    w->predicted = pl->predicted;
    w->measured = -1;
    w->has_cand = 1;
    w->cand = c;
    w->cost = pl->cost;
    pl->nonblocking = w;
    *out = w;
    if (verbose > 1 && rank == 0) {
        if (pl->has_nb)
            fprintf(stderr,
                    "totex: totex_ialltoall on %d ranks, %lld-byte blocks: nonblocking calls run %s%s, not the "
                    "choice %s (with a test every %.3g us, TOTEX_TEST_INTERVAL: predicted %.3g s against %.3g s; "
                    "each dependent step costs about half a test interval more)\n",
                    size, pl->slot, w->prog->label, pl->nb.unit && pl->nb.stagger ? " with its lanes unstaggered" : "",
                    pl->prog->label, pl->nb_interval * 1e6, pl->nb_predicted, pl->nb_choice_predicted);
        else
            fprintf(stderr, "totex: totex_ialltoall on %d ranks, %lld-byte blocks: nonblocking calls run %s "
                            "(the choice %s with its lanes unstaggered: a lane's start waits for no other)\n",
                    size, pl->slot, w->prog->label, pl->prog->label);
    }
    return MPI_SUCCESS;
}
