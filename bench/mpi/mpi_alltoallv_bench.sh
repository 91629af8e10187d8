#!/bin/sh
# MPI_Alltoallv under Open MPI: totex_alltoallv against the MPI library's MPI_Alltoallv
# and totex_alltoall of the same uniform blocks, on NP ranks, the demand kinds and mean block sizes of
# bench/smpi/smpi_alltoallv_bench.c (the same program, built with mpicc against libtotex_mpi), LAUNCHES
# launches alternating the implementations; prints every launch's lines and the medians per case with
# totex / MPI_Alltoallv and (uniform) totex_alltoallv / totex_alltoall.
#
#   bench/mpi/mpi_alltoallv_bench.sh [BUILD_DIR [NP [LAUNCHES [ITERS]]]]   (default build 4 3 200)
#   KINDS="uniform,zipf,hotspot,random" MEANS="1024,16384,65536" as in bench/smpi/alltoallv.sh
set -eu
build=${1:-build}
np=${2:-4}
launches=${3:-3}
iters=${4:-200}
kinds=${KINDS:-uniform,zipf,hotspot,random}
means=${MEANS:-1024,16384,65536}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ -f "$build/libtotex_mpi.a" ] || { echo "mpi_alltoallv_bench.sh: $build/libtotex_mpi.a not built" >&2; exit 2; }
bin=$build/bench/mpi_alltoallv_bench
mkdir -p "$build/bench"
# shellcheck disable=SC2046
mpicc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$root/include" "$root/bench/smpi/smpi_alltoallv_bench.c" \
    -o "$bin" $(PKG_CONFIG_PATH="$build" pkg-config --libs totex-mpi-uninstalled) -lm
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$launches" ]; do
    for impl in totex mpi a2a; do
        k=$kinds; [ "$impl" = a2a ] && k=uniform
        mpirun --oversubscribe -np "$np" "$bin" "$impl" "$np" "$iters" "$k" "$means" | grep -v '^bound' | tee -a "$out"
    done
    i=$((i + 1))
done
echo "# medians over $launches launches, $np ranks, Open MPI $(ompi_info --version 2>/dev/null | head -1 | grep -Eo '[0-9.]+$'), $(date -u +%Y-%m-%d)"
awk "$(cat "$(dirname "$0")/median.awk")"'
{ key = $1 SUBSEP $2 SUBSEP $3; v[key, ++cnt[key]] = $4; if (!(($2, $3) in seen)) { seen[$2, $3] = 1; order[++n] = $2 " " $3 }
  if ($5 != "ok") bad = 1 }
END {
    printf "%-8s %6s %12s %12s %12s %9s %9s\n", "kind", "mean", "totex us", "MPI us", "a2a us", "totex/MPI", "totex/a2a"
    for (q = 1; q <= n; q++) {
        split(order[q], w, " "); t = med("totex" SUBSEP w[1] SUBSEP w[2]); m = med("mpi" SUBSEP w[1] SUBSEP w[2])
        a = cnt["a2a" SUBSEP w[1] SUBSEP w[2]] ? med("a2a" SUBSEP w[1] SUBSEP w[2]) : 0
        printf "%-8s %6d %12.2f %12.2f %12s %9.3f %9s\n", w[1], w[2], t * 1e6, m * 1e6, a ? sprintf("%.2f", a * 1e6) : "-",
               t / m, a ? sprintf("%.3f", t / a) : "-"
    }
    if (bad) print "WRONG results in some run"
}' "$out"
