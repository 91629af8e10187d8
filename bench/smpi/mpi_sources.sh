# Sourced by the SMPI benches (run.sh, first_call.sh, overlap.sh, alltoallv.sh): $mpi_sources, totex's MPI
# runtime (every src/mpi/*.c but the drop-in pmpi.c) and the program layer below it (src/program/*.c),
# compiled against SMPI's mpi.h; $mpi_includes, their include folders. Needs $root (the source tree, no
# spaces in it).
mpi_sources=""
for f in "$root"/src/mpi/*.c "$root"/src/program/*.c; do
    [ "${f##*/}" = pmpi.c ] || mpi_sources="$mpi_sources $f"
done
mpi_includes="-I$root/src/mpi -I$root/src/program"

# smpi_build WHO BUILD_DIR OUT SOURCE BINARY [LIBS...]: SOURCE (a bench program) compiled with smpicc against
# totex's MPI layer above and BUILD_DIR's core library into BINARY (its compiler's messages in
# OUT/BINARY's name.log, printed on failure); WHO names the bench in its errors. Exit 1 when smpicc or the
# library is missing or the compile fails.
smpi_build() {
    _who=$1 _build=$2 _out=$3 _src=$4 _bin=$5
    shift 5
    command -v smpicc >/dev/null || { echo "$_who: smpicc not found (apt-get install libsimgrid-dev)" >&2; exit 1; }
    [ -f "$_build/libtotex.a" ] || { echo "$_who: $_build/libtotex.a not built (cmake --build $_build)" >&2; exit 1; }
    mkdir -p "$_out"
    # shellcheck disable=SC2086
    smpicc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$root/include" $mpi_includes -I"$root/bench" \
        "$_src" $mpi_sources $(PKG_CONFIG_PATH="$_build" pkg-config --libs totex) "$@" -o "$_bin" \
        2>"$_out/${_bin##*/}.log" || { cat "$_out/${_bin##*/}.log" >&2; exit 1; }
}

# smpi_check_tori WHO TORUS...: exit 2 with a line unless every TORUS is 2 or 3 sides joined by x (4x4, 4x4x4)
smpi_check_tori() {
    _who=$1
    shift
    for _t in "$@"; do
        echo "$_t" | grep -Eq '^[1-9][0-9]*(x[1-9][0-9]*){1,2}$' ||
            { echo "$_who: torus '$_t' is not 2 or 3 sides joined by x (e.g. 4x4x4)" >&2; exit 2; }
    done
}
