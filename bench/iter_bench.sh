#!/usr/bin/env bash
# What the pull iterator costs: a walk of ROOT (default /usr) with callbacks against the
# same walk pulled through frd_walk_iter_*(), names only and with every metadata field,
# both modes, interleaved rounds, medians and ratios (issue 36's target: within 1.05x).
# Usage: bench/iter_bench.sh BUILD_DIR [ROOT] [RUNS]
set -euo pipefail
build=${1:?usage: iter_bench.sh BUILD_DIR [ROOT] [RUNS]}
root=${2:-/usr}
runs=${3:-11}
bin="$build/bench/iter_walk"
here=$(cd "$(dirname "$0")" && pwd)
tsv=$(mktemp)
trap 'rm -f "$tsv"' EXIT
for mode in "" "-o"; do
  for fields in "-n" ""; do
    a=$("$bin" $mode $fields "$root")
    b=$("$bin" -i $mode $fields "$root")
    [ "$a" = "$b" ] || { echo "iter_bench: callbacks ($a) and iterator ($b) differ" >&2; exit 1; }
  done
done
{
  printf 'callback names\t\t%s -n %s\n' "$bin" "$root"
  printf 'iter names\t\t%s -i -n %s\n' "$bin" "$root"
  printf 'callback full\t\t%s %s\n' "$bin" "$root"
  printf 'iter full\t\t%s -i %s\n' "$bin" "$root"
  printf 'callback ordered full\t\t%s -o %s\n' "$bin" "$root"
  printf 'iter ordered full\t\t%s -i -o %s\n' "$bin" "$root"
} >"$tsv"
python3 "$here/interleave.py" "$tsv" "$runs" "callback full"
