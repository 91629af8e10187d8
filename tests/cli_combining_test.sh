#!/bin/sh
# CLI tests of the message-combining model: compare/plan --model combining,
# the sweep, --schedule export and `totex verify` (exit codes, one-line errors).
#
#   cli_combining_test.sh PATH_TO_totex PATH_TO_tests/data
#
# POSIX sh; needs grep, sed, awk, head, wc, dd, mktemp (and `timeout` when the
# machine has it). Bad input exits 2, a schedule that fails verification exits
# 1; either prints exactly ONE line on stderr with "error:" and a key word.

set -u

CLI_NAME=cli_combining_test.sh
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

expect_usage() {
    name=$1
    shift
    run "$@"
    if [ "$RC" -eq 0 ] && grep -q -i 'usage' "$TMP/out" && grep -q -e "$USAGE_KEY" "$TMP/out"; then
        pass "$name"
    else
        fail "$name" "expected exit 0 and a usage mentioning '$USAGE_KEY'" "$@"
    fi
}

# ---------------------------------------------------------------------------
# compare --model combining

if expect_ok "compare mesh:4x4 --model combining" "$TOTEX" compare mesh:4x4 --model combining; then
    if grep -q '^ *1 ' "$TMP/out" && grep -q -E '^ *[0-9]+ +ssy ' "$TMP/out"; then
        pass "compare ranks the algorithms, ssy among them"
    else
        fail "compare ranks the algorithms, ssy among them" "no rank 1 row or no ranked ssy row" \
            "$TOTEX" compare mesh:4x4 --model combining
    fi
fi
if expect_ok "compare --json" "$TOTEX" compare mesh:4x4 --model combining --json; then
    missing=""
    for key in algorithm startups blocks_transmitted rearranged_blocks predicted_time network nodes verified; do
        grep -q -F "\"$key\"" "$TMP/out" || missing="$missing $key"
    done
    grep -q -F '"algorithm":"ssy"' "$TMP/out" || missing="$missing ssy-row"
    if [ -n "$missing" ]; then
        fail "compare --json keys" "missing:$missing" "$TOTEX" compare mesh:4x4 --model combining --json
    else
        pass "compare --json keys"
    fi
fi
if expect_ok "compare --sweep" "$TOTEX" compare mesh:4x4 --model combining --sweep; then
    if grep -q '^crossovers:' "$TMP/out" && grep -q -E '^ +8 ' "$TMP/out" && grep -q -E '^ +1048576 ' "$TMP/out" &&
        grep -q 'winner' "$TMP/out"; then
        pass "compare --sweep prints the table and the crossovers"
    else
        fail "compare --sweep prints the table and the crossovers" "no sizes 8..1048576, winner or crossovers" \
            "$TOTEX" compare mesh:4x4 --model combining --sweep
    fi
fi
if expect_ok "compare --sweep --json" "$TOTEX" compare mesh:4x4 --model combining --sweep --json; then
    if grep -q '"crossovers"' "$TMP/out" && grep -q '"winner"' "$TMP/out"; then
        pass "compare --sweep --json keys"
    else
        fail "compare --sweep --json keys" "no crossovers/winner" "$TOTEX" compare mesh:4x4 --model combining --sweep --json
    fi
fi

# ---------------------------------------------------------------------------
# plan --model combining

if expect_ok "plan --json" "$TOTEX" plan mesh:4x4 --model combining --json; then
    missing=""
    for key in startups blocks_transmitted rearranged_blocks predicted_time algorithm network nodes verified; do
        grep -q -F "\"$key\"" "$TMP/out" || missing="$missing $key"
    done
    grep -q -F '"verified":true' "$TMP/out" || missing="$missing verified:true"
    if [ -n "$missing" ]; then
        fail "plan --json keys" "missing:$missing" "$TOTEX" plan mesh:4x4 --model combining --json
    else
        pass "plan --json keys"
    fi
fi
# ssy on a 4x4 mesh: 002 Table 1 with R = C = 4: C = 4 start-ups, R C^2/2 = 32 blocks, 2 R C = 32 rearranged.
if expect_ok "plan ssy --json" "$TOTEX" plan mesh:4x4 --model=combining --algorithm ssy --json; then
    if grep -q '"startups":4,' "$TMP/out" && grep -q '"blocks_transmitted":32,' "$TMP/out" &&
        grep -q '"rearranged_blocks":32,' "$TMP/out" && grep -q '"algorithm":"ssy"' "$TMP/out"; then
        pass "plan ssy matches 002 Table 1"
    else
        fail "plan ssy matches 002 Table 1" "expected 4 / 32 / 32" "$TOTEX" plan mesh:4x4 --model combining --algorithm ssy --json
    fi
