#!/bin/sh
# The same test program with libtotex_pmpi.so preloaded: MPI_Alltoall is
# intercepted, must still agree with PMPI_Alltoall, and TOTEX_VERBOSE=1 must
# make stderr name totex. Usage: preload_test.sh MPIEXEC NP LIB PROGRAM [MPIEXEC_FLAGS...]
# The ranks get LD_PRELOAD and TOTEX_VERBOSE from `env`, started by mpiexec:
# Open MPI's mpirun (-x VAR=VALUE) and MPICH's hydra (-genv VAR VALUE) both
# take that, and mpiexec itself does not preload the library. LIB must be
# built against the MPI of MPIEXEC and PROGRAM.
set -u
mpiexec=$1 np=$2 lib=$3 prog=$4
shift 4
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$mpiexec" "$@" -np "$np" env LD_PRELOAD="$lib" TOTEX_VERBOSE=1 "$prog" 2>"$err"
rc=$?
cat "$err" >&2
[ "$rc" -eq 0 ] || { echo "preload_test: program failed ($rc)" >&2; exit 1; }
grep -q '^totex: MPI_Alltoall' "$err" || { echo "preload_test: stderr does not name totex" >&2; exit 1; }
echo "preload_test: ok"
