#!/bin/sh
# SimGrid SMPI benchmark of MPI_Alltoallv: totex_alltoallv against every SMPI
# alltoallv algorithm on the simulated tori of run.sh (platform.sh: 10 GB/s links, 1 us latency),
# for the demand kinds and mean block sizes of smpi_alltoallv_bench.c (its seeded generator),
# and totex_alltoall of the same uniform blocks ("a2a").
#
# Usage: bench/smpi/alltoallv.sh [BUILD_DIR [ITERS [TORUS...]]]
#        defaults: build 2 4x4 8x8 4x4x4; KINDS="uniform,zipf,hotspot,random" MEANS="1024,16384,65536"
#        SMPI_ALGORITHMS="..." narrows the SMPI algorithms; SMPI_CFG adds SimGrid options (flat factors:
#        SMPI_CFG="--cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1").
# Prints per torus one table: simulated microseconds per call of each implementation (totex as shipped,
# and totex_nc with TOTEX_CHECK=0: no Allreduce, no count check, direct), ratio (ratio_nc) =
# totex (totex_nc) / best SMPI algorithm, the bounds (injection, cut and hop-bytes at 10 GB/s:
# smpi_alltoallv_bench.c; lp, up to 64 nodes, the exact fluid optimum of the same demand by
# `BUILD_DIR/totex bounds --demand`, which no other bound exceeds), b_ratio = totex / the largest bound,
# and what totex chose (its TOTEX_VERBOSE line).
# Exit 1 if totex fails or delivers a wrong result. Needs libsimgrid-dev and BUILD_DIR/libtotex.a.
set -eu
build=${1:-build}
iters=${2:-2}
[ $# -gt 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- 4x4 8x8 4x4x4
kinds=${KINDS:-uniform,zipf,hotspot,random}
means=${MEANS:-1024,16384,65536}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh"
root=$(cd "$here/../.." && pwd)
out=${SMPI_OUT:-$build/smpi-v}
bin=$out/smpi_alltoallv_bench
. "$here/mpi_sources.sh"
smpi_build "smpi alltoallv bench" "$build" "$out" "$here/smpi_alltoallv_bench.c" "$bin" -lm
algs=${SMPI_ALGORITHMS:-bruck pair pair_light_barrier pair_mpi_barrier pair_one_barrier ring ring_light_barrier ring_mpi_barrier ring_one_barrier ompi mpich mvapich2 impi}
status=0
echo "smpi alltoallv bench: $(smpirun -version 2>/dev/null | head -1), $iters calls per case, simulated time; ${SMPI_CFG:-default factors}"
for t in "$@"; do
    smpi_torus_platform "$out" "$t"
    raw=$out/raw-$t.txt
    : >"$raw"
    for impl in totex totex_nocheck a2a $algs; do
        check=1
        case $impl in
            totex) args="totex $t $iters $kinds $means"; cfg="--cfg=smpi/alltoallv:default"
                demand_dir=$out/demand-$t; rm -rf "$demand_dir"; mkdir -p "$demand_dir" ;;
            totex_nocheck) args="totex $t $iters $kinds $means"; cfg="--cfg=smpi/alltoallv:default"; check=0 ;;
            a2a) args="a2a $t $iters uniform $means"; cfg="--cfg=smpi/alltoallv:default" ;;
            *) args="mpi $t $iters $kinds $means"; cfg="--cfg=smpi/alltoallv:$impl" ;;
        esac
        log=$out/log-$t-$impl.txt
        # shellcheck disable=SC2086
        if SMPI_DEMAND_DIR=$([ "$impl" = totex ] && echo "$demand_dir") TOTEX_CHECK=$check TOTEX_VERBOSE=2 smpirun -np "$n" -platform "$plat" -hostfile "$hosts" "$cfg" \
            --cfg=smpi/simulate-computation:no ${SMPI_CFG:-} --log=root.thresh:critical "$bin" $args >"$log" 2>&1; then
            if [ "$impl" = totex_nocheck ]; then
                grep -E "^totex " "$log" | sed "s/^totex /totex_nocheck /" >>"$raw"
            else
                grep -E "^(totex|mpi|a2a|bound) " "$log" | sed "s/^mpi /$impl /" >>"$raw"
            fi
        else
            echo "$impl FAILED" >>"$raw"
        fi
    done
    # the exact fluid optimum of each demand totex ran (64 nodes at most: the LP's limit)
    if [ "$n" -le 64 ] && [ -x "$build/totex" ]; then
        for f in "$demand_dir"/demand-*.csv; do
            [ -f "$f" ] || continue
            km=$(basename "$f" .csv | sed 's/^demand-//; s/-/ /')
            lp=$("$build/totex" bounds "torus:$t" --demand "file:$f" --bandwidth 1e10 --ts 0 |
                awk '$1 == "fluid-lp" && / optimal$/ {print $3}')
            [ -n "$lp" ] && echo "lp $km $lp" >>"$raw"
        done
    fi
    # what totex chose per case, in call order (the verbose lines of the timed calls)
    grep -o 'MPI_Alltoallv on [0-9]* ranks: [a-z ]*\|totex_alltoallv on [0-9]* ranks: [a-z ]*' "$out/log-$t-totex.txt" \
        >"$out/chose-$t.txt" 2>/dev/null || :
    echo
    echo "torus $t ($n ranks): simulated us per call; ratio = totex / best SMPI alltoallv; bound = max(inject, cut,"
    echo "hop-bytes, lp) at 10 GB/s (lp: the exact fluid optimum, - past 64 nodes); b_ratio = totex / bound;"
    echo "a2a = totex_alltoall of the uniform blocks (a2a_ratio = totex / a2a)"
    awk -v algs="$algs" '
        $2 == "FAILED" { failed[$1] = 1; next }
        $1 == "bound" { b[$2, $3] = ($4 > $5 ? $4 : $5); if ($6 > b[$2, $3]) b[$2, $3] = $6; bi[$2, $3] = $4; bc[$2, $3] = $5; bh[$2, $3] = $6; next }
        $1 == "lp" { lp[$2, $3] = $4; next }
        { t[$1, $2, $3] = $4; if ($5 != "ok") bad[$1, $2, $3] = 1; if ($1 == "totex") { k[++nk] = $2 " " $3 } }
        END {
            na = split(algs, a, " ")
            printf "%-8s %6s %10s %10s %10s", "kind", "mean", "totex", "totex_nc", "a2a"
            for (i = 1; i <= na; i++) printf " %9s", substr(a[i], 1, 9)
            printf " %7s %8s %-10s %9s %9s %9s %9s %7s %9s\n", "ratio", "ratio_nc", "best", "inject", "cut", "hopbytes", "lp", "b_ratio", "a2a_ratio"
            worst = 0
            for (q = 1; q <= nk; q++) {
                split(k[q], w, " "); kd = w[1]; m = w[2]
                printf "%-8s %6d %9.2f%s", kd, m, t["totex", kd, m] * 1e6, bad["totex", kd, m] ? "!" : " "
                if (("totex_nocheck", kd, m) in t) printf " %9.2f%s", t["totex_nocheck", kd, m] * 1e6, bad["totex_nocheck", kd, m] ? "!" : " "; else printf " %10s", "-"
                if (("a2a", kd, m) in t) printf " %9.2f%s", t["a2a", kd, m] * 1e6, bad["a2a", kd, m] ? "!" : " "; else printf " %10s", "-"
                best = -1; bn = ""
                for (i = 1; i <= na; i++) {
                    if (!((a[i], kd, m) in t)) { printf " %9s", failed[a[i]] ? "failed" : "-"; continue }
                    printf " %8.2f%s", t[a[i], kd, m] * 1e6, bad[a[i], kd, m] ? "!" : " "
                    if (!bad[a[i], kd, m] && (best < 0 || t[a[i], kd, m] < best)) { best = t[a[i], kd, m]; bn = a[i] }
                }
                r = best > 0 ? t["totex", kd, m] / best : -1
                rn = best > 0 && (("totex_nocheck", kd, m) in t) ? t["totex_nocheck", kd, m] / best : -1
                if (r > worst) worst = r
                if (rn > worstn) worstn = rn
                if (((kd, m) in lp) && lp[kd, m] > b[kd, m]) b[kd, m] = lp[kd, m]
                br = b[kd, m] > 0 ? t["totex", kd, m] / b[kd, m] : -1
                ar = (("a2a", kd, m) in t) ? t["totex", kd, m] / t["a2a", kd, m] : -1
                printf " %7.3f %8.3f %-10s %9.2f %9.2f %9.2f %9s %7.3f %9.3f\n", r, rn, bn, bi[kd, m] * 1e6, bc[kd, m] * 1e6, bh[kd, m] * 1e6,
                    ((kd, m) in lp) ? sprintf("%.2f", lp[kd, m] * 1e6) : "-", br, ar
            }
            printf "worst ratio to the best SMPI alltoallv: %.3f (totex), %.3f (totex_nocheck: TOTEX_CHECK=0)\n", worst, worstn
        }' "$raw"
    echo "totex chose (call order, per case: 5 untimed + ITERS timed calls): $(sort "$out/chose-$t.txt" | uniq -c | tr -s ' \n' ' ')"
    if grep -Eq "^totex(_nocheck)? .*WRONG|^totex(_nocheck)? FAILED" "$raw" || ! grep -q "^totex " "$raw"; then
        echo "smpi alltoallv bench: totex failed or gave a wrong result on torus $t (see $out/log-$t-totex.txt)" >&2
        status=1
    fi
done
exit $status
