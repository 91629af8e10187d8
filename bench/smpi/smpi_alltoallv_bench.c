/*
 * SimGrid SMPI benchmark of non-uniform total exchange: times
 * one MPI_Alltoallv implementation on a periodic Cartesian communicator laid over
 * the simulated torus, for every demand kind and mean block size asked.
 * Built with smpicc and run by bench/smpi/alltoallv.sh once per implementation:
 *   smpi_alltoallv_bench totex D1xD2[xD3] ITERS KINDS MEANS  -> totex_alltoallv
 *   smpi_alltoallv_bench mpi   D1xD2[xD3] ITERS KINDS MEANS  -> MPI_Alltoallv (the SMPI
 *       algorithm chosen with --cfg=smpi/alltoallv:NAME)
 *   smpi_alltoallv_bench a2a   D1xD2[xD3] ITERS uniform MEANS -> totex_alltoall of the
 *       same uniform blocks (what MPI_Alltoallv with uniform counts is compared with)
 * KINDS: comma-separated of uniform, zipf, hotspot, random; MEANS: comma-separated
 * mean bytes per pair. The demand W (bytes from rank i to rank j, self included) is
 * this file's seeded generator (seed 1), each rank computing its own row and column:
 *   uniform  W = M;
 *   zipf     destinations' popularity Zipf with exponent 1 over a seeded permutation
 *            of the ranks, W(i,j) = M n p(j) (the mixture-of-experts case);
 *   hotspot  K = max(1, n/8) ranks (every 8th) receive 8 times what the others do,
 *            mean M;
 *   random   uniform on [0, 2M] per pair (a hash of seed, i, j).
 * Per kind and mean: WARMUP (5; -DWARMUP=N) untimed calls, a barrier, ITERS calls, a barrier (since 2026-11-30:
 * no rank starts the next case while another is still timed); the timed calls are the steady state
 * of an exchange repeated with the same counts (totex's "balanced" plans only for totals seen on two
 * calls in a row, src/mpi/alltoallv.c; one untimed call before session 24); the slowest rank's
 * simulated seconds per call are printed as
 *   "<impl> <kind> <mean> <seconds per call> <ok|WRONG>"
 * (ok: every received byte is the fill formula's). Rank 0 (impl totex) also prints
 *   "bound <kind> <mean> <inject> <cut> <hopbytes>"
 * in seconds at 10 GB/s links: inject, the most bytes a node sends to or receives
 * from other nodes over its 2d links; cut, for every dimension and every arc of its
 * ring (every length and offset, lifted to the whole torus), the bytes crossing the
 * arc's 2 n/k links each way (before 2026-11-29 session 22: arcs of half the ring
 * only, below the LP optimum on 8x8 and 4x4x4 hotspot); hopbytes, the sum of
 * W(i,j) times the torus distance over all n 2d links. No schedule beats the largest.
 * With SMPI_DEMAND_DIR set, rank 0 (impl totex) also writes each demand as
 * DIR/demand-KIND-MEAN.csv (n lines of n byte counts, docs/demand.md's CSV, node id =
 * rank as `totex bounds torus:D1xD2[xD3] --demand FILE` numbers it), from which
 * alltoallv.sh takes the exact fluid optimum (the LP), the best bound up to 64 nodes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* untimed calls per case before the timed ones (-DWARMUP=1 for a quicker run of one form forced with
   TOTEX_ALLTOALLV: 5 gives the measured choice its trials) */
#ifndef WARMUP
#define WARMUP 5
#endif
#include <string.h>

#include <mpi.h>

#include "smpi_torus.h"
#include "totex/mpi.h"

#define LINK_BPS 1e10

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* the seeded permutation of zipf's popularity ranks: rank of destination j */
static int *zipf_rank(int n)
{
    int *p = malloc(n * sizeof *p);
    for (int j = 0; j < n; j++)
        p[j] = j;
    uint64_t s = 1;
    for (int j = n - 1; j > 0; j--) {
        s = mix64(s);
        int k = (int)(s % (uint64_t)(j + 1)), t = p[j];
        p[j] = p[k];
        p[k] = t;
    }
    return p;
}

