#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
#
# The Python package as a user gets it, with Debian's python3 and nothing built before,
# in a scratch folder (the repository is left as it is):
#   1. python3 -m build --no-isolation: the sdist and the wheel;
#   2. a fresh venv, pip install the wheel;
#   3. another fresh venv, pip install --no-build-isolation the sdist alone;
#   4. another fresh venv, pip install --no-build-isolation ./bindings/python of a copy of
#      the repository (README's command);
# each followed by tests/smoke.py, run from outside the source tree with the venv's
# python; and, where mypy is installed, mypy --strict on tests/typecheck/usage.py against
# the package installed in the venv (its py.typed and stubs). Usage:
#   bindings/python/tests/package.sh [PYTHON]    (default /usr/bin/python3)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
py=${1:-/usr/bin/python3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1 PIP_NO_INPUT=1

# A copy of the repository as a checkout has it, uncommitted edits included.
mkdir "$scratch/repo"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
  tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$scratch/repo"

step() { printf '%s\n' "-- $*"; }
smoke() { # VENV
  (cd "$scratch" && "$1/bin/python" "$scratch/repo/bindings/python/tests/smoke.py" "$1/")
  if "$py" -c 'import mypy' 2>/dev/null; then
    (cd "$scratch" && "$py" -m mypy --strict --no-error-summary --cache-dir "$scratch/mypy" \
      --python-executable "$1/bin/python" "$scratch/repo/bindings/python/tests/typecheck/usage.py" |
      grep -v ': note: Revealed type' || true) > "$scratch/mypy.out"
    if [ -s "$scratch/mypy.out" ]; then
      cat "$scratch/mypy.out" >&2
      echo "mypy rejects the installed package's types" >&2
      exit 1
    fi
    echo "mypy --strict: the installed package's types check"
  fi
}

step "python3 -m build --no-isolation (sdist, then the wheel from it)"
"$py" -m build --no-isolation --outdir "$scratch/dist" "$scratch/repo/bindings/python" \
  > "$scratch/build.log" 2>&1 || { cat "$scratch/build.log" >&2; exit 1; }
ls "$scratch/dist"
sdist=$(echo "$scratch"/dist/frd-*.tar.gz)
wheel=$(echo "$scratch"/dist/frd-*.whl)
tar -tzf "$sdist" > "$scratch/sdist.txt" # (grep -q on the pipe would cut tar short)
grep -q '/vendor/frd/lib/include/frd.h$' "$scratch/sdist.txt" ||
  { echo "sdist without frd's C sources" >&2; exit 1; }

step "fresh venv: pip install the wheel"
"$py" -m venv "$scratch/v-wheel"
"$scratch/v-wheel/bin/pip" install -q "$wheel"
smoke "$scratch/v-wheel"

step "fresh venv: pip install --no-build-isolation the sdist (nothing else)"
mkdir "$scratch/alone" && cp "$sdist" "$scratch/alone/"
"$py" -m venv "$scratch/v-sdist"
"$scratch/v-sdist/bin/pip" install -q --no-build-isolation "$scratch/alone/$(basename "$sdist")"
smoke "$scratch/v-sdist"

step "fresh venv: pip install --no-build-isolation ./bindings/python"
"$py" -m venv "$scratch/v-tree"
(cd "$scratch/repo" && "$scratch/v-tree/bin/pip" install -q --no-build-isolation ./bindings/python)
smoke "$scratch/v-tree"
echo "package: built, installed three ways and tested"
