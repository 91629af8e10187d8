/* The network a communicator stands for (totex_mpi_comm_spec): a Cartesian
 * communicator's grid (periodic dimensions as rings, the others as paths),
 * else a torus of MPI_Dims_create's shape; node id == rank; or the machine's
 * network the user named (named.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void spec_add(char *spec, size_t cap, int m, int periodic)
{
    size_t len = strlen(spec);
    if (m == 2)
        snprintf(spec + len, cap - len, "%sk2", len ? "*" : "");
    else
        snprintf(spec + len, cap - len, "%s%s:%d", len ? "*" : "", periodic ? "ring" : "path", m);
}

/* *cart = 1 if comm has a Cartesian topology */
static int is_cartesian(MPI_Comm comm, int *cart)
{
#ifdef SMPI_H
    /* SimGrid's SMPI (3.32) aborts in MPI_Topo_test: ask MPI_Cartdim_get, which
       fails on a communicator without a Cartesian topology (comm is the
       private duplicate: its errors return) */
    int nd = 0;
    *cart = MPI_Cartdim_get(comm, &nd) == MPI_SUCCESS;
    return MPI_SUCCESS;
#else
    int topo = MPI_UNDEFINED, rc = MPI_Topo_test(comm, &topo);
    *cart = rc == MPI_SUCCESS && topo == MPI_CART;
    return rc;
#endif
}

int totex_mpi_comm_spec(const totex_mpi_state *st, MPI_Comm comm, int size, char *spec, size_t cap)
{
    int rc, cart = 0;
    spec[0] = '\0';
    if (st && st->named_spec) { /* the machine's network (named.c) */
        snprintf(spec, cap, "%s", st->named_spec);
        return MPI_SUCCESS;
    }
    if ((rc = is_cartesian(comm, &cart)) != MPI_SUCCESS)
        return rc;
    if (cart) {
        int nd = 0;
        if ((rc = MPI_Cartdim_get(comm, &nd)) != MPI_SUCCESS)
            return rc;
        int *dims = malloc(sizeof(int) * (size_t)(nd ? nd : 1) * 3);
        if (!dims)
            return MPI_ERR_NO_MEM;
        int *periods = dims + (nd ? nd : 1), *coords = periods + (nd ? nd : 1);
        if (nd && (rc = MPI_Cart_get(comm, nd, dims, periods, coords)) != MPI_SUCCESS) {
            free(dims);
            return rc;
        }
        /* MPI dimension i -> totex factor nd-1-i: the last MPI dimension varies fastest
           in the Cartesian rank, the first totex factor is the least significant */
        for (int i = nd - 1; i >= 0; i--)
            if (dims[i] > 1)
                spec_add(spec, cap, dims[i], periods[i]);
        free(dims);
        return MPI_SUCCESS;
    }
    int dims[3] = {0, 0, 0};
    if ((rc = MPI_Dims_create(size, 3, dims)) != MPI_SUCCESS)
        return rc;
    for (int i = 2; i >= 0; i--)
        if (dims[i] > 1)
            spec_add(spec, cap, dims[i], 1);
    return MPI_SUCCESS;
}


int totex_mpi_comm_spec_declared(const totex_mpi_state *st, MPI_Comm comm)
{
    int cart = 0;
    if (st && st->named_spec)
        return 1;
    return is_cartesian(comm, &cart) == MPI_SUCCESS && cart;
}
