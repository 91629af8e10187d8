#!/bin/sh
# Multiport meshes R x C at the cut bound: runs
# `totex plan mesh:RxC --ports multi --algorithm pipeline` (every schedule
# replayed in full by the simulator) for LO <= R <= C <= HI and prints one
# line per size with steps, the cut bound (000 eq. (4) lifted, computed by
# totex bounds) and their ratio, then a summary. The baseline ratio in the
# same run: greedy (001 Section 5) on the same sizes, when GREEDY=1.
# usage: bench/steps/pipeline_sweep.sh PATH_TO_totex [LO [HI]]   (default 2 32)
# ALGO=auto (or another name) plans with that algorithm instead of pipeline:
# ALGO=auto checks what `totex plan --ports multi` gives a user (a3 on 3x3).
# Exit 1 if a size misses the cut bound.
TOTEX=${1:?usage: $0 PATH_TO_totex [LO [HI]]}
LO=${2:-2}
HI=${3:-32}
ALGO=${ALGO:-pipeline}
miss=0
total=0
r=$LO
while [ "$r" -le "$HI" ]; do
    c=$r
    while [ "$c" -le "$HI" ]; do
        out=$("$TOTEX" plan "mesh:${r}x${c}" --ports multi --algorithm "$ALGO" 2>&1)
        steps=$(printf '%s\n' "$out" | awk '/^steps/ {print $2}')
        if [ -z "$steps" ]; then # the plan failed (an unknown ALGO, a network it refuses): say why
            echo "mesh:${r}x${c}: $(printf '%s\n' "$out" | grep -m1 'error:')" >&2
        fi
        bound=$(printf '%s\n' "$out" | awk '/^best bound/ {print $3}')
        ver=$(printf '%s\n' "$out" | awk '/^verified/ {print $2}')
        algo=$(printf '%s\n' "$out" | awk '/^algorithm/ {sub(":", "", $2); print $2}')
        line="mesh:${r}x${c} algorithm=$algo steps=$steps cut=$bound verified=$ver"
        if [ "${GREEDY:-0}" = 1 ]; then
            g=$("$TOTEX" plan "mesh:${r}x${c}" --ports multi --algorithm greedy 2>&1 | awk '/^steps/ {print $2}')
            line="$line greedy=$g"
        fi
        total=$((total + 1))
        if [ -z "$steps" ] || [ "$steps" != "$bound" ] || [ "$ver" != yes ]; then
            miss=$((miss + 1))
            echo "$line ratio=$(awk -v s="$steps" -v b="$bound" 'BEGIN { if (b > 0) printf "%.4f", s / b; else print "?" }') MISSED"
        else
            echo "$line ratio=1.0000"
        fi
        c=$((c + 1))
    done
    r=$((r + 1))
done
echo "summary: $((total - miss)) of $total meshes R x C ($LO <= R <= C <= $HI) at the cut bound"
[ "$miss" -eq 0 ]
