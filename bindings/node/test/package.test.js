// The npm package: what binding.gyp compiles of frd (scripts/frd-sources.js, by directory) is
// what CMakeLists.txt builds the library from, and `npm pack` makes a tarball that holds it
// all (the C sources copied in by prepack, LICENSE, the build scripts, the types) and leaves
// the folder as it was. (.ci/run installs that tarball into a fresh app and runs it.)
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { tmpdir } = require('./helpers');
const src = require('../scripts/frd-sources');

const pkg = path.resolve(__dirname, '..');
const repo = path.resolve(pkg, '..', '..');
const cmake = fs.readFileSync(path.join(repo, 'CMakeLists.txt'), 'utf8');

// The paths of a set(NAME ...) list of CMakeLists.txt.
function cmakeList(name) {
  const m = new RegExp(`set\\(${name}\\s([^)]*)\\)`).exec(cmake);
  assert.ok(m, `no set(${name} ...) in CMakeLists.txt`);
  return m[1].split(/\s+/).filter(Boolean);
}

test('the sources found by directory are the library CMakeLists.txt builds (Linux backend)', () => {
  const want = [...cmakeList('FRD_DECODE_SOURCES'), ...cmakeList('FRD_SOURCES')]
    .map((f) => f.replace('${FRD_BACKEND}', 'linux'));
  assert.match(cmake, /list\(APPEND FRD_SOURCES platform\/unix\.c platform\/xattr_unix\.c\)/);
  want.push('platform/unix.c', 'platform/xattr_unix.c');
  const got = src.sources(repo).map((f) => path.relative(repo, f).split(path.sep).join('/'));
  assert.deepStrictEqual([...got].sort(), [...want].sort());
  for (const d of src.includeDirs(repo)) assert.ok(fs.statSync(d).isDirectory(), d);
});

test('configure writes frd_config.h and frd_version.h as CMake would', (t) => {
  const out = path.join(tmpdir(t), 'gen');
  src.configure(out, repo);
  const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
  const [major, minor, patch] = version.split('.').map(Number);
  const ver = fs.readFileSync(path.join(out, 'frd_version.h'), 'utf8');
  assert.match(ver, new RegExp(`#define FRD_VERSION_STRING "${version}"`));
  assert.match(ver, new RegExp(`#define FRD_VERSION_HEX ${major * 10000 + minor * 100 + patch}\\n`));
  assert.match(cmake, new RegExp(`project\\(frd VERSION ${version.replace(/\./g, '\\.')}\\b`),
    'package.json and CMakeLists.txt give one version');
  const cfg = fs.readFileSync(path.join(out, 'frd_config.h'), 'utf8');
  assert.doesNotMatch(cfg, /@/);
  if (process.platform === 'linux') {
    assert.match(cfg, /#define FRD_HAS_DIRENT_D_TYPE 1\n/);
    assert.match(cfg, /#define FRD_HAS_BACKSLASH_SEPARATOR 0\n/);
  }
});

test('npm pack: the tarball holds the C sources, build scripts, types, README and LICENSE', () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'],
    { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const files = new Set(JSON.parse(out)[0].files.map((f) => f.path));
  for (const f of ['LICENSE', 'README.md', 'package.json', 'binding.gyp', 'index.d.ts',
    'lib/index.js', 'lib/validate.js', 'src/addon.cc', 'src/exports.map', 'scripts/install.js',
    'scripts/frd-sources.js', 'frd/CMakeLists.txt', 'frd/cmake/frd_config.h.in',
    'frd/cmake/frd_version.h.in', 'frd/lib/include/frd.h']) {
    assert.ok(files.has(f), `${f} is not in the tarball`);
  }
  for (const f of src.sources(repo)) {
    const rel = `frd/${path.relative(repo, f).split(path.sep).join('/')}`;
    assert.ok(files.has(rel), `${rel} is not in the tarball`);
  }
  for (const f of files) {
    assert.doesNotMatch(f, /^(test|bench|node_modules|build)\//, `${f} should not be packed`);
  }
  // postpack took the copies away again: a build in the checkout compiles the checkout.
  assert.ok(!fs.existsSync(path.join(pkg, 'frd')), 'frd/ left in the folder');
  assert.ok(!fs.existsSync(path.join(pkg, 'LICENSE')), 'LICENSE left in the folder');
});
