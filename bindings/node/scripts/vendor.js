#!/usr/bin/env node
// `npm pack` / `npm publish` (package.json prepack): copies what the addon compiles of the
// frd checkout around this folder into ./frd, so that the tarball builds on its own: the
// library's folders (decode/, lib/, platform/, walker/, whole), the two header templates
// of cmake/ and CMakeLists.txt (its version), and the repository's LICENSE to ./LICENSE.
// Both are ignored by git; `vendor.js --remove` (postpack) deletes them again, so the
// build in a checkout always compiles the checkout's own files. The package's version
// must be the library's.
//
// `vendor.js --prepare` (package.json prepare) copies them only when npm packs this folder
// to install it elsewhere (npm_package_resolved is set then: `npm install FOLDER` with
// install-links, the default of npm 9.0 to 9.3, which Debian 12 ships, or a git
// dependency), which runs prepare and not prepack; the copy then stays (ignored by git).
// prepare also runs at `npm install` in this folder, where nothing is copied.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { frdVersion } = require('./frd-sources');

const pkg = path.resolve(__dirname, '..');
const repo = path.resolve(pkg, '..', '..');
const dest = path.join(pkg, 'frd');
const license = path.join(pkg, 'LICENSE');

function remove() {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.rmSync(license, { force: true });
}

if (process.argv[2] === '--remove') {
  remove();
} else if (process.argv[2] === '--prepare' && !process.env.npm_package_resolved) {
  // a local `npm install` or `npm pack` (prepack copies)
} else {
  if (!fs.existsSync(path.join(repo, 'lib', 'include', 'frd.h'))) {
    console.error(`frd: ${repo} is not a frd checkout: pack this folder where it sits in one`);
    process.exit(1);
  }
  const version = frdVersion(repo).string;
  const own = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
  if (own !== version) {
    console.error(`frd: package.json says version ${own}, the library (CMakeLists.txt) ${version}`);
    process.exit(1);
  }
  remove();
  for (const d of ['decode', 'lib', 'platform', 'walker']) {
    fs.cpSync(path.join(repo, d), path.join(dest, d), { recursive: true });
  }
  for (const f of ['cmake/frd_config.h.in', 'cmake/frd_version.h.in', 'CMakeLists.txt']) {
    fs.mkdirSync(path.dirname(path.join(dest, f)), { recursive: true });
    fs.copyFileSync(path.join(repo, f), path.join(dest, f));
  }
  fs.copyFileSync(path.join(repo, 'LICENSE'), license);
}
