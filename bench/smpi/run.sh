#!/bin/sh
# SimGrid SMPI benchmark: totex_alltoall against every SMPI
# all-to-all algorithm on simulated torus platforms, blocks 8 B .. 64 KiB (8 B * 4^k up to
# 8 KiB, then 16 KiB, 32 KiB, 64 KiB: every size where the unit-step schedules take over).
#
# Usage: bench/smpi/run.sh [BUILD_DIR [ITERS [MAX_BLOCK [TORUS...]]]]
#        defaults: build 10 65536 4x4 8x8 4x4x4 16x16 8x8x8; SMPI_ALGORITHMS="..."
#        narrows the SMPI algorithms. Exit 1 if totex fails or delivers a wrong result, or
#        (SMPI_MAX_RATIO=R) if totex's worst ratio to the best SMPI algorithm
#        exceeds R: the simulated times are deterministic, so CI can bound them.
# Needs libsimgrid-dev (smpicc, smpirun; apt-get install libsimgrid-dev) and
# BUILD_DIR/libtotex.a (cmake build). Writes BUILD_DIR/smpi/ or $SMPI_OUT (binary,
# platforms, raw results) and prints one table per torus: simulated
# microseconds per call of each implementation (same run, same platform) and
# totex / best SMPI algorithm (<= 1: totex is the best or tied-best), for
# totex_alltoall as shipped ("totex": its cross-rank check sends a 24-byte
# header to the next rank with each exchange) and with that check off
# ("totex_nocheck", TOTEX_CHECK=0, as MPI libraries do). The algorithm totex
# ran per size is in BUILD_DIR/smpi/log-TORUS-totex.txt (TOTEX_VERBOSE=2).
# SMPI_CFG="--cfg=..." adds SimGrid options to every run, e.g. flat latency
# and bandwidth factors instead of SMPI's piecewise defaults:
# SMPI_CFG="--cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1".
# Also per size: "first", totex's first call after the choice timed alone (one call after a
# barrier, before the ITERS calls whose mean the table gives: from the moment the last rank
# called to the moment the last returned, on the simulation's one clock; "first_best", the same of
# the best SMPI algorithm), and "L(m)", the latency-aware limit
# (the cut-bound limit below plus one link latency); and "limit", the cut-bound limit of the torus (the multiport cut
# bound in steps, from `totex bounds --ports multi`, times block / 10 GB/s:
# no schedule moving whole blocks over these links can beat it), totex /
# limit, and what totex ran (its TOTEX_VERBOSE=2 line: a combining algorithm,
# or a unit-step schedule/chunks; NAME+padP: its messages under P bytes padded
# to P, where the cost measurement found a P-byte message faster than an 8-byte
# one, as SMPI's default factors have it; NAME/Cs: lanes staggered). A torus of
# SMPI_SCALE_RANKS (default 256) ranks or more (docs/performance.md, "First call at scale")
# runs MAX_BLOCK only, one call, totex with TOTEX_TUNE=0 and without
# totex_nocheck, and of the SMPI algorithms (unless SMPI_ALGORITHMS says) only
# bruck and ompi, basic_linear and pair simulating n(n-1) flows:
# bench/smpi/run.sh build 1 65536 16x16 takes minutes per implementation.
# 8x8x8 (bench/smpi/results-8x8x8.txt, this 2-core machine): bruck takes
# under 3 minutes (at 64 KiB 20 GB resident even with SMPI_SHARED=1: SMPI's own
# temporary buffers), totex's octr in 4 staggered chunks (the model's choice,
# 6.3 million messages per call) 26 minutes at 8 KiB and 17 at 64 KiB (with the
# executor's receive window; it did not finish in 50 minutes without), forced to 1
# chunk (TOTEX_CHUNKS=1) 7 to 8 minutes, and ompi (basic_linear at 512 ranks from
# 512-byte blocks by SimGrid's decision table: 261,632 concurrent flows) had
# simulated 18.5 us after 7 minutes (SimGrid's max-min solver: 85% of the time);
# up to 128 B ompi is bruck and every implementation takes seconds per size.
# TOTEX_* variables in the environment reach totex (TOTEX_CHUNKS=C forces C
# chunks per transfer: say so beside the figures).
# SMPI_IMPLS="..." runs only those implementations (totex, totex_nocheck, SMPI
# algorithm names) and SMPI_APPEND=1 adds their results to the torus's raw file
# instead of starting it afresh (a long run in parts; the table covers them all).
# SMPI_SHARED=1 (simulation only, for tori whose buffers exceed the machine's
# memory, 8x8x8 at 64 KiB: 32 GiB of send and receive buffers and as much again
# of totex's arenas) makes the send and receive buffers SMPI_SHARED_MALLOC ones
# and, with --cfg=smpi/auto-shared-malloc-thresh, every allocation of at least
# max(16 MiB, ranks x MAX_BLOCK / 2) bytes (totex's arena, staging and result
# buffers; its plans are far smaller): one physical copy for all ranks, which
# SMPI does not copy messages into or out of. Simulated times are unchanged
# (they do not depend on the bytes; 4x4 and 4x4x4 give the same figures either
# way), but results cannot be checked: the bench prints "unverified" instead of
# "ok", accepted only in this mode. Totex's cross-rank check still runs (it
# passed with totex's buffers shared, results-8x8x8.txt).
#
# Platform: a SimGrid cluster with topology="TORUS", one host per rank, links
# of 10 GB/s and 1 us latency (split-duplex), dimension-order routing; host
# r runs rank r; the program lays a periodic Cartesian communicator of the
# same shape over it (totex plans for that torus). Computation is not
# simulated (smpi/simulate-computation:no): only communication is timed, as
# for SMPI's built-in collectives, whose local copies are not charged either.
set -eu
build=${1:-build}
# ITERS, the calls whose mean the table gives, 10 by default (3 before 2026-11-29): the mean is each rank's
# time from its own exit of the barrier before them, the slowest rank's, so it carries the barrier's exit
# skew once (on 4x4 3.6 to 7.7 us: docs/performance.md, session 20, "The bench's mean"); the more calls, the less of it
# per call, as in the OSU and IMB benchmarks' means of many calls. The "first" column is unchanged.
iters=${2:-10}
maxb=${3:-65536}
[ $# -gt 3 ] && shift 3 || set --
[ $# -gt 0 ] || set -- 4x4 8x8 4x4x4 16x16 8x8x8
scale=${SMPI_SCALE_RANKS:-256}
case $scale in ''|*[!0-9]*) echo "smpi bench: SMPI_SCALE_RANKS '$scale' is not a rank count" >&2; exit 2 ;; esac
usage="usage: bench/smpi/run.sh [BUILD_DIR [ITERS [MAX_BLOCK [TORUS...]]]], e.g. build 10 65536 4x4 4x4x4"
case ${SMPI_SHARED:-0} in
    0 | 1) shared=${SMPI_SHARED:-0} ;;
    *) echo "smpi bench: SMPI_SHARED '$SMPI_SHARED' is not 0 or 1 (1: shared buffers, results unverified); $usage" >&2; exit 2 ;;
