/**
 * @file totex/progress.h
 * @brief The progress meter of long jobs: a service the algorithms, the
 *        simulators and the driver call (src/common/progress.c), below all of
 *        them in the flow network -> algorithm -> schedule -> simulator ->
 *        report. totex/report.h includes this header.
 */
#ifndef TOTEX_PROGRESS_H
#define TOTEX_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "totex/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Progress on long jobs. A ::totex_progress wraps a sink,
 * or is ticked by a loop, counts its steps and, once more than one second has
 * passed since it was made, rewrites one line
 * "LABEL: step DONE/TOTAL (P%), R steps/s, S s left" on its FILE at most
 * four times a second; totex_progress_free() clears the line. It writes
 * nothing unless forced or enabled: totex_progress_enable(1) (the CLI calls
 * it when stderr is a terminal) or TOTEX_PROGRESS=1 in the environment
 * (TOTEX_PROGRESS=0 forces it off). TOTEX_PROGRESS_DELAY=SECONDS (0 to
 * 3600) sets the silence of a meter on the real clock (default 1 s; 0: the
 * first step of every phase shows). Users, all on stderr and only when
 * enabled: totex_plan_and_verify() (replay, one-node certification of
 * symmetric schedules, as phases of one meter), the symmetric greedy's
 * planning, totex_comb_rank() and totex_comb_sweep() (one simulation per
 * algorithm and block size), and the CLI's combining plan and verify.
 * Inside totex_plan_run() the algorithms' meters write to its options'
 * stream (totex_plan_options.progress) instead of reading this switch.
 * Not thread-safe: one meter per thread, and one line per FILE at a time.
 */
typedef struct totex_progress totex_progress;
/**
 * Turn progress on stderr on or off for totex_plan_and_verify() (default off); process-wide.
 * @param on 1: on, 0: off (TOTEX_PROGRESS=1/0 in the environment overrides it).
 */
void totex_progress_enable(int on);
/** @return 1 if progress is on, else 0 (TOTEX_PROGRESS=1/0 overrides totex_progress_enable()). */
int totex_progress_enabled(void);
/**
 * New progress meter writing to @p fp; @p total_steps 0 if unknown; @p clock
 * returns seconds (NULL: CLOCK_MONOTONIC); @p force 1 writes even when
 * progress is not enabled.
 * @param fp the stream (stderr in the library). @param label the line's label (copied, cut at 63 bytes).
 * @param total_steps steps of the job, 0 if unknown. @param clock seconds, or NULL.
 * @param force 1: write even when progress is off.
 * @return the meter (free with totex_progress_free()); NULL when out of memory (callers then go without).
 */
totex_progress *totex_progress_new(FILE *fp, const char *label, uint64_t total_steps, double (*clock)(void),
                                   int force);
/**
 * @param p a meter, or NULL. @param inner the sink the steps go on to.
 * @return a sink counting the steps into @p p and passing them to @p inner
 *         (@p inner itself when @p p is NULL or writes nothing).
 */
totex_sink totex_progress_sink(totex_progress *p, totex_sink inner);
/**
 * Count @p steps done (for jobs that are not a sink); may print a line.
 * Reads the clock at every call when the meter writes, so a hot loop should
 * tick once per batch of steps (e.g. every 1024), not per step or per hop.
 * @param p a meter, or NULL (nothing happens). @param steps steps done since the last tick.
 */
void totex_progress_tick(totex_progress *p, uint64_t steps);
/**
 * Start a new phase of @p p's job: the line's label becomes @p label (copied,
 * cut at 63 bytes; NULL: "progress"), the count restarts at 0 of
 * @p total_steps (0: unknown, then no percentage nor time left), and the rate
 * and time left are measured from now. The second of silence still counts
 * from totex_progress_new(), so a phase that starts after the job has run for
 * a second shows at its first tick (the quarter-second between lines counts
 * within a phase). The last line stays until the next one
 * overwrites it or totex_progress_free() clears it.
 * @param p a meter, or NULL (nothing happens). @param label the phase's label. @param total_steps its steps, 0 if unknown.
 */
void totex_progress_phase(totex_progress *p, const char *label, uint64_t total_steps);
/** Clear the progress line if one was printed, and free the meter. @param p a meter, or NULL (nothing done). */
void totex_progress_free(totex_progress *p);

#ifdef __cplusplus
}
#endif
#endif
