#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
#
# The Debian packages, as a Debian user gets them (CI runs this, as root):
#  1. builds them from a scratch copy of the tree (its tracked and new files, as the other
#     CI stages see it) with `dpkg-buildpackage -us -uc -b`, DEB_BUILD_OPTIONS=nocheck
#     (the test suite runs in CI's other stages), failing if the library's exports and
#     debian/libfrd0.2.symbols differ, and checks that debian/changelog's version is the
#     CMake project's;
#  2. runs lintian on them: any error or warning fails;
#  3. installs libfrd0.2, libfrd-dev and frd-tools onto this machine with
#     `apt-get install ./*.deb`;
#  4. smoke test: the tools on a generated tree against find and du, their man pages and the
#     library's (`man 3 frd_walk_roots`), a consumer built through pkg-config (frd, and
#     frd-static with no libfrd.so loaded) and through find_package(frd) (shared and
#     static), and backup_scan.c from libfrd-dev's examples;
#  5. removes the three packages again (dpkg --purge), also on failure, so later stages see
#     the machine as before. It refuses to start if any of them is installed already.
# Usage: scripts/debian-check.sh   (needs root, dpkg-dev, debhelper and lintian:
# scripts/deps.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
packages=(libfrd0.2 libfrd-dev frd-tools)
for tool in dpkg-buildpackage dh lintian apt-get; do
  command -v "$tool" >/dev/null || { echo "debian-check: no $tool (scripts/deps.sh installs it)" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "debian-check: installs packages: run it as root" >&2; exit 2; }
for p in "${packages[@]}"; do
  state=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) || true
  if [ -n "$state" ] && [ "$state" != not-installed ]; then
    echo "debian-check: $p is on this machine already ($state); this check would remove it" >&2
    exit 2
  fi
done

version=$(sed -nE 's/^project\(frd VERSION ([0-9.]+).*/\1/p' CMakeLists.txt)
deb_version=$(dpkg-parsechangelog -S Version)
if [ "${deb_version%%-*}" != "$version" ]; then
  echo "debian-check: debian/changelog is at $deb_version, CMakeLists.txt at $version:" \
    "add a debian/changelog entry for $version (dch -v $version, from devscripts)" >&2
  exit 1
fi

