#!/bin/sh
# The installed CMake package works for a consumer (issue 15): install the
# build tree into a staging prefix, configure tests/cmake_consumer against it
# with find_package(totex CONFIG) (and COMPONENTS MPI when the build has
# totex_mpi), build it, run the shared and static consumers, and check that
# asking for the MPI component fails cleanly when it is not installed.
#
#   cmake_consumer_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/totex-cmake-consumer.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cmake_consumer_test: FAIL $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/stage" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
config=$(find "$tmp/stage" -name totexConfig.cmake | head -1)
[ -n "$config" ] || fail "no totexConfig.cmake installed"
want_mpi=OFF
[ -f "$(dirname "$config")/totexMPITargets.cmake" ] && want_mpi=ON
# a sanitizer build's libtotex.a needs the sanitizer runtime on the consumer's link line too
san=""
grep -q '^TOTEX_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
cmake -S "$src/tests/cmake_consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/stage" -DTOTEX_WANT_MPI=$want_mpi \
    -DCMAKE_EXE_LINKER_FLAGS="$san" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "find_package(totex CONFIG) (MPI: $want_mpi)"; }
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "building the consumer"; }
libdir=$(dirname "$(find "$tmp/stage" -name 'libtotex.so*' | head -1)")
LD_LIBRARY_PATH="$libdir" "$tmp/consumer/consumer_shared" | grep -q '^consumer: 64 nodes, diameter 6$' || fail "consumer_shared"
"$tmp/consumer/consumer_static" | grep -q '^consumer: 64 nodes, diameter 6$' || fail "consumer_static"
[ "$want_mpi" = ON ] && { [ -x "$tmp/consumer/consumer_mpi" ] || fail "consumer_mpi not built"; }
echo "ok   find_package(totex CONFIG) from an installed copy: totex::totex, totex::totex_static$( [ "$want_mpi" = ON ] && echo ", totex::mpi (MPI component)")"
# a component that does not exist is refused by find_package
if cmake -S "$src/tests/cmake_consumer" -B "$tmp/consumer2" -DCMAKE_PREFIX_PATH="$tmp/stage" \
    -DTOTEX_WANT_MPI=ON -Dtotex_DIR="$(dirname "$config")" \
    >/dev/null 2>&1 && [ "$want_mpi" = OFF ]; then
    fail "COMPONENTS MPI accepted though totex_mpi is not installed"
fi
echo "cmake_consumer_test: ok"
