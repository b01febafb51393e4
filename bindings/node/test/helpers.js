// Shared by the tests: generated trees and the key an entry is compared by.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');

const repo = path.resolve(__dirname, '..', '..', '..');

function tmpdir(t, prefix = 'frd-node-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function typeOf(d) {
  if (d.isFile()) return 'f';
  if (d.isDirectory()) return 'd';
  if (d.isSymbolicLink()) return 'l';
  if (d.isFIFO()) return 'p';
  if (d.isSocket()) return 's';
  if (d.isCharacterDevice()) return 'c';
  if (d.isBlockDevice()) return 'b';
  return '?';
}

// One string per Dirent: parentPath, name and type; sorted, so two listings compare exactly.
function keys(dirents) {
  return dirents.map((d) => `${d.parentPath}\0${d.name}\0${typeOf(d)}`).sort();
}

// A tree with odd names, links (to files, to dirs, dangling, a loop), empty dirs, a fifo and
// a deep chain. Returns its root.
function oddTree(root) {
  const mk = (p) => fs.mkdirSync(path.join(root, p), { recursive: true });
  const touch = (p, data = '') => fs.writeFileSync(path.join(root, p), data);
  mk('empty');
  mk('a/b/c/empty');
  mk('.hidden/inner');
  touch('.hidden/inner/file');
  touch('.dotfile');
  mk('with space/and\ttab');
  touch('with space/and\ttab/new\nline');
  touch('with space/ünïcødé ✓');
  touch('with space/emoji 😀');
  mk('dïr ✓'); // ASCII names in a directory whose own name is not ASCII
  touch('dïr ✓/plain.txt');
  touch('back\\slash');
  touch('a/b/c/file.tmp', 'x'.repeat(1000));
  touch('a/b/keep.txt', 'hello');
  touch('x'.repeat(255));
  mk('node_modules/pkg/lib');
  touch('node_modules/pkg/lib/index.js');
  // A name that is not valid UTF-8: both sides decode it the same way.
  fs.writeFileSync(Buffer.concat([Buffer.from(root + '/bad-'), Buffer.from([0xff, 0xfe]), Buffer.from('.bin')]), '');
  fs.symlinkSync('a/b/keep.txt', path.join(root, 'link-to-file'));
  fs.symlinkSync('a', path.join(root, 'link-to-dir'));
  fs.symlinkSync('does/not/exist', path.join(root, 'dangling'));
  fs.symlinkSync('.', path.join(root, 'a/loop'));
  let deep = 'deep';
  for (let i = 0; i < 60; i++) deep = path.join(deep, `d${i}`);
  mk(deep);
  touch(path.join(deep, 'bottom'));
  try {
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
  } catch {
    // no mkfifo: the tree just has no fifo
  }
  return root;
}

let ubootCache = null;
// The u-boot tree laid out once per test file by tests/data/materialize-tree.
function ubootTree(t) {
  if (ubootCache) return ubootCache;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frd-node-uboot-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const dest = path.join(dir, 'u-boot');
  execFileSync('python3', [path.join(repo, 'tests/data/materialize-tree'),
    path.join(repo, 'tests/data/u-boot.tsv.gz'), dest], { stdio: 'ignore' });
  ubootCache = dest;
  return dest;
}

// Runs `script` (node -e) with the arguments [this package's main module, ...args] as a
// user whom permissions stop: this process's own, or, as root, uid 65534 (setpriv) loading
// a copy of the package (lib/ and the addon) from a directory of its own, since it may not
// be able to search the way to this checkout. Returns spawnSync's result.
function runUnprivileged(t, script, args) {
  let mod = require.resolve('..');
  if (!process.getuid || process.getuid() !== 0) {
    return spawnSync(process.execPath, ['-e', script, mod, ...args], { encoding: 'utf8' });
  }
  const copy = tmpdir(t, 'frd-node-pkg-');
  fs.chmodSync(copy, 0o755);
  fs.cpSync(path.join(__dirname, '..', 'lib'), path.join(copy, 'lib'), { recursive: true });
  fs.mkdirSync(path.join(copy, 'build', 'Release'), { recursive: true });
  fs.copyFileSync(path.join(__dirname, '..', 'build', 'Release', 'frd.node'),
    path.join(copy, 'build', 'Release', 'frd.node'));
  mod = path.join(copy, 'lib', 'index.js');
  return spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups',
    process.execPath, '-e', script, mod, ...args], { encoding: 'utf8' });
}

module.exports = { tmpdir, typeOf, keys, oddTree, ubootTree, runUnprivileged };
