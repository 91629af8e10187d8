#!/bin/sh
# Before/after for `totex plan`: runs bench_plan of two
# builds (e.g. main's before a change and the branch's after) job by job,
# the old build then the new on the same job, so both see the same load, and
# prints each one's plan + verify wall time, cpu time and peak memory and the
# ratios old / new (> 1: the new build is faster or smaller).
# usage: bench/plan/plan_before_after.sh OLD_bench_plan NEW_bench_plan [SPEC PORTS ALGO]...
#        (default jobs: the list, the defaults of bench/plan/bench_plan.c)
# Build the old one from a worktree of the old commit:
#   git worktree add /tmp/old main && cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
#   cmake --build /tmp/old/build -j2 --target bench_plan
# BENCH_PLAN_CAP (seconds per job, default 300) applies to both.
OLD=${1:?usage: $0 OLD_bench_plan NEW_bench_plan [SPEC PORTS ALGO]...}
NEW=${2:?usage: $0 OLD_bench_plan NEW_bench_plan [SPEC PORTS ALGO]...}
shift 2
if [ $# -eq 0 ]; then
    set -- torus:16x16x16x8 single auto torus:16x16x16x8 multi auto mesh:64x64 single auto \
        mesh:64x64 multi auto mesh:48x64 multi auto mesh:32x64 single auto mesh:32x64 multi auto \
        touchstone-delta single auto touchstone-delta multi auto
fi
if [ $(($# % 3)) -ne 0 ]; then
    echo "usage: $0 OLD_bench_plan NEW_bench_plan [SPEC PORTS ALGO]..." >&2
    exit 2
fi
# one job's row of bench_plan: "wall cpu peakMiB steps algorithm", or "- - - - why" when it failed
row() {
    "$1" "$2" "$3" "$4" 2>/dev/null | awk -v s="$2" -v p="$3" '
        $1 == s && $2 == p && NF >= 11 && $4 ~ /^[0-9]+$/ { print $7, $8, $9, $4, $3; found = 1; exit }
        $1 == s && $2 == p { print "-", "-", "-", "-", "failed/over-cap"; found = 1; exit }
        END { if (!found) print "-", "-", "-", "-", "no-row" }'
}
printf '%-18s %-6s | %-11s %9s %8s %9s | %-11s %9s %8s %9s | %8s %8s\n' network ports "old algo" "wall s" "cpu s" "peak MiB" \
    "new algo" "wall s" "cpu s" "peak MiB" "wall x" "peak x"
while [ $# -ge 3 ]; do
    o=$(row "$OLD" "$1" "$2" "$3")
    n=$(row "$NEW" "$1" "$2" "$3")
    echo "$1 $2 $o $n" | awk '{
        wx = ($3 != "-" && $8 != "-" && $8 > 0) ? sprintf("%8.2f", $3 / $8) : "       -";
        px = ($5 != "-" && $10 != "-" && $10 > 0) ? sprintf("%8.2f", $5 / $10) : "       -";
        printf "%-18s %-6s | %-11s %9s %8s %9s | %-11s %9s %8s %9s | %s %s\n", $1, $2, $7, $3, $4, $5, $12, $8, $9, $10, wx, px }'
    shift 3
done
echo "wall x, peak x = old / new (the same job, run one after the other); wall s = plan + verify, cpu s = its user + system time"
