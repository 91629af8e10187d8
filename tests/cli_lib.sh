# Shared harness of the CLI shell tests (sourced, not run): checks the two
# arguments (PATH_TO_totex PATH_TO_tests/data), makes $TMP, and defines run,
# show, pass, fail, lines, status_text, expect_status, expect_error and expect_ok. Set CLI_NAME before sourcing.
# POSIX sh.
if [ $# -ne 2 ]; then
    echo "usage: $0 PATH_TO_totex PATH_TO_tests/data" >&2
    exit 2
fi
TOTEX=$1
DATA=$2
if [ ! -x "$TOTEX" ]; then
    echo "$CLI_NAME: '$TOTEX' is not an executable" >&2
    exit 2
fi
if [ ! -d "$DATA" ]; then
    echo "$CLI_NAME: '$DATA' is not a directory" >&2
    exit 2
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/totex-$CLI_NAME.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM HUP

# Seconds one command may take before it counts as hung.
LIMIT=${TOTEX_CLI_TIMEOUT:-120}
if command -v timeout >/dev/null 2>&1; then
    TIMEOUT="timeout $LIMIT"
else
    TIMEOUT=""
fi

PASS=0
FAIL=0
FAILED=""

# run CMD ARGS...: run with stdout in $TMP/out, stderr in $TMP/err, status in $RC.
run() {
    # shellcheck disable=SC2086
    $TIMEOUT "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    RC=$?
}

# show the command and what it printed (after a failed check)
show() {
    cmd=""
    for a in "$@"; do cmd="$cmd '$a'"; done
    printf '       command:%s\n' "$cmd" | cut -c1-300
    printf '       exit status: %s\n' "$RC"
    if [ -s "$TMP/err" ]; then
        echo "       stderr:"
        sed -n '1,10s/^/         | /p' "$TMP/err" | cut -c1-300
    fi
    if [ -s "$TMP/out" ]; then
        echo "       stdout (first lines):"
        sed -n '1,5s/^/         | /p' "$TMP/out" | cut -c1-300
    fi
}

pass() {
    PASS=$((PASS + 1))
    echo "ok   $1"
}

# fail NAME WHY CMD...
fail() {
    name=$1
    why=$2
    shift 2
    FAIL=$((FAIL + 1))
    FAILED="$FAILED
  $name: $why"
    echo "FAIL $name: $why"
    show "$@"
}

# Number of lines of a file, counting a last line without its newline.
lines() {
    grep -c '' "$1"
}

status_text() {
    if [ "$RC" -eq 124 ] && [ -n "$TIMEOUT" ]; then
        echo "timed out after ${LIMIT}s"
    elif [ "$RC" -gt 128 ]; then
        echo "killed by signal $((RC - 128))"
    else
        echo "exit status $RC"
    fi
}

# expect_status CODE NAME KEYWORD CMD...: exit CODE and exactly one stderr line
# with "error:" and KEYWORD (case-insensitive, fixed string). Returns 1 on failure.
expect_status() {
    code=$1
    name=$2
    key=$3
    shift 3
    run "$@"
    if [ "$RC" -ne "$code" ]; then
        fail "$name" "expected exit status $code, got $(status_text)" "$@"
        return 1
    fi
    n=$(lines "$TMP/err")
    if [ "$n" -ne 1 ]; then
        fail "$name" "expected exactly one line on stderr, got $n" "$@"
        return 1
    fi
    if ! grep -q -F 'error:' "$TMP/err"; then
        fail "$name" "the stderr line does not contain 'error:'" "$@"
        return 1
    fi
    if ! grep -q -i -F -e "$key" "$TMP/err"; then
        fail "$name" "the error line does not mention '$key'" "$@"
        return 1
    fi
    pass "$name"
}

# expect_error NAME KEYWORD CMD...: bad input, exit 2 (expect_status 2).
expect_error() { expect_status 2 "$@"; }

# expect_ok NAME CMD...: exit 0 and an empty stderr; records only a failure
# (the caller checks the output and passes). Returns 1 on failure.
expect_ok() {
    name=$1
    shift
    run "$@"
    if [ "$RC" -ne 0 ]; then
        fail "$name" "expected exit status 0, got $(status_text)" "$@"
        return 1
    fi
    if [ -s "$TMP/err" ]; then
        fail "$name" "expected an empty stderr" "$@"
        return 1
    fi
    return 0
}
