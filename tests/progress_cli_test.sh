#!/bin/sh
# Progress on stderr from the CLI, on jobs that take more
# than a second: TOTEX_PROGRESS=1 forces the progress line even though stderr
# is a file here, TOTEX_PROGRESS=0 (first job) and the default with stderr
# not a terminal (second job) keep stderr empty, and stdout is the same report
# either way. TOTEX_PROGRESS_DELAY=0 (no second of silence: every phase shows
# at its first step), so that a fast machine does not finish a phase unseen. Jobs:
#  - totex plan fugaku --algorithm greedy-sym (about 2 s): the symmetric
#    greedy's planning (under a second on an idle machine, so its line is not
#    required), then the one-node certification of its schedule, a phase that
#    ends after the job has run for more than a second;
#  - totex compare mesh:32x32 --model combining (about 4 s): the combining
#    simulator, one phase per algorithm of the ranking.
# Usage: progress_cli_test.sh PATH_TO_totex. POSIX sh.
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_totex" >&2
    exit 2
fi
TOTEX=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/totex-progress.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM HUP
LIMIT=${TOTEX_CLI_TIMEOUT:-300}
if command -v timeout >/dev/null 2>&1; then TIMEOUT="timeout $LIMIT"; else TIMEOUT=""; fi
FAIL=0

fail() {
    echo "FAIL: $*"
    FAIL=$((FAIL + 1))
}

# check NAME QUIET WANT... -- ARGS...: run totex ARGS with TOTEX_PROGRESS=1
# and with QUIET (0, or unset); with 1, stderr must hold every pattern WANT
# (grep -E, after turning the carriage returns of the rewritten line into
# newlines), with QUIET stderr must be empty
check() {
    name=$1 quiet=$2
    shift 2
    n=0
    while [ "$1" != "--" ]; do
        n=$((n + 1))
        eval "want_$n=\$1"
        shift
    done
    shift
    for mode in 1 "$quiet"; do
        if [ "$mode" = unset ]; then
            (unset TOTEX_PROGRESS; $TIMEOUT "$TOTEX" "$@" >"$TMP/out.$mode" 2>"$TMP/err.$mode")
        else
            TOTEX_PROGRESS=$mode TOTEX_PROGRESS_DELAY=0 $TIMEOUT "$TOTEX" "$@" >"$TMP/out.$mode" 2>"$TMP/err.$mode"
        fi
        rc=$?
        [ "$rc" -eq 0 ] || fail "$name: TOTEX_PROGRESS=$mode: exit status $rc"
    done
    tr '\r' '\n' <"$TMP/err.1" >"$TMP/lines"
    i=1 w=""
    while [ "$i" -le "$n" ]; do
        eval "w=\$want_$i"
        grep -Eq -- "$w" "$TMP/lines" || fail "$name: TOTEX_PROGRESS=1: no progress line matching '$w' on stderr"
        i=$((i + 1))
    done
    [ -s "$TMP/err.$quiet" ] &&
        fail "$name: TOTEX_PROGRESS $quiet (stderr not a terminal): stderr is not empty: $(head -c 200 "$TMP/err.$quiet")"
    # the report itself does not change (but for the measured wall time)
    grep -v '^wall time' "$TMP/out.1" >"$TMP/a"
    grep -v '^wall time' "$TMP/out.$quiet" >"$TMP/b"
    cmp -s "$TMP/a" "$TMP/b" || fail "$name: stdout differs between TOTEX_PROGRESS=1 and $quiet"
    echo "$name: done"
}

check "plan fugaku --algorithm greedy-sym" 0 \
    '^greedy-sym: certifying at one node: step [0-9]+/3085056 \([0-9]+%\), [0-9]+ steps/s, [0-9]+ s left' \
    -- plan fugaku --algorithm greedy-sym
check "compare mesh:32x32 --model combining" unset \
    '^simulating [a-z0-9]+ \([0-9]+/[0-9]+\): step [0-9]+/[0-9]+ \([0-9]+%\), [0-9]+ steps/s' \
    -- compare mesh:32x32 --model combining

if [ "$FAIL" -ne 0 ]; then
    echo "progress_cli: $FAIL failed"
    exit 1
fi
echo "progress_cli: ok"
