#!/usr/bin/env bash
# Deep trees: a chain of directories DEPTH levels deep with one file at each level (paths far
# past PATH_MAX), walked by frddu -s against du -s, and by frdfind and frdcount against find,
# at several depths, so a cost that grows with the square of the depth shows as a ratio that
# grows with it (issue 34: at 40,000 levels frddu -s once took 27.7 s and 1.58 GB against
# du's 0.68 s). Interleaved rounds, medians, ratios from one run (bench/interleave.py); peak
# RSS from one more run of each command (GNU time).
#
# Usage: bench/deep_chain_bench.sh [BUILD_DIR] [RUNS] [DEPTH...]
#   defaults: build-release, 5 runs, depths 10000 20000 40000
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build-release}")
runs=${2:-5}
shift $(($# < 2 ? $# : 2))
depths=("$@")
[ ${#depths[@]} -gt 0 ] || depths=(10000 20000 40000)
ex=$build/examples
for t in frddu frdfind frdcount; do
  [ -x "$ex/$t" ] || { echo "no $t in $ex (build it first)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for depth in "${depths[@]}"; do
  # The chain, made by descriptor (a path this long cannot be given to mkdir).
  python3 - "$tmp/c$depth" "$depth" <<'PY'
import os, sys
root, depth = sys.argv[1], int(sys.argv[2])
os.mkdir(root)
fd = os.open(root, os.O_RDONLY)
for level in range(depth):
    os.close(os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    if level < depth - 1:
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
os.close(fd)
PY
  c=$tmp/c$depth
  echo "## chain $depth levels deep ($((2 * depth)) entries)"
  echo
  # du and frddu without -s print every directory: output the square of the depth in bytes,
  # so each line must cost its length, not a walk up its ancestors as well.
  printf 'du -s\t\tdu -s %s\nfrddu -s\t\t%s -s %s\ndu\t\tdu %s\nfrddu\t\t%s %s\n' \
    "$c" "$ex/frddu" "$c" "$c" "$ex/frddu" "$c" >"$tmp/du.tsv"
  python3 bench/interleave.py "$tmp/du.tsv" "$runs" "du -s"
  echo
  printf 'find\t\tfind %s -printf .\nfrdfind\t\t%s %s -printf .\nfrdfind -s\t\t%s -s %s -printf .\nfrdcount\t\t%s %s\n' \
    "$c" "$ex/frdfind" "$c" "$ex/frdfind" "$c" "$ex/frdcount" "$c" >"$tmp/find.tsv"
  python3 bench/interleave.py "$tmp/find.tsv" "$runs" "find"
  echo
  echo "| command | peak RSS (MB) |"
  echo "|---|---:|"
  while IFS= read -r line; do
    label=${line%%$'\t'*} cmd=${line##*$'\t'}
    /usr/bin/time -f '%M' -o "$tmp/rss" sh -c "exec $cmd >/dev/null 2>&1"
    kb=$(tail -1 "$tmp/rss")
    echo "| $label | $(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }') |"
  done < <(cat "$tmp/du.tsv" "$tmp/find.tsv")
  echo
  rm -rf "$c"
done
