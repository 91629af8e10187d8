#!/bin/sh
# Every output written safely: a file is written beside its
# path and renamed on success, so a failed write leaves the path as it was
# (an existing file, a symlink, no file at all); every stream, standard
# output included, is checked: a failed write is exit 2 with "cannot write
# output: REASON"; an output that is an input or another output is refused
# before anything runs; "-" means standard output.
# Usage: cli_output_test.sh PATH_TO_totex PATH_TO_tests/data
# POSIX sh.
CLI_NAME=cli_output
. "$(dirname "$0")/cli_lib.sh"
case $TOTEX in /*) ;; *) TOTEX=$(pwd)/$TOTEX ;; esac # some checks run from $TMP

# 1. a symlink to /dev/full: the write fails (exit 2, the reason), the link stays a link
if [ -w /dev/full ] && ln -s /dev/full "$TMP/f.json"; then
    expect_status 2 "plan --schedule through a link to /dev/full" "cannot write output" "$TOTEX" plan torus:4x4 --schedule "$TMP/f.json"
    [ -L "$TMP/f.json" ] && pass "the link to /dev/full is still a link" || fail "the link to /dev/full is still a link" "removed"
    grep -q -F "No space left" "$TMP/err" && pass "the reason is named" || fail "the reason is named" "$(cat "$TMP/err")"
    # standard output on a full device, for a text and a JSON report
    run sh -c "\"$TOTEX\" plan torus:4x4 --json >/dev/full"
    [ "$RC" -eq 2 ] && grep -q "cannot write output: standard output" "$TMP/err" && pass "plan --json >/dev/full: exit 2" ||
        fail "plan --json >/dev/full: exit 2" "$(status_text)"
    run sh -c "\"$TOTEX\" machines >/dev/full"
    [ "$RC" -eq 2 ] && pass "machines >/dev/full: exit 2" || fail "machines >/dev/full: exit 2" "$(status_text)"
    # reproduce --output to a full device: exit 2, no "report in" line
    run "$TOTEX" reproduce --output /dev/full
    if [ "$RC" -eq 2 ] && ! grep -q "report in" "$TMP/out" && grep -q "cannot write output" "$TMP/err"; then
        pass "reproduce --output /dev/full: exit 2"
    else
        fail "reproduce --output /dev/full: exit 2" "$(status_text)" "$TOTEX" reproduce --output /dev/full
    fi
else
    echo "skip /dev/full checks: no writable /dev/full or no ln -s"
fi

# 2. standard output closed
run sh -c "\"$TOTEX\" plan torus:4x4 >&-"
[ "$RC" -eq 2 ] && grep -q "cannot write output: standard output" "$TMP/err" && pass "plan with stdout closed: exit 2" ||
    fail "plan with stdout closed: exit 2" "$(status_text)"
# ... and a file written meanwhile does not land on descriptor 1
run sh -c "\"$TOTEX\" plan ring:4 --schedule \"$TMP/closed.json\" >&-"
if [ "$RC" -eq 2 ] && head -c 1 "$TMP/closed.json" | grep -q '{' && ! grep -q "^network" "$TMP/closed.json"; then
    pass "stdout closed: the schedule file holds the schedule only"
else
    fail "stdout closed: the schedule file holds the schedule only" "$(status_text)"
fi

# 3. a file-size limit: the existing file is left as it was, no temporary file is left behind
printf 'precious\n' > "$TMP/keep.json"
run sh -c "ulimit -f 1; \"$TOTEX\" plan torus:8x8 --format full --schedule \"$TMP/keep.json\""
if [ "$RC" -eq 2 ] && [ "$(cat "$TMP/keep.json")" = precious ] && grep -q "cannot write output" "$TMP/err"; then
    pass "ulimit -f: the existing schedule file is kept"
else
    fail "ulimit -f: the existing schedule file is kept" "$(status_text), file: $(head -c 40 "$TMP/keep.json")"
fi
# no file at all before: none after
run sh -c "ulimit -f 1; \"$TOTEX\" plan mesh:6x6 --model combining --schedule \"$TMP/cut.json\""
if [ "$RC" -eq 2 ] && [ ! -e "$TMP/cut.json" ]; then
    pass "ulimit -f: no cut-off combining schedule"
else
    fail "ulimit -f: no cut-off combining schedule" "$(status_text), exists: $([ -e "$TMP/cut.json" ] && echo yes)"
fi
run sh -c "ulimit -f 1; \"$TOTEX\" plan torus:8x8 --ports multi --format msccl --schedule \"$TMP/keep.json\""
[ "$RC" -eq 2 ] && [ "$(cat "$TMP/keep.json")" = precious ] && pass "ulimit -f: MSCCL over an existing file" ||
    fail "ulimit -f: MSCCL over an existing file" "$(status_text)"
if ls -a "$TMP" | grep -q 'totex-'; then
    fail "no temporary file left behind" "$(ls -a "$TMP")"
else
    pass "no temporary file left behind"
fi

# 4. the heat map cannot be written: the main picture is not left behind either
mkdir "$TMP/pic-heatmap.png"
expect_status 2 "heat map unwritable" "cannot write output" "$TOTEX" plan mesh:3x3 --picture "$TMP/pic.png"
[ ! -e "$TMP/pic.png" ] && pass "no main picture without its heat map" || fail "no main picture without its heat map" "pic.png exists"
expect_ok "picture and heat map" "$TOTEX" plan mesh:3x3 --picture "$TMP/pic2.png" &&
    { [ -s "$TMP/pic2.png" ] && [ -s "$TMP/pic2-heatmap.png" ] && pass "picture and heat map written" ||
        fail "picture and heat map written" "missing"; }

# 5. an output that is an input or another output: refused before anything runs
cp "$DATA/greedy_petersen.edges" "$TMP/g.edges"
cp "$TMP/g.edges" "$TMP/g.orig"
expect_status 2 "--schedule over the graph file read" "graph file" "$TOTEX" plan "file:$TMP/g.edges" --schedule "$TMP/g.edges"
cmp -s "$TMP/g.edges" "$TMP/g.orig" && pass "the graph file is untouched" || fail "the graph file is untouched" "changed"
expect_status 2 "--schedule over the graph file (combining)" "graph file" "$TOTEX" plan "file:$TMP/g.edges" --model combining --schedule "$TMP/g.edges"
expect_status 2 "--schedule P --picture P" "same file" "$TOTEX" plan torus:4x4 --schedule "$TMP/P.svg" --picture "$TMP/P.svg"
[ ! -e "$TMP/P.svg" ] && pass "nothing written for P" || fail "nothing written for P" "P.svg exists"
ln -s "$TMP/g.edges" "$TMP/link.png"
expect_status 2 "--picture through a link to the graph read" "graph file" "$TOTEX" compare "file:$TMP/g.edges" --picture "$TMP/link.png"
cmp -s "$TMP/g.edges" "$TMP/g.orig" && pass "the graph file is still untouched" || fail "the graph file is still untouched" "changed"

# 6. "-" is standard output; no file named "-"
here=$(pwd)
cd "$TMP" || exit 2
run "$TOTEX" plan ring:4 --schedule -
cd "$here" || exit 2
if [ "$RC" -eq 0 ] && head -c 40 "$TMP/out" | grep -q totex-unit-schedule && grep -q "^network" "$TMP/err" && [ ! -e "$TMP/-" ]; then
    pass "--schedule -: the schedule on stdout, the report on stderr"
else
    fail "--schedule -: the schedule on stdout, the report on stderr" "$(status_text)"
fi
( cd "$TMP" && "$TOTEX" plan ring:5 --schedule - 2>/dev/null > "$TMP/via_stdout.json" )
expect_ok "verify what --schedule - wrote" "$TOTEX" verify "$TMP/via_stdout.json" && pass "verify what --schedule - wrote"

# 7. a dangling symlink is refused clearly, left as it is
ln -s "$TMP/nowhere/x.json" "$TMP/dangling.json"
expect_status 2 "a dangling symlink" "symbolic link" "$TOTEX" plan ring:4 --schedule "$TMP/dangling.json"
[ -L "$TMP/dangling.json" ] && pass "the dangling link is kept" || fail "the dangling link is kept" "removed"

# 8. a link to a regular file: the file is replaced, the link stays a link
printf 'old\n' > "$TMP/target.json"
ln -s "$TMP/target.json" "$TMP/via.json"
expect_ok "write through a link" "$TOTEX" plan ring:4 --schedule "$TMP/via.json"
if [ -L "$TMP/via.json" ] && grep -q totex-unit-schedule "$TMP/target.json"; then
    pass "the link's target holds the schedule, the link stays"
else
    fail "the link's target holds the schedule, the link stays" "not so"
fi

# 9. every file written is named on a line "wrote FILE": on standard output after a text
#    report, on standard error when standard output carries JSON (which stays valid) or the schedule;
#    each line names a file that exists, and each file written has its line
# wrote_lines NAME STREAM FILE...: STREAM ($TMP/out or $TMP/err) holds exactly these "wrote" lines, in
# this order, each FILE exists and is not empty; the other stream has none
wrote_lines() {
    wname=$1 wstream=$2
    shift 2
    want=""
    for f in "$@"; do
        [ -s "$f" ] || { fail "$wname" "$f was not written"; return; }
        want="${want}wrote $f
"
    done
    other=$TMP/out
    [ "$wstream" = "$TMP/out" ] && other=$TMP/err
    got=$(grep '^wrote ' "$wstream")
    if [ "$RC" -ne 0 ]; then
        fail "$wname" "exit $(status_text)"
    elif [ "$got" != "$(printf '%s' "$want")" ]; then
        fail "$wname" "expected the lines: $(printf '%s' "$want" | tr '\n' '|'), got: $(printf '%s' "$got" | tr '\n' '|')"
    elif grep -q '^wrote ' "$other"; then
        fail "$wname" "a 'wrote' line on the other stream"
    else
        pass "$wname"
    fi
}
rm -f "$TMP"/w*
run "$TOTEX" plan mesh:4x4 --picture "$TMP/w.png" --schedule "$TMP/w.json"
wrote_lines "plan: wrote the picture, its heat map and the schedule (stdout)" "$TMP/out" "$TMP/w.png" "$TMP/w-heatmap.png" "$TMP/w.json"
grep -q '^steps ' "$TMP/out" || fail "plan: the report before the wrote lines" "no report"
run "$TOTEX" plan ring:5 --picture "$TMP/w1.svg" --json
wrote_lines "plan --json: wrote on stderr (1-D: no heat map)" "$TMP/err" "$TMP/w1.svg"
[ ! -e "$TMP/w1-heatmap.svg" ] || fail "plan ring:5: no heat map on a 1-D network" "one was written"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" && pass "plan --picture --json: stdout is JSON" ||
        fail "plan --picture --json: stdout is JSON" "not valid"
fi
run "$TOTEX" plan ring:4 --schedule - --picture "$TMP/w2.png"
wrote_lines "plan --schedule -: wrote on stderr, none for -" "$TMP/err" "$TMP/w2.png"
head -c 1 "$TMP/out" | grep -q '{' && ! grep -q '^wrote' "$TMP/out" && pass "plan --schedule -: stdout holds the schedule only" ||
    fail "plan --schedule -: stdout holds the schedule only" "not so"
run "$TOTEX" compare ring:4 --picture "$TMP/w3.png"
wrote_lines "compare --picture: wrote" "$TMP/out" "$TMP/w3.png"
run "$TOTEX" compare ring:4 --picture "$TMP/w4.png" --json
wrote_lines "compare --picture --json: wrote on stderr" "$TMP/err" "$TMP/w4.png"
run "$TOTEX" plan mesh:4x4 --model combining --schedule "$TMP/w5.json"
wrote_lines "plan --model combining --schedule: wrote" "$TMP/out" "$TMP/w5.json"
run "$TOTEX" plan mesh:4x4 --model combining --schedule "$TMP/w6.json" --json
wrote_lines "plan --model combining --schedule --json: wrote on stderr" "$TMP/err" "$TMP/w6.json"
run "$TOTEX" compare mesh:4x4 --model combining --sweep --picture "$TMP/w7.svg"
wrote_lines "compare --model combining --sweep --picture: wrote" "$TMP/out" "$TMP/w7.svg"
mkdir -p "$TMP/wr"
run "$TOTEX" reproduce --output "$TMP/wr/r.md"
wrote_lines "reproduce --output: wrote the pictures and the report" "$TMP/out" "$TMP/wr/fig-003-2-path6.png" \
    "$TMP/wr/fig-003-3a-ring7.png" "$TMP/wr/fig-003-3b-ring6.png" "$TMP/wr/fig-001-torus4x4.png" \
    "$TMP/wr/fig-001-torus4x4-heatmap.png" "$TMP/wr/compare-tpu-v4-cube.png" "$TMP/wr/r.md"
# no file goes unnamed: every file of the directory has its line
for f in "$TMP"/wr/*; do
    grep -q -x -F "wrote $f" "$TMP/out" || fail "reproduce: $f written without a 'wrote' line" "missing"
done

echo "$CLI_NAME: $PASS passed, $FAIL failed"
if [ "$FAIL" -ne 0 ]; then
    echo "$CLI_NAME: $FAIL of $((PASS + FAIL)) checks FAILED:$FAILED"
    exit 1
fi
exit 0
