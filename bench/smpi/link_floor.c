/*
 * SimGrid SMPI floor of one link: the bytes a total exchange moves over its busiest link (the multiport
 * cut bound in steps times the block) between two neighbouring hosts of the bench's torus, both
 * directions at once (as in a total exchange, so that SimGrid's reverse-link cross-traffic is there), in
 * the forms a schedule can use. Built with smpicc and run by bench/smpi/link_floor.sh on 2 ranks (hosts
 * node-0 and node-1, neighbours in the torus's first side):
 *   link_floor BLOCK CUT [FLOWS...]
 * Forms, each from a common simulated start (both ranks sleep to the same moment after a barrier) to the
 * moment the last byte has arrived at both ends:
 *   serial 1 BLOCK     the CUT blocks one message after another (each sent when the one before arrived)
 *   one    1 CUT*BLOCK the CUT blocks in one message
 *   flows  F CUT*BLOCK/F  the bytes in F messages posted at once (F from FLOWS; default CUT, 2 CUT, 4 CUT:
 *                         whole blocks, halves, quarters, as a schedule in chunks sends them, and messages
 *                         of 8 KiB and 4 KiB where those are not among them)
 * Output, one line per form: "floor FORM FLOWS MESSAGE_BYTES SECONDS" (rank 0). No totex code runs here:
 * it measures what SimGrid's network model (its factors, its cross-traffic) allows any schedule.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <smpi/smpi.h>

/* both ranks start at the same simulated moment: the later barrier exit plus 10 us */
static void align(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double now = MPI_Wtime(), go = 0;
    MPI_Allreduce(&now, &go, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    go += 10e-6;
    now = MPI_Wtime();
    if (go > now)
        smpi_execute(go - now);
}

/* F messages of len bytes each way, all posted at once (serial: one after another); seconds from the
   common start to the last arrival at either end */
static double run(int peer, unsigned char *sbuf, unsigned char *rbuf, int f, long len, int serial)
{
    MPI_Request *rq = malloc((size_t)2 * (size_t)f * sizeof *rq);
    if (!rq)
        MPI_Abort(MPI_COMM_WORLD, 1);
    align();
    double t0 = MPI_Wtime();
    if (serial) {
        for (int i = 0; i < f; i++)
            MPI_Sendrecv(sbuf + (size_t)i * (size_t)len, (int)len, MPI_BYTE, peer, i, rbuf + (size_t)i * (size_t)len,
                         (int)len, MPI_BYTE, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        for (int i = 0; i < f; i++)
            MPI_Irecv(rbuf + (size_t)i * (size_t)len, (int)len, MPI_BYTE, peer, i, MPI_COMM_WORLD, &rq[i]);
        for (int i = 0; i < f; i++)
            MPI_Isend(sbuf + (size_t)i * (size_t)len, (int)len, MPI_BYTE, peer, i, MPI_COMM_WORLD, &rq[f + i]);
        MPI_Waitall(2 * f, rq, MPI_STATUSES_IGNORE);
    }
    double t = MPI_Wtime() - t0, worst = 0;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    free(rq);
    return worst;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long block = argc > 1 ? atol(argv[1]) : 0, cut = argc > 2 ? atol(argv[2]) : 0;
    if (size != 2 || block < 8 || block > (1L << 24) || cut < 1 || cut > 1024) {
        if (rank == 0)
            fprintf(stderr, "usage: %s BLOCK(8 .. 16777216 bytes) CUT(1 .. 1024 steps) [FLOWS...] on 2 ranks\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    const long total = block * cut;
    unsigned char *sbuf = calloc((size_t)total, 1), *rbuf = calloc((size_t)total, 1);
    if (!sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    const int peer = 1 - rank;
    double t = run(peer, sbuf, rbuf, (int)cut, block, 1);
    if (rank == 0)
        printf("floor serial %ld %ld %.9e\n", 1L, block, t);
    t = run(peer, sbuf, rbuf, 1, total, 0);
    if (rank == 0)
        printf("floor one %ld %ld %.9e\n", 1L, total, t);
    /* default: messages of a block, half and a quarter of one, and of 8 and 4 KiB (SMPI's default factors
       give messages of 5776 .. 9375 bytes their best bandwidth), each count once */
    long deflt[5] = {cut, 2 * cut, 4 * cut, 0, 0};
    int nf = argc > 3 ? argc - 3 : 3;
    for (long m = 8192; argc <= 3 && m >= 4096; m /= 2) {
        int seen = total % m != 0 || total / m > 4096;
        for (int i = 0; i < nf; i++)
            seen |= deflt[i] == total / m;
        if (!seen)
            deflt[nf++] = total / m;
    }
    for (int i = 0; i < nf; i++) {
        long f = argc > 3 ? atol(argv[3 + i]) : deflt[i];
        if (f < 1 || f > 4096 || total % f) {
            if (rank == 0)
                fprintf(stderr, "%s: FLOWS %ld does not divide %ld bytes in 1 .. 4096 messages\n", argv[0], f, total);
            continue;
        }
        t = run(peer, sbuf, rbuf, (int)f, total / f, 0);
        if (rank == 0)
            printf("floor flows %ld %ld %.9e\n", f, total / f, t);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
