/*
 * The measured choice of totex_alltoallv for a repeating pattern ("tuning by calls"): where the same counts
 * come back call after call, the form the cost model predicts fastest is run once and timed, then a second
 * candidate the caller names (balanced where it applies and was planned: its prediction's 13% margin keeps it
 * out where it runs fastest, 4x4x4 hot receivers at 64 KiB, docs/performance.md), then "direct" (what MPI
 * libraries run: every message at once), each once and timed, and the fastest runs every later call of that
 * pattern. The model alone mispredicts where its costs do not hold (SimGrid's default
 * factors, 4x4 torus, hot receivers, 16 KiB: routed predicted 108 us against direct's 146 took 89 against 80,
 * docs/performance.md, "Session 24: alltoallv never slower than SMPI's best"); measuring both bounds every repeated
 * pattern's call by direct's time.
 * Source: none of the papers; the timed trials of totex_alltoall's plans (plan.c) done across calls instead of
 * inside one, since a call of non-uniform counts cannot be run twice.
 *
 * A pattern is named by a key the caller computes from the last call's global figures (the same on every
 * rank). Stages per key: seen once (no trial: counts that change every call never pay one), then the
 * predicted form timed, the second candidate timed, direct timed, then decided. A trial's time is the slowest
 * rank's from a barrier, agreed by one MPI_Allreduce after the call (2 or 3 per pattern, none afterwards). TOTEX_TUNE=0 turns trials off (as for
 * totex_alltoall's plans). Memory: O(1) per communicator (the state's vt_* fields).
 */
#include <stdio.h>

#include "internal.h"

enum { VT_SEEN = 0, VT_PREDICTED = 1, VT_SECOND = 2, VT_DIRECT = 3, VT_DECIDED = 4 };

static unsigned long vt_trials_made;

unsigned long totex_mpi_v_tune_trials(void) { return vt_trials_made; }

int totex_mpi_v_tune_form(totex_mpi_state *st, uint64_t key, int predicted, int second, int direct, int *trial)
{
    *trial = 0;
    if (!totex_mpi_env_switch("TOTEX_TUNE", 1)) {
        st->vt_key = 0;
        return predicted;
    }
    if (key != st->vt_key) { /* a pattern seen once: the model's choice, untimed */
        st->vt_key = key;
        st->vt_stage = VT_SEEN;
        return predicted;
    }
    if (st->vt_stage != VT_SEEN && predicted != st->vt_form) { /* the model changed its mind: start again */
        st->vt_stage = VT_SEEN;
        return predicted;
    }
    switch (st->vt_stage) {
    case VT_SEEN:
        st->vt_form = predicted;
        st->vt_second = second >= 0 && second != predicted && second != direct ? second : -1;
        st->vt_direct = direct;
        if (predicted == direct && st->vt_second < 0) { /* nothing to compare */
            st->vt_stage = VT_DECIDED;
            st->vt_best = predicted;
            return predicted;
        }
        st->vt_t[0] = st->vt_t[1] = st->vt_t[2] = -1;
        if (predicted == direct) { /* direct is timed last */
            *trial = VT_SECOND;
            return st->vt_second;
        }
        *trial = VT_PREDICTED;
        return predicted;
    case VT_PREDICTED:
        *trial = st->vt_second >= 0 ? VT_SECOND : VT_DIRECT;
        return st->vt_second >= 0 ? st->vt_second : direct;
    case VT_SECOND:
        *trial = VT_DIRECT;
        return direct;
    default:
        return st->vt_best;
    }
}

int totex_mpi_v_tune_record(totex_mpi_state *st, int trial, double seconds, int ok, int rank, int verbose,
                            const char *entry, int size, const char *const *names)
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
    if (trial != VT_DIRECT)
        return MPI_SUCCESS;
    /* decided: the fastest of the forms timed (direct's time stands for the predicted form when that is direct) */
    const int form[3] = {st->vt_form, st->vt_second, st->vt_direct};
    int best = 2;
    for (int k = 0; k < 2; k++)
        if (form[k] >= 0 && st->vt_t[k] >= 0 && st->vt_t[k] <= st->vt_t[best])
            best = k;
    st->vt_best = form[best];
    st->vt_stage = VT_DECIDED;
    if (verbose && rank == 0) {
        char said[192] = "";
        size_t len = 0;
        for (int k = 0; k < 3 && len < sizeof said; k++)
            if (form[k] >= 0 && st->vt_t[k] >= 0)
                len += (size_t)snprintf(said + len, sizeof said - len, "%s%s %.1f us", len ? ", " : "",
                                        names[form[k]], st->vt_t[k] * 1e6);
        fprintf(stderr, "totex: %s on %d ranks: measured %s (the slowest rank's): %s for these counts from now on\n",
                entry ? entry : "totex_alltoallv", size, said, names[form[best]]);
    }
    return MPI_SUCCESS;
}
