/*
 * Private to the library: where the progress meters inside the algorithms
 * write during one totex_plan_run() (its options' progress stream), set by
 * the driver for the calling thread only and restored when the call returns.
 */
#ifndef TOTEX_COMMON_PROGRESS_SCOPE_H
#define TOTEX_COMMON_PROGRESS_SCOPE_H

#include <stdio.h>

/* Begin a scope on this thread: the algorithms' meters write to @p fp (NULL: nowhere); returns the token that
   totex_progress_scope_end() takes to restore the scope before it. */
int totex_progress_scope_begin(FILE *fp, FILE **saved_fp);
/* End the scope begun by totex_progress_scope_begin(), which returned @p was_set and @p saved_fp. */
void totex_progress_scope_end(int was_set, FILE *saved_fp);
/* Where an algorithm's meter writes: the stream of the current scope on this thread; outside any scope (an
   algorithm called directly) stderr when totex_progress_enabled(), else NULL. */
FILE *totex_progress_stream(void);

#endif
