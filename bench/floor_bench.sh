#!/usr/bin/env bash
# frdfind against the syscall floor (issue 34): bench/floor_walk, two threads that do nothing
# but openat, getdents64 and close (and a statx per entry with -s), walks each TREE as
# frdfind does, and frdfind's wall and CPU time are given as ratios of the floor's, names
# only (`frdfind TREE` printing every path, against `floor_walk -t 2 -p TREE`) and with
# metadata (`frdfind TREE -size +1000000k`, a statx per entry and next to nothing printed,
# against `floor_walk -t 2 -s TREE`). A second build's frdfind (BASE_BUILD) is timed in the
# same rounds when given. Interleaved rounds, medians (bench/interleave.py).
#
# Usage: bench/floor_bench.sh [BUILD_DIR] [RUNS] [BASE_BUILD|-] [TREE...]
#   defaults: build-release, 21 runs, no base build, /usr
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build-release}")
runs=${2:-21}
base=${3:--}
shift $(($# < 3 ? $# : 3))
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=(/usr)
floor=$build/bench/floor_walk
find_new=$build/examples/frdfind
for bin in "$floor" "$find_new"; do
  [ -x "$bin" ] || { echo "floor_bench: no $bin (build it first)" >&2; exit 1; }
done
if [ "$base" != - ]; then
  base=$(realpath "$base")
  [ -x "$base/examples/frdfind" ] || { echo "floor_bench: no $base/examples/frdfind" >&2; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "floor_bench: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -sr), $runs interleaved rounds after a warm-up"
for tree in "${trees[@]}"; do
  # The floor walks what frdfind walks: the same paths, in some order.
  if ! cmp -s <("$floor" -t 2 -p "$tree" | sort) <("$find_new" "$tree" | sort); then
    echo "floor_bench: floor_walk and frdfind list $tree differently" >&2
    exit 1
  fi
  {
    printf 'floor names\t\t%s -t 2 -p %s\n' "$floor" "$tree"
    printf 'frdfind names\t\t%s %s\n' "$find_new" "$tree"
    [ "$base" = - ] || printf 'base frdfind names\t\t%s %s\n' "$base/examples/frdfind" "$tree"
  } >"$tmp/names.tsv"
  {
    printf 'floor statx\t\t%s -t 2 -s %s\n' "$floor" "$tree"
    printf 'frdfind -size\t\t%s %s -size +1000000k\n' "$find_new" "$tree"
    [ "$base" = - ] || printf 'base frdfind -size\t\t%s %s -size +1000000k\n' "$base/examples/frdfind" "$tree"
  } >"$tmp/stat.tsv"
  echo
  echo "### $tree ($("$floor" -t 2 "$tree") entries): names"
  python3 bench/interleave.py "$tmp/names.tsv" "$runs" "floor names"
  echo
  echo "### $tree: metadata"
  python3 bench/interleave.py "$tmp/stat.tsv" "$runs" "floor statx"
done
