/* totex_alltoall: MPI_Alltoall executed with a totex message-combining schedule
 * (include/totex/mpi.h: the semantics, the network and rank mapping and the
 * errors; docs/mpi.md: the choice of algorithm, the plan cache, the run). This file checks
 * the arguments, lays the blocks out as bytes (in place when the datatype is
 * contiguous, else MPI_Pack / MPI_Unpack) and hands them to the executor. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/mpi.h"

static int fail(int code, int rank, const char *msg)
{
    fprintf(stderr, "totex_alltoall: rank %d: %s\n", rank, msg);
    return code;
}

/* 1 if @p count elements of @p t are @p count * size(t) contiguous bytes at the buffer's start */
static int raw_layout(MPI_Datatype t, int tsize)
{
    MPI_Aint lb, ext, tlb, text;
    if (MPI_Type_get_extent(t, &lb, &ext) != MPI_SUCCESS || MPI_Type_get_true_extent(t, &tlb, &text) != MPI_SUCCESS)
        return 0;
    return lb == 0 && tlb == 0 && ext == tsize && text == tsize;
}

/* size, MPI_Pack_size of @p count elements and raw layout of @p t into *out (out->known: t is a
   predefined datatype, whose facts may be kept for the next call); taken from @p kept without an
   MPI call when it holds them for (t, count). MPI code of MPI_Pack_size. */
static int type_facts(const totex_mpi_typefacts *kept, MPI_Datatype t, int count, MPI_Comm comm,
                      totex_mpi_typefacts *out)
{
    if (kept && kept->known && kept->type == t && kept->count == count) {
        *out = *kept;
        return MPI_SUCCESS;
    }
    *out = (totex_mpi_typefacts){.type = t, .count = count};
    MPI_Type_size(t, &out->size);
    int rc = MPI_Pack_size(count, t, comm, &out->pack);
    if (rc != MPI_SUCCESS)
        return rc;
    out->raw = raw_layout(t, out->size);
    int ni = 0, na = 0, nd = 0, combiner = 0;
    out->known = MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner == MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
}

/* TOTEX_CHECK=0 turns the cross-rank agreement off (read once per process, at the first call) */
static int cross_check_on(void)
{
    static int on = -1;
    if (on < 0) {
        on = totex_mpi_env_switch("TOTEX_CHECK", 1);
    }
    return on;
}

/* the function the program called, for the TOTEX_VERBOSE line */
static const char *entry_name(const totex_mpi_options *opt)
{
    return opt->entry ? opt->entry : "totex_alltoall";
}

int totex_mpi_verbose_level(void)
{
    static int level = -1; /* read once per process */
    if (level < 0) {
        long long v = 0;
        totex_mpi_env_int("TOTEX_VERBOSE", 0, 2, &v);
        level = (int)v;
    }
    return level;
}

