#!/bin/sh
# CLI tests of the exact search: totex bounds SPEC --exact,
# totex plan SPEC --algorithm exact, --time-limit, the size limit.
#
#   exact_cli_test.sh PATH_TO_totex PATH_TO_tests/data
#
# POSIX sh; needs grep. Bad input (and a network above the size limit) exits
# 2 with exactly one line on stderr naming what is wrong.

set -u

CLI_NAME=exact_cli_test.sh
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

# expect_out NAME PATTERN CMD...: exit 0, empty stderr, stdout matches the extended regex PATTERN
expect_out() {
    name=$1
    pat=$2
    shift 2
    run "$@"
    if [ "$RC" -ne 0 ]; then
        fail "$name" "expected exit status 0, got $RC" "$@"
    elif [ -s "$TMP/err" ]; then
        fail "$name" "expected an empty stderr" "$@"
    elif ! grep -q -E -e "$pat" "$TMP/out"; then
        fail "$name" "stdout does not match '$pat'" "$@"
    else
        pass "$name"
    fi
}

# single-port mesh:3x3: average status 16, exact optimum 18; the forwarding bound
# (src/bounds/forwarding.c) reaches 18 too and, listed first, is the starred best on the tie
expect_out "bounds --exact: the optimum as a bound of kind exact" \
    '^ +exact +18 steps( \*)? +optimum 18 steps' "$TOTEX" bounds mesh:3x3 --exact
expect_out "bounds --exact: the best bound is the optimum" \
    '^best bound +18 steps \((exact|forwarding)\)' "$TOTEX" bounds mesh:3x3 --exact
expect_out "bounds --exact --json: kind exact" \
    '"kind":"exact"' "$TOTEX" bounds ring:6 --ports multi --exact --json
expect_out "plan --algorithm exact: optimal, verified" \
    '^optimal +yes' "$TOTEX" plan mesh:3x3 --ports multi --algorithm exact
expect_out "plan --algorithm exact: replayed by the simulator" \
    '^verified +yes \(simulator replayed every step' "$TOTEX" plan 'path:2*ring:3' --algorithm exact
expect_out "plan --algorithm exact --json: lower bound of kind exact" \
    '"kind":"exact"' "$TOTEX" plan mesh:2x3 --algorithm exact --json
expect_out "plan --algorithm exact --json: the certificate under the key exact" \
    '"optimum":18' "$TOTEX" plan mesh:3x3 --algorithm exact --json
expect_out "bounds --exact --json: the certificate names its proof" \
    '"proof":"(solver|presolve|bound)"' "$TOTEX" bounds mesh:2x4 --exact --json
# a tiny budget on a search that needs seconds: the best schedule found and the gap (not mesh:3x4 any more:
# there balanced-greedy meets the forwarding bound, nor path:3*ring:4 or path:4*ring:4: there balanced-ports meets
# average status; on mesh:3x6 balanced-greedy takes 58 steps for a forwarding bound of 56)
expect_out "bounds --exact --time-limit: the gap when the budget ends the search" \
    'gap [0-9]+ steps' "$TOTEX" bounds 'path:3*path:6' --exact --time-limit 0.2
expect_out "plan --algorithm exact --time-limit: still a verified schedule" \
    '^verified +yes' "$TOTEX" plan mesh:3x4 --algorithm exact --time-limit 0.2

# the automatic choice's exact search: on the Petersen graph under 2-port greedy takes 9
# steps and the search finds the optimum 8 (about 0.5 CPU s; a generous budget keeps it from a loaded machine)
DATA=${2:-$(dirname "$0")/data}
expect_out "plan auto --exact-budget: the search's schedule wins, replayed" \
    '^algorithm +exact:' "$TOTEX" plan "file:$DATA/greedy_petersen.edges" --ports k:2 --exact-budget 60
expect_out "plan auto --exact-budget: the report names the budget and the optimum" \
    '^exact search +budget 60 CPU s, used [0-9.]+: found 8 steps \(optimal\)' \
    "$TOTEX" plan "file:$DATA/greedy_petersen.edges" --ports k:2 --exact-budget 60
expect_out "plan auto --exact-budget 0: no search, and it says so" \
    '^exact search +budget 0 CPU s: not run: .*off' "$TOTEX" plan "file:$DATA/greedy_petersen.edges" --ports k:2 --exact-budget 0
expect_out "plan auto --exact-budget 0 --json: the key exact_search, not run" \
    '"ran":false' \
    "$TOTEX" plan "file:$DATA/greedy_petersen.edges" --ports k:2 --exact-budget 0 --json
expect_out "plan auto --json: the default budget of 2 CPU seconds" \
    '"budget_cpu_seconds":2(\.0)?,' "$TOTEX" plan torus:3x3 --ports multi --json
expect_out "compare --exact-budget 0: the exact row says the search is off" \
    'automatic exact search is off' "$TOTEX" compare mesh:2x3 --ports multi --exact-budget 0
expect_error "--exact-budget -1" "--exact-budget" "$TOTEX" plan ring:5 --exact-budget -1
expect_error "--exact-budget abc" "--exact-budget" "$TOTEX" plan ring:5 --exact-budget abc
expect_error "--exact-budget without a value" "--exact-budget" "$TOTEX" plan ring:5 --exact-budget
expect_error "--exact-budget with --algorithm exact" "--time-limit" "$TOTEX" plan ring:5 --algorithm exact --exact-budget 3
expect_error "--exact-budget with another algorithm" "drop --algorithm" "$TOTEX" plan ring:5 --algorithm greedy --exact-budget 3

expect_error "exact above the node limit" "64 nodes" "$TOTEX" plan torus:9x9 --algorithm exact --ports multi
expect_error "bounds --exact above the variable limit" "variables" "$TOTEX" bounds mesh:6x6 --exact
expect_error "--time-limit without --exact" "--exact" "$TOTEX" bounds ring:5 --time-limit 3
expect_error "--time-limit with another algorithm" "--algorithm exact" "$TOTEX" plan ring:5 --algorithm greedy --time-limit 3
expect_error "--time-limit 0" "--time-limit" "$TOTEX" bounds ring:5 --exact --time-limit 0
expect_error "--time-limit abc" "--time-limit" "$TOTEX" plan ring:5 --algorithm exact --time-limit abc
expect_error "--time-limit without a value" "--time-limit" "$TOTEX" plan ring:5 --algorithm exact --time-limit
expect_error "--exact on plan" "--exact" "$TOTEX" plan ring:5 --exact

TOTAL=$((PASS + FAIL))
if [ "$FAIL" -ne 0 ]; then
    echo "exact_cli_test: $FAIL of $TOTAL checks FAILED:$FAILED"
    exit 1
fi
echo "exact_cli_test: all $TOTAL checks passed"
exit 0
