#!/usr/bin/env bash
# frdindex on a chain of directories DEPTH deep, one file per level (issue 34): the first
# update (from empty) and the next (nothing changed), wall time and peak RSS, the
# database's size, and `find -c` of one name, for one or two builds side by side
# (interleaved rounds, medians); frdcount's walk of the same chain is the floor.
#
# Usage: bench/frdindex_deep_bench.sh [DEPTH] [RUNS] BUILD_DIR [OLD_BUILD_DIR]
#   defaults: 20000 levels, 3 rounds
set -euo pipefail
depth=${1:-20000}
runs=${2:-3}
new=$(realpath "$3")
old=${4:+$(realpath "$4")}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/chain" "$depth" <<'EOF'
import os, sys
os.mkdir(sys.argv[1])
fd = os.open(sys.argv[1], os.O_RDONLY)
for _ in range(int(sys.argv[2])):
    os.mkdir("d", dir_fd=fd)
    os.close(os.open("f", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=fd))
    sub = os.open("d", os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = sub
EOF
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
builds=(new)
[ -n "$old" ] && builds+=(old)
declare -A dir=([new]=$new [old]=$old)
for ((r = 0; r < runs; r++)); do
  for b in "${builds[@]}"; do
    ix=${dir[$b]}/examples/frdindex
    rm -f "$tmp/$b.db"*
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$ix" update -q "$tmp/$b.db" "$tmp/chain"
    cat "$tmp/t" >>"$tmp/$b.first"
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$ix" update -q "$tmp/$b.db"
    cat "$tmp/t" >>"$tmp/$b.next"
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$ix" find -c "$tmp/$b.db" '*/f' >/dev/null
    cat "$tmp/t" >>"$tmp/$b.find"
    stat -c %s "$tmp/$b.db" >"$tmp/$b.size"
  done
  /usr/bin/time -f '%e %M' -o "$tmp/t" "$new/examples/frdcount" "$tmp/chain" >/dev/null
  cat "$tmp/t" >>"$tmp/frdcount"
done
echo "chain $depth deep ($((2 * depth + 1)) entries), $runs rounds, medians; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "| build | first update (s) | peak RSS (MB) | next update (s) | peak RSS (MB) | find -c (s) | database (bytes) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for b in "${builds[@]}"; do
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$b" \
    "$(cut -d' ' -f1 "$tmp/$b.first" | median)" "$(($(cut -d' ' -f2 "$tmp/$b.first" | median) / 1024))" \
    "$(cut -d' ' -f1 "$tmp/$b.next" | median)" "$(($(cut -d' ' -f2 "$tmp/$b.next" | median) / 1024))" \
    "$(cut -d' ' -f1 "$tmp/$b.find" | median)" "$(cat "$tmp/$b.size")"
done
echo "frdcount (the walk alone): $(cut -d' ' -f1 "$tmp/frdcount" | median) s, $(($(cut -d' ' -f2 "$tmp/frdcount" | median) / 1024)) MB"
