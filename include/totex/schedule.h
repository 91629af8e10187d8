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

/** New empty schedule; NULL when out of memory. Free with totex_schedule_free(). */
totex_schedule *totex_schedule_new(void);
/** Free @p s (NULL accepted). */
void totex_schedule_free(totex_schedule *s);
/** Append one step with @p count hops (copied). @return TOTEX_OK or TOTEX_ENOMEM. */
totex_status totex_schedule_add_step(totex_schedule *s, const totex_hop *hops, size_t count,
                                     totex_error *err);
/** Number of steps. */
uint64_t totex_schedule_steps(const totex_schedule *s);
/** Total number of hops over all steps. */
uint64_t totex_schedule_hops(const totex_schedule *s);
/** Hops of step @p i (< steps): pointer owned by @p s, valid until the next add; count in @p count. */
const totex_hop *totex_schedule_step(const totex_schedule *s, uint64_t i, size_t *count);
/** A sink that appends every step it receives to @p s. */
totex_sink totex_schedule_sink(totex_schedule *s);
/** Stream every step of @p s into @p sink, in order. Returns the first non-OK status of the sink. */
totex_status totex_schedule_replay(const totex_schedule *s, totex_sink sink, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
