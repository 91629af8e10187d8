#!/bin/sh
# A real MPI_Alltoall client: fftw_client (FFTW's MPI 2-D FFT,
# whose transposes call MPI_Alltoall) on 2 and 4 ranks, without and with
# libtotex_pmpi.so preloaded. The outputs must be byte-identical, and with the
# drop-in TOTEX_VERBOSE=1 must make stderr name totex and the drop-in's count
# at MPI_Finalize must show at least one MPI_Alltoall of FFTW run by totex.
# Usage: fftw_test.sh MPIEXEC LIB PROGRAM [MPIEXEC_FLAGS...]
# (the ranks get LD_PRELOAD and TOTEX_VERBOSE from `env`, as in preload_test.sh)
set -u
mpiexec=$1 lib=$2 prog=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
for np in 2 4; do
    if ! "$mpiexec" "$@" -np "$np" "$prog" "$dir/plain$np.txt"; then
        echo "fftw_test: np $np: plain run failed" >&2
        status=1
        continue
    fi
    "$mpiexec" "$@" -np "$np" env LD_PRELOAD="$lib" TOTEX_VERBOSE=1 "$prog" "$dir/totex$np.txt" 2>"$dir/err$np"
    rc=$?
    cat "$dir/err$np" >&2
    if [ "$rc" -ne 0 ]; then
        echo "fftw_test: np $np: run with the drop-in failed ($rc)" >&2
        status=1
        continue
    fi
    called=1
    if ! grep -q "^totex: MPI_Alltoall on $np ranks" "$dir/err$np"; then
        echo "fftw_test: np $np: stderr does not name totex: the drop-in was not called" >&2
        status=1
        called=0
    fi
    count=$(sed -n 's/^totex: MPI_Alltoall called \([0-9]*\) times on rank 0: \([0-9]*\) ran.*/\2/p' "$dir/err$np")
    if [ -z "$count" ] || [ "$count" -lt 1 ]; then
        echo "fftw_test: np $np: the drop-in's count shows no MPI_Alltoall run by totex" >&2
        status=1
        called=0
    fi
    if ! cmp -s "$dir/plain$np.txt" "$dir/totex$np.txt"; then
        echo "fftw_test: np $np: output differs with the drop-in" >&2
        status=1
    elif [ "$called" -eq 1 ]; then
        echo "fftw_test: np $np: identical output ($(sed -n 2p "$dir/plain$np.txt")), drop-in ran $count MPI_Alltoall calls"
    fi
done
[ "$status" -eq 0 ] && echo "fftw_test: ok"
exit "$status"
