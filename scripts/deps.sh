#!/usr/bin/env bash
# Installs the Debian packages frd needs to build, test, check (clang-tidy, abidiff) and
# benchmark, if any is missing (python3-dev: the Python binding, bindings/python; ncdu: the
# frddu --export round trip; locales: the sources localedef builds frddu_options' locales from;
# dpkg-dev, debhelper, lintian: the Debian packages, debian/; mandoc, man-db: the man pages'
# lint and lookup, scripts/check-man.sh).
# Safe to run again: it does nothing when everything is there. Needs root (or sudo).
set -euo pipefail

packages=(
  cmake make gcc g++ pkg-config python3 python3-dev
  # The Python package (bindings/python): sdist, wheel and venvs; its types checked by mypy.
  python3-setuptools python3-wheel python3-build python3-venv python3-mypy
  clang libclang-rt-14-dev clang-format clang-tidy
  libuv1-dev libcmocka-dev libbenchmark-dev
  findutils util-linux strace bfs
  libsqlite3-dev sqlite3 coreutils
  abigail-tools binutils
  ncdu plocate locales
  libopenmpi-dev openmpi-bin
  dpkg-dev debhelper lintian mandoc man-db
  # FRD_WALK_XATTRS' test compares with getfattr, with an ACL (setfacl) and a capability (setcap).
  attr acl libcap2-bin
  # A FUSE file system that fails with EIO (tests/support/eio_fuse.c, tests/cli/walk_eio.sh).
  libfuse3-dev fuse3
)
# The Node.js binding (bindings/node) needs node and npm: Debian's only where the machine has
# none, never over a Node installed otherwise (the image's NodeSource package provides both).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
# Extra packages a caller may ask for, e.g. FRD_EXTRA_PACKAGES="bfs fd-find".
if [ -n "${FRD_EXTRA_PACKAGES:-}" ]; then
  read -r -a extra <<<"$FRD_EXTRA_PACKAGES"
  packages+=("${extra[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "frd: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
