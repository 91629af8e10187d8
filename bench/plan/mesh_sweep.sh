#!/bin/sh
# Every mesh R x C (1 <= R <= C <= MAX, 2 <= C; 1 x C is the path mesh:C) under each port model, planned by
# `totex plan` with default options (auto, its certification, the exact search
# where it applies): one line per plan with its CPU seconds (user + system,
# /usr/bin/time) and peak memory. The issue-31 target: every plan under 5 s
# of CPU. Largest meshes first, so the slow end is seen early. Resumable: a
# plan already in OUT is skipped. Ends with the largest CPU per port model and
# the count over 5 s.
#
# usage: bench/plan/mesh_sweep.sh OUT [MAX [PORTS...]]
#   OUT    results file (appended)          MAX    largest side (default 64)
#   PORTS  port models (default: single k:2 k:3 multi)
#   TOTEX  the binary (default build/totex)
#   ORDER  asc: smallest meshes first (a second sweep on the same OUT from the other end; default desc)
# The full sweep (MAX 64: 2,079 meshes, 1 x C included, 8,320 plans) takes about an hour of
# CPU; `mesh_sweep.sh OUT 8` is a smoke run of seconds.
set -eu
OUT=${1:?usage: mesh_sweep.sh OUT [MAX [PORTS...]]}
MAX=${2:-64}
[ $# -ge 2 ] && shift 2 || shift $#
PORTS=${*:-single k:2 k:3 multi}
TOTEX=${TOTEX:-build/totex}
[ -x "$TOTEX" ] || { echo "mesh_sweep.sh: no binary $TOTEX: build first or set TOTEX" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "mesh_sweep.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
touch "$OUT"
R=1
LIST=$(while [ "$R" -le "$MAX" ]; do C=$((R > 1 ? R : 2)); while [ "$C" -le "$MAX" ]; do
    echo "$((R * C)) $R $C"; C=$((C + 1)); done; R=$((R + 1)); done | sort -k1,1n"$([ "${ORDER:-desc}" = asc ] || echo r)" -k2,2n)
echo "$LIST" | while read -r _ R C; do
    for P in $PORTS; do
        spec="mesh:${R}x${C}"
        [ "$R" -eq 1 ] && spec="mesh:$C" # a 1 x C mesh is the path of C nodes
        key="$spec $P "
        grep -q "^$key" "$OUT" && continue
        r=$( { /usr/bin/time -f "TIME %U %S %e %M" "$TOTEX" plan "$spec" --ports "$P"; } 2>&1 ) && rc=0 || rc=$?
        [ "$rc" -eq 0 ] || { echo "$key FAILED (exit $rc): $(echo "$r" | grep -v '^TIME' | head -1)" >>"$OUT"; continue; }
        a=$(echo "$r" | sed -n 's/^algorithm *\([^:]*\):.*/\1/p')
        st=$(echo "$r" | sed -n 's/^steps *\([0-9]*\).*/\1/p')
        v=$(echo "$r" | sed -n 's/^verified *\([a-z]*\).*/\1/p')
        echo "$r" | grep "^TIME" | awk -v k="$key" -v a="${a:-?}" -v s="${st:-?}" -v v="${v:-?}" \
            '{printf "%s%s %s %s cpu %.2f wall %.2f maxrss_mib %.0f\n", k, a, s, v, $2 + $3, $4, $5 / 1024}' >>"$OUT"
    done
done
awk '$6 == "cpu" && !seen[$1 " " $2]++ {c = $7; p = $2; n[p]++; if (c > m[p]) {m[p] = c; w[p] = $1} if (c >= 5) over[p]++} /FAILED/ {f++}
     END {for (p in m) printf "%-7s %5d plans  largest CPU %6.2f s (%s)  over 5 s: %d\n", p, n[p], m[p], w[p], over[p] + 0; if (f) printf "FAILED plans: %d\n", f}' "$OUT"
