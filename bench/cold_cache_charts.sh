#!/usr/bin/env bash
# SVG charts from bench/cold_cache.sh's results.tsv (gnuplot, Debian's gnuplot-nox): for each
# tree, the median walk time of each tool at its default on cold and warm cache, names only
# and with metadata (tools-TREE.svg); and for /usr, the median time by worker count of
# frdfind and frdcount, cold and warm (workers.svg). A bench script, not run in CI.
#
# Usage: bench/cold_cache_charts.sh [RESULTS_DIR]   (default bench/results/cold)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-bench/results/cold}
command -v gnuplot >/dev/null || { echo "cold_cache_charts.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Data files for gnuplot: NaN where a series was not measured (gnuplot leaves it out).
python3 - "$dir/results.tsv" "$tmp" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
out = sys.argv[2]
med = {(r["tree"], r["mode"], r["tool"], r["config"], r["cache"]): r["median_s"] for r in rows}
trees = list(dict.fromkeys(r["tree"] for r in rows))
series = [(m, c) for m in ("name", "meta") for c in ("cold", "warm")]
for t in trees:
    with open(f"{out}/tools-{t.strip('/')}.dat", "w") as f:
        for tool in ("frdfind", "frdcount", "find", "bfs", "fdfind"):
            vals = [med.get((t, m, tool, "default", c), "NaN") for m, c in series]
            if any(v != "NaN" for v in vals):
                f.write(tool + " " + " ".join(vals) + "\n")
jobs = sorted({int(r["config"]) for r in rows if r["config"] != "default"})
with open(f"{out}/workers.dat", "w") as f:
    cols = [(tool, m, c) for tool in ("frdfind", "frdcount") for m in ("meta", "name")
            for c in ("cold", "warm")]
    f.write("j " + " ".join(f"{a}-{b}-{c}" for a, b, c in cols) + "\n")
    for j in jobs:
        f.write(f"{j} " + " ".join(med.get(("/usr", m, tool, str(j), c), "NaN")
                                  for tool, m, c in cols) + "\n")
print(" ".join(t.strip("/") for t in trees))
EOF
for dat in "$tmp"/tools-*.dat; do
  t=$(basename "$dat" .dat)
  t=${t#tools-}
  n=$(wc -l <"$dat")
  gnuplot <<EOF
set terminal svg size 720,400 dynamic font "sans,12" background rgb "white"
set output "$dir/tools-$t.svg"
set title "$t: walk time by tool at its default (median, lower is better)"
set ylabel "seconds"
set style data histograms
set style histogram clustered gap 1
set xrange [-0.6:$n-0.4]
set style fill solid 0.85 border -1
set key outside bottom center horizontal
set yrange [0:*]
set grid ytics
set datafile missing "NaN"
plot "$dat" using 2:xtic(1) title "names, cold" lc rgb "#1f4e79", \
     "" using 3 title "names, warm" lc rgb "#8fb8de", \
     "" using 4 title "metadata, cold" lc rgb "#7f3b08", \
     "" using 5 title "metadata, warm" lc rgb "#f1a340"
EOF
done
gnuplot <<EOF
set terminal svg size 720,400 dynamic font "sans,12" background rgb "white"
set output "$dir/workers.svg"
set title "/usr: walk time by worker count (median, lower is better)"
set xlabel "-j (worker threads)"
set ylabel "seconds"
set logscale x 2
set yrange [0:*]
set grid
set key top right
set datafile missing "NaN"
plot "$tmp/workers.dat" using 1:2 with linespoints lw 2 lc rgb "#7f3b08" title "frdfind metadata, cold", \
     "" using 1:3 with linespoints lw 2 dt 2 lc rgb "#7f3b08" title "frdfind metadata, warm", \
     "" using 1:4 with linespoints lw 2 lc rgb "#1f4e79" title "frdfind names, cold", \
     "" using 1:5 with linespoints lw 2 dt 2 lc rgb "#1f4e79" title "frdfind names, warm", \
     "" using 1:6 with linespoints lw 2 lc rgb "#2d8a3e" title "frdcount metadata, cold", \
     "" using 1:7 with linespoints lw 2 dt 2 lc rgb "#2d8a3e" title "frdcount metadata, warm"
EOF
ls "$dir"/*.svg
