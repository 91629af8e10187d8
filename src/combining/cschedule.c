/*
 * Combining schedules (include/totex/combining.h): steps of transfers, each
 * transfer a set of blocks. Three growing arrays: steps index transfers,
 * transfers index blocks, so a schedule is three allocations.
 */
#include "totex/combining.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

typedef struct cstep {
    size_t first, count; /* transfers [first, first + count) */
    uint64_t rearranged;
} cstep;

typedef struct ctransfer {
    uint32_t from, to;
    size_t first, count; /* blocks [first, first + count) */
} ctransfer;

struct totex_comb_schedule {
    totex_comb_keep_fn keep; /* NULL: every transfer is stored; else only those it keeps (a share) */
    void *keep_ctx;
    cstep *steps;
    size_t nsteps, capsteps;
    ctransfer *transfers;
    size_t ntransfers, captransfers;
    totex_block *blocks;
    size_t nblocks, capblocks;
};

void totex_comb_cost_default(totex_comb_cost *c)
{
    /* illustrative orders of magnitude (see combining.h), not from 002 */
    c->t_s = 10e-6;
    c->t_c = 1e-9;
    c->t_l = 50e-9;
    c->rho = 0.5e-9;
    c->m = 1024.0;
    c->switching = TOTEX_SWITCH_WORMHOLE;
    c->ports = TOTEX_PORTS_SINGLE;
}

/* the filter of totex_comb_build_share(), picked up by the schedules made while it runs */
static _Thread_local totex_comb_keep_fn share_keep;
static _Thread_local void *share_ctx;

totex_comb_schedule *totex_comb_schedule_new(void)
{
    totex_comb_schedule *s = calloc(1, sizeof(totex_comb_schedule));
    if (s) {
        s->keep = share_keep;
        s->keep_ctx = share_ctx;
    }
    return s;
}

totex_status totex_comb_build_share(const totex_comb_algorithm *a, const totex_network *net,
                                    const totex_comb_cost *cost, totex_comb_keep_fn keep, void *ctx,
                                    totex_comb_schedule **out, totex_error *err)
{
    share_keep = keep;
    share_ctx = ctx;
    totex_status st = a->build(net, cost, out, err);
    share_keep = NULL;
    share_ctx = NULL;
    return st;
}

void totex_comb_schedule_free(totex_comb_schedule *s)
{
    if (!s)
        return;
    free(s->steps);
    free(s->transfers);
    free(s->blocks);
    free(s);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 16;
    void *q;
    if (need <= *cap)
        return 1;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem)
            return 0;
        c *= 2;
    }
    q = realloc(*p, c * elem);
    if (!q)
        return 0;
    *p = q;
    *cap = c;
    return 1;
}

/* grow an array to exactly @p want elements (never shrinks); 0 when out of memory or too large */
static int reserve_exact(void **p, size_t *cap, uint64_t want, size_t elem)
{
    void *q;
    if (want <= *cap)
        return 1;
    if (want > SIZE_MAX / elem)
        return 0;
    q = realloc(*p, (size_t)want * elem);
    if (!q)
        return 0;
    *p = q;
    *cap = (size_t)want;
    return 1;
}

totex_status totex_comb_schedule_reserve(totex_comb_schedule *s, uint64_t steps, uint64_t transfers,
                                         uint64_t blocks, totex_error *err)
{
    if (!reserve_exact((void **)&s->steps, &s->capsteps, s->nsteps + steps, sizeof *s->steps) ||
        !reserve_exact((void **)&s->transfers, &s->captransfers, s->ntransfers + transfers, sizeof *s->transfers) ||
        !reserve_exact((void **)&s->blocks, &s->capblocks, s->nblocks + blocks, sizeof *s->blocks))
        return totex_fail(err, TOTEX_ENOMEM,
                          "out of memory reserving %llu steps, %llu transfers and %llu blocks of a combining schedule",
                          (unsigned long long)steps, (unsigned long long)transfers, (unsigned long long)blocks);
    return TOTEX_OK;
}

totex_status totex_comb_begin_step(totex_comb_schedule *s, totex_error *err)
{
    if (!grow((void **)&s->steps, &s->capsteps, s->nsteps + 1, sizeof *s->steps))
        return totex_fail(err, TOTEX_ENOMEM, "out of memory adding step %zu to a combining schedule", s->nsteps + 1);
    s->steps[s->nsteps].first = s->ntransfers;
    s->steps[s->nsteps].count = 0;
    s->steps[s->nsteps].rearranged = 0;
    s->nsteps++;
    return TOTEX_OK;
}

totex_status totex_comb_rearrange(totex_comb_schedule *s, uint64_t blocks, totex_error *err)
{
    if (s->nsteps == 0)
        return totex_fail(err, TOTEX_EINVAL, "combining schedule: declare a rearrangement after totex_comb_begin_step()");
    s->steps[s->nsteps - 1].rearranged += blocks;
    return TOTEX_OK;
}

totex_status totex_comb_add_transfer(totex_comb_schedule *s, uint32_t from, uint32_t to, const totex_block *blocks,
                                     size_t count, totex_error *err)
{
    ctransfer *t;
    if (s->nsteps == 0)
        return totex_fail(err, TOTEX_EINVAL, "combining schedule: add a transfer after totex_comb_begin_step()");
    if (s->keep && !s->keep(s->keep_ctx, from, to))
        return TOTEX_OK;
    if (!grow((void **)&s->transfers, &s->captransfers, s->ntransfers + 1, sizeof *s->transfers) ||
        (count && !grow((void **)&s->blocks, &s->capblocks, s->nblocks + count, sizeof *s->blocks)))
        return totex_fail(err, TOTEX_ENOMEM, "out of memory adding a transfer of %zu blocks to a combining schedule",
                          count);
    t = &s->transfers[s->ntransfers++];
    t->from = from;
    t->to = to;
    t->first = s->nblocks;
    t->count = count;
    if (count)
        memcpy(s->blocks + s->nblocks, blocks, count * sizeof *blocks);
    s->nblocks += count;
    s->steps[s->nsteps - 1].count++;
    return TOTEX_OK;
}

uint64_t totex_comb_steps(const totex_comb_schedule *s) { return s->nsteps; }

size_t totex_comb_step_transfers(const totex_comb_schedule *s, uint64_t step)
{
    return step < s->nsteps ? s->steps[step].count : 0;
}

uint64_t totex_comb_step_rearranged(const totex_comb_schedule *s, uint64_t step)
{
    return step < s->nsteps ? s->steps[step].rearranged : 0;
}

totex_status totex_comb_get_transfer(const totex_comb_schedule *s, uint64_t step, size_t t, totex_transfer *out)
{
    if (step >= s->nsteps || t >= s->steps[step].count) {
        out->from = out->to = UINT32_MAX;
        out->blocks = NULL;
        out->count = 0;
        return TOTEX_EINVAL;
    }
    const ctransfer *c = &s->transfers[s->steps[step].first + t];
    out->from = c->from;
    out->to = c->to;
    out->blocks = c->count ? s->blocks + c->first : NULL;
    out->count = c->count;
    return TOTEX_OK;
}
