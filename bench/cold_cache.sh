#!/usr/bin/env bash
# Cold-cache benchmark (issue 13): frdfind and frdcount at their default worker count and at
# a -j sweep, against GNU find, bfs and fd (fdfind), on /usr and on the u-boot tree
# (tests/data), names only and with metadata (one stat per entry). Before every cold run the
# page cache is dropped (sync; echo 3 > /proc/sys/vm/drop_caches); right after it the same
# command runs again on the cache it just filled: that is its warm figure. Each round runs
# every command once in an order rotated by one per round. Writes a Markdown results file
# (medians, ratios, machine, load average) and a TSV of medians that bench/cold_cache_charts.sh
# turns into SVG charts. Needs root to drop the cache: otherwise it says so and exits 0.
#
# Usage: bench/cold_cache.sh [-q | -p] [-n RUNS] [-b BUILD_DIR] [-o OUT_DIR]
#   default: both tools, the whole sweep, both trees, both modes (about 6 minutes here)
#   -q  quick subset: /usr only, metadata only, -j 1/8/32 for frdfind only, 1 run (~1 min)
#   -p  the default pool's bars (bench/cold_pool.py): /usr metadata cold, the pool designs,
#       -j 8-64, bfs, fd, main's build (/tmp/frd-base/build); warm against main (~3 min)
#   -n  rounds (default 3)
#   -b  build dir holding examples/frdfind and examples/frdcount (default build-release)
#   -o  where results.md and results.tsv go (default bench/results/cold)
# fd has no -printf: its metadata rows use --changed-within 1000weeks, which makes fd stat
# every entry (a time filter needs the mtime); -l would also stat but formats much more.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
runs=3
build="build-release"
out=bench/results/cold
pool=0
runs_given=
while getopts pqn:b:o: opt; do
  case $opt in
    p) pool=1 ;;
    q) quick=1 runs=1 ;;
    n) runs=$OPTARG runs_given=1 ;;
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n '11,18p' "$0" >&2; exit 2 ;;
  esac
done
if [ "$(id -u)" -ne 0 ] || ! [ -w /proc/sys/vm/drop_caches ]; then
  echo "cold_cache.sh: needs root to drop the page cache (/proc/sys/vm/drop_caches); not measuring"
  exit 0
fi
if [ $pool = 1 ]; then
  exec python3 bench/cold_pool.py -b "$build" -o "$out" ${runs_given:+-n "$runs"}
fi
frdfind=$(realpath "$build/examples/frdfind")
frdcount=$(realpath "$build/examples/frdcount")
for t in "$frdfind" "$frdcount" find bfs fdfind; do
  command -v "$t" >/dev/null || { echo "cold_cache.sh: $t missing (build frd; apt-get install bfs fd-find)" >&2; exit 1; }
done
export LC_ALL=C
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

trees=(/usr)
modes=(name meta)
jobs=(1 2 4 8 16 32 64)
if [ $quick = 1 ]; then
  modes=(meta)
  jobs=(1 8 32)
else
  python3 tests/data/materialize-tree tests/data/u-boot.tsv.gz "$tmp/u-boot" >/dev/null
  trees+=("$tmp/u-boot")
fi

