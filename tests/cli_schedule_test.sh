#!/bin/sh
# CLI tests of schedule files (docs/unit-schedule-format.md):
# totex plan --schedule [--format json|full|msccl] and totex verify on
# unit-step JSON and MSCCL XML: round trips, the issue's torus:8x8 target,
# and mutated files rejected with ONE stderr line, exit 2 for a bad file and
# exit 1 for a schedule that breaks the model.
#
#   cli_schedule_test.sh PATH_TO_totex PATH_TO_tests/data
#
# POSIX sh; needs grep, sed, head, mktemp (and `timeout` when present).

set -u

CLI_NAME=cli_schedule_test.sh
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

# expect_verified NAME STEPS CMD...: exit 0, "verified       yes", and "steps          STEPS" when STEPS is not -
expect_verified() {
    name=$1
    steps=$2
    shift 2
    run "$@"
    if [ "$RC" -ne 0 ] || ! grep -q '^verified       yes' "$TMP/out"; then
        fail "$name" "expected exit 0 and verified yes, got $(status_text)" "$@"
        return
    fi
    if [ "$steps" != - ] && ! grep -q "^steps          $steps\$" "$TMP/out"; then
        fail "$name" "expected steps $steps" "$@"
        return
    fi
    pass "$name"
}

# ---------------------------------------------------------------------------
# round trips: the steps verify reports are the steps plan reported

for case in "ring:7 single" "torus:4x4 multi" "mesh:3x4 k:2" "hypercube:4 single" "ghc:3x3 multi" \
            "ring:6*k2 multi" "file:$DATA/greedy_petersen.edges multi"; do
    set -- $case
    spec=$1
    ports=$2
    for form in json full; do
        run "$TOTEX" plan "$spec" --ports "$ports" --schedule "$TMP/s.json" --format "$form"
        if [ "$RC" -ne 0 ]; then
            fail "plan $spec --ports $ports --format $form" "$(status_text)" "$TOTEX" plan "$spec" --ports "$ports"
            continue
        fi
        want=$(sed -n 's/^steps  *\([0-9][0-9]*\) .*/\1/p' "$TMP/out")
        case $spec in
        file:*) # a schedule naming a graph file is verified on the network the user gives
            expect_verified "verify $spec --ports $ports ($form)" "$want" "$TOTEX" verify "$TMP/s.json" --network "$spec" ;;
        *) expect_verified "verify $spec --ports $ports ($form)" "$want" "$TOTEX" verify "$TMP/s.json" ;;
        esac
    done
done

# the issue's targets: torus:8x8 multiport as MSCCL, 64 steps = the cut bound
run "$TOTEX" plan torus:8x8 --ports multi --format msccl --schedule "$TMP/a.xml"
[ "$RC" -eq 0 ] && pass "plan torus:8x8 --format msccl" || fail "plan torus:8x8 --format msccl" "$(status_text)"
expect_verified "verify torus:8x8 MSCCL" 64 "$TOTEX" verify "$TMP/a.xml" --network torus:8x8 --ports multi
if grep -q '^optimal        yes' "$TMP/out" && grep -q '^best bound     64 steps (cut)' "$TMP/out"; then
    pass "torus:8x8 MSCCL: optimal, cut bound 64"
else
    fail "torus:8x8 MSCCL: optimal, cut bound 64" "no 'optimal yes' with the cut bound"
fi
run "$TOTEX" verify "$TMP/a.xml" --network torus:8x8 --ports multi --json
if [ "$RC" -eq 0 ] && grep -q '"steps": *64' "$TMP/out" && grep -q '"optimal": *true' "$TMP/out"; then
    pass "verify --json on MSCCL"
else
    fail "verify --json on MSCCL" "expected steps 64 and optimal true"
fi
expect_verified "hand-written MSCCL (complete:4)" 1 "$TOTEX" verify "$DATA/msccl_complete4_direct.xml" --network complete:4
expect_verified "hand-written MSCCL relaying with rcs (path:3)" 4 "$TOTEX" verify "$DATA/msccl_path3_rcs.xml" --network path:3
# combining schedules as MSCCL
run "$TOTEX" plan mesh:4x4 --model combining --algorithm ssy --format msccl --schedule "$TMP/c.xml"
[ "$RC" -eq 0 ] && pass "combining ssy --format msccl" || fail "combining ssy --format msccl" "$(status_text)"
expect_verified "verify combining MSCCL on complete:16" - "$TOTEX" verify "$TMP/c.xml" --network complete:16

# ---------------------------------------------------------------------------
# refusals and mutated files

