#!/bin/sh
# Hostile input: FIFOs, runaway memory, overflow in JSON, pictures
# written through symlinks, help on unknown commands, huge numbers in files.
# Each check fails without its fix.
#
#   cli_hostile_test.sh PATH_TO_totex PATH_TO_tests/data
#
# POSIX sh (mkfifo, ln, timeout when present). One line per check, a summary,
# exit 1 if any check failed.

set -u

CLI_NAME=cli_hostile_test.sh
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

# ---------------------------------------------------------------------------
# 1. A FIFO (no writer) must be refused at once, not block the reader.

if mkfifo "$TMP/fifo" 2>/dev/null; then
    SAVED=$TIMEOUT
    SAVED_LIMIT=$LIMIT
    command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 10" && LIMIT=10
    expect_status 2 "bounds file:FIFO does not hang" "not a regular file" "$TOTEX" bounds "file:$TMP/fifo"
    expect_status 2 "verify FIFO does not hang" "not a regular file" "$TOTEX" verify "$TMP/fifo"
    TIMEOUT=$SAVED
    LIMIT=$SAVED_LIMIT
else
    echo "skip FIFO checks: mkfifo failed"
fi

# ---------------------------------------------------------------------------
# 2. Memory bounded before it is spent: with default options a network too
#    large to plan in full is refused at once, naming the option that raises
#    the limit (under a 3 GiB address-space cap, so a regression fails here
#    instead of taking the machine).

# limited CMD...: CMD with at most 3 GiB of address space (not under
# AddressSanitizer, which reserves terabytes of shadow address space at start:
# there the refusal is still checked, without the cap)
if ldd "$TOTEX" 2>/dev/null | grep -q libasan; then
    printf '#!/bin/sh\nexec "$@"\n' >"$TMP/limited"
else
    printf '#!/bin/sh\nulimit -v 3145728 2>/dev/null\nexec "$@"\n' >"$TMP/limited"
fi
chmod +x "$TMP/limited"
limited=$TMP/limited
SAVED=$TIMEOUT
SAVED_LIMIT=$LIMIT
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 60" && LIMIT=60
expect_status 2 "plan mesh:215x215 refused by --max-messages" "--max-messages" "$limited" "$TOTEX" plan mesh:215x215
run "$limited" "$TOTEX" compare mesh:215x215 --ports multi --json
# every row failed: the table names why, and the exit status is 2 (not 0)
if [ "$RC" -eq 2 ] && grep -q -F -- '--max-messages' "$TMP/out" && ! grep -q -F '"steps"' "$TMP/out" &&
    grep -q -F 'no algorithm could plan' "$TMP/err"; then
    pass "compare mesh:215x215: every row refused, naming --max-messages"
else
    fail "compare mesh:215x215: every row refused, naming --max-messages" "$(status_text) or no row names the option" \
        "$TOTEX" compare mesh:215x215 --ports multi --json
fi
expect_status 2 "plan mesh:100x100 --model combining refused by --max-blocks" "--max-blocks" \
    "$limited" "$TOTEX" plan mesh:100x100 --model combining
expect_status 2 "compare mesh:48x48 --model combining refused by --max-blocks" "--max-blocks" \
    "$limited" "$TOTEX" compare mesh:48x48 --model combining
expect_status 2 "--max-blocks must be a whole number" "--max-blocks" "$TOTEX" plan mesh:4x4 --model combining --max-blocks 1e3
if expect_ok "--max-blocks raises the limit" "$TOTEX" plan mesh:4x4 --model combining --max-blocks 240 --json; then
    pass "--max-blocks raises the limit"
fi
expect_status 2 "--max-blocks lowers the limit" "at most 239" "$TOTEX" plan mesh:4x4 --model combining --max-blocks 239
TIMEOUT=$SAVED
LIMIT=$SAVED_LIMIT

# ---------------------------------------------------------------------------
# 3. JSON never holds Infinity or NaN: an overflowing predicted time is an error.

expect_status 2 "plan --ts 1e308 --json overflows" "overflows" \
    "$TOTEX" plan mesh:4x4 --model combining --ts 1e308 --json
for cmd in "compare mesh:4x4 --model combining --ts 1e308 --json" \
    "compare mesh:4x4 --model combining --tc 1e300 --sweep --json"; do
    # shellcheck disable=SC2086
    run "$TOTEX" $cmd
    if [ "$RC" -eq 0 ] && ! grep -q -i -e 'infinity' -e 'nan' "$TMP/out"; then
        pass "$cmd: strict JSON"
    else
        # shellcheck disable=SC2086
        fail "$cmd: strict JSON" "exit status $RC or Infinity/NaN in the output" "$TOTEX" $cmd
    fi
done

# ---------------------------------------------------------------------------
# 4. A failed picture write leaves what the path named (a symlink to /dev/full)
#    and fails before printing the report.

