/* One rank's program for one candidate (build.h): the candidate's schedule,
 * this rank's share of it, compiled. The schedules themselves are not kept.
 *
 * Receive window (the runtime's posting ahead of the forced point, src/mpi/run.c):
 * by default those of TOTEX_PROG_RECV_WINDOW_STEPS steps (the program's
 * receives per step, rounded up) for a unit-step program, no limit for a
 * combining one: its steps are not a link's (direct's "steps" are its n - 1
 * destinations, one receive each), and it has at most a few receives per rank
 * and other rank (SimGrid, 4x4, default factors, 2048 B: a window of 4 made
 * direct's trial slower, and the trial then took pairwise, 1.08 x
 * basic_linear). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "compile.h"
#include "ring.h"
#include "share.h"

void totex_prog_opts_default(totex_prog_opts *o)
{
    o->window = 1;
    o->arena_blocks = -1;
    o->recv_window = -1;
}

size_t totex_prog_arena_default_blocks(const totex_network *net, uint32_t size)
{
    const size_t by_n = (size_t)TOTEX_PROG_ARENA_BLOCKS_PER_RANK * size,
                 by_links = (size_t)TOTEX_PROG_ARENA_BLOCKS_PER_LINK * (net ? totex_network_degree(net, 0) : 1);
    return by_n < by_links ? by_n : by_links;
}

static int keep_share(void *ctx, uint32_t from, uint32_t to)
{
    return totex_prog_share_keeps(ctx, from, to);
}

static size_t recv_window(const totex_prog *p, const totex_prog_opts *o)
{
    if (o->recv_window >= 0)
        return (size_t)o->recv_window;
    if (!p->unit)
        return 0;
    const size_t steps = p->steps ? (size_t)p->steps : 1;
    return TOTEX_PROG_RECV_WINDOW_STEPS * ((p->nrecv + steps - 1) / steps);
}

totex_status totex_prog_build(const totex_network *net, const totex_comb_cost *cost, const totex_prog_cand *c,
                              uint32_t size, uint32_t rank, long long slot, const totex_prog_opts *o,
                              totex_prog **out, totex_error *err)
{
    totex_prog_opts dflt;
    if (!o) {
        totex_prog_opts_default(&dflt);
        o = &dflt;
    }
    totex_prog *p = *out = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return TOTEX_ENOMEM;
    }
    p->slot = slot;
    p->n = size;
    p->me = rank;
    {
        /* a padded message of one block takes c->pad bytes of the arena: count blocks at that size */
        size_t blocks = o->arena_blocks >= 0 ? (size_t)o->arena_blocks : totex_prog_arena_default_blocks(net, size);
        size_t per = (size_t)(c->pad > slot ? c->pad : slot);
        p->arena_cap = per > 0 && blocks > SIZE_MAX / per ? SIZE_MAX : blocks * per;
    }
    p->unit = c->unit;
    p->ports = c->ports;
    p->pad = c->pad;
    /* a combining candidate "in chunks, relayed only": the sender's own final blocks in c->stagger messages
       (1: whole; compile.c) */
    p->own_whole = !c->unit && c->chunks > 1 && c->stagger > 0 ? c->stagger : 0;
    /* the check's ring, as the runtime's state has it (from the same network) */
    totex_prog_check_ring(net, rank, &p->ring_pred, &p->ring_succ);
    p->ring_set = net != NULL;
    /* staggered lanes start aligned on every rank after as many kick rounds as the network's diameter (compile.c) */
    p->sync_rounds = net && c->unit && c->stagger > 1 ? (uint32_t)totex_network_diameter(net) : 0;
    totex_prog_cand_name(c, p->label, sizeof p->label);
    totex_error e;
    e.msg[0] = '\0';
    totex_prog_share l;
    totex_prog_share_init(&l, size, rank);
    if (p->ring_set)
        l.pred = p->ring_pred;
    totex_status ts;
    /* a symmetric unit-step schedule: node 0's moves translated TOTEX_PROG_SHARE_SEGMENT steps at a time
       as the compiler reads them (twice), never this rank's whole share at once */
    totex_task *sym_t = NULL;
    totex_sym_schedule *sym_s = NULL;
    totex_prog_share_src src = {&l, NULL, TOTEX_PROG_SHARE_SEGMENT, 0};
    if (c->unit) {
        const totex_algorithm *a = totex_algorithm_get((size_t)c->idx);
        p->algorithm = a->name;
        ts = net ? a->applies(net, c->ports, &e) : TOTEX_EINVAL;
        if (ts == TOTEX_OK && a->plan_symmetric) {
            ts = a->plan_symmetric(net, c->ports, &sym_t, &sym_s, &e);
            if (ts == TOTEX_OK && !(src.trans = totex_prog_trans_new(sym_t, sym_s))) {
                snprintf(e.msg, sizeof e.msg, "out of memory translating a symmetric schedule to rank %u", rank);
                ts = TOTEX_ENOMEM;
            }
        } else if (ts == TOTEX_OK) {
            ts = totex_prog_share_from_unit(&l, a, net, c->ports, NULL, &e);
        }
    } else {
        const totex_comb_algorithm *a = totex_comb_algorithm_get((size_t)c->idx);
        totex_comb_schedule *sched = NULL;
        p->algorithm = a->name;
        /* this rank's share only (the schedule's O(n^2) blocks are never held): node 0's transfers
           translated when the schedule is translation invariant, else the share of the built one */
        ts = net && a->plan_node0 ? a->plan_node0(net, cost, &sched, &e) : TOTEX_ENOTAPPLICABLE;
        if (ts == TOTEX_OK) {
            ts = totex_prog_share_from_node0(&l, net, sched, &e);
        } else {
            ts = net ? totex_comb_build_share(a, net, cost, keep_share, &l, &sched, &e) : TOTEX_EINVAL;
            if (ts == TOTEX_OK)
                ts = totex_prog_share_from_comb(&l, sched, &e);
        }
        totex_comb_schedule_free(sched);
    }
    if (ts != TOTEX_OK)
        snprintf(err->msg, sizeof err->msg, "algorithm %.40s on %.100s: %.300s", p->algorithm,
                 net ? totex_network_spec(net) : "?", e.msg);
    else
        ts = totex_prog_compile_src(p, &src, c->chunks, c->unit ? o->window : 0, c->unit && c->stagger, err);
    totex_prog_trans_free(src.trans);
    totex_sym_free(sym_s);
    totex_task_free(sym_t);
    totex_prog_share_free(&l);
    if (ts == TOTEX_OK)
        p->recv_window = recv_window(p, o);
    if (ts == TOTEX_OK && size > TOTEX_PROG_SCALE_MAX) {
        /* above the scale limit a program's buffers stay within one extra buffer of n blocks and
           TOTEX_PROG_BUFFER_SLACK bytes (the n blocks a Bruck-like exchange needs) */
        const double budget = (double)size * (double)slot + (double)TOTEX_PROG_BUFFER_SLACK,
                     need = (double)p->arena_bytes + (double)p->stage_bytes + (double)totex_prog_bytes(p);
        if (need > budget) {
            snprintf(err->msg, sizeof err->msg,
                     "algorithm %.40s on %.100s: its buffers and program (%.0f MiB of arena, staging and entries) exceed "
                     "one buffer of n blocks and %d MiB (%.0f MiB) above %d ranks",
                     p->algorithm, totex_network_spec(net), need / 1048576, TOTEX_PROG_BUFFER_SLACK >> 20,
                     budget / 1048576, TOTEX_PROG_SCALE_MAX);
            ts = TOTEX_ENOMEM;
        }
    }
    return ts;
}
