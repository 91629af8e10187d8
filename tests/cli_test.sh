#!/bin/sh
# CLI behaviour tests: exit codes, one-line error messages, help, presets, JSON keys.
#
#   cli_test.sh PATH_TO_totex PATH_TO_tests/data
#
# POSIX sh; needs only grep, wc, tr, printf, mktemp (and uses `timeout` when
# the machine has it). Every bad input must exit 2 and print exactly ONE line
# on stderr containing "error:" and a key word naming the problem. Prints one
# line per check, a summary line, and exits 1 if any check failed.

set -u

CLI_NAME=cli_test.sh
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

# expect_usage NAME CMD...: exit 0 and "usage" on stdout.
expect_usage() {
    name=$1
    shift
    run "$@"
    if [ "$RC" -ne 0 ]; then
        fail "$name" "expected exit status 0, got $(status_text)" "$@"
        return
    fi
    if ! grep -q -i 'usage' "$TMP/out"; then
        fail "$name" "stdout does not contain 'usage'" "$@"
        return
    fi
    pass "$name"
}

# ---------------------------------------------------------------------------
# Malformed specs: each through `bounds` and through `plan`.

spec_case() { # KEYWORD SPEC
    shown=$(printf '%s' "$2" | tr '\n\t' '??' | cut -c1-80)
    expect_error "bounds spec '$shown'" "$1" "$TOTEX" bounds "$2"
    expect_error "plan spec '$shown'" "$1" "$TOTEX" plan "$2" --ports single
}

spec_case "spec" ""
spec_case "spec" "   "
spec_case "unknown factor" "ring"
spec_case "size" "ring:"
spec_case "out of range" "ring:0"
spec_case "whole number" "ring:-3"
spec_case "whole number" "path:abc"
spec_case "size" "torus:4x"
spec_case "foo" "foo:3"
spec_case "empty factor" "ring:3**path:2"
spec_case "empty factor" "ring:3*"
spec_case "out of range" "ring:99999999999"
spec_case "out of range" "ring:65536"
spec_case "2^32" "torus:65535x65535x2"
spec_case "2^32" "ncube2*hypercube:22"
spec_case "out of range" "hypercube:32"
spec_case "k2" "k2:5"
spec_case "file:" "file:"
spec_case "cannot open" "file:/nonexistent/g.graphml"
# The message quotes the spec: a newline inside it must not split the line.
nl='
'
spec_case "control character" "ring:3*bad${nl}factor"

# Long specs: 2,106 characters whose product overflows (the message must still
# say why, not only echo the spec), and 4,206 characters (over the limit).
long="ring:3"
i=0
while [ $i -lt 1400 ]; do
    long="$long*k2"
    i=$((i + 1))
    [ $i -eq 700 ] && long700=$long
done
expect_error "bounds spec of 2,106 characters, 701 factors" "2^32" "$TOTEX" bounds "$long700"
expect_error "bounds spec of 4,206 characters" "4096" "$TOTEX" bounds "$long"
# Long parts of a spec: the message must still say what is wrong with them.
d=""
w=""
i=0
while [ $i -lt 100 ]; do
    d="${d}9999999999"
    w="${w}abcdefghij"
    i=$((i + 1))
done
spec_case "out of range" "ring:$d"
spec_case "whole number" "ring:3*path:$w"
spec_case "unknown factor" "ring:3*$w"
spec_case "unknown factor kind" "ring:3*$w:3"
spec_case "cannot open" "file:/nonexistent/$w.graphml"

# Graph files that must be refused.
spec_case "connected" "file:$DATA/cli_disconnected.edges"
spec_case "cli_bad.graphml" "file:$DATA/cli_bad.graphml"
spec_case "99999999" "file:$DATA/cli_huge_id.edges"

# Binary garbage (NUL bytes, high bytes, an ELF-like header), read as an edge
# list, as GraphML and as GML.
printf '\177ELF\002\001\001\000\000\000\377\376\375\000\012\015\033[0m\001\002\003garbage\200\201\000\377' >"$TMP/garbage.bin"
cp "$TMP/garbage.bin" "$TMP/garbage.graphml"
cp "$TMP/garbage.bin" "$TMP/garbage.gml"
for f in garbage.bin garbage.graphml garbage.gml; do
    spec_case "$f" "file:$TMP/$f"
done
# A directory is not a graph file.
spec_case "$TMP" "file:$TMP"
# A device that never ends must not hang the reader.
spec_case "not a regular file" "file:/dev/zero"

# ---------------------------------------------------------------------------
# Algorithms and options.

expect_error "plan unknown algorithm" "nosuch" "$TOTEX" plan ring:5 --algorithm nosuch
expect_error "plan a3 on a heterogeneous network" "a3" \
    "$TOTEX" plan 'ring:5*path:3' --ports multi --algorithm a3