if [ -w /dev/full ] && ln -s /dev/full "$TMP/full.png" 2>/dev/null && ln -s /dev/full "$TMP/full.svg"; then
    for cmd in "plan torus:4x4 --picture $TMP/full.png" "compare torus:4x4 --ports multi --picture $TMP/full.svg" \
        "compare mesh:4x4 --model combining --sweep --picture $TMP/full.png"; do
        # shellcheck disable=SC2086
        if expect_status 2 "$cmd: fails" "cannot write output" "$TOTEX" $cmd; then
            if [ -L "$TMP/full.png" ] && [ -L "$TMP/full.svg" ] && [ ! -s "$TMP/out" ]; then
                pass "$cmd: link kept, no report printed"
            else
                # shellcheck disable=SC2086
                fail "$cmd: link kept, no report printed" "the symlink was removed or the report printed" "$TOTEX" $cmd
            fi
        fi
    done
else
    echo "skip picture symlink checks: no writable /dev/full or no ln -s"
fi

# ---------------------------------------------------------------------------
# 5. help on an unknown command is bad input.

expect_status 2 "help nosuch exits 2" "nosuch" "$TOTEX" help nosuch
run "$TOTEX" help machines
if [ "$RC" -eq 0 ] && grep -q -i usage "$TMP/out"; then
    pass "help machines"
else
    fail "help machines" "expected exit 0 and a usage" "$TOTEX" help machines
fi

# ---------------------------------------------------------------------------
# 6. plan: the answer first, the algorithms that do not apply only with
#    --verbose, and a wall time that covers the whole command.

if expect_ok "plan path:2*ring:3" "$TOTEX" plan 'path:2*ring:3'; then
    first=$(grep -n -e '^algorithm' -e '^steps' -e '^optimal' -e '^verified' "$TMP/out" | tail -1 | cut -d: -f1)
    bounds=$(grep -n '^lower bounds' "$TMP/out" | cut -d: -f1)
    if grep -q '^not applicable' "$TMP/out"; then
        fail "plan: no 'not applicable' lines by default" "found some" "$TOTEX" plan 'path:2*ring:3'
    elif [ -z "$first" ] || [ -z "$bounds" ] || [ "$first" -gt "$bounds" ] || [ "$first" -gt 7 ]; then
        fail "plan: the answer first" "algorithm/steps/optimal/verified not before the bounds" "$TOTEX" plan 'path:2*ring:3'
    else
        pass "plan: the answer first, no 'not applicable' lines"
    fi
fi
if expect_ok "plan --verbose" "$TOTEX" plan 'path:2*ring:3' --verbose; then
    if grep -q '^not applicable a3: ' "$TMP/out"; then
        pass "plan --verbose lists what does not apply"
    else
        fail "plan --verbose lists what does not apply" "no 'not applicable a3' line" "$TOTEX" plan 'path:2*ring:3' --verbose
    fi
fi
# wall time: every candidate the automatic choice runs (about 0.2 s on
# torus:8x8; the chosen one alone 0.3 ms) and the picture are part of the
# command. The process's start and exit are not (under the sanitizers they
# take longer): they are measured by `totex help`, and the wall time reported
# must cover at least a third of the rest (the sanitizers also slow the exit).
now_ms() { echo $(($(date +%s%N) / 1000000)); }
case $(date +%s%N 2>/dev/null) in
*N | '') echo "skip wall-time check: date has no %N" ;;
*)
    start=$(now_ms)
    run "$TOTEX" help
    base_ms=$(($(now_ms) - start))
    start=$(now_ms)
    # (exit 0; stderr: only the lines naming the files written, as standard output carries JSON)
    run "$TOTEX" plan torus:8x8 --picture "$TMP/p.png" --json
    if [ "$RC" -ne 0 ] || [ "$(cat "$TMP/err")" != "$(printf 'wrote %s\nwrote %s' "$TMP/p.png" "$TMP/p-heatmap.png")" ]; then
        fail "plan --picture --json" "expected exit 0 and stderr the two 'wrote' lines, got $(status_text): $(head -c 300 "$TMP/err")" \
            "$TOTEX" plan torus:8x8 --picture "$TMP/p.png" --json
    else
        elapsed_ms=$(($(now_ms) - start))
        added_ms=$((elapsed_ms - base_ms))
        wall_ms=$(sed -n 's/.*"wall_seconds": *\([0-9.e+-]*\).*/\1/p' "$TMP/out" | awk '{ printf "%d", $1 * 1000 }')
        if [ -n "$wall_ms" ] && [ $((wall_ms * 3)) -ge "$added_ms" ]; then
            pass "wall time covers the command (${wall_ms} ms reported; the command's work took ${added_ms} ms)"
        else
            fail "wall time covers the command" \
                "wall_seconds ${wall_ms:-?} ms, but the command's work took ${added_ms} ms" \
                "$TOTEX" plan torus:8x8 --picture "$TMP/p.png" --json
        fi
    fi
    ;;
esac

# ---------------------------------------------------------------------------

TOTAL=$((PASS + FAIL))
if [ "$FAIL" -ne 0 ]; then
    echo "cli_hostile_test: $FAIL of $TOTAL checks FAILED:$FAILED"
    exit 1
fi
echo "cli_hostile_test: all $TOTAL checks passed"
exit 0
