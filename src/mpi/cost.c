/* Cost model of totex_alltoall's candidates (include/totex/mpi.h, "Choice").
 *
 * Three costs measured on the communicator (state.c): t_s, the start-up of a
 * message (seconds); t_c, the time per byte of one flow (seconds/byte: a
 * single message's bandwidth); t_l, the time per byte of a link carrying
 * several concurrent flows (seconds/byte: the link's bandwidth). A network
 * where one flow fills a link has t_c = t_l; SimGrid's calibrated SMPI
 * factors give a flow about a third of a link, t_c = 3 t_l.
 *
 * Unit-step schedule of S steps (one block of m bytes per link per step,
 * multiport; per port under k-port), each transfer split into c chunks that
 * travel as concurrent flows:   T(c) = S (t_s + m max(t_l, t_c / c)).
 * The model's chunk count is the least c that fills a link,
 * c = ceil(t_c / t_l), no more than TOTEX_MPI_MAX_CHUNKS and no chunk below
 * TOTEX_MPI_MIN_CHUNK bytes. Combining schedule: its prediction by 002's
 * model under the wormhole all-port cost (totex_comb_rank(), t_s and t_c),
 * but never below the link-load floor every total exchange pays, the status
 * of a node (the sum of its distances, in hops) times m t_l over its degree
 * (000 Section 3, bound (4): the multiport bound spread over the node's
 * links). Needs no MPI. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* the unit-step candidates and their port models: multiport schedules, and a2 single-port */
static const struct {
    const char *name;
    totex_ports ports;
} unit_cands[] = {{"octr", TOTEX_PORTS_MULTI}, {"sym2", TOTEX_PORTS_MULTI},  {"a3", TOTEX_PORTS_MULTI},
                  {"greedy-sym", TOTEX_PORTS_MULTI}, {"greedy", TOTEX_PORTS_MULTI}, {"a2", TOTEX_PORTS_SINGLE}};

int totex_mpi_model_chunks(long long slot, double t_c, double t_l)
{
    int c = 1;
    if (t_l > 0 && t_c > t_l)
        c = (int)ceil(t_c / t_l - 1e-9);
    if (c > TOTEX_MPI_MAX_CHUNKS)
        c = TOTEX_MPI_MAX_CHUNKS;
    long long most = slot / TOTEX_MPI_MIN_CHUNK;
    if (c > most)
        c = most < 1 ? 1 : (int)most;
    return c;
}

double totex_mpi_unit_time(uint64_t steps, long long slot, int chunks, double t_s, double t_c, double t_l)
{
    double per_byte = t_c / (chunks < 1 ? 1 : chunks);
    if (per_byte < t_l)
        per_byte = t_l;
    return (double)steps * (t_s + (double)slot * per_byte);
}

double totex_mpi_link_floor(const totex_network *net, long long slot, double t_l)
{
    uint32_t deg = totex_network_degree(net, 0);
    return deg ? (double)totex_network_status(net, 0) * (double)slot * t_l / deg : 0;
}

const totex_algorithm *totex_mpi_unit_algorithm(const char *name, totex_ports *ports)
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

static int by_time(const void *a, const void *b)
{
    const totex_mpi_cand *x = a, *y = b;
    return x->predicted < y->predicted ? -1 : x->predicted > y->predicted ? 1 : x->order < y->order ? -1 : 1;
}

size_t totex_mpi_rank_candidates(const totex_network *net, const totex_comb_cost *cost, double t_l,
                                 totex_mpi_cand *out, size_t cap, char *why, size_t wcap)
{
    size_t k = 0, count = totex_comb_algorithm_count();
    const long long slot = (long long)cost->m;
    const double floor_t = totex_mpi_link_floor(net, slot, t_l);
    totex_comb_choice *rows = calloc(count, sizeof *rows);
    size_t total = count + 2 * (sizeof unit_cands / sizeof unit_cands[0]);
    totex_mpi_cand *all = calloc(total, sizeof *all);
    if (!rows || !all) {
        snprintf(why, wcap, "out of memory ranking the algorithms");
        free(rows);
        free(all);
        return 0;
    }
    totex_comb_rank(net, cost, rows, count);
    for (size_t r = 0; r < count && rows[r].status == TOTEX_OK; r++)
        for (size_t i = 0; i < count; i++)
            if (totex_comb_algorithm_get(i) == rows[r].algorithm) {
                double t = rows[r].report.predicted_time;
                all[k] = (totex_mpi_cand){0, (int)i, 0, 1, t > floor_t ? t : floor_t, 0, (int)k};
                k++;
            }
    if (!k && rows[0].reason[0])
        snprintf(why, wcap, "no combining algorithm applies to %.200s: %.300s", totex_network_spec(net),
                 rows[0].reason);
    const uint32_t n = totex_network_nodes(net);
    for (size_t u = 0; u < sizeof unit_cands / sizeof unit_cands[0]; u++) {
        totex_error err;
        const totex_algorithm *a = totex_algorithm_find(unit_cands[u].name, &err);
        uint64_t steps = 0;
        if (!a || a->applies(net, unit_cands[u].ports, &err) != TOTEX_OK)
            continue;
        if (a->costly_predict && !a->plan_symmetric && n > TOTEX_MPI_UNIT_FULL_MAX)
            continue; /* its prediction and its schedule are the whole network's */
        if (a->predict(net, unit_cands[u].ports, &steps, &err) != TOTEX_OK)
            continue;
        size_t ai = 0;
        while (totex_algorithm_get(ai) != a)
            ai++;
        int c = totex_mpi_model_chunks(slot, cost->t_c, t_l);
        all[k] = (totex_mpi_cand){1, (int)ai, unit_cands[u].ports, c,
                                  totex_mpi_unit_time(steps, slot, c, cost->t_s, cost->t_c, t_l), steps, (int)k};
        k++;
        /* the trial also sees the same schedule chunked otherwise: one message per transfer, or two */
        int alt = c > 1 ? 1 : 2;
        if (alt <= totex_mpi_model_chunks(slot, 1e30, 1) && alt != c) {
            all[k] = all[k - 1];
            all[k].chunks = alt;
            all[k].predicted = totex_mpi_unit_time(steps, slot, alt, cost->t_s, cost->t_c, t_l);
            all[k].order = (int)k;
            k++;
        }
    }
    qsort(all, k, sizeof *all, by_time);
    if (k > cap)
        k = cap;
    memcpy(out, all, k * sizeof *all);
    free(rows);
    free(all);
    return k;
}

void totex_mpi_cand_name(const totex_mpi_cand *c, char *out, size_t cap)
{
    if (!c->unit)
        snprintf(out, cap, "%s", totex_comb_algorithm_get((size_t)c->idx)->name);
    else
        snprintf(out, cap, "%s/%s/%d chunk%s", totex_algorithm_get((size_t)c->idx)->name,
                 c->ports == TOTEX_PORTS_MULTI ? "multiport" : "single-port", c->chunks, c->chunks > 1 ? "s" : "");
}