/* bytes rank i sends rank j */
static int demand(const char *kind, long m, int i, int j, int n, const int *zr, double hn)
{
    if (!strcmp(kind, "zipf"))
        return (int)llround((double)m * n / ((zr[j] + 1) * hn));
    if (!strcmp(kind, "hotspot")) {
        const int k = n / 8 > 0 ? n / 8 : 1;
        const double unit = (double)m * n / (8.0 * k + (n - k));
        return (int)llround(j % 8 == 0 && j / 8 < k ? 8 * unit : unit);
    }
    if (!strcmp(kind, "random"))
        return (int)(mix64(mix64(1) ^ ((uint64_t)i << 32 | (uint32_t)j)) % (uint64_t)(2 * m + 1));
    return (int)m;
}

static unsigned char fillb(int src, int dst, long k) { return (unsigned char)(src * 131 + dst * 29 + k * 7 + (k >> 8)); }

/* the lower bounds of the demand on torus dims[0..nd) (node id = rank, first dimension fastest), seconds */
static void bounds(const char *kind, long m, int n, int nd, const int *dims, const int *zr, double hn, double out[3])
{
    int stride[3] = {1, 1, 1};
    for (int d = 1; d < nd; d++)
        stride[d] = stride[d - 1] * dims[d - 1];
    double inj = 0, hop = 0, cut = 0;
    double *row = calloc(n, sizeof *row), *col = calloc(n, sizeof *col);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j)
                continue;
            double w = demand(kind, m, i, j, n, zr, hn);
            row[i] += w;
            col[j] += w;
            int dist = 0;
            for (int d = 0; d < nd; d++) {
                int a = i / stride[d] % dims[d], b = j / stride[d] % dims[d], x = abs(a - b);
                dist += x < dims[d] - x ? x : dims[d] - x;
            }
            hop += w * dist;
        }
    for (int i = 0; i < n; i++) {
        double t = (row[i] > col[i] ? row[i] : col[i]) / (2.0 * nd * LINK_BPS);
        if (t > inj)
            inj = t;
    }
    /* the demand once, n x n (n <= 512 here: 2 MiB), for the cuts */
    double *w = malloc((size_t)n * n * sizeof *w);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            w[(size_t)i * n + j] = i == j ? 0 : demand(kind, m, i, j, n, zr, hn);
    /* every arc of dimension d's ring, of every length 1 .. k - 1 and at every offset, lifted to the whole torus
       (000 eq. (4), Theorem 5; as `totex bounds --demand`): the nodes whose coordinate d lies in the arc on one
       side, 2 links each way per ring line (k > 2; k = 2: 1, the K2 link), n / k lines */
    for (int d = 0; d < nd; d++) {
        const int k = dims[d];
        for (int off = 0; off < k; off++)
            for (int len = 1; len < k; len++) {
                double ab = 0, ba = 0;
                for (int i = 0; i < n; i++) {
                    const int ai = (i / stride[d] % k - off + k) % k < len;
                    for (int j = 0; j < n; j++) {
                        const int aj = (j / stride[d] % k - off + k) % k < len;
                        if (ai && !aj)
                            ab += w[(size_t)i * n + j];
                        else if (!ai && aj)
                            ba += w[(size_t)i * n + j];
                    }
                }
                const double links = (k > 2 ? 2.0 : 1.0) * (n / k) * LINK_BPS;
                double t = (ab > ba ? ab : ba) / links;
                if (t > cut)
                    cut = t;
            }
    }
    free(w);
    out[0] = inj;
    out[1] = cut;
    out[2] = hop / ((double)n * 2 * nd * LINK_BPS);
    free(row);
    free(col);
}

