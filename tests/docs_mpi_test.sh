#!/bin/sh
# Runs the MPI examples of the documentation: the lines
# "$ mpicc ..." and "$ mpirun ..." inside ```console blocks of docs/**/*.md and of
# README.md.
# Usage: docs_mpi_test.sh ROOT BUILD_DIR MPICC MPIEXEC [MPIEXEC_FLAGS...]
#
# The commands of one file run in order, with sh -c, in a temporary directory
# that looks like the repository root after a build: include/, docs/ and
# tests/ link to ROOT's, build/ links to BUILD_DIR. On PATH, `mpicc` is MPICC
# and `mpirun` is MPIEXEC with MPIEXEC_FLAGS put first (e.g. Open MPI's
# --oversubscribe --allow-run-as-root, which the docs mention but do not
# show). A command fails the test if
#  - its exit status differs from the documented one: 0, unless the output
#    shown is followed by "$ echo $?" and a number on the next line;
#  - any output line shown after it does not occur in what it printed (stdout
#    and stderr together): a line "..." stands for lines left out, and a line
#    ending in "..." is abridged: its text before the "..." must occur.
# The test fails when no command is found. POSIX sh.
if [ $# -lt 4 ]; then
    echo "usage: $0 ROOT BUILD_DIR MPICC MPIEXEC [MPIEXEC_FLAGS...]" >&2
    exit 2
fi
ROOT=$1 BUILD=$2 MPICC=$3 MPIEXEC=$4
shift 4
for d in "$ROOT/docs" "$ROOT/include" "$BUILD"; do
    [ -d "$d" ] || { echo "docs_mpi: '$d' is not a directory" >&2; exit 2; }
done
for x in "$MPICC" "$MPIEXEC"; do
    [ -x "$x" ] || { echo "docs_mpi: '$x' is not an executable" >&2; exit 2; }
done
ROOT=$(cd "$ROOT" && pwd) BUILD=$(cd "$BUILD" && pwd)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/totex-docs-mpi.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM HUP
mkdir -p "$TMP/bin" || exit 2
printf '#!/bin/sh\nexec "%s" "$@"\n' "$MPICC" >"$TMP/bin/mpicc"
{
    printf '#!/bin/sh\nexec "%s"' "$MPIEXEC"
    for f in "$@"; do printf ' "%s"' "$f"; done
    printf ' "$@"\n'
} >"$TMP/bin/mpirun"
chmod +x "$TMP/bin/mpicc" "$TMP/bin/mpirun"

LIMIT=${TOTEX_DOCS_MPI_TIMEOUT:-60}
if command -v timeout >/dev/null 2>&1; then TIMEOUT="timeout $LIMIT"; else TIMEOUT=""; fi

# extract FILE: per example, "CMD<tab>line<tab>command", then "OUT<tab>line"
# per output line shown, then "RC<tab>status"
extract() {
    awk '
    function flush() {
        if (cmd != "") {
            printf "CMD\t%d\t%s\n", where, cmd
            for (i = 1; i <= nout; i++)
                printf "OUT\t%s\n", out[i]
            printf "RC\t%s\n", rc
            cmd = ""
        }
    }
    /^```/ {
        if (!inblock) {
            inblock = 1
            take = $0 ~ /^```console[ \t]*$/
        } else {
            flush(); inblock = 0; take = 0; echo = 0
        }
        next
    }
    !take { next }
    echo { if (cmd != "" && $0 ~ /^[0-9]+$/) rc = $0; echo = 0; flush(); next }
    /^\$ echo \$\?[ \t]*$/ { echo = 1; next }
    /^\$ (mpicc|mpirun)( |$)/ {
        flush()
        cmd = substr($0, 3); where = NR; nout = 0; rc = 0
        next
    }
    /^\$ / { flush(); next }
    { if (cmd != "" && $0 != "...") out[++nout] = $0 }
    END { flush() }
    ' "$1"
}

PASS=0
FAIL=0
for f in "$ROOT/README.md" $(find "$ROOT/docs" -name '*.md' | LC_ALL=C sort); do
    [ -f "$f" ] || continue
    rel=${f#"$ROOT"/}
    extract "$f" >"$TMP/list"
    [ -s "$TMP/list" ] || continue
    work="$TMP/work"
    rm -rf "$work"
    mkdir -p "$work" || exit 2
    ln -s "$ROOT/include" "$work/include"
    ln -s "$ROOT/docs" "$work/docs"
    ln -s "$ROOT/tests" "$work/tests"
    ln -s "$BUILD" "$work/build"
    cmd="" where="" want=0 bad=""
    # one pass over the records; an example is judged when its RC line arrives
    while IFS= read -r rec; do
        kind=${rec%%"	"*}
        rest=${rec#*"	"}
        case $kind in
        CMD)
            where=${rest%%"	"*}
            cmd=${rest#*"	"}
            bad=""
            (cd "$work" && PATH="$TMP/bin:$PATH" $TIMEOUT sh -c "$cmd" >"$TMP/out" 2>&1 </dev/null)
            got=$?
            ;;
        OUT)
            line=$rest
            case $line in *...) line=${line%...} ;; esac
            if [ -n "$line" ] && ! grep -qF -- "$line" "$TMP/out"; then
                bad="${bad}output lacks the documented line: $rest
"
            fi
            ;;
        RC)
            want=$rest
            [ "$got" -eq "$want" ] || bad="${bad}exit status $got, documented $want
"
            if [ -z "$bad" ]; then
                PASS=$((PASS + 1))
            else
                FAIL=$((FAIL + 1))
                echo "FAIL $rel:$where: \$ $cmd"
                printf '%s' "$bad" | sed 's/^/       /' | cut -c1-300
                sed -n '1,12s/^/         | /p' "$TMP/out" | cut -c1-300
            fi
            ;;
        esac
    done <"$TMP/list"
done

echo "docs_mpi: $PASS passed, $FAIL failed"
if [ "$PASS" -eq 0 ] && [ "$FAIL" -eq 0 ]; then
    echo "docs_mpi: no \$ mpicc or \$ mpirun example found in $ROOT/README.md or $ROOT/docs" >&2
    exit 1
fi
[ "$FAIL" -eq 0 ] || exit 1
exit 0
