/* Cost model of totex_alltoall's candidates (docs/mpi.md, "The choice model").
 *
 * Three costs measured on the communicator (src/mpi/measure.c): t_s, the start-up of a
 * message (seconds); t_c, the time per byte of one flow (seconds/byte: a
 * single message's bandwidth); t_l, the time per byte of a link carrying
 * several concurrent flows (seconds/byte: the link's bandwidth). A network
 * where one flow fills a link has t_c = t_l; SimGrid's calibrated SMPI
 * factors give a flow about a third of a link, t_c = 3 t_l.
 *
 * Both are measured with 64 KiB messages and with TOTEX_PROG_COST_CHUNK-byte
 * ones (MPI libraries switch protocols by size, SMPI's calibrated factors
 * give 8 KiB messages more of a link than 64 KiB ones); a size between is
 * interpolated linearly in log2(size).
 *
 * Unit-step schedule of S steps (one block of m bytes per link per step,
 * multiport; per port under k-port), each transfer split into c chunks of
 * x = m / c bytes that travel as concurrent flows (lanes), each extra message
 * costing TOTEX_PROG_CHUNK_OVERHEAD t_s:
 *     T(c) = S (t_s (1 + 0.05 (c - 1)) h + m max(t_l(x), t_c(x) / c)),
 * h = 1 when the lanes start together: every step of a link pays a start-up
 * while no lane moves data (a relayed chunk leaves when it has arrived, and
 * the chunks of a step arrive together). Staggered lanes (compile.c: lane i
 * starts i latencies behind lane 0, behind a chain of zero-byte kicks)
 * overlap each lane's start-up with the others' transfer: h = (1 + 1 / c) / 2,
 * but the part hidden, (1 - h) t_s (1 + 0.05 (c - 1)), never exceeds the
 * others' transfer time, (c - 1) / c of the step's m max(..) term (small
 * blocks hide nothing), and the kicks delay lane c - 1 by (c - 1) t_s (added
 * once). h is fitted, not derived: on SimGrid SMPI's 4x4 torus with flat
 * factors (bench/smpi/run.sh, 3 calls), octr at 64 KiB spends per step
 * beyond the link time m t_l 1.50 us in one message, staggered 0.90 us in 2
 * chunks, 0.61 in 3 and 0.62 in 4 (the kicks' (c - 1) t_s taken out; h t_s
 * (1 + 0.05 (c - 1)) says 0.79, 0.73, 0.72 and the link's cross-traffic
 * share, 0.05 m t_l = 0.33 us, is in every figure); at 32 KiB 0.73, 0.85 and
 * 0.95 us (h: the same): the lanes' synchronous hand-overs (window) add a
 * latency per lane and step that only longer chunks hide, which the model
 * leaves to the timed trial (it offers 2 .. TOTEX_PROG_MAX_STAGGERED
 * staggered chunks). The model's chunk count minimises T(c) over
 * 1 .. TOTEX_PROG_MAX_CHUNKS (2 .. TOTEX_PROG_MAX_STAGGERED when staggered)
 * with chunks of at least TOTEX_PROG_MIN_CHUNK bytes; the timed trial sees
 * each unit-step schedule staggered (2 .. TOTEX_PROG_MAX_STAGGERED chunks),
 * and unstaggered in the model's chunks and in one (or two) chunks.
 * Combining schedule: its prediction by 002's
 * model under the wormhole all-port cost (t_s and t_c): the algorithm's closed
 * form (totex_comb_algorithm.predict, no schedule built) when it has one, else
 * its schedule built and simulated once, only up to TOTEX_PROG_UNIT_FULL_MAX
 * ranks (an O(n^2)-block schedule on rank 0),
 * but never below the link-load floor every total exchange pays, the status
 * of a node (the sum of its distances, in hops) times m t_l over its degree
 * (000 Section 3, bound (4): the multiport bound spread over the node's
 * links).
 *
 * Padding: when a message of P bytes (16 .. 4096) arrived sooner than an
 * 8-byte one in the measurement (src/mpi/measure.c; e.g. SMPI's calibrated factors give
 * messages of 1426 .. 3483 bytes a latency factor of 1.61 against 2.01 below
 * 257 bytes), each of the best combining candidates whose blocks are shorter
 * than P is also offered with every message shorter than P padded to P
 * bytes: each of its S start-up steps then costs at least t_pad, the measured
 * time of a P-byte message:
 *     T_pad = S max(t_pad, t_s + B m t_c / S) + rearrangement,
 * B the blocks transmitted (002 Table 1), floored as above. The timed trial
 * decides between a candidate and its padded form. Needs no MPI. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choice.h"
#include "program.h"

/* the unit-step candidates and their port models: multiport schedules, and a2 single-port */
static const struct {
    const char *name;
    totex_ports ports;
} unit_cands[] = {{"octr", TOTEX_PORTS_MULTI}, {"sym2", TOTEX_PORTS_MULTI},  {"a3", TOTEX_PORTS_MULTI},
                  {"greedy-sym", TOTEX_PORTS_MULTI}, {"greedy", TOTEX_PORTS_MULTI}, {"a2", TOTEX_PORTS_SINGLE}};