int totex_mpi_pack_blocks(const char *buf, int count, MPI_Datatype t, int n, long long slot, char *out,
                          const int *node_of, MPI_Comm comm)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    for (int j = 0; j < n; j++) {
        int pos = 0;
        const size_t to = (size_t)(node_of ? node_of[j] : j);
        int rc = MPI_Pack(buf + (MPI_Aint)j * count * ext, count, t, out + to * (size_t)slot, (int)slot, &pos, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int totex_mpi_unpack_block(const char *from, long long slot, char *recvbuf, int i, int count, MPI_Datatype t,
                        MPI_Comm comm)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    int pos = 0;
    return MPI_Unpack(from, (int)slot, &pos, recvbuf + (MPI_Aint)i * count * ext, count, t, comm);
}

/* one call's arguments and what follows from them, worked out once */
typedef struct call {
    const void *sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void *recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
    int size, rank;
    long long slot, sig; /* packed and signature bytes per block */
    int send_raw, recv_raw; /* the blocks are the buffer's bytes, block j at j * slot */
} call;

/* the exchange of an agreed call (every rank's slot and sig equal, or the
   check is off): pack, plan on first use of (slot, sig), run, unpack. A
   rank-local failure before the data moves poisons the call through g. */
static int exchange(const call *c, const totex_mpi_options *opt, totex_mpi_state *st, totex_mpi_guard *g, int carry,
                    totex_mpi_plan **pp)
{
    int rc;
    const int size = c->size, rank = c->rank;
    const long long slot = c->slot;
    char *rbuf = c->recvbuf;
    if (opt->unit) {
        char *mine = malloc((size_t)size * (size_t)slot), *all = NULL;
        if (!mine)
            return MPI_ERR_NO_MEM;
        rc = totex_mpi_pack_blocks(c->sendbuf, c->sendcount, c->sendtype, size, slot, mine, st->node_of, c->comm);
        if (rc == MPI_SUCCESS)
            rc = totex_mpi_run_unit(st->dup, size, rank, mine, slot, opt, st, &all);
        for (int i = 0; i < size && rc == MPI_SUCCESS; i++)
            rc = totex_mpi_unpack_block(all + (size_t)i * (size_t)slot, slot, rbuf, st->rank_of ? st->rank_of[i] : i,
                                        c->recvcount, c->recvtype, c->comm);
        free(all);
        free(mine);
        return rc;
    }
    const char *send = c->sendbuf;
    if (!c->send_raw) {
        size_t need = (size_t)size * (size_t)slot;
        if (st->packed_bytes < need) {
            free(st->packed);
            st->packed_bytes = 0;
            if (!(st->packed = malloc(need)))
                return g ? totex_mpi_guard_fail(g, MPI_ERR_NO_MEM) : MPI_ERR_NO_MEM;
            st->packed_bytes = need;
        }
        if ((rc = totex_mpi_pack_blocks(c->sendbuf, c->sendcount, c->sendtype, size, slot, st->packed, st->node_of,
                                        c->comm)) != MPI_SUCCESS)
            return g ? totex_mpi_guard_fail(g, rc) : rc;
        send = st->packed;
    }
    totex_mpi_plan *p = *pp;
    if (!p) { /* planned with collective operations: every rank is here with the same slot and sig */
        if (st->nplans == TOTEX_MPI_MAX_PLANS) { /* every rank drops its plans at the same call */
            st->memo.plan = NULL;
            while (st->plans) {
                totex_mpi_plan *q = st->plans;
                st->plans = q->next;
                totex_mpi_plan_free(q);
            }
            st->nplans = 0;
        }
        if ((rc = totex_mpi_plan_make(st->dup, size, rank, slot, send, opt->verbose, st, g, &p)) != MPI_SUCCESS)
            return rc;
        p->sig = c->sig;
        p->id = st->nplans++;
        p->next = st->plans;
        st->plans = p;
        *pp = p;
    }
    if (opt->prepare) { /* the nonblocking or persistent form: the plan is known, no data moves here */
        opt->prepare->plan = p;
        return MPI_SUCCESS;
    }
    if ((rc = totex_mpi_exec(p, st->dup, TOTEX_MPI_PLAN_TAG + p->id, g, carry, send, c->recv_raw ? rbuf : NULL,
                             c->recv_raw)) != MPI_SUCCESS)
        return rc;
    /* the data has moved on every rank: from here a failure is this rank's own (no poison); raw
       blocks are all in place (the executor copied this rank's own while its messages travelled) */
    const char *own = send + (size_t)rank * (size_t)slot;
    if (!c->recv_raw) {
        for (int i = 0; i < size && rc == MPI_SUCCESS; i++)
            rc = totex_mpi_unpack_block(i == rank ? own : totex_prog_final_block(p->prog, (uint32_t)i), slot, rbuf,
                                        st->rank_of ? st->rank_of[i] : i, c->recvcount,
                              c->recvtype, c->comm);
    }
    return rc;
}

/* the end of a checked call that returns @p rc: the header exchange ends with the call (most often
   ended already, by the executor's waits); a failed call drops the duplicate on every rank */
static int end_checked(totex_mpi_state *st, totex_mpi_guard *g, int rc)
{
    if (g->code == MPI_SUCCESS && (*g->in != MPI_REQUEST_NULL || *g->out != MPI_REQUEST_NULL)) {
        int hrc = totex_mpi_guard_waitall(g, NULL, 0);
        if (rc == MPI_SUCCESS)
            rc = hrc;
    }
    if (g->code != MPI_SUCCESS) {
        totex_mpi_guard_drop(g);
        totex_mpi_state_fail(st);
    }
    return rc;
}

/* a checked call (size > 1, st->dup made with the check on) of @p c running cached plan @p p (NULL: none)
   or failing with local error @p bad (message @p msg): the cross-rank check (agree.c) around the
   exchange; a failed call drops the duplicate on every rank */
static int checked_call(const call *c, const totex_mpi_options *opt, totex_mpi_state *st, totex_mpi_plan *p, int bad,
                        const char *msg)
{
    /* a header to the ring successor alongside the exchange, every wait watching it and the poison; calls that
       plan (with collective operations) or move no data first agree over all ranks */
    totex_mpi_guard guard, *g = &guard;
    /* a cached plan carries the headers on its first messages between neighbours when short */
    const int carry = p && !opt->unit && !bad && !opt->prepare; /* (a call that only plans sends no data) */
    /* a unit-step call (TOTEX_MODEL=unit) says so in its header's packed bytes (negative): a rank that runs
       the other model on the same arguments then differs from it, and every rank stops (agree.c) */
    const long long hslot = opt->unit ? -c->slot - 1 : c->slot + opt->form * TOTEX_MPI_FORM_UNIT;
    int rc = totex_mpi_guard_start(g, st, c->size, c->rank, c->sig, hslot, bad, carry && p->prog->carry_send != SIZE_MAX);
    if (rc == MPI_SUCCESS && bad)
        rc = totex_mpi_guard_fail(g, msg ? fail(bad, c->rank, msg) : bad); /* (no message: v_switch) */
    if (rc == MPI_SUCCESS && (c->sig == 0 || !p || opt->unit || opt->prepare))
        rc = totex_mpi_guard_agree(g);
    if (rc == MPI_SUCCESS && c->sig > 0)
        rc = exchange(c, opt, st, g, carry, &p);
    return end_checked(st, g, rc);
}

/* the arguments are those of st->memo (the last call that ran a cached plan on this communicator),
   buffers given: what followed from them holds again */
static int same_as_memo(const totex_mpi_state *st, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        const void *recvbuf, int recvcount, MPI_Datatype recvtype)
{
    const int in_place = sendbuf == MPI_IN_PLACE;
    return st->memo.plan && recvbuf && recvtype == st->memo.recvtype && recvcount == st->memo.recvcount &&
           in_place == st->memo.in_place &&
           (in_place || (sendbuf && sendtype == st->memo.sendtype && sendcount == st->memo.sendcount));
}

/* the state of @p comm when this call has the arguments of its memo with raw layouts, not in place (the
   plan runs on the caller's buffers: no datatype work, no call record; else NULL) */
static inline totex_mpi_state *raw_memo(const void *sendbuf, int sendcount, MPI_Datatype sendtype, const void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    totex_mpi_state *st = totex_mpi_state_last(comm);
    return st && st->memo.plan && st->memo.send_raw && st->memo.recv_raw && !st->memo.in_place &&
                   st->dup != MPI_COMM_NULL && sendbuf != MPI_IN_PLACE && sendbuf && recvbuf &&
                   sendtype == st->memo.sendtype && recvtype == st->memo.recvtype &&
                   sendcount == st->memo.sendcount && recvcount == st->memo.recvcount
               ? st
               : NULL;
}

/* that call: checked_call() and exchange() without their choices (a fifth of a 2-rank call of 8 B: perf,
   Open MPI); one message each way (2 ranks, short blocks) takes the short path, whose guard is made only
   when the call does not go as expected (totex_mpi_exec_pair_raw(): 3% of a 2-rank call of 8 to 128 B,
   Open MPI, median of 9 alternating launches) */
static inline __attribute__((always_inline)) int raw_call(totex_mpi_state *st, const void *sendbuf, void *recvbuf)
{
    totex_mpi_plan *p = st->memo.plan;
    const int tag = TOTEX_MPI_PLAN_TAG + p->id;
    if (!st->check)
        return totex_mpi_exec(p, st->dup, tag, NULL, 0, sendbuf, recvbuf, 1);
    totex_mpi_guard g;
    int rc;
    if (p->prog->pair && p->prog->arena && !st->npoisons && !totex_mpi_env_nonblocking()) {
        g.st = NULL; /* the guard is made only if the call goes another way than expected */
        rc = totex_mpi_exec_pair_raw(p, st, &g, sendbuf, recvbuf);
        return g.st ? end_checked(st, &g, rc) : rc;
    }
    if ((rc = totex_mpi_guard_start(&g, st, st->size, st->rank, p->sig, p->slot, 0, p->prog->carry_send != SIZE_MAX)) ==
        MPI_SUCCESS)
        rc = totex_mpi_exec(p, st->dup, tag, &g, 1, sendbuf, recvbuf, 1);
    return end_checked(st, &g, rc);
}

int totex_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, const totex_mpi_options *opt)
{
    totex_mpi_state *st;
    totex_mpi_runs_drain(); /* this rank's nonblocking runs end first (run.c: no rank waits on a run it holds) */
    if (!opt->unit && !opt->prepare && (st = raw_memo(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)))
        return raw_call(st, sendbuf, recvbuf);
    int rc, size = 0, rank = 0, inter = 0;
    if (comm == MPI_COMM_NULL)
        return fail(MPI_ERR_COMM, -1, "MPI_COMM_NULL communicator");
    /* the communicator of the last call: its state, size and rank without asking MPI again */
    st = totex_mpi_state_last(comm);
    /* the steady state, the same arguments as the last call that ran a cached plan: their checks,
       the datatypes' facts (predefined: a handle never names another type) and the plan are as
       then; the cross-rank check runs as on every call (half the instructions of a 2-rank call of
       8 B outside the MPI library went to working these out again: callgrind) */
    if (st && !opt->unit && !opt->prepare && st->dup != MPI_COMM_NULL &&
        same_as_memo(st, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)) {
        totex_mpi_plan *p = st->memo.plan;
        const int in_place = sendbuf == MPI_IN_PLACE;
        const call c = {in_place ? recvbuf : sendbuf, in_place ? recvcount : sendcount, in_place ? recvtype : sendtype,
                        recvbuf, recvcount, recvtype, comm, st->size,
                        st->node_of ? st->node_of[st->rank] : st->rank, p->slot, p->sig,
                        st->memo.send_raw, st->memo.recv_raw};
        return st->check ? checked_call(&c, opt, st, p, 0, NULL) : exchange(&c, opt, st, NULL, 0, &p);
    }
    if (st) {
        size = st->size;
        rank = st->rank;
    } else if ((rc = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS) {
        return rc;
    }
    if (inter) {
        if (opt->fallback) {
            MPI_Comm_rank(comm, &rank);
            if (opt->verbose && totex_mpi_state_get(comm, &st) == MPI_SUCCESS && !st->verbose_done) {
                st->verbose_done = 1;
                if (rank == 0)
                    fprintf(stderr, "totex: %s on an intercommunicator: falling back to the MPI library's "
                                    "MPI_Alltoall (totex handles intracommunicators only)\n", entry_name(opt));
            }
            return TOTEX_MPI_FALLBACK;
        }
        return fail(MPI_ERR_COMM, -1, "intercommunicators are not supported (use an intracommunicator)");
    }
    if (!st) {
        MPI_Comm_size(comm, &size);
        MPI_Comm_rank(comm, &rank);
    }

    int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place) {
        sendbuf = recvbuf;
        sendcount = recvcount;
        sendtype = recvtype;
    }
    /* local checks; the verdict is agreed on by every rank below */
    int bad = 0;
    const char *msg = NULL;
    int ssize = 0, rsize = 0, pack = 0;
    totex_mpi_typefacts sf = {0}, rf = {0};
    if (sendtype == MPI_DATATYPE_NULL || recvtype == MPI_DATATYPE_NULL) {
        bad = MPI_ERR_TYPE;
        msg = "MPI_DATATYPE_NULL datatype";
    } else if (sendcount < 0 || recvcount < 0) {
        bad = MPI_ERR_COUNT;
        msg = "negative count";
    } else {
        int src = type_facts(st ? &st->facts[0] : NULL, sendtype, sendcount, comm, &sf);
        if (type_facts(st ? &st->facts[1] : NULL, recvtype, recvcount, comm, &rf) != MPI_SUCCESS)
            rf.known = 0; /* only its size and layout count */
        ssize = sf.size;
        rsize = rf.size;
        pack = sf.pack;
        if ((long long)sendcount * ssize != (long long)recvcount * rsize) {
            bad = MPI_ERR_COUNT;
            msg = "sendcount * size(sendtype) differs from recvcount * size(recvtype)";
        } else if ((long long)sendcount * ssize > INT_MAX) {
            bad = MPI_ERR_COUNT;
            msg = "a block of more than INT_MAX bytes (MPI counts a message's bytes in an int): send it in parts";
        } else if (src != MPI_SUCCESS) {
            bad = MPI_ERR_TYPE;
            msg = "MPI_Pack_size failed on the send datatype";
        } else if (sendcount && ssize && (!sendbuf || !recvbuf)) {
            bad = MPI_ERR_BUFFER;
            msg = "NULL buffer with a non-zero count";
        } else if (sendcount && ssize && !in_place && sendbuf == recvbuf) {
            bad = MPI_ERR_BUFFER;
            msg = "sendbuf and recvbuf are the same buffer (for an exchange in place pass MPI_IN_PLACE as sendbuf)";
        } else if (pack < 0) {
            bad = MPI_ERR_COUNT;
            msg = "a block of more than INT_MAX bytes (MPI counts a message's bytes in an int): send it in parts";
        }
    }
    if (opt->v_switch) { /* (alltoallv.c: this rank's counts are not the uniform ones; every rank fails, silently) */
        bad = TOTEX_MPI_V_SWITCH;
        msg = NULL;
    }
    long long sig = bad ? 0 : (long long)sendcount * ssize, slot = bad ? 0 : pack;
    int check = size > 1 && cross_check_on();
    if (size == 1 && bad)
        return fail(bad, rank, msg);

    if (!st) {
        if ((rc = totex_mpi_state_get(comm, &st)) != MPI_SUCCESS)
            return rc;
        totex_mpi_state_remember(st, comm, size, rank);
    }
    st->entry = entry_name(opt);
    if (!bad && st->broken) {
        bad = MPI_ERR_OTHER;
        msg = "an earlier call on this communicator failed while nonblocking or persistent calls were in use on it: "
              "totex cannot run on it any more (use another communicator)";
        sig = slot = 0;
    }
    if (!bad) { /* a predefined datatype's facts serve the next call */
        if (sf.known)
            st->facts[0] = sf;
        if (rf.known)
            st->facts[1] = rf;
    }
    if (size == 1 && opt->prepare) { /* a local copy, made when the call runs (request.c) */
        *opt->prepare = (totex_mpi_prepared){.st = st, .size = 1, .sendbuf = sendbuf, .sendcount = sendcount,
                                             .sendtype = sendtype, .in_place = in_place, .slot = slot, .sig = sig,
                                             .checked = 1};
        return MPI_SUCCESS;
    }
    if (size == 1) {
        if (opt->verbose && !st->verbose_done) {
            st->verbose_done = 1;
            fprintf(stderr, "totex: %s on 1 rank: local copy\n", entry_name(opt));
        }
        if (in_place)
            return MPI_SUCCESS;
        char *tmp = malloc((size_t)slot);
        if (!tmp)
            return MPI_ERR_NO_MEM;
        if ((rc = totex_mpi_pack_blocks(sendbuf, sendcount, sendtype, 1, slot, tmp, NULL, comm)) == MPI_SUCCESS)
            rc = totex_mpi_unpack_block(tmp, slot, recvbuf, 0, recvcount, recvtype, comm);
        free(tmp);
        return rc;
    }
    if ((rc = totex_mpi_state_dup(st, comm, check)) != MPI_SUCCESS)
        return rc;
    check = st->check; /* rank 0's TOTEX_CHECK, the same on every rank (state.c) */
    if (!check && bad)
        return fail(bad, rank, msg);
    if (!check && sig == 0 && !opt->prepare)
        return MPI_SUCCESS;
    /* raw layouts (in place the send blocks must be copied out before the receive buffer is written) */
    /* (the machine's network numbering the ranks otherwise than the communicator: blocks packed in its order) */
    const int node = st->node_of ? st->node_of[rank] : rank, ordered = !st->node_of;
    const call c = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, size, node, slot, sig,
                    ordered && !bad && !in_place && pack == sig && sf.raw, ordered && !bad && pack == sig && rf.raw};
    totex_mpi_plan *p = st->plans;
    while (p && !(p->slot == slot && p->sig == sig))
        p = p->next;
    if (opt->prepare) {
        totex_mpi_prepared *pr = opt->prepare;
        *pr = (totex_mpi_prepared){.st = st, .plan = p, .size = size, .rank = node, .sendbuf = sendbuf,
                                   .sendcount = sendcount, .sendtype = sendtype, .in_place = in_place,
                                   .send_raw = c.send_raw, .recv_raw = c.recv_raw, .slot = slot, .sig = sig};
        if (!bad && sig > 0 && p && opt->form == TOTEX_MPI_FORM_NONBLOCKING)
            return MPI_SUCCESS; /* cached: the run is checked (request.c) */
        if (!check && sig == 0)
            return MPI_SUCCESS;
        rc = check ? checked_call(&c, opt, st, p, bad, msg) : exchange(&c, opt, st, NULL, 0, &p);
        pr->checked = rc == MPI_SUCCESS && check;
        return rc;
    }

    rc = check ? checked_call(&c, opt, st, p, bad, msg) : exchange(&c, opt, st, NULL, 0, &p);
    if (rc == MPI_SUCCESS && !bad && sig > 0 && !opt->unit && sf.known && rf.known) {
        /* find the plan again: the call may have made it (exchange() lists it first) */
        for (p = st->plans; p && !(p->slot == slot && p->sig == sig); p = p->next)
            ;
        st->memo.plan = p;
        st->memo.sendtype = sendtype;
        st->memo.recvtype = recvtype;
        st->memo.sendcount = sendcount;
        st->memo.recvcount = recvcount;
        st->memo.in_place = in_place;
        st->memo.send_raw = c.send_raw;
        st->memo.recv_raw = c.recv_raw;
    }
    return rc;
}

