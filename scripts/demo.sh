#!/bin/sh
# The README's main command: install dependencies, build, then plan, verify and
# report total exchange on every preset machine (in full where n(n-1) messages
# fit, certified at one node by symmetry on Sequoia and Fugaku), and compare
# the algorithms on two of them.
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
    echo "=== totex bounds $m --ports multi"
    $T bounds "$m" --ports multi
    echo
    for p in single multi; do
        echo "=== totex plan $m --ports $p (symmetric schedule, certified at one node: n(n-1) is too many messages to replay one by one)"
        $T plan "$m" --ports "$p"
        echo
    done
done
echo "=== totex compare tpu-v4-cube (every algorithm, every port model)"
$T compare tpu-v4-cube
echo
echo "=== totex compare touchstone-delta --model combining --block 1024 (start-up/transmission model, 002)"
$T compare touchstone-delta --model combining --block 1024
