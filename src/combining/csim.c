/*
 * The combining simulator (include/totex/combining.h): replays a schedule of
 * combined transfers on a network and rejects every violation with the step,
 * transfer, node and block that broke the rule. It reads only the network
 * (coordinates, factor adjacency) and the cost model; it never trusts the
 * algorithm that built the schedule.
 *
 * State: for each block (s, d), s != d, the node holding it (indexed
 * s * n + d), and the step in which it was last sent. Per step, a first pass
 * checks every transfer against the state at the start of the step (route on
 * links, ports, directed links, blocks held and not yet delivered, no block
 * twice); a second pass moves the blocks. Contention: every directed link
 * (u, v) of every route of the step is recorded and the list sorted, so two
 * transfers on one link are found in O(L log L).
 */
#include "totex/combining.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combining/route.h"
#include "common/error.h"
#include "totex/progress.h"

/* work (transfers + block-hops) between two ticks of the progress meter */
#define CSIM_TICK_WORK 4096u

const char *totex_comb_violation_name(totex_comb_violation v)
{
    switch (v) {
    case TOTEX_CVIOL_NONE: return "none";
    case TOTEX_CVIOL_BAD_NODE: return "bad node";
    case TOTEX_CVIOL_NOT_LINK: return "route over a non-link";
    case TOTEX_CVIOL_BAD_BLOCK: return "no such block";
    case TOTEX_CVIOL_NOT_HELD: return "block not held by the sender";
    case TOTEX_CVIOL_DUPLICATE: return "block duplicated";
    case TOTEX_CVIOL_DELIVERED_TWICE: return "block delivered twice";
    case TOTEX_CVIOL_LINK_BUSY: return "link contention";
    case TOTEX_CVIOL_PORT_SEND: return "one-port violation (send)";
    case TOTEX_CVIOL_PORT_RECV: return "one-port violation (receive)";
    case TOTEX_CVIOL_LOST: return "block lost";
    }
    return "unknown violation";
}

typedef struct link_use {
    uint64_t key; /* u * n + v */
    uint64_t transfer;
} link_use;

typedef struct csim {
    const totex_network *net;
    uint32_t n, k;
    uint32_t *loc;        /* n * n: holder of block (s, d) */
    uint32_t *sent;       /* n * n: 1-based step of the block's last send */
    uint32_t *send_stamp; /* n: 1-based step of the node's last send */
    uint32_t *recv_stamp;
    link_use *links;
    size_t nlinks, caplinks;
    uint32_t *route; /* scratch: nodes of one route */
    size_t caproute;
    totex_comb_fault *fault;
} csim;

