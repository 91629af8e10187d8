/* The table of total-exchange algorithms, lookup by name and automatic choice. */
#include <stdio.h>
#include <string.h>

#include "algorithms/registry_impl.h"
#include "common/error.h"

static const totex_algorithm *const table[] = {
    &totex_algorithm_a3,
    &totex_algorithm_a2,
    &totex_algorithm_dimension,
    &totex_algorithm_greedy_sym,
    &totex_algorithm_sym2,
    &totex_algorithm_octr,
    &totex_algorithm_rounds,
    &totex_algorithm_pipeline,
    &totex_algorithm_load_greedy,
    &totex_algorithm_balanced_greedy,
    &totex_algorithm_balanced_ports,
    &totex_algorithm_greedy,
    &totex_algorithm_exact, /* last: on equal steps the others are kept */
};

size_t totex_algorithm_count(void) { return sizeof table / sizeof table[0]; }

const totex_algorithm *totex_algorithm_get(size_t i)
{
    return i < totex_algorithm_count() ? table[i] : NULL;
}

const totex_algorithm *totex_algorithm_find(const char *name, totex_error *err)
{
    char names[256] = "";
    for (size_t i = 0; i < totex_algorithm_count(); i++) {
        if (name && !strcmp(table[i]->name, name))
            return table[i];
        strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, table[i]->name, sizeof names - strlen(names) - 1);
    }
    totex_fail(err, TOTEX_EINVAL, "unknown algorithm '%s': use one of %s, or auto", name ? name : "(null)", names);
    return NULL;
}

const totex_algorithm *totex_algorithm_auto(const totex_network *net, totex_ports ports, totex_error *err)
{
    const totex_algorithm *best = NULL;
    uint64_t best_steps = UINT64_MAX;
    totex_error why = {{0}};
    for (size_t i = 0; i < totex_algorithm_count(); i++) {
        uint64_t steps;
        totex_error e2;
        if (table[i]->applies(net, ports, &e2) != TOTEX_OK) {
            if (!why.msg[0])
                why = e2;
            continue;
        }
        if (table[i]->predict(net, ports, &steps, &e2) != TOTEX_OK) {
            why = e2;
            continue;
        }
        if (steps < best_steps) {
            best = table[i];
            best_steps = steps;
        }
    }
    if (!best)
        totex_fail(err, TOTEX_ENOTAPPLICABLE, "no algorithm applies to %s under %s: %s", totex_network_spec(net),
                   totex_ports_name(ports), why.msg);
    return best;
}
