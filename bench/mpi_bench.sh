#!/bin/sh
# Run bench/mpi_alltoall_bench (issue 5 item 6) at 2 and 4 ranks.
# Usage: bench/mpi_bench.sh [BUILD_DIR [REPS [MAX_BLOCK_BYTES]]]   (default: build 11 65536)
# Open MPI: oversubscribes (fewer cores than ranks is allowed; timings then
# include time-sharing), and runs as root when needed.
set -eu
build=${1:-build}
reps=${2:-11}
maxb=${3:-65536}
prog=$build/bench/mpi_alltoall_bench
[ -x "$prog" ] || { echo "mpi_bench: $prog not built (MPI found? TOTEX_SANITIZE OFF?)" >&2; exit 1; }
flags="--oversubscribe"
if [ "$(id -u)" -eq 0 ]; then
    flags="$flags --allow-run-as-root"
fi
echo "mpi_bench: $(mpirun --version 2>/dev/null | head -1), $(nproc) cores"
for np in 2 4; do
    # shellcheck disable=SC2086
    mpirun $flags -np "$np" "$prog" "$reps" "$maxb"
done
