#!/bin/sh
# bench/README.md names every file of bench/: each file below bench/ (but the
# README itself and Python caches) must appear in it as `PATH...` in
# backticks, PATH relative to bench/ (a row of its table, or the list of
# shared helpers), so that a reader finds what each benchmark prints.
# Usage: bench_readme_test.sh ROOT (the repository root). POSIX sh.
if [ $# -ne 1 ] || [ ! -f "$1/bench/README.md" ]; then
    echo "usage: $0 ROOT (a folder with bench/README.md)" >&2
    exit 2
fi
cd "$1/bench" || exit 2
missing=0
files=$(find . -type f ! -name README.md ! -path '*/__pycache__/*' ! -name '*.pyc' | sed 's|^\./||' | LC_ALL=C sort)
for f in $files; do
    if ! grep -qF "\`$f" README.md; then
        echo "bench_readme: bench/$f is not named in bench/README.md (add a row: what it prints, its baseline)"
        missing=$((missing + 1))
    fi
done
n=$(printf '%s\n' "$files" | grep -c .)
if [ "$missing" -ne 0 ]; then
    echo "bench_readme: $missing of $n files not named"
    exit 1
fi
echo "bench_readme: all $n files of bench/ named in bench/README.md"
