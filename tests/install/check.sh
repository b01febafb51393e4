#!/usr/bin/env bash
# Installs a built frd into a temporary prefix, then builds and runs a consumer program
# through find_package(frd) (shared and static) and through pkg-config.
# Usage: tests/install/check.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(find "$tmp/prefix" -name 'libfrd.so' -printf '%h\n' | head -1)

cmake -S "$here" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
LD_LIBRARY_PATH="$libdir" "$tmp/consumer/consumer"
"$tmp/consumer/consumer_static"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
cc -o "$tmp/pc_consumer" "$here/consumer.c" $(pkg-config --cflags --libs frd)
LD_LIBRARY_PATH="$libdir" "$tmp/pc_consumer"
# shellcheck disable=SC2046
cc -o "$tmp/pc_consumer_static" "$here/consumer.c" $(pkg-config --static --cflags frd) \
  "$libdir/libfrd.a" $(pkg-config --static --libs-only-l frd | sed 's/-lfrd//')
"$tmp/pc_consumer_static"
echo "install: find_package (shared, static) and pkg-config (shared, static) consumers work"
