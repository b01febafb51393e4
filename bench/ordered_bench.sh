#!/usr/bin/env bash
# The ordered mode's bars (issues 13 and 16): `frdfind -s` against unordered `frdfind` of the
# same build, on /usr and on one directory of N empty files (made by bench/make_huge_dir.sh,
# kept in $TMPDIR), names only and with `-printf '%s\n'`; optionally the same for
# a base build (say, main's). After a warm-up run of each command, RUNS rounds run every
# command once in a rotated order; the table gives the median wall time, CPU (user +
# system) and peak RSS (/usr/bin/time's %M), and each ordered row's wall time over the
# unordered row of the same build, tree and fields (the bar: at most 1.15 on /usr names
# only, 1.3 on the huge directory; RSS under 16 MiB on /usr, 64 MiB on the huge directory).
#
# Usage: bench/ordered_bench.sh NEW_BUILD [BASE_BUILD] [RUNS] [N]
set -euo pipefail
new=$(realpath "$1")
base=${2:+$(realpath "$2")}
runs=${3:-7}
n=${4:-1000000}
export LC_ALL=C
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time; }
dir=$("$(dirname "$0")/make_huge_dir.sh" "$n")

cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT
q=$(printf '%q' "$dir")
{
  for b in new ${base:+base}; do
    f=$([ "$b" = new ] && echo "$new" || echo "$base")/examples/frdfind
    for tree in /usr "$q"; do
      t=$([ "$tree" = /usr ] && echo usr || echo huge)
      printf '%s\t%s names\t\t%s %s\n' "$b" "$t" "$f" "$tree"
      printf '%s\t%s names\t-s\t%s -s %s\n' "$b" "$t" "$f" "$tree"
      printf "%s\t%s meta\t\t%s %s -printf '%%s\\\\n'\n" "$b" "$t" "$f" "$tree"
      printf "%s\t%s meta\t-s\t%s -s %s -printf '%%s\\\\n'\n" "$b" "$t" "$f" "$tree"
    done
  done
} >"$cmds"

python3 - "$cmds" "$runs" "$(dirname "$(realpath "$0")")" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from timed_run import rotated_medians  # bench/timed_run.py
cmds = [l.rstrip("\n").split("\t", 3) for l in open(sys.argv[1])]
runs = int(sys.argv[2])

load = open("/proc/loadavg").read().split()[:3]
med = rotated_medians([c[3] for c in cmds], runs)
print("load average before: %s, after: %s" % (load, open("/proc/loadavg").read().split()[:3]))
print("| build | tree, fields | mode | wall s | CPU s | peak RSS MiB | wall / unordered |")
print("|---|---|---|---:|---:|---:|---:|")
for i, (b, what, mode, _) in enumerate(cmds):
    w, c, m = med[i]
    ratio = ""
    if mode:
        ratio = "%.2f" % (w / med[i - 1][0])  # the unordered row just above
    print("| %s | %s | %s | %.3f | %.3f | %.1f | %s |" % (b, what, mode or "unordered", w, c, m,
                                                          ratio))
PY