/* per-byte time at message size x: the chunk-sized measurement up to TOTEX_PROG_COST_CHUNK
   bytes, the 64 KiB one from 65536 bytes, linear in log2(x) between */
static double at_size(double x, double small, double big)
{
    if (x <= TOTEX_PROG_COST_CHUNK)
        return small;
    if (x >= 65536)
        return big;
    double f = (log2(x) - log2((double)TOTEX_PROG_COST_CHUNK)) / (16 - log2((double)TOTEX_PROG_COST_CHUNK));
    return small + (big - small) * f;
}

/* one step of a unit-step schedule in @p chunks lanes: *start, the start-up, *move, the link time, *hidden,
   the part of the start-up staggered lanes hide */
static void unit_step(long long slot, int chunks, const totex_prog_linkcost *lc, double *start, double *move,
                      double *hidden)
{
    const int c = chunks < 1 ? 1 : chunks;
    const double x = (double)slot / c;
    double per_byte = at_size(x, lc->t_c_chunk, lc->t_c) / c, link = at_size(x, lc->t_l_chunk, lc->t_l);
    if (per_byte < link)
        per_byte = link;
    *start = lc->t_s * (1 + TOTEX_PROG_CHUNK_OVERHEAD * (c - 1));
    *move = (double)slot * per_byte;
    *hidden = 0;
    if (c > 1) { /* the others' transfer covers part of a lane's start-up, never more than it lasts */
        *hidden = *start * (1 - (1 + 1.0 / c) / 2);
        if (*hidden > *move * (c - 1) / c)
            *hidden = *move * (c - 1) / c;
    }
}

double totex_prog_unit_time(uint64_t steps, long long slot, int chunks, int stagger, const totex_prog_linkcost *lc)
{
    const int c = chunks < 1 ? 1 : chunks;
    double start, move, hidden;
    unit_step(slot, c, lc, &start, &move, &hidden);
    if (!stagger || c < 2)
        hidden = 0;
    /* staggered: lane i starts behind i kicks, i start-ups late */
    return (double)steps * (start - hidden + move) + (stagger && c > 1 ? (c - 1) * lc->t_s : 0);
}

int totex_prog_start_rounds_pay(uint64_t steps, long long slot, int chunks, uint64_t diameter,
                                const totex_prog_linkcost *lc)
{
    double start, move, hidden;
    if (chunks < 2)
        return 0;
    unit_step(slot, chunks, lc, &start, &move, &hidden);
    return (double)diameter * lc->t_s < (double)steps * hidden;
}

int totex_prog_model_chunks(long long slot, int stagger, const totex_prog_linkcost *lc)
{
    int best = 1;
    double tbest = 0;
    const int most = stagger ? TOTEX_PROG_MAX_STAGGERED : TOTEX_PROG_MAX_CHUNKS;
    for (int c = stagger ? 2 : 1; c <= most && (c == 1 || slot / c >= TOTEX_PROG_MIN_CHUNK); c++) {
        double t = totex_prog_unit_time(1, slot, c, stagger, lc);
        if (best == 1 || t < tbest) {
            tbest = t;
            best = c;
        }
    }
    return best;
}

