#!/usr/bin/env bash
# Whole-command benchmark: `frdindex update` of a tree (default /usr) from an empty database
# and with nothing changed, against a fresh `updatedb` from plocate (every prune list
# emptied, visibility checks off, its own output file, removed before each run so it cannot
# reuse an old database), interleaved rounds, medians, ratios from one run
# (bench/interleave.py). frdcount (the bare parallel walk with a stat per entry) is the
# floor any update that must stat every entry pays. plocate is installed with apt-get if
# missing.
#
# Usage: bench/frdindex_bench.sh [BUILD_DIR] [RUNS] [TREE]
#   defaults: build-release, 11 runs, /usr
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build-release}")
runs=${2:-11}
tree=${3:-/usr}
frdindex=$build/examples/frdindex
frdcount=$build/examples/frdcount
[ -x "$frdindex" ] || { echo "no frdindex in $build/examples (build it first)" >&2; exit 1; }
if ! command -v updatedb.plocate >/dev/null && ! command -v updatedb >/dev/null; then
  echo "installing plocate" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq plocate >/dev/null
fi
updatedb=$(command -v updatedb.plocate || command -v updatedb)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
q=$(printf '%q' "$tree")
"$frdindex" update -q "$tmp/unchanged.db" "$tree"
{
  printf 'frdindex update (empty db)\trm -f %s/empty.db*\t%s update -q %s/empty.db %s\n' \
    "$tmp" "$frdindex" "$tmp" "$q"
  printf 'frdindex update (unchanged)\t\t%s update -q %s/unchanged.db %s\n' \
    "$frdindex" "$tmp" "$q"
  printf 'updatedb (fresh)\trm -f %s/plocate.db\t%s -U %s -o %s/plocate.db --prunepaths= --prunefs= --prunenames= --prune-bind-mounts=no -l no\n' \
    "$tmp" "$updatedb" "$q" "$tmp"
  [ -x "$frdcount" ] && printf 'frdcount (walk + stat only)\t\t%s %s\n' "$frdcount" "$q"
} >"$tmp/cmds.tsv"

echo "frdindex update $tree: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -sr), SQLite $(sqlite3 --version | cut -d' ' -f1), $runs interleaved rounds after a warm-up"
# The ratio column is against updatedb: the bar for an unchanged tree is at most 0.5.
python3 bench/interleave.py "$tmp/cmds.tsv" "$runs" "updatedb (fresh)"
echo
echo "entries: $("$frdindex" find -c "$tmp/unchanged.db" '*'); database: $(du -h "$tmp/unchanged.db" | cut -f1); plocate.db: $(du -h "$tmp/plocate.db" 2>/dev/null | cut -f1)"
