#!/bin/sh
# Multiport meshes beyond 2-D and mixed mesh/torus products:
# for each network, the lifted cut bound (000 eq. (4), Theorem 5; computed by
# `totex bounds` through `totex plan`) and the steps of rounds
# (src/algorithms/rounds.c), of the baselines run in the same script,
# a3 (000 Section 5, where it applies), pipeline and greedy (001 Section 5), and of the automatic choice, each
# schedule replayed in full by the simulator; ratios to the bound. Prints a
# Markdown table and a summary; plan wall time of auto in the last column
# (machine-dependent, for information only).
# usage: bench/steps/cube_mesh_table.sh PATH_TO_totex [SPEC...]   (default: the list below)
# Exit 1 if a schedule fails verification.
TOTEX=${1:?usage: $0 PATH_TO_totex [SPEC...]}
shift
if [ $# -eq 0 ]; then
    set -- mesh:2x2x2 mesh:3x3x3 mesh:4x4x4 mesh:5x5x5 mesh:6x6x6 mesh:8x8x8 \
        mesh:2x2x3 mesh:2x3x3 mesh:2x3x4 mesh:3x3x4 mesh:3x4x5 mesh:4x4x3 mesh:4x4x5 mesh:5x5x4 mesh:4x5x6 \
        mesh:6x6x5 mesh:2x7x8 mesh:4x4x8 mesh:2x3x4x5 mesh:3x3x3x3 mesh:2x2x2x2x2 mesh:3x3x3x3x3 \
        'mesh:3x3*ring:3' 'mesh:4x4*ring:4' 'mesh:5x5*ring:4' 'ring:8*mesh:4x4' 'ring:5*path:5*ring:5' \
        'path:3*ring:6' 'mesh:6x6*ring:6' 'path:4*k2*path:4' 'path:3*complete:3*path:3' \
        mesh:3x4 mesh:5x6 mesh:16x32
fi
# field VALUE of a `totex plan` text report: steps, verified, best bound
steps_of() { printf '%s\n' "$1" | awk '/^steps/ {print $2; exit}'; }
verified_of() { printf '%s\n' "$1" | awk '/^verified/ {print $2; exit}'; }
bound_of() { printf '%s\n' "$1" | awk '/^best bound/ {print $3; exit}'; }
ratio() { awk -v s="$1" -v b="$2" 'BEGIN { if (s ~ /^[0-9]+$/ && b > 0) printf "%.3f", s / b; else print "-" }'; }

echo "| network | cut bound | rounds | ratio | a3 | pipeline | ratio | greedy | ratio | auto | steps | ratio | auto s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
fail=0
total=0
at_bound_auto=0
at_bound_before=0
for spec in "$@"; do
    bound=
    row="| $spec"
    best_before=
    for algo in rounds a3 pipeline greedy; do
        out=$("$TOTEX" plan "$spec" --ports multi --algorithm "$algo" 2>&1)
        s=$(steps_of "$out")
        b=$(bound_of "$out")
        [ -n "$b" ] && bound=$b
        if [ -n "$s" ] && [ "$(verified_of "$out")" != yes ]; then
            fail=1
            echo "$spec $algo: NOT VERIFIED" >&2
        fi
        if [ "$algo" != rounds ] && [ -n "$s" ] && { [ -z "$best_before" ] || [ "$s" -lt "$best_before" ]; }; then
            best_before=$s
        fi
        eval "s_$algo=\${s:--}"
    done
    t0=$(date +%s.%N)
    out=$("$TOTEX" plan "$spec" --ports multi 2>&1)
    t1=$(date +%s.%N)
    s=$(steps_of "$out")
    a=$(printf '%s\n' "$out" | awk '/^algorithm/ {sub(":", "", $2); print $2; exit}')
    [ "$(verified_of "$out")" = yes ] || { fail=1; echo "$spec auto: NOT VERIFIED" >&2; }
    total=$((total + 1))
    [ "$s" = "$bound" ] && at_bound_auto=$((at_bound_auto + 1))
    [ "$best_before" = "$bound" ] && at_bound_before=$((at_bound_before + 1))
    echo "$row | $bound | $s_rounds | $(ratio "$s_rounds" "$bound") | $s_a3 | $s_pipeline | $(ratio "$s_pipeline" "$bound") | $s_greedy | $(ratio "$s_greedy" "$bound") | $a | $s | $(ratio "$s" "$bound") | $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') |"
done
echo
echo "summary: auto at the cut bound on $at_bound_auto of $total networks; the best of a3, pipeline and greedy (the choice before rounds) on $at_bound_before of $total"
exit $fail
