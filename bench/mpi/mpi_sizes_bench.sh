#!/bin/sh
# MPI_Alltoall with many distinct block sizes through the drop-in:
# a program calling it with N distinct sizes (1..N ints per block) used to
# rank and time the candidates at every new size; now each size class
# (blocks of 2^c .. 2^(c+1)-1 bytes) is ranked and timed once and a new size
# of the class only compiles its choice.
#
#   bench/mpi/mpi_sizes_bench.sh [BUILD_DIR [NP [N]]]     (defaults: build 4 1000)
#
# Three runs in the same job, each the wall time of the N calls on rank 0
# (tests/mpi/test_hostile_calls.c, every result checked): the drop-in, the
# drop-in with TOTEX_SIZE_CLASSES=0 (every size planned and timed: the
# baseline before the fix) and plain MPI_Alltoall (the library's own).
# Prints the times and the ratios; exit 1 if the drop-in is not at least
# 3 times faster than its per-size planning baseline.
set -u
build=${1:-build}
np=${2:-4}
count=${3:-1000}
prog=$build/tests/mpi/test_hostile_calls
lib=$build/libtotex_pmpi.so
[ -x "$prog" ] && [ -f "$lib" ] || { echo "mpi_sizes_bench: build $prog and $lib first" >&2; exit 2; }
mpiexec=${MPIEXEC:-mpiexec}
flags=""
[ "$(id -u)" = 0 ] && "$mpiexec" --version 2>/dev/null | grep -q -e 'Open MPI' -e 'OpenRTE' && flags="--allow-run-as-root --oversubscribe"

run() { # ENV... : seconds of the N calls
    # shellcheck disable=SC2086
    "$mpiexec" $flags -np "$np" env "$@" "$prog" sizes "$count" 2>/dev/null | sed -n 's/^sizes: [0-9]* calls in \([0-9.]*\) s$/\1/p'
}
classes=$(run LD_PRELOAD="$lib")
per_size=$(run LD_PRELOAD="$lib" TOTEX_SIZE_CLASSES=0)
plain=$(run TOTEX_UNUSED=1)
[ -n "$classes" ] && [ -n "$per_size" ] && [ -n "$plain" ] || { echo "mpi_sizes_bench: a run failed" >&2; exit 2; }
echo "MPI_Alltoall, $count distinct block sizes, $np ranks: drop-in $classes s, drop-in planning every size $per_size s, plain MPI $plain s"
awk -v a="$classes" -v b="$per_size" -v c="$plain" 'BEGIN {
    printf "ratio drop-in / per-size planning: %.3f (target <= 0.333)\n", a / b
    printf "ratio drop-in / plain MPI:         %.2f\n", a / (c > 0 ? c : 1e-9)
    exit (a / b <= 1.0 / 3.0) ? 0 : 1
}'