esac
case $iters in ''|*[!0-9]*) echo "smpi bench: ITERS '$iters' is not a positive integer; $usage" >&2; exit 2 ;; esac
case $maxb in ''|*[!0-9]*) echo "smpi bench: MAX_BLOCK '$maxb' is not a byte count; $usage" >&2; exit 2 ;; esac
if [ "$iters" -lt 1 ] || [ "$maxb" -lt 8 ] || [ "$maxb" -gt 16777216 ]; then
    echo "smpi bench: ITERS must be >= 1 and MAX_BLOCK 8 .. 16777216 bytes; $usage" >&2
    exit 2
fi
if [ -n "${SMPI_MAX_RATIO:-}" ] && ! echo "$SMPI_MAX_RATIO" | grep -Eq '^[0-9]+(\.[0-9]+)?$'; then
    echo "smpi bench: SMPI_MAX_RATIO '$SMPI_MAX_RATIO' is not a number (e.g. 1.1); $usage" >&2
    exit 2
fi
for t in "$@"; do
    if ! echo "$t" | grep -Eq '^[1-9][0-9]*(x[1-9][0-9]*){1,2}$' || echo "$t" | grep -Eq '(^|x)1(x|$)'; then
        echo "smpi bench: torus '$t' is not 2 or 3 sides >= 2 joined by x (e.g. 4x4, 4x4x4); $usage" >&2
        exit 2
    fi
