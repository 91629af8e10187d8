#!/bin/sh
# The same test program with libtotex_pmpi.so preloaded: MPI_Alltoall is
# intercepted, must still agree with PMPI_Alltoall, and TOTEX_VERBOSE=1 must
# make stderr name totex. Usage: preload_test.sh MPIEXEC NP LIB PROGRAM [MPIEXEC_FLAGS...]
set -u
mpiexec=$1 np=$2 lib=$3 prog=$4
shift 4
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$mpiexec" "$@" -np "$np" -x LD_PRELOAD="$lib" -x TOTEX_VERBOSE=1 "$prog" 2>"$err"
rc=$?
cat "$err" >&2
[ "$rc" -eq 0 ] || { echo "preload_test: program failed ($rc)" >&2; exit 1; }
grep -q '^totex: MPI_Alltoall' "$err" || { echo "preload_test: stderr does not name totex" >&2; exit 1; }
echo "preload_test: ok"
