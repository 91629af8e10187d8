#!/bin/sh
# Run bench/mpi/mpi_alltoall_bench at 2 and 4 ranks.
# Usage: bench/mpi/mpi_bench.sh [BUILD_DIR [REPS [MAX_BLOCK_BYTES]]]   (default: build 11 65536)
# MPI_BENCH_RUNS=K (default 1): K launches per rank count, then per block size the K ratios
# totex/MPI and their median. On a shared or small machine one launch's ratio moves by 10%
# and more with where the ranks land (a 2-core shared virtual machine: MPI_Alltoall of 8 B on
# 2 ranks took 0.18 us in one launch, 0.42 us in the next); the median of several launches
# is the figure to report (5 or more).
# Open MPI: oversubscribes (fewer cores than ranks is allowed; timings then
# include time-sharing), and runs as root when needed.
set -eu
build=${1:-build}
reps=${2:-11}
maxb=${3:-65536}
runs=${MPI_BENCH_RUNS:-1}
prog=$build/bench/mpi_alltoall_bench
[ -x "$prog" ] || { echo "mpi_bench: $prog not built (MPI found? TOTEX_SANITIZE OFF?)" >&2; exit 1; }
case $runs in '' | *[!0-9]*) echo "mpi_bench: MPI_BENCH_RUNS=$runs: give a number of launches, 1 or more" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "mpi_bench: MPI_BENCH_RUNS=$runs: give 1 or more" >&2; exit 2; }
flags="--oversubscribe"
if [ "$(id -u)" -eq 0 ]; then
    flags="$flags --allow-run-as-root"
fi
echo "mpi_bench: $(mpirun --version 2>/dev/null | head -1), $(nproc) cores"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for np in 2 4; do
    : > "$tmp"
    i=0
    while [ "$i" -lt "$runs" ]; do
        # shellcheck disable=SC2086
        mpirun $flags -np "$np" "$prog" "$reps" "$maxb" | tee -a "$tmp"
        i=$((i + 1))
    done
    if [ "$runs" -gt 1 ]; then
        echo "median over $runs launches, $np ranks (totex/MPI of each launch in brackets):"
        awk -v np="$np" '$1 == np && $2 ~ /^[0-9]+$/ { r[$2] = r[$2] " " $6; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
            END { for (k = 1; k <= n; k++) { b = order[k]; m = split(substr(r[b], 2), v, " ");
                  for (i = 2; i <= m; i++) { x = v[i]; j = i - 1; while (j >= 1 && v[j] > x) { v[j + 1] = v[j]; j-- } v[j + 1] = x }
                  med = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2;
                  printf "%5d %10d  median totex/MPI %.3f  [%s]\n", np, b, med, substr(r[b], 2) } }' "$tmp"
    fi
done
