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
