/* The growable step container shared by schedule.c and symmetric.c. */
#include "schedule/steps.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

int totex_steps_init(totex_steps *s, size_t item_size)
{
    memset(s, 0, sizeof *s);
    s->item_size = item_size;
    s->cap_steps = 16;
    s->start = malloc(sizeof *s->start * (s->cap_steps + 1));
    if (!s->start)
        return -1;
    s->start[0] = 0;
    return 0;
}

void totex_steps_release(totex_steps *s)
{
    free(s->items);
    free(s->start);
    s->items = NULL;
    s->start = NULL;
}

totex_status totex_steps_add(totex_steps *s, const void *items, size_t count, const char *what, totex_error *err)
{
    if (s->steps == s->cap_steps) {
        uint64_t *p = realloc(s->start, sizeof *p * (2 * s->cap_steps + 1));
        if (!p)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory recording a schedule (%llu steps)",
                              (unsigned long long)s->steps);
        s->start = p;
        s->cap_steps *= 2;
    }
    if (s->nitems + count > s->cap_items) {
        uint64_t cap = s->cap_items ? s->cap_items : 256;
        while (cap < s->nitems + count)
            cap *= 2;
        unsigned char *p = realloc(s->items, s->item_size * cap);
        if (!p)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory recording a schedule (%llu %s)",
                              (unsigned long long)(s->nitems + count), what);
        s->items = p;
        s->cap_items = cap;
    }
    if (count)
        memcpy(s->items + s->nitems * s->item_size, items, s->item_size * count);
    s->nitems += count;
    s->steps++;
    s->start[s->steps] = s->nitems;
    return TOTEX_OK;
}

const void *totex_steps_get(const totex_steps *s, uint64_t i, size_t *count)
{
    if (i >= s->steps) {
        *count = 0;
        return NULL;
    }
    *count = (size_t)(s->start[i + 1] - s->start[i]);
    if (!s->items)
        return NULL; /* only idle steps so far: no array (NULL + 0 is undefined; found by fuzz_unit_schedule) */
    return s->items + s->start[i] * s->item_size;
}