expect_status 2 "MSCCL too large (limit named)" "over by" "$TOTEX" plan torus:16x16 --ports multi --format msccl --schedule "$TMP/big.xml"
[ ! -e "$TMP/big.xml" ] && pass "no file left by a refused export" || fail "no file left by a refused export" "big.xml exists"
expect_status 2 "MSCCL single-port timing" "cannot keep" "$TOTEX" plan path:6 --ports single --algorithm a2 --format msccl --schedule "$TMP/p.xml"
expect_status 2 "bad --format" "--format" "$TOTEX" plan ring:4 --schedule "$TMP/x" --format yaml
expect_status 2 "--format without --schedule" "--schedule" "$TOTEX" plan ring:4 --format msccl
expect_status 2 "MSCCL without --network" "--network" "$TOTEX" verify "$TMP/a.xml"
expect_status 1 "MSCCL wrong peer (ring:4)" "not neighbours" "$TOTEX" verify "$DATA/msccl_complete4_direct.xml" --network ring:4
expect_status 2 "MSCCL wrong ngpus" "ngpus" "$TOTEX" verify "$TMP/a.xml" --network torus:4x4
sed 's/<step s="1" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1".*//' "$DATA/msccl_complete4_direct.xml" > "$TMP/missing.xml"
expect_status 1 "MSCCL missing step" "receives 0" "$TOTEX" verify "$TMP/missing.xml" --network complete:4
sed '0,/cnt="1"/s//cnt="72"/' "$DATA/msccl_complete4_direct.xml" > "$TMP/count.xml"
expect_status 2 "MSCCL count limit" "MSCCL_MAX_COUNT" "$TOTEX" verify "$TMP/count.xml" --network complete:4
sed '0,/cnt="1"/s//cnt="123456789012345678901234567890"/' "$DATA/msccl_complete4_direct.xml" > "$TMP/huge.xml"
expect_status 2 "MSCCL huge count" "cnt" "$TOTEX" verify "$TMP/huge.xml" --network complete:4
head -c 2000 "$DATA/msccl_complete4_direct.xml" > "$TMP/trunc.xml"
expect_status 2 "MSCCL truncated" "bad MSCCL XML" "$TOTEX" verify "$TMP/trunc.xml" --network complete:4
sed '0,/depid="-1" deps="-1"/s//depid="1" deps="0"/' "$DATA/msccl_complete4_direct.xml" |
    sed '0,/srcoff="2" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1"/s//srcoff="2" dstbuf="o" dstoff="0" cnt="1" depid="0" deps="0"/' > "$TMP/cycle.xml"
expect_status 1 "MSCCL dependency cycle" "deadlock" "$TOTEX" verify "$TMP/cycle.xml" --network complete:4

run "$TOTEX" plan torus:4x4 --ports multi --algorithm greedy --schedule "$TMP/g.json"
head -c 3000 "$TMP/g.json" > "$TMP/gt.json"
expect_status 2 "unit JSON truncated" "truncated" "$TOTEX" verify "$TMP/gt.json"
sed 's/"version": 1/"version": 7/' "$TMP/g.json" > "$TMP/gv.json"
expect_status 2 "unit JSON wrong version" "version" "$TOTEX" verify "$TMP/gv.json"
sed '0,/{"from":0,/s//{"from":99999999999999999999999,/' "$TMP/g.json" > "$TMP/gh.json"
expect_status 2 "unit JSON huge number" "2^63" "$TOTEX" verify "$TMP/gh.json"
sed '0,/{"from":0,"to":1,/s//{"from":0,"to":5,/' "$TMP/g.json" > "$TMP/gp.json"
expect_status 1 "unit JSON wrong peer" "neighbours" "$TOTEX" verify "$TMP/gp.json"
expect_status 1 "unit JSON single-port override" "port" "$TOTEX" verify "$TMP/g.json" --ports single
# --network replaces the file's network; one of another size is refused
expect_status 2 "unit JSON with --network of another size" "nodes" "$TOTEX" verify "$TMP/g.json" --network ring:4
expect_status 2 "unit JSON above --max-messages" "max-messages" "$TOTEX" verify "$TMP/g.json" --max-messages 100
expect_verified "unit JSON with --max-messages" - "$TOTEX" verify "$TMP/g.json" --max-messages 240
mkfifo "$TMP/fifo" 2>/dev/null && expect_status 2 "verify a FIFO" "not a regular file" "$TOTEX" verify "$TMP/fifo"

# ---------------------------------------------------------------------------

TOTAL=$((PASS + FAIL))
if [ "$FAIL" -ne 0 ]; then
    echo "cli_schedule_test: $FAIL of $TOTAL checks FAILED:$FAILED"
    exit 1
fi
echo "cli_schedule_test: all $TOTAL checks passed"
exit 0
