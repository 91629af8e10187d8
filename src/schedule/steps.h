/* Private to src/schedule/: a growable sequence of steps of fixed-size items
 * (hops of a schedule, moves of a symmetric schedule): one array of items and
 * the offset where each step starts. */
#ifndef TOTEX_STEPS_H
#define TOTEX_STEPS_H

#include "totex/common.h"

typedef struct totex_steps {
    unsigned char *items;
    size_t item_size;
    uint64_t nitems, cap_items;
    uint64_t *start; /* start[i] = first item of step i; start[steps] = nitems */
    uint64_t steps, cap_steps;
} totex_steps;

/** Initialise for items of @p item_size bytes; -1 on ENOMEM. */
int totex_steps_init(totex_steps *s, size_t item_size);
/** Release the arrays. */
void totex_steps_release(totex_steps *s);
/** Append a step of @p count items (copied); @p what names them in the error ("hops", "moves"). */
totex_status totex_steps_add(totex_steps *s, const void *items, size_t count, const char *what, totex_error *err);
/** Items of step @p i and their count (NULL and 0 past the end). */
const void *totex_steps_get(const totex_steps *s, uint64_t i, size_t *count);

#endif
