/* Private to src/algorithms/: the algorithm table and shared helpers. */
#ifndef TOTEX_REGISTRY_IMPL_H
#define TOTEX_REGISTRY_IMPL_H

#include "totex/algorithm.h"

extern const totex_algorithm totex_algorithm_a2;
extern const totex_algorithm totex_algorithm_a3;
extern const totex_algorithm totex_algorithm_dimension;
extern const totex_algorithm totex_algorithm_greedy;
extern const totex_algorithm totex_algorithm_greedy_sym;
extern const totex_algorithm totex_algorithm_sym2;
extern const totex_algorithm totex_algorithm_octr;
extern const totex_algorithm totex_algorithm_pipeline;
extern const totex_algorithm totex_algorithm_rounds;
extern const totex_algorithm totex_algorithm_load_greedy;
extern const totex_algorithm totex_algorithm_balanced_greedy;
extern const totex_algorithm totex_algorithm_balanced_ports;
extern const totex_algorithm totex_algorithm_exact;

/**
 * Steps of the factor algorithm of @p f under @p ports: from the paper's
 * closed form where there is one (003 eqs. for paths and rings, m-1 for
 * complete graphs single-port, 1 for K2), else by planning it and counting.
 */
totex_status totex_factor_predict(const totex_factor *f, totex_ports ports, uint64_t *steps, totex_error *err);

#endif
