#!/bin/sh
# totex bounds|plan|compare SPEC --demand D from the CLI:
#  - every bad demand file (malformed, negative, non-square, too large, the
#    wrong size for the network) and bad generator: one line naming what is
#    wrong, exit 2, no output;
#  - a too large file is refused by its size before it is read (a sparse
#    file of 300 MiB), a row of 4097 columns before the matrix is allocated;
#  - CSV and JSON forms of the same matrix give the same bounds;
#  - plan --json names the chosen schedule, its ratio at least 1 and the
#    best bound; compare verifies every schedule; --picture writes a PNG.
# Usage: demand_cli_test.sh PATH_TO_totex PATH_TO_tests/data. POSIX sh.
CLI_NAME=demand_cli
. "$(dirname "$0")/cli_lib.sh"

printf '0,1,2,3\n4,0,5,6\n7,8,0,9\n1,2,3,0\n' > "$TMP/ok.csv"
printf '{"nodes": 4, "bytes": [[0,1,2,3],[4,0,5,6],[7,8,0,9],[1,2,3,0]]}\n' > "$TMP/ok.json"
printf '0,1,2,3\n4,0,x,6\n7,8,0,9\n1,2,3,0\n' > "$TMP/malformed.csv"
printf '0,1,2,3\n4,0,-5,6\n7,8,0,9\n1,2,3,0\n' > "$TMP/negative.csv"
printf '0,1,2,3\n4,0,5\n7,8,0,9\n1,2,3,0\n' > "$TMP/ragged.csv"
printf '0,1,2,3\n4,0,5,6\n7,8,0,9\n' > "$TMP/short.csv"
printf '0,1,2,3\n4,0,5,6\n7,8,0,9\n1,2,3,0\n1,2,3,0\n' > "$TMP/long.csv"
printf '0,1,2,3\n4,0,99999999999999,6\n7,8,0,9\n1,2,3,0\n' > "$TMP/entry.csv"
printf '{"bytes": [[0,1,2,3],[4,0,5,6],[7,8,0,9]]}\n' > "$TMP/nonsquare.json"
printf '{"bytes": [[0,1,2,3],[4,0,-5,6],[7,8,0,9],[1,2,3,0]]}\n' > "$TMP/negative.json"
printf '{"bytes": [[0,1,2,3],[4,0,5.5,6],[7,8,0,9],[1,2,3,0]]}\n' > "$TMP/fraction.json"
printf '{"bytes": [[0,1,2,3],[4,0,5,6]' > "$TMP/truncated.json"
awk 'BEGIN { s = "0"; for (i = 1; i < 4097; i++) s = s ",0"; print s }' > "$TMP/wide.csv"
truncate -s 300M "$TMP/huge.csv" 2>/dev/null || dd if=/dev/zero of="$TMP/huge.csv" bs=1 count=0 seek=300M 2>/dev/null

expect_error "malformed CSV entry" "row 2, column 3 is not a whole number" "$TOTEX" bounds ring:4 --demand "$TMP/malformed.csv"
expect_error "negative CSV entry" "is negative" "$TOTEX" bounds ring:4 --demand "$TMP/negative.csv"
expect_error "ragged CSV (non-square)" "not square" "$TOTEX" plan ring:4 --demand "$TMP/ragged.csv"
expect_error "too few rows (non-square)" "not square" "$TOTEX" bounds ring:4 --demand "$TMP/short.csv"
expect_error "too many rows (non-square)" "not square" "$TOTEX" compare ring:4 --demand "$TMP/long.csv"
expect_error "entry too large" "too large" "$TOTEX" bounds ring:4 --demand "$TMP/entry.csv"
expect_error "matrix of the wrong size" "the network has 5 nodes" "$TOTEX" bounds ring:5 --demand "$TMP/ok.csv"
expect_error "4097 columns: too large before allocation" "too large: 4097 columns" "$TOTEX" bounds ring:4 --demand "$TMP/wide.csv"
expect_error "300 MiB file: too large before reading" "too large" "$TOTEX" bounds ring:4 --demand "$TMP/huge.csv"
expect_error "non-square JSON" "not square" "$TOTEX" bounds ring:4 --demand "$TMP/nonsquare.json"
expect_error "negative JSON entry" "is negative" "$TOTEX" bounds ring:4 --demand "$TMP/negative.json"
expect_error "fractional JSON entry" "not a whole number" "$TOTEX" bounds ring:4 --demand "$TMP/fraction.json"
expect_error "truncated JSON" "not valid JSON" "$TOTEX" bounds ring:4 --demand "$TMP/truncated.json"
expect_error "missing demand file" "cannot read demand file" "$TOTEX" bounds ring:4 --demand "$TMP/none.csv"
expect_error "zipf without a mean" "zipf" "$TOTEX" bounds ring:4 --demand zipf:1.2
expect_error "hotspot K above n" "K (hot nodes)" "$TOTEX" bounds ring:4 --demand hotspot:5:10
expect_error "uniform mean 0" "M (bytes per pair)" "$TOTEX" bounds ring:4 --demand uniform:0
expect_error "single-port refused" "multiport" "$TOTEX" plan ring:4 --demand uniform:8 --ports single
expect_error "unknown schedule" "unknown schedule" "$TOTEX" plan ring:4 --demand uniform:8 --algorithm nope

