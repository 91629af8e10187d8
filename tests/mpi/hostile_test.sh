#!/bin/sh
# The MPI_Alltoall drop-in under hostile and awkward calls, with
# libtotex_pmpi.so preloaded (tests/mpi/test_hostile_calls.c):
#  1. MPI_Alltoall(..., MPI_COMM_NULL) calls an error handler and returns an error;
#  2. 200 distinct block sizes (4 .. 800 bytes, every result checked) are
#     ranked and timed once per size class (at most 9 classes here), the other
#     sizes only compile their class's choice (TOTEX_VERBOSE=2 names each).
# Usage: hostile_test.sh MPIEXEC NP LIB PROGRAM [MPIEXEC_FLAGS...]
set -u
mpiexec=$1 np=$2 lib=$3 prog=$4
shift 4
err=$(mktemp)
trap 'rm -f "$err"' EXIT
status=0

if "$mpiexec" "$@" -np 2 env LD_PRELOAD="$lib" "$prog" comm-null 2>"$err"; then
    echo "ok   MPI_COMM_NULL reaches an error handler"
else
    cat "$err" >&2
    echo "FAIL MPI_COMM_NULL: no error handler called, or no error returned" >&2
    status=1
fi

if "$mpiexec" "$@" -np "$np" env LD_PRELOAD="$lib" TOTEX_VERBOSE=2 "$prog" sizes 200 2>"$err"; then
    timed=$(grep -c 'timed here\|the only candidate' "$err")
    reused=$(grep -c 'compiled for this size' "$err")
    if [ "$timed" -le 9 ] && [ "$reused" -ge 191 ] && [ $((timed + reused)) -eq 200 ]; then
        echo "ok   200 block sizes: $timed ranked and timed (one per size class), $reused compiled only"
    else
        sed -n '1,5p' "$err" >&2
        echo "FAIL 200 block sizes: $timed ranked and timed, $reused compiled only (want <= 9 and the rest)" >&2
        status=1
    fi
else
    cat "$err" >&2
    echo "FAIL 200 block sizes: the program failed (a wrong result or an MPI error)" >&2
    status=1
fi
exit $status
