#!/bin/sh
# Small CLI fixes (limits, hints, names and reasons in messages), each a check that fails without its fix:
#  - --max-messages above 2^31 (what the help promises) is refused;
#  - a combining option without --model combining says to add it;
#  - a truncated unit-step JSON names the file; a symlink loop gives its reason;
#  - libxml2's advice "use XML_PARSE_HUGE option" does not reach the user;
#  - verify opens no graph file a schedule names (file:PATH), unless --network is given;
#  - a long greedy on a file graph shows progress (TOTEX_PROGRESS=1);
#  - --algorithm exact takes a schedule meeting an analytic bound as optimal at once;
#  - --costly-budget HOPS: auto skips greedy's prediction exactly above HOPS = S_G (000 Theorem 1's total
#    status, computed here from the path formula), under k-port above 1.5 HOPS (planned at once), and says
#    so; pipeline takes 8 HOPS; bad values and --algorithm are refused; balanced-greedy supersedes load-greedy and greedy above
#    2^23 hops (the JSON names them).
# (compare exiting 2 when every row fails: tests/cli_hostile_test.sh.)
# Usage: cli_small_test.sh PATH_TO_totex PATH_TO_tests/data. POSIX sh.
CLI_NAME=cli_small
. "$(dirname "$0")/cli_lib.sh"

# --max-messages: at most 2^31
expect_error "plan --max-messages 2^40" "2^31" "$TOTEX" plan ring:5 --max-messages 1099511627776
expect_error "verify --max-messages 2^40" "2^31" "$TOTEX" verify "$DATA/msccl_complete4_direct.xml" --network complete:4 --max-messages 1099511627776
expect_ok "plan --max-messages 2^31" "$TOTEX" plan ring:5 --max-messages 2147483648 && pass "plan --max-messages 2^31 accepted"

# a combining option without the model
expect_error "--ts without --model combining" "--model combining" "$TOTEX" plan mesh:3x3 --ts 1e-5
expect_error "--sweep without --model combining" "--model combining" "$TOTEX" compare mesh:3x3 --sweep

# a truncated unit-step JSON: the file is named
"$TOTEX" plan ring:5 --schedule "$TMP/u.json" >/dev/null
head -c 150 "$TMP/u.json" > "$TMP/trunc.json"
expect_error "truncated JSON names the file" "trunc.json" "$TOTEX" verify "$TMP/trunc.json"

# a symlink loop: the reason
ln -s "$TMP/loopB" "$TMP/loopA" && ln -s "$TMP/loopA" "$TMP/loopB"
expect_error "graph file in a symlink loop: the reason" "symbolic links" "$TOTEX" plan "file:$TMP/loopA"
expect_error "schedule file in a symlink loop: the reason" "symbolic links" "$TOTEX" verify "$TMP/loopA"

# libxml2's parser option does not reach the user
awk 'BEGIN { s = "<algo>"; for (i = 0; i < 300; i++) s = s "<x>"; for (i = 0; i < 300; i++) s = s "</x>"; print s "</algo>" }' > "$TMP/deep.xml"
run "$TOTEX" verify "$TMP/deep.xml" --network ring:4
if [ "$RC" -eq 2 ] && ! grep -q XML_PARSE_HUGE "$TMP/err" && grep -q "bad MSCCL XML" "$TMP/err"; then
    pass "deep XML: no libxml2 parser option in the message"
else
    fail "deep XML: no libxml2 parser option in the message" "$(status_text): $(cat "$TMP/err")"
fi

# verify opens no graph file a schedule names
printf 'TOPSECRET line one\nTOPSECRET line two\n' > "$TMP/secret.txt"
printf '0 1\n1 2\n2 3\n3 0\n' > "$TMP/g4.edges"
"$TOTEX" plan "file:$TMP/g4.edges" --schedule "$TMP/g4.json" >/dev/null
"$TOTEX" plan "file:$TMP/g4.edges" --model combining --schedule "$TMP/g4c.json" >/dev/null
sed "s|file:$TMP/g4.edges|file:$TMP/secret.txt|" "$TMP/g4.json" > "$TMP/evil.json"
sed "s|file:$TMP/g4.edges|file:$TMP/secret.txt|" "$TMP/g4c.json" > "$TMP/evilc.json"
for f in evil.json evilc.json; do
    run "$TOTEX" verify "$TMP/$f"
    if [ "$RC" -eq 2 ] && ! grep -q TOPSECRET "$TMP/err" && grep -q -- "--network" "$TMP/err"; then
        pass "verify $f: the graph file it names is not opened"
    else
        fail "verify $f: the graph file it names is not opened" "$(status_text): $(cat "$TMP/err")"
    fi
