#!/bin/sh
# Runs an MPI test (mpiexec ...) and fails it when it stops making progress,
# not when it is slow: a hang is no new output line for STALL seconds. The
# test prints a line per case (test_unit_exec: one per communicator and
# algorithm, at most 7 s apart in 26 runs under MPICH on 4 ranks on 2 loaded
# cores, where a whole run took 37 to 196 s: each blocking round trip costs a
# time slice when busy-polling ranks outnumber the cores). On a
# stall it prints the last lines and, when gdb is installed, every
# process's stack (mpiexec's descendants: the ranks), then stops the run.
#
#   progress_test.sh STALL COMMAND [ARGS...]
#
# Exit status: the command's, or 1 on a stall. POSIX sh.
set -u
stall=$1
shift
case $stall in
    ''|*[!0-9]*) echo "progress_test: STALL must be a number of seconds" >&2; exit 2 ;;
esac
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1 &
pid=$!
size=-1 idle=0 shown=0
# descendants of process $1, deepest last
tree() {
    for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        echo "$c"
        tree "$c"
    done
}
while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    now=$(wc -c <"$out")
    if [ "$now" != "$size" ]; then
        size=$now idle=0
        # pass the new lines on as they come (CTest shows them on failure)
        tail -c +"$((shown + 1))" "$out" | head -c "$((now - shown))"
        shown=$now
        continue
    fi
    idle=$((idle + 1))
    if [ "$idle" -ge "$stall" ]; then
        echo "progress_test: STALL: no output for $stall s: $*" >&2
        procs=$(tree "$pid")
        if command -v gdb >/dev/null 2>&1; then
            for p in $procs; do
                echo "progress_test: stack of $(ps -o pid=,args= -p "$p" 2>/dev/null)" >&2
                gdb -p "$p" -batch -ex 'thread apply all bt' 2>/dev/null | grep '^#' >&2
            done
        fi
        kill "$pid" 2>/dev/null
        sleep 2
        for p in $procs; do kill -9 "$p" 2>/dev/null; done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        exit 1
    fi
done
wait "$pid"
rc=$?
now=$(wc -c <"$out")
tail -c +"$((shown + 1))" "$out"
exit $rc
