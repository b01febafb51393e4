#!/usr/bin/env bash
# Fuzz smoke run: builds every tests/fuzz/fuzz_*.c target with libFuzzer, ASan and UBSan
# (clang), and runs each for SECONDS (default 20) from its seed corpus, as many at once as
# there are CPUs. A crash fails the run and leaves the input in build-fuzz/crashes/; copy it
# to tests/corpus/<decoder>/ (tests/corpus/frdfind/ for fuzz_frdfind) so the replay test
# keeps it fixed.
# Usage: tests/fuzz/smoke.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
build=build-fuzz
# (The examples are configured: fuzz_frdfind links frdfind's library. Only the fuzz targets
# and what they link are built.)
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DFRD_FUZZ=ON \
  -DFRD_SANITIZE=address,undefined -DFRD_BUILD_BENCH=OFF -DFRD_BUILD_EXAMPLES=ON >/dev/null
mkdir -p "$build/crashes"
names=()
for src in tests/fuzz/fuzz_*.c; do
  names+=("$(basename "$src" .c)")
done
cmake --build "$build" --target "${names[@]}" -j"$(nproc)" >/dev/null

# fuzz NAME: runs one target for SECONDS from a copy of its seed corpus; says how it went.
fuzz() {
  local name=$1 decoder=${1#fuzz_}
  local work="$build/corpus-$decoder" log="$build/$1.log"
  rm -rf "$work" && mkdir -p "$work"
  cp tests/corpus/"$decoder"/* "$work"/ 2>/dev/null || true
  if "$build/tests/$name" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/crashes/$name-" "$work" >"$log" 2>&1; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
    echo "$name: no crash in ${seconds}s, $runs executions"
  else
    echo "$name: FAILED (see $log)"
    tail -30 "$log"
    return 1
  fi
}

# One target per CPU at a time (each fuzzer is one process on one core).
status=0
running=0
for name in "${names[@]}"; do
  if [ "$running" -ge "$(nproc)" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz "$name" >"$build/$name.result" 2>&1 &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
for name in "${names[@]}"; do
  cat "$build/$name.result"
done
exit $status
