/*
 * In-memory symmetric switching schemes (001 Definition 4, Theorem 2;
 * wraparound meshes: 001 Section 8.1, Theorem 8): a growable array of moves
 * (row, column) of one node and the offsets where each step starts, like the
 * hop recording of schedule.c. Certification is in src/sim/sym_certify.c,
 * expansion to every node in src/schedule/sym_expand.c.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/symmetric.h"

struct totex_sym_schedule {
    totex_sym_move *moves;
    uint64_t nmoves, cap_moves;
    uint64_t *start; /* start[i] = first move of step i; start[steps] = nmoves */
    uint64_t steps, cap_steps;
};

totex_sym_schedule *totex_sym_new(void)
{
    totex_sym_schedule *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cap_steps = 16;
    s->start = malloc(sizeof *s->start * (s->cap_steps + 1));
    if (!s->start) {
        free(s);
        return NULL;
    }
    s->start[0] = 0;
    return s;
}

void totex_sym_free(totex_sym_schedule *s)
{
    if (!s)
        return;
    free(s->moves);
    free(s->start);
    free(s);
}

totex_status totex_sym_add_step(totex_sym_schedule *s, const totex_sym_move *moves, size_t count, totex_error *err)
{
    if (!s || (count && !moves))
        return totex_fail(err, TOTEX_EINVAL, "totex_sym_add_step: NULL schedule or moves");
    if (s->steps == s->cap_steps) {
        uint64_t *p = realloc(s->start, sizeof *p * (2 * s->cap_steps + 1));
        if (!p)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory recording a symmetric schedule (%llu steps)",
                              (unsigned long long)s->steps);
        s->start = p;
        s->cap_steps *= 2;
    }
    if (s->nmoves + count > s->cap_moves) {
        uint64_t cap = s->cap_moves ? s->cap_moves : 256;
        while (cap < s->nmoves + count)
            cap *= 2;
        totex_sym_move *p = realloc(s->moves, sizeof *p * cap);
        if (!p)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory recording a symmetric schedule (%llu moves)",
                              (unsigned long long)(s->nmoves + count));
        s->moves = p;
        s->cap_moves = cap;
    }
    if (count)
        memcpy(s->moves + s->nmoves, moves, sizeof *moves * count);
    s->nmoves += count;
    s->steps++;
    s->start[s->steps] = s->nmoves;
    return TOTEX_OK;
}

uint64_t totex_sym_steps(const totex_sym_schedule *s) { return s->steps; }
uint64_t totex_sym_moves(const totex_sym_schedule *s) { return s->nmoves; }

const totex_sym_move *totex_sym_step(const totex_sym_schedule *s, uint64_t i, size_t *count)
{
    if (i >= s->steps) {
        *count = 0;
        return NULL;
    }
    *count = (size_t)(s->start[i + 1] - s->start[i]);
    return s->moves + s->start[i];
}
