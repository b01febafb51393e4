#!/usr/bin/env bash
# Fuzz smoke run: builds every tests/fuzz/fuzz_*.c target with libFuzzer, ASan and UBSan
# (clang), and runs each for SECONDS (default 20) from its seed corpus. A crash fails the
# run and leaves the input in build-fuzz/crashes/; copy it to tests/corpus/<decoder>/ so the
# replay test keeps it fixed. Usage: tests/fuzz/smoke.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
build=build-fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DFRD_FUZZ=ON \
  -DFRD_SANITIZE=address,undefined -DFRD_BUILD_BENCH=OFF -DFRD_BUILD_EXAMPLES=OFF >/dev/null
mkdir -p "$build/crashes"
status=0
for src in tests/fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  decoder=${name#fuzz_}
  cmake --build "$build" --target "$name" -j"$(nproc)" >/dev/null
  work="$build/corpus-$decoder"
  rm -rf "$work" && mkdir -p "$work"
  cp tests/corpus/"$decoder"/* "$work"/ 2>/dev/null || true
  log="$build/$name.log"
  if "$build/tests/$name" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$build/crashes/$name-" "$work" >"$log" 2>&1; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
    echo "$name: no crash in ${seconds}s, $runs executions"
  else
    echo "$name: FAILED (see $log)"
    tail -30 "$log"
    status=1
  fi
done
exit $status
