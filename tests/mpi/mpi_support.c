#include <stdio.h>
/* Helpers shared by the MPI tests (mpi_support.h). */
#include "mpi_support.h"

void mpi_test_fill(unsigned char *b, size_t len, int rank, int salt)
{
    for (size_t i = 0; i < len; i++)
        b[i] = (unsigned char)(rank * 131 + (int)i * 7 + salt * 17 + (int)(i >> 8));
}

MPI_Datatype mpi_test_struct_type(void)
{
    int len[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, st, rs;
    MPI_Type_create_struct(2, len, disp, types, &st);
    MPI_Type_create_resized(st, 0, 24, &rs);
    MPI_Type_free(&st);
    MPI_Type_commit(&rs);
    return rs;
}

totex_network *mpi_test_world_torus(MPI_Comm *comm, int *rank, int *size)
{
    MPI_Comm_dup(MPI_COMM_WORLD, comm);
    MPI_Comm_rank(*comm, rank);
    MPI_Comm_size(*comm, size);
    char buf[32];
    const char *spec = buf;
    switch (*size) {
    case 8: spec = "k2*ring:4"; break;
    case 9: spec = "ring:3*ring:3"; break;
    case 12: spec = "ring:3*ring:4"; break;
    case 16: spec = "ring:4*ring:4"; break;
    default: snprintf(buf, sizeof buf, "ring:%d", *size); break;
    }
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net || totex_network_nodes(net) != (uint32_t)*size) {
        if (*rank == 0)
            fprintf(stderr, "FAIL %s: %s\n", spec, net ? "not one node per rank" : err.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return net;
}
