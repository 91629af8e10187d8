#!/bin/sh
# Overlap of a nonblocking total exchange with computation on SimGrid SMPI
# (bench/smpi/overlap.c): per torus, totex_ialltoall and SMPI's own
# MPI_Ialltoall, each timed alone (post + wait), against a computation as long
# as the exchange, and both together (post, the computation with a test every
# TEST_US microseconds, wait). ratio = together / the longer of the two (1:
# perfect overlap); osu% = the OSU micro-benchmarks' overlap figure; "first":
# the first timed repetition beside the mean. Same platform as run.sh (TORUS
# cluster, 10 GB/s links, 1 us latency, split-duplex); SMPI_CFG adds SimGrid
# options (flat factors: SMPI_CFG="--cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1").
#
# Usage: bench/smpi/overlap.sh [BUILD_DIR [BLOCK_BYTES [REPS [TEST_US [TORUS...]]]]]
#        defaults: build 65536 3 10 4x4 4x4x4. TOTEX_* variables reach totex.
# Needs libsimgrid-dev and BUILD_DIR/libtotex.a. Exit 1 when a run fails or
# delivers a wrong result.
set -eu
build=${1:-build}
block=${2:-65536}
reps=${3:-3}
test_us=${4:-10}
[ $# -gt 4 ] && shift 4 || set --
[ $# -gt 0 ] || set -- 4x4 4x4x4
for v in "$block" "$reps" "$test_us"; do
    case $v in ''|*[!0-9]*) echo "overlap: '$v' is not a whole number (BLOCK_BYTES, REPS, TEST_US)" >&2; exit 2 ;; esac
done
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh"
root=$(cd "$here/../.." && pwd)
. "$here/mpi_sources.sh"
smpi_check_tori overlap "$@"
out=${SMPI_OUT:-$build/smpi}
bin=$out/overlap
smpi_build overlap "$build" "$out" "$here/overlap.c" "$bin"
echo "overlap: $(smpirun -version 2>/dev/null | head -1 || echo SimGrid), $block-byte blocks, $reps repetitions," \
     "a test every $test_us us${SMPI_CFG:+, $SMPI_CFG}"
printf '%-7s %-6s %10s %10s %10s %6s %6s %10s %6s %s\n' torus impl "exch us" "comp us" "both us" ratio "osu%" \
    "first us" first check
status=0
for t in "$@"; do
    smpi_torus_platform "$out" "$t"
    for impl in totex smpi; do
        log=$out/overlap-$t-$impl.txt
        arg=""
        [ "$impl" = smpi ] && arg=mpi
        # shellcheck disable=SC2086
        if TOTEX_VERBOSE=${TOTEX_VERBOSE:-1} smpirun -np "$n" -platform "$plat" -hostfile "$hosts" ${SMPI_CFG:-} \
            --cfg=smpi/simulate-computation:no --cfg=smpi/test:0 --cfg=smpi/iprobe:0 --log=root.thresh:critical "$bin" "$t" "$block" "$reps" "$test_us" $arg \
            >"$log" 2>&1; then
            awk -v t="$t" '$1 == "overlap" { printf "%-7s %-6s %10.2f %10.2f %10.2f %6.3f %6.1f %10.2f %6.3f %s\n",
                t, $2, $7, $8, $9, $10, $11, $12, $13, $14 }' "$log"
        else
            echo "$t $impl: FAILED (see $log)"
            status=1
        fi
        [ "$impl" = totex ] && { grep -m1 '^totex: ' "$log" | sed 's/^/    /' || true; }
    done
done
exit $status
