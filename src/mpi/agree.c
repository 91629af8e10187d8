/* Cross-rank check of totex_alltoall (TOTEX_CHECK, on by default): arguments
 * that differ across ranks, or a rank that fails, give every rank an error
 * class and a message, never a hang, without a collective operation on the
 * path of a call whose plan is cached.
 *
 * Protocol, on the private duplicate (docs/mpi.md, "The cross-rank check";
 * the errors: include/totex/mpi.h):
 * - Every call sends a header {block bytes, packed bytes per block, local
 *   error} to its successor on a ring through all ranks and receives its
 *   predecessor's, alongside the exchange. If the ranks' headers are not all
 *   equal, two neighbours on this ring differ, and the later one sees it when
 *   the header arrives. The ring (ring.c) runs along the network's links
 *   where it can (a torus or mesh with an even side), else it is r - 1 -> r
 *   -> r + 1.
 *   A rank with a local error (a wrong argument of its own) poisons at once;
 *   its neighbour does not report the difference as well.
 * - Headers travel on a second duplicate of their own (st->hdr), where only
 *   headers travel: one per checked call from each rank to its successor, in
 *   call order, so its receive takes any tag. The header is in the tag
 *   (TOTEX_MPI_SIG_TAG + block bytes, when packed bytes equal block bytes, no
 *   local error and the tag fits MPI_TAG_UB: header_tag()), else its 24 bytes
 *   lead the message (tag TOTEX_MPI_HDR_TAG). It travels on its own or, in a
 *   call that runs a cached plan, with the plan's first message on that
 *   link when the message is short and carries its sender's own blocks, or
 *   as a staggered plan's first kick on that link (the header alone, as long
 *   as every other kick; compile.c decides, the same at both ends, from the
 *   schedule); the
 *   executor makes that send first, before any wait (run.c): a header
 *   always leaves at the start of a call, whatever stalls after. The receive
 *   of the predecessor's header is posted right after it, still before any wait.
 *   A message of another length than expected is a difference too (ranks
 *   in different plans), and a header alone where a carried
 *   message was due comes from a rank with a local error. The carried data is
 *   used only after its header was found equal.
 * - Every rank keeps a receive from MPI_ANY_SOURCE for a poison message posted
 *   while the duplicate lives. A rank that sees a difference, has a local
 *   error or has an MPI call fail sends a poison naming what went wrong to
 *   every rank, prints it and returns its error class.
 * - Every rank sends its header exactly once in every checked call, before
 *   any wait, also when the call fails before the message that was to carry it
 *   has left (header_alone(): from totex_mpi_guard_fail(), from the start of a
 *   call that a poison kept from the last call fails, and from
 *   totex_mpi_guard_drop() for any failed call that has not sent it).
 *   So a wait for the predecessor's header alone always ends and needs no
 *   watch (totex_mpi_guard_wait_header(): a plain MPI_Wait, the short path of
 *   one message each way, run.c).
 * - Every other wait of the call (run.c, the agreement below) also watches the
 *   header and the poison receive, so a rank blocked on a message that will
 *   never come wakes on the poison. (A request that MPI_Test finds complete
 *   already is not waited for, so needs no watch.)
 * - Why a bad call cannot succeed on any rank: a plan is cached under
 *   (block bytes, packed bytes) and its messages carry its own tag, the same on
 *   every rank (TOTEX_MPI_PLAN_TAG + id); ranks with different arguments run
 *   different plans (or none), whose messages never match each other's
 *   receives. In a total exchange every rank needs a block from every other
 *   rank, so no rank's exchange completes; all of them wait until a poison
 *   arrives. Calls that do not run a cached plan (the first call with a block
 *   size, which plans with collective operations; count 0; unit-step runs)
 *   first agree with totex_mpi_guard_agree(), a min/max over all ranks by
 *   point-to-point rounds whose waits watch the poison too.
 * - A rank may still wait for the last messages of a call while the others,
 *   done with it, already fail in the next one: a poison numbered for a later
 *   call is kept and fails that call as soon as it starts.
 * - After a failed call every rank drops the duplicate (the messages of the
 *   failed exchange stay behind on it and are drained when it is freed); the
 *   next call makes a new one.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* poison: {error class, kind, rank a, value a, rank b, value b, call number} */
enum { POISON_LOCAL = 1, POISON_SIG = 2, POISON_PACK = 3, POISON_AGREE = 4, POISON_MPI = 5, POISON_LEN = 6, POISON_MODEL = 7,
       POISON_FORM = 8, POISON_SWITCH = 9 };

static const char *form_name(long long form)
{
    return form == TOTEX_MPI_FORM_NONBLOCKING ? "the nonblocking form (totex_ialltoall)"
           : form == TOTEX_MPI_FORM_PERSISTENT ? "the persistent form (totex_alltoall_init)"
                                               : "the blocking form (totex_alltoall)";
}

