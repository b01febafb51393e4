#!/usr/bin/env bash
# Whole-command benchmark: `frddu -s` against GNU `du -s` and gdu (non-interactive, no
# progress) on one tree (default /usr), interleaved rounds, medians, ratios from one run
# (bench/interleave.py). Also frddu at one worker, to show what the parallel walk buys.
# gdu is installed with apt-get if missing.
#
# Usage: bench/frddu_bench.sh [PATH/TO/frddu] [RUNS] [TREE]
#   defaults: build-release/examples/frddu, 11 runs, /usr
set -euo pipefail
cd "$(dirname "$0")/.."
frddu=$(realpath "${1:-build-release/examples/frddu}")
runs=${2:-11}
tree=${3:-/usr}
[ -x "$frddu" ] || { echo "no frddu at $frddu (build it first)" >&2; exit 1; }
if ! command -v gdu >/dev/null; then
  echo "installing gdu" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq gdu >/dev/null
fi

# The totals must agree before the times mean anything.
want=$(du -s "$tree" | cut -f1)
got=$("$frddu" -s "$tree" | cut -f1)
[ "$want" = "$got" ] || { echo "frddu -s says $got, du -s says $want" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
q=$(printf '%q' "$tree")
{
  printf 'frddu -s\t\t%s -s %s\n' "$frddu" "$q"
  printf 'du -s\t\tdu -s %s\n' "$q"
  printf 'gdu -n -s -p\t\tgdu -n -s -p --no-prefix %s\n' "$q"
  printf 'frddu -s -j1\t\t%s -s -j1 %s\n' "$frddu" "$q"
} >"$tmp/cmds.tsv"

echo "frddu -s $tree: $(nproc) cores, $(uname -sr), $runs interleaved rounds after a warm-up"
python3 bench/interleave.py "$tmp/cmds.tsv" "$runs" "frddu -s"
