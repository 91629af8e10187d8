#!/bin/sh
# Every output written safely (issue 29 item 2): a file is written beside its
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

echo "$CLI_NAME: $PASS passed, $FAIL failed"
if [ "$FAIL" -ne 0 ]; then
    echo "$CLI_NAME: $FAIL of $((PASS + FAIL)) checks FAILED:$FAILED"
    exit 1
fi
exit 0
