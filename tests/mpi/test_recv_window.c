/* The executor's window on early receive posting (src/mpi/run.c):
 * a run posts a receive ahead of its forced point (the receives of the steps
 * before the send about to be made, totex_prog_send.recv_before) only while it
 * is fewer than p->prog->recv_window receives past it. Checked from outside the
 * executor, by interposing MPI_Irecv, MPI_Isend and MPI_Issend (the profiling
 * interface: this program's definitions take the calls of the statically
 * linked library) while this rank's compiled program runs through
 * totex_mpi_exec() on the communicator (unit-step schedules octr, sym2
 * multiport and a2 single-port where they apply to the communicator's
 * torus; 1 chunk, 2 and 3 chunks with staggered lanes, 3 without; blocks of
 * 8, 1000 and 4099 bytes; the default and the tightest arena; windows of 1,
 * 2 and 7 receives and none; two runs of each plan):
 *  - receives are posted in program order, and receive r, posted while send
 *    s is the next to be made, lies below sends[s].recv_before + window;
 *  - at every MPI_Irecv the receives posted past the forced point and not yet
 *    completed (their request not freed by the executor's waits) are at most
 *    the window: what is outstanding is the window plus what forced posting
 *    requires;
 *  - and behind it: once send s - 1 is made, every receive of data (not a
 *    kick's) more than two windows before its forced point has been waited
 *    for (run.c: else SimGrid keeps them in a list it walks at every
 *    completion);
 *  - the executor's own count (p->prog->recv_ahead_max) agrees with this one;
 *  - the result is byte for byte PMPI_Alltoall's;
 *  - without a window, some rank of each plan of at least 2 chunks posts
 *    more than 7 receives ahead (so that the windows tested do bind).
 * Run under mpirun with 8 to 16 ranks; exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "plan_support.h"
#include "mpi_support.h"

static int failures, rank;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (failures++ < 20)                                                                                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
    } while (0)

/* what the interposed calls see of the run in progress (NULL: none) */
static struct {
    const totex_mpi_plan *p;
    const char *what;
    size_t posted;    /* receives posted so far (in order: receive posted == the next one) */
    size_t next_send; /* sends made so far (in order): the next one to be made */
    size_t ahead_max; /* most receives posted past the forced point */
    size_t open_max;  /* most receives past the forced point posted and not yet completed */
    size_t total_max; /* most receives posted and not yet completed */
} watch;

static size_t forced_point(void)
{
    const totex_mpi_plan *p = watch.p;
    return watch.next_send < p->prog->nsend ? p->prog->sends[watch.next_send].recv_before : p->prog->nrecv;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    const totex_mpi_plan *p = watch.p;
    if (p) {
        const size_t r = (size_t)(req - p->req), must = forced_point(), w = p->prog->recv_window;
        if (req < p->req || r >= p->prog->nrecv || r != watch.posted)
            FAIL("FAIL rank %d %s: receive %zu posted, receive %zu expected\n", rank, watch.what, r, watch.posted);
        watch.posted = r + 1;
        if (r >= must && r + 1 - must > watch.ahead_max)
            watch.ahead_max = r + 1 - must;
        if (w && r >= must + w)
            FAIL("FAIL rank %d %s: receive %zu posted before send %zu (forced point %zu), window %zu\n", rank,
                 watch.what, r, watch.next_send, must, w);
        size_t open = 1; /* this one */
        for (size_t k = must; k < r; k++)
            open += p->req[k] != MPI_REQUEST_NULL;
        if (open > watch.open_max)
            watch.open_max = open;
        if (w && open > w)
            FAIL("FAIL rank %d %s: %zu receives past the forced point outstanding, window %zu\n", rank, watch.what,
                 open, w);
        /* behind: after send s - 1, the receives more than 2 windows before its forced point were waited for */
        const size_t back = watch.next_send ? p->prog->sends[watch.next_send - 1].recv_before : 0;
        size_t total = 1;
        for (size_t k = 0; k < r; k++) {
            total += p->req[k] != MPI_REQUEST_NULL;
            if (w && back > 2 * w && k < back - 2 * w && !p->prog->recvs[k].kick && p->req[k] != MPI_REQUEST_NULL)
                FAIL("FAIL rank %d %s: receive %zu not yet waited for at send %zu (forced point %zu), window %zu\n",
                     rank, watch.what, k, watch.next_send, back, w);
        }
        if (total > watch.total_max)
            watch.total_max = total;
    }
    return PMPI_Irecv(buf, count, type, src, tag, comm, req);
}

static void sent(MPI_Request *req)
{
    const totex_mpi_plan *p = watch.p;
    if (!p)
        return;
    const size_t s = (size_t)(req - p->req) - p->prog->nrecv;
    if (req < p->req + p->prog->nrecv || s >= p->prog->nsend || s != watch.next_send)
        FAIL("FAIL rank %d %s: send %zu made, send %zu expected\n", rank, watch.what, s, watch.next_send);
    watch.next_send = s + 1;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm, MPI_Request *req)
{
    sent(req);
    return PMPI_Isend(buf, count, type, dst, tag, comm, req);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm, MPI_Request *req)
{
    sent(req);
    return PMPI_Issend(buf, count, type, dst, tag, comm, req);
}

