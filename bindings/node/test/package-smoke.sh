#!/usr/bin/env bash
# The npm package as a user installs it (.ci/run): `npm pack` in this folder, then, each in a
# fresh app (`npm init -y`) in a scratch folder, `npm install` of the tarball and of the
# folder of a fresh clone of the repository (npm links a folder), and test/smoke.js run
# through `require('frd')`. npm's user config is an empty file, so nothing of this machine's
# (~/.npmrc's nodedir, say) helps the build; the npm registry is the only source.
# Usage: bindings/node/test/package-smoke.sh
set -euo pipefail
pkg=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$pkg/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export NPM_CONFIG_USERCONFIG=$scratch/npmrc
: >"$NPM_CONFIG_USERCONFIG"
npm_install() { npm install --no-audit --no-fund --loglevel=error "$@"; }

(cd "$pkg" && npm pack --pack-destination "$scratch" --loglevel=error)
tarball=$(echo "$scratch"/frd-*.tgz)
echo "package-smoke: $(basename "$tarball"), $(tar tzf "$tarball" | wc -l) files"

mkdir "$scratch/app-tarball"
(cd "$scratch/app-tarball" && npm init -y >/dev/null && npm_install "$tarball" &&
  node "$pkg/test/smoke.js")

# A clone, so that the folder has no node_modules or build of its own (as a user's checkout).
git clone -q "$repo" "$scratch/frd"
mkdir "$scratch/app-folder"
(cd "$scratch/app-folder" && npm init -y >/dev/null && npm_install "$scratch/frd/bindings/node" &&
  node "$pkg/test/smoke.js")
echo "package-smoke: tarball and folder installs work"