/* the poison sent (static: a send may still be pending when the call returns) */
static long long poison_out[7];

static void say(int rank, const long long *m)
{
    char cls[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string((int)m[0], cls, &len) != MPI_SUCCESS)
        cls[0] = '\0';
    switch ((int)m[1]) {
    case POISON_SWITCH: /* (alltoallv.c runs the call another way: nothing went wrong) */
        break;
    case POISON_LOCAL:
        fprintf(stderr, "totex_alltoall: rank %d: stopped: rank %lld's arguments are wrong (it said why)\n", rank,
                m[2]);
        break;
    case POISON_SIG:
    case POISON_PACK:
        fprintf(stderr, "totex_alltoall: rank %d: %s differ across ranks: %s is %lld bytes on rank %lld, %lld bytes on "
                        "rank %lld\n",
                rank, m[1] == POISON_SIG ? "message sizes" : "datatypes",
                m[1] == POISON_SIG ? "sendcount * size(sendtype)" : "MPI_Pack_size of a block", m[3], m[2], m[5],
                m[4]);
        break;
    case POISON_MODEL:
        fprintf(stderr,
                "totex_alltoall: rank %d: the ranks run different models: TOTEX_MODEL=unit on rank %lld, not on rank "
                "%lld (set TOTEX_MODEL alike on every rank)\n",
                rank, m[3] ? m[2] : m[4], m[3] ? m[4] : m[2]);
        break;
    case POISON_FORM:
        fprintf(stderr,
                "totex_alltoall: rank %d: the ranks call different forms of the collective: %s on rank %lld, %s on "
                "rank %lld (every rank must call the same one, in the same order)\n",
                rank, form_name(m[3]), m[2], form_name(m[5]), m[4]);
        break;
    case POISON_LEN:
        fprintf(stderr,
                "totex_alltoall: rank %d: message sizes differ across ranks: rank %lld's first message to rank %lld "
                "is not as long as rank %lld's arguments give\n",
                rank, m[2], m[4], m[4]);
        break;
    case POISON_AGREE:
        fprintf(stderr,
                "totex_alltoall: rank %d: message sizes differ across ranks: sendcount * size(sendtype) from "
                "%lld to %lld bytes\n",
                rank, m[3], m[5]);
        break;
    default:
        fprintf(stderr, "totex_alltoall: rank %d: stopped: an MPI call failed on rank %lld (%s)\n", rank, m[2], cls);
        break;
    }
}

/* send poison m to every other rank; this rank's call fails with m[0] */
static int poison(totex_mpi_guard *g, const long long *m)
{
    for (int i = 0; i < 6; i++)
        poison_out[i] = m[i];
    poison_out[6] = g->call;
    for (int r = 0; r < g->n; r++) {
        if (r == g->rank)
            continue;
        MPI_Request q;
        if (MPI_Isend(poison_out, 7, MPI_LONG_LONG, r, TOTEX_MPI_POISON_TAG, g->comm, &q) == MPI_SUCCESS)
            MPI_Request_free(&q);
    }
    g->code = (int)m[0];
    return g->code;
}

/* this rank's header alone, naming error @p code, unless its header has left: a call that fails before the
   message that was to carry it still sends it, so that the successor's wait for it ends */
static void header_alone(totex_mpi_guard *g, int code)
{
    if (g->hdr_sent)
        return;
    static long long hdr_out[3]; /* (static: the request is freed before the send may be done) */
    hdr_out[0] = g->mine[0];
    hdr_out[1] = g->mine[1];
    hdr_out[2] = code;
    g->hdr_sent = 1;
    if (MPI_Isend(hdr_out, 3, MPI_LONG_LONG, g->to, TOTEX_MPI_HDR_TAG, g->st->hdr, &g->hdr[1]) == MPI_SUCCESS)
        g->out = &g->hdr[1];
}

/* post the receive of the ring predecessor's header (st->ring_pred) into *r */
static inline int header_recv(totex_mpi_state *st, char *buf, MPI_Request *r)
{
    /* room for any message that may come, carried or not: a receive shorter than its message would
       fail (MPICH: fatally). Any tag: on st->hdr only headers travel, one per checked call from each
       rank to its successor, and the tag may be the header (header_tag()) */
    return MPI_Irecv(buf, (int)sizeof st->hdr_buf, MPI_BYTE, st->ring_pred, MPI_ANY_TAG, st->hdr, r);
}

static int post_in(totex_mpi_guard *g)
{
    return header_recv(g->st, g->hbuf, g->in);
}

