#!/usr/bin/env bash
# Runs clang-tidy (checks in .clang-tidy) over every C file of the library, the backends, the
# decoders, the walker, libfrd_mpi (mpi/, when the build has MPI), the tools and the tests,
# from a build's compile_commands.json.
# Fails on any finding. Usage: scripts/tidy.sh [BUILD_DIR]   (default build-tidy)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-tidy}
if [ ! -f "$build/compile_commands.json" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DFRD_BUILD_BENCH=OFF >/dev/null
fi
# Generated headers (frd_version.h, frd_config.h) must exist before clang-tidy reads sources.
cmake --build "$build" --target frd_objects -j"$(nproc)" >/dev/null
mapfile -t files < <(git ls-files 'lib/*.c' 'platform/*.c' 'decode/*.c' 'walker/*.c' 'mpi/*.c' \
  'examples/*.c' 'tests/*.c' | while read -r f; do
  grep -qF "\"file\": \"$PWD/$f\"" "$build/compile_commands.json" && echo "$PWD/$f"
done || true)
[ ${#files[@]} -gt 0 ] || { echo "tidy: no sources of $build/compile_commands.json" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
# A GCC build's commands may carry GCC's own optimization flags (-ffat-lto-objects of
# FRD_LTO), which clang does not know: not a finding.
printf '%s\n' "${files[@]}" | xargs -P"$(nproc)" -n4 clang-tidy -p "$build" --quiet \
  --extra-arg=-Wno-ignored-optimization-argument >"$log" 2>&1 ||
  rc=$?
if [ "$rc" -ne 0 ] || grep -qE ': (warning|error): ' "$log"; then
  grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$' "$log" >&2 || true
  echo "tidy: findings above (checks: .clang-tidy)" >&2
  exit 1
fi
echo "tidy: ${#files[@]} files, no findings"
