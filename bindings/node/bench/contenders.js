// The walks the benchmark compares, each a function (root) => Promise<number of entries>.
// "names" walks list every entry below the root with its type; "stats" walks also get each
// entry's lstat metadata, and reads three of its fields (size, mtimeMs, mode: frd's Stats reads
// its fields on access, so reading none would time less than fs.lstatSync's work). Every
// contender counts the same entries (the root excluded).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const frd = require('..');
const { fdir } = require('fdir');
const fsWalk = require('@nodelib/fs.walk');
const { readdirpPromise } = require('readdirp');

// Reads the fields every "stats" contender reads; returns 1 so it can be summed.
const use = (st) => (st.size + st.mtimeMs + st.mode >= 0 ? 1 : 1);

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
    'frd readdir': async (root) => {
      let n = 0;
      for (const e of await frd.readdir(root, { recursive: true, stats: true })) n += use(e.stats);
      return n;
    },
    'frd walk': async (root) => {
      let n = 0;
      for await (const batch of frd.walk(root, { stats: true })) for (const e of batch) n += use(e.stats);
      return n;
    },
    'fdir + lstatSync': async (root) => {
      const files = new fdir().withFullPaths().withDirs().crawl(root).sync();
      let n = 0;
      for (const f of files) n += use(fs.lstatSync(f));
      return n - 1;
    },
    '@nodelib/fs.walk stats': async (root) => walkAsync(root, { stats: true }),
    'readdirp lstat': async (root) => (await readdirpPromise(root, { type: 'all', alwaysStat: true, lstat: true })).length,
    'fs.readdirSync + lstatSync': async (root) => {
      let n = 0;
      for (const d of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
        n += use(fs.lstatSync(path.join(d.parentPath, d.name)));
      }
      return n;
    },
  },
};
