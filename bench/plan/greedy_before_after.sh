#!/bin/sh
# Greedy before/after: CPU seconds of greedy's count-only
# predict and of its plan run (hops streamed into a counting sink, no
# simulator), per job, for two builds' bench_greedy run one after the other
# on the same job (same load), and the ratios old / new (> 1: new is faster).
# The simulator's share of `totex plan` is measured by bench/plan/plan_before_after.sh
# (bench_plan: plan + verify).
# usage: bench/plan/greedy_before_after.sh OLD_bench_greedy NEW_bench_greedy [SPEC PORTS]...
# Build the old one from a worktree of the old commit:
#   git worktree add /tmp/old main && cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
#   cmake --build /tmp/old/build -j2 --target bench_greedy
OLD=${1:?usage: $0 OLD_bench_greedy NEW_bench_greedy [SPEC PORTS]...}
NEW=${2:?usage: $0 OLD_bench_greedy NEW_bench_greedy [SPEC PORTS]...}
shift 2
if [ $# -eq 0 ]; then
    set -- mesh:16x32 multi mesh:32x32 multi mesh:32x64 multi mesh:32x32 single mesh:32x32 k:2 \
        torus:16x16 multi ring:8*path:32 multi
fi
if [ $(($# % 2)) -ne 0 ]; then
    echo "usage: $0 OLD_bench_greedy NEW_bench_greedy [SPEC PORTS]..." >&2
    exit 2
fi
# one job's figures: "steps hops predict_s plan_s", or "- - - -" when it failed
row() {
    "$1" "$2" "$3" 2>/dev/null | awk '$3 == "steps" { for (i = 4; i < NF; i++) { if ($i == "predict") p = $(i + 1);
            if ($i == "plan") l = $(i + 1) } print $4, $6, p, l; found = 1 }
        END { if (!found) print "-", "-", "-", "-" }'
}
printf '%-16s %-6s %9s %11s | %9s %9s | %9s %9s | %9s %9s\n' network ports steps hops "old pred" "old plan" \
    "new pred" "new plan" "pred x" "plan x"
rc=0
while [ $# -ge 2 ]; do
    o=$(row "$OLD" "$1" "$2")
    n=$(row "$NEW" "$1" "$2")
    echo "$1 $2 $o $n" | awk '{
        if ($3 != $7 || $4 != $8) { printf "%-16s %-6s old %s steps %s hops, new %s steps %s hops: DIFFER\n", $1, $2, $3, $4, $7, $8; exit 1 }
        px = ($9 > 0) ? sprintf("%9.2f", $5 / $9) : "        -"; lx = ($10 > 0) ? sprintf("%9.2f", $6 / $10) : "        -";
        printf "%-16s %-6s %9s %11s | %9s %9s | %9s %9s | %s %s\n", $1, $2, $3, $4, $5, $6, $9, $10, px, lx }' || rc=1
    shift 2
done
exit $rc
