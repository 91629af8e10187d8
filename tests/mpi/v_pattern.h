/* One totex_alltoallv call of a count pattern, checked byte for byte (tests of the measured choice and the
 * cached plans of the non-uniform exchange: test_alltoallv_repeat.c, test_alltoallv_stepped.c). */
#ifndef TOTEX_TESTS_V_PATTERN_H
#define TOTEX_TESTS_V_PATTERN_H

#include <mpi.h>
#include <stdio.h>

/* a failed @p cond: "rank R: " and the printf-style message on stderr, @p failures counted */
#define V_CHECK(failures, rank, cond, ...)                                                                             \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "rank %d: ", rank);                                                                        \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
            (failures)++;                                                                                              \
        }                                                                                                              \
    } while (0)

/* Rank @p rank of @p n on @p comm sends count(rank, j, p) bytes to every rank j (MPI_BYTE, packed in rank order)
 * and receives count(i, rank, p) from every rank i, byte k of (i, j) on call @p it being
 * (i * 31 + j * 7 + k * 3 + it) mod 256, through totex_alltoallv. Checks the return code, every received byte, and
 * that no byte past the receive buffer was written; prints a line per failure on stderr. Returns the number of
 * failures (0: the call was byte-exact); an allocation failure counts as one. */
int v_pattern_call(MPI_Comm comm, int n, int rank, int (*count)(int i, int j, int p), int p, int it);

#endif
