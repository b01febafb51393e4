#!/usr/bin/env bash
# Quick start: installs what is missing, builds frd (Release) and runs its main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFRD_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "built build/examples/frdls"
build/examples/frdls -c /usr/bin
