/* PROTOTYPE (session 26, issue 30), not a library feature: an executor of neighbour steps, on SimGrid SMPI.
 *
 * usage: smpirun -np N ... stepped_proto SCHEDULE VARIANT [WARMUP [ITERS]]
 *   SCHEDULE  a file of bench/smpi/stepped_plan.py --out (per rank, per step, the bytes it sends to and
 *             receives from each torus neighbour; for a send, the receives it forwards from)
 *   VARIANT   strict      each step: post its receives and sends, wait for all of them, then the next step
 *             pipe:P      every receive posted at the start; a send goes as soon as the receives it forwards
 *                         from have come and the rank has no send of P or more steps before it unfinished
 *                         (pipe:0: no such limit, only the data dependencies; SMPI completes a send
 *                         below smpi/send-is-detached-thresh, 64 KiB by default, as soon as it is posted)
 *             win:P       as pipe:P, but the limit counts the rank's receives too: a send of step s goes
 *                         when every send and receive of the rank's steps up to s - P has finished
 *                         (win:1: strict with every receive posted at the start)
 *             any of them with /K (strict/8, pipe:1/8): every message sent as K messages of a K-th of its
 *                         bytes each, posted together (SMPI's default factors charge a message of 64 KiB or
 *                         more 11.6 x the link latency); a send's chunks wait for all chunks of what it forwards
 *   WARMUP    untimed runs before the timed ones (default 3)
 *   ITERS     timed runs (default 3), each from a barrier
 *
 * What it measures: the simulated time of a run of the schedule, from a barrier, on the slowest rank (as
 * smpi_alltoallv_bench.c times its calls), printed by rank 0 as
 *   stepped VARIANT steps S us T mean M bytes B
 * T: the first timed run, M: the mean of the ITERS timed runs (each rank's own mean, the slowest rank's).
 * The byte counts are the schedule's, the content is not real data (one send buffer of zeros shared by every
 * send). Every message is one hop (node ids = ranks, the hosts of bench/smpi/platform.sh), tag = its step x K +
 * its chunk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

typedef struct {
    int step, peer, tag;
    long bytes;
    int ndeps;
    int *deps; /* indices into the rank's receives */
} msg_t;

static int cmp_step(const void *a, const void *b)
{
    const msg_t *x = a, *y = b;
    return x->step != y->step ? x->step - y->step : x->peer - y->peer;
}