tmp=$(mktemp -d)
cleanup() {
  dpkg --purge "${packages[@]}" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# 1. Build.
mkdir "$tmp/frd"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -x -C "$tmp/frd"
if ! (cd "$tmp/frd" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" DEB_BUILD_PROFILES=nocheck \
  DPKG_GENSYMBOLS_CHECK_LEVEL=4 dpkg-buildpackage -us -uc -b >"$tmp/build.log" 2>&1); then
  tail -40 "$tmp/build.log" >&2
  echo "debian-check: dpkg-buildpackage failed (a symbols diff above: the library's exports" \
    "changed; add new functions to debian/libfrd0.2.symbols with the version they came in)" >&2
  exit 1
fi
debs=()
for p in "${packages[@]}"; do
  debs+=("$tmp/${p}_${deb_version}_$(dpkg --print-architecture).deb")
done
echo "debian-check: built" "${debs[@]##*/}"

# 2. Lintian (it warns when run as root; nothing else may come out).
lintian_status=0
lintian --fail-on error,warning --display-info "$tmp"/*.changes >"$tmp/lintian.log" 2>&1 ||
  lintian_status=$?
grep -v '^running with root privileges is not recommended!$' "$tmp/lintian.log" || true
if [ "$lintian_status" -ne 0 ] || grep -q '^[EW]: ' "$tmp/lintian.log"; then
  echo "debian-check: lintian reports errors or warnings, or failed (status $lintian_status)" >&2
  exit 1
fi
echo "debian-check: lintian: no errors, no warnings"

# 3. Install, as a user would.
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${debs[@]}" >"$tmp/apt.log" 2>&1 ||
  { cat "$tmp/apt.log" >&2; exit 1; }

# 4. Smoke test, with what the packages installed only.
for tool in frdfind frddu frdindex frdls frdcount; do
  [ "$(command -v "$tool")" = "/usr/bin/$tool" ] || { echo "debian-check: $tool is not /usr/bin/$tool" >&2; exit 1; }
  [ "$("$tool" --version | head -1)" = "$tool (frd) $version" ] || { echo "debian-check: $tool --version" >&2; exit 1; }
  [[ $(man -w "$tool") == "/usr/share/man/man1/$tool.1"* ]] || { echo "debian-check: no man page for $tool" >&2; exit 1; }
done
for page in frd frd_walk frd_walk_roots frd_lister_batch_read frd_replace_allocator; do
  [[ $(man 3 "$page" 2>/dev/null) == *"$page"* ]] || { echo "debian-check: man 3 $page shows nothing" >&2; exit 1; }
done

tree=$tmp/tree
mkdir -p "$tree/a/b/c" "$tree/d" "$tree/.hidden"
for i in $(seq 1 40); do printf '%*s' "$i" '' >"$tree/a/f$i.c"; done
printf 'x' >"$tree/a/b/c/deep.h"
ln -s ../a "$tree/d/link"
ln "$tree/a/f1.c" "$tree/d/hard"
same() { # description, then two commands' outputs must be the same bytes
  if ! diff <(eval "$2") <(eval "$3") >"$tmp/diff"; then
    echo "debian-check: $1 differs:" >&2
    head -20 "$tmp/diff" >&2
    exit 1
  fi
}
same "frdfind -find-order" "frdfind -find-order '$tree'" "find '$tree'"
same "frdfind -s -name -printf" "frdfind -s '$tree' -name '*.c' -printf '%s %p\n'" \
  "find '$tree' -name '*.c' -printf '%s %p\n' | LC_ALL=C sort -k2"
same "frddu -a --du-order" "frddu -a --du-order '$tree'" "du -a '$tree'"
same "frdls -s -n" "frdls -s -n '$tree/a' | cut -f2" "ls -A '$tree/a' | LC_ALL=C sort"
same "frdcount" "frdcount '$tree' | head -1" "echo \"\$(find '$tree' | wc -l) entries\""
frdindex update -q "$tmp/index.db" "$tree"
same "frdindex find" "frdindex find -b '$tmp/index.db' 'deep*'" "echo '$tree/a/b/c/deep.h'"

consumer=$repo/tests/install
loads_libfrd() { # yes|no BINARY
  local got=no
  [[ $(readelf -d "$2") == *'(NEEDED)'*'[libfrd.so.'* ]] && got=yes
  [ "$got" = "$1" ] || { echo "debian-check: $2 loads libfrd.so: $got, expected $1" >&2; exit 1; }
}
# shellcheck disable=SC2046
cc -o "$tmp/pc" "$consumer/consumer.c" $(pkg-config --cflags --libs frd)
"$tmp/pc"
loads_libfrd yes "$tmp/pc"
# shellcheck disable=SC2046
cc -o "$tmp/pc_static" "$consumer/consumer.c" $(pkg-config --cflags --libs frd-static)
"$tmp/pc_static"
loads_libfrd no "$tmp/pc_static"
cmake -S "$consumer" -B "$tmp/cmake" >/dev/null
cmake --build "$tmp/cmake" >/dev/null
"$tmp/cmake/consumer"
"$tmp/cmake/consumer_static"
loads_libfrd yes "$tmp/cmake/consumer"
loads_libfrd no "$tmp/cmake/consumer_static"
ex=/usr/share/doc/libfrd-dev/examples
# shellcheck disable=SC2046
cc -o "$tmp/backup_scan" "$ex/backup_scan.c" "$ex/backup_snapshot.c" $(pkg-config --cflags --libs frd)
same "backup_scan" "'$tmp/backup_scan' '$tree' | cut -f1" "find '$tree' -type f | LC_ALL=C sort"

# 5. Remove (the trap does it on failure too), and see that nothing is left.
dpkg --purge "${packages[@]}" >/dev/null
for path in /usr/include/frd.h /usr/bin/frdfind /usr/share/man/man3/frd.3.gz; do
  [ ! -e "$path" ] || { echo "debian-check: $path is left after the purge" >&2; exit 1; }
done
echo "debian-check: packages built, lintian clean, installed, tools and consumers work, removed"
