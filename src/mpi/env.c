/* The TOTEX_* knobs read from the environment; every TOTEX_* variable is read
 * here (docs/mpi.md, "Knobs", lists them all: keep its table in step).
 *
 * A knob that is set to something it does not take (TOTEX_CHUNKS=four,
 * TOTEX_RECV_WINDOW=-1, TOTEX_TS=1us, TOTEX_MODEL=Unit) is ignored with one line on stderr,
 * naming the variable, its value and what it takes, once per variable and
 * process, from MPI_COMM_WORLD's rank 0 (every rank reads the same
 * environment); the knob's default applies. Unset or empty: the default,
 * silently. No allocation; not thread-safe (nor is the rest of the library). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* one line for @p name (at most once per process and name) */
static void warn(const char *name, const char *value, const char *takes)
{
    static const char *said[32];
    static int nsaid;
    for (int i = 0; i < nsaid; i++)
        if (strcmp(said[i], name) == 0)
            return;
    if (nsaid < (int)(sizeof said / sizeof said[0]))
        said[nsaid++] = name;
    int up = 0, finished = 0, rank = 0;
    if (MPI_Initialized(&up) == MPI_SUCCESS && up && MPI_Finalized(&finished) == MPI_SUCCESS && !finished)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        fprintf(stderr, "totex: %s=%.40s ignored: give %s (the default applies)\n", name, value, takes);
}

int totex_mpi_env_int(const char *name, long long lo, long long hi, long long *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != ERANGE && end && *end == '\0' && end != s && v >= lo && (hi == TOTEX_MPI_ENV_ANY || v <= hi)) {
        *out = v;
        return 1;
    }
    char takes[96];
    if (lo == 0 && hi == 1)
        snprintf(takes, sizeof takes, "0 or 1");
    else if (hi == TOTEX_MPI_ENV_ANY)
        snprintf(takes, sizeof takes, "a whole number, %lld or more", lo);
    else
        snprintf(takes, sizeof takes, "a whole number from %lld to %lld", lo, hi);
    warn(name, s, takes);
    return 0;
}

int totex_mpi_env_seconds(const char *name, double *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != ERANGE && end && *end == '\0' && end != s && v >= 0 && v < 1e30) {
        *out = v;
        return 1;
    }
    warn(name, s, "a number of seconds (or seconds per byte), 0 or more, as 1.5e-06");
    return 0;
}

int totex_mpi_env_switch(const char *name, int dflt)
{
    long long v = dflt;
    totex_mpi_env_int(name, 0, 1, &v);
    return (int)v;
}

int totex_mpi_env_word(const char *name, const char *const *words, int n)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return -1;
    for (int i = 0; i < n; i++)
        if (strcmp(s, words[i]) == 0)
            return i;
    char takes[96] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof takes; i++)
        len += (size_t)snprintf(takes + len, sizeof takes - len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                                words[i]);
    warn(name, s, takes);
    return -1;
}

const char *totex_mpi_env_string(const char *name)
{
    const char *s = getenv(name);
    return s && *s ? s : NULL;
}

void totex_mpi_env_prog_opts(totex_prog_opts *o)
{
    long long v;
    totex_prog_opts_default(o);
    v = 1;
    totex_mpi_env_int("TOTEX_WINDOW", 0, 64, &v);
    o->window = (int)v;
    if (totex_mpi_env_int("TOTEX_ARENA_BLOCKS", 0, TOTEX_MPI_ENV_ANY, &v))
        o->arena_blocks = v;
    if (totex_mpi_env_int("TOTEX_RECV_WINDOW", 0, TOTEX_MPI_ENV_ANY, &v))
        o->recv_window = v;
}

double totex_mpi_env_test_interval(void)
{
    long long v = TOTEX_MPI_TEST_INTERVAL_US;
    totex_mpi_env_int("TOTEX_TEST_INTERVAL", 0, 1000000, &v);
    return (double)v * 1e-6;
}

int totex_mpi_env_nonblocking(void)
{
    static int v = -1;
    if (v < 0)
        v = totex_mpi_env_switch("TOTEX_NONBLOCKING", 0);
    return v;
}

int totex_mpi_env_no_ahead(void)
{
    static int v = -1;
    if (v < 0)
        v = !totex_mpi_env_switch("TOTEX_AHEAD", 1);
    return v;
}