fi
if expect_ok "plan text" "$TOTEX" plan mesh:4x4 --model combining --ts 2e-6 --tc 1e-10 --rho 0 --block 64; then
    if grep -q '^verified  *yes' "$TMP/out" && grep -q 'm 64 B' "$TMP/out"; then
        pass "plan text verified with the given costs"
    else
        fail "plan text verified with the given costs" "no 'verified yes' or m 64" "$TOTEX" plan mesh:4x4 --model combining --block 64
    fi
fi
expect_error "plan ssy under store-and-forward" "ssy" \
    "$TOTEX" plan mesh:4x4 --model combining --algorithm ssy --switching store-and-forward
expect_error "plan unknown combining algorithm" "nosuch" "$TOTEX" plan mesh:4x4 --model combining --algorithm nosuch

# bad values
expect_error "--ts -1" "--ts" "$TOTEX" plan mesh:4x4 --model combining --ts -1
expect_error "--tc abc" "--tc" "$TOTEX" compare mesh:4x4 --model combining --tc abc
expect_error "--rho nan" "--rho" "$TOTEX" compare mesh:4x4 --model combining --rho nan
expect_error "--ts without a value" "--ts" "$TOTEX" plan mesh:4x4 --model combining --ts
expect_error "--block 0" "--block" "$TOTEX" plan mesh:4x4 --model combining --block 0
expect_error "--block 1.5" "--block" "$TOTEX" plan mesh:4x4 --model combining --block 1.5
expect_error "--block -8" "--block" "$TOTEX" compare mesh:4x4 --model combining --block -8
expect_error "--switching bogus" "--switching" "$TOTEX" plan mesh:4x4 --model combining --switching bogus
expect_error "--port bogus" "--port" "$TOTEX" plan mesh:4x4 --model combining --port bogus
expect_error "--model bogus" "--model" "$TOTEX" plan mesh:4x4 --model bogus
expect_error "--sweep on plan" "--sweep" "$TOTEX" plan mesh:4x4 --model combining --sweep
expect_error "combining bad spec" "unknown factor" "$TOTEX" compare ring --model combining
expect_error "combining missing SPEC" "SPEC" "$TOTEX" plan --model combining
expect_error "--schedule unwritable" "cannot write" \
    "$TOTEX" plan mesh:4x4 --model combining --schedule /nonexistent/dir/s.json

# help
USAGE_KEY='--block'
expect_usage "plan --model combining --help" "$TOTEX" plan --model combining --help
expect_usage "compare --model combining --help" "$TOTEX" compare mesh:4x4 --model combining --help
USAGE_KEY='verify FILE'
expect_usage "verify --help" "$TOTEX" verify --help
expect_usage "help verify" "$TOTEX" help verify
USAGE_KEY='--model combining'
expect_usage "plan --help mentions --model combining" "$TOTEX" plan --help

# ---------------------------------------------------------------------------
# --schedule FILE and verify FILE

S="$TMP/ssy.json"
if expect_ok "plan --schedule" "$TOTEX" plan mesh:4x4 --model combining --algorithm ssy --schedule "$S"; then
    if [ -s "$S" ] && grep -q '"format": "totex-combining-schedule"' "$S"; then
        pass "plan --schedule writes the file"
    else
        fail "plan --schedule writes the file" "no schedule file with the format name" "$TOTEX" plan mesh:4x4 --model combining --schedule "$S"
    fi
fi
if expect_ok "verify" "$TOTEX" verify "$S"; then
    if grep -q '^verified  *yes' "$TMP/out" && grep -q '^blocks_transmitted  *32 ' "$TMP/out"; then
        pass "verify replays the schedule"
    else
        fail "verify replays the schedule" "no 'verified yes' / 32 blocks" "$TOTEX" verify "$S"
    fi
fi
if expect_ok "verify --json" "$TOTEX" verify "$S" --json; then
    if grep -q '"verified":true' "$TMP/out" && grep -q '"predicted_time"' "$TMP/out"; then
        pass "verify --json"
    else
        fail "verify --json" "no verified/predicted_time" "$TOTEX" verify "$S" --json
    fi
fi
# every auto-chosen / registered schedule round-trips through the file
if expect_ok "plan auto --schedule" "$TOTEX" plan mesh:4x4 --model combining --port all --schedule "$TMP/auto.json"; then
    if expect_ok "verify auto (all-port)" "$TOTEX" verify "$TMP/auto.json"; then
        pass "verify auto (all-port)"
    fi
fi

