#!/bin/sh
# Build and run a fuzzer (libFuzzer + ASan + UBSan, clang).
#
#   tests/fuzz/run.sh [SECONDS] [TARGET]       (default 60 s, target spec)
#
# TARGET: spec (fuzz_spec.c, the topology spec parser; corpus tests/fuzz/corpus,
# -max_len=256) or schedule (fuzz_schedule.c, the combining schedule reader:
# import, simulate, export, import again, same verdict; corpus
# tests/fuzz/corpus_schedule, -max_len=8192), unit (fuzz_unit_schedule.c, the
# unit-step schedule reader; corpus tests/fuzz/corpus_unit, -max_len=4096) or
# msccl (fuzz_msccl.c, the MSCCL XML verifier; corpus tests/fuzz/corpus_msccl,
# -max_len=32768).
# Configures <repo>/build-fuzz with clang, -DTOTEX_FUZZ=ON -DTOTEX_SANITIZE=ON,
# builds fuzz_TARGET and runs it for SECONDS on a copy of its corpus (one job).
# New interesting inputs go to build-fuzz/corpus[_schedule], crash
# reproducers to build-fuzz/artifacts/. Exits non-zero on a finding (crash,
# leak, sanitizer report, timeout) or a build failure.
# Environment: CC (default clang), BUILD_DIR (default <repo>/build-fuzz),
# FUZZ_JOBS build parallelism (default 2), FUZZ_ARGS extra libFuzzer flags.
set -eu

secs=${1:-60}
target=${2:-spec}
case $secs in
    ''|*[!0-9]*) echo "usage: $0 [SECONDS] [spec|schedule|unit|msccl]" >&2; exit 2 ;;
esac
case $target in
    spec) corpus=corpus; dict=spec.dict; max_len=256 ;;
    schedule) corpus=corpus_schedule; dict=schedule.dict; max_len=8192 ;;
    unit) target=unit_schedule; corpus=corpus_unit; dict=unit.dict; max_len=4096 ;;
    msccl) corpus=corpus_msccl; dict=msccl.dict; max_len=32768 ;;
    *) echo "usage: $0 [SECONDS] [spec|schedule|unit|msccl]: unknown target '$target'" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
cc=${CC:-clang}

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTOTEX_FUZZ=ON -DTOTEX_SANITIZE=ON -DTOTEX_BUILD_TESTS=OFF -DTOTEX_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target "fuzz_$target" -j "${FUZZ_JOBS:-2}"

mkdir -p "$build/$corpus" "$build/artifacts"
cp "$here/$corpus"/* "$build/$corpus/"

# The working corpus (seeds plus what earlier runs found) grows in place.
# Run from the build directory so that relative file: specs cannot touch the
# source tree.
cd "$build"
# Small connected graphs for the file: seeds (file:fuzz-g.edges etc.).
printf '0 1\n1 2\n2 3\n3 0\n1 3\n' > fuzz-g.edges
printf 'graph [\n  directed 0\n  node [ id 0 ]\n  node [ id 1 ]\n  node [ id 2 ]\n  edge [ source 0 target 1 ]\n  edge [ source 1 target 2 ]\n]\n' > fuzz-g.gml
cat > fuzz-g.graphml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <graph id="G" edgedefault="undirected">
    <node id="a"/><node id="b"/><node id="c"/><node id="d"/>
    <edge source="a" target="b"/><edge source="b" target="c"/>
    <edge source="c" target="d"/><edge source="d" target="a"/>
  </graph>
</graphml>
XML
set +e
# FUZZ_ARGS is split into words on purpose.
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
"$build/tests/fuzz/fuzz_$target" -max_len="$max_len" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -dict="$here/$dict" -artifact_prefix="$build/artifacts/" \
    ${FUZZ_ARGS:-} "$build/$corpus" </dev/null
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
    echo "fuzz_$target: FINDING (exit $rc); reproducers in $build/artifacts/:" >&2
    ls -l "$build/artifacts" >&2
    exit 1
fi
echo "fuzz_$target: no finding in ${secs}s"
