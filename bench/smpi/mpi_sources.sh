# Sourced by run.sh and first_call.sh: $mpi_sources, totex's MPI runtime (every src/mpi/*.c but the
# drop-in pmpi.c) and the program layer below it (src/program/*.c), compiled against SMPI's mpi.h;
# $mpi_includes, their include folders. Needs $root (the source tree, no spaces in it).
mpi_sources=""
for f in "$root"/src/mpi/*.c "$root"/src/program/*.c; do
    [ "${f##*/}" = pmpi.c ] || mpi_sources="$mpi_sources $f"
done
mpi_includes="-I$root/src/mpi -I$root/src/program"
