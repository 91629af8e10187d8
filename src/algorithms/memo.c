/*
 * The memo of predicted step counts: for each algorithm whose predict() runs
 * the whole construction (costly_predict), the last network and port model
 * it ran on, its step count, and what its plan() needs to stream the same
 * schedule again without searching (a seed, recorded moves, a solver's
 * schedule). One table per thread, one entry per algorithm: predict, then
 * plan, runs the construction once; another network replaces the entry.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry_impl.h"

#define MEMO_SLOTS 16

typedef struct memo_entry {
    const totex_algorithm *algo; /* NULL: free slot */
    char *spec;                  /* the network's spec (malloc'd) */
    uint32_t nodes;
    uint64_t links;
    totex_ports ports;
    uint64_t steps;
    uint64_t aux;
    void *data;
    void (*free_data)(void *);
} memo_entry;

static _Thread_local memo_entry memo[MEMO_SLOTS];

static memo_entry *slot_of(const totex_algorithm *algo, int create)
{
    memo_entry *free_slot = NULL;
    for (size_t i = 0; i < MEMO_SLOTS; i++) {
        if (memo[i].algo == algo)
            return &memo[i];
        if (!memo[i].algo && !free_slot)
            free_slot = &memo[i];
    }
    if (create && free_slot)
        free_slot->algo = algo;
    return create ? free_slot : NULL;
}

static void entry_clear(memo_entry *e)
{
    const totex_algorithm *algo = e->algo;
    if (e->free_data && e->data)
        e->free_data(e->data);
    free(e->spec);
    memset(e, 0, sizeof *e);
    e->algo = algo;
}

int totex_memo_get(const totex_algorithm *algo, const totex_network *net, totex_ports ports, totex_memo *out)
{
    memo_entry *e = slot_of(algo, 0);
    if (!e || !e->spec || e->ports != ports || e->nodes != totex_network_nodes(net) ||
        e->links != totex_network_links(net) || strcmp(e->spec, totex_network_spec(net)))
        return 0;
    if (out) {
        out->steps = e->steps;
        out->aux = e->aux;
        out->data = e->data;
    }
    return 1;
}

void totex_memo_put(const totex_algorithm *algo, const totex_network *net, totex_ports ports, uint64_t steps,
                    uint64_t aux, void *data, void (*free_data)(void *))
{
    memo_entry *e = slot_of(algo, 1);
    char *spec = NULL;
    const char *s = totex_network_spec(net);
    if (e)
        entry_clear(e);
    if (e && (spec = malloc(strlen(s) + 1)) != NULL) {
        strcpy(spec, s);
        e->spec = spec;
        e->nodes = totex_network_nodes(net);
        e->links = totex_network_links(net);
        e->ports = ports;
        e->steps = steps;
        e->aux = aux;
        e->data = data;
        e->free_data = free_data;
        return;
    }
    if (free_data && data) /* nowhere to keep it: the next call searches again */
        free_data(data);
}

void *totex_memo_last(const totex_algorithm *algo)
{
    memo_entry *e = slot_of(algo, 0);
    return e && e->spec ? e->data : NULL;
}

void totex_memo_forget(const totex_algorithm *algo)
{
    memo_entry *e = slot_of(algo, 0);
    if (e)
        entry_clear(e);
}