# One command per line: TREE<TAB>MODE<TAB>TOOL<TAB>CONFIG<TAB>shell command.
cmds="$tmp/cmds.tsv"
: >"$cmds"
for tree in "${trees[@]}"; do
  name=$([ "$tree" = /usr ] && echo /usr || echo u-boot)
  q=$(printf '%q' "$tree")
  for mode in "${modes[@]}"; do
    if [ "$mode" = name ]; then
      ff="" fc="-n" ft="" fd=". $q"
    else
      ff=" -printf '%s\\n'" fc="" ft=" -printf '%s\\n'" fd="--changed-within 1000weeks . $q"
    fi
    row() { printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$mode" "$1" "$2" "$3" >>"$cmds"; }
    row frdfind default "$frdfind $q$ff"
    for j in "${jobs[@]}"; do row frdfind "$j" "$frdfind -j$j $q$ff"; done
    if [ $quick = 0 ]; then
      row frdcount default "$frdcount -q $fc $q"
      for j in "${jobs[@]}"; do row frdcount "$j" "$frdcount -q -j$j $fc $q"; done
    fi
    row find default "find $q$ft"
    row bfs default "bfs $q$ft"
    row fdfind default "fdfind -HI $fd"
  done
done

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
python3 - "$cmds" "$runs" "$out/results.tsv" <<'EOF'
import os, statistics, subprocess, sys, time

cmds = [l.rstrip("\n").split("\t", 4) for l in open(sys.argv[1])]
runs = int(sys.argv[2])

def drop():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")

def run(cmd):
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    p = subprocess.Popen(["/bin/sh", "-c", "exec " + cmd], stdout=devnull,
                         stderr=devnull)
    _, status, _ = os.wait4(p.pid, 0)
    os.close(devnull)
    return time.perf_counter() - t0, status

samples = {(i, c): [] for i in range(len(cmds)) for c in ("cold", "warm")}
bad = set()
for r in range(runs):
    k = r % len(cmds)
    for i in list(range(k, len(cmds))) + list(range(k)):
        drop()
        for cache in ("cold", "warm"):
            wall, status = run(cmds[i][4])
            if status != 0:
                bad.add(i)
            samples[(i, cache)].append(wall)
    print(f"round {r + 1}/{runs} done", file=sys.stderr)
with open(sys.argv[3], "w") as f:
    f.write("tree\tmode\ttool\tconfig\tcache\tmedian_s\tmin_s\tmax_s\tstatus\tcommand\n")
    for i, c in enumerate(cmds):
        for cache in ("cold", "warm"):
            s = samples[(i, cache)]
            f.write(f"{c[0]}\t{c[1]}\t{c[2]}\t{c[3]}\t{cache}\t{statistics.median(s):.4f}\t"
                    f"{min(s):.4f}\t{max(s):.4f}\t{'failed' if i in bad else 'ok'}\t{c[4]}\n")
EOF
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
secs=$(($(date +%s) - start))

python3 - "$out/results.tsv" "$runs" "$load_before" "$load_after" "$secs" >"$out/results.md" <<'EOF'
import csv, os, platform, sys

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
runs, lb, la, secs = sys.argv[2:6]
med = {(r["tree"], r["mode"], r["tool"], r["config"], r["cache"]): float(r["median_s"])
       for r in rows}
failed = sorted({r["command"] for r in rows if r["status"] != "ok"})
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
            if l.startswith("model name")), "unknown")
mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**30
print("# Cold and warm page cache: frdfind, frdcount, find, bfs, fd\n")
print(f"Machine: {cpu}, {os.cpu_count()} CPUs, {mem} GiB RAM, Linux {platform.release()}. "
      f"Load average (1/5/15 min) {lb} before, {la} after; {secs} s in all. "
      f"{runs} rounds, medians; each round drops the page cache before every command "
      "(cold), then runs it again at once (warm). Output to /dev/null. Ratios are the "
      "tool's median over frdfind's at its default worker count (above 1: frdfind faster).\n")
trees = list(dict.fromkeys(r["tree"] for r in rows))
modes = list(dict.fromkeys(r["mode"] for r in rows))
label = {"name": "names only", "meta": "metadata"}
print("## Tools at their defaults\n")
print("| tree | mode | cache | frdfind s | frdcount s | find | bfs | fdfind |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for t in trees:
    for m in modes:
        for c in ("cold", "warm"):
            base = med[(t, m, "frdfind", "default", c)]
            fc = med.get((t, m, "frdcount", "default", c))
            cells = [f"{med[(t, m, x, 'default', c)] / base:.2f}x" for x in ("find", "bfs", "fdfind")]
            print(f"| {t} | {label[m]} | {c} | {base:.3f} | {'' if fc is None else f'{fc:.3f}'} | "
                  + " | ".join(cells) + " |")
print("\n## Worker count (-j): median seconds\n")
jobs = list(dict.fromkeys(r["config"] for r in rows if r["config"] != "default"))
print("| tree | mode | cache | tool | default | " + " | ".join(f"-j{j}" for j in jobs)
      + " | default / best |")
print("|---|---|---|---|---:|" + "---:|" * len(jobs) + "---:|")
for t in trees:
    for m in modes:
        for c in ("cold", "warm"):
            for tool in ("frdfind", "frdcount"):
                if (t, m, tool, "default", c) not in med:
                    continue
                d = med[(t, m, tool, "default", c)]
                js = [med.get((t, m, tool, j, c)) for j in jobs]
                got = [x for x in js if x is not None]
                if not got:
                    continue
                best = min(got)
                bj = jobs[js.index(best)]
                print(f"| {t} | {label[m]} | {c} | {tool} | {d:.3f} | "
                      + " | ".join("" if x is None else f"{x:.3f}" for x in js)
                      + f" | {d / best:.2f}x (best -j{bj}) |")
print("\nCommands (U-BOOT: tests/data/u-boot.tsv.gz materialized in a temporary directory):\n")
for cmd in dict.fromkeys(r["command"] for r in rows):
    print(f"    {cmd}")
if failed:
    print("\nFailed (non-zero exit in some run; timed anyway):\n")
    for cmd in failed:
        print(f"    {cmd}")
EOF
sed -i "s|$tmp/u-boot|U-BOOT|g; s|$PWD/||g" "$out/results.md" "$out/results.tsv"
echo "wrote $out/results.md and $out/results.tsv" >&2
cat "$out/results.md"
