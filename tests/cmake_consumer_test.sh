#!/bin/sh
# The installed CMake package works for a consumer: install the
# build tree into a staging prefix, configure tests/cmake_consumer against it
# with find_package(totex CONFIG) (and COMPONENTS MPI when the build has
# totex_mpi), build it, run the shared and static consumers, and check that
# asking for the MPI component fails cleanly when it is not installed.
# The same consumer against the build tree itself (totex_DIR=BUILD_DIR, no
# install), and the installed pkg-config modules: totex (a consumer
# compiled with `pkg-config --cflags --libs totex` runs) and, with MPI,
# totex-mpi (its --libs name libtotex_mpi before libtotex, and the MPI
# consumer links with mpicc and them).
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
# the build tree as a package: find_package(totex) with totex_DIR=BUILD_DIR, nothing installed
cmake -S "$src/tests/cmake_consumer" -B "$tmp/consumer_build" -Dtotex_DIR="$build" -DTOTEX_WANT_MPI=$want_mpi \
    -DCMAKE_EXE_LINKER_FLAGS="$san" >"$tmp/configure_build.log" 2>&1 || { cat "$tmp/configure_build.log"; fail "find_package(totex CONFIG) with totex_DIR=$build (MPI: $want_mpi)"; }
cmake --build "$tmp/consumer_build" >"$tmp/build_build.log" 2>&1 || { cat "$tmp/build_build.log"; fail "building the consumer against the build tree"; }
grep -q "$tmp/stage" "$tmp/consumer_build/CMakeCache.txt" && fail "the build-tree consumer found the staged install"
LD_LIBRARY_PATH="$build" "$tmp/consumer_build/consumer_shared" | grep -q '^consumer: 64 nodes, diameter 6$' || fail "consumer_shared (build tree)"
"$tmp/consumer_build/consumer_static" | grep -q '^consumer: 64 nodes, diameter 6$' || fail "consumer_static (build tree)"
[ "$want_mpi" = ON ] && { [ -x "$tmp/consumer_build/consumer_mpi" ] || fail "consumer_mpi not built (build tree)"; }
echo "ok   find_package(totex CONFIG) from the build tree (totex_DIR=$build)"
# the installed pkg-config modules
pcdir=$(dirname "$(find "$tmp/stage" -name totex.pc | head -1)")
if command -v pkg-config >/dev/null 2>&1 && [ -f "$pcdir/totex.pc" ]; then
    # shellcheck disable=SC2046
    cc -std=c11 "$src/tests/cmake_consumer/consumer.c" $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs totex) $san \
        -o "$tmp/consumer_pc" >"$tmp/pc.log" 2>&1 || { cat "$tmp/pc.log"; fail "cc consumer.c \$(pkg-config --cflags --libs totex)"; }
    LD_LIBRARY_PATH="$libdir" "$tmp/consumer_pc" | grep -q '^consumer: 64 nodes, diameter 6$' || fail "consumer_pc"
    echo "ok   pkg-config --cflags --libs totex (installed)"
    if [ "$want_mpi" = ON ]; then
        [ -f "$pcdir/totex-mpi.pc" ] || fail "no totex-mpi.pc installed"
        libs=$(PKG_CONFIG_PATH="$pcdir" pkg-config --libs totex-mpi) || fail "pkg-config --libs totex-mpi"
        case " $libs " in
        *" -ltotex_mpi "*"-ltotex "*) ;;
        *) fail "pkg-config --libs totex-mpi: '$libs' lacks -ltotex_mpi before -ltotex" ;;
        esac
        mpicc=$(sed -n 's/^MPI_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
        if [ -n "$mpicc" ] && [ -x "$mpicc" ]; then
            # shellcheck disable=SC2046
            "$mpicc" -std=c11 "$src/tests/cmake_consumer/consumer_mpi.c" $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs totex-mpi) \
                -o "$tmp/consumer_mpi_pc" >"$tmp/pc_mpi.log" 2>&1 || { cat "$tmp/pc_mpi.log"; fail "mpicc consumer_mpi.c \$(pkg-config --cflags --libs totex-mpi)"; }
        fi
        echo "ok   pkg-config --libs totex-mpi (installed): $libs"
    fi
fi
# a component that does not exist is refused by find_package
if cmake -S "$src/tests/cmake_consumer" -B "$tmp/consumer2" -DCMAKE_PREFIX_PATH="$tmp/stage" \
    -DTOTEX_WANT_MPI=ON -Dtotex_DIR="$(dirname "$config")" \
    >/dev/null 2>&1 && [ "$want_mpi" = OFF ]; then
    fail "COMPONENTS MPI accepted though totex_mpi is not installed"
fi
echo "cmake_consumer_test: ok"
