/*
 * In-memory schedules: a growable array of hops and the offsets where each
 * step starts. Used to keep factor schedules (small) and to build mutated
 * schedules in tests; algorithms on products stream into sinks instead.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/schedule.h"

struct totex_schedule {
    totex_hop *hops;
    uint64_t nhops, cap_hops;
    uint64_t *start; /* start[i] = first hop of step i; start[steps] = nhops */
    uint64_t steps, cap_steps;
};

totex_schedule *totex_schedule_new(void)
{
    totex_schedule *s = calloc(1, sizeof *s);
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

void totex_schedule_free(totex_schedule *s)
{
    if (!s)
        return;
    free(s->hops);
    free(s->start);
    free(s);
}

totex_status totex_schedule_add_step(totex_schedule *s, const totex_hop *hops, size_t count, totex_error *err)
{
    if (s->steps == s->cap_steps) {
        uint64_t *p = realloc(s->start, sizeof *p * (2 * s->cap_steps + 1));
        if (!p)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory recording a schedule (%llu steps)",
                              (unsigned long long)s->steps);
        s->start = p;
        s->cap_steps *= 2;
    }
    if (s->nhops + count > s->cap_hops) {
        uint64_t cap = s->cap_hops ? s->cap_hops : 256;
        while (cap < s->nhops + count)
            cap *= 2;
        totex_hop *p = realloc(s->hops, sizeof *p * cap);
        if (!p)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory recording a schedule (%llu hops)",
                              (unsigned long long)(s->nhops + count));
        s->hops = p;
        s->cap_hops = cap;
    }
    if (count)
        memcpy(s->hops + s->nhops, hops, sizeof *hops * count);
    s->nhops += count;
    s->steps++;
    s->start[s->steps] = s->nhops;
    return TOTEX_OK;
}

uint64_t totex_schedule_steps(const totex_schedule *s) { return s->steps; }
uint64_t totex_schedule_hops(const totex_schedule *s) { return s->nhops; }

const totex_hop *totex_schedule_step(const totex_schedule *s, uint64_t i, size_t *count)
{
    if (i >= s->steps) {
        *count = 0;
        return NULL;
    }
    *count = (size_t)(s->start[i + 1] - s->start[i]);
    return s->hops + s->start[i];
}

static totex_status record_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    return totex_schedule_add_step(ctx, hops, count, err);
}

totex_sink totex_schedule_sink(totex_schedule *s)
{
    totex_sink sink = {record_step, s};
    return sink;
}

totex_status totex_schedule_replay(const totex_schedule *s, totex_sink sink, totex_error *err)
{
    for (uint64_t i = 0; i < s->steps; i++) {
        size_t cnt;
        const totex_hop *h = totex_schedule_step(s, i, &cnt);
        totex_status st = sink.step(sink.ctx, h, cnt, err);
        if (st != TOTEX_OK)
            return st;
    }
    return TOTEX_OK;
}
