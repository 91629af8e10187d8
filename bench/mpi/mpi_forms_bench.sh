#!/bin/sh
# The three forms of all-to-all through plain MPI calls (bench/mpi/mpi_forms_bench.c) under Open MPI: the
# coll/totex component (selected by priority, no LD_PRELOAD) and the drop-in (LD_PRELOAD=libtotex_pmpi.so),
# LAUNCHES launches of each, alternating, on NP ranks. Prints each launch's lines (form=component or
# form=dropin), then per block size the medians over the launches and component / drop-in for the blocking
# call (target: within 1.03), persistent / blocking through the component (target: <= 1.0).
#
#   bench/mpi/mpi_forms_bench.sh [BUILD_DIR [NP [LAUNCHES [REPS [ITERS]]]]]   (default build 4 5 7 100)
#
# TOTEX_ALGORITHM (set in the environment) reaches both forms: every launch then runs the same algorithm,
# so the ratios compare the call paths, not the launches' timed choices (which differ from launch to
# launch on a shared machine: pairwise in one, direct in the next). MPIRUN_ARGS adds mpirun options.
# BENCH_PREFIX runs each rank under a command, e.g. BENCH_PREFIX="chrt -r 10" with
# MPIRUN_ARGS="--bind-to core": the ranks at real-time priority (round-robin, so that ranks sharing a core
# still take turns; as root), which keeps other work on a shared machine from cutting into the timed calls.
#
# A third launch of each round (form=both) preloads the drop-in with the component selected: there the
# program's MPI_Alltoall is the drop-in's and its PMPI_Alltoall the component's, timed in turn in one
# process (mpi_forms_bench.c). Column "same" is the median over those launches of each one's
# component / drop-in: the two paths under the same scheduling, free of the launch-to-launch spread of
# 4 busy-polling ranks on 2 cores that column comp/drop carries. Column pers/blk is likewise the median
# over the component's launches of each one's persistent / blocking (timed in turn in one process).
set -eu
build=${1:-build}
np=${2:-4}
launches=${3:-5}
reps=${4:-7}
iters=${5:-100}
bench="$build/bench/mpi_forms_bench"
component_dir="$build/ompi"
pkglibdir=$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
[ -x "$bench" ] || { echo "mpi_forms_bench.sh: $bench not built (cmake --build $build --target mpi_forms_bench)" >&2; exit 2; }
[ -f "$component_dir/mca_coll_totex.so" ] || { echo "mpi_forms_bench.sh: no $component_dir/mca_coll_totex.so (Open MPI's internal headers missing?)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$launches" ]; do
    mpirun --oversubscribe ${MPIRUN_ARGS:-} ${TOTEX_ALGORITHM:+-x TOTEX_ALGORITHM} -np "$np" --mca mca_component_path "$pkglibdir:$component_dir" --mca coll_totex_priority 100 \
        ${BENCH_PREFIX:-} "$bench" "$reps" "$iters" | sed 's/^/form=component /' | tee -a "$out"
    mpirun --oversubscribe ${MPIRUN_ARGS:-} ${TOTEX_ALGORITHM:+-x TOTEX_ALGORITHM} -np "$np" ${BENCH_PREFIX:-} env LD_PRELOAD="$build/libtotex_pmpi.so" "$bench" "$reps" "$iters" |
        sed 's/^/form=dropin /' | tee -a "$out"
    mpirun --oversubscribe ${MPIRUN_ARGS:-} ${TOTEX_ALGORITHM:+-x TOTEX_ALGORITHM} -np "$np" --mca mca_component_path "$pkglibdir:$component_dir" --mca coll_totex_priority 100 \
        ${BENCH_PREFIX:-} env LD_PRELOAD="$build/libtotex_pmpi.so" "$bench" "$reps" "$iters" | sed 's/^/form=both /' | tee -a "$out"
    i=$((i + 1))
done
echo "# medians over $launches launches of each, $np ranks, $(date -u +%Y-%m-%d)"
awk "$(cat "$(dirname "$0")/median.awk")"'
{
    form = ""; block = ""
    for (f = 1; f <= NF; f++) { split($f, kv, "="); val[kv[1]] = kv[2] }
    form = val["form"]; block = val["block"]
    if (!(block in seen)) { seen[block] = 1; order[++nb] = block }
    foreach_n = split("blocking_us persistent_us init_us first_call_us overlap", keys, " ")
    for (k = 1; k <= foreach_n; k++) { key = form SUBSEP block SUBSEP keys[k]; v[key, ++cnt[key]] = val[keys[k]] }
    if (form == "both") { key = "both" SUBSEP block SUBSEP "same"; v[key, ++cnt[key]] = val["pmpi_us"] / val["blocking_us"] }
    if (form == "component") { key = "component" SUBSEP block SUBSEP "pb"; v[key, ++cnt[key]] = val["persistent_over_blocking"] }
}
END {
    printf "%-8s %12s %12s %9s %9s %14s %9s %12s %14s %9s\n", "block", "component_us", "dropin_us", "comp/drop",
           "same", "persistent_us", "pers/blk", "init_us", "first_call_us", "overlap"
    for (i = 1; i <= nb; i++) {
        b = order[i]
        c = med("component" SUBSEP b SUBSEP "blocking_us"); d = med("dropin" SUBSEP b SUBSEP "blocking_us")
        p = med("component" SUBSEP b SUBSEP "persistent_us")
        printf "%-8s %12.2f %12.2f %9.3f %9.3f %14.2f %9.3f %12.1f %14.1f %9.3f\n", b, c, d, c / d,
               med("both" SUBSEP b SUBSEP "same"), p, med("component" SUBSEP b SUBSEP "pb"),
               med("component" SUBSEP b SUBSEP "init_us"), med("component" SUBSEP b SUBSEP "first_call_us"),
               med("component" SUBSEP b SUBSEP "overlap")
    }
}' "$out"
