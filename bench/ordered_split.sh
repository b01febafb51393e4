#!/usr/bin/env bash
# Where the ordered mode's extra time comes from (issue 13): `frdfind -s TREE` against
# unordered `frdfind TREE` of one build, each at -j1 (one thread), at the default worker
# count, and at the default count with every thread on one CPU (taskset -c 0). The ratios
# split the ordered walk's extra CPU in two: what ordering costs on one thread (-j1), and
# what handing each listing from one CPU to another adds (default against pinned: the same
# threads and work, on one CPU or two). After a warm-up run of each command, RUNS rounds run
# every command once in a rotated order; medians of wall, CPU (user + system) and minor
# page faults (/usr/bin/time).
#
# Usage: bench/ordered_split.sh BUILD [RUNS] [TREE]
set -euo pipefail
f=$(realpath "$1")/examples/frdfind
runs=${2:-11}
tree=${3:-/usr}
export LC_ALL=C
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time; }
command -v taskset >/dev/null || { echo "taskset (util-linux) is needed" >&2; exit 1; }
q=$(printf '%q' "$tree")

python3 - "$runs" "$(dirname "$(realpath "$0")")" \
  "unordered -j1=$f -j1 $q" "ordered -j1=$f -j1 -s $q" \
  "unordered=$f $q" "ordered=$f -s $q" \
  "unordered, one CPU=taskset -c 0 $f $q" "ordered, one CPU=taskset -c 0 $f -s $q" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from timed_run import rotated_medians, run_counted  # bench/timed_run.py
runs = int(sys.argv[1])
cmds = [a.split("=", 1) for a in sys.argv[3:]]

load = open("/proc/loadavg").read().split()[:3]
med = rotated_medians([c for _, c in cmds], runs, run_counted)
by = {name: med[i] for i, (name, _) in enumerate(cmds)}
print("load average before: %s, after: %s; %d rotated rounds, medians"
      % (load, open("/proc/loadavg").read().split()[:3], runs))
print("| walk | wall s | CPU s | minor faults | ordered / unordered (wall, CPU) |")
print("|---|---:|---:|---:|---|")
for i, (name, _) in enumerate(cmds):
    w, c, _, flt = med[i]
    ratio = ""
    if name.startswith("ordered"):
        u = by["un" + name]
        ratio = "%.2f, %.2f" % (w / u[0], c / u[1])
    print("| %s | %.3f | %.3f | %d | %s |" % (name, w, c, flt, ratio))
for mode in ("unordered", "ordered"):
    print("%s: CPU at the default over -j1 %.2f; over the same threads on one CPU %.2f"
          % (mode, by[mode][1] / by[mode + " -j1"][1], by[mode][1] / by[mode + ", one CPU"][1]))
PY
