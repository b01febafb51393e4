// The walks the benchmark compares, each a function (root) => Promise<number of entries>.
// "names" walks list every entry below the root with its type; "stats" walks also get each
// entry's lstat metadata. Every contender counts the same entries (the root excluded).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const frd = require('..');
const { fdir } = require('fdir');
const fsWalk = require('@nodelib/fs.walk');
const { readdirpPromise } = require('readdirp');

const walkAsync = (root, settings) => new Promise((resolve, reject) => {
  fsWalk.walk(root, new fsWalk.Settings(settings), (err, entries) => (err ? reject(err) : resolve(entries.length)));
});

module.exports = {
  names: {
    'frd readdir': async (root) => (await frd.readdir(root, { recursive: true })).length,
    'frd readdirSync': async (root) => frd.readdirSync(root, { recursive: true }).length,
    'frd walk': async (root) => {
      let n = 0;
      for await (const batch of frd.walk(root)) n += batch.length;
      return n;
    },
    'fdir (async)': async (root) => (await new fdir().withRelativePaths().withDirs().crawl(root).withPromise()).length - 1,
    'fdir (sync)': async (root) => new fdir().withRelativePaths().withDirs().crawl(root).sync().length - 1,
    '@nodelib/fs.walk': async (root) => walkAsync(root, {}),
    readdirp: async (root) => (await readdirpPromise(root, { type: 'all' })).length,
    'fs.readdirSync recursive': async (root) => fs.readdirSync(root, { recursive: true, withFileTypes: true }).length,
  },
  stats: {
    'frd readdir': async (root) => (await frd.readdir(root, { recursive: true, stats: true })).length,
    'frd walk': async (root) => {
      let n = 0;
      for await (const batch of frd.walk(root, { stats: true })) n += batch.length;
      return n;
    },
    'fdir + lstatSync': async (root) => {
      const files = new fdir().withFullPaths().withDirs().crawl(root).sync();
      let n = 0;
      for (const f of files) if (fs.lstatSync(f)) n++;
      return n - 1;
    },
    '@nodelib/fs.walk stats': async (root) => walkAsync(root, { stats: true }),
    'readdirp lstat': async (root) => (await readdirpPromise(root, { type: 'all', alwaysStat: true, lstat: true })).length,
    'fs.readdirSync + lstatSync': async (root) => {
      let n = 0;
      for (const d of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (fs.lstatSync(path.join(d.parentPath, d.name))) n++;
      }
      return n;
    },
  },
};
