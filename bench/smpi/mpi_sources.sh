# Sourced by run.sh and first_call.sh: $mpi_sources, totex's MPI layer (every src/mpi/*.c but the
# drop-in pmpi.c), compiled against SMPI's mpi.h. Needs $root (the source tree, no spaces in it).
mpi_sources=""
for f in "$root"/src/mpi/*.c; do
    [ "${f##*/}" = pmpi.c ] || mpi_sources="$mpi_sources $f"
done
