/* Private to src/ and the tests: the review of the simulator's state layout (src/sim/sim.c). */
#ifndef TOTEX_SIM_SIM_LAYOUT_H
#define TOTEX_SIM_SIM_LAYOUT_H

#include <stdint.h>

#include "totex/sim.h"

/**
 * Sample a step for the review of the state's layout every @p hops hops
 * (0 is taken as 1) instead of every n^2/8 (at least 65,536): the tests
 * replay short schedules with the state moved between layouts as they go.
 * @param sim a simulator, before its first step or between steps.
 */
void totex_sim_review_every(totex_sim *sim, uint64_t hops);

/**
 * @param sim a simulator.
 * @return how many times the state moved to another layout after the first
 * choice (at step 64), by the review.
 */
uint32_t totex_sim_relayouts(const totex_sim *sim);

/**
 * Move the state to layout @p layout now (0 by offset, 1 by destination, 2
 * by source; another value: nothing), as the review would: the tests check
 * that every move keeps where each message is. Out of memory: it stays.
 * @param sim a simulator, between steps.
 */
void totex_sim_set_layout(totex_sim *sim, int layout);

/**
 * Hold the one-loop forms' pre-pass (src/sim/sim.c, pick_pre()) to its
 * portable form (@p on nonzero) even where the processor has AVX2, or let it
 * take AVX2 again (0): the tests replay in both forms.
 * @param sim a simulator, between steps.
 */
void totex_sim_portable(totex_sim *sim, int on);

/**
 * Prefetch the state word of the hop @p hops ahead in the one-loop forms
 * (src/sim/sim.c, prefetch_distance(): 16, or 96 for a state over 32 MiB
 * whose steps touch more than a line of it in 4 hops; clamped to 1..96),
 * from now on, whatever the layout's review finds: the benchmarks compare
 * distances on one planned schedule, the tests replay with either.
 * @param sim a simulator, between steps.
 */
void totex_sim_prefetch_ahead(totex_sim *sim, uint32_t hops);

#endif
