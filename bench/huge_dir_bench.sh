#!/usr/bin/env bash
# One huge directory (issue 16): frdfind against the previous build of frdfind, fd, bfs,
# GNU find, and the floor of one and of two threads sharing getdents64 + statx and keeping
# nothing (bench/floor_onedir.c), on a directory of N empty files that the script makes
# (default 1,000,000, kept in $TMPDIR between runs). Rows: with metadata (-printf '%s\n'),
# names only, ordered (-s) with and without metadata, -exclude (the children hook), and
# frdls. After a warm-up run of each command, RUNS rounds run every command once in a
# rotated order; the table gives the median wall time, median CPU (user + system) and
# median peak RSS (/usr/bin/time's %M), and each row's wall time over the new frdfind's
# with metadata.
#
# Usage: bench/huge_dir_bench.sh NEW_BUILD [BASE_BUILD] [RUNS] [N]
#   NEW_BUILD, BASE_BUILD: build directories holding examples/frdfind, examples/frdls and
#   (NEW_BUILD) bench/floor_onedir; BASE_BUILD is optional (say, main's build).
set -euo pipefail
new=$(realpath "$1")
base=${2:+$(realpath "$2")}
runs=${3:-5}
n=${4:-1000000}
export LC_ALL=C
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time; }
for t in "$new/examples/frdfind" "$new/examples/frdls" "$new/bench/floor_onedir"; do
  [ -x "$t" ] || { echo "no $t (build it first)" >&2; exit 1; }
done
dir=$("$(dirname "$0")/make_huge_dir.sh" "$n")

cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT
q=$(printf '%q' "$dir")
{
  printf 'meta\tfrdfind\t%s %s -printf %s\n' "$new/examples/frdfind" "$q" "'%s\\n'"
  [ -n "$base" ] && printf 'meta\tfrdfind (base)\t%s %s -printf %s\n' "$base/examples/frdfind" "$q" "'%s\\n'"
  # The children hook (frdfind -exclude, frddu/frdindex --exclude) filtering the listing
  # batch by batch before the stats (FRD_WALK_CHILDREN_PARTS).
  printf 'meta\tfrdfind -exclude\t%s %s -exclude -name %s -printf %s\n' "$new/examples/frdfind" "$q" "'nomatch*'" "'%s\\n'"
  [ -n "$base" ] && printf 'meta\tfrdfind -exclude (base)\t%s %s -exclude -name %s -printf %s\n' "$base/examples/frdfind" "$q" "'nomatch*'" "'%s\\n'"
  printf 'meta\tfloor, 2 threads\t%s %s 2\n' "$new/bench/floor_onedir" "$q"
  printf 'meta\tfloor, 1 thread\t%s %s 1\n' "$new/bench/floor_onedir" "$q"
  command -v fdfind >/dev/null &&
    printf 'meta\tfdfind\tfdfind -uu --no-ignore --changed-before 2000-01-01 . %s\n' "$q"
  command -v bfs >/dev/null && printf 'meta\tbfs\tbfs %s -printf %s\n' "$q" "'%s\\n'"
  printf 'meta\tfind\tfind %s -printf %s\n' "$q" "'%s\\n'"
  printf 'meta\tfrdfind -s\t%s -s %s -printf %s\n' "$new/examples/frdfind" "$q" "'%s\\n'"
  [ -n "$base" ] && printf 'meta\tfrdfind -s (base)\t%s -s %s -printf %s\n' "$base/examples/frdfind" "$q" "'%s\\n'"
  printf 'names\tfrdfind\t%s %s\n' "$new/examples/frdfind" "$q"
  [ -n "$base" ] && printf 'names\tfrdfind (base)\t%s %s\n' "$base/examples/frdfind" "$q"
  printf 'names\tfrdfind -s\t%s -s %s\n' "$new/examples/frdfind" "$q"
  [ -n "$base" ] && printf 'names\tfrdfind -s (base)\t%s -s %s\n' "$base/examples/frdfind" "$q"
  printf 'frdls\tfrdls\t%s %s\n' "$new/examples/frdls" "$q"
  [ -n "$base" ] && printf 'frdls\tfrdls (base)\t%s %s\n' "$base/examples/frdls" "$q"
  true
} >"$cmds"

python3 - "$cmds" "$runs" "$(dirname "$(realpath "$0")")" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from timed_run import rotated_medians  # bench/timed_run.py
cmds = [l.rstrip("\n").split("\t", 2) for l in open(sys.argv[1])]
runs = int(sys.argv[2])

load = open("/proc/loadavg").read().split()[:3]
med = rotated_medians([c[2] for c in cmds], runs)
ref = med[0][0]
print("load average before: %s" % load)
print("| mode | command | wall s | CPU s | peak RSS MiB | wall / frdfind meta |")
print("|---|---|---:|---:|---:|---:|")
for i, (mode, name, _) in enumerate(cmds):
    w, c, m = med[i]
    print("| %s | %s | %.3f | %.3f | %.1f | %.2f |" % (mode, name, w, c, m, w / ref))
print("load average after: %s" % open("/proc/loadavg").read().split()[:3])
PY