done
expect_ok "verify a unit schedule of a file graph with --network" "$TOTEX" verify "$TMP/g4.json" --network "file:$TMP/g4.edges" &&
    pass "verify a unit schedule of a file graph with --network"
expect_ok "verify a combining schedule of a file graph with --network" "$TOTEX" verify "$TMP/g4c.json" --network "file:$TMP/g4.edges" &&
    pass "verify a combining schedule of a file graph with --network"
expect_error "--network of another size" "nodes" "$TOTEX" verify "$TMP/g4.json" --network ring:5

# progress on a greedy over a file graph (the factor greedy inside the prediction), without the second of
# silence (TOTEX_PROGRESS_DELAY=0: the greedy plans 600 nodes in about 1 s on a quiet machine)
awk 'BEGIN { n = 600; srand(7); for (i = 0; i < n; i++) print i, (i + 1) % n;
             for (k = 0; k < 2 * n; k++) { a = int(rand() * n); b = int(rand() * n); if (a != b) print a, b } }' > "$TMP/g600.edges"
TOTEX_PROGRESS=1 TOTEX_PROGRESS_DELAY=0 $TIMEOUT "$TOTEX" plan "file:$TMP/g600.edges" >/dev/null 2>"$TMP/prog"
if tr '\r' '\n' < "$TMP/prog" | grep -q "greedy on file:"; then
    pass "progress while the greedy plans a 600-node file graph"
else
    fail "progress while the greedy plans a 600-node file graph" "no 'greedy on file:' line: $(tr '\r' '\n' < "$TMP/prog" | head -3)"
fi

# --algorithm exact: a schedule meeting an analytic bound is optimal by it, no solver run (60-110 s before)
for spec in torus:4x4 hypercube:4; do
    run timeout 30 "$TOTEX" plan $spec --algorithm exact
    if [ "$RC" -eq 0 ] && grep -q "^optimal        yes" "$TMP/out" && grep -q "0 solver calls" "$TMP/out"; then
        pass "plan $spec --algorithm exact: optimal by the bound, at once"
    else
        fail "plan $spec --algorithm exact: optimal by the bound, at once" "$(status_text)"
    fi
done

# --costly-budget: S_G of mesh:R x C = C^2 R (R^2 - 1) / 3 + R^2 C (C^2 - 1) / 3 (a path:m's distances sum
# to m (m^2 - 1) / 3; 000 Theorem 1 lifts them to the product)
sg=$(awk 'BEGIN { R = 4; C = 6; print C * C * R * (R * R - 1) / 3 + R * R * C * (C * C - 1) / 3 }')
run "$TOTEX" plan mesh:4x6 --exact-budget 0 --costly-budget $((sg - 1))
if [ "$RC" -eq 0 ] && grep -q "^choice *not tried:[a-z -]* greedy (.*S_G = $sg hops, above auto's budget of $((sg - 1))" "$TMP/out"; then
    pass "plan --costly-budget S_G - 1: greedy not tried, named with S_G"
else
    fail "plan --costly-budget S_G - 1: greedy not tried, named with S_G" "$(status_text): $(grep choice "$TMP/out")"
fi
run "$TOTEX" plan mesh:4x6 --exact-budget 0 --costly-budget "$sg"
if [ "$RC" -eq 0 ] && ! grep -q "not tried" "$TMP/out"; then
    pass "plan --costly-budget S_G: every costly candidate tried"
else
    fail "plan --costly-budget S_G: every costly candidate tried" "$(status_text): $(grep choice "$TMP/out")"
fi
# under k-port greedy is planned at once (one run, not a prediction and a second run, but replayed): 1.5 times
# the budget, B + floor(B / 2) (1226 + 613 < 1840 <= 1227 + 613)
lo=$(( (2 * sg) / 3 )); while [ $((lo + lo / 2)) -ge "$sg" ]; do lo=$((lo - 1)); done
run "$TOTEX" plan mesh:4x6 --ports k:2 --exact-budget 0 --costly-budget "$lo"
if [ "$RC" -eq 0 ] && grep -q "^choice *not tried:[a-z -]* greedy (" "$TMP/out"; then
    pass "plan k:2 --costly-budget $lo (1.5 x below S_G): greedy (planned at once) not tried"
else
    fail "plan k:2 --costly-budget $lo (1.5 x below S_G): greedy (planned at once) not tried" "$(status_text): $(grep choice "$TMP/out")"
fi
run "$TOTEX" plan mesh:4x6 --ports k:2 --exact-budget 0 --costly-budget $((lo + 1))
if [ "$RC" -eq 0 ] && ! grep -q "^choice *not tried:[a-z -]* greedy (" "$TMP/out"; then
    pass "plan k:2 --costly-budget $((lo + 1)) (1.5 x reaches S_G): greedy (planned at once) tried"
