/*
 * A solver call that cannot outlive its time limit. CBC checks its limit only
 * between nodes of its search, and its first LP (Clp) can run for many times
 * the limit on these programs (measured: 50 s wall for a 5 s limit on the
 * single-port mesh:3x4). So, when a limit is set, the solver runs in a forked
 * child that sends back its outcome and solution through a pipe; at the
 * deadline the parent kills it and reports the outcome as unknown. Without a
 * limit, or if fork() fails, the solver runs in this process.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
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

/* read exactly len bytes before the deadline: 0, or -1 (closed, error or time up) */
static int read_all(int fd, void *p, size_t len, double deadline)
{
    char *c = p;
    while (len) {
        double left = deadline - now_seconds();
        if (left <= 0)
            return -1;
        struct pollfd pf = {fd, POLLIN, 0};
        int r = poll(&pf, 1, (int)(left * 1000.0) + 1);
        if (r < 0 && errno == EINTR)
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
                                     totex_mip_outcome *outcome, double *x, totex_error *err)
{
    int fd[2];
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
        r.status = sv->solve(m, relax, seconds, &oc, x, &e);
        r.outcome = (int)oc;
        memcpy(r.msg, e.msg, sizeof r.msg);
        if (write_all(fd[1], &r, sizeof r) == 0 && r.status == TOTEX_OK && oc == TOTEX_MIP_FEASIBLE && !relax)
            (void)write_all(fd[1], x, (size_t)m->ncols * sizeof *x);
        _exit(0);
    }
    close(fd[1]);
    /* a little grace beyond the solver's own limit, for it to stop by itself and send */
    double deadline = now_seconds() + seconds + 0.5;
    reply r;
    totex_status st = TOTEX_OK;
    *outcome = TOTEX_MIP_UNKNOWN;
    if (read_all(fd[0], &r, sizeof r, deadline) == 0) {
        if (r.status != TOTEX_OK) {
            st = (totex_status)r.status;
            if (err)
                memcpy(err->msg, r.msg, sizeof err->msg);
        } else if (r.outcome == TOTEX_MIP_FEASIBLE && !relax) {
            if (read_all(fd[0], x, (size_t)m->ncols * sizeof *x, deadline + 5.0) == 0)
                *outcome = TOTEX_MIP_FEASIBLE;
        } else {
            *outcome = (totex_mip_outcome)r.outcome;
        }
    }
    close(fd[0]);
    kill(pid, SIGKILL); /* done or out of time: either way the child goes now */
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    return st;
}
