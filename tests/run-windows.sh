#!/usr/bin/env bash
# The Windows stage: cross-builds frd for x86_64 Windows with Debian's mingw-w64 and runs
# every test_*.exe (and the decoders' corpus replays) under Wine; exits 0 only if all pass.
#
# Debian packages neither libuv nor cmocka for mingw, so they are built here from Debian's
# own source packages (apt-get source libuv1 cmocka, through a deb-src entry for the mirror
# apt already uses) into build-windows/deps, once: a rerun reuses them and takes seconds.
# Usage: tests/run-windows.sh [BUILD_DIR]   (default build-windows; needs root for apt)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build-windows}
deps=$root/$build/deps
triple=x86_64-w64-mingw32
jobs=$(nproc)
log() { printf 'run-windows: %s\n' "$*" >&2; }

# 1. Tools: the cross compiler, Wine, and dpkg-source for apt-get source.
need=()
command -v $triple-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64)
# Debian's wine64 package puts its loader in /usr/lib/wine, not on PATH.
find_wine() { command -v wine64 || command -v wine || ls /usr/lib/wine/wine64 2>/dev/null; }
find_wine >/dev/null || need+=(wine64)
command -v dpkg-source >/dev/null || need+=(dpkg-dev)
if ((${#need[@]})); then
  log "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
wine=$(find_wine)

# 2. libuv and cmocka for mingw, from Debian's source packages, cached in $deps.
src_list=/etc/apt/sources.list.d/frd-deb-src.sources
# Prints "URI SUITE [KEYRING]" of the first binary (deb) entry of the machine's configured apt
# sources that is not a security archive: /etc/apt/sources.list and sources.list.d/*.list
# (one-line format) and sources.list.d/*.sources (deb822). Prints nothing if there is none.
apt_binary_source() {
  python3 - /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources <<'PY'
import re, sys
for path in sys.argv[1:]:
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        continue
    if path.endswith(".sources"):  # deb822: stanzas of "Field: value" lines
        for stanza in re.split(r"\n\s*\n", text):
            f = {}
            for line in stanza.splitlines():
                m = re.match(r"^([A-Za-z-]+):\s*(.*)$", line)
                if m and not line.startswith("#"):
                    f[m.group(1).lower()] = m.group(2).split()
            if ("deb" in f.get("types", []) and f.get("uris") and f.get("suites")
                    and f.get("enabled", ["yes"])[0] != "no"
                    and "security" not in f["uris"][0] + f["suites"][0]):
                key = f.get("signed-by", [""])[0] if f.get("signed-by") else ""
                print(f["uris"][0], f["suites"][0], key)
                sys.exit(0)
    else:  # one-line: deb [options] URI SUITE COMPONENT...
        for line in text.splitlines():
            m = re.match(r"^\s*deb\s+(\[[^]]*\]\s+)?(\S+)\s+(\S+)", line)
            if m and "security" not in m.group(2) + m.group(3):
                opts = re.search(r"signed-by=(\S+?)[\s\]]", m.group(1) or "")
                print(m.group(2), m.group(3), opts.group(1) if opts else "")
                sys.exit(0)
PY
}
add_deb_src() {
  [[ -e $src_list ]] && return 0
  # Reuse the archive and suite apt is configured with; there is no built-in fallback.
  local uri suite key
  read -r uri suite key < <(apt_binary_source) || true
  if [[ -z ${uri:-} || -z ${suite:-} ]]; then
    log "no 'deb' entry in /etc/apt/sources.list or /etc/apt/sources.list.d/*.{list,sources}:"
    log "configure an apt source first (the Windows deps are built from its source packages)"
    exit 1
  fi
  log "adding deb-src $uri $suite"
  {
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n' "$uri" "$suite"
    [[ -n ${key:-} ]] && printf 'Signed-By: %s\n' "$key"
  } >"$src_list"
  apt-get update -qq
}

fetch_source() { # package -> prints the unpacked source directory
  local pkg=$1 dir=$deps/src
  mkdir -p "$dir"
  if ! compgen -G "$dir/$pkg-*/CMakeLists.txt" >/dev/null; then
    add_deb_src
    (cd "$dir" && apt-get source -qq "$pkg" >/dev/null 2>&1)
  fi
  compgen -G "$dir/$pkg-*/CMakeLists.txt" | head -1 | xargs dirname
}

build_dep() { # name source-dir cmake-args...
  local name=$1 srcdir=$2
  shift 2
  [[ -e $deps/.built-$name ]] && return 0
  log "building $name for mingw-w64 from $(basename "$srcdir")"
  cmake -S "$srcdir" -B "$deps/build-$name" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$deps" "$@" >"$deps/$name.log" 2>&1
  cmake --build "$deps/build-$name" -j"$jobs" >>"$deps/$name.log" 2>&1
  cmake --install "$deps/build-$name" >>"$deps/$name.log" 2>&1
  touch "$deps/.built-$name"
}

mkdir -p "$deps"
if [[ ! -e $deps/.built-libuv ]]; then
  build_dep libuv "$(fetch_source libuv1)" -DLIBUV_BUILD_TESTS=OFF -DLIBUV_BUILD_BENCH=OFF
fi
if [[ ! -e $deps/.built-cmocka ]]; then
  build_dep cmocka "$(fetch_source cmocka)" -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF \
    -DBUILD_SHARED_LIBS=OFF -DWITH_STATIC_LIB=ON
fi
# Link both statically, so the test programs need no DLL beside them under Wine: the import
# libraries go, the static archives take the names pkg-config asks for.
if [[ ! -e $deps/.static ]]; then
  cp "$deps/lib/libcmocka-static.a" "$deps/lib/libcmocka.a"
  cp "$deps/lib/libuv_a.a" "$deps/lib/libuv.a"
  rm -f "$deps/lib/libcmocka.dll.a" "$deps/lib/libuv.dll.a"
  sed -i 's/^Libs: .*/Libs: -L${libdir} -luv -lpsapi -luser32 -ladvapi32 -liphlpapi -luserenv -lws2_32 -ldbghelp -lole32 -lshell32/' \
    "$deps/lib/pkgconfig/libuv.pc"
  touch "$deps/.static"
fi

# 3. frd itself, with warnings as errors.
log "building frd with mingw-w64"
cmake -S . -B "$build/frd" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" \
  -DFRD_MINGW_DEPS="$deps" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFRD_WERROR=ON \
  -DFRD_BUILD_BENCH=OFF -DFRD_BUILD_EXAMPLES=OFF >"$build/configure.log" 2>&1 ||
  { tail -30 "$build/configure.log"; exit 1; }
cmake --build "$build/frd" -j"$jobs" >"$build/build.log" 2>&1 || { grep -E 'error|Error' "$build/build.log" | head -40; exit 1; }

# 4. Every test under Wine, through ctest (the toolchain makes Wine the test "emulator").
export WINEPREFIX=$root/$build/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# Wine spells Windows names in Unix bytes in the locale's character set: in the C locale (a
# bare environment, LANG unset) it cannot make a name like café, so the tests run in UTF-8.
export LC_ALL=C.UTF-8
if [[ ! -e $WINEPREFIX/system.reg ]]; then
  log "creating the Wine prefix"
  "$wine" wineboot --init >/dev/null 2>&1 || true
fi
# A tree made on Linux and its Linux listings (path, find's type letter, size): the Windows
# lister test lists its top directory through Wine's Z: drive, the walker test walks all of
# it, and both must agree with find.
cross=$root/$build/crosstree
rm -rf "$cross" && mkdir -p "$cross/sub dir/deeper" "$cross/Документы"
head -c 1234 /dev/zero >"$cross/regular"
: >"$cross/empty"
head -c 70000 /dev/zero >"$cross/big"
printf abc >"$cross/café"
printf abcd >"$cross/€ uro"
printf 12345 >"$cross/😀 smile"
head -c 4321 /dev/zero >"$cross/sub dir/inner"
printf xy >"$cross/sub dir/deeper/𝄞 clef"
: >"$cross/Документы/日本"
(cd "$cross" && find . -mindepth 1 -maxdepth 1 -printf '%P\t%y\t%s\n') >"$cross.txt"
(cd "$cross" && find . -mindepth 1 -printf '%P\t%y\t%s\n') >"$cross-walk.txt"
export FRD_CROSS_TREE="Z:${cross//\//\\}" FRD_CROSS_LISTING="Z:${cross//\//\\}.txt"
export FRD_CROSS_WALK_LISTING="Z:${cross//\//\\}-walk.txt"

mapfile -t tests < <(cd "$build/frd/tests" && ls test_*.exe)
# ctest runs what tests/CMakeLists.txt registered: a test program built but left out of it
# (as the walker's once was) would pass unseen, so that fails here.
registered=$(ctest --test-dir "$build/frd" -N -V 2>/dev/null | grep -oE 'test_[A-Za-z0-9_]+\.exe' | sort -u)
for t in "${tests[@]}"; do
  grep -qxF "$t" <<<"$registered" || { log "$t is built but not registered with ctest"; exit 1; }
done
log "running ${#tests[@]} test programs and the corpus replays under $("$wine" --version 2>/dev/null)"
export CMOCKA_MESSAGE_OUTPUT=stdout
ctest --test-dir "$build/frd" --output-on-failure -j"$jobs"