else
    fail "plan k:2 --costly-budget $((lo + 1)) (1.5 x reaches S_G): greedy (planned at once) tried" "$(status_text): $(grep choice "$TMP/out")"
fi
# pipeline (planned at once, cheaper a hop) takes 8 times the budget: mesh:5x6 multiport, S_G = 3190 by the
# formula; 8 x 398 < 3190 leaves it out (rounds, 53 steps), 8 x 399 tries it (45 steps, the cut bound)
sg56=$(awk 'BEGIN { R = 5; C = 6; print C * C * R * (R * R - 1) / 3 + R * R * C * (C * C - 1) / 3 }')
lo8=$(( (sg56 - 1) / 8 ))
run "$TOTEX" plan mesh:5x6 --ports multi --exact-budget 0 --costly-budget "$lo8"
if [ "$RC" -eq 0 ] && grep -q "^choice *not tried: pipeline" "$TMP/out" && ! grep -q "^algorithm *pipeline" "$TMP/out"; then
    pass "plan mesh:5x6 multi --costly-budget $lo8 (8 x below S_G): pipeline not tried"
else
    fail "plan mesh:5x6 multi --costly-budget $lo8 (8 x below S_G): pipeline not tried" "$(status_text): $(grep -E '^(algorithm|choice)' "$TMP/out")"
fi
run "$TOTEX" plan mesh:5x6 --ports multi --exact-budget 0 --costly-budget $((lo8 + 1))
if [ "$RC" -eq 0 ] && grep -q "^algorithm *pipeline" "$TMP/out"; then
    pass "plan mesh:5x6 multi --costly-budget $((lo8 + 1)) (8 x reaches S_G): pipeline tried and chosen"
else
    fail "plan mesh:5x6 multi --costly-budget $((lo8 + 1)) (8 x reaches S_G): pipeline tried and chosen" "$(status_text): $(grep -E '^(algorithm|choice)' "$TMP/out")"
fi
# balanced-greedy supersedes load-greedy and greedy above 2^23 hops where it applies (single-port meshes):
# mesh:20x34 has S_G = 8,310,960 (below: all tried), mesh:22x32 8,908,416 (above: both named, JSON too)
for rc_ in 20x34 22x32; do
    R=${rc_%x*}; C=${rc_#*x}
    s_g=$(awk -v R="$R" -v C="$C" 'BEGIN { printf "%d", C * C * R * (R * R - 1) / 3 + R * R * C * (C * C - 1) / 3 }')
    run "$TOTEX" plan "mesh:$rc_" --json
    sup=$(tr -d ' \n' < "$TMP/out" | grep -o '"candidates_superseded":\[[^]]*\]')
    if [ "$s_g" -gt 8388608 ]; then want='"candidates_superseded":["load-greedy","greedy"]'; else want='"candidates_superseded":[]'; fi
    if [ "$RC" -eq 0 ] && [ "$sup" = "$want" ] && grep -q '"algorithm":"balanced-greedy"' "$TMP/out"; then
        pass "plan mesh:$rc_ (S_G $s_g): $want"
    else
        fail "plan mesh:$rc_ (S_G $s_g): $want" "$(status_text): got $sup"
    fi
done
# ... only when balanced-greedy is itself within the budget: below it, nothing is superseded
run "$TOTEX" plan mesh:22x32 --json --costly-budget 1000
sup=$(tr -d ' \n' < "$TMP/out" | grep -o '"candidates_superseded":\[[^]]*\]')
if [ "$RC" -eq 0 ] && [ "$sup" = '"candidates_superseded":[]' ] && tr -d ' \n' < "$TMP/out" | grep -q '"candidates_not_tried":\[[^]]*"balanced-greedy"'; then
    pass "plan mesh:22x32 --costly-budget 1000: balanced-greedy not tried, so it supersedes nothing"
else
    fail "plan mesh:22x32 --costly-budget 1000: balanced-greedy not tried, so it supersedes nothing" "$(status_text): got $sup"
fi
expect_error "--costly-budget 0" "whole number of hops" "$TOTEX" plan mesh:4x6 --costly-budget 0
expect_error "--costly-budget 2^63" "whole number of hops" "$TOTEX" plan mesh:4x6 --costly-budget 9223372036854775808
expect_error "--costly-budget with --algorithm" "drop --algorithm" "$TOTEX" plan mesh:4x6 --algorithm a2 --costly-budget 5

echo "$CLI_NAME: $PASS passed, $FAIL failed"
if [ "$FAIL" -ne 0 ]; then
    echo "$CLI_NAME: $FAIL of $((PASS + FAIL)) checks FAILED:$FAILED"
    exit 1
fi
exit 0
