#!/usr/bin/env bash
# Installs a built frd into a temporary prefix, then builds and runs a consumer program
# through find_package(frd) (shared and static) and through pkg-config (frd.pc, shared;
# frd-static.pc, static). A shared consumer must build with no trace of libuv's pkg-config
# file (PKG_CONFIG_LIBDIR pointing at frd's alone); a static one must not load libfrd.so.
# Usage: tests/install/check.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(find "$tmp/prefix" -name 'libfrd.so' -printf '%h\n' | head -1)

# loads_libfrd yes|no BINARY: fails unless the program does (or does not) load libfrd.so.*.
loads_libfrd() {
  local got=no
  [[ $(readelf -d "$2") == *'(NEEDED)'*'[libfrd.so.'* ]] && got=yes
  [ "$got" = "$1" ] || { echo "install: $2 loads libfrd.so: $got, expected $1" >&2; return 1; }
}

cmake -S "$here" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
LD_LIBRARY_PATH="$libdir" "$tmp/consumer/consumer"
"$tmp/consumer/consumer_static"
loads_libfrd yes "$tmp/consumer/consumer"
loads_libfrd no "$tmp/consumer/consumer_static"

# Shared consumers see no libuv: neither pkg-config's libuv.pc nor any pkg-config at all.
PKG_CONFIG_LIBDIR=$tmp/none cmake -S "$here" -B "$tmp/consumer_shared" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DFRD_CONSUMER_STATIC=OFF >/dev/null
cmake --build "$tmp/consumer_shared" >/dev/null
LD_LIBRARY_PATH="$libdir" "$tmp/consumer_shared/consumer"
cmake -S "$here" -B "$tmp/consumer_nopc" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DFRD_CONSUMER_STATIC=OFF -DPKG_CONFIG_EXECUTABLE="$tmp/none/pkg-config" >/dev/null
# ... and asking for the static component then fails, saying what is missing.
if PKG_CONFIG_LIBDIR=$tmp/none cmake -S "$here" -B "$tmp/consumer_nouv" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/nouv.log" 2>&1; then
  echo "install: find_package(frd COMPONENTS static) succeeded without libuv.pc" >&2
  exit 1
fi
grep -q "frd::frd_static needs libuv's pkg-config file" "$tmp/nouv.log"

# shellcheck disable=SC2046
PKG_CONFIG_LIBDIR="$libdir/pkgconfig" cc -o "$tmp/pc_consumer" "$here/consumer.c" \
  $(PKG_CONFIG_LIBDIR="$libdir/pkgconfig" pkg-config --cflags --libs frd)
LD_LIBRARY_PATH="$libdir" "$tmp/pc_consumer"
loads_libfrd yes "$tmp/pc_consumer"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
cc -o "$tmp/pc_consumer_static" "$here/consumer.c" $(pkg-config --cflags --libs frd-static)
"$tmp/pc_consumer_static"
loads_libfrd no "$tmp/pc_consumer_static"
# --static adds libuv's flags, as a fully static link of libfrd.a needs them.
[[ " $(pkg-config --static --libs frd) " == *' -luv '* ]] ||
  { echo "install: pkg-config --static --libs frd lacks -luv" >&2; exit 1; }
echo "install: find_package (shared, static; shared without libuv.pc) and pkg-config" \
  "(frd shared, frd-static) consumers work"