double totex_prog_padded_time(const totex_comb_report *r, const totex_comb_cost *cost, const totex_prog_linkcost *lc)
{
    if (!r->startups)
        return r->predicted_time;
    const double s = (double)r->startups, step = cost->t_s + (double)r->blocks_transmitted * cost->m * cost->t_c / s;
    return r->predicted_time - r->time_startup - r->time_transmission + s * (lc->t_pad > step ? lc->t_pad : step);
}

double totex_prog_link_floor(const totex_network *net, long long slot, const totex_prog_linkcost *lc)
{
    uint32_t deg = totex_network_degree(net, 0);
    double t_l = at_size((double)slot, lc->t_l_chunk, lc->t_l);
    return deg ? (double)totex_network_status(net, 0) * (double)slot * t_l / deg : 0;
}

const totex_algorithm *totex_prog_unit_algorithm(const char *name, totex_ports *ports)
{
    for (size_t i = 0; i < sizeof unit_cands / sizeof unit_cands[0]; i++)
        if (strcmp(unit_cands[i].name, name) == 0) {
            totex_error err;
            if (ports)
                *ports = unit_cands[i].ports;
            return totex_algorithm_find(name, &err);
        }
    return NULL;
}

/* one-way seconds of an @p m-byte message (m >= 4096) by the measured points 4096, 8192, 65536 bytes */
static double one_way(const totex_prog_linkcost *lc, long long m)
{
    if (m <= 8192)
        return lc->t_4k + (lc->t_8k - lc->t_4k) * (double)(m - 4096) / 4096.0;
    return lc->t_8k + (lc->t_64k - lc->t_8k) * (double)(m - 8192) / (65536.0 - 8192.0);
}

int totex_prog_split_chunks(long long msg, const totex_prog_linkcost *lc, double *ratio)
{
    if (ratio)
        *ratio = 1;
    if (lc->split <= 0 || msg < 4096 || !(lc->t_split > 0) || !(lc->t_4k > 0) || !(lc->t_8k > 0) ||
        !(lc->t_64k > 0))
        return 1;
    const long long c = (msg + lc->split - 1) / lc->split;
    const double t = one_way(lc, msg), r = t > 0 ? (double)c * lc->t_split / t : 1;
    if (c < 2 || c > TOTEX_PROG_MAX_CHUNKS || !(r <= 0.8))
        return 1;
    if (ratio)
        *ratio = r;
    return (int)c;
}

int totex_prog_flow_chunks(long long msg, const totex_prog_linkcost *lc, double *ratio)
{
    if (ratio)
        *ratio = 1;
    if (msg < 2 * TOTEX_PROG_COST_CHUNK || !(lc->t_l > 0) || !(lc->t_l_chunk > 0) ||
        !(lc->t_l_chunk <= TOTEX_PROG_FLOW_SPLIT_GAIN * lc->t_l))
        return 1;
    const long long c = msg / TOTEX_PROG_COST_CHUNK;
    if (ratio)
        *ratio = lc->t_l_chunk / lc->t_l;
    return c > TOTEX_PROG_MAX_CHUNKS ? TOTEX_PROG_MAX_CHUNKS : (int)c;
}

void totex_prog_comb_form(long long slot, totex_prog_cand *c)
{
    const totex_comb_algorithm *a = totex_comb_algorithm_get((size_t)c->idx);
    long long most = slot / TOTEX_PROG_MIN_CHUNK;
    c->chunks = 1;
    c->stagger = 0;
    if (!a || strcmp(a->name, "direct-relay") != 0 || most < 2)
        return;
    c->chunks = most < TOTEX_PROG_RELAY_CHUNKS ? (int)most : TOTEX_PROG_RELAY_CHUNKS;
    c->stagger = 1;
}

static int by_time(const void *a, const void *b)
{
    const totex_prog_cand *x = a, *y = b;
    return x->predicted < y->predicted ? -1 : x->predicted > y->predicted ? 1 : x->order < y->order ? -1 : 1;
}

