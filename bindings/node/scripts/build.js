#!/usr/bin/env node
// Builds the addon from source (what `npm install` runs): first the frd C library as a
// static archive with CMake from the repository root, compiled against the uv.h of the Node
// that runs this script (the addon takes libuv's symbols from the node binary at run time,
// so it must not link a second libuv), then the addon itself with node-gyp against the same
// Node's headers (nodedir: nothing is downloaded).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const pkg = path.resolve(__dirname, '..');
const repo = path.resolve(pkg, '..', '..');
const nodedir = process.env.npm_config_nodedir || path.resolve(process.execPath, '..', '..');
const nodeInclude = path.join(nodedir, 'include', 'node');
const frdBuild = path.join(pkg, 'build-frd');

function run(cmd, args, opts = {}) {
  console.log(`frd: ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: pkg, ...opts });
}

if (!fs.existsSync(path.join(nodeInclude, 'node_api.h')) || !fs.existsSync(path.join(nodeInclude, 'uv.h'))) {
  console.error(`frd: no Node headers in ${nodeInclude}; set npm_config_nodedir to the prefix ` +
    'of the Node installation that has include/node');
  process.exit(1);
}

run('cmake', ['-S', repo, '-B', frdBuild, '-DCMAKE_BUILD_TYPE=Release',
  '-DFRD_BUILD_TESTS=OFF', '-DFRD_BUILD_EXAMPLES=OFF', '-DFRD_BUILD_BENCH=OFF',
  `-DCMAKE_C_FLAGS=-isystem ${nodeInclude}`]);
run('cmake', ['--build', frdBuild, '--target', 'frd_static', '-j', String(Math.max(1, require('node:os').availableParallelism()))]);

const gyp = require.resolve('node-gyp/bin/node-gyp.js');
run(process.execPath, [gyp, 'rebuild', `--nodedir=${nodedir}`]);