/* the tag of a message with header {sig, slot, 0}: TOTEX_MPI_SIG_TAG + sig (the header in the tag, no bytes
   of its own) when that says all of it, else TOTEX_MPI_HDR_TAG (the header's bytes in front). A header
   naming a local error has its bytes, and so has the kick that carries a header (compile.c: all kicks
   are alike). An Open MPI shared-memory message of more than 8 bytes costs up to 45 ns more than one of 8
   (bench/mpi/mpi_pair_floor): the 24 bytes in front made a checked call of 8-byte blocks on 2 ranks 1.12 x
   MPI_Alltoall by its MPI calls alone in the machine's slow phase, the tag 0.98 x */
static inline int header_tag(const totex_mpi_state *st, long long sig, long long slot)
{
    return sig == slot && sig >= 0 && sig <= (long long)st->tag_ub - TOTEX_MPI_SIG_TAG ? TOTEX_MPI_SIG_TAG + (int)sig
                                                                                       : TOTEX_MPI_HDR_TAG;
}

/* send the @p bytes bytes at @p data to @p peer with header @p mine: in tag @p tag (header_tag()), or with
   tag TOTEX_MPI_HDR_TAG its bytes written into the TOTEX_PROG_HDR_BYTES in front of @p data and sent too */
static inline int header_send(totex_mpi_state *st, const long long *mine, int tag, char *data, int bytes, int peer,
                              MPI_Request *r)
{
    if (tag != TOTEX_MPI_HDR_TAG)
        return MPI_Isend(data, bytes, MPI_BYTE, peer, tag, st->hdr, r);
    memcpy(data - TOTEX_PROG_HDR_BYTES, mine, TOTEX_PROG_HDR_BYTES);
    return MPI_Isend(data - TOTEX_PROG_HDR_BYTES, bytes + TOTEX_PROG_HDR_BYTES, MPI_BYTE, peer, tag, st->hdr, r);
}

/* the header of a received message of @p count bytes with tag @p tag (received into @p buf) into
   pred[0 .. 3) and where its data starts in buf into *off; returns its bytes of data, -1 if it is shorter
   than its header (pred then untouched) */
static inline int header_read(const char *buf, int tag, int count, long long *pred, int *off)
{
    if (tag != TOTEX_MPI_HDR_TAG) {
        pred[0] = pred[1] = tag - TOTEX_MPI_SIG_TAG;
        pred[2] = 0;
        *off = 0;
        return count;
    }
    if (count < TOTEX_PROG_HDR_BYTES)
        return -1;
    memcpy(pred, buf, TOTEX_PROG_HDR_BYTES);
    *off = TOTEX_PROG_HDR_BYTES;
    return count - TOTEX_PROG_HDR_BYTES;
}

/* keep poison @p m of another call in st->poisons (the oldest dropped when full) */
static void poison_keep(totex_mpi_state *st, const long long *m)
{
    if (st->npoisons == TOTEX_MPI_POISONS) {
        memmove(st->poisons[0], st->poisons[1], sizeof st->poisons[0] * (TOTEX_MPI_POISONS - 1));
        st->npoisons--;
    }
    memcpy(st->poisons[st->npoisons++], m, sizeof st->poisons[0]);
}

/* drop the kept poisons of calls numbered below @p call */
static void poisons_drop_before(totex_mpi_state *st, long long call)
{
    int k = 0;
    for (int i = 0; i < st->npoisons; i++)
        if (st->poisons[i][6] >= call)
            memmove(st->poisons[k++], st->poisons[i], sizeof st->poisons[0]);
    st->npoisons = k;
}

/* a kept poison of @p g's call (taken by another call's wait): the call fails with it, its header sent
   alone if it has not left yet; returns g->code */
static int poison_kept(totex_mpi_guard *g)
{
    totex_mpi_state *st = g->st;
    for (int i = 0; i < st->npoisons && g->code == MPI_SUCCESS; i++)
        if (st->poisons[i][6] == g->call) {
            long long m[7];
            memcpy(m, st->poisons[i], sizeof m);
            memmove(st->poisons[i], st->poisons[i + 1], sizeof st->poisons[0] * (size_t)(st->npoisons - i - 1));
            st->npoisons--;
            header_alone(g, (int)m[0]); /* (a carried header may not have left yet) */
            g->code = (int)m[0];
            say(g->rank, m);
        }
    return g->code;
}

/* the guard's fields for call number @p call (no MPI call) */
static void init_fields(totex_mpi_guard *g, totex_mpi_state *st, int n, int rank, long long sig, long long slot, int bad,
                        long long call)
{
    /* field by field: a compound literal's zeroing of the whole struct (rep stos) was the largest
       item of a 2-rank call of 8 B in totex's own code (perf, Open MPI) */
    g->comm = st->dup;
    g->n = n;
    g->rank = rank;
    g->from = st->ring_pred;
    g->to = st->ring_succ;
    g->mine[0] = sig;
    g->mine[1] = slot;
    g->mine[2] = bad;
    g->pred[0] = g->pred[1] = g->pred[2] = 0;
    g->hdr[0] = g->hdr[1] = MPI_REQUEST_NULL;
    g->in = &g->hdr[0];
    g->out = &g->hdr[1];
    g->hdr_sent = 0;
    g->carry_to = NULL;
    g->carry_bytes = g->carry_expect = g->carry_held = 0;
    g->carry_off = TOTEX_PROG_HDR_BYTES;
    g->st = st;
    g->hbuf = st->hdr_buf;
    g->call = call;
    g->code = MPI_SUCCESS;
}