static void die(const char *what)
{
    fprintf(stderr, "stepped_proto: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3)
        die("usage: stepped_proto SCHEDULE strict|pipe:P [WARMUP]");
    int depth = -1, win = 0, K = 1; /* -1 strict */
    const char *slash = strchr(argv[2], '/');
    if (slash && (K = atoi(slash + 1)) < 1)
        die("VARIANT/K needs K >= 1");
    if (strncmp(argv[2], "pipe:", 5) == 0)
        depth = atoi(argv[2] + 5);
    else if (strncmp(argv[2], "win:", 4) == 0) {
        depth = atoi(argv[2] + 4);
        win = 1;
    } else if (strncmp(argv[2], "strict", 6) != 0 || (argv[2][6] != '\0' && argv[2][6] != '/'))
        die("VARIANT is strict, pipe:P or win:P");
    if (win && depth < 1)
        die("win:P needs P >= 1");
    int warmup = argc > 3 ? atoi(argv[3]) : 3, iters = argc > 4 ? atoi(argv[4]) : 3;
    if (warmup < 0 || iters < 1)
        die("WARMUP is at least 0 and ITERS at least 1");

    FILE *fh = fopen(argv[1], "r");
    if (!fh)
        die("cannot open the schedule");
    int n, nsteps;
    if (fscanf(fh, "steps %d %d", &n, &nsteps) != 2 || n != size)
        die("schedule header is not 'steps N S' with N the number of ranks");
    int cap_s = 64, cap_r = 64, ns = 0, nr = 0;
    msg_t *sends = malloc(sizeof(msg_t) * (size_t)cap_s), *recvs = malloc(sizeof(msg_t) * (size_t)cap_r);
    /* deps as (step, peer) until the receives are indexed */
    char kind[4];
    while (fscanf(fh, "%3s", kind) == 1) {
        int r, s, p;
        long b;
        if (fscanf(fh, "%d %d %d %ld", &r, &s, &p, &b) != 4)
            die("bad line");
        if (kind[0] == 'R') {
            if (r != rank)
                continue;
            if (nr == cap_r)
                recvs = realloc(recvs, sizeof(msg_t) * (size_t)(cap_r *= 2));
            recvs[nr++] = (msg_t){s, p, s, b, 0, NULL};
        } else {
            int k;
            if (fscanf(fh, "%d", &k) != 1)
                die("bad send line");
            int *d = malloc(sizeof(int) * (size_t)(2 * k + 1));
            for (int q = 0; q < 2 * k; q++)
                if (fscanf(fh, "%d", &d[q]) != 1)
                    die("bad send deps");
            if (r != rank) {
                free(d);
                continue;
            }
            if (ns == cap_s)
                sends = realloc(sends, sizeof(msg_t) * (size_t)(cap_s *= 2));
            sends[ns++] = (msg_t){s, p, s, b, k, d};
        }
    }
    fclose(fh);
    qsort(recvs, (size_t)nr, sizeof(msg_t), cmp_step);
    /* sends keep their deps' order: sort by step, then resolve the deps to receive indices */
    qsort(sends, (size_t)ns, sizeof(msg_t), cmp_step);
    long maxsend = 1, totrecv = 0, totsend = 0;
    for (int i = 0; i < ns; i++) {
        if (sends[i].bytes > maxsend)
            maxsend = sends[i].bytes;
        totsend += sends[i].bytes;
        for (int q = 0; q < sends[i].ndeps; q++) {
            int ds = sends[i].deps[2 * q], dp = sends[i].deps[2 * q + 1], found = -1;
            for (int j = 0; j < nr; j++)
                if (recvs[j].step == ds && recvs[j].peer == dp) {
                    found = j;
                    break;
                }
            if (found < 0)
                die("a send depends on a receive the schedule does not have");
            sends[i].deps[q] = found;
        }
    }
    if (K > 1) { /* every message as K chunks, in the same (step) order */
        msg_t *r2 = malloc(sizeof(msg_t) * (size_t)nr * (size_t)K);
        msg_t *s2 = malloc(sizeof(msg_t) * (size_t)ns * (size_t)K);
        for (int j = 0; j < nr; j++)
            for (int c = 0; c < K; c++)
                r2[j * K + c] = (msg_t){recvs[j].step, recvs[j].peer, recvs[j].step * K + c,
                                        recvs[j].bytes / K + (c < recvs[j].bytes % K), 0, NULL};
        for (int i = 0; i < ns; i++) {
            for (int c = 0; c < K; c++) {
                int *d = malloc(sizeof(int) * (size_t)(sends[i].ndeps * K + 1));
                for (int q = 0; q < sends[i].ndeps; q++)
                    for (int e = 0; e < K; e++)
                        d[q * K + e] = sends[i].deps[q] * K + e;
                s2[i * K + c] = (msg_t){sends[i].step, sends[i].peer, sends[i].step * K + c,
                                        sends[i].bytes / K + (c < sends[i].bytes % K), sends[i].ndeps * K, d};
            }
            free(sends[i].deps);
        }
        free(recvs);
        free(sends);
        recvs = r2;
        sends = s2;
        nr *= K;
        ns *= K;
        maxsend = maxsend / K + 1;
    }
    long *roff = malloc(sizeof(long) * (size_t)(nr + 1));
    for (int j = 0; j < nr; j++) {
        roff[j] = totrecv;
        totrecv += recvs[j].bytes;
    }
    char *sbuf = calloc((size_t)maxsend, 1), *rbuf = malloc((size_t)totrecv + 1);
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(ns + nr + 1));
    int *done = malloc(sizeof(int) * (size_t)(ns + nr + 1)), *posted = malloc(sizeof(int) * (size_t)(ns + 1));

    double t = 0, first = 0, sum = 0;
    for (int rep = 0; rep < warmup + iters; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime();
        if (depth < 0) {
            int a = 0, b = 0;
            for (int s = 0; s < nsteps; s++) {
                int k = 0;
                for (; a < nr && recvs[a].step == s; a++)
                    MPI_Irecv(rbuf + roff[a], (int)recvs[a].bytes, MPI_BYTE, recvs[a].peer, recvs[a].tag, MPI_COMM_WORLD,
                              &req[k++]);
                for (; b < ns && sends[b].step == s; b++)
                    MPI_Isend(sbuf, (int)sends[b].bytes, MPI_BYTE, sends[b].peer, sends[b].tag, MPI_COMM_WORLD,
                              &req[k++]);
                MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
            }
        } else {
            /* req[0 .. nr): receives, req[nr ..): sends */
            for (int j = 0; j < nr; j++) {
                MPI_Irecv(rbuf + roff[j], (int)recvs[j].bytes, MPI_BYTE, recvs[j].peer, recvs[j].tag,
                          MPI_COMM_WORLD, &req[j]);
                done[j] = 0;
            }
            for (int i = 0; i < ns; i++) {
                posted[i] = 0;
                done[nr + i] = 0;
                req[nr + i] = MPI_REQUEST_NULL;
            }
            int left = nr + ns, lo = 0, rlo = 0; /* lo (rlo): the first send (receive) not finished */
            while (left > 0) {
                while (lo < ns && done[nr + lo])
                    lo++;
                while (rlo < nr && done[rlo])
                    rlo++;
                int lim = lo < ns ? sends[lo].step + depth : 0;
                if (win && rlo < nr && recvs[rlo].step + depth < lim)
                    lim = recvs[rlo].step + depth;
                for (int i = lo; i < ns; i++) {
                    if (posted[i])
                        continue;
                    if (depth > 0 && sends[i].step >= lim)
                        break;
                    int ready = 1;
                    for (int q = 0; q < sends[i].ndeps && ready; q++)
                        ready = done[sends[i].deps[q]];
                    if (!ready)
                        continue;
                    MPI_Isend(sbuf, (int)sends[i].bytes, MPI_BYTE, sends[i].peer, sends[i].tag, MPI_COMM_WORLD,
                              &req[nr + i]);
                    posted[i] = 1;
                }
                /* MPI_Waitany, not MPI_Waitsome: SimGrid 3.32's waitsome tests, and SMPI charges simulated
                   time per test (smpi/test) */
                int one;
                MPI_Waitany(nr + ns, req, &one, MPI_STATUS_IGNORE);
                if (one == MPI_UNDEFINED)
                    die("nothing to wait for with messages left: a schedule's dependency cycle");
                done[one] = 1;
                left--;
            }
        }
        t = MPI_Wtime() - t;
        if (rep == warmup)
            first = t;
        if (rep >= warmup)
            sum += t;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double tm[2] = {first, sum / iters}, tmax[2] = {0, 0};
    long bytes = totsend, allbytes = 0;
    MPI_Reduce(tm, tmax, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bytes, &allbytes, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("stepped %s steps %d us %.2f mean %.2f bytes %ld\n", argv[2], nsteps, tmax[0] * 1e6, tmax[1] * 1e6,
               allbytes);
    for (int i = 0; i < ns; i++)
        free(sends[i].deps);
    free(sends);
    free(recvs);
    free(roff);
    free(sbuf);
    free(rbuf);
    free(req);
    free(done);
    free(posted);
    MPI_Finalize();
    return 0;
}