done
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh"
root=$(cd "$here/../.." && pwd)
out=${SMPI_OUT:-$build/smpi}
bin=$out/smpi_alltoall_bench
# totex's MPI layer compiled against SMPI's mpi.h; the core library as built
. "$here/mpi_sources.sh"
smpi_build "smpi bench" "$build" "$out" "$here/smpi_alltoall_bench.c" "$bin"
algs=${SMPI_ALGORITHMS:-basic_linear pair bruck ring 2dmesh 3dmesh ompi mpich}
status=0
echo "smpi bench: $(smpirun -version 2>/dev/null | head -1 || echo SimGrid), $iters calls per size, simulated time"
for t in "$@"; do
    smpi_torus_platform "$out" "$t"
    raw=$out/raw-$t.txt
    [ "${SMPI_APPEND:-0}" = 1 ] || : >"$raw"
    # SMPI_SHARED=1: the bench's buffers shared (smpi_alltoall_bench.c) and every malloc of at
    # least max(16 MiB, n x MAX_BLOCK / 2) bytes made an SMPI shared malloc, folded onto one
    # file in power-of-two blocks of 1 MiB .. n x MAX_BLOCK / 8 (few enough mappings for
    # vm.max_map_count = 65530 at 512 ranks)
    shcfg=""
    if [ "$shared" = 1 ]; then
        thresh=$((n * maxb / 2)); [ "$thresh" -ge 16777216 ] || thresh=16777216
        shbs=1048576; while [ $((shbs * 16)) -le $((n * maxb)) ]; do shbs=$((shbs * 2)); done
        shcfg="--cfg=smpi/auto-shared-malloc-thresh:$thresh --cfg=smpi/shared-malloc-blocksize:$shbs"
        echo "torus $t: SMPI_SHARED=1: buffers shared between ranks, results unverified; $shcfg"
    fi
    # at scale: MAX_BLOCK only, one call, the model's choice, few-flow SMPI algorithms
    impls=${SMPI_IMPLS:-totex totex_nocheck $algs}; titers=$iters; one=""; tune=${TOTEX_TUNE:-}
    if [ "$n" -ge "$scale" ]; then
        impls=${SMPI_IMPLS:-totex ${SMPI_ALGORITHMS:-bruck ompi}}; titers=1; one=one; tune=0
        echo "torus $t: $n ranks >= SMPI_SCALE_RANKS=$scale: $maxb-byte blocks only, 1 call, TOTEX_TUNE=0, implementations: $impls"
    fi
    for impl in $impls; do
        check=1; cfg="--cfg=smpi/alltoall:basic_linear"
        case $impl in
            totex) args="totex" ;;
            totex_nocheck) args="totex"; check=0 ;;
            *) args="mpi"; cfg="--cfg=smpi/alltoall:$impl" ;;
        esac
        log=$out/log-$t-$impl.txt
        # shellcheck disable=SC2086
        if SMPI_SHARED=$shared TOTEX_TUNE=$tune TOTEX_CHECK=$check TOTEX_VERBOSE=2 smpirun -np "$n" -platform "$plat" \
            -hostfile "$hosts" "$cfg" --cfg=smpi/simulate-computation:no $shcfg ${SMPI_CFG:-} --log=root.thresh:critical "$bin" "$args" "$t" "$titers" \
            "$maxb" $one >"$log" 2>&1; then
            grep -E "^(totex|mpi) " "$log" | sed "s/^[a-z]* /$impl /" >>"$raw"
        else
            echo "$impl FAILED" >>"$raw"
        fi
    done
    spec=$(echo "$t" | tr 'x' '\n' | awk '{printf "%s%s", (NR > 1 ? "*" : ""), ($1 == 2 ? "k2" : "ring:" $1)}')
    cut=$("$build/totex" bounds "$spec" --ports multi 2>/dev/null | grep -Eo 'cut +[0-9]+ steps' | awk '{print $2}')
    ran=$out/ran-$t.txt
    sed -n 's/^totex: [A-Za-z_]* on [0-9]* ranks, network [^,]*, \([0-9]*\)-byte blocks: \(algorithm\|unit-step schedule\) \([a-z0-9-]*\) ([^)]*\(multiport\|single-port\), [0-9]* steps, \([0-9]*\) chunks\{0,1\} per transfer, lanes staggered[,)].*/\1 \3\/\5s/p; t; s/^totex: [A-Za-z_]* on [0-9]* ranks, network [^,]*, \([0-9]*\)-byte blocks: \(algorithm\|unit-step schedule\) \([a-z0-9-]*\) ([^)]*\(multiport\|single-port\), [0-9]* steps, \([0-9]*\) chunk.*/\1 \3\/\5/p; t; s/^totex: [A-Za-z_]* on [0-9]* ranks, network [^,]*, \([0-9]*\)-byte blocks: algorithm \([a-z0-9-]*\) ([^)]*padded to \([0-9]*\)).*/\1 \2+pad\3/p; s/^totex: [A-Za-z_]* on [0-9]* ranks, network [^,]*, \([0-9]*\)-byte blocks: algorithm \([a-z0-9-]*\) .*/\1 \2/p' \
        "$out/log-$t-totex.txt" 2>/dev/null >"$ran" || : >"$ran"
    echo
    echo "torus $t ($n ranks, $spec, cut bound ${cut:-?} steps): simulated us per call; ratio = totex / best SMPI algorithm;"
    echo "limit = cut bound x block / 10 GB/s; lim_ratio = totex / limit; first = totex's first call after the choice, alone"
    echo "(first_lim = first / limit); L(m) = limit + one link latency (1 us), L_ratio = totex / L(m);"
    echo "ran = what totex ran (unit-step: NAME/CHUNKS, s: lanes staggered)"
    if ! awk -v algs="$(echo "totex totex_nocheck $algs $impls" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | while read -r i; do grep -q "^$i " "$raw" && printf '%s ' "$i"; done)" -v maxr="${SMPI_MAX_RATIO:-0}" -v shared="$shared" -v cut="${cut:-0}" -v ranf="$ran" '
        $2 == "FAILED" { failed[$1] = 1; next }
        { t[$1, $2] = $3; if (NF >= 5) f1[$1, $2] = $5; if ($4 != "ok" && !(shared && $4 == "unverified")) bad[$1, $2] = 1; sizes[$2] = 1 }
        END {
            while ((getline line < ranf) > 0) { split(line, w, " "); ranby[w[1] + 0] = w[2] }
            na = split(algs, a, " ")
            printf "%8s", "block B"
            for (i = 1; i <= na; i++) printf " %12s", a[i]
            printf " %9s %9s %-12s %9s %9s %9s %9s %9s %9s %s\n", "ratio", "ratio_nc", "best SMPI", "limit", "lim_ratio", "first", "first_lim", "1st_best", "L(m)", "L_ratio", "ran"
            ns = 0
            for (s in sizes) sl[++ns] = s + 0
            for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++) if (sl[j] < sl[i]) { x = sl[i]; sl[i] = sl[j]; sl[j] = x }
            worst = 0
            for (k = 1; k <= ns; k++) {
                s = sl[k]; best = -1; bname = ""
                printf "%8d", s
                for (i = 1; i <= na; i++) {
                    if (!((a[i], s) in t)) { printf " %12s", failed[a[i]] ? "failed" : "-"; continue }
                    printf " %11.2f%s", t[a[i], s] * 1e6, bad[a[i], s] ? "!" : " "
                    if (a[i] !~ /^totex/ && !bad[a[i], s] && (best < 0 || t[a[i], s] < best)) { best = t[a[i], s]; bname = a[i] }
                }
                r = best > 0 && ((("totex", s) in t)) ? t["totex", s] / best : -1
                r2 = best > 0 && ((("totex_nocheck", s) in t)) ? t["totex_nocheck", s] / best : -1
                if (r > worst) worst = r
                if (r2 > worst2) worst2 = r2
                lim = cut * s / 1e10
                lr = lim > 0 && ((("totex", s) in t)) ? t["totex", s] / lim : -1
                fl = ((("totex", s) in f1)) ? f1["totex", s] : -1
                flr = lim > 0 && fl > 0 ? fl / lim : -1
                lm = lim + 1e-6 # L(m): the cut-bound limit plus one link latency (1 us)
                lmr = ((("totex", s) in t)) ? t["totex", s] / lm : -1
                fb = ((bname, s) in f1) ? f1[bname, s] : -1
                printf " %9.3f %9.3f %-12s %9.2f %9.3f %9.2f %9.3f %9.2f %9.2f %9.3f %s\n", r, r2, bname, lim * 1e6, lr, fl * 1e6, flr, fb * 1e6, lm * 1e6, lmr, (s in ranby) ? ranby[s] : "-"
            }
            printf "worst ratio %.3f (totex), %.3f (totex_nocheck) (\"!\": wrong result, not counted)%s\n", worst, worst2, \
                shared ? "; SMPI_SHARED=1: results unverified" : ""
            if (maxr > 0 && (worst > maxr || worst2 > maxr)) {
                printf "smpi bench: worst ratio above SMPI_MAX_RATIO=%s\n", maxr > "/dev/stderr"
                exit 3
            }
        }' "$raw"; then
        status=1
    fi
    wrong="WRONG|FAILED"; [ "$shared" = 1 ] || wrong="WRONG|FAILED|unverified"
    if grep -Eq "^totex(_nocheck)? .*($wrong)" "$raw" || ! grep -q "^totex " "$raw"; then
        echo "smpi bench: totex failed or gave a wrong result on torus $t (see $out/log-$t-totex*.txt)" >&2
        status=1
    fi
done
exit $status
