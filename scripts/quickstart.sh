#!/usr/bin/env bash
# Quick start: installs what is missing, builds frd (Release) and runs its main job:
# frdcount walking /usr (or the directory given) in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFRD_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "built build/examples: frdcount frdfind frddu frdindex frdls" >&2
# The main job: walk /usr in parallel with full metadata and print what was found.
build/examples/frdcount "${1:-/usr}"
