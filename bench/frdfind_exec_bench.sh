#!/usr/bin/env bash
# Whole-command benchmark of frdfind's actions against GNU find and bfs on the u-boot tree
# (tests/data/u-boot.tsv.gz, materialized in a temporary directory): `-exec echo {} +`
# (batches as large as find's), `-exec true {} \;` on the *.h files (a fork per file), and
# `-ls`. Interleaved rounds, medians, ratios from one run (bench/interleave.py). The outputs
# must agree (sorted) before the times mean anything. Then frdfind's worker counts on /usr
# and u-boot (what -j N buys, as frdfind.1 reports it), and output to a terminal (script(1):
# a write per result) against a pipe (256 KiB writes).
#
# Usage: bench/frdfind_exec_bench.sh [PATH/TO/frdfind] [RUNS]
#   defaults: build-release/examples/frdfind, 11 runs
set -euo pipefail
cd "$(dirname "$0")/.."
frdfind=$(realpath "${1:-build-release/examples/frdfind}")
runs=${2:-11}
export LC_ALL=C
[ -x "$frdfind" ] || { echo "no frdfind at $frdfind (build it first)" >&2; exit 1; }
command -v bfs >/dev/null || { apt-get update -qq >/dev/null && apt-get install -y -qq bfs >/dev/null; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/data/materialize-tree tests/data/u-boot.tsv.gz "$tmp/u-boot" >/dev/null
u=$tmp/u-boot

# Same words, same batch count: echo's lines split into one path each, sorted.
for tool in find "$frdfind" bfs; do
  "$tool" "$u" -exec echo {} + | tr ' ' '\n' | sort >"$tmp/words.$(basename "$tool")"
  "$tool" "$u" -exec echo {} + | wc -l >"$tmp/batches.$(basename "$tool")"
done
cmp -s "$tmp/words.find" "$tmp/words.frdfind" || { echo "frdfind -exec + differs from find's" >&2; exit 1; }
echo "batches: find $(cat "$tmp/batches.find"), frdfind $(cat "$tmp/batches.frdfind"), bfs $(cat "$tmp/batches.bfs")"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $runs interleaved rounds"
echo
echo "### -exec echo {} + on u-boot ($(find "$u" | wc -l) entries)"
{
  printf 'frdfind\t\t%s %s -exec echo {} +\n' "$frdfind" "$u"
  printf 'find\t\tfind %s -exec echo {} +\n' "$u"
  printf 'bfs\t\tbfs %s -exec echo {} +\n' "$u"
  printf 'frdfind -j1\t\t%s -j1 %s -exec echo {} +\n' "$frdfind" "$u"
} >"$tmp/plus.tsv"
python3 bench/interleave.py "$tmp/plus.tsv" "$runs" frdfind
echo
echo "### -name '*.h' -exec true {} \\; on u-boot ($(find "$u" -name '*.h' | wc -l) commands)"
{
  printf 'frdfind\t\t%s %s -name "*.h" -exec true {} ";"\n' "$frdfind" "$u"
  printf 'find\t\tfind %s -name "*.h" -exec true {} ";"\n' "$u"
  printf 'bfs\t\tbfs %s -name "*.h" -exec true {} ";"\n' "$u"
} >"$tmp/semi.tsv"
python3 bench/interleave.py "$tmp/semi.tsv" "$(( (runs + 1) / 2 ))" frdfind
echo
echo "### -ls on u-boot"
{
  printf 'frdfind\t\t%s %s -ls\n' "$frdfind" "$u"
  printf 'find\t\tfind %s -ls\n' "$u"
  printf 'bfs\t\tbfs %s -ls\n' "$u"
} >"$tmp/ls.tsv"
python3 bench/interleave.py "$tmp/ls.tsv" "$runs" frdfind
echo
echo "### worker counts (-j N), names only and with -printf '%s', /usr and u-boot"
: >"$tmp/j.tsv"
for tree in /usr "$u"; do
  name=$([ "$tree" = /usr ] && echo /usr || echo u-boot)
  for j in 1 2 4 8; do
    printf '%s -j%s\t\t%s -j%s %s\n' "$name" "$j" "$frdfind" "$j" "$tree" >>"$tmp/j.tsv"
    printf '%s -j%s -printf\t\t%s -j%s %s -printf "%%s\\n"\n' "$name" "$j" "$frdfind" "$j" \
      "$tree" >>"$tmp/j.tsv"
  done
done
python3 bench/interleave.py "$tmp/j.tsv" "$runs" "/usr -j1"
echo
echo "### results as they are found: a terminal (a write per line) against a pipe"
{
  printf 'pipe\t\t%s /usr | cat\n' "$frdfind"
  printf 'terminal\t\tscript -qec "%s /usr" /dev/null\n' "$frdfind"
  printf 'find terminal\t\tscript -qec "find /usr" /dev/null\n'
} >"$tmp/tty.tsv"
python3 bench/interleave.py "$tmp/tty.tsv" "$runs" pipe
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
