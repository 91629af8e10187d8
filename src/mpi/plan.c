/* Plans of totex_alltoall: rank 0 chooses the combining algorithm by
 * predicted time (or TOTEX_ALGORITHM), every rank builds its schedule and
 * compiles its own part into a program for exec.c: its receives and sends in
 * step order, where each block it sends lies (its send blocks or the arena of
 * received blocks), which receives each send waits for, and where each block
 * destined to it ends up. The schedule itself is not kept. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockmap.h"
#include "internal.h"

void totex_mpi_plan_free(totex_mpi_plan *p)
{
    if (!p)
        return;
    free(p->recvs);
    free(p->sends);
    free(p->pieces);
    free(p->deps);
    free(p->finals);
    free(p->arena);
    free(p->stage);
    free(p->req);
    free(p);
}

/* a block this rank holds: base TOTEX_MPI_SEND or TOTEX_MPI_ARENA, offset, receive that brought it */
typedef struct held {
    uint32_t base;
    size_t off, recv;
} held;

/* compile this rank's part of @p s; why[] says what went wrong (MPI error code returned) */
static int compile(totex_mpi_plan *p, const totex_comb_schedule *s, char *why, size_t cap)
{
    const uint32_t me = p->me, n = p->n;
    const size_t slot = (size_t)p->slot;
    size_t nr = 0, ns = 0, nblocks = 0, nheld = 0; /* nheld: blocks received (entries of hv below) */
    /* The check's header may ride on the first message on the links rank - 1 -> me
       and me -> rank + 1 only if that message is short and its sender makes it
       before waiting for anything (all its sends up to it carry its own blocks),
       so that a header always leaves even when a mismatch stalls the exchange.
       Both ends decide from the same schedule. carry[0]: link from rank - 1 (a
       decision of rank - 1's sends), carry[1]: link to rank + 1 (of this rank's). */
    const uint32_t ends[2][2] = {{(me + n - 1) % n, me}, {me, (me + 1) % n}};
    int carry[2] = {0, 0}, decided[2] = {0, 0}, own_so_far[2] = {1, 1};
    for (uint64_t st = 0; st < p->steps; st++) {
        size_t nt = totex_comb_step_transfers(s, st);
        for (size_t t = 0; t < nt; t++) {
            totex_transfer tr;
            totex_comb_get_transfer(s, st, t, &tr);
            if (!tr.count)
                continue;
            if ((long long)tr.count * p->slot > INT_MAX) {
                snprintf(why, cap, "a message of %zu blocks of %lld bytes exceeds INT_MAX bytes", tr.count, p->slot);
                return MPI_ERR_COUNT;
            }
            if (tr.to == me) {
                nr++;
                nheld += tr.count;
            }
            if (tr.from == me) {
                ns++;
                nblocks += tr.count;
            }
            for (int l = 0; l < 2; l++) {
                if (decided[l] || tr.from != ends[l][0])
                    continue;
                for (size_t k = 0; k < tr.count; k++)
                    own_so_far[l] &= tr.blocks[k].src == tr.from;
                if (tr.to == ends[l][1]) {
                    decided[l] = 1;
                    carry[l] = own_so_far[l] && (long long)tr.count * p->slot <= TOTEX_MPI_CARRY_MAX;
                }
            }
        }
    }
    p->nrecv = nr;
    p->nsend = ns;
    p->recvs = calloc(nr ? nr : 1, sizeof *p->recvs);
    p->sends = calloc(ns ? ns : 1, sizeof *p->sends);
    p->pieces = calloc(nblocks ? nblocks : 1, sizeof *p->pieces);
    p->deps = calloc(nblocks ? nblocks : 1, sizeof *p->deps);
    p->finals = calloc(n, sizeof *p->finals);
    p->req = calloc(nr + ns ? nr + ns : 1, sizeof *p->req);
    held *hv = malloc(sizeof *hv * (nheld ? nheld : 1));
    uint8_t *got = calloc(n, 1);
    if (!p->recvs || !p->sends || !p->pieces || !p->deps || !p->finals || !p->req || !hv || !got) {
        free(hv);
        free(got);
        snprintf(why, cap, "out of memory compiling the schedule");
        return MPI_ERR_NO_MEM;
    }
    totex_mpi_blockmap where = {0};
    size_t ir = 0, is = 0, npieces = 0, ndeps = 0, ih = 0;
    /* room for the header in front of the carried send (carry[] above) */
    const int pred = (int)((me + n - 1) % n), succ = (int)((me + 1) % n);
    p->carry_recv = p->carry_send = SIZE_MAX;
    int rc = MPI_SUCCESS;
    for (uint64_t st = 0; st < p->steps && rc == MPI_SUCCESS; st++) {
        size_t nt = totex_comb_step_transfers(s, st);
        /* sends first: a block received in this step travels on from the next one */
        for (size_t t = 0; t < nt && rc == MPI_SUCCESS; t++) {
            totex_transfer tr;
            totex_comb_get_transfer(s, st, t, &tr);
            if (!tr.count || tr.from != me)
                continue;
            totex_mpi_send *sd = &p->sends[is++];
            sd->peer = (int)tr.to;
            sd->bytes = (int)(tr.count * slot);
            sd->piece_first = npieces;
            sd->dep_first = ndeps;
            for (size_t k = 0; k < tr.count; k++) {
                const totex_block *bl = &tr.blocks[k];
                held h = {TOTEX_MPI_SEND, (size_t)bl->dst * slot, SIZE_MAX};
                size_t idx;
                if (bl->src != me) {
                    if (!totex_mpi_blockmap_get(&where, (uint64_t)bl->src * n + bl->dst, &idx)) {
                        snprintf(why, cap, "step %llu: rank %u does not hold block (%u, %u) (a bug of %s)",
                                 (unsigned long long)st + 1, me, bl->src, bl->dst, p->algorithm);
                        rc = MPI_ERR_INTERN;
                        break;
                    }
                    h = hv[idx];
                }
                totex_mpi_piece *last = npieces > sd->piece_first ? &p->pieces[npieces - 1] : NULL;
                if (last && last->base == h.base && last->off + last->len == h.off)
                    last->len += slot;
                else
                    p->pieces[npieces++] = (totex_mpi_piece){h.base, h.off, slot};
                if (h.recv != SIZE_MAX && (ndeps == sd->dep_first || p->deps[ndeps - 1] != h.recv))
                    p->deps[ndeps++] = h.recv;
            }
            sd->piece_count = npieces - sd->piece_first;
            sd->dep_count = ndeps - sd->dep_first;
            int carried = carry[1] && sd->peer == succ && p->carry_send == SIZE_MAX;
            if (carried) { /* staged after the header, whatever its pieces */
                p->carry_send = is - 1;
                p->stage_bytes += TOTEX_MPI_HDR_BYTES;
            }
            if (sd->piece_count > 1 || carried) {
                sd->stage_off = p->stage_bytes;
                p->stage_bytes += (size_t)sd->bytes;
            }
        }
        for (size_t t = 0; t < nt && rc == MPI_SUCCESS; t++) {
            totex_transfer tr;
            totex_comb_get_transfer(s, st, t, &tr);
            if (!tr.count || tr.to != me)
                continue;
            size_t r = ir++;
            totex_mpi_recv *rv = &p->recvs[r];
            rv->peer = (int)tr.from;
            rv->bytes = (int)(tr.count * slot);
            if (carry[0] && rv->peer == pred && p->carry_recv == SIZE_MAX)
                p->carry_recv = r; /* arrives behind the header, copied to the arena */
            rv->arena_off = p->arena_bytes;
            p->arena_bytes += (size_t)rv->bytes;
            rv->in_place_ok = 1;
            rv->place_off = (size_t)tr.blocks[0].src * slot;
            for (size_t k = 0; k < tr.count; k++) {
                const totex_block *bl = &tr.blocks[k];
                size_t off = rv->arena_off + k * slot;
                if (bl->dst != me || bl->src != tr.blocks[0].src + k)
                    rv->in_place_ok = 0;
                if (bl->dst == me) {
                    if (bl->src >= n || bl->src == me || got[bl->src]) {
                        snprintf(why, cap, "step %llu: block (%u, %u) arrives twice or is invalid (a bug of %s)",
                                 (unsigned long long)st + 1, bl->src, me, p->algorithm);
                        rc = MPI_ERR_INTERN;
                        break;
                    }
                    got[bl->src] = 1;
                    p->finals[bl->src] = (totex_mpi_final){r, off};
                } else {
                    hv[ih] = (held){TOTEX_MPI_ARENA, off, r};
                    if (totex_mpi_blockmap_put(&where, (uint64_t)bl->src * n + bl->dst, ih++)) {
                        snprintf(why, cap, "out of memory compiling the schedule");
                        rc = MPI_ERR_NO_MEM;
                        break;
                    }
                }
            }
        }
    }
    for (uint32_t i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (i != me && !got[i]) {
            snprintf(why, cap, "rank %u never receives block (%u, %u) (a bug of %s)", me, i, me, p->algorithm);
            rc = MPI_ERR_INTERN;
        }
    totex_mpi_blockmap_clear(&where);
    free(hv);
    free(got);
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_SUCCESS; /* the arena and the staging area are allocated by the first run */
}

#define MAX_CANDIDATES 8
#define TRIAL_RUNS 3

/* TOTEX_TUNE=0: no trials, the model's first choice runs */
static int tuning_on(void)
{
    const char *t = getenv("TOTEX_TUNE");
    return !(t && strcmp(t, "0") == 0);
}

/* rank 0: the candidates, in the model's order, into msg = {count, t_s, t_c, idx..., predicted...} */
static void choose_candidates(const totex_network *net, const char *spec, const totex_comb_cost *cost,
                              const totex_error *perr, double *msg, char *why, size_t cap)
{
    totex_error err = *perr;
    const char *forced = getenv("TOTEX_ALGORITHM");
    size_t k = 0;
    if (!net) {
        snprintf(why, cap, "network '%.200s': %.300s", spec, err.msg);
    } else if (forced && *forced && strcmp(forced, "auto") != 0) {
        const totex_comb_algorithm *a = totex_comb_algorithm_find(forced, &err);
        if (!a)
            snprintf(why, cap, "TOTEX_ALGORITHM: %s", err.msg);
        for (size_t i = 0; a && i < totex_comb_algorithm_count(); i++)
            if (totex_comb_algorithm_get(i) == a)
                msg[3 + k++] = (double)i;
    } else {
        size_t count = totex_comb_algorithm_count();
        totex_comb_choice *rows = calloc(count, sizeof *rows);
        if (!rows) {
            snprintf(why, cap, "out of memory ranking the algorithms");
        } else {
            totex_comb_rank(net, cost, rows, count);
            size_t limit = tuning_on() ? MAX_CANDIDATES : 1;
            for (size_t r = 0; r < count && k < limit && rows[r].status == TOTEX_OK; r++)
                for (size_t i = 0; i < count; i++)
                    if (totex_comb_algorithm_get(i) == rows[r].algorithm) {
                        msg[3 + MAX_CANDIDATES + k] = rows[r].report.predicted_time;
                        msg[3 + k++] = (double)i;
                    }
            if (!k)
                snprintf(why, cap, "no combining algorithm applies to %.200s: %.300s", spec, rows[0].reason);
            free(rows);
        }
    }
    msg[0] = (double)k;
}

/* time each candidate on the communicator: one untimed run (buffers, connections),
   a barrier, then TRIAL_RUNS back-to-back runs (the barrier's skew shared out);
   the slowest rank's time per run. Results stay in the plans' arenas: the
   caller's buffers are not touched. */
static int time_candidates(MPI_Comm comm, totex_mpi_guard *g, totex_mpi_plan **cand, int nc, const char *send,
                           double *worst)
{
    double t[MAX_CANDIDATES];
    for (int c = 0; c < nc; c++) {
        t[c] = -1;
        if (!cand[c])
            continue;
        int rc = totex_mpi_exec(cand[c], comm, TOTEX_MPI_TRIAL_TAG, g, 0, send, NULL, 0);
        if (rc == MPI_SUCCESS)
            rc = MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        for (int r = 0; r < TRIAL_RUNS && rc == MPI_SUCCESS; r++)
            rc = totex_mpi_exec(cand[c], comm, TOTEX_MPI_TRIAL_TAG, g, 0, send, NULL, 0);
        if (rc != MPI_SUCCESS)
            return rc;
        t[c] = (MPI_Wtime() - t0) / TRIAL_RUNS;
        totex_mpi_plan_release(cand[c]); /* one candidate's buffers at a time */
    }
    return MPI_Allreduce(t, worst, nc, MPI_DOUBLE, MPI_MAX, comm);
}

int totex_mpi_plan_make(MPI_Comm comm, int size, int rank, long long slot, const char *send, int verbose,
                        totex_mpi_state *st, totex_mpi_guard *g, totex_mpi_plan **out)
{
    int rc;
    char spec[512];
    if ((rc = totex_mpi_comm_spec(comm, size, spec, sizeof spec)) != MPI_SUCCESS)
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
    double msg[3 + 2 * MAX_CANDIDATES] = {0};
    char why[600] = "";
    if (rank == 0) {
        choose_candidates(net, spec, &cost, &err, msg, why, sizeof why);
        msg[1] = cost.t_s;
        msg[2] = cost.t_c;
    }
    if ((rc = MPI_Bcast(msg, 3 + 2 * MAX_CANDIDATES, MPI_DOUBLE, 0, comm)) != MPI_SUCCESS) {
        totex_network_free(net);
        return rc;
    }
    cost.t_s = msg[1];
    cost.t_c = msg[2];
    int nc = (int)msg[0];
    totex_mpi_plan *cand[MAX_CANDIDATES] = {0};
    int bad[MAX_CANDIDATES + 1] = {0}, anybad[MAX_CANDIDATES + 1] = {0};
    bad[MAX_CANDIDATES] = nc == 0 ? MPI_ERR_ARG : 0;
    for (int c = 0; c < nc; c++) {
        const totex_comb_algorithm *a = totex_comb_algorithm_get((size_t)msg[3 + c]);
        totex_comb_schedule *sched = NULL;
        totex_mpi_plan *p = calloc(1, sizeof *p);
        if (!p) {
            bad[c] = MPI_ERR_NO_MEM;
            snprintf(why, sizeof why, "out of memory");
            continue;
        }
        p->slot = slot;
        p->n = (uint32_t)size;
        p->me = (uint32_t)rank;
        p->algorithm = a->name;
        if (!net || a->build(net, &cost, &sched, &err) != TOTEX_OK) {
            snprintf(why, sizeof why, "algorithm %s on %s: %s", a->name, spec, err.msg);
            bad[c] = MPI_ERR_ARG;
        } else {
            p->steps = totex_comb_steps(sched);
            bad[c] = compile(p, sched, why, sizeof why);
        }
        totex_comb_schedule_free(sched);
        cand[c] = p;
    }
    totex_network_free(net);
    rc = MPI_Allreduce(bad, anybad, MAX_CANDIDATES + 1, MPI_INT, MPI_MAX, comm);
    int left = 0;
    for (int c = 0; c < nc; c++)
        if (rc != MPI_SUCCESS || anybad[c]) {
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
    double t[MAX_CANDIDATES];
    int pick = -1;
    if (left > 1) {
        if ((rc = time_candidates(comm, g, cand, nc, send, t)) != MPI_SUCCESS) {
            for (int c = 0; c < nc; c++)
                totex_mpi_plan_free(cand[c]);
            return rc;
        }
        for (int c = 0; c < nc; c++)
            if (cand[c] && (pick < 0 || t[c] < t[pick]))
                pick = c;
    } else {
        for (int c = 0; c < nc; c++)
            if (cand[c])
                pick = c;
    }
    if (verbose && (verbose > 1 || !st->verbose_done) && rank == 0) {
        char cw[160], times[400] = "";
        totex_mpi_cost_words(st, cw, sizeof cw);
        size_t len = 0;
        for (int c = 0; left > 1 && c < nc && len < sizeof times; c++)
            if (cand[c])
                len += (size_t)snprintf(times + len, sizeof times - len, "%s%s %.3g s", len ? ", " : "",
                                        cand[c]->algorithm, t[c]);
        const char *forced = getenv("TOTEX_ALGORITHM");
        if (left == 1 && forced && *forced && strcmp(forced, "auto") != 0)
            fprintf(stderr,
                    "totex: MPI_Alltoall on %d ranks, network %s, %lld-byte blocks: algorithm %s (forced by "
                    "TOTEX_ALGORITHM; %s)\n",
                    size, spec, slot, cand[pick]->algorithm, cw);
        else
            fprintf(stderr,
                    "totex: MPI_Alltoall on %d ranks, network %s, %lld-byte blocks: algorithm %s (%s%s; "
                    "model's choice %s, predicted %.3g s; %s)\n",
                    size, spec, slot, cand[pick]->algorithm,
                    left > 1 ? "fastest of the model's candidates timed here: " : "",
                    left > 1 ? times : "the only candidate", totex_comb_algorithm_get((size_t)msg[3])->name,
                    msg[3 + MAX_CANDIDATES], cw);
    }
    st->verbose_done = 1;
    for (int c = 0; c < nc; c++)
        if (c != pick)
            totex_mpi_plan_free(cand[c]);
    *out = cand[pick];
    return MPI_SUCCESS;
}
