#!/bin/sh
# The floor SimGrid's network model sets for one link of a total exchange on the bench's torus
# (bench/smpi/link_floor.c): the busiest link's bytes, the multiport cut bound in steps (from
# `totex bounds --ports multi`) times BLOCK, between two neighbouring hosts (node-0 and node-1), both
# directions at once, one message after another, in one message, and in FLOWS messages at once (default:
# as many as the cut's blocks, their halves and their quarters, and messages of 8 and 4 KiB). The floor is the fastest of these forms:
# what no schedule moving whole blocks (or their chunks) over that link beats in SimGrid, its factors and
# its reverse-link cross-traffic included, against L(m) = cut x BLOCK / 10 GB/s + 1 us.
#
# Usage: bench/smpi/link_floor.sh [BUILD_DIR [BLOCK [TORUS...]]]   defaults: build 16384 4x4 8x8 4x4x4
# SMPI_CFG="--cfg=..." adds SimGrid options (as for run.sh; without it SMPI's default factors), e.g.
# SMPI_CFG="--cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1"; FLOWS="8 16" the flow counts.
# Needs libsimgrid-dev and BUILD_DIR/libtotex.a (for BUILD_DIR/totex bounds).
set -eu
build=${1:-build}
block=${2:-16384}
if [ $# -gt 2 ]; then shift 2; else set --; fi
[ $# -gt 0 ] || set -- 4x4 8x8 4x4x4
case $block in ''|*[!0-9]*) echo "link_floor: BLOCK '$block' is not a byte count" >&2; exit 2 ;; esac
if [ "$block" -lt 8 ] || [ "$block" -gt 16777216 ]; then
    echo "link_floor: BLOCK must be 8 .. 16777216 bytes, not $block" >&2
    exit 2
fi
for f in ${FLOWS:-}; do
    case $f in ''|*[!0-9]*) echo "link_floor: FLOWS '$FLOWS' is not a list of message counts (e.g. FLOWS=\"8 16\")" >&2; exit 2 ;; esac
done
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh"
# shellcheck disable=SC2034 # read by mpi_sources.sh
root=$(cd "$here/../.." && pwd)
. "$here/mpi_sources.sh"
smpi_check_tori link_floor "$@"
[ -x "$build/totex" ] || { echo "link_floor: $build/totex not built (cmake --build $build)" >&2; exit 1; }
out=${SMPI_OUT:-$build/smpi}
mkdir -p "$out"
bin=$out/link_floor
smpicc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L "$here/link_floor.c" -o "$bin" 2>"$out/link_floor.log" ||
    { cat "$out/link_floor.log" >&2; exit 1; }
factors=${SMPI_CFG:-"SMPI's default factors"}
echo "link_floor: $(smpirun -version 2>/dev/null | head -1 || echo SimGrid), $block-byte blocks, $factors"
printf '%-7s %5s %-7s %6s %10s %10s %8s %10s\n' torus cut form flows "msg B" "us" "L(m) us" "/ L(m)"
status=0
for t in "$@"; do
    smpi_torus_platform "$out" "$t"
    head -2 "$hosts" >"$hosts.2"
    spec=$(echo "$t" | tr 'x' '\n' | awk '{printf "%s%s", (NR > 1 ? "*" : ""), ($1 == 2 ? "k2" : "ring:" $1)}')
    cut=$("$build/totex" bounds "$spec" --ports multi 2>/dev/null | grep -Eo 'cut +[0-9]+ steps' | awk '{print $2}')
    [ -n "$cut" ] || { echo "link_floor: no cut bound for $spec from $build/totex bounds" >&2; status=1; continue; }
    log=$out/link_floor-$t.txt
    # shellcheck disable=SC2086
    if ! smpirun -np 2 -platform "$plat" -hostfile "$hosts.2" --cfg=smpi/simulate-computation:no ${SMPI_CFG:-} \
        --log=root.thresh:critical "$bin" "$block" "$cut" ${FLOWS:-} >"$log" 2>&1; then
        echo "link_floor: torus $t failed (see $log)" >&2
        status=1
        continue
    fi
    awk -v t="$t" -v cut="$cut" -v b="$block" '
        $1 == "floor" { lm = cut * b / 1e10 + 1e-6
            printf "%-7s %5d %-7s %6d %10d %10.2f %8.2f %10.3f\n", t, cut, $2, $3, $4, $5 * 1e6, lm * 1e6, $5 / lm
            if (best == "" || $5 < best) { best = $5; bf = $2 " " $3 } }
        END { if (best != "") printf "%-7s floor %.2f us (%s flows) = %.3f x L(m)\n", t, best * 1e6, bf, best / (cut * b / 1e10 + 1e-6) }' "$log"
done
exit $status
