#!/usr/bin/env bash
# Whole-command benchmark: frdfind against GNU find, bfs and fd (fdfind) on /usr and on the
# u-boot tree (tests/data), names-only (a -name pattern, and a plain listing) and
# with metadata (-printf '%s %T@\n'). Every command writes to /dev/null. After one warm-up
# run of each command, RUNS rounds each run every command once, in a rotated order, so the
# tools share the same cache and machine state; the table gives the median wall time, the
# median user and system CPU, and each peer's median divided by frdfind's (higher means
# frdfind is faster), all from this one run. Also times frdfind -s against unordered
# frdfind at 2 workers on /usr. Missing tools are installed with apt-get.
#
# Usage: bench/frdfind_bench.sh [PATH/TO/frdfind] [RUNS] [OUT.md]
#   defaults: build-release/examples/frdfind, 11 runs, stdout only
set -euo pipefail
cd "$(dirname "$0")/.."
frdfind=$(realpath "${1:-build-release/examples/frdfind}")
runs=${2:-11}
out=${3:-}
export LC_ALL=C

need=()
command -v find >/dev/null || need+=(findutils)
command -v bfs >/dev/null || need+=(bfs)
command -v fdfind >/dev/null || need+=(fd-find)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null
fi
[ -x "$frdfind" ] || { echo "no frdfind at $frdfind (build it first)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/data/materialize-tree tests/data/u-boot.tsv.gz "$tmp/u-boot" >/dev/null
trees=(/usr "$tmp/u-boot")

# One command per line: TREE<TAB>MODE<TAB>TOOL<TAB>shell command (run with stdout to /dev/null).
# fd has no -printf: its metadata row uses --changed-within, which makes it stat every entry.
cmds="$tmp/cmds.tsv"
: >"$cmds"
for tree in "${trees[@]}"; do
  name=$( [ "$tree" = /usr ] && echo /usr || echo u-boot )
  q=$(printf '%q' "$tree")
  {
    printf '%s\tname\tfrdfind\t%s %s -name %s\n' "$name" "$frdfind" "$q" "'*.h'"
    printf '%s\tname\tfind\tfind %s -name %s\n' "$name" "$q" "'*.h'"
    printf '%s\tname\tbfs\tbfs %s -name %s\n' "$name" "$q" "'*.h'"
    printf '%s\tname\tfdfind\tfdfind -HI -g %s %s\n' "$name" "'*.h'" "$q"
    printf '%s\tlist\tfrdfind\t%s %s\n' "$name" "$frdfind" "$q"
    printf '%s\tlist\tfind\tfind %s\n' "$name" "$q"
    printf '%s\tlist\tbfs\tbfs %s\n' "$name" "$q"
    printf '%s\tlist\tfdfind\tfdfind -HI . %s\n' "$name" "$q"
    printf '%s\tmeta\tfrdfind\t%s %s -printf %s\n' "$name" "$frdfind" "$q" "'%s %T@\\n'"
    printf '%s\tmeta\tfind\tfind %s -printf %s\n' "$name" "$q" "'%s %T@\\n'"
    printf '%s\tmeta\tbfs\tbfs %s -printf %s\n' "$name" "$q" "'%s %T@\\n'"
    printf '%s\tmeta\tfdfind\tfdfind -HI --changed-within 1000weeks . %s\n' "$name" "$q"
  } >>"$cmds"
done
printf '%s\tlist -j2\tfrdfind\t%s -j2 /usr\n' /usr "$frdfind" >>"$cmds"
printf '%s\tlist -j2\tfrdfind -s\t%s -j2 -s /usr\n' /usr "$frdfind" >>"$cmds"
printf '%s\tmeta -j2\tfrdfind\t%s -j2 /usr -printf %s\n' /usr "$frdfind" "'%s %T@\\n'" >>"$cmds"
printf '%s\tmeta -j2\tfrdfind -s\t%s -j2 -s /usr -printf %s\n' /usr "$frdfind" "'%s %T@\\n'" \
  >>"$cmds"

report=$(python3 - "$cmds" "$runs" <<'EOF'
import os, platform, statistics, subprocess, sys, time

cmds = [l.rstrip("\n").split("\t", 3) for l in open(sys.argv[1])]
runs = int(sys.argv[2])

def run(cmd):
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    p = subprocess.Popen(["/bin/sh", "-c", "exec " + cmd], stdout=devnull, stderr=devnull)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    return wall, ru.ru_utime, ru.ru_stime

def count(cmd):
    p = subprocess.run(["/bin/sh", "-c", cmd], capture_output=True)
    return p.stdout.count(b"\n"), p.returncode

samples = {i: [] for i in range(len(cmds))}
warm = {i: count(c[3]) for i, c in enumerate(cmds)}       # also the warm-up
lines = {i: warm[i][0] for i in warm}
status = {i: warm[i][1] for i in warm}
for r in range(runs):
    order = list(range(len(cmds)))
    k = r % len(order)
    for i in order[k:] + order[:k]:                        # rotate: no tool always first
        samples[i].append(run(cmds[i][3]))

def med(i, f):
    return statistics.median(s[f] for s in samples[i])

cpu = "unknown"
for l in open("/proc/cpuinfo"):
    if l.startswith("model name"):
        cpu = l.split(":", 1)[1].strip()
        break
print(f"Machine: {cpu}, {os.cpu_count()} CPUs, Linux {platform.release()}, "
      f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') // 2**30} GiB RAM; "
      f"warm page cache; {runs} interleaved runs after one warm-up; output to /dev/null.\n")
groups = []
for i, c in enumerate(cmds):
    key = (c[0], c[1])
    if key not in groups:
        groups.append(key)
print("| tree | mode | tool | lines | median wall ms | user ms | sys ms | tool / frdfind |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for key in groups:
    idx = [i for i, c in enumerate(cmds) if (c[0], c[1]) == key]
    base = next(i for i in idx if cmds[i][2] == "frdfind")
    for i in idx:
        if status[i] != 0 or status[base] != 0:
            print(f"| {key[0]} | {key[1]} | {cmds[i][2]} | {lines[i]} | failed (exit "
                  f"{status[i]}) | | | |")
            continue
        ratio = med(i, 0) / med(base, 0)
        print(f"| {key[0]} | {key[1]} | {cmds[i][2]} | {lines[i]} | {med(i,0)*1e3:.1f} | "
              f"{med(i,1)*1e3:.1f} | {med(i,2)*1e3:.1f} | {ratio:.2f} |")
print("\nCommands (u-boot is the tree of tests/data, materialized in a temporary directory):\n")
for c in cmds:
    print(f"    {c[1]:9s} {c[3]}")
EOF
)
{
  echo "## frdfind whole-command benchmark"
  echo
  echo "Versions: $(find --version | head -1); bfs $(bfs --version | head -1 | awk '{print $2}');" \
    "$(fdfind --version); frdfind $("$frdfind" --version | awk '{print $3}' | tr -d ')')."
  echo
  echo "$report"
} | tee ${out:+"$out"}
