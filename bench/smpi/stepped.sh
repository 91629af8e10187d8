#!/bin/sh
# PROTOTYPE (session 26, issue 30), not a library feature: sweep of the neighbour-step executor
# (stepped_plan.py makes the schedule, stepped_proto.c runs it on SimGrid SMPI).
#
# Usage: bench/smpi/stepped.sh [TORUS [KINDS [CS [VARIANTS]]]]   (VARIANTS: strict, pipe:P, win:P, each with /K for K chunks; stepped_proto.c)
#        defaults: 4x4 "random uniform" "16384 32768 65536 131072" "strict pipe:1 pipe:2 pipe:0"
#        PLAN_ARGS adds options to stepped_plan.py (e.g. "--prio load"); SMPI_CFG replaces the factors
#        (default flat: --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1); OUT (default /tmp/stepped).
# Prints per kind and C the planner's line (steps, schedule link time), then per variant the simulated us of
# one timed run after 3 untimed ones on the slowest rank (from a barrier). The torus platform of platform.sh
# (10 GB/s links, 1 us latency, split-duplex). Needs smpicc, smpirun (libsimgrid-dev) and python3.
set -eu
t=${1:-4x4}
kinds=${2:-random uniform}
cs=${3:-16384 32768 65536 131072}
variants=${4:-strict pipe:1 pipe:2 pipe:0}
cfg=${SMPI_CFG:---cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1}
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/stepped}
mkdir -p "$out"
. "$here/platform.sh"
smpi_torus_platform "$out" "$t"
command -v smpicc >/dev/null || { echo "stepped.sh: smpicc not found (apt-get install libsimgrid-dev)" >&2; exit 1; }
smpicc -O2 -std=c11 "$here/stepped_proto.c" -o "$out/stepped_proto" 2>"$out/stepped_proto.log" ||
    { cat "$out/stepped_proto.log" >&2; exit 1; }
echo "stepped.sh: $(smpirun -version 2>/dev/null | head -1), torus $t, $cfg, $(date -u +%Y-%m-%dT%H:%MZ)"
for k in $kinds; do
    for c in $cs; do
        sched=$out/sched-$t-$k-$c.txt
        # shellcheck disable=SC2086
        python3 "$here/stepped_plan.py" "$t" "$k" "$c" --out "$sched" ${PLAN_ARGS:-} | sed 's/ per step busiest.*//'
        for v in $variants; do
            # shellcheck disable=SC2086
            r=$(smpirun -np "$n" -platform "$plat" -hostfile "$hosts" --cfg=smpi/simulate-computation:no $cfg \
                --log=root.thresh:critical "$out/stepped_proto" "$sched" "$v" 2>&1 | grep '^stepped ' || echo "FAILED")
            echo "  $t $k C $c $r"
        done
    done
done
