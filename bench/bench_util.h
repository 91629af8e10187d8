/* Shared by the benchmarks of bench/: a monotonic clock, the memcpy baseline
 * and running one job in a forked child (so its peak memory is its own). */
#ifndef TOTEX_BENCH_UTIL_H
#define TOTEX_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* kibibytes of the /proc/self/status field @p key (e.g. "VmHWM:"), -1 if absent */
static inline long status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t kl = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0)
            v = atol(line + kl + 1);
    if (f)
        fclose(f);
    return v;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the median of @p v[0 .. n) (sorted in place), n >= 1 */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* seconds, monotonic */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of this process (not wall: the machine is shared) */
static inline double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* seconds of @p clock to memcpy @p bytes through a 64 MiB buffer pair (the baseline); 0 if out of memory */
static inline double bench_memcpy_clock(uint64_t bytes, double (*clock)(void))
{
    size_t chunk = (size_t)64 << 20;
    char *a = malloc(chunk), *b = malloc(chunk);
    if (!a || !b) {
        free(a);
        free(b);
        return 0;
    }
    memset(a, 1, chunk);
    memset(b, 2, chunk);
    double t0 = clock();
    for (uint64_t done = 0; done < bytes; done += chunk) {
        size_t c = bytes - done < chunk ? (size_t)(bytes - done) : chunk;
        memcpy(b, a, c);
        a[done % chunk] ^= b[(done / 7) % chunk]; /* keep the copies live */
    }
    double t = clock() - t0;
    volatile char sink = b[12345];
    (void)sink;
    free(a);
    free(b);
    return t;
}

/* The jobs of a benchmark: groups of @p width arguments (SPEC PORTS [ALGO]) from the command line, else the
   @p ndefaults strings of @p defaults. Sets *jobs; returns the number of jobs, or -1 (usage printed) when the
   arguments do not split into groups of @p width. */
static inline int bench_jobs(int argc, char **argv, int width, const char **defaults, int ndefaults,
                             const char ***jobs, const char *usage)
{
    *jobs = defaults;
    if (argc <= 1)
        return ndefaults / width;
    if ((argc - 1) % width) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return -1;
    }
    *jobs = (const char **)(argv + 1);
    return (argc - 1) / width;
}

/* wall seconds to memcpy @p bytes (bench_memcpy_clock() on the monotonic clock) */
static inline double bench_memcpy_seconds(uint64_t bytes) { return bench_memcpy_clock(bytes, bench_now); }

/* peak resident memory of this process so far, KiB */
static inline long bench_peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Run job(args, out) in a forked child; its @p size bytes of *out come back
   through a pipe. 1 if they did, 0 if the pipe failed or the child died. */
static inline int bench_forked(void (*job)(const char *const *args, void *out), const char *const *args, void *out,
                               size_t size)
{
    int fd[2];
    if (pipe(fd))
        return 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        job(args, out);
        _exit(write(fd[1], out, size) == (ssize_t)size ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = pid > 0 ? read(fd[0], out, size) : -1;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return got == (ssize_t)size;
}

#endif