# Mutations (the file has one transfer per line; the first transfer line is
# step 1, from node 0, whose first block is (0, x)).
first=$(grep -n '"from": 0,' "$S" | head -n 1 | cut -d: -f1)

# 1. a block moved from a node that does not hold it: in step 1 node 0 holds only its own blocks
awk -v L="$first" 'NR == L { sub(/"blocks": \[\[0, /, "\"blocks\": [[1, ") } { print }' "$S" >"$TMP/notheld.json"
expect_status 1 "verify: block not held" "not held" "$TOTEX" verify "$TMP/notheld.json"
# 2. duplicate: the first block twice in the same transfer
awk -v L="$first" 'NR == L { match($0, /\[\[0, [0-9]+\]/); b = substr($0, RSTART + 1, RLENGTH - 1); sub(/\[\[0, [0-9]+\]/, "[" b ", " b) } { print }' "$S" >"$TMP/dup.json"
expect_status 1 "verify: block duplicated" "duplicated" "$TOTEX" verify "$TMP/dup.json" --port all
# 3. contention: a second transfer from node 0 along the same route, with a block node 0 holds and does not send
awk -v L="$first" '{ print } NR == L { line = $0; sub(/"blocks": \[.*$/, "\"blocks\": [[0, 1]]},", line); print line }' "$S" >"$TMP/busy.json"
expect_status 1 "verify: one-port violation" "one-port" "$TOTEX" verify "$TMP/busy.json"
expect_status 1 "verify: link contention (all-port)" "contention" "$TOTEX" verify "$TMP/busy.json" --port all
# 4. a lost block: delete a transfer (one that is not the last of its step) of the last step
last=$(grep -n '"rearranged"' "$S" | tail -n 1 | cut -d: -f1)
awk -v L="$((last + 1))" 'NR != L { print }' "$S" >"$TMP/lost.json"
expect_status 1 "verify: block lost" "lost" "$TOTEX" verify "$TMP/lost.json"
# the violation line names step, transfer / node and block
expect_status 1 "verify: message names step and block" "step 1, transfer" "$TOTEX" verify "$TMP/notheld.json"

# Corrupt files: exit 2.
size=$(wc -c <"$S")
head -c $((size / 2)) "$S" >"$TMP/trunc.json"
expect_error "verify: truncated JSON" "truncated" "$TOTEX" verify "$TMP/trunc.json"
sed '2s/:/;/' "$S" >"$TMP/malformed.json"
expect_error "verify: malformed JSON" "malformed" "$TOTEX" verify "$TMP/malformed.json"
sed "${first}s/\"from\": 0,/\"from\": \"0\",/" "$S" >"$TMP/type.json"
expect_error "verify: wrong type" "must be a whole number" "$TOTEX" verify "$TMP/type.json"
sed "${first}s/\"from\": 0,/\"from\": 16,/" "$S" >"$TMP/range.json"
expect_error "verify: node id out of range" "out of range" "$TOTEX" verify "$TMP/range.json"
sed '/"nodes":/d' "$S" >"$TMP/missing.json"
expect_error "verify: missing key" "missing key \"nodes\"" "$TOTEX" verify "$TMP/missing.json"
sed 's/"network": "[^"]*"/"network": "path:4*path:5"/' "$S" >"$TMP/mismatch.json"
expect_error "verify: nodes do not match the spec" "does not match" "$TOTEX" verify "$TMP/mismatch.json"
: >"$TMP/empty.json"
expect_error "verify: empty file" "empty" "$TOTEX" verify "$TMP/empty.json"
printf '\177ELF\002\001\001\000\000\000\377\376garbage' >"$TMP/garbage.json"
expect_error "verify: binary garbage" "malformed" "$TOTEX" verify "$TMP/garbage.json"
dd if=/dev/zero of="$TMP/huge.json" bs=1048576 count=0 seek=300 2>/dev/null
expect_error "verify: file over 256 MiB" "256 MiB" "$TOTEX" verify "$TMP/huge.json"
rm -f "$TMP/huge.json"
expect_error "verify: no such file" "cannot open" "$TOTEX" verify "$TMP/nonexistent.json"
expect_error "verify: a directory" "not a regular file" "$TOTEX" verify "$TMP"
expect_error "verify: missing FILE" "FILE" "$TOTEX" verify
expect_error "verify: unknown option" "--frobnicate" "$TOTEX" verify "$S" --frobnicate

# ---------------------------------------------------------------------------

TOTAL=$((PASS + FAIL))
if [ "$FAIL" -ne 0 ]; then
    echo "cli_combining_test: $FAIL of $TOTAL checks FAILED:$FAILED"
    exit 1
fi
echo "cli_combining_test: all $TOTAL checks passed"
exit 0
