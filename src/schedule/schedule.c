/*
 * In-memory schedules: a growable array of hops and the offsets where each
 * step starts. Used to keep factor schedules (small) and to build mutated
 * schedules in tests; algorithms on products stream into sinks instead.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "schedule/steps.h"
#include "totex/schedule.h"

struct totex_schedule {
    totex_steps st;
};

totex_schedule *totex_schedule_new(void)
{
    totex_schedule *s = calloc(1, sizeof *s);
    if (s && totex_steps_init(&s->st, sizeof(totex_hop))) {
        free(s);
        return NULL;
    }
    return s;
}

void totex_schedule_free(totex_schedule *s)
{
    if (!s)
        return;
    totex_steps_release(&s->st);
    free(s);
}

totex_status totex_schedule_add_step(totex_schedule *s, const totex_hop *hops, size_t count, totex_error *err)
{
    return totex_steps_add(&s->st, hops, count, "hops", err);
}

uint64_t totex_schedule_steps(const totex_schedule *s) { return s->st.steps; }
uint64_t totex_schedule_hops(const totex_schedule *s) { return s->st.nitems; }

const totex_hop *totex_schedule_step(const totex_schedule *s, uint64_t i, size_t *count)
{
    return totex_steps_get(&s->st, i, count);
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
    for (uint64_t i = 0; i < s->st.steps; i++) {
        size_t cnt;
        const totex_hop *h = totex_schedule_step(s, i, &cnt);
        totex_status st = sink.step(sink.ctx, h, cnt, err);
        if (st != TOTEX_OK)
            return st;
    }
    return TOTEX_OK;
}