expect_error "plan a3 single-port" "a3" "$TOTEX" plan hypercube:4 --ports single --algorithm a3
expect_error "plan --algorithm without a name" "--algorithm" "$TOTEX" plan ring:5 --algorithm
expect_error "bounds unknown option" "--frobnicate" "$TOTEX" bounds ring:5 --frobnicate
expect_error "plan unknown option" "--frobnicate" "$TOTEX" plan ring:5 --frobnicate
expect_error "machines unknown option" "machines" "$TOTEX" machines --frobnicate
expect_error "algorithms unknown option" "--frobnicate" "$TOTEX" algorithms --frobnicate
expect_error "unknown command" "frobnicate" "$TOTEX" frobnicate ring:5
expect_error "bounds --ports bogus" "bogus" "$TOTEX" bounds ring:5 --ports bogus
expect_error "plan --ports=bogus" "bogus" "$TOTEX" plan ring:5 --ports=bogus
expect_error "plan --ports without a value" "--ports" "$TOTEX" plan ring:5 --ports
expect_error "plan --max-messages 0" "--max-messages" "$TOTEX" plan ring:5 --max-messages 0
expect_error "plan --max-messages -1" "--max-messages" "$TOTEX" plan ring:5 --max-messages -1
expect_error "plan --max-messages 1e3" "--max-messages" "$TOTEX" plan ring:5 --max-messages 1e3
expect_error "bounds missing SPEC" "SPEC" "$TOTEX" bounds
expect_error "bounds missing SPEC with options" "SPEC" "$TOTEX" bounds --ports multi --json
expect_error "plan missing SPEC" "SPEC" "$TOTEX" plan
expect_error "plan missing SPEC with options" "SPEC" "$TOTEX" plan --ports multi --algorithm a2
expect_error "bounds two SPECs" "ring:6" "$TOTEX" bounds ring:5 ring:6
expect_error "machines with an argument" "machines" "$TOTEX" machines extra

# No command at all: exit 2 and the usage on stderr.
run "$TOTEX"
if [ "$RC" -eq 2 ] && grep -q -i usage "$TMP/err"; then
    pass "no command"
else
    fail "no command" "expected exit status 2 and the usage on stderr" "$TOTEX"
fi

# ---------------------------------------------------------------------------
# Help.

for cmd in machines bounds plan algorithms help; do
    expect_usage "$cmd --help" "$TOTEX" "$cmd" --help
done
expect_usage "plan -h" "$TOTEX" plan -h
expect_usage "--help" "$TOTEX" --help
expect_usage "help" "$TOTEX" help
for cmd in machines bounds plan algorithms; do
    expect_usage "help $cmd" "$TOTEX" help "$cmd"
done
# `totex help` lists the defaults of every command that takes options
if "$TOTEX" help >"$TMP/out" 2>&1; then
    missing=""
    for cmd in bounds plan compare verify reproduce; do
        sed -n '/^defaults:/,/^$/p' "$TMP/out" | grep -q -e "^  [a-z/, ]*\b$cmd\b" || missing="$missing $cmd"
    done
    if [ -n "$missing" ]; then
        fail "help defaults" "no line of defaults for:$missing" "$TOTEX" help
    else
        pass "help defaults"
    fi
else
    fail "help defaults" "exit status $?" "$TOTEX" help
fi

# ---------------------------------------------------------------------------
# Presets.

if expect_ok "machines" "$TOTEX" machines; then
    missing=""
    for m in bgq-midplane sequoia fugaku tpu-v4-cube ncube2 touchstone-delta cray-t3d; do
        grep -q -e "^${m}[[:space:]]" "$TMP/out" || missing="$missing $m"
    done
    if [ -n "$missing" ]; then
        fail "machines" "presets not listed:$missing" "$TOTEX" machines
    else
        pass "machines"
    fi
fi

# Every preset is usable as a SPEC.
for m in bgq-midplane sequoia fugaku tpu-v4-cube ncube2 touchstone-delta cray-t3d; do
    if expect_ok "bounds $m" "$TOTEX" bounds "$m"; then
        pass "bounds $m"
    fi
done

# `bounds fugaku` (158,976 nodes) uses closed forms only: it must be quick.
start=$(date +%s)
if expect_ok "bounds fugaku is quick" "$TOTEX" bounds fugaku; then
    took=$(($(date +%s) - start))
    if [ "$took" -gt 10 ]; then
        fail "bounds fugaku is quick" "took ${took}s (more than 10s)" "$TOTEX" bounds fugaku
    elif ! grep -q '158976' "$TMP/out"; then
        fail "bounds fugaku is quick" "output does not give its 158976 nodes" "$TOTEX" bounds fugaku
    else
        pass "bounds fugaku is quick (${took}s)"
    fi
fi

# ---------------------------------------------------------------------------
# k-port (001 Section 7): --ports k:N for bounds and plan; bad k refused.