/* this rank's program of @p a on @p net (rank = node); NULL on failure (reported) */
static totex_mpi_plan *compile(const char *what, const totex_network *net, const totex_algorithm *a, totex_ports ports,
                               uint32_t me, long long slot, int chunks, int stagger, int tight)
{
    char why[300] = "";
    totex_mpi_plan *p = mpi_test_compile_unit(net, a, ports, me, slot, chunks, stagger, tight, 0, why, sizeof why);
    if (!p)
        FAIL("FAIL rank %u %s: %s\n", me, what, why);
    return p;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm comm;
    totex_network *net = mpi_test_world_torus(&comm, &rank, &size);
    const char *spec = totex_network_spec(net);
    totex_error err;
    static const struct {
        const char *name;
        totex_ports ports;
    } algs[] = {{"octr", TOTEX_PORTS_MULTI}, {"sym2", TOTEX_PORTS_MULTI}, {"a2", TOTEX_PORTS_SINGLE}};
    static const struct {
        int chunks, stagger;
    } lanes[] = {{1, 0}, {2, 1}, {3, 1}, {3, 0}, {2, 2}}; /* (2: after start rounds) */
    static const long long slots[] = {8, 1000, 4099};
    static const size_t windows[] = {0, 1, 2, 7};
    int runs = 0, unbound = 0;
    size_t most[4] = {0, 0, 0, 0}; /* per window: most receives outstanding on this rank */
    for (size_t ai = 0; ai < sizeof algs / sizeof algs[0]; ai++) {
        const totex_algorithm *a = totex_algorithm_find(algs[ai].name, &err);
        if (!a || a->applies(net, algs[ai].ports, &err) != TOTEX_OK)
            continue;
        for (size_t li = 0; li < sizeof lanes / sizeof lanes[0]; li++) {
            for (size_t si = 0; si < sizeof slots / sizeof slots[0]; si++)
                for (int tight = 0; tight <= 1; tight++) {
                    const size_t len = (size_t)size * (size_t)slots[si];
                    unsigned char *send = malloc(len), *ref = malloc(len), *got = malloc(len);
                    mpi_test_fill(send, len, rank, (int)(si * 7 + li));
                    PMPI_Alltoall(send, (int)slots[si], MPI_BYTE, ref, (int)slots[si], MPI_BYTE, comm);
                    char what[200];
                    snprintf(what, sizeof what, "%s on %s, %lld B, %d chunk%s%s, %s arena", algs[ai].name, spec,
                             slots[si], lanes[li].chunks, lanes[li].chunks > 1 ? "s" : "",
                             lanes[li].stagger == 2 ? " staggered after start rounds" : lanes[li].stagger ? " staggered" : "", tight ? "tightest" : "default");
                    totex_mpi_plan *p = compile(what, net, a, algs[ai].ports, (uint32_t)rank, slots[si],
                                                lanes[li].chunks, lanes[li].stagger, tight);
                    for (size_t wi = 0; p && wi < sizeof windows / sizeof windows[0]; wi++)
                        for (int again = 0; again < 2; again++) {
                            char w[240];
                            snprintf(w, sizeof w, "%s, window %zu, run %d", what, windows[wi], again + 1);
                            p->prog->recv_window = windows[wi];
                            p->prog->recv_ahead_max = 0;
                            memset(got, 0xEE, len);
                            watch.p = p;
                            watch.what = w;
                            watch.posted = watch.next_send = watch.ahead_max = watch.open_max = watch.total_max = 0;
                            int rc = totex_mpi_exec(p, comm, TOTEX_MPI_PLAN_TAG, NULL, 0, (const char *)send,
                                                    (char *)got, 1);
                            watch.p = NULL;
                            runs++;
                            if (watch.total_max > most[wi])
                                most[wi] = watch.total_max;
                            if (rc != MPI_SUCCESS || memcmp(ref, got, len))
                                FAIL("FAIL rank %d %s: rc %d, result %s\n", rank, w, rc,
                                     memcmp(ref, got, len) ? "differs from PMPI_Alltoall" : "ok");
                            if (watch.posted != p->prog->nrecv || watch.next_send != p->prog->nsend)
                                FAIL("FAIL rank %d %s: %zu of %zu receives posted, %zu of %zu sends made\n", rank, w,
                                     watch.posted, p->prog->nrecv, watch.next_send, p->prog->nsend);
                            if (p->prog->recv_ahead_max != watch.ahead_max)
                                FAIL("FAIL rank %d %s: the executor counts %zu receives ahead at most, MPI_Irecv "
                                     "saw %zu\n",
                                     rank, w, p->prog->recv_ahead_max, watch.ahead_max);
                            /* without a window: do the windows tested bind on some rank? */
                            int over = windows[wi] == 0 && watch.ahead_max > 7, any = 0;
                            MPI_Allreduce(&over, &any, 1, MPI_INT, MPI_LOR, comm);
                            if (windows[wi] == 0 && !again && lanes[li].chunks > 1 && !any)
                                unbound++;
                        }
                    totex_mpi_plan_free(p);
                    free(send);
                    free(ref);
                    free(got);
                }
            if (rank == 0) /* a line per algorithm and lanes: a hang is a test without output */
                printf("test_recv_window: %s on %s, %d chunk%s%s: done\n", algs[ai].name, spec, lanes[li].chunks,
                       lanes[li].chunks > 1 ? "s" : "", lanes[li].stagger ? " staggered" : "");
            fflush(stdout);
        }
    }
    if (unbound && rank == 0)
        FAIL("FAIL %s: %d plans of 2 chunks or more post at most 7 receives ahead without a window: the windows "
             "tested do not bind\n",
             spec, unbound);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, comm);
    if (rank == 0)
        printf("test_recv_window: %d ranks, %d runs per rank; most receives outstanding on rank 0 with windows "
               "%zu, %zu, %zu, none: %zu, %zu, %zu, %zu; %s\n",
               size, runs, windows[1], windows[2], windows[3], most[1], most[2], most[3], most[0],
               all ? "FAILED" : "passed");
    totex_network_free(net);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return all ? 1 : 0;
}
