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

/** What the memo of predicted step counts keeps for one algorithm (memo.c). */
typedef struct totex_memo {
    uint64_t steps; /**< the step count predict() returns */
    uint64_t aux;   /**< the algorithm's own small value (load-greedy: its best seed) */
    void *data;     /**< what plan() replays (recorded moves, a solver's schedule), owned by the memo */
} totex_memo;

/**
 * The memo of @p algo for @p net (its spec, nodes and links) under @p ports:
 * 1 and *out filled when it holds that network and port model, else 0. One
 * entry per algorithm per thread; *out's data stays the memo's.
 */
int totex_memo_get(const totex_algorithm *algo, const totex_network *net, totex_ports ports, totex_memo *out);
/**
 * Keep @p steps, @p aux and @p data (freed by @p free_data when replaced,
 * may be NULL) as @p algo's entry for @p net under @p ports, replacing the
 * one before.
 */
void totex_memo_put(const totex_algorithm *algo, const totex_network *net, totex_ports ports, uint64_t steps,
                    uint64_t aux, void *data, void (*free_data)(void *));
/** @p algo's data of its last entry, whatever the network, or NULL. */
void *totex_memo_last(const totex_algorithm *algo);
/** Drop @p algo's entry (new options: search again). */
void totex_memo_forget(const totex_algorithm *algo);

#endif
