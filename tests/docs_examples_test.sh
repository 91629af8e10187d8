#!/bin/sh
# Runs every example of the documentation so that it cannot go stale.
# Usage: docs_examples_test.sh PATH_TO_totex PATH_TO_docs
#
# Examples are the lines "$ totex ..." inside ```console blocks of
# docs/**/*.md and inside any ``` block of README.md (next to docs/). Each is
# run with sh -c from a temporary directory holding tests/data (as if from
# the repository root), with `totex` on PATH being the binary under test; the
# commands of one file run in order in the same directory, so an exported
# schedule can be verified by a later example. A command fails the test if
#  - its exit status differs from the documented one: 0, unless the output
#    shown is followed by "$ echo $?" and a number on the next line;
#  - the first output line shown after it (unless "..." or absent) is not an
#    exact substring of what it printed (stdout and stderr together);
#  - in README.md, whose examples show real output: the output shown is not
#    what it printed, line for line (trailing blanks aside). Where the output
#    shown has a line "...", lines were left out: then each line shown need
#    only be a whole line of what it printed. A line ending in "..." is
#    abridged (its text before the "..." must begin the line printed); a line
#    "wall time ..." stands for any "wall time" line (the figure varies).
# Also, in docs/**/*.md:
#  - a "$ " command line of a ```console block that no test runs fails: only
#    "$ totex", "$ echo $?" and the "$ mpicc" / "$ mpirun" lines run by
#    tests/docs_mpi_test.sh (CTest docs_mpi, when MPI is found) are allowed;
#  - a code block right after a line "<!-- same as: PATH -->" must be
#    byte-identical to the file PATH (relative to the repository root), so
#    that a program shown in full is the one a test compiles and runs.
# POSIX sh.
if [ $# -ne 2 ]; then
    echo "usage: $0 PATH_TO_totex PATH_TO_docs" >&2
    exit 2
fi
TOTEX=$1
DOCS=$2
if [ ! -x "$TOTEX" ]; then
    echo "docs_examples: '$TOTEX' is not an executable" >&2
    exit 2
fi
if [ ! -d "$DOCS" ]; then
    echo "docs_examples: '$DOCS' is not a directory" >&2
    exit 2
fi
case $TOTEX in /*) ;; *) TOTEX=$(pwd)/$TOTEX ;; esac
case $DOCS in /*) ;; *) DOCS=$(pwd)/$DOCS ;; esac
ROOT=$(cd "$DOCS/.." && pwd)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/totex-docs.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM HUP
mkdir -p "$TMP/bin" "$TMP/cases" || exit 2
printf '#!/bin/sh\nexec "%s" "$@"\n' "$TOTEX" >"$TMP/bin/totex"
chmod +x "$TMP/bin/totex"

LIMIT=${TOTEX_CLI_TIMEOUT:-120}
if command -v timeout >/dev/null 2>&1; then TIMEOUT="timeout $LIMIT"; else TIMEOUT=""; fi

# The markdown files: README.md, then docs/**/*.md in a stable order.
FILES=$( { [ -f "$ROOT/README.md" ] && echo "$ROOT/README.md"; find "$DOCS" -name '*.md' | LC_ALL=C sort; } )

# extract FILE ANY_BLOCK [DIR]: one record per example, as three lines
#   CMD <tab> file:line <tab> command
#   OUT <tab> first output line shown ("" when none or "...")
#   RC <tab> expected status
# and, with DIR, the output lines shown after the Nth example in DIR/N
extract() {
    awk -v name="$1" -v any="$2" -v shown="$3" '
    function flush() {
        if (cmd != "") {
            printf "CMD\t%s:%d\t%s\nOUT\t%s\nRC\t%s\n", name, where, cmd, first, rc
            cmd = ""
            if (shown != "") close(shown "/" count)
        }
    }
    /^```/ {
        if (!inblock) {
            inblock = 1
            take = any || $0 ~ /^```console[ \t]*$/
        } else {
            flush(); inblock = 0; take = 0; echo = 0
        }
        next
    }
    !take { next }
    echo { if (cmd != "" && $0 ~ /^[0-9]+$/) rc = $0; echo = 0; flush(); next }
    /^\$ echo \$\?[ \t]*$/ { echo = 1; next }
    /^\$ totex( |$)/ {
        flush()
        cmd = substr($0, 3); where = NR; first = ""; seen = 0; rc = 0
        count++
        if (shown != "") printf "" > (shown "/" count)
        next
    }
    /^\$ / { flush(); next }
    {
        if (cmd != "" && !seen) {
            seen = 1
            if ($0 != "..." && $0 != "[...]") first = $0
        }
        if (cmd != "" && shown != "") print > (shown "/" count)
    }
    END { flush() }
    ' "$1"
}

# unrun NAME FILE: "NAME:line<tab>command" for each "$ " line of a ```console
# block of FILE that neither this script nor docs_mpi_test.sh runs
unrun() {
    awk -v name="$1" '
    /^```/ { if (!inblock) { inblock = 1; take = $0 ~ /^```console[ \t]*$/ } else { inblock = 0; take = 0 }; next }
    take && /^\$ / && !/^\$ (totex|mpicc|mpirun)( |$)/ && !/^\$ echo \$\?[ \t]*$/ { printf "%s:%d\t%s\n", name, NR, $0 }
    ' "$2"
}