if expect_ok "bounds --ports k:2" "$TOTEX" bounds mesh:4x4 --ports k:2; then
    if grep -q '^ports  *2-port' "$TMP/out" && grep -q 'min(k, d_min)' "$TMP/out"; then
        pass "bounds --ports k:2 names the model"
    else
        fail "bounds --ports k:2 names the model" "no '2-port' line or k-port witness" "$TOTEX" bounds mesh:4x4 --ports k:2
    fi
fi
if expect_ok "plan --ports k:2" "$TOTEX" plan torus:4x4 --ports k:2; then
    if grep -q '^ports  *2-port' "$TMP/out" && grep -q '^verified  *yes' "$TMP/out"; then
        pass "plan --ports k:2 verified"
    else
        fail "plan --ports k:2 verified" "no '2-port' line or not verified" "$TOTEX" plan torus:4x4 --ports k:2
    fi
fi
if expect_ok "plan --ports=k:3 --json" "$TOTEX" plan 'ring:5*path:3' --ports=k:3 --json; then
    if grep -q '"ports":"3-port"' "$TMP/out" && grep -q '"k":3' "$TMP/out" && grep -q '"verified":true' "$TMP/out"; then
        pass "plan --ports=k:3 --json keys"
    else
        fail "plan --ports=k:3 --json keys" "ports/k/verified missing" "$TOTEX" plan 'ring:5*path:3' --ports=k:3 --json
    fi
fi
if expect_ok "plan greedy --ports k:2" "$TOTEX" plan mesh:5x5 --ports k:2 --algorithm greedy --json; then
    if grep -q '"algorithm":"greedy"' "$TMP/out" && grep -q '"verified":true' "$TMP/out"; then
        pass "plan greedy --ports k:2 verified"
    else
        fail "plan greedy --ports k:2 verified" "not greedy or not verified" "$TOTEX" plan mesh:5x5 --ports k:2 --algorithm greedy --json
    fi
fi
expect_error "plan a3 under k-port" "a3" "$TOTEX" plan torus:4x4 --ports k:2 --algorithm a3
for bad in k:0 k:abc k:99999 k: k:-1 0-port; do
    expect_error "bounds --ports $bad" "$bad" "$TOTEX" bounds ring:5 --ports "$bad"
    expect_error "plan --ports $bad" "$bad" "$TOTEX" plan ring:5 --ports "$bad"
done

# ---------------------------------------------------------------------------
# JSON report of a plan.

if expect_ok "plan tpu-v4-cube --json" "$TOTEX" plan tpu-v4-cube --ports single --json; then
    missing=""
    for key in network nodes ports algorithm steps lower_bound value kind witness optimal \
        verified average_delay peak_queue; do
        grep -q -F "\"$key\"" "$TMP/out" || missing="$missing $key"
    done
    if [ -n "$missing" ]; then
        fail "plan tpu-v4-cube --json" "keys missing:$missing" "$TOTEX" plan tpu-v4-cube --ports single --json
    else
        pass "plan tpu-v4-cube --json"
    fi
fi

# ---------------------------------------------------------------------------
# totex reproduce: the papers' claims.

expect_error "reproduce bad sweep" "sweep" "$TOTEX" reproduce --sweep huge
expect_error "reproduce unknown option" "unknown option" "$TOTEX" reproduce --frobnicate
expect_error "reproduce unwritable output" "cannot write" "$TOTEX" reproduce --output "$TMP/no/such/dir/r.md"
if expect_ok "reproduce --sweep small" "$TOTEX" reproduce --sweep small --output "$TMP/reproduce.md"; then
    if grep -q -F ' 0 disagree' "$TMP/reproduce.md" && grep -q -F '003 Section 3, Theorem 1' "$TMP/reproduce.md" \
        && grep -q -F '002 Table 2' "$TMP/reproduce.md" && grep -q -F '](fig-003-2-path6.png)' "$TMP/reproduce.md" \
        && [ -s "$TMP/fig-003-2-path6.png" ] && [ -s "$TMP/compare-tpu-v4-cube.png" ]; then
        pass "reproduce report"
    else
        fail "reproduce report" "report lacks the summary, a claim or its pictures" "$TOTEX" reproduce --output "$TMP/reproduce.md"
    fi
    # nothing the product prints names the machine it ran on: no absolute path in the report
    if grep -n -E '(^|[ (`])/[A-Za-z0-9_.-]+/' "$TMP/reproduce.md" >"$TMP/abs"; then
        fail "reproduce report names no path of the machine" "$(head -3 "$TMP/abs")"
    else
        pass "reproduce report names no path of the machine"
    fi
fi

# ---------------------------------------------------------------------------

TOTAL=$((PASS + FAIL))
if [ "$FAIL" -ne 0 ]; then
    echo "cli_test: $FAIL of $TOTAL checks FAILED:$FAILED"
    exit 1
fi
echo "cli_test: all $TOTAL checks passed"
exit 0
