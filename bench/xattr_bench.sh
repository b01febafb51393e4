#!/usr/bin/env bash
# What FRD_WALK_XATTRS costs: a walk of ROOT (default /usr) with every metadata field against
# the same walk with extended attributes too, interleaved rounds, medians and their ratio
# (issue 36's target: at most 1.5x). Usage: bench/xattr_bench.sh BUILD_DIR [ROOT] [RUNS]
set -euo pipefail
build=${1:?usage: xattr_bench.sh BUILD_DIR [ROOT] [RUNS]}
root=${2:-/usr}
runs=${3:-11}
bin="$build/bench/xattr_walk"
here=$(cd "$(dirname "$0")" && pwd)
tsv=$(mktemp)
trap 'rm -f "$tsv"' EXIT
"$bin" "$root"
"$bin" -x "$root"
printf 'fields\t\t%s %s\nfields+xattrs\t\t%s -x %s\n' "$bin" "$root" "$bin" "$root" >"$tsv"
python3 "$here/interleave.py" "$tsv" "$runs" fields
