#!/bin/sh
# The CPU a changing demand costs totex_alltoallv's choice: bench/smpi/alltoallv_replan.c on SimGrid SMPI (every
# rank in one process: its user CPU is every rank's), CALLS calls whose row and column totals change every call,
# then CALLS calls of one repeated demand, each phase its own run; prints per phase the process's user CPU
# seconds per call (from /usr/bin/time) beside the simulated time per call.
# Usage: bench/smpi/alltoallv_replan.sh [BUILD_DIR [TORUS [CALLS]]]   defaults: build 8x8 8
# Needs libsimgrid-dev, /usr/bin/time and BUILD_DIR/libtotex.a.
set -eu
build=${1:-build}
torus=${2:-8x8}
calls=${3:-8}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh"
root=$(cd "$here/../.." && pwd)
. "$here/mpi_sources.sh"
smpi_check_tori "alltoallv_replan.sh" "$torus"
out=${SMPI_OUT:-$build/smpi-replan}
bin=$out/alltoallv_replan
[ -x /usr/bin/time ] || { echo "alltoallv_replan.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
smpi_build "alltoallv replan bench" "$build" "$out" "$here/alltoallv_replan.c" "$bin"
smpi_torus_platform "$out" "$torus"
echo "alltoallv replan: torus $torus, $calls calls a phase, SimGrid $(smpirun -version 2>/dev/null | head -1 | awk '{print $3}')"
echo "phase       calls  user_cpu_s  cpu_ms_per_call  simulated_us_per_call"
for phase in changing repeating; do
    /usr/bin/time -f "%U" -o "$out/time-$phase.txt" smpirun -np "$n" -platform "$plat" -hostfile "$hosts" \
        --cfg=smpi/simulate-computation:no --log=root.thresh:critical "$bin" "$torus" "$calls" "$phase" \
        >"$out/log-$phase.txt" 2>&1 || { cat "$out/log-$phase.txt" >&2; exit 1; }
    u=$(tail -1 "$out/time-$phase.txt")
    awk -v u="$u" -v c="$calls" '$1 == "replan" {printf "%-10s %6d %11.2f %16.1f %22.2f\n", $2, c, u, 1000 * u / c, $4 * 1e6}' \
        "$out/log-$phase.txt"
done
