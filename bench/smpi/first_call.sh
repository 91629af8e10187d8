#!/bin/sh
# First call of totex_alltoall at scale on SimGrid SMPI (one call, TOTEX_TUNE=0,
# small blocks; docs/performance.md, "First call at scale"): per
# torus, the simulated time of the call, the CPU time of the process (all ranks'
# planning), and the growth of the
# SMPI process's peak RSS during it and of its RSS after it (all ranks live in
# that one process), in total and per rank; baseline in the same run: one call
# of SMPI's own MPI_Alltoall (SMPI_BASELINE, default bruck: basic_linear and
# pair are too slow to simulate past 128 ranks), the same measurements. Same
# platform as run.sh (TORUS cluster, 10 GB/s, 1 us, split-duplex).
#
# Usage: bench/smpi/first_call.sh [BUILD_DIR [BLOCK_BYTES [TORUS...]]]
#        defaults: build 8 8x8 16x16 32x32 8x8x16
# Environment passed to the ranks as set: TOTEX_TUNE (default 0), TOTEX_ALGORITHM,
# TOTEX_VERBOSE (default 1), TOTEX_CHECK. Needs libsimgrid-dev and BUILD_DIR/libtotex.a.
set -eu
build=${1:-build}
block=${2:-8}
[ $# -gt 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- 8x8 16x16 32x32 8x8x16
case $block in ''|*[!0-9]*) echo "first_call: BLOCK_BYTES '$block' is not a byte count" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh"
root=$(cd "$here/../.." && pwd)
. "$here/mpi_sources.sh"
smpi_check_tori first_call "$@"
out=${SMPI_OUT:-$build/smpi}
bin=$out/first_call
smpi_build first_call "$build" "$out" "$here/first_call.c" "$bin"
echo "first_call: $(smpirun -version 2>/dev/null | head -1 || echo SimGrid), one call of $block-byte blocks," \
     "TOTEX_TUNE=${TOTEX_TUNE:-0}${TOTEX_ALGORITHM:+, TOTEX_ALGORITHM=$TOTEX_ALGORITHM}"
printf '%-8s %-6s %6s %12s %9s %12s %12s %12s %12s %s\n' torus impl ranks "sim us" "cpu s" "peak KiB" \
    "kept KiB" "peak/rank" "kept/rank" check
status=0
for t in "$@"; do
    smpi_torus_platform "$out" "$t"
    for impl in totex smpi; do
        log=$out/first_call-$t-$impl.txt
        cfg="--cfg=smpi/alltoall:${SMPI_BASELINE:-bruck}"
        arg=""
        [ "$impl" = smpi ] && arg=mpi
        # shellcheck disable=SC2086
        if TOTEX_TUNE=${TOTEX_TUNE:-0} TOTEX_VERBOSE=${TOTEX_VERBOSE:-1} smpirun -np "$n" -platform "$plat" -hostfile "$hosts" \
            "$cfg" --cfg=smpi/simulate-computation:no --log=root.thresh:critical "$bin" "$t" "$block" $arg >"$log" 2>&1; then
            awk -v t="$t" '$1 == "first_call" { printf "%-8s %-6s %6d %12.2f %9.2f %12d %12d %12.1f %12.1f %s\n", t, $2, $3, $6 * 1e6, $7, $8, $9, $10, $11, $12 }' "$log"
        else
            echo "$t $impl: FAILED (see $log)"
            status=1
        fi
        [ "$impl" = totex ] && { grep -m1 '^totex: MPI_Alltoall' "$log" | sed 's/^/    /' || true; }
    done
done
exit $status
