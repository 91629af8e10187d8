/* See plan_support.h. */
#include <stdio.h>
#include <stdlib.h>

#include "plan_support.h"

totex_mpi_plan *mpi_test_compile_unit(const totex_network *net, const totex_algorithm *a, totex_ports ports,
                                      uint32_t me, long long slot, int chunks, int stagger, int tight, int pad,
                                      char *why, size_t cap)
{
    const uint32_t n = totex_network_nodes(net);
    totex_error err;
    totex_mpi_local l;
    totex_mpi_local_init(&l, n, me);
    uint32_t ring_pred = 0, ring_succ = 0;
    totex_mpi_check_ring(net, me, &ring_pred, &ring_succ); /* as plan.c compiles it */
    l.pred = ring_pred;
    if (totex_mpi_local_from_unit(&l, a, net, ports, NULL, &err) != TOTEX_OK) {
        snprintf(why, cap, "%s", err.msg);
        totex_mpi_local_free(&l);
        return NULL;
    }
    totex_mpi_plan *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, cap, "out of memory");
        totex_mpi_local_free(&l);
        return NULL;
    }
    p->slot = slot;
    p->n = n;
    p->me = me;
    p->algorithm = a->name;
    p->arena_cap = tight ? 0 : (size_t)TOTEX_MPI_ARENA_BLOCKS_PER_RANK * n * (size_t)slot;
    p->pad = pad;
    p->ring_pred = ring_pred;
    p->ring_succ = ring_succ;
    p->ring_set = 1;
    /* window 1: the default for unit-step plans (plan.c) */
    if (totex_mpi_compile(p, &l, chunks, 1, stagger, why, cap) != MPI_SUCCESS) {
        totex_mpi_plan_free(p);
        p = NULL;
    }
    totex_mpi_local_free(&l);
    return p;
}
