#!/bin/sh
# TOTEX_* variables set differently on different ranks never make the ranks wait for
# different things: every choice that must agree is rank 0's, shared
# (TOTEX_CHECK, TOTEX_SIZE_CLASSES: when the communicator's duplicate is made; the
# program knobs TOTEX_WINDOW, TOTEX_ARENA_BLOCKS, TOTEX_RECV_WINDOW: with the candidates),
# or compared by the cross-rank check (TOTEX_MODEL=unit: the header's packed bytes). Each
# run below must end within LIMIT seconds: the shared ones byte-exact (PROGRAM exits 0),
# the model mismatch with "the ranks run different models" on stderr. PROGRAM runs 6 block
# sizes (4 .. 24 bytes: sizes of known size classes among them) through MPI_Alltoall with the
# drop-in preloaded, checking every byte; it reads no TOTEX_* variable itself.
# Usage: disagree_test.sh MPIEXEC LIB PROGRAM [MPIEXEC_FLAGS...]
#   PROGRAM: test_hostile_calls, LIB: libtotex_pmpi.so (4 ranks)
set -u
mpiexec=$1 lib=$2 prog2=$3
shift 3
limit=120
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fail=0
# run NAME EXPECT_RC ARGS...: the MPMD command line after the flags
run() {
    name=$1 want=$2
    shift 2
    timeout "$limit" "$mpiexec" "$@" >/dev/null 2>"$err"
    rc=$?
    if [ "$rc" -eq 124 ]; then
        echo "disagree_test: $name: still running after $limit s (ranks wait for different things)" >&2
        fail=1
    elif [ "$want" = ok ] && [ "$rc" -ne 0 ]; then
        cat "$err" >&2
        echo "disagree_test: $name: failed ($rc)" >&2
        fail=1
    else
        echo "disagree_test: $name: ended ($rc)"
    fi
}
pre="env LD_PRELOAD=$lib"
run "TOTEX_SIZE_CLASSES=0 on rank 0 only" ok "$@" -np 1 $pre TOTEX_SIZE_CLASSES=0 "$prog2" sizes 6 \
    : -np 3 $pre "$prog2" sizes 6
run "TOTEX_CHECK=0 on rank 1 only" ok "$@" -np 1 $pre "$prog2" sizes 6 : -np 1 $pre TOTEX_CHECK=0 "$prog2" sizes 6 \
    : -np 2 $pre "$prog2" sizes 6
run "TOTEX_CHECK=0 on rank 0 only" ok "$@" -np 1 $pre TOTEX_CHECK=0 "$prog2" sizes 6 : -np 3 $pre "$prog2" sizes 6
run "TOTEX_WINDOW, TOTEX_ARENA_BLOCKS, TOTEX_RECV_WINDOW on some ranks" ok "$@" -np 1 $pre TOTEX_WINDOW=0 "$prog2" sizes 6 \
    : -np 1 $pre TOTEX_ARENA_BLOCKS=0 TOTEX_RECV_WINDOW=1 "$prog2" sizes 6 : -np 2 $pre "$prog2" sizes 6
run "TOTEX_MODEL=unit on rank 0 only" error "$@" -np 1 $pre TOTEX_MODEL=unit "$prog2" sizes 1 \
    : -np 3 $pre "$prog2" sizes 1
if ! grep -q "the ranks run different models: TOTEX_MODEL=unit on rank 0, not on rank" "$err"; then
    cat "$err" >&2
    echo "disagree_test: TOTEX_MODEL=unit on rank 0 only: no line naming the models" >&2
    fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "disagree_test: ok"
