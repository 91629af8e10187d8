/* Stress test of totex_alltoall's cross-rank check (src/mpi/agree.c, docs/mpi.md
 * "The cross-rank check"): a sequence of calls drawn from a seed that every rank
 * shares, mixing correct calls (block sizes already planned and new ones, count
 * 0, several communicators) with wrong ones (one or two ranks with another
 * size, count 0, a negative count, MPI_DATATYPE_NULL; the odd ranks drawn at
 * random). Every correct call must succeed and agree byte for byte with
 * PMPI_Alltoall on the same input; every wrong call must return an error on
 * every rank (the class expected when a single rank is wrong); no call may
 * hang (CTest's time-out). The test knows the expected outcome from the
 * arguments alone, independently of totex.
 *
 * Usage: test_mismatch [CALLS [SEED]]   (default 300 calls, seed 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "totex/mpi.h"

/* the same pseudo-random sequence on every rank (xorshift64*) */
static unsigned long long state;
static unsigned draw(unsigned n)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (unsigned)((state * 2685821657736338717ULL) >> 33) % n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *end = NULL;
    long calls = argc > 1 ? strtol(argv[1], &end, 10) : 300;
    int usage_bad = argc > 1 && (!*argv[1] || *end || calls < 1 || calls > 1000000);
    unsigned long long seed = argc > 2 ? strtoull(argv[2], &end, 10) : 0;
    usage_bad |= argc > 2 && (!*argv[2] || *end || argv[2][0] == '-');
    if (usage_bad || argc > 3) {
        if (rank == 0)
            fprintf(stderr, "test_mismatch: usage: test_mismatch [CALLS (1 .. 1000000) [SEED (a whole number)]]\n");
        MPI_Finalize();
        return 2;
    }
    state = seed * 0x9E3779B97F4A7C15ULL + 0x9E3779B97F4A7C15ULL;

    /* MPI_COMM_WORLD and a 2-D periodic Cartesian communicator */
    MPI_Comm comms[2] = {MPI_COMM_WORLD, MPI_COMM_NULL};
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &comms[1]);

    const int sizes[] = {1, 2, 3, 8, 17, 64, 100, 257};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    const int maxcount = 257;
    char *send = malloc((size_t)size * maxcount), *got = malloc((size_t)size * maxcount),
         *ref = malloc((size_t)size * maxcount);
    if (!send || !got || !ref)
        MPI_Abort(MPI_COMM_WORLD, 2);
    long good = 0, bad = 0;
    for (long k = 0; k < calls; k++) {
        MPI_Comm comm = comms[draw(2)];
        int count = draw(8) == 0 ? 0 : sizes[draw(nsizes)];
        int kind = size > 1 ? (int)draw(6) : 0; /* 0..2: a correct call */
        int odd = (int)draw((unsigned)size), odd2 = (int)draw((unsigned)size);
        if (size < 3) /* two odd ranks out of two would agree with each other */
            odd2 = odd;
        int mine = count, want = MPI_SUCCESS;
        MPI_Datatype type = MPI_BYTE;
        if (kind == 3) { /* one or two ranks with another block size (maybe count 0) */
            int other = count;
            while (other == count)
                other = draw(4) == 0 ? 0 : sizes[draw(nsizes)];
            if (rank == odd || rank == odd2)
                mine = other;
            want = MPI_ERR_COUNT;
        } else if (kind == 4) { /* one rank with a negative count */
            if (rank == odd)
                mine = -1;
            want = MPI_ERR_COUNT;
        } else if (kind == 5) { /* one rank with MPI_DATATYPE_NULL */
            if (rank == odd)
                type = MPI_DATATYPE_NULL;
            want = MPI_ERR_TYPE;
        }
        for (int i = 0; i < size * maxcount; i++)
            send[i] = (char)(rank * 31 + i * 7 + k);
        memset(got, 0x55, (size_t)size * maxcount);
        int rc = totex_alltoall(send, mine, type, got, mine, type, comm);
        if (want == MPI_SUCCESS) {
            good++;
            int rrc = PMPI_Alltoall(send, count, MPI_BYTE, ref, count, MPI_BYTE, comm);
            if (rc != MPI_SUCCESS || rrc != MPI_SUCCESS || memcmp(got, ref, (size_t)size * count)) {
                fprintf(stderr, "FAIL rank %d call %ld: correct call (count %d) returned %d, result %s\n", rank, k,
                        count, rc, memcmp(got, ref, (size_t)size * count) ? "differs" : "ok");
                failures++;
            }
        } else {
            bad++;
            /* two odd ranks with a size each: the class is still MPI_ERR_COUNT */
            if (rc != want) {
                fprintf(stderr, "FAIL rank %d call %ld: wrong call (kind %d, odd rank %d) returned %d, not %d\n",
                        rank, k, kind, odd, rc, want);
                failures++;
            }
        }
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_mismatch: %d ranks, %ld calls (%ld correct, %ld wrong): %s (%d failures)\n", size, calls, good,
               bad, all ? "FAILED" : "ok", all);
    free(send);
    free(got);
    free(ref);
    MPI_Comm_free(&comms[1]);
    MPI_Finalize();
    return all ? 1 : 0;
}
