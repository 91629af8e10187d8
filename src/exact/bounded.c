/*
 * A solver call that cannot outlive its time limit. CBC checks its limit only
 * between nodes of its search, and its first LP (Clp) can run for many times
 * the limit on these programs (measured: 50 s wall for a 5 s limit on the
 * single-port mesh:3x4). So, when a limit is set, the solver runs in a forked
 * child that sends back its outcome and solution through a pipe; at the
 * deadline the parent kills it and reports the outcome as unknown. Without a
 * limit, or if fork() fails, the solver runs in this process.
 *
 * The limit is wall time, or (cpu = 1, the automatic choice's budget, issue
 * 32) the child's CPU time: the parent reads the child's CPU clock every
 * 20 ms and kills it once it has used the seconds given, so that a loaded
 * machine (which stretches wall time, not CPU time) does not change what the
 * search finds. Wall time is then only a safeguard (20 x the limit + 10 s).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "exact/model.h"

typedef struct reply {
    int status, outcome;
    char msg[sizeof(((totex_error *)0)->msg)];
} reply;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int write_all(int fd, const void *p, size_t len)
{
    const char *c = p;
    while (len) {
        ssize_t w = write(fd, c, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        len -= (size_t)w;
    }
    return 0;
}

/* CPU seconds @p pid has used so far (its clock); -1 when it cannot be read */
static double child_cpu(pid_t pid)
{
    clockid_t clk;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &clk) != 0 || clock_gettime(clk, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* read exactly len bytes before the deadline (wall) and, when cpu_limit > 0, before child @p pid has
   used cpu_limit seconds of CPU: 0, or -1 (closed, error or time up) */
static int read_all(int fd, void *p, size_t len, double deadline, pid_t pid, double cpu_limit)
{
    char *c = p;
    while (len) {
        double left = deadline - now_seconds();
        if (left <= 0)
            return -1;
        if (cpu_limit > 0) {
            double used = child_cpu(pid);
            if (used >= cpu_limit)
                return -1;
            if (left > 0.02)
                left = 0.02; /* look at the child's CPU clock again in 20 ms */
        }
        struct pollfd pf = {fd, POLLIN, 0};
        int r = poll(&pf, 1, (int)(left * 1000.0) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0 && cpu_limit > 0)
            continue;
        if (r <= 0)
            return -1;
        ssize_t got = read(fd, c, len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        c += got;
        len -= (size_t)got;
    }
    return 0;
}

totex_status totex_mip_solve_bounded(const totex_mip_solver *sv, const totex_mip *m, int relax, double seconds,
                                     int cpu, double *child_seconds, totex_mip_outcome *outcome, double *x,
                                     totex_error *err)
{
    int fd[2];
    *child_seconds = 0;
    if (seconds <= 0 || pipe(fd) != 0)
        return sv->solve(m, relax, seconds, outcome, x, err);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return sv->solve(m, relax, seconds, outcome, x, err);
    }
    if (pid == 0) { /* child: solve, send, leave without running the parent's exit handlers */
        reply r;
        totex_error e = {{0}};
        totex_mip_outcome oc = TOTEX_MIP_UNKNOWN;
        close(fd[0]);
        memset(&r, 0, sizeof r);
        r.status = sv->solve(m, relax, cpu ? 0 : seconds, &oc, x, &e); /* CPU: the parent keeps the limit */
        r.outcome = (int)oc;
        memcpy(r.msg, e.msg, sizeof r.msg);
        if (write_all(fd[1], &r, sizeof r) == 0 && r.status == TOTEX_OK && oc == TOTEX_MIP_FEASIBLE && !relax)
            (void)write_all(fd[1], x, (size_t)m->ncols * sizeof *x);
        _exit(0);
    }
    close(fd[1]);
    /* a little grace beyond the solver's own limit, for it to stop by itself and send; under a CPU limit
       wall time is only a safeguard */
    double deadline = now_seconds() + (cpu ? 20.0 * seconds + 10.0 : seconds + 0.5);
    double cpu_limit = cpu ? seconds : 0;
    reply r;
    totex_status st = TOTEX_OK;
    *outcome = TOTEX_MIP_UNKNOWN;
    if (read_all(fd[0], &r, sizeof r, deadline, pid, cpu_limit) == 0) {
        if (r.status != TOTEX_OK) {
            st = (totex_status)r.status;
            if (err)
                memcpy(err->msg, r.msg, sizeof err->msg);
        } else if (r.outcome == TOTEX_MIP_FEASIBLE && !relax) {
            if (read_all(fd[0], x, (size_t)m->ncols * sizeof *x, deadline + 5.0, pid, 0) == 0)
                *outcome = TOTEX_MIP_FEASIBLE;
        } else {
            *outcome = (totex_mip_outcome)r.outcome;
        }
    }
    close(fd[0]);
    kill(pid, SIGKILL); /* done or out of time: either way the child goes now */
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, NULL, 0, &ru) < 0 && errno == EINTR)
        ;
    *child_seconds = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
                     1e-6 * (double)ru.ru_stime.tv_usec;
    return st;
}
