/*
 * The measured choice of totex_alltoallv for a repeating pattern ("tuning by calls"): where the same counts
 * come back call after call, the form the cost model predicts fastest is run once and timed, then "direct"
 * (what MPI libraries run: every message at once) once and timed, and the faster of the two runs every
 * later call of that pattern. The model alone mispredicts where its costs do not hold (SimGrid's default
 * factors, 4x4 torus, hot receivers, 16 KiB: routed predicted 108 us against direct's 146 took 89 against 80,
 * docs/performance.md, session 24); measuring both bounds every repeated pattern's call by direct's time.
 * Source: none of the papers; the timed trials of totex_alltoall's plans (plan.c) done across calls instead of
 * inside one, since a call of non-uniform counts cannot be run twice.
 *
 * A pattern is named by a key the caller computes from the last call's global figures (the same on every
 * rank). Stages per key: seen once (no trial: counts that change every call never pay one), then the
 * predicted form timed, then direct timed, then decided. A trial's time is the slowest rank's, agreed by
 * one MPI_Allreduce after the call (2 per pattern, none afterwards). TOTEX_TUNE=0 turns trials off (as for
 * totex_alltoall's plans). Memory: O(1) per communicator (the state's vt_* fields).
 */
#include <stdio.h>

#include "internal.h"

enum { VT_SEEN = 0, VT_PREDICTED = 1, VT_DIRECT = 2, VT_DECIDED = 3 };

static unsigned long vt_trials_made;

unsigned long totex_mpi_v_tune_trials(void) { return vt_trials_made; }

int totex_mpi_v_tune_form(totex_mpi_state *st, uint64_t key, int predicted, int direct, int *trial)
{
    *trial = 0;
    if (!totex_mpi_env_switch("TOTEX_TUNE", 1)) {
        st->vt_key = 0;
        return predicted;
    }
    st->vt_direct = direct;
    if (key != st->vt_key) { /* a pattern seen once: the model's choice, untimed */
        st->vt_key = key;
        st->vt_stage = VT_SEEN;
        return predicted;
    }
    switch (st->vt_stage) {
    case VT_SEEN:
        if (predicted == direct) { /* nothing to compare */
            st->vt_stage = VT_DECIDED;
            st->vt_best = predicted;
            st->vt_form = predicted;
            return predicted;
        }
        st->vt_form = predicted;
        *trial = VT_PREDICTED;
        return predicted;
    case VT_PREDICTED:
        if (predicted != st->vt_form) { /* the model changed its mind for the same figures: start again */
            st->vt_stage = VT_SEEN;
            return predicted;
        }
        *trial = VT_DIRECT;
        return direct;
    default:
        return st->vt_form == predicted ? st->vt_best : predicted;
    }
}

int totex_mpi_v_tune_record(totex_mpi_state *st, int trial, double seconds, int ok, int rank, int verbose,
                            const char *entry, int size, const char *form_name, const char *direct_name)
{
    if (!ok) { /* a failed call: the pattern's trials start again */
        st->vt_key = 0;
        return MPI_SUCCESS;
    }
    double slowest = 0;
    int rc = MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, st->dup);
    if (rc != MPI_SUCCESS) {
        st->vt_key = 0;
        return rc;
    }
    vt_trials_made++;
    st->vt_t[trial - 1] = slowest;
    st->vt_stage = trial;
    if (trial == VT_DIRECT) {
        st->vt_stage = VT_DECIDED;
        st->vt_best = st->vt_t[0] <= st->vt_t[1] ? st->vt_form : st->vt_direct;
        if (verbose && rank == 0)
            fprintf(stderr, "totex: %s on %d ranks: measured %s %.1f us, %s %.1f us (the slowest rank's): %s for "
                    "these counts from now on\n", entry ? entry : "totex_alltoallv", size, form_name,
                    st->vt_t[0] * 1e6, direct_name, st->vt_t[1] * 1e6, st->vt_best == st->vt_form ? form_name : direct_name);
    }
    return MPI_SUCCESS;
}