# the same matrix as CSV and as JSON: the same bounds
expect_ok "bounds of the CSV" "$TOTEX" bounds ring:4 --demand "$TMP/ok.csv" --json && cp "$TMP/out" "$TMP/a.json"
expect_ok "bounds of the JSON" "$TOTEX" bounds ring:4 --demand "$TMP/ok.json" --json && cp "$TMP/out" "$TMP/b.json"
if grep '"bytes"' "$TMP/a.json" > "$TMP/a.b" && grep '"bytes"' "$TMP/b.json" > "$TMP/b.b" && [ -s "$TMP/a.b" ] &&
   cmp -s "$TMP/a.b" "$TMP/b.b"; then
    pass "CSV and JSON forms give the same bounds"
else
    fail "CSV and JSON forms give the same bounds" "$(cat "$TMP/a.b" "$TMP/b.b" | tr '\n' ' ')"
fi

# plan --json: the chosen schedule, a ratio of at least 1 (the schedule is slower than no bound)
if expect_ok "plan --json" "$TOTEX" plan torus:3x3 --demand random:1000 --seed 7 --json; then
    if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
c = [s for s in r["schedules"] if s["name"] == r["chosen"]][0]
assert c["ratio"] >= 1 - 1e-9, c
assert c["seconds"] == min(s["seconds"] for s in r["schedules"] if s["status"] == "ok")
assert r["best"]["bytes"] >= max(b["bytes"] for b in r["bounds"]) - 1e-6
' "$TMP/out"; then pass "plan --json: chosen is the fastest, ratio >= 1"; else fail "plan --json" "bad report" cat "$TMP/out"; fi
fi

# compare: every schedule verified on a torus with hot spots
if expect_ok "compare hotspot" "$TOTEX" compare torus:4x4 --demand hotspot:2:4096 --json; then
    if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["schedules"]) == 4 and all(s["status"] == "ok" for s in r["schedules"]), r["schedules"]
' "$TMP/out"; then pass "compare: four schedules verified"; else fail "compare: four schedules verified" "bad report"; fi
fi

# the picture of bytes per link
if expect_ok "plan --picture" "$TOTEX" plan torus:4x4 --demand zipf:1.2:4096 --picture "$TMP/links.png"; then
    if [ -s "$TMP/links.png" ] && grep -q "wrote $TMP/links.png" "$TMP/out"; then pass "plan --picture writes the bytes per link"
    else fail "plan --picture writes the bytes per link" "no file" ; fi
fi
expect_error "picture of a 3-D network refused first" "2-D networks only" "$TOTEX" plan torus:4x4x4 --demand uniform:8 --picture "$TMP/3d.png"
expect_error "picture over the demand file" "demand file" "$TOTEX" plan ring:4 --demand "$TMP/ok.csv" --picture "$TMP/ok.csv"

echo "$CLI_NAME: $PASS passed, $FAIL failed"
if [ "$FAIL" -ne 0 ]; then
    echo "$CLI_NAME: $FAIL of $((PASS + FAIL)) checks FAILED:$FAILED"
    exit 1
fi
exit 0
