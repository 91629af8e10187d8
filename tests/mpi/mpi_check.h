/* The check of the MPI tests: CHECK(cond, printf-args) counts a failure in the test's `failures` and prints
   a line naming this rank (the test's `rank`). Header only: plain MPI test programs include it too. */
#ifndef TOTEX_TESTS_MPI_CHECK_H
#define TOTEX_TESTS_MPI_CHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            fprintf(stderr, "rank %d: FAIL: ", rank);                                                                  \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
        }                                                                                                              \
    } while (0)

#endif
