/*
 * In-memory symmetric switching schemes (001 Definition 4, Theorem 2;
 * wraparound meshes: 001 Section 8.1, Theorem 8): a growable array of moves
 * (row, column) of one node and the offsets where each step starts, like the
 * hop recording of schedule.c. Certification is in src/sim/sym_certify.c,
 * expansion to every node in src/schedule/sym_expand.c.
 */
#include <stdlib.h>

#include "common/error.h"
#include "schedule/steps.h"
#include "totex/symmetric.h"

struct totex_sym_schedule {
    totex_steps st;
};

totex_sym_schedule *totex_sym_new(void)
{
    totex_sym_schedule *s = calloc(1, sizeof *s);
    if (s && totex_steps_init(&s->st, sizeof(totex_sym_move))) {
        free(s);
        return NULL;
    }
    return s;
}

void totex_sym_free(totex_sym_schedule *s)
{
    if (!s)
        return;
    totex_steps_release(&s->st);
    free(s);
}

totex_status totex_sym_add_step(totex_sym_schedule *s, const totex_sym_move *moves, size_t count, totex_error *err)
{
    if (!s || (count && !moves))
        return totex_fail(err, TOTEX_EINVAL, "totex_sym_add_step: NULL schedule or moves");
    return totex_steps_add(&s->st, moves, count, "moves", err);
}

uint64_t totex_sym_steps(const totex_sym_schedule *s) { return s->st.steps; }
uint64_t totex_sym_moves(const totex_sym_schedule *s) { return s->st.nitems; }

const totex_sym_move *totex_sym_step(const totex_sym_schedule *s, uint64_t i, size_t *count)
{
    return totex_steps_get(&s->st, i, count);
}
