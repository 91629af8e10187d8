#!/bin/sh
# Greedy old vs new: the full schedules of two totex builds
# on a sweep of networks and port models, compared byte for byte; where they
# differ, the (step, from, to, dst) hop multisets per step are compared (the
# source within a bucket is free: 001 Section 5's rule does not depend on it).
#
#   bench/plan/greedy_compare.sh OLD_TOTEX NEW_TOTEX
#
# Prints one line per case (same / hops-same / DIFFER) and exits 1 on DIFFER.
set -u
old=$1
new=$2
data=$(cd "$(dirname "$0")/../../tests/data" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
specs="mesh:2x2 mesh:2x3 mesh:3x3 mesh:3x4 mesh:4x4 mesh:4x7 mesh:5x5 mesh:6x8 mesh:8x9 mesh:2x2x2 mesh:2x3x4
mesh:3x3x3 mesh:4x4x4 mesh:2x2x2x2x2 torus:3x4 torus:4x4 torus:5x6 hypercube:4 ghc:3x4 k2*k2*path:5
path:5*k2 ring:6*path:4 path:3*ring:5 ring:4*path:3*ring:6 path:4*path:5*ring:4 complete:3*path:5
path:9 ring:8 file:$data/greedy_grid3x4.edges file:$data/greedy_tree10.edges path:3*file:$data/greedy_petersen.edges"
rc=0
for spec in $specs; do
    for ports in single k:2 k:3 multi; do
        "$old" plan "$spec" --ports $ports --algorithm greedy --schedule "$tmp/o" --format full >/dev/null 2>&1 ||
            { echo "$spec $ports: old build failed"; rc=1; continue; }
        "$new" plan "$spec" --ports $ports --algorithm greedy --schedule "$tmp/n" --format full >/dev/null 2>&1 ||
            { echo "$spec $ports: DIFFER (new build failed)"; rc=1; continue; }
        if cmp -s "$tmp/o" "$tmp/n"; then
            echo "$spec $ports: same"
            continue
        fi
        # one line per hop: step from to dst (source stripped), sorted
        for f in o n; do
            awk '/^\[/{s++; n=split($0, h, "},"); for (i = 1; i <= n; i++) { f = h[i]; sub(/.*"from":/, "", f);
                 split(f, a, /[,:}]/); d = h[i]; sub(/.*"dst":/, "", d); sub(/[^0-9].*/, "", d);
                 t = h[i]; sub(/.*"to":/, "", t); sub(/[^0-9].*/, "", t); print s, a[1], t, d } }' "$tmp/$f" |
                sort >"$tmp/$f.hops"
        done
        if cmp -s "$tmp/o.hops" "$tmp/n.hops"; then
            echo "$spec $ports: hops-same (sources differ)"
        else
            echo "$spec $ports: DIFFER"
            rc=1
        fi
    done
done
exit $rc