static int start_posted(totex_mpi_guard *g, totex_mpi_state *st, int rank, long long sig, long long slot, int bad,
                        int carry_out);

void totex_mpi_guard_init(totex_mpi_guard *g, totex_mpi_state *st, int n, int rank, long long sig, long long slot,
                          int bad)
{
    init_fields(g, st, n, rank, sig, slot, bad, ++st->calls);
}

int totex_mpi_guard_start(totex_mpi_guard *g, totex_mpi_state *st, int n, int rank, long long sig, long long slot,
                          int bad, int carry_out)
{
    totex_mpi_guard_init(g, st, n, rank, sig, slot, bad);
    return start_posted(g, st, rank, sig, slot, bad, carry_out);
}

int totex_mpi_guard_start_into(totex_mpi_guard *g, totex_mpi_state *st, int n, int rank, long long sig,
                               long long slot, char *hbuf)
{
    totex_mpi_guard_init(g, st, n, rank, sig, slot, 0);
    g->hbuf = hbuf;
    return start_posted(g, st, rank, sig, slot, 0, 0);
}

/* totex_mpi_guard_start() after the guard's fields: the header sent (unless carried), the receive posted */
static int start_posted(totex_mpi_guard *g, totex_mpi_state *st, int rank, long long sig, long long slot, int bad,
                        int carry_out)
{
    /* this rank's header leaves first, then the receive of the predecessor's is posted (both before any
       wait): the header (or the message carrying it, totex_mpi_guard_send_carried()) leaves a receive's
       posting earlier, a third of the MPI library's work before it (callgrind, Open MPI, 2 ranks).
       The receive is still posted before the header it takes is matched whenever the send makes
       no progress on incoming messages (Open MPI's inline sends do not); else it is taken from
       the unexpected messages, which is as correct */
    const int tag = bad ? TOTEX_MPI_HDR_TAG : header_tag(st, sig, slot);
    int rc = carry_out ? MPI_SUCCESS
             : tag != TOTEX_MPI_HDR_TAG /* (the header in the tag: a message of no bytes) */
                 ? MPI_Isend(g->mine, 0, MPI_BYTE, g->to, tag, st->hdr, &g->hdr[1])
                 : MPI_Isend(g->mine, 3, MPI_LONG_LONG, g->to, TOTEX_MPI_HDR_TAG, st->hdr, &g->hdr[1]);
    g->hdr_sent = !carry_out && rc == MPI_SUCCESS;
    if (rc == MPI_SUCCESS && !carry_out)
        rc = post_in(g);
    if (rc != MPI_SUCCESS)
        return totex_mpi_guard_fail(g, rc);
    if (st->npoisons) { /* poisoned while this rank was finishing an earlier call */
        if (!st->nb_active) /* no other call is under way: a poison of an earlier one is stale */
            poisons_drop_before(st, g->call);
        poison_kept(g);
    }
    return g->code;
}

void totex_mpi_guard_carry(totex_mpi_guard *g, char *to, int bytes)
{
    g->carry_to = to;
    g->carry_bytes = bytes;
    g->carry_expect = 1;
    if (g->carry_held) { /* the header came first, found equal: its data now goes to its place */
        memcpy(to, g->hbuf + g->carry_off, (size_t)bytes);
        g->carry_held = 0;
    }
}

int totex_mpi_guard_send_carried(totex_mpi_guard *g, char *msg, int bytes, int peer, MPI_Request *send)
{
    const int tag = bytes > 0 ? header_tag(g->st, g->mine[0], g->mine[1]) : TOTEX_MPI_HDR_TAG; /* (0: a kick) */
    int rc = header_send(g->st, g->mine, tag, msg + TOTEX_PROG_HDR_BYTES, bytes, peer, send);
    if (rc == MPI_SUCCESS) {
        g->out = send;
        g->hdr_sent = 1;
        /* the message carrying this rank's header has left: the receive of the predecessor's header
           (totex_mpi_guard_start() left it to here) */
        rc = post_in(g);
    }
    return rc == MPI_SUCCESS ? MPI_SUCCESS : totex_mpi_guard_fail(g, rc);
}

int totex_mpi_guard_fail(totex_mpi_guard *g, int code)
{
    if (g->code != MPI_SUCCESS)
        return g->code;
    header_alone(g, code);
    long long m[6] = {code, code == MPI_ERR_NO_MEM || code == MPI_ERR_INTERN ? POISON_MPI : POISON_LOCAL, g->rank,
                      0, 0, 0};
    if (code != MPI_ERR_COUNT && code != MPI_ERR_TYPE && code != MPI_ERR_BUFFER && code != MPI_ERR_ARG)
        m[1] = code == TOTEX_MPI_V_SWITCH ? POISON_SWITCH : POISON_MPI;
    return poison(g, m);
}