int totex_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    totex_mpi_depth++;
    totex_mpi_state *st = totex_mpi_runs_live() ? NULL : raw_memo(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                     recvtype, comm);
    int rc;
    if (st) {
        rc = raw_call(st, sendbuf, recvbuf);
    } else {
        totex_mpi_options opt = {.verbose = totex_mpi_verbose_level(), .entry = "totex_alltoall"};
        rc = totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
    }
    totex_mpi_depth--;
    return rc;
}

int totex_alltoall_unit(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm, int ports)
{
    totex_mpi_options opt = {.verbose = totex_mpi_verbose_level(), .unit = 1, .unit_algorithm = algorithm, .unit_ports = ports,
                             .entry = "totex_alltoall_unit"};
    totex_mpi_depth++;
    int rc = totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
    totex_mpi_depth--;
    return rc;
}

int totex_alltoall_choice(MPI_Comm comm, size_t block_bytes, totex_mpi_choice *out)
{
    if (!out)
        return MPI_ERR_ARG;
    memset(out, 0, sizeof *out);
    out->measured_seconds = -1;
    if (comm == MPI_COMM_NULL)
        return MPI_ERR_COMM;
    const totex_mpi_state *st = totex_mpi_state_find(comm);
    const totex_mpi_plan *p = st ? st->plans : NULL; /* newest first */
    while (p && (p->sig < 0 || (unsigned long long)p->sig != (unsigned long long)block_bytes))
        p = p->next;
    if (!p)
        return MPI_SUCCESS; /* out->planned 0: no call of this block size has been planned on comm */
    const totex_prog *pp = p->prog;
    out->planned = 1;
    snprintf(out->algorithm, sizeof out->algorithm, "%s", pp->algorithm ? pp->algorithm : "");
    snprintf(out->label, sizeof out->label, "%s", pp->label);
    out->unit = pp->unit != 0;
    out->ports = pp->unit ? (int)pp->ports : 0;
    out->chunks = pp->chunks;
    out->steps = (unsigned long long)pp->steps;
    out->predicted_seconds = p->predicted;
    out->measured_seconds = p->measured;
    out->reused = p->reused;
    return MPI_SUCCESS;
}
