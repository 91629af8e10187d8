/* Shared helpers for the cmocka tests: independent checks (BFS, the simulator). */
#ifndef TOTEX_TEST_SUPPORT_H
#define TOTEX_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "totex.h"

/** Everything written to @p fp so far, as a NUL-terminated string (caller frees); asserts on I/O errors. */
char *ts_file_contents(FILE *fp);

/** Parse @p spec or fail the test. */
totex_network *ts_net(const char *spec);

/** A network and port model an algorithm must refuse, and a word its reason must contain ("" : any). */
typedef struct ts_refusal {
    const char *spec;
    totex_ports ports;
    const char *why;
} ts_refusal;

/** Algorithm @p name's applies() refuses every case of @p cases with TOTEX_ENOTAPPLICABLE and a message
    containing its @c why, or the test fails naming the case. */
void ts_refuses(const char *name, const ts_refusal *cases, size_t count);

/**
 * Replay @p s through a fresh simulator of @p net under @p ports.
 * Returns the status; fills @p rep on success and @p err on failure.
 */
totex_status ts_simulate(const totex_network *net, totex_ports ports, const totex_schedule *s,
                         totex_sim_report *rep, totex_error *err);

/** Plan with algorithm @p name (NULL: auto) and simulate; asserts verified; fills @p rep. */
void ts_plan_ok(const char *spec, totex_ports ports, const char *name, totex_sim_report *rep,
                uint64_t *predicted);

/** Record the schedule of algorithm @p name on @p net (caller frees). Asserts success. */
totex_schedule *ts_record(const totex_network *net, totex_ports ports, const char *name);

/**
 * All-pairs BFS on the materialised product (through totex_network_neighbors
 * only): fills dist[a*n+b] (caller frees). Independent of Theorem 1.
 */
uint32_t *ts_bfs_all_pairs(const totex_network *net);

/** The combining-model algorithm called @p name, or fail the test. */
const struct totex_comb_algorithm *ts_comb_algo(const char *name);

/**
 * Build combining algorithm @p name on @p spec under @p c; when it builds, the
 * combining simulator must accept it and deliver all n(n-1) blocks (fills
 * @p rep). Returns the build status (e.g. TOTEX_ENOTAPPLICABLE with @p err).
 */
totex_status ts_comb_run(const char *name, const char *spec, const struct totex_comb_cost *c,
                         struct totex_comb_report *rep, totex_error *err);

#endif