static void coords_text(const csim *c, uint32_t v, char *buf, size_t len)
{
    size_t used;
    if (v >= c->n) {
        snprintf(buf, len, "(out of range)");
        return;
    }
    used = (size_t)snprintf(buf, len, "(");
    for (uint32_t i = 0; i < c->k && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%u", i ? "," : "", totex_network_coord(c->net, v, i));
    if (used < len)
        snprintf(buf + used, len - used, ")");
}

static totex_status fail_at(csim *c, totex_comb_violation kind, uint64_t step, uint64_t transfer,
                            const totex_transfer *t, uint32_t node, uint32_t src, uint32_t dst, const char *detail,
                            totex_error *err)
{
    char cf[160], ct[160], blk[64];
    if (c->fault) {
        c->fault->kind = kind;
        c->fault->step = step;
        c->fault->transfer = transfer;
        c->fault->node = node;
        c->fault->src = src;
        c->fault->dst = dst;
    }
    if (src != UINT32_MAX)
        snprintf(blk, sizeof blk, "block %u->%u", src, dst);
    else
        snprintf(blk, sizeof blk, "no block");
    if (t) {
        coords_text(c, t->from, cf, sizeof cf);
        coords_text(c, t->to, ct, sizeof ct);
        return totex_fail(err, TOTEX_EVIOLATION,
                          "step %llu, transfer %llu (%u%s -> %u%s, %zu blocks): %s at node %u, %s: %s",
                          (unsigned long long)step, (unsigned long long)transfer, t->from, cf, t->to, ct, t->count,
                          totex_comb_violation_name(kind), node, blk, detail);
    }
    coords_text(c, node, cf, sizeof cf);
    return totex_fail(err, TOTEX_EVIOLATION, "after step %llu: %s at node %u%s, %s: %s", (unsigned long long)step,
                      totex_comb_violation_name(kind), node, cf, blk, detail);
}


/* Fill c->route with the route of a transfer; returns its number of hops, or 0 on out of memory. */
static size_t build_route(csim *c, uint32_t from, uint32_t to, totex_switching sw)
{
    size_t len = 0;
    uint64_t need = sw == TOTEX_SWITCH_STORE_FORWARD ? 2 : totex_network_distance(c->net, from, to) + 1;
    if (need > c->caproute) {
        uint32_t *r = realloc(c->route, (size_t)need * sizeof *r);
        if (!r)
            return 0;
        c->route = r;
        c->caproute = (size_t)need;
    }
    c->route[len++] = from;
    if (sw == TOTEX_SWITCH_STORE_FORWARD) {
        c->route[len++] = to;
        return 1;
    }
    return totex_comb_route(c->net, from, to, c->route, (size_t)need);
}

static int cmp_link(const void *pa, const void *pb)
{
    const link_use *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->transfer < b->transfer ? -1 : a->transfer > b->transfer;
}

static void csim_free(csim *c)
{
    free(c->loc);
    free(c->sent);
    free(c->send_stamp);
    free(c->recv_stamp);
    free(c->links);
    free(c->route);
}

totex_status totex_comb_simulate(const totex_network *net, const totex_comb_schedule *s, const totex_comb_cost *cost,
                                 totex_comb_report *rep, totex_comb_fault *fault, totex_error *err)
{
    return totex_comb_simulate_progress(net, s, cost, rep, fault, NULL, err);
}

totex_status totex_comb_simulate_progress(const totex_network *net, const totex_comb_schedule *s,
                                          const totex_comb_cost *cost, totex_comb_report *rep,
                                          totex_comb_fault *fault, totex_progress *progress, totex_error *err)
{
    csim c;
    uint64_t ticked_work = 0, unticked_steps = 0;
    totex_comb_report r;
    totex_status st = TOTEX_OK;
    const uint32_t n = totex_network_nodes(net);
    const uint64_t nsteps = totex_comb_steps(s);
    char detail[256];

    memset(&c, 0, sizeof c);
    memset(&r, 0, sizeof r);
    if (fault)
        memset(fault, 0, sizeof *fault);
    if ((uint64_t)n * n > TOTEX_COMB_MAX_BLOCKS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "%s has %llu blocks (%u nodes): the combining simulator is limited to %llu blocks",
                          totex_network_spec(net), (unsigned long long)n * n, n,
                          (unsigned long long)TOTEX_COMB_MAX_BLOCKS);
    if (cost->ports != TOTEX_PORTS_SINGLE && cost->ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_EINVAL,
                          "the combining model has no %u-port form: its port model is one-port (TOTEX_PORTS_SINGLE) or "
                          "all-port (TOTEX_PORTS_MULTI), 002 Section 2",
                          (unsigned)cost->ports);
    if (nsteps >= UINT32_MAX)
        return totex_fail(err, TOTEX_EINVAL, "combining schedule has %llu steps: at most %u are simulated",
                          (unsigned long long)nsteps, UINT32_MAX - 1);
    c.net = net;
    c.n = n;
    c.k = totex_network_dims(net);
    c.fault = fault;
    c.loc = malloc(sizeof *c.loc * (size_t)n * n);
    c.sent = calloc((size_t)n * n, sizeof *c.sent);
    c.send_stamp = calloc(n, sizeof *c.send_stamp);
    c.recv_stamp = calloc(n, sizeof *c.recv_stamp);
    if (!c.loc || !c.sent || !c.send_stamp || !c.recv_stamp)
        goto nomem;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++)
            c.loc[(size_t)a * n + b] = a;

    r.steps = nsteps;
    for (uint64_t step = 0; step < nsteps; step++) {
        const uint32_t stamp = (uint32_t)(step + 1);
        const size_t nt = totex_comb_step_transfers(s, step);
        size_t largest = 0, longest = 0;
        c.nlinks = 0;
        r.rearranged_blocks += totex_comb_step_rearranged(s, step);
        for (size_t ti = 0; ti < nt; ti++) {
            totex_transfer t;
            size_t hops;
            totex_comb_get_transfer(s, step, ti, &t);
            if (t.count == 0)
                continue;
            if (t.from >= n || t.to >= n || t.from == t.to) {
                snprintf(detail, sizeof detail, "transfers go between two distinct nodes of the %u of %s", n,
                         totex_network_spec(net));
                st = fail_at(&c, TOTEX_CVIOL_BAD_NODE, step + 1, ti + 1, &t, t.from >= n ? t.to : t.from,
                             UINT32_MAX, UINT32_MAX, detail, err);
                goto out;
            }
            if (cost->switching == TOTEX_SWITCH_STORE_FORWARD && !totex_network_adjacent(net, t.from, t.to)) {
                st = fail_at(&c, TOTEX_CVIOL_NOT_LINK, step + 1, ti + 1, &t, t.from, UINT32_MAX, UINT32_MAX,
                             "under store-and-forward a transfer crosses one link, and these nodes are not adjacent",
                             err);
                goto out;
            }
            hops = build_route(&c, t.from, t.to, cost->switching);
            if (hops == 0)
                goto nomem;
            /* independent check of every hop of the route, and its links for contention */
            if (c.nlinks + hops > c.caplinks) {
                size_t cap = c.caplinks ? c.caplinks : 64;
                link_use *l;
                while (cap < c.nlinks + hops)
                    cap *= 2;
                l = realloc(c.links, cap * sizeof *l);
                if (!l)
                    goto nomem;
                c.links = l;
                c.caplinks = cap;
            }
            for (size_t h = 0; h < hops; h++) {
                uint32_t u = c.route[h], v = c.route[h + 1];
                if (!totex_network_adjacent(net, u, v)) {
                    snprintf(detail, sizeof detail, "hop %zu of the route, %u -> %u, is not a link", h + 1, u, v);
                    st = fail_at(&c, TOTEX_CVIOL_NOT_LINK, step + 1, ti + 1, &t, u, UINT32_MAX, UINT32_MAX, detail,
                                 err);
                    goto out;
                }
                c.links[c.nlinks].key = (uint64_t)u * n + v;
                c.links[c.nlinks].transfer = ti;
                c.nlinks++;
            }
            if (cost->ports == TOTEX_PORTS_SINGLE) {
                if (c.send_stamp[t.from] == stamp) {
                    st = fail_at(&c, TOTEX_CVIOL_PORT_SEND, step + 1, ti + 1, &t, t.from, UINT32_MAX, UINT32_MAX,
                                 "one-port: the node already injects another transfer in this step", err);
                    goto out;
                }
                if (c.recv_stamp[t.to] == stamp) {
                    st = fail_at(&c, TOTEX_CVIOL_PORT_RECV, step + 1, ti + 1, &t, t.to, UINT32_MAX, UINT32_MAX,
                                 "one-port: the node already consumes another transfer in this step", err);
                    goto out;
                }
                c.send_stamp[t.from] = stamp;
                c.recv_stamp[t.to] = stamp;
            }
            for (size_t b = 0; b < t.count; b++) {
                const totex_block *bl = &t.blocks[b];
                size_t idx;
                if (bl->src >= n || bl->dst >= n || bl->src == bl->dst) {
                    snprintf(detail, sizeof detail,
                             "blocks are pairs (src, dst) of distinct nodes below %u; a node's block for itself never travels",
                             n);
                    st = fail_at(&c, TOTEX_CVIOL_BAD_BLOCK, step + 1, ti + 1, &t, t.from, bl->src, bl->dst, detail,
                                 err);
                    goto out;
                }
                idx = (size_t)bl->src * n + bl->dst;
                if (c.loc[idx] != t.from) {
                    snprintf(detail, sizeof detail, "the block is at node %u at the start of this step",
                             c.loc[idx]);
                    st = fail_at(&c, TOTEX_CVIOL_NOT_HELD, step + 1, ti + 1, &t, t.from, bl->src, bl->dst, detail,
                                 err);
                    goto out;
                }
                if (t.from == bl->dst) {
                    st = fail_at(&c, TOTEX_CVIOL_DELIVERED_TWICE, step + 1, ti + 1, &t, t.from, bl->src, bl->dst,
                                 "the block already reached its destination and is sent on", err);
                    goto out;
                }
                if (c.sent[idx] == stamp) {
                    st = fail_at(&c, TOTEX_CVIOL_DUPLICATE, step + 1, ti + 1, &t, t.from, bl->src, bl->dst,
                                 "the block is already sent once in this step", err);
                    goto out;
                }
                c.sent[idx] = stamp;
            }
            if (t.count > largest)
                largest = t.count;
            if (hops > longest)
                longest = hops;
            if (hops > r.max_route_hops)
                r.max_route_hops = (uint32_t)hops;
            r.block_hops += (uint64_t)t.count * hops;
            r.transfers++;
        }
        if (c.nlinks > 1) {
            qsort(c.links, c.nlinks, sizeof *c.links, cmp_link);
            for (size_t i = 1; i < c.nlinks; i++)
                if (c.links[i].key == c.links[i - 1].key && c.links[i].transfer != c.links[i - 1].transfer) {
                    totex_transfer t;
                    uint32_t u = (uint32_t)(c.links[i].key / n), v = (uint32_t)(c.links[i].key % n);
                    totex_comb_get_transfer(s, step, c.links[i].transfer, &t);
                    snprintf(detail, sizeof detail, "directed link %u -> %u is also used by transfer %llu", u, v,
                             (unsigned long long)c.links[i - 1].transfer + 1);
                    st = fail_at(&c, TOTEX_CVIOL_LINK_BUSY, step + 1, c.links[i].transfer + 1, &t, u, UINT32_MAX,
                                 UINT32_MAX, detail, err);
                    goto out;
                }
        }
        /* second pass: move the blocks */
        for (size_t ti = 0; ti < nt; ti++) {
            totex_transfer t;
            totex_comb_get_transfer(s, step, ti, &t);
            for (size_t b = 0; b < t.count; b++)
                c.loc[(size_t)t.blocks[b].src * n + t.blocks[b].dst] = t.to;
        }
        if (largest > 0) {
            r.startups++;
            r.blocks_transmitted += largest;
            r.route_hops_sum += longest;
        }
        /* progress: a tick per step when steps are heavy, per batch of steps when they are light */
        unticked_steps++;
        if (progress && r.transfers + r.block_hops - ticked_work >= CSIM_TICK_WORK) {
            totex_progress_tick(progress, unticked_steps);
            unticked_steps = 0;
            ticked_work = r.transfers + r.block_hops;
        }
    }
    totex_progress_tick(progress, unticked_steps);
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) {
            uint32_t at = c.loc[(size_t)a * n + b];
            if (a == b)
                continue;
            if (at != b) {
                snprintf(detail, sizeof detail, "the block ends at node %u instead of its destination %u", at, b);
                st = fail_at(&c, TOTEX_CVIOL_LOST, nsteps, 0, NULL, at, a, b, detail, err);
                goto out;
            }
            r.blocks_delivered++;
        }
    r.time_startup = (double)r.startups * cost->t_s;
    r.time_transmission = (double)r.blocks_transmitted * cost->m * cost->t_c;
    r.time_propagation = cost->switching == TOTEX_SWITCH_STORE_FORWARD ? (double)r.route_hops_sum * cost->t_l : 0.0;
    r.time_rearrangement = (double)r.rearranged_blocks * cost->m * cost->rho;
    r.predicted_time = r.time_startup + r.time_transmission + r.time_propagation + r.time_rearrangement;
    if (!isfinite(r.predicted_time)) {
        /* a valid schedule whose cost does not fit a double: say so rather than report Infinity */
        st = totex_fail(err, TOTEX_EOVERFLOW,
                        "the predicted time overflows a double (start-up %g s x %llu, transmission %g s, "
                        "rearrangement %g s): give smaller costs (--ts, --tc, --tl, --rho, --block or the file's model)",
                        cost->t_s, (unsigned long long)r.startups, r.time_transmission, r.time_rearrangement);
        goto out;
    }
    if (rep)
        *rep = r;
out:
    csim_free(&c);
    return st;
nomem:
    csim_free(&c);
    return totex_fail(err, TOTEX_ENOMEM, "out of memory simulating a combining schedule on %s",
                      totex_network_spec(net));
}
