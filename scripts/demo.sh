#!/bin/sh
# The README's main command: install dependencies, build, then plan, verify and
# report total exchange on every preset machine that can be simulated in full
# here, and print the bounds of the larger ones.
set -e
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
T=./build/totex
$T machines
echo
for m in tpu-v4-cube bgq-midplane cray-t3d touchstone-delta ncube2; do
    for p in single multi; do
        echo "=== totex plan $m --ports $p"
        $T plan "$m" --ports "$p"
        echo
    done
done
for m in sequoia fugaku; do
    for p in single multi; do
        echo "=== totex bounds $m --ports $p (too large to simulate every message here)"
        $T bounds "$m" --ports "$p"
        echo
    done
done
