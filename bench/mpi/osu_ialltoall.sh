#!/bin/sh
# osu_ialltoall of the OSU micro-benchmarks (OMB: MPI_Ialltoall, a dummy computation as long as one call,
# MPI_Wait) under Open MPI on NP ranks: (a) Open MPI's own collectives (the baseline) and (b) the
# coll/totex component (--mca coll_totex_priority 100, no LD_PRELOAD), LAUNCHES launches of each,
# alternating. Prints each launch's OSU lines (form=ompi or form=totex), then per message size the
# medians over the launches of what OSU prints, side by side: overall latency, compute time, pure
# communication latency (us) and overlap (%). The totex launches run with coll_totex_verbose 1 and the
# script stops if no "totex: totex_ialltoall" line shows that totex served the calls.
#
#   bench/mpi/osu_ialltoall.sh OSU_DIR [NP [LAUNCHES [OSU_OPTIONS...]]]
#       (defaults: 4 ranks, 1 launch of each, OSU options -m 8:65536 -i 100 -x 10)
#   BUILD=DIR: totex's build folder (default build), whose ompi/mca_coll_totex.so is loaded.
#
# OSU_DIR holds an osu_ialltoall built with this Open MPI's mpicc, or is an OMB build tree (then
# mpi/collective/osu_ialltoall is used). OMB is not a Debian package and is not part of this repository
# (keep its code out of it): build it outside, e.g. in /tmp/osu.
# - From a released OMB tarball (https://mvapich.cse.ohio-state.edu/benchmarks/):
#       ./configure CC=mpicc CXX=mpicxx && make        (then OSU_DIR is the unpacked tree)
# - From OMB's source files alone: osu_ialltoall needs mpi/collective/osu_ialltoall.c, util/osu_util.c
#   and util/osu_util.h of one OMB version (5.4/5.5, before util/osu_util_mpi.c was split off; e.g. the
#   GitHub mirror paklui/osu-micro-benchmarks at commit 19474fa5c4fe9b6e7ec881e05ca473fd62c49dd2):
#       mkdir -p /tmp/osu && cd /tmp/osu && (put the three files in src/)
#       mpicc -g -O2 -Isrc -o osu_ialltoall src/osu_ialltoall.c src/osu_util.c     (OSU_DIR is /tmp/osu)
#   Later versions add util/osu_util_mpi.c and osu_util_mpi.h (compile them too); if they include a
#   config.h that only OMB's configure makes, write one with the few macros they use.
#
# OSU's overlap is 100 - 100 * (overall - compute) / pure communication, clipped at 0. With more ranks
# than cores (--oversubscribe) a rank that spins in its computation holds a core a peer needs to move
# the exchange on: read the figures with that in mind (docs/performance.md).
set -eu
[ $# -ge 1 ] || { echo "osu_ialltoall.sh: give the folder of an osu_ialltoall build (see the comment at the top of $0)" >&2; exit 2; }
osu_dir=$1
np=${2:-4}
launches=${3:-1}
[ $# -ge 3 ] && shift 3 || shift $#
[ $# -gt 0 ] || set -- -m 8:65536 -i 100 -x 10
build=${BUILD:-build}
osu="$osu_dir/osu_ialltoall"
[ -x "$osu" ] || osu="$osu_dir/mpi/collective/osu_ialltoall"
[ -x "$osu" ] || { echo "osu_ialltoall.sh: no osu_ialltoall in $osu_dir or $osu_dir/mpi/collective (build OMB first: see the top of $0)" >&2; exit 2; }
case $np in ''|*[!0-9]*) echo "osu_ialltoall.sh: NP '$np' is not a number of ranks (give e.g. 4)" >&2; exit 2 ;; esac
case $launches in ''|*[!0-9]*|0) echo "osu_ialltoall.sh: LAUNCHES '$launches' is not a positive number (give e.g. 1)" >&2; exit 2 ;; esac
component_dir="$build/ompi"
[ -f "$component_dir/mca_coll_totex.so" ] || { echo "osu_ialltoall.sh: no $component_dir/mca_coll_totex.so (build totex: cmake --build $build; set BUILD=DIR for another build folder)" >&2; exit 2; }
component_dir=$(cd "$component_dir" && pwd) # (Open MPI's component path wants no relative folder)
pkglibdir=$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
echo "# osu_ialltoall $*, $np ranks, $launches launch(es) of each, $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$launches" ]; do
    mpirun --oversubscribe -np "$np" "$osu" "$@" | sed 's/^/form=ompi /' | tee -a "$out"
    mpirun --oversubscribe -np "$np" --mca mca_component_path "$pkglibdir:$component_dir" --mca coll_totex_priority 100 \
        --mca coll_totex_verbose 1 "$osu" "$@" 2>"$err" | sed 's/^/form=totex /' | tee -a "$out"
    served=$(grep -c '^totex: totex_ialltoall' "$err" || true)
    [ "$served" -gt 0 ] || { cat "$err" >&2; echo "osu_ialltoall.sh: totex did not serve MPI_Ialltoall (no 'totex: totex_ialltoall' line under coll_totex_verbose 1)" >&2; exit 1; }
    echo "# launch $((i + 1)): totex served MPI_Ialltoall ($served verbose lines, one per block size)"
    i=$((i + 1))
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# medians over $launches launch(es); overall, compute, comm in us; overlap in %"
awk "$(cat "$(dirname "$0")/median.awk")"'
$2 ~ /^[0-9]+$/ && (NF == 6 || NF == 9) {
    split($1, kv, "="); form = kv[2]; size = $2
    # OSU prints size overall compute comm overlap, or with -f size overall compute init test wait comm overlap
    val["overall"] = $3; val["compute"] = $4; val["comm"] = NF == 6 ? $5 : $8; val["overlap"] = $NF
    if (!(size in seen)) { seen[size] = 1; order[++ns] = size }
    for (k in val) { key = form SUBSEP size SUBSEP k; v[key, ++cnt[key]] = val[k] }
}
END {
    printf "%-8s | %-41s | %s\n", "", "(a) Open MPI (its own coll modules)", "(b) coll/totex"
    printf "%-8s | %10s %10s %10s %8s | %10s %10s %10s %8s\n", "size B", "overall", "compute", "comm", "overlap",
           "overall", "compute", "comm", "overlap"
    for (i = 1; i <= ns; i++) {
        s = order[i]; line = sprintf("%-8s |", s)
        for (f = 1; f <= 2; f++) {
            form = f == 1 ? "ompi" : "totex"
            if (cnt[form SUBSEP s SUBSEP "overall"] == 0) { line = line sprintf(" %10s %10s %10s %8s |", "-", "-", "-", "-"); continue }
            line = line sprintf(" %10.2f %10.2f %10.2f %8.2f |", med(form SUBSEP s SUBSEP "overall"),
                                med(form SUBSEP s SUBSEP "compute"), med(form SUBSEP s SUBSEP "comm"),
                                med(form SUBSEP s SUBSEP "overlap"))
        }
        print substr(line, 1, length(line) - 2)
    }
}' "$out"
