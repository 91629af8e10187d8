/* The table of message-combining algorithms (one line per algorithm file). */
#include <string.h>

#include "common/error.h"
#include "totex/combining.h"

static totex_status ssy_build(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                              totex_error *err)
{
    if (cost->switching != TOTEX_SWITCH_WORMHOLE)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "ssy needs wormhole (or circuit) switching: its logical rings send over 2 hops and wrap across the mesh (002 Section 2)");
    return totex_ssy_build(net, out, err);
}

static const totex_comb_algorithm ssy = {
    .name = "ssy",
    .title = "Suh-Shin-Yalamanchili (n+1)-phase message-combining complete exchange on meshes",
    .source = "002 Sections 3-4, Table 1",
    .cost = "even sides (002 Table 1): (n/2) a_1 t_s + (n/4) a_1^2 a_2..a_n m t_c + n a_1..a_n m rho; odd sides: see ssy.c",
    .build = ssy_build,
};

/* combining algorithms: add one line per algorithm file */
extern const totex_comb_algorithm totex_comb_direct, totex_comb_pairwise, totex_comb_bruck, totex_comb_dimwise;
extern const totex_comb_algorithm totex_comb_a2, totex_comb_a3, totex_comb_relay;

static const totex_comb_algorithm *const table[] = {
    &ssy,
    &totex_comb_direct, &totex_comb_pairwise, &totex_comb_bruck, &totex_comb_dimwise,
    &totex_comb_a2, &totex_comb_a3, &totex_comb_relay,
};

size_t totex_comb_algorithm_count(void) { return sizeof table / sizeof table[0]; }

const totex_comb_algorithm *totex_comb_algorithm_get(size_t i)
{
    return i < totex_comb_algorithm_count() ? table[i] : NULL;
}

const totex_comb_algorithm *totex_comb_algorithm_find(const char *name, totex_error *err)
{
    char names[256] = "";
    for (size_t i = 0; i < totex_comb_algorithm_count(); i++) {
        if (name && !strcmp(table[i]->name, name))
            return table[i];
        strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, table[i]->name, sizeof names - strlen(names) - 1);
    }
    totex_fail(err, TOTEX_EINVAL, "unknown combining algorithm '%.60s': use one of %s, or auto", name ? name : "(null)",
               names);
    return NULL;
}