# copies NAME FILE DIR: for each code block of FILE right after a line
# "<!-- same as: PATH -->", writes the block's text to DIR/N and prints
# "N<tab>NAME:line<tab>PATH" (PATH "-" when no code block follows the marker)
copies() {
    awk -v name="$1" -v dir="$3" '
    inside { if ($0 ~ /^```/) { inside = 0; close(out) } else print > out; next }
    want != "" {
        if ($0 ~ /^```/) { n++; out = dir "/" n; printf "" > out; inside = 1; printf "%d\t%s:%d\t%s\n", n, name, at, want }
        else printf "0\t%s:%d\t-\n", name, at
        want = ""
        next
    }
    /^<!-- same as: [^ ]+ -->[ \t]*$/ { want = $4; at = NR }
    END { if (want != "") printf "0\t%s:%d\t-\n", name, at }
    ' "$2"
}

# unshown SHOWN OUT: "output lacks the documented line: L" for the first line
# L of SHOWN (README's output of one example) that OUT does not print, "output
# line K differs: ..." where the two part, or "output has a line not shown: L"
# for one OUT prints and SHOWN leaves out (as said at the top); nothing when
# they agree
unshown() {
    [ -f "$1" ] || return 0
    awk '
    function same(shown, got) {
        if (shown ~ /^wall time /) return got ~ /^wall time /
        if (shown ~ /\.\.\.$/) return substr(got, 1, length(shown) - 3) == substr(shown, 1, length(shown) - 3)
        return shown == got
    }
    FNR == NR { sub(/[ \t]+$/, ""); got[++ng] = $0; next }
    { sub(/[ \t]+$/, ""); shown[++ns] = $0; if ($0 == "..." || $0 == "[...]") gaps = 1 }
    END {
        while (ns > 0 && shown[ns] == "") ns--
        while (ng > 0 && got[ng] == "") ng--
        if (gaps) {
            for (k = 1; k <= ns; k++) {
                if (shown[k] == "" || shown[k] == "..." || shown[k] == "[...]") continue
                ok = 0
                for (i = 1; i <= ng; i++) if (same(shown[k], got[i])) { ok = 1; break }
                if (!ok) { print "output lacks the documented line: " shown[k]; exit }
            }
            exit
        }
        for (k = 1; k <= ns || k <= ng; k++) {
            if (k > ns) { print "output has a line not shown: " got[k]; exit }
            if (k > ng) { print "output lacks the documented line: " shown[k]; exit }
            if (!same(shown[k], got[k])) { print "output line " k " differs: shown: " shown[k] " | printed: " got[k]; exit }
        }
    }
    ' "$2" "$1"
}

TAB=$(printf '\t')
PASS=0
FAIL=0
FAILED=""
for f in $FILES; do
    rel=${f#"$ROOT"/}
    if [ "$f" != "$ROOT/README.md" ]; then
        unrun "$rel" "$f" >"$TMP/cases/unrun"
        while IFS="$TAB" read -r where u; do
            FAIL=$((FAIL + 1))
            FAILED="$FAILED $where"
            echo "FAIL $where: no test runs this example: $u"
        done <"$TMP/cases/unrun"
        rm -rf "$TMP/copies" && mkdir -p "$TMP/copies" || exit 2
        copies "$rel" "$f" "$TMP/copies" >"$TMP/cases/copies"
        while IFS="$TAB" read -r n where path; do
            if [ "$path" = "-" ]; then
                why="'<!-- same as: PATH -->' must be followed by a code block"
            elif [ ! -f "$ROOT/$path" ]; then
                why="no file $path"
            elif ! cmp -s "$TMP/copies/$n" "$ROOT/$path"; then
                why="the code block differs from $path (copy the file into the block)"
            else
                PASS=$((PASS + 1))
                continue
            fi
            FAIL=$((FAIL + 1))
            FAILED="$FAILED $where"
            echo "FAIL $where: $why"
        done <"$TMP/cases/copies"
    fi
    any=0
    [ "$f" = "$ROOT/README.md" ] && any=1
    work="$TMP/work"
    rm -rf "$work"
    mkdir -p "$work/tests" || exit 2
    ln -s "$ROOT/tests/data" "$work/tests/data"
    rm -rf "$TMP/shown" && mkdir -p "$TMP/shown" || exit 2
    extract "$f" "$any" "$TMP/shown" | sed "s|^CMD\t$ROOT/|CMD\t|" >"$TMP/cases/list"
    n=0
    while IFS= read -r line1 && IFS= read -r line2 && IFS= read -r line3; do
        n=$((n + 1))
        where=$(printf '%s\n' "$line1" | cut -f2)
        cmd=$(printf '%s\n' "$line1" | cut -f3-)
        expect=${line2#OUT	}
        want=${line3#RC	}
        (cd "$work" && PATH="$TMP/bin:$PATH" TOTEX_PROGRESS=0 $TIMEOUT sh -c "$cmd" >"$TMP/out" 2>&1 </dev/null)
        got=$?
        why=""
        if [ "$got" -ne "$want" ]; then
            why="exit status $got, documented $want"
        elif [ -n "$expect" ] && ! grep -qF -- "$expect" "$TMP/out"; then
            why="output lacks the documented line: $expect"
        elif [ "$any" = 1 ]; then
            why=$(unshown "$TMP/shown/$n" "$TMP/out")
        fi
        if [ -z "$why" ]; then
            PASS=$((PASS + 1))
        else
            FAIL=$((FAIL + 1))
            FAILED="$FAILED $where"
            echo "FAIL $where: \$ $cmd"
            echo "       $why" | cut -c1-300
            sed -n '1,8s/^/         | /p' "$TMP/out" | cut -c1-300
        fi
    done <"$TMP/cases/list"
done

echo "docs_examples: $PASS passed, $FAIL failed"
if [ "$PASS" -eq 0 ]; then
    echo "docs_examples: no example found in README.md or $DOCS" >&2
    exit 1
fi
[ "$FAIL" -eq 0 ] || { echo "failed:$FAILED"; exit 1; }
exit 0
