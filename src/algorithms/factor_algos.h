/*
 * Private to src/algorithms/: total exchange schedules on ONE factor graph
 * (nodes 0..m-1; a hop's src/dst are factor nodes). Each function lives in its
 * own file headed with its paper, section, model, steps and optimality
 * condition, returns a new schedule owned by the caller, and fails with
 * TOTEX_ENOTAPPLICABLE (and the reason) on a factor kind it does not handle.
 */
#ifndef TOTEX_FACTOR_ALGOS_H
#define TOTEX_FACTOR_ALGOS_H

#include "totex/algorithm.h"

/* Largest factor schedule built in memory: 2^28 hops (4 GiB of 16-byte hops);
 * above it a factor algorithm fails with TOTEX_ENOMEM (paths of ~930 nodes, rings of ~1000). */
#define TOTEX_FACTOR_MAX_HOPS (UINT64_C(1) << 28)

typedef totex_status (*totex_factor_algo_fn)(const totex_factor *f, totex_schedule **out, totex_error *err);

/* K2, both port models: 1 step (k2.c). */
totex_status totex_fa_k2(const totex_factor *f, totex_schedule **out, totex_error *err);
/* Complete graph, multiport: 1 step, every node sends to every other directly (complete_multiport.c). */
totex_status totex_fa_complete_multiport(const totex_factor *f, totex_schedule **out, totex_error *err);
/* Complete graph, single-port: m-1 rounds, round r: i -> i+r mod m (complete_single.c). */
totex_status totex_fa_complete_single(const totex_factor *f, totex_schedule **out, totex_error *err);
/* Complete graph, k-port (@p ports = k >= 1): the single-port rounds k at a time, ceil((m-1)/k) steps
   (complete_single.c). */
totex_status totex_fa_complete_rounds(const totex_factor *f, totex_ports ports, totex_schedule **out,
                                      totex_error *err);
/* Linear array, multiport and k-port (k >= 2): furthest-first, ceil((m^2-1)/4) steps (003 Section 3) (path_furthest_first.c). */
totex_status totex_fa_path_furthest_first(const totex_factor *f, totex_schedule **out, totex_error *err);
/* Ring, multiport and k-port (k >= 2): message-shift (odd m) and modified message-shift (even m), ceil((m^2-1)/8) (003 Section 4) (ring_message_shift.c). */
totex_status totex_fa_ring_message_shift(const totex_factor *f, totex_schedule **out, totex_error *err);
/* Ring, single-port: clockwise phase then counterclockwise phase, node-invariant, floor(m^2/4) steps (ring_single_phases.c). */
totex_status totex_fa_ring_single_phases(const totex_factor *f, totex_schedule **out, totex_error *err);
/* Linear array, single-port: load-aware maximum-weight matching per step; meets the relay bound floor((m^2-1)/2) for every m measured (path_single.c). */
totex_status totex_fa_path_single(const totex_factor *f, totex_schedule **out, totex_error *err);
/* Any connected factor graph, either port model: greedy furthest-first on shortest paths (factor_greedy.c). */
totex_status totex_fa_greedy(const totex_factor *f, totex_ports ports, totex_schedule **out, totex_error *err);

#endif
