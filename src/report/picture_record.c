/*
 * The recording sink behind the pictures (totex/picture.h): a tee that
 * forwards every step to another sink (normally the simulator) and records
 * per-step hop counts, per-directed-link totals and, on small networks and
 * schedules, every hop.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "report/picture_internal.h"
#include "totex/symmetric.h"

totex_recorder *totex_recorder_new(const totex_network *net, totex_sink next, totex_error *err)
{
    uint32_t n = totex_network_nodes(net);
    totex_recorder *rec = calloc(1, sizeof *rec);
    if (!rec)
        goto oom;
    rec->net = net;
    rec->next = next;
    rec->n = n;
    rec->detailed = n <= TOTEX_RECORD_DETAIL_NODES;
    uint64_t dlinks = 2 * totex_network_links(net);
    if (dlinks <= TOTEX_RECORD_MAX_LINKS) {
        uint32_t maxdeg = 0;
        rec->offset = malloc(((size_t)n + 1) * sizeof *rec->offset);
        if (!rec->offset)
            goto oom;
        for (uint32_t v = 0; v < n; v++) {
            uint32_t d = totex_network_degree(net, v);
            if (d > maxdeg)
                maxdeg = d;
        }
        rec->nbr = malloc((size_t)(dlinks ? dlinks : 1) * sizeof *rec->nbr);
        rec->link_count = calloc((size_t)(dlinks ? dlinks : 1), sizeof *rec->link_count);
        uint32_t *tmp = malloc((size_t)(maxdeg ? maxdeg : 1) * sizeof *tmp);
        if (!rec->nbr || !rec->link_count || !tmp) {
            free(tmp);
            goto oom;
        }
        uint64_t off = 0;
        for (uint32_t v = 0; v < n; v++) {
            uint32_t d = totex_network_neighbors(net, v, tmp);
            rec->offset[v] = off;
            if (off + d > dlinks)
                d = (uint32_t)(dlinks - off);
            memcpy(rec->nbr + off, tmp, (size_t)d * sizeof *tmp);
            off += d;
        }
        rec->offset[n] = off;
        free(tmp);
        rec->has_links = 1;
    }
    return rec;
oom:
    totex_recorder_free(rec);
    totex_fail(err, TOTEX_ENOMEM, "out of memory creating the picture recorder");
    return NULL;
}

void totex_recorder_free(totex_recorder *rec)
{
    if (!rec)
        return;
    free(rec->step_hops);
    free(rec->hops);
    free(rec->step_start);
    free(rec->offset);
    free(rec->nbr);
    free(rec->link_count);
    free(rec);
}

int64_t totex_recorder_link_index(const totex_recorder *rec, uint32_t from, uint32_t to)
{
    if (!rec->has_links || from >= rec->n)
        return -1;
    for (uint64_t i = rec->offset[from]; i < rec->offset[from + 1]; i++)
        if (rec->nbr[i] == to)
            return (int64_t)i;
    return -1;
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    uint64_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return 0;
    *p = q;
    *cap = c;
    return 1;
}

static void drop_detail(totex_recorder *rec)
{
    rec->detailed = 0;
    free(rec->hops);
    free(rec->step_start);
    rec->hops = NULL;
    rec->step_start = NULL;
    rec->hop_cap = rec->start_cap = rec->hop_len = 0;
}

static totex_status rec_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_recorder *rec = ctx;
    if (!grow((void **)&rec->step_hops, &rec->step_cap, rec->steps + 1, sizeof *rec->step_hops))
        return totex_fail(err, TOTEX_ENOMEM, "out of memory recording step %llu for the picture",
                          (unsigned long long)rec->steps);
    rec->step_hops[rec->steps] = count;
    if (rec->detailed && rec->steps >= TOTEX_RECORD_DETAIL_STEPS)
        drop_detail(rec);
    if (rec->detailed) {
        if (!grow((void **)&rec->step_start, &rec->start_cap, rec->steps + 2, sizeof *rec->step_start) ||
            !grow((void **)&rec->hops, &rec->hop_cap, rec->hop_len + count, sizeof *rec->hops)) {
            drop_detail(rec); /* keep going with counts only */
        } else {
            if (rec->steps == 0)
                rec->step_start[0] = 0;
            for (size_t i = 0; i < count; i++) {
                totex_rec_hop *h = &rec->hops[rec->hop_len + i];
                h->from = hops[i].from;
                h->to = hops[i].to;
                h->dst = hops[i].dst;
            }
            rec->hop_len += count;
            rec->step_start[rec->steps + 1] = rec->hop_len;
        }
    }
    if (rec->has_links)
        for (size_t i = 0; i < count; i++) {
            int64_t l = totex_recorder_link_index(rec, hops[i].from, hops[i].to);
            if (l >= 0)
                rec->link_count[l]++;
        }
    rec->steps++;
    rec->total_hops += count;
    if (rec->next.step)
        return rec->next.step(rec->next.ctx, hops, count, err);
    return TOTEX_OK;
}

totex_sink totex_recorder_sink(totex_recorder *rec)
{
    totex_sink s = {rec_step, rec};
    return s;
}

uint64_t totex_recorder_steps(const totex_recorder *rec) { return rec ? rec->steps : 0; }
uint64_t totex_recorder_hops(const totex_recorder *rec) { return rec ? rec->total_hops : 0; }
uint64_t totex_recorder_step_hops(const totex_recorder *rec, uint64_t step)
{
    return rec && step < rec->steps ? rec->step_hops[step] : 0;
}
int totex_recorder_detailed(const totex_recorder *rec) { return rec && rec->detailed; }
int totex_recorder_has_link_counts(const totex_recorder *rec) { return rec && rec->has_links; }
uint64_t totex_recorder_link_count(const totex_recorder *rec, uint32_t from, uint32_t to)
{
    int64_t l = rec ? totex_recorder_link_index(rec, from, to) : -1;
    return l >= 0 ? rec->link_count[l] : 0;
}

totex_status totex_picture_record(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                                  uint64_t max_messages, totex_recorder **out, totex_sim_report *sim_out,
                                  totex_error *err)
{
    totex_status st;
    totex_sim_report rep;
    *out = NULL;
    if ((st = algo->applies(net, ports, err)) != TOTEX_OK)
        return st;
    totex_sim *sim = totex_sim_new(net, ports, max_messages, err);
    if (!sim)
        return TOTEX_ENOMEM;
    totex_recorder *rec = totex_recorder_new(net, totex_sim_sink(sim), err);
    if (!rec) {
        totex_sim_free(sim);
        return TOTEX_ENOMEM;
    }
    if (algo->plan_symmetric) {
        totex_task *task = NULL;
        totex_sym_schedule *s = NULL;
        st = algo->plan_symmetric(net, ports, &task, &s, err);
        if (st == TOTEX_OK)
            st = totex_sym_expand(task, s, totex_recorder_sink(rec), err);
        totex_sym_free(s);
        totex_task_free(task);
    } else {
        st = algo->plan(net, ports, totex_recorder_sink(rec), err);
    }
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, &rep, err);
    totex_sim_free(sim);
    if (st != TOTEX_OK) {
        totex_recorder_free(rec);
        return st;
    }
    if (sim_out)
        *sim_out = rep;
    *out = rec;
    return TOTEX_OK;
}
