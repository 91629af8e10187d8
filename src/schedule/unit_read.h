/*
 * Private to src/: the unit-step schedule reader (unit_read.c) reads, and the
 * caller checks. The reader hands what it read to a checker (the driver's,
 * src/plan/unit_verify.c: the simulator and the one-node certificate), so
 * that schedule/ never calls sim/.
 */
#ifndef TOTEX_SCHEDULE_UNIT_READ_H
#define TOTEX_SCHEDULE_UNIT_READ_H

#include <stdio.h>

#include "totex/schedule_io.h"

/** What checks a schedule as it is read. */
typedef struct totex_unit_checker {
    void *ctx;
    /**
     * Full form, once the network and port model are known (before the
     * first step): set *steps to the sink every step goes into.
     * @p max_messages: the caller's limit (totex_unit_limits).
     */
    totex_status (*full_begin)(void *ctx, const totex_network *net, totex_ports ports, uint64_t max_messages,
                               totex_sink *steps, totex_error *err);
    /** Full form, after the last step: the figures of the replay into *rep. */
    totex_status (*full_end)(void *ctx, totex_sim_report *rep, totex_error *err);
    /** Full form: release what full_begin made (called whenever full_begin succeeded). */
    void (*full_free)(void *ctx);
    /** Symmetric form: check node 0's moves @p s for the task @p t; the figures into *rep. */
    totex_status (*symmetric)(void *ctx, const totex_network *net, const totex_task *t, totex_ports ports,
                              const totex_sym_schedule *s, totex_sim_report *rep, totex_error *err);
} totex_unit_checker;

/**
 * Read a unit-step schedule file from @p fp as a stream, every step handed
 * to @p check as it is read (see totex_unit_verify_stream() for the rest).
 */
totex_status totex_unit_read_stream(FILE *fp, const totex_unit_limits *lim, const totex_ports *ports_override,
                                    const totex_unit_checker *check, totex_unit_verdict *out, totex_error *err);

/** totex_unit_read_stream() on the file @p path (a regular file, its size bounded first; see totex_unit_verify_file()). */
totex_status totex_unit_read_file(const char *path, const totex_unit_limits *lim, const totex_ports *ports_override,
                                  const totex_unit_checker *check, totex_unit_verdict *out, totex_error *err);

#endif
