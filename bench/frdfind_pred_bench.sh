#!/usr/bin/env bash
# Benchmark of frdfind's metadata predicates and its UTF-8 matching, whole commands on /usr:
#  1. -newermt, -user and -perm expressions: frdfind against GNU find and bfs (the bar:
#     frdfind at least 1.3x faster in median wall time);
#  2. the cost of UTF-8 aware matching: frdfind -name/-iname/-path under LC_ALL=C.UTF-8
#     against LC_ALL=C (the bar: under 5% slower), at -j1 so the walk's noise is least;
#  3. names-only expressions stat nothing: statx calls of frdfind with -name, -regex,
#     -lname and -readable on /usr, counted with strace -f -c (0 expected beyond the root's).
# Tables 1-2 come from bench/interleave.py: one warm-up, then RUNS interleaved rounds in a
# rotated order, medians and ratios from this one run. Report the load average with them.
# Usage: bench/frdfind_pred_bench.sh [PATH/TO/frdfind] [RUNS] [TREE]
#   defaults: build-release/examples/frdfind, 11 runs, /usr
set -euo pipefail
cd "$(dirname "$0")/.."
frdfind=$(realpath "${1:-build-release/examples/frdfind}")
runs=${2:-11}
tree=${3:-/usr}
export LC_ALL=C
[ -x "$frdfind" ] || { echo "no frdfind at $frdfind (build it first)" >&2; exit 1; }
# bfs is a benchmark peer only, not a build or test dependency.
command -v bfs >/dev/null || FRD_EXTRA_PACKAGES="bfs" scripts/deps.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
q=$(printf '%q' "$tree")

echo "## frdfind predicates on $tree ($(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo
exprs=("-newermt 2024-01-01" "-user root -type f" "-perm -u=x -type f" "-perm /022" \
  "-newermt 2023-11-14 -user root -perm -444")
: >"$tmp/meta.tsv"
for e in "${exprs[@]}"; do
  for tool in frdfind find bfs; do
    cmd=$([ $tool = frdfind ] && echo "$frdfind" || echo $tool)
    printf '%s %s\t\t%s %s %s\n' "$tool" "$e" "$cmd" "$q" "$e" >>"$tmp/meta.tsv"
  done
done
# interleave.py gives ratios against one baseline: one table per expression.
for e in "${exprs[@]}"; do
  grep -F " $e	" "$tmp/meta.tsv" >"$tmp/one.tsv"
  python3 bench/interleave.py "$tmp/one.tsv" "$runs" "frdfind $e"
  echo
done

echo "## UTF-8 aware matching: LC_ALL=C.UTF-8 against LC_ALL=C, frdfind -j1 on $tree"
echo
for e in "-name 'lib*.so*'" "-iname '*read*'" "-path '*/share/*.gz'" "-regex '.*/lib[a-z]*\\.so.*'"; do
  printf 'C %s\t\tLC_ALL=C %s -j1 %s %s\nC.UTF-8 %s\t\tLC_ALL=C.UTF-8 %s -j1 %s %s\n' \
    "$e" "$frdfind" "$q" "$e" "$e" "$frdfind" "$q" "$e" >"$tmp/u8.tsv"
  python3 bench/interleave.py "$tmp/u8.tsv" "$runs" "C $e"
  echo
done

echo "## statx calls (strace -f -c) on $tree"
echo
if command -v strace >/dev/null && strace -f -c -o /dev/null true 2>/dev/null; then
  echo "| expression | statx calls |"
  echo "|---|---:|"
  for e in "-name '*.h'" "-regex '.*\\.h'" "-lname '*.so*'" "-readable -name '*.py'" \
    "-exclude -name share -name '*.h'" "-user root"; do
    eval "strace -f -c -e trace=statx -o \"$tmp/trace\" \"$frdfind\" $q $e" >/dev/null 2>&1 || true
    n=$(awk '$NF == "statx" { n = ($4 ~ /^[0-9]+$/) ? $4 : $5 } END { print n + 0 }' "$tmp/trace")
    echo "| \`$e\` | $n |"
  done
else
  echo "strace is missing or cannot trace here"
fi
