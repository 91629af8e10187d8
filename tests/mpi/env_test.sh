#!/bin/sh
# Knobs set to values they do not take (src/mpi/env.c): the run still succeeds
# with the defaults, and stderr names each such variable exactly once (one line
# from MPI_COMM_WORLD's rank 0, however many ranks and plans read it), with its
# value and what it takes (a number too large for 64 bits included); a knob set
# right says nothing. With --dropin LIB PROGRAM2 also the drop-in's knobs:
# PROGRAM2 (test_hostile_calls) with LIB (libtotex_pmpi.so) preloaded and
# TOTEX_MODEL=Unit, TOTEX_VERBOSE=yes: each named once, the run still correct.
# Usage: env_test.sh MPIEXEC NP PROGRAM [--dropin LIB PROGRAM2] [MPIEXEC_FLAGS...]   (PROGRAM: test_pair)
set -u
mpiexec=$1 np=$2 prog=$3
shift 3
lib="" prog2=""
if [ "${1:-}" = --dropin ]; then
    lib=$2 prog2=$3
    shift 3
fi
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$mpiexec" "$@" -np "$np" env TOTEX_ALGORITHM=direct TOTEX_PAD=0 TOTEX_CHUNKS=four TOTEX_RECV_WINDOW=-1 \
    TOTEX_TS=1us TOTEX_CHECK=yes TOTEX_WINDOW=3 TOTEX_ARENA_BLOCKS=99999999999999999999 "$prog" 2>"$err"
rc=$?
cat "$err" >&2
[ "$rc" -eq 0 ] || { echo "env_test: program failed ($rc)" >&2; exit 1; }
fail=0
for want in 'TOTEX_CHUNKS=four ignored: give a whole number from 1 to ' \
            'TOTEX_RECV_WINDOW=-1 ignored: give a whole number, 0 or more' \
            'TOTEX_TS=1us ignored: give a number of seconds' \
            'TOTEX_CHECK=yes ignored: give 0 or 1' \
            'TOTEX_ARENA_BLOCKS=99999999999999999999 ignored: give a whole number, 0 or more'; do
    n=$(grep -c "^totex: $want" "$err")
    [ "$n" -eq 1 ] || { echo "env_test: '$want' said $n times, want once" >&2; fail=1; }
done
for quiet in TOTEX_WINDOW TOTEX_PAD TOTEX_ALGORITHM; do
    ! grep -q "^totex: $quiet=" "$err" || { echo "env_test: $quiet (set right) was warned about" >&2; fail=1; }
done
if [ -n "$lib" ]; then
    "$mpiexec" "$@" -np "$np" env LD_PRELOAD="$lib" TOTEX_MODEL=Unit TOTEX_VERBOSE=yes "$prog2" sizes 3 2>"$err"
    rc=$?
    cat "$err" >&2
    [ "$rc" -eq 0 ] || { echo "env_test: drop-in program failed ($rc)" >&2; exit 1; }
    for want in 'TOTEX_MODEL=Unit ignored: give auto or unit' \
                'TOTEX_VERBOSE=yes ignored: give a whole number from 0 to 2'; do
        n=$(grep -c "^totex: $want" "$err")
        [ "$n" -eq 1 ] || { echo "env_test: '$want' said $n times, want once" >&2; fail=1; }
    done
    ! grep -q "^totex: MPI_Alltoall" "$err" || { echo "env_test: TOTEX_VERBOSE=yes printed choices (default is 0)" >&2; fail=1; }
fi
[ "$fail" -eq 0 ] || exit 1
echo "env_test: ok"