/* one of the watched requests completed: header (which == 1) or poison (2) */
static int watched(totex_mpi_guard *g, int which)
{
    if (which == 2) { /* another rank failed */
        totex_mpi_state *st = g->st;
        if (st->poison_buf[6] != g->call) {
            /* a poison of another call: ranks done with this call may already fail in the next
               one while this rank finishes this one, and a nonblocking call under way may be the
               one poisoned (request.c); kept for it */
            poison_keep(st, st->poison_buf);
            return totex_mpi_state_post_poison(st);
        }
        g->code = (int)st->poison_buf[0];
        say(g->rank, st->poison_buf);
        return g->code;
    }
    /* equal, or the predecessor has an error of its own: it sends the poison itself */
    if ((g->pred[0] == g->mine[0] && g->pred[1] == g->mine[1]) || g->pred[2])
        return MPI_SUCCESS;
    int pr = g->from, k = g->pred[0] != g->mine[0] ? 0 : 1;
    /* packed bytes of opposite signs: one rank runs unit-step schedules (TOTEX_MODEL=unit), the other not */
    const int model = k == 1 && (g->pred[1] < 0) != (g->mine[1] < 0);
    long long m[6] = {MPI_ERR_OTHER, POISON_MODEL, pr, g->pred[1] < 0, g->rank, g->mine[1] < 0};
    const long long fp = g->pred[1] < 0 ? 0 : g->pred[1] / TOTEX_MPI_FORM_UNIT,
                    fm = g->mine[1] < 0 ? 0 : g->mine[1] / TOTEX_MPI_FORM_UNIT;
    if (!model && fp != fm) /* one rank called the nonblocking or persistent form, the other another */
        m[0] = MPI_ERR_OTHER, m[1] = POISON_FORM, m[3] = fp, m[5] = fm;
    else if (!model)
        m[0] = MPI_ERR_COUNT, m[1] = k ? POISON_PACK : POISON_SIG, m[3] = g->pred[k], m[5] = g->mine[k];
    say(g->rank, m);
    return poison(g, m);
}

/* the request carrying the predecessor's header ended with @p rc: a message of another
   length than this rank expects means that rank runs other arguments */
static int header_arrived(totex_mpi_guard *g, int rc, MPI_Status *status)
{
    int count = -1, data = -1, pr = g->from;
    if (rc == MPI_SUCCESS && MPI_Get_count(status, MPI_BYTE, &count) == MPI_SUCCESS && count >= 0)
        data = header_read(g->hbuf, status->MPI_TAG, count, g->pred, &g->carry_off);
    const int want = g->carry_expect ? g->carry_bytes : 0, differs = g->pred[0] != g->mine[0] ||
                                                                     g->pred[1] != g->mine[1];
    const int alone = data == 0; /* a header and nothing behind it (its bytes, or in the tag) */
    if (data == want || (alone && !g->pred[2] && differs) || (data > 0 && differs)) {
        /* as expected, or a header that differs: say how */
        if ((rc = watched(g, 1)) == MPI_SUCCESS && g->carry_to) /* the data behind an equal header */
            memcpy(g->carry_to, g->hbuf + g->carry_off, (size_t)g->carry_bytes);
        else if (rc == MPI_SUCCESS && g->carry_expect && data == want)
            g->carry_held = 1; /* its destination is not known yet (totex_mpi_guard_carry) */
        return rc;
    }
    if (alone && g->pred[2]) {
        /* a header alone where data was due: the predecessor stopped on its own error
           (and poisons every rank); this call cannot complete here */
        long long m[6] = {g->pred[2], g->pred[2] == TOTEX_MPI_V_SWITCH ? POISON_SWITCH : POISON_LOCAL, pr, 0, 0, 0};
        g->code = (int)g->pred[2];
        say(g->rank, m);
        return g->code;
    }
    long long m[6] = {MPI_ERR_COUNT, POISON_LEN, pr, 0, g->rank, 0};
    say(g->rank, m);
    return poison(g, m);
}

int totex_mpi_guard_wait_header(totex_mpi_guard *g)
{
    if (g->code != MPI_SUCCESS || *g->in == MPI_REQUEST_NULL)
        return g->code;
    /* a plain wait, watching no poison: the predecessor sends its header in every checked call,
       before any wait of its own, also when it fails (totex_mpi_guard_fail) */
    MPI_Status status;
    int rc = MPI_Wait(g->in, &status);
    return header_arrived(g, rc, &status);
}

