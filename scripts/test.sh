#!/usr/bin/env bash
# Builds frd with warnings as errors and runs the whole test suite under ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=${FRD_TEST_BUILD_DIR:-build-test}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFRD_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
