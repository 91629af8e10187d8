/* Links totex_alltoall() through the installed CMake package's MPI component
   (built, not run: running needs mpirun; tests/mpi runs the same call). */
#include <totex/mpi.h>

int main(int argc, char **argv)
{
    int s = 1, r = 0;
    MPI_Init(&argc, &argv);
    int rc = totex_alltoall(&s, 1, MPI_INT, &r, 1, MPI_INT, MPI_COMM_SELF);
    MPI_Finalize();
    return rc == MPI_SUCCESS && r == 1 ? 0 : 1;
}
