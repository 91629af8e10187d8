/* v_pattern.h: one totex_alltoallv call of a count pattern, checked byte for byte */
#include "v_pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/mpi.h"

static unsigned char byte(int i, int j, int k, int it) { return (unsigned char)(i * 31 + j * 7 + k * 3 + it); }

int v_pattern_call(MPI_Comm comm, int n, int rank, int (*count)(int i, int j, int p), int p, int it)
{
    int failures = 0;
    int *sc = calloc((size_t)n, sizeof *sc), *sd = calloc((size_t)n, sizeof *sd), *rc = calloc((size_t)n, sizeof *rc),
        *rd = calloc((size_t)n, sizeof *rd);
    unsigned char *s = NULL, *r = NULL;
    if (!sc || !sd || !rc || !rd) {
        fprintf(stderr, "rank %d: call %d: out of memory\n", rank, it);
        failures = 1;
        goto out;
    }
    int so = 0, ro = 0;
    for (int j = 0; j < n; j++) {
        sc[j] = count(rank, j, p), sd[j] = so, so += sc[j];
        rc[j] = count(j, rank, p), rd[j] = ro, ro += rc[j];
    }
    s = calloc((size_t)so + 1, 1), r = malloc((size_t)ro + 1);
    if (!s || !r) {
        fprintf(stderr, "rank %d: call %d: out of memory\n", rank, it);
        failures = 1;
        goto out;
    }
    for (int j = 0; j < n; j++)
        for (int k = 0; k < sc[j]; k++)
            s[sd[j] + k] = byte(rank, j, k, it);
    memset(r, 0xEE, (size_t)ro + 1);
    const int err = totex_alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, comm);
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "rank %d: call %d: totex_alltoallv returned %d\n", rank, it, err);
        failures++;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < rc[i]; k++)
            if (r[rd[i] + k] != byte(i, rank, k, it)) {
                fprintf(stderr, "rank %d: call %d: byte %d from rank %d wrong\n", rank, it, k, i);
                failures++;
                break;
            }
    if (r[ro] != 0xEE) {
        fprintf(stderr, "rank %d: call %d: a byte written past the receive buffer\n", rank, it);
        failures++;
    }
out:
    free(s), free(r), free(sc), free(sd), free(rc), free(rd);
    return failures;
}