/* the demand as docs/demand.md's CSV, DIR/demand-KIND-MEAN.csv; 0 on success */
static int write_demand(const char *dir, const char *kind, long m, int n, const int *zr, double hn)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/demand-%s-%ld.csv", dir, kind, m);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "smpi_alltoallv_bench: cannot write %s (SMPI_DEMAND_DIR must be a writable folder)\n", path);
        return 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            fprintf(f, "%d%c", i == j ? 0 : demand(kind, m, i, j, n, zr, hn), j + 1 < n ? ',' : '\n');
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[3] = {1, 1, 1}, nd = 0;
    const char *impl = argc > 1 ? argv[1] : "";
    const int totex = !strcmp(impl, "totex"), a2a = !strcmp(impl, "a2a");
    if (argc > 2)
        nd = sscanf(argv[2], "%dx%dx%d", &dims[0], &dims[1], &dims[2]);
    int iters = argc > 3 ? atoi(argv[3]) : 2;
    if ((!totex && !a2a && strcmp(impl, "mpi")) || nd < 1 || dims[0] * dims[1] * dims[2] != size || iters < 1 ||
        argc < 6) {
        if (rank == 0)
            fprintf(stderr, "usage: %s totex|mpi|a2a D1xD2[xD3] ITERS KINDS MEANS\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm cart = smpi_torus_comm(nd, dims); /* rank r on simulated host node-r */
    int *zr = zipf_rank(size);
    double hn = 0;
    for (int k = 1; k <= size; k++)
        hn += 1.0 / k;
    int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int)), *rc = malloc(size * sizeof(int)),
        *rd = malloc(size * sizeof(int));
    int status = 0;
    char kinds[256], means[256];
    snprintf(kinds, sizeof kinds, "%s", argv[4]);
    snprintf(means, sizeof means, "%s", argv[5]);
    for (char *ks = NULL, *kind = strtok_r(kinds, ",", &ks); kind; kind = strtok_r(NULL, ",", &ks)) {
        char mcopy[256];
        snprintf(mcopy, sizeof mcopy, "%s", means);
        for (char *ms = NULL, *mw = strtok_r(mcopy, ",", &ms); mw; mw = strtok_r(NULL, ",", &ms)) {
            const long m = atol(mw);
            long st = 0, rt = 0;
            for (int j = 0; j < size; j++) {
                sc[j] = demand(kind, m, rank, j, size, zr, hn);
                rc[j] = demand(kind, m, j, rank, size, zr, hn);
                sd[j] = (int)st;
                rd[j] = (int)rt;
                st += sc[j];
                rt += rc[j];
            }
            unsigned char *s = malloc((size_t)st + 1), *r = malloc((size_t)rt + 1);
            for (int j = 0; j < size; j++)
                for (long k = 0; k < sc[j]; k++)
                    s[sd[j] + k] = fillb(rank, j, k);
            double t = 0;
            for (int rep = 0; rep < WARMUP + iters; rep++) {
                if (rep == WARMUP) {
                    MPI_Barrier(cart);
                    t = MPI_Wtime();
                }
                int err = a2a     ? totex_alltoall(s, (int)m, MPI_BYTE, r, (int)m, MPI_BYTE, cart)
                          : totex ? totex_alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, cart)
                                  : MPI_Alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, cart);
                if (err != MPI_SUCCESS)
                    status = 1;
            }
            t = (MPI_Wtime() - t) / iters;
            /* every rank done with the timed calls before any starts the next case: without it a rank that
               returned early sent its share of the next case's untimed call over links the slowest rank's timed
               call still used, and the slowest rank's time depended on the cases after it (8x8 random 64 KiB:
               541.94 us alone, 736.96 us before uniform; docs/performance.md, session 23) */
            MPI_Barrier(cart);
            int ok = 1;
            for (int i = 0; i < size && ok; i++)
                for (long k = 0; k < rc[i]; k++)
                    if (r[rd[i] + k] != fillb(i, rank, k)) {
                        ok = 0;
                        break;
                    }
            double tmax = 0;
            int allok = 0;
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
            MPI_Reduce(&ok, &allok, 1, MPI_INT, MPI_MIN, 0, cart);
            if (rank == 0) {
                printf("%s %s %ld %.9g %s\n", totex ? "totex" : a2a ? "a2a" : "mpi", kind, m, tmax,
                       allok ? "ok" : "WRONG");
                if (totex) {
                    double b[3];
                    bounds(kind, m, size, nd, dims, zr, hn, b);
                    printf("bound %s %ld %.9g %.9g %.9g\n", kind, m, b[0], b[1], b[2]);
                    const char *dir = getenv("SMPI_DEMAND_DIR");
                    if (dir && *dir && write_demand(dir, kind, m, size, zr, hn))
                        status = 1;
                }
                fflush(stdout);
            }
            free(s);
            free(r);
        }
    }
    free(sc), free(sd), free(rc), free(rd), free(zr);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return status;
}
