#!/usr/bin/env node
// The addon's build at `npm install` (package.json "install"): `node-gyp rebuild` of
// binding.gyp, which compiles src/addon.cc with frd's C sources, against the headers of the
// Node that runs this script. node-gyp is npm's own (npm names it in npm_config_node_gyp),
// else one installed beside this package, else the one on PATH. Node's headers: those
// installed with it (<prefix>/include/node, as Node's tarballs and the NodeSource and
// Debian packages lay them out) when they are this Node's version, so that nothing is
// downloaded; npm_config_nodedir (--nodedir, .npmrc nodedir=) overrides them; without
// either, node-gyp fetches them as usual.
//
// Installed from a folder (`npm install /path/to/bindings/node`), npm links the folder and
// installs none of its dependencies: node-addon-api (headers only) is then installed into
// the folder's own node_modules first, as `npm install` in the folder would.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const pkg = path.resolve(__dirname, '..');

function run(cmd, args) {
  console.log(`frd: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: pkg });
  if (r.error?.code === 'ENOENT') {
    console.error(`frd: ${cmd} not found: run this through npm (npm install, npm rebuild), ` +
      'which brings its own node-gyp, or install node-gyp');
    process.exit(1);
  }
  if (r.error) throw r.error;
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function resolves(id) {
  try {
    return require.resolve(id, { paths: [pkg] });
  } catch {
    return null;
  }
}

// node-addon-api, installed here when npm did not (a linked folder).
function ensureAddonApi() {
  if (resolves('node-addon-api')) return;
  const npm = process.env.npm_execpath;
  if (!npm) {
    console.error('frd: node-addon-api is not installed: run `npm install` in this folder');
    process.exit(1);
  }
  run(process.execPath, [npm, 'install', '--prefix', pkg, '--omit=dev', '--ignore-scripts',
    '--no-save', '--no-package-lock', '--no-audit', '--no-fund']);
}

// The node-gyp to run: [command, leading arguments].
function nodeGyp() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && fs.existsSync(fromNpm)) return [process.execPath, [fromNpm]];
  const local = resolves('node-gyp/bin/node-gyp.js');
  if (local) return [process.execPath, [local]];
  return ['node-gyp', []];
}

// The installed Node's prefix when it holds this Node's own headers (and node-gyp's
// common.gypi), else null.
function localHeaders() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  const inc = path.join(prefix, 'include', 'node');
  try {
    const h = fs.readFileSync(path.join(inc, 'node_version.h'), 'utf8');
    const part = (n) => (h.match(new RegExp(`#define\\s+NODE_${n}_VERSION\\s+(\\d+)`)) || [])[1];
    const version = `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
    if (version === process.version && fs.existsSync(path.join(inc, 'common.gypi'))) return prefix;
  } catch {
    // no headers there
  }
  return null;
}

try {
  require('./frd-sources').frdRoot(); // the C sources are there, or say where they are not
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
ensureAddonApi();
const args = ['rebuild'];
if (!process.env.npm_config_nodedir) {
  const prefix = localHeaders();
  if (prefix) args.push(`--nodedir=${prefix}`);
  else console.log(`frd: no headers of Node ${process.version} beside it; node-gyp finds its own`);
}
const [cmd, lead] = nodeGyp();
run(cmd, [...lead, ...args]);
