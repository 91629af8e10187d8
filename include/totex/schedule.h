/**
 * @file totex/schedule.h
 * @brief Store-and-forward schedules: steps of hops, streamed into a sink.
 *
 * A schedule for total exchange is a sequence of steps; a step is a set of
 * hops; a hop moves message (src -> dst) one link, from node @c from to its
 * neighbour @c to. Algorithms produce steps one at a time into a
 * ::totex_sink so that no one needs the whole schedule in memory; the
 * simulator (totex/sim.h) is one sink, ::totex_schedule (an in-memory
 * recording) is another.
 */
#ifndef TOTEX_SCHEDULE_H
#define TOTEX_SCHEDULE_H

#include "totex/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One message moving over one link during one step (16 bytes). */
typedef struct totex_hop {
    uint32_t from; /**< node holding the message at the start of the step */
    uint32_t to;   /**< neighbour receiving it at the end of the step */
    uint32_t src;  /**< the message's source node */
    uint32_t dst;  /**< the message's destination node */
} totex_hop;

/**
 * Consumer of a streamed schedule. @c step is called once per step, in order,
 * with the step's hops (the array is only valid during the call; count may
 * be 0 for an idle step). A non-OK return stops the producer, which returns
 * that status.
 */
typedef struct totex_sink {
    totex_status (*step)(void *ctx, const totex_hop *hops, size_t count, totex_error *err);
    void *ctx;
} totex_sink;

/** An in-memory schedule: steps of hops (used for factor schedules and tests). */
typedef struct totex_schedule totex_schedule;

/** @return a new empty schedule (free with totex_schedule_free()); NULL when out of memory. */
totex_schedule *totex_schedule_new(void);
/** Free a schedule. @param s a schedule, or NULL (nothing done). */
void totex_schedule_free(totex_schedule *s);
/**
 * Append one step.
 * @param s a schedule. @param hops the step's @p count hops (copied; 0 is an idle step).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK or TOTEX_ENOMEM.
 */
totex_status totex_schedule_add_step(totex_schedule *s, const totex_hop *hops, size_t count,
                                     totex_error *err);
/** @param s a schedule. @return its number of steps. */
uint64_t totex_schedule_steps(const totex_schedule *s);
/** @param s a schedule. @return its hops over all steps. */
uint64_t totex_schedule_hops(const totex_schedule *s);
/**
 * @param s a schedule. @param i a step, 0 <= i < steps. @param count receives the step's number of hops.
 * @return the step's hops, owned by @p s and valid until the next totex_schedule_add_step().
 */
const totex_hop *totex_schedule_step(const totex_schedule *s, uint64_t i, size_t *count);
/** @param s a schedule (outlives the sink). @return a sink that appends every step it receives to @p s (TOTEX_ENOMEM when it cannot). */
totex_sink totex_schedule_sink(totex_schedule *s);
/**
 * Stream every step of @p s into @p sink, in order.
 * @param s a schedule. @param sink the consumer. @param err receives the sink's message on failure (may be NULL).
 * @return TOTEX_OK, or the first non-OK status of the sink.
 */
totex_status totex_schedule_replay(const totex_schedule *s, totex_sink sink, totex_error *err);

/**
 * A consumer sink run on its own thread (src/schedule/sink_thread.c):
 * the producer's sink copies each step (16 bytes per hop) into one of four
 * buffers of 2^15 hops (512 KiB; a larger step grows its buffer), and the
 * worker thread calls the consumer's step function on every step, in the
 * producer's order and grouping, so the consumer's results do not depend on
 * timing. Used to replay a schedule in the simulator on one core while the
 * algorithm plans on the other.
 */
typedef struct totex_sink_thread totex_sink_thread;

/**
 * Start a worker thread feeding @p consumer (its ctx must stay valid until
 * totex_sink_thread_finish(); the consumer is called only from the worker).
 * @param consumer the sink the worker feeds. @param err receives the message on failure (may be NULL).
 * @return the handle (owned by the caller: totex_sink_thread_finish() frees it),
 *         or NULL with @p err filled (TOTEX_ENOMEM) when memory or a thread cannot be had.
 */
totex_sink_thread *totex_sink_thread_start(totex_sink consumer, totex_error *err);
/** Most consumers one sink thread feeds (totex_sink_thread_start_fanout()). */
#define TOTEX_SINK_THREAD_MAX 4
/**
 * Start one worker thread per consumer, @p count of them (1 to
 * TOTEX_SINK_THREAD_MAX; @p consumers copied, their ctx valid until
 * totex_sink_thread_finish()): each consumer is called with every step, in
 * the producer's order and grouping, from its own thread only; a buffer is
 * refilled once every consumer has taken it. Used to replay a schedule in the
 * two parts of a split simulation (totex_sim_stage_sink()). A consumer that
 * fails is not called again, and the others go on to the end of what was
 * handed over.
 * @param consumers @p count sinks (copied). @param err receives the message on failure (may be NULL).
 * @return the handle (owned by the caller: totex_sink_thread_finish() frees
 *         it), or NULL with @p err filled (TOTEX_EINVAL for a bad @p count,
 *         TOTEX_ENOMEM when memory or a thread cannot be had).
 */
totex_sink_thread *totex_sink_thread_start_fanout(const totex_sink *consumers, size_t count, totex_error *err);
/**
 * The producer's sink. Its step copies the hops and returns at once (it waits
 * only while all four buffers are full); once the consumer has failed it
 * returns the consumer's status and message (e.g. TOTEX_EVIOLATION), or
 * TOTEX_ENOMEM when a step larger than a buffer cannot be held.
 * @param t a started sink thread (outlives the sink). @return the producer's sink.
 */
totex_sink totex_sink_thread_sink(totex_sink_thread *t);
/**
 * Hand over what is buffered, wait until every consumer has taken every step
 * (or failed), stop the threads and free @p t (NULL accepted: TOTEX_OK).
 * @param t a sink thread, or NULL. @param err receives the failing consumer's message (may be NULL).
 * @return the first non-OK status of the first consumer (by index) that
 * failed, its message in @p err, else TOTEX_OK.
 */
totex_status totex_sink_thread_finish(totex_sink_thread *t, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
