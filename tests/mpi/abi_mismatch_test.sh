#!/bin/sh
# The drop-in preloaded into a program of the other MPI: Open MPI's
# and MPICH's handles differ, so libtotex_pmpi.so built against one cannot take
# MPI_Alltoall from a program of the other. It must say so on stderr (naming
# the MPI it was built against and telling how to fix it) and make the program
# exit non-zero, instead of crashing inside MPI. Both directions:
#   MPICH program (mpiexec.mpich) + drop-in built against Open MPI, and
#   Open MPI program (mpirun) + drop-in built against MPICH.
# Usage: tests/mpi/abi_mismatch_test.sh OPENMPI_BUILD_DIR MPICH_BUILD_DIR
# (the two build directories of .ci/run: build and build-mpich-ci, each with
# libtotex_pmpi.so and docs/examples/transpose). Exits 0 with a "skipped" line
# when either build or MPI is missing. POSIX sh.
set -u
ompi=${1:?usage: abi_mismatch_test.sh OPENMPI_BUILD_DIR MPICH_BUILD_DIR}
mpich=${2:?usage: abi_mismatch_test.sh OPENMPI_BUILD_DIR MPICH_BUILD_DIR}
for f in "$ompi/libtotex_pmpi.so" "$ompi/docs/examples/transpose" "$mpich/libtotex_pmpi.so" \
         "$mpich/docs/examples/transpose" /usr/bin/mpiexec.mpich /usr/bin/mpirun.openmpi; do
    [ -e "$f" ] || { echo "abi_mismatch_test: skipped: $f missing"; exit 0; }
done
root_flags=""
[ "$(id -u)" -eq 0 ] && root_flags="--allow-run-as-root"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
check() { # what built_against
    rc=$1 what=$2 built=$3
    if [ "$rc" -eq 0 ]; then
        echo "abi_mismatch_test: FAIL: $what exited 0" >&2; status=1
    elif [ "$rc" -eq 124 ]; then
        echo "abi_mismatch_test: FAIL: $what hung" >&2; status=1
    elif ! grep -q "^totex: libtotex_pmpi.so was built against $built, but this program runs on another MPI" "$out"; then
        echo "abi_mismatch_test: FAIL: $what: no message naming $built on stderr:" >&2; cat "$out" >&2; status=1
    else
        echo "abi_mismatch_test: $what: exit $rc, message ok"
    fi
}
timeout 60 /usr/bin/mpiexec.mpich -n 2 env LD_PRELOAD="$(cd "$ompi" && pwd)/libtotex_pmpi.so" \
    "$mpich/docs/examples/transpose" >"$out" 2>&1
check $? "MPICH program + Open MPI drop-in" "Open MPI"
# shellcheck disable=SC2086
timeout 60 /usr/bin/mpirun.openmpi --oversubscribe $root_flags -np 2 \
    env LD_PRELOAD="$(cd "$mpich" && pwd)/libtotex_pmpi.so" "$ompi/docs/examples/transpose" >"$out" 2>&1
check $? "Open MPI program + MPICH drop-in" "MPICH"
[ $status -eq 0 ] && echo "abi_mismatch_test: ok"
exit $status