/* append @p name to the list @p note (comma-separated, truncated) */
static void skip_note(char *note, size_t cap, const char *name)
{
    size_t len = strlen(note);
    if (len + 2 < cap)
        snprintf(note + len, cap - len, "%s%s", len ? ", " : "", name);
}

size_t totex_prog_rank_candidates(const totex_network *net, const totex_comb_cost *cost,
                                 const totex_prog_linkcost *lc, totex_prog_cand *out, size_t cap, char *why, size_t wcap)
{
    size_t k = 0, count = totex_comb_algorithm_count();
    const long long slot = (long long)cost->m;
    const double floor_t = totex_prog_link_floor(net, slot, lc);
    totex_comb_choice *rows = calloc(count, sizeof *rows);
    size_t total = 3 * count + (TOTEX_PROG_MAX_STAGGERED + 1) * (sizeof unit_cands / sizeof unit_cands[0]);
    totex_prog_cand *all = calloc(total, sizeof *all);
    if (!rows || !all) {
        snprintf(why, wcap, "out of memory ranking the algorithms");
        free(rows);
        free(all);
        return 0;
    }
    const uint32_t n = totex_network_nodes(net);
    const uint64_t diameter = totex_network_diameter(net); /* kick rounds before staggered lanes (compile.c) */
    char skipped[256] = ""; /* candidates not offered above TOTEX_PROG_SCALE_MAX ranks */
    /* padding forced (TOTEX_PAD): every combining candidate padded; measured: the best few also padded */
    const int pad = lc->pad > slot ? lc->pad : 0, forced = lc->pad_forced ? lc->pad : 0;
    /* a combining algorithm by its closed form (predict: no schedule built) when it has one, else
       built and simulated once, and then only up to TOTEX_PROG_UNIT_FULL_MAX ranks (O(n^2) blocks) */
    for (size_t i = 0; i < count; i++) {
        const totex_comb_algorithm *a = totex_comb_algorithm_get(i);
        totex_comb_choice *row = &rows[i];
        row->algorithm = a;
        row->reason[0] = '\0';
        totex_error err;
        err.msg[0] = '\0';
        if (n > TOTEX_PROG_SCALE_MAX && !a->plan_node0) { /* its share would be kept while building it whole */
            row->status = TOTEX_ENOTAPPLICABLE;
            snprintf(row->reason, sizeof row->reason, "not offered above %d ranks", TOTEX_PROG_SCALE_MAX);
            skip_note(skipped, sizeof skipped, a->name);
            continue;
        }
        row->status = a->predict ? a->predict(net, cost, &row->report, &err) : TOTEX_ENOTAPPLICABLE;
        const int settled = a->predict && row->status != TOTEX_ENOTAPPLICABLE; /* predicted, or refused as build() */
        if (settled) {
            ;
        } else if (n > TOTEX_PROG_UNIT_FULL_MAX) {
            row->status = TOTEX_ENOTAPPLICABLE;
            if (!a->predict)
                snprintf(err.msg, sizeof err.msg, "%s has no closed form: not ranked above %d ranks", a->name,
                         TOTEX_PROG_UNIT_FULL_MAX);
        } else {
            totex_comb_schedule *sched = NULL;
            row->status = a->build(net, cost, &sched, &err);
            if (row->status == TOTEX_OK)
                row->status = totex_comb_simulate(net, sched, cost, &row->report, NULL, &err);
            totex_comb_schedule_free(sched);
        }
        if (row->status != TOTEX_OK) {
            snprintf(row->reason, sizeof row->reason, "%s", err.msg);
            continue;
        }
        double t = forced && pad ? totex_prog_padded_time(&row->report, cost, lc) : row->report.predicted_time;
        all[k] = (totex_prog_cand){0, (int)i, 0, 1, t > floor_t ? t : floor_t, 0, (int)k, forced, 0};
        if (!forced)
            totex_prog_comb_form(slot, &all[k]);
        k++;
    }
    /* the padded forms of the model's best combining candidates */
    qsort(all, k, sizeof *all, by_time);
    for (size_t b = 0, kc = k; pad && !forced && b < kc && b < TOTEX_PROG_PAD_VARIANTS; b++) {
        double t = totex_prog_padded_time(&rows[all[b].idx].report, cost, lc);
        all[k] = (totex_prog_cand){0, all[b].idx, 0, 1, t > floor_t ? t : floor_t, 0, (int)k, pad, 0};
        k++;
    }
    /* the split forms of the model's best combining candidates: every message in chunks of at most
       lc->split bytes, where the measured one-way times say a message of a block's bytes is slower than
       that many smaller ones (padding and splitting exclude each other: blocks below 4096 / above) */
    double ratio = 1;
    int split = pad || forced ? 1 : totex_prog_split_chunks(slot, lc, &ratio);
    size_t variants = TOTEX_PROG_PAD_VARIANTS;
    /* or, where the link measurement's concurrent 8 KiB messages moved bytes faster than 64 KiB ones, in
       chunks of that size (SimGrid's default factors: 4x4 at 32 KiB, direct in 4 chunks 43.22 us against
       octr's 45.57; docs/performance.md), the link time scaled by what the measurement saw */
    if (split <= 1 && !pad && !forced) {
        split = totex_prog_flow_chunks(slot, lc, &ratio);
        variants = TOTEX_PROG_FLOW_SPLIT_VARIANTS;
    }
    for (size_t b = 0, kc = k; split > 1 && b < kc && b < variants; b++) {
        double t = all[b].predicted * ratio;
        all[k] = (totex_prog_cand){0, all[b].idx, 0, split, t > floor_t ? t : floor_t, 0, (int)k, 0, 0};
        k++;
        /* a form with its relayed blocks in chunks (direct-relay): also with its own blocks split so, the
           relayed ones still in their smaller chunks (SimGrid's default factors, 4x4 at 16 KiB: relayed in 4
           chunks, own in 2 messages of 8 KiB, 23.13 us against 24.59 own whole and 27.11 all in 2 chunks;
           docs/performance.md), at the split form's prediction */
        if (all[b].stagger && all[b].chunks > split && all[b].chunks % split == 0) {
            all[k] = (totex_prog_cand){0, all[b].idx, 0, all[b].chunks, t > floor_t ? t : floor_t, 0, (int)k, 0, split};
            k++;
        }
    }
    if (!k && count && rows[0].reason[0])
        snprintf(why, wcap, "no combining algorithm applies to %.200s: %.300s", totex_network_spec(net),
                 rows[0].reason);
    for (size_t u = 0; u < sizeof unit_cands / sizeof unit_cands[0]; u++) {
        totex_error err;
        const totex_algorithm *a = totex_algorithm_find(unit_cands[u].name, &err);
        uint64_t steps = 0;
        if (!a || a->applies(net, unit_cands[u].ports, &err) != TOTEX_OK)
            continue;
        if (a->costly_predict && !a->plan_symmetric && n > TOTEX_PROG_UNIT_FULL_MAX)
            continue; /* its prediction and its schedule are the whole network's */
        if (!a->plan_symmetric && n > TOTEX_PROG_SCALE_MAX) { /* its whole schedule streamed through each rank */
            skip_note(skipped, sizeof skipped, a->name);
            continue;
        }
        if (a->predict(net, unit_cands[u].ports, &steps, &err) != TOTEX_OK)
            continue;
        size_t ai = 0;
        while (totex_algorithm_get(ai) != a)
            ai++;
        /* staggered in 2 .. TOTEX_PROG_MAX_STAGGERED chunks, unstaggered in the model's chunks
           and in one message per transfer (two chunks when the model says one) */
        const int cu = totex_prog_model_chunks(slot, 0, lc), alt = cu > 1 ? 1 : 2;
        int var[TOTEX_PROG_MAX_STAGGERED + 1][2], nv = 0;
        for (int cs = 2; cs <= TOTEX_PROG_MAX_STAGGERED; cs++) {
            var[nv][0] = cs;
            var[nv++][1] = 1;
        }
        var[nv][0] = cu;
        var[nv++][1] = 0;
        var[nv][0] = alt;
        var[nv++][1] = 0;
        for (int v = 0; v < nv; v++) {
            if (var[v][0] > 1 && slot / var[v][0] < TOTEX_PROG_MIN_CHUNK)
                continue;
            /* staggered: after start rounds where they pay (their cost in the prediction) */
            const int rounds = var[v][1] && totex_prog_start_rounds_pay(steps, slot, var[v][0], diameter, lc);
            all[k] = (totex_prog_cand){1, (int)ai, unit_cands[u].ports, var[v][0],
                                      totex_prog_unit_time(steps, slot, var[v][0], var[v][1], lc) +
                                          (rounds ? (double)diameter * lc->t_s : 0),
                                      steps, (int)k, forced, var[v][1] + rounds};
            k++;
        }
    }
    qsort(all, k, sizeof *all, by_time);
    /* keep room for the combining algorithms: at most half the list unit-step (at most 4), and of
       unit-step schedules with the same steps and port model only the best-placed one */
    size_t kept = 0, units = 0, unit_cap = (cap < 8 ? cap : 8) / 2;
    if (unit_cap < 1)
        unit_cap = 1;
    for (size_t i = 0; i < k && kept < cap; i++) {
        int dup = 0;
        for (size_t j = 0; all[i].unit && j < kept; j++)
            dup |= out[j].unit && out[j].idx != all[i].idx && out[j].steps == all[i].steps &&
                   out[j].ports == all[i].ports;
        if (all[i].unit && (dup || units + 1 > unit_cap))
            continue;
        units += all[i].unit != 0;
        out[kept++] = all[i];
    }
    k = kept;
    if (k && skipped[0])
        snprintf(why, wcap, "not offered above %d ranks (per-rank planning would not be O(moves of one node)): %s",
                 TOTEX_PROG_SCALE_MAX, skipped);
    free(rows);
    free(all);
    return k;
}

