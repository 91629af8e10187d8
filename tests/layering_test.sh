#!/bin/sh
# The one direction of data (docs/architecture.md): the graph of src/'s folders has no cycle, so no two
# folders use each other and no circle of files crosses a folder (a circle of files through two folders
# would be a cycle of the folders). Its edges, A -> B where a file of folder A
#  - includes a header of folder B (#include "x" resolved against the file's folder, then src/), or
#  - calls or reads a symbol that an object file of folder B defines (nm of BUILD_DIR's object files:
#    the call graph, which goes through the public headers of include/ as well).
# Fails naming the folders of a cycle and one include or symbol of each of its edges.
# usage: layering_test.sh SOURCE_DIR BUILD_DIR
set -eu
src_dir=$(cd "${1:-.}" && pwd)
build_dir=$(cd "${2:-build}" && pwd)
cd "$src_dir"
objects=$(find "$build_dir/CMakeFiles" -path '*.dir/src/*' -name '*.o' | sort)
[ -n "$objects" ] || { echo "layering: no object files under $build_dir/CMakeFiles: build first" >&2; exit 1; }
symbol_edges=$(for o in $objects; do
    f=src/$(echo "$o" | sed 's|.*\.dir/src/||; s|\.o$||')
    nm "$o" | awk -v f="$f" '$1 == "U" {print "U", f, $2} $2 ~ /^[TDBRCV]$/ {print "D", f, $3}'
done | awk '$1 == "D" {def[$3] = $2; next} {use[++n] = $2 " " $3}
    END {for (i = 1; i <= n; i++) {split(use[i], a, " "); if (a[2] in def) print a[1], def[a[2]], a[2]}}')
include_edges=$(find src -name '*.[ch]' | sort | while read -r f; do
    d=$(dirname "$f")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
        if [ -f "$d/$inc" ]; then t=$(realpath -m --relative-to=. "$d/$inc")
        elif [ -f "src/$inc" ]; then t=$(realpath -m --relative-to=. "src/$inc")
        else continue; fi
        echo "$f $t"
    done
done)
[ -n "$include_edges" ] || { echo "layering: no includes found under $src_dir/src" >&2; exit 1; }
[ -n "$symbol_edges" ] || { echo "layering: no symbols used across object files of $build_dir" >&2; exit 1; }
printf '%s\n%s\n' "$include_edges" "$symbol_edges" | awk '
function folder(p,  a) { split(p, a, "/"); return a[3] == "" ? "." : a[2] }
function dfs(u,  v, i, k) {
    colour[u] = 1; path[++depth] = u
    for (k = 1; k <= nout[u]; k++) {
        v = out[u, k]
        if (colour[v] == 1) {
            msg = "layering: the folders of src/ form a cycle:"
            for (i = depth; i >= 1 && path[i] != v; i--) ;
            for (; i <= depth; i++) msg = msg " " path[i] " ->"
            msg = msg " " v
            print msg > "/dev/stderr"
            found = 1
            return
        }
        if (!colour[v]) { dfs(v); if (found) return }
    }
    colour[u] = 2; depth--
}
{
    a = folder($1); b = folder($2)
    if (a == b) next
    if (!((a, b) in seen)) {
        seen[a, b] = $1 ($3 == "" ? " includes " $2 : " uses " $3 " of " $2)
        out[a, ++nout[a]] = b; nodes[a]; nodes[b]
    }
}
END {
    for (u in nodes) if (!colour[u] && !found) dfs(u)
    if (found) {
        for (e in seen) { split(e, p, SUBSEP); if (colour[p[1]] == 1 && colour[p[2]] == 1) print "  " seen[e] > "/dev/stderr" }
        exit 1
    }
    n = 0; for (e in seen) n++
    printf "layering: %d folder-to-folder edges (includes and symbols), no cycle\n", n
}'
