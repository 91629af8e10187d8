/*
 * Progress on long jobs: a sink wrapper that counts the
 * steps streaming through it and, once the job has run for more than a
 * second, prints "steps done, rate, time left" on one line of a FILE
 * (stderr in the CLI), rewritten in place at most four times a second and
 * cleared at the end. A job may have phases (plan, certify, replay; one
 * simulation per algorithm): each restarts the count and the rate, while the
 * second of silence counts from the start of the job. Off unless
 * totex_progress_enable(1) was called (the CLI does so when stderr is a
 * terminal) or TOTEX_PROGRESS=1 is set in the environment (TOTEX_PROGRESS=0
 * forces it off). TOTEX_PROGRESS_DELAY=SECONDS (0 to 3600, default 1) sets
 * the silence of a meter on the real clock (0: a line at the first step of
 * every phase, as the CLI's tests use it); a value out of range or not a
 * number keeps the default and says so in one line on stderr.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "common/progress_scope.h"
#include "totex/progress.h"

/* seconds of silence before the first line (default), and between two updates */
#define PROGRESS_DELAY 1.0
#define PROGRESS_PERIOD 0.25

/* the silence of a meter on the real clock: TOTEX_PROGRESS_DELAY when it is a number of seconds in
   [0, 3600], else PROGRESS_DELAY */
static double delay_from_env(void)
{
    const char *env = getenv("TOTEX_PROGRESS_DELAY");
    if (!env || !*env)
        return PROGRESS_DELAY;
    char *end = NULL;
    const double d = strtod(env, &end);
    if (!end || *end || !isfinite(d) || d < 0 || d > 3600) {
        fprintf(stderr, "totex: TOTEX_PROGRESS_DELAY=%.40s is not a number of seconds from 0 to 3600; "
                        "the default 1 s is kept\n", env);
        return PROGRESS_DELAY;
    }
    return d;
}

static int progress_flag;

void totex_progress_enable(int on)
{
    progress_flag = on != 0;
}

int totex_progress_enabled(void)
{
    const char *env = getenv("TOTEX_PROGRESS");
    if (env && env[0] == '1' && !env[1])
        return 1;
    if (env && env[0] == '0' && !env[1])
        return 0;
    return progress_flag;
}

/* the scope of the plan call running on this thread (totex_plan_options.progress): set, and its stream */
static _Thread_local int scope_set;
static _Thread_local FILE *scope_fp;

int totex_progress_scope_begin(FILE *fp, FILE **saved_fp)
{
    const int was = scope_set;
    *saved_fp = scope_fp;
    scope_set = 1;
    scope_fp = fp;
    return was;
}

void totex_progress_scope_end(int was_set, FILE *saved_fp)
{
    scope_set = was_set;
    scope_fp = saved_fp;
}

FILE *totex_progress_stream(void)
{
    if (scope_set)
        return scope_fp;
    return totex_progress_enabled() ? stderr : NULL;
}

struct totex_progress {
    FILE *fp;
    char label[64];
    uint64_t total;  /* expected steps of the phase, 0 unknown */
    uint64_t done;   /* steps done in the phase */
    double (*clock)(void);
    double start;       /* start of the job: the second of silence counts from here */
    double phase_start; /* start of the phase: the rate counts from here */
    double last;     /* time of the last line in this phase, < 0: none printed yet */
    double delay;    /* seconds of silence from the start of the job */
    int width;       /* length of the last line printed, to clear it */
    int enabled;
    totex_sink inner;
};

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

totex_progress *totex_progress_new(FILE *fp, const char *label, uint64_t total_steps, double (*clock)(void),
                                   int force)
{
    totex_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->fp = fp;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "progress");
    p->total = total_steps;
    p->clock = clock ? clock : monotonic_seconds;
    p->delay = clock ? PROGRESS_DELAY : delay_from_env();
    p->start = p->clock();
    p->phase_start = p->start;
    p->last = -1.0;
    p->enabled = fp && (force || totex_progress_enabled());
    return p;
}

void totex_progress_phase(totex_progress *p, const char *label, uint64_t total_steps)
{
    if (!p)
        return;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "progress");
    p->total = total_steps;
    p->done = 0;
    p->last = -1.0; /* (its first tick after the silence shows at once) */
    if (p->enabled)
        p->phase_start = p->clock();
}

/* Format the progress line into @p buf, @p elapsed seconds into the phase; returns its length. */
static int format_line(const totex_progress *p, double elapsed, char *buf, size_t size)
{
    double rate = elapsed > 0 ? (double)p->done / elapsed : 0.0;
    int len;
    if (p->total && p->done <= p->total) {
        len = snprintf(buf, size, "%s: step %llu/%llu (%.0f%%), %.0f steps/s", p->label,
                       (unsigned long long)p->done, (unsigned long long)p->total,
                       100.0 * (double)p->done / (double)p->total, rate);
        if (rate > 0 && len > 0 && (size_t)len < size)
            len += snprintf(buf + len, size - (size_t)len, ", %.0f s left",
                            (double)(p->total - p->done) / rate);
    } else {
        len = snprintf(buf, size, "%s: step %llu, %.0f steps/s", p->label, (unsigned long long)p->done, rate);
    }
    if (len < 0)
        return 0;
    return (size_t)len < size ? len : (int)size - 1;
}

void totex_progress_tick(totex_progress *p, uint64_t steps)
{
    double now, elapsed;
    char line[256];
    int len;
    if (!p)
        return;
    p->done += steps;
    if (!p->enabled)
        return;
    now = p->clock();
    elapsed = now - p->start;
    if ((p->delay > 0 && elapsed <= p->delay) || (p->last >= 0 && now - p->last < PROGRESS_PERIOD))
        return;
    len = format_line(p, now - p->phase_start, line, sizeof line);
    /* pad with spaces over a longer previous line */
    fprintf(p->fp, "\r%s%*s", line, p->width > len ? p->width - len : 0, "");
    fflush(p->fp);
    p->width = len;
    p->last = now;
}

static totex_status progress_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_progress *p = ctx;
    totex_status st = p->inner.step(p->inner.ctx, hops, count, err);
    totex_progress_tick(p, 1);
    return st;
}

totex_sink totex_progress_sink(totex_progress *p, totex_sink inner)
{
    totex_sink s;
    if (!p || !p->enabled)
        return inner;
    p->inner = inner;
    s.step = progress_step;
    s.ctx = p;
    return s;
}

void totex_progress_free(totex_progress *p)
{
    if (!p)
        return;
    if (p->enabled && p->width > 0) {
        fprintf(p->fp, "\r%*s\r", p->width, "");
        fflush(p->fp);
    }
    free(p);
}