void totex_prog_cand_name(const totex_prog_cand *c, char *out, size_t cap)
{
    int len;
    if (!c->unit && c->chunks > 1 && c->stagger > 1)
        len = snprintf(out, cap, "%s/%d chunks relayed, own blocks in %d", totex_comb_algorithm_get((size_t)c->idx)->name,
                       c->chunks, c->stagger);
    else if (!c->unit && c->chunks > 1)
        len = snprintf(out, cap, "%s/%d chunks%s", totex_comb_algorithm_get((size_t)c->idx)->name, c->chunks,
                       c->stagger ? " relayed" : "");
    else if (!c->unit)
        len = snprintf(out, cap, "%s", totex_comb_algorithm_get((size_t)c->idx)->name);
    else {
        char ports[32];
        len = snprintf(out, cap, "%s/%s/%d chunk%s%s%s", totex_algorithm_get((size_t)c->idx)->name,
                       totex_ports_format(c->ports, ports, sizeof ports), c->chunks, c->chunks > 1 ? "s" : "",
                       c->stagger ? " staggered" : "", c->stagger > 1 ? " after start rounds" : "");
    }
    if (c->pad && len >= 0 && (size_t)len < cap)
        snprintf(out + len, cap - (size_t)len, "/padded to %d B", c->pad);
}

double totex_prog_nonblocking_time(double blocking_s, uint64_t dependent_steps, double interval_s)
{
    if (dependent_steps <= 1 || !(interval_s > 0))
        return blocking_s;
    return blocking_s + (double)(dependent_steps - 1) * interval_s / 2;
}

int totex_prog_nonblocking_pick(int nc, const double *blocking_s, const uint64_t *dep, int pick, double interval_s,
                                double *nbt)
{
    if (pick < 0 || pick >= nc)
        return -1;
    for (int c = 0; c < nc; c++)
        nbt[c] = blocking_s[c] >= 0 && dep[c] > 0 ? totex_prog_nonblocking_time(blocking_s[c], dep[c], interval_s) : -1;
    if (nbt[pick] < 0)
        return -1;
    if (!(interval_s > 0))
        return pick;
    int best = pick;
    for (int c = 0; c < nc; c++)
        if (nbt[c] >= 0 && nbt[c] < nbt[best])
            best = c;
    return best;
}