/* the end of the short path: wait for the predecessor's header and the message behind it (*in) and complete
   this rank's carried send (*send). The expected message behind an equal header goes to @p to (@p bytes) and,
   once the send is found complete, the call ends there. Anything else goes the guard's way (header_arrived(),
   a watched wait): with @p lazy, @p g is made only then, as totex_mpi_guard_init() made it for this call
   (requests moved into it); else g is the call's guard, started, with in == g->in and *send its carried send */
static inline __attribute__((always_inline)) int pair_end(totex_mpi_guard *g, int lazy, totex_mpi_state *st,
                                                          const long long *mine, int tag, MPI_Request *in,
                                                          MPI_Request *send, char *to, int bytes)
{
    MPI_Status status;
    int rc = MPI_Wait(in, &status), count = -1, flag = 0;
    /* the predecessor's message as this rank's own (tag @p tag, header_tag()): its tag and length, and its
       header's bytes when it has them */
    const int front = tag == TOTEX_MPI_HDR_TAG ? TOTEX_PROG_HDR_BYTES : 0;
    const int fast = rc == MPI_SUCCESS && status.MPI_TAG == tag &&
                     MPI_Get_count(&status, MPI_BYTE, &count) == MPI_SUCCESS && count == front + bytes &&
                     (!front || memcmp(st->hdr_buf, mine, TOTEX_PROG_HDR_BYTES) == 0);
    if (fast) {
        memcpy(to, st->hdr_buf + front, (size_t)bytes);
        if ((rc = MPI_Test(send, &flag, MPI_STATUS_IGNORE)) == MPI_SUCCESS && flag)
            return MPI_SUCCESS; /* (lazy: g never made) */
    }
    if (lazy) {
        init_fields(g, st, st->size, st->rank, mine[0], mine[1], 0, st->calls);
        g->hdr_sent = 1;
        g->hdr[0] = *in;
        g->hdr[1] = *send;
        send = g->out;
    }
    if (fast) {
        memcpy(g->pred, mine, sizeof g->pred);
        return rc != MPI_SUCCESS ? totex_mpi_guard_fail(g, rc) : totex_mpi_guard_wait(g, send);
    }
    g->carry_to = to;
    g->carry_bytes = bytes;
    g->carry_expect = 1;
    if ((rc = header_arrived(g, rc, &status)) != MPI_SUCCESS) /* (it says what differs) */
        return rc;
    if ((rc = MPI_Test(send, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
        return totex_mpi_guard_fail(g, rc);
    return flag ? MPI_SUCCESS : totex_mpi_guard_wait(g, send);
}

int totex_mpi_guard_pair_wait(totex_mpi_guard *g, MPI_Request *send)
{
    return pair_end(g, 0, g->st, g->mine, header_tag(g->st, g->mine[0], g->mine[1]), g->in, send, g->carry_to,
                    g->carry_bytes);
}

int totex_mpi_guard_pair_run(totex_mpi_state *st, totex_mpi_guard *g, long long sig, long long slot, char *msg,
                             int bytes, int peer, char *to, int to_bytes, char *own_to, const char *own_from,
                             size_t own_bytes)
{
    const long long mine[3] = {sig, slot, 0};
    MPI_Request req[2];
    st->calls++; /* (the call's number, as totex_mpi_guard_init() counts it) */
    const int tag = header_tag(st, sig, slot);
    int rc = header_send(st, mine, tag, msg + TOTEX_PROG_HDR_BYTES, bytes, peer, &req[1]);
    const int sent = rc == MPI_SUCCESS;
    if (sent)
        rc = header_recv(st, st->hdr_buf, &req[0]);
    if (rc != MPI_SUCCESS) { /* failed: the guard's way */
        init_fields(g, st, st->size, st->rank, sig, slot, 0, st->calls);
        g->hdr_sent = sent;
        if (sent)
            g->hdr[1] = req[1];
        return totex_mpi_guard_fail(g, rc);
    }
    if (own_to != own_from) /* this rank's own block while the messages travel */
        memcpy(own_to, own_from, own_bytes);
    return pair_end(g, 1, st, mine, tag, &req[0], &req[1], to, to_bytes);
}

/* the part of totex_mpi_guard_wait() that calls MPI (*r pending, g->code MPI_SUCCESS): out of line,
   as its frame (requests, status, the header's checks) costs more than the checks before it, which
   most calls end with */
/* one completion among the watched three (the request *r, the predecessor's header *g->in unless *r is it,
   the poison) that MPI_Waitany or MPI_Testany found at @p idx with @p rc: the set written back, the header
   checked (and the data behind it placed), a poison taken, a failed request failing the call. MPI_SUCCESS to
   go on watching, else the call's error (g->code) */
static inline int watched_completion(totex_mpi_guard *g, MPI_Request *r, int own_hdr, const MPI_Request *set, int idx,
                                     int rc, MPI_Status *status)
{
    *r = set[0];
    if (!own_hdr)
        *g->in = set[1];
    g->st->poison = set[2];
    if (idx == 1 || (idx == 0 && own_hdr)) /* the header (and the data it may carry) */
        return header_arrived(g, rc, status);
    if (rc != MPI_SUCCESS)
        return totex_mpi_guard_fail(g, rc);
    if (idx == 2)
        return watched(g, 2);
    return MPI_SUCCESS;
}

static __attribute__((noinline)) int wait_watching(totex_mpi_guard *g, MPI_Request *r)
{
    const int own_hdr = r == g->in;
#ifndef SMPI_H
    /* a request that is complete already (a short send is, as soon as it is made: Open MPI sends it
       inline) needs no wait, and so no watch: one MPI_Test instead of an MPI_Waitany over three
       requests, which costs twice the instructions (2 ranks, 8 B: callgrind). The header's request
       is tested in the loop, which reads its status. Not under SimGrid SMPI, which charges every
       MPI_Test* call simulated time (smpi/test: 100 us) */
    if (!own_hdr) {
        int flag = 0, rc = MPI_Test(r, &flag, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return totex_mpi_guard_fail(g, rc);
        if (flag)
            return MPI_SUCCESS;
    }
    int first = own_hdr; /* the header complete already: handled as MPI_Waitany's index 0 would be */
#endif
    while (g->code == MPI_SUCCESS && *r != MPI_REQUEST_NULL) {
        MPI_Request set[3] = {*r, own_hdr ? MPI_REQUEST_NULL : *g->in, g->st->poison};
        int idx = MPI_UNDEFINED;
        MPI_Status status;
        int rc;
#ifndef SMPI_H
        int flag = 0;
        if (first && ((rc = MPI_Test(&set[0], &flag, &status)) != MPI_SUCCESS || flag))
            idx = 0;
        else
            rc = MPI_Waitany(3, set, &idx, &status);
        first = 0;
#else
        rc = MPI_Waitany(3, set, &idx, &status);
#endif
        if ((rc = watched_completion(g, r, own_hdr, set, idx, rc, &status)) != MPI_SUCCESS)
            return rc;
    }
    return g->code;
}

int totex_mpi_guard_wait(totex_mpi_guard *g, MPI_Request *r)
{
    if (*r == MPI_REQUEST_NULL) /* done already (most calls at the end of a run): no MPI call */
        return g ? g->code : MPI_SUCCESS;
    if (!g)
        return MPI_Wait(r, MPI_STATUS_IGNORE);
    if (g->st->npoisons && poison_kept(g) != MPI_SUCCESS)
        return g->code;
    return g->code == MPI_SUCCESS ? wait_watching(g, r) : g->code;
}

int (*totex_mpi_request_peek)(MPI_Request r);

int totex_mpi_guard_test(totex_mpi_guard *g, MPI_Request *r, int *done)
{
    *done = 0;
    if (*r == MPI_REQUEST_NULL) {
        *done = 1;
        return g ? g->code : MPI_SUCCESS;
    }
    if (!g) {
        if (totex_mpi_request_peek && !totex_mpi_request_peek(*r))
            return MPI_SUCCESS; /* not complete (no MPI_Test, which would run the progress loop again) */
        return MPI_Test(r, done, MPI_STATUS_IGNORE);
    }
    if (g->code != MPI_SUCCESS || (g->st->npoisons && poison_kept(g) != MPI_SUCCESS))
        return g->code;
    const int own_hdr = r == g->in;
    if (totex_mpi_request_peek && !totex_mpi_request_peek(*r) &&
        (own_hdr || *g->in == MPI_REQUEST_NULL || !totex_mpi_request_peek(*g->in)) &&
        (g->st->poison == MPI_REQUEST_NULL || !totex_mpi_request_peek(g->st->poison)))
        return MPI_SUCCESS; /* none of the three complete (no MPI_Testany, which would run the progress loop) */
    /* as wait_watching, with MPI_Testany: whatever of the three has completed is handled, until *r has
       or none of them is complete */
    while (g->code == MPI_SUCCESS && *r != MPI_REQUEST_NULL) {
        MPI_Request set[3] = {*r, own_hdr ? MPI_REQUEST_NULL : *g->in, g->st->poison};
        int idx = MPI_UNDEFINED, flag = 0, rc;
        MPI_Status status;
        rc = MPI_Testany(3, set, &idx, &flag, &status);
        if (rc == MPI_SUCCESS && (!flag || idx == MPI_UNDEFINED))
            break; /* nothing completed (the set is as it was) */
        if ((rc = watched_completion(g, r, own_hdr, set, idx, rc, &status)) != MPI_SUCCESS)
            return rc;
    }
    *done = g->code == MPI_SUCCESS && *r == MPI_REQUEST_NULL;
    return g->code;
}

int totex_mpi_guard_waitall(totex_mpi_guard *g, MPI_Request *r, size_t count)
{
    if (!g)
        return MPI_Waitall((int)count, r, MPI_STATUSES_IGNORE);
    /* all done already (often, for a rank that gets its time slice late): one call instead of one per
       request (Open MPI, 4 ranks on 2 overloaded cores, 8 and 32 B, direct: totex / MPI_Alltoall 1.30 ->
       1.11 .. 1.24 with the check, 1.10 .. 1.17 without; noisy).
       Not under SimGrid SMPI, which charges every MPI_Test* call simulated time (smpi/test: 100 us) */
    int flag = 0;
#ifndef SMPI_H
    /* the predecessor's header first, with a plain wait (it always comes: totex_mpi_guard_wait_header), which
       moves every other request on too; then most often one MPI_Testall finds them all complete (Open MPI,
       4 ranks, direct, 8 B: one watched wait per request, each an MPI_Test and an MPI_Waitany, made
       totex / MPI_Alltoall 1.14 with the check against 1.05 without) */
    if (*g->in != MPI_REQUEST_NULL && totex_mpi_guard_wait_header(g) != MPI_SUCCESS)
        return g->code;
    size_t pending = 0; /* one pending request (2 ranks: the other's messages ride on the headers) is just waited for */
    for (size_t i = 0; i < count && pending < 2; i++)
        pending += r[i] != MPI_REQUEST_NULL;
    int rc = pending > 1 ? MPI_Testall((int)count, r, &flag, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        return totex_mpi_guard_fail(g, rc);
#endif
    for (size_t i = 0; !flag && i < count && g->code == MPI_SUCCESS; i++)
        if (r[i] != MPI_REQUEST_NULL)
            totex_mpi_guard_wait(g, &r[i]);
    if (g->code == MPI_SUCCESS && *g->out != MPI_REQUEST_NULL)
        totex_mpi_guard_wait(g, g->out);
    if (g->code == MPI_SUCCESS && *g->in != MPI_REQUEST_NULL)
        totex_mpi_guard_wait(g, g->in);
    return g->code;
}

int totex_mpi_guard_agree(totex_mpi_guard *g)
{
    int rc;
    if ((rc = totex_mpi_guard_wait(g, g->in)) != MPI_SUCCESS)
        return rc;
    /* min over all ranks of {sig, -sig, slot, -slot}: recursive distances 1, 2, 4, ... (dissemination) */
    long long v[4] = {g->mine[0], -g->mine[0], g->mine[1], -g->mine[1]}, w[4];
    for (int d = 1; d < g->n; d *= 2) {
        MPI_Request q[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        rc = MPI_Irecv(w, 4, MPI_LONG_LONG, (g->rank + g->n - d) % g->n, TOTEX_MPI_AGREE_TAG, g->comm, &q[0]);
        if (rc == MPI_SUCCESS)
            rc = MPI_Isend(v, 4, MPI_LONG_LONG, (g->rank + d) % g->n, TOTEX_MPI_AGREE_TAG, g->comm, &q[1]);
        if (rc != MPI_SUCCESS) {
            totex_mpi_drop(q, 1, q + 1, 1);
            return totex_mpi_guard_fail(g, rc);
        }
        if ((rc = totex_mpi_guard_waitall(g, q, 2)) != MPI_SUCCESS) {
            totex_mpi_drop(q, 1, q + 1, 1);
            return rc;
        }
        for (int i = 0; i < 4; i++)
            if (w[i] < v[i])
                v[i] = w[i];
    }
    if (v[0] != -v[1] || v[2] != -v[3]) {
        long long m[6] = {MPI_ERR_COUNT, POISON_AGREE, g->rank, v[0], 0, -v[1]};
        say(g->rank, m);
        return poison(g, m);
    }
    return MPI_SUCCESS;
}

void totex_mpi_drop(MPI_Request *recv, size_t nrecv, MPI_Request *send, size_t nsend)
{
    for (size_t i = 0; i < nrecv; i++)
        if (recv[i] != MPI_REQUEST_NULL) {
            /* not MPI_Wait: a receive that ended in an error (a longer message from
               a rank in another plan: truncated) makes MPICH's MPI_Wait call the
               MPI_COMM_WORLD error handler, fatal by default */
            int flag = 0;
            MPI_Cancel(&recv[i]);
            while (MPI_Request_get_status(recv[i], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag)
                ;
            MPI_Request_free(&recv[i]);
        }
    for (size_t i = 0; i < nsend; i++)
        if (send[i] != MPI_REQUEST_NULL)
            MPI_Request_free(&send[i]);
}

void totex_mpi_guard_drop(totex_mpi_guard *g)
{
    header_alone(g, g->code != MPI_SUCCESS ? g->code : MPI_ERR_INTERN); /* (every failed call sends its header) */
    totex_mpi_drop(g->in, 1, g->out, 1);
}
