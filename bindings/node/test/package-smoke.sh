#!/usr/bin/env bash
# The npm package as a user installs it (.ci/run): `npm pack` in this folder, then, each in a
# fresh app (`npm init -y`) in a scratch folder, `npm install` of the tarball and of the
# folder of a fresh clone of the repository (linked, and packed), and test/smoke.js run
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
# npm links the folder; with --install-links (npm 9.0 to 9.3's default, Debian 12's npm) it
# packs it, running prepare.
git clone -q "$repo" "$scratch/frd"
for links in false true; do
  mkdir "$scratch/app-folder-$links"
  (cd "$scratch/app-folder-$links" && npm init -y >/dev/null &&
    npm_install --install-links=$links "$scratch/frd/bindings/node" && node "$pkg/test/smoke.js")
done
echo "package-smoke: the tarball and the folder (linked and packed) install and work"
