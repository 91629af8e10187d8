#!/bin/sh
# The arena's size against its effect on a staggered octr run, on SimGrid SMPI:
# per torus, block size and chunk count, one simulated run with the default arena
# (TOTEX_PROG_ARENA_BLOCKS_PER_RANK = 4: 4n blocks before bytes are reused), one with the
# earlier default of 2n blocks (TOTEX_ARENA_BLOCKS=2n: the baseline, in the same run) and one
# where every received block keeps its bytes (TOTEX_ARENA_BLOCKS=100000); flat factors, octr
# forced (TOTEX_TUNE=0 TOTEX_ALGORITHM=octr TOTEX_STAGGER=1), 3 calls. Prints simulated us per
# call, default / 2n, and default / cut-bound limit.
# Usage: bench/smpi/arena_sweep.sh [BUILD_DIR [TORUS...]]   (default: build 4x4 8x8 4x4x4)
# Needs BUILD_DIR/smpi/smpi_alltoall_bench, which bench/smpi/run.sh builds (e.g.
# `bench/smpi/run.sh build 1 8 4x4`). Simulated times are deterministic; 64-rank rows take
# about a minute of wall time each.
set -eu
build=${1:-build}
[ $# -gt 1 ] && shift 1 || set --
[ $# -gt 0 ] || set -- 4x4 8x8 4x4x4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh"
bin=$build/smpi/smpi_alltoall_bench
[ -x "$bin" ] || { echo "arena_sweep: $bin not built (run bench/smpi/run.sh $build 1 8 4x4 first)" >&2; exit 1; }
out=${SMPI_OUT:-$build/smpi}
for t in "$@"; do
    if ! echo "$t" | grep -Eq '^[1-9][0-9]*(x[1-9][0-9]*){1,2}$'; then
        echo "arena_sweep: torus '$t' is not 2 or 3 sides joined by x (e.g. 8x8)" >&2
        exit 2
    fi
done
one() { # TORUS BLOCK CHUNKS [ENV...]: simulated us per call
    _t=$1 _b=$2 _c=$3; shift 3
    env "$@" TOTEX_TUNE=0 TOTEX_ALGORITHM=octr TOTEX_STAGGER=1 TOTEX_CHUNKS="$_c" smpirun -np "$n" -platform "$plat" \
        -hostfile "$hosts" --cfg=smpi/alltoall:basic_linear --cfg=smpi/simulate-computation:no \
        --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --log=root.thresh:critical "$bin" totex "$_t" 3 "$_b" one 2>&1 |
        awk '$1 == "totex" { printf "%.2f", $3 * 1e6; f = 1 } END { if (!f) printf "failed" }'
}
echo "arena_sweep: octr staggered, flat factors, simulated us per call; unlimited = every received block its own bytes"
printf '%-6s %6s %6s %10s %10s %10s %9s %9s\n' torus block chunks 2n default unlimited def/2n lim_ratio
for t in "$@"; do
    smpi_torus_platform "$out" "$t"
    spec=$(echo "$t" | tr 'x' '\n' | awk '{printf "%s%s", (NR > 1 ? "*" : ""), ($1 == 2 ? "k2" : "ring:" $1)}')
    cut=$("$build/totex" bounds "$spec" --ports multi 2>/dev/null | grep -Eo 'cut +[0-9]+ steps' | awk '{print $2}')
    for b in 16384 32768 65536; do
        for c in 2 3; do
            o=$(one "$t" "$b" "$c" TOTEX_ARENA_BLOCKS=$((2 * n)))
            d=$(one "$t" "$b" "$c")
            u=$(one "$t" "$b" "$c" TOTEX_ARENA_BLOCKS=100000)
            echo "$t $b $c $o $d $u ${cut:-0}" | awk '{ r = ($4 + 0 > 0 && $5 + 0 > 0) ? $5 / $4 : -1; l = $7 * $2 / 1e10 * 1e6;
                printf "%-6s %6d %6d %10s %10s %10s %9.3f %9.3f\n", $1, $2, $3, $4, $5, $6, r, (l > 0 ? $5 / l : -1) }'
        done
    done
done
