/* See plan_support.h. */
#include <stdio.h>
#include <stdlib.h>

#include "plan_support.h"
#include "program_support.h"

totex_mpi_plan *mpi_test_compile_unit(const totex_network *net, const totex_algorithm *a, totex_ports ports,
                                      uint32_t me, long long slot, int chunks, int stagger, int tight, int pad,
                                      char *why, size_t cap)
{
    totex_prog *p = prog_test_compile_unit(net, a, ports, me, slot, chunks, stagger, tight, pad, why, cap);
    totex_mpi_plan *pl = p ? totex_mpi_plan_new(p, slot) : NULL;
    if (p && !pl)
        snprintf(why, cap, "out of memory");
    return pl;
}
