#!/bin/sh
# Before/after for totex_alltoall over a real MPI (Open MPI target): launches of two builds of
# bench/mpi/mpi_alltoall_bench alternate (old, new, old, new, ...), so both see the same phases of the
# machine; each launch gives totex / MPI_Alltoall per block size in that launch (its own baseline), and
# per block size the median of those ratios over the launches is printed for each build, with every
# launch's ratio in brackets.
# usage: bench/mpi/mpi_before_after.sh OLD_mpi_alltoall_bench NEW_mpi_alltoall_bench [NP [RUNS [MAX_BLOCK_BYTES]]]
#        (default 2 ranks, 7 launches each, 65536)
# Build the old one from a clone of the old commit:
#   git clone -q . /tmp/old && git -C /tmp/old checkout -q OLD && cmake -S /tmp/old -B /tmp/old/build \
#     -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build /tmp/old/build -j2 --target mpi_alltoall_bench
# PAIR_FLOOR=path/to/mpi_pair_floor (2 ranks) runs it before and after, to name the machine's phase
# (MPI_Alltoall of 8 B on 2 ranks: 0.18 us in the fast phase of a 2-core shared virtual machine, 0.42 us in the slow).
# Open MPI: oversubscribes and runs as root when needed, as bench/mpi/mpi_bench.sh.
set -eu
usage="usage: $0 OLD_mpi_alltoall_bench NEW_mpi_alltoall_bench [NP (2 ..) [RUNS (1 ..) [MAX_BLOCK_BYTES (8 ..)]]]"
[ $# -ge 2 ] && [ $# -le 5 ] || { echo "$usage" >&2; exit 2; }
old=$1
new=$2
np=${3:-2}
runs=${4:-7}
maxb=${5:-65536}
for b in "$old" "$new"; do
    [ -x "$b" ] || { echo "mpi_before_after: $b: not an executable (build mpi_alltoall_bench)" >&2; exit 2; }
done
for v in "$np" "$runs" "$maxb"; do
    case $v in '' | *[!0-9]*) echo "mpi_before_after: $v: not a whole number; $usage" >&2; exit 2 ;; esac
done
[ "$np" -ge 2 ] && [ "$runs" -ge 1 ] && [ "$maxb" -ge 8 ] || { echo "$usage" >&2; exit 2; }
flags="--oversubscribe"
if [ "$(id -u)" -eq 0 ]; then
    flags="$flags --allow-run-as-root"
fi
phase() {
    if [ -n "${PAIR_FLOOR:-}" ]; then
        # shellcheck disable=SC2086
        mpirun $flags -np 2 "$PAIR_FLOOR" 11 | awk -v w="$1" '/^MPI_Alltoall/ { print "phase " w ": MPI_Alltoall of 8 B on 2 ranks " $2 " us" }'
    fi
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
echo "mpi_before_after: $(mpirun --version 2>/dev/null | head -1), $(nproc) cores, $np ranks, $runs launches each"
phase before
i=0
while [ "$i" -lt "$runs" ]; do
    for label in old new; do
        if [ $label = old ]; then bin=$old; else bin=$new; fi
        # shellcheck disable=SC2086
        mpirun $flags -np "$np" "$bin" 11 "$maxb" |
            awk -v l=$label -v np="$np" '$1 == np && $2 ~ /^[0-9]+$/ { print l, $2, $6 }' >> "$tmp"
    done
    i=$((i + 1))
done
phase after
echo "totex / MPI_Alltoall, median over the launches (each launch's ratio in brackets)"
awk '{ k = $1 " " $2; r[k] = r[k] " " $3; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
    END { for (q = 1; q <= n; q++) { k = order[q]; m = split(substr(r[k], 2), v, " ");
          for (i = 2; i <= m; i++) { x = v[i]; j = i - 1; while (j >= 1 && v[j] > x) { v[j + 1] = v[j]; j-- } v[j + 1] = x }
          med = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2;
          printf "%s %6s B  %.3f  [%s]\n", substr(k, 1, 3), substr(k, 5), med, substr(r[k], 2) } }' "$tmp" | sort -k1,1r -k2,2n
