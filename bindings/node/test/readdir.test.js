// readdir(), readdirSync() and promises.readdir() against fs.readdirSync on the same trees:
// the same entries (names, parentPath, types), exactly.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const frd = require('..');
const { tmpdir, keys, oddTree, ubootTree, runUnprivileged } = require('./helpers');

const fsTree = (root) => fs.readdirSync(root, { recursive: true, withFileTypes: true });
// fs.readdir's relative paths, from its Dirents (the names-only form of Node 20 follows
// links to directories, and loops on a link to '.', so it is not the reference here).
const fsRel = (root) => fsTree(root).map((d) => path.relative(root, path.join(d.parentPath, d.name))).sort();

test('sync, promise and callback forms agree exactly with fs.readdirSync on odd names', async (t) => {
  const root = oddTree(tmpdir(t));
  const want = keys(fsTree(root));
  assert.ok(want.length > 70, `tree has ${want.length} entries`);
  assert.deepStrictEqual(keys(frd.readdirSync(root, { recursive: true, withFileTypes: true })), want);
  assert.deepStrictEqual(keys(await frd.readdir(root, { recursive: true, withFileTypes: true })), want);
  assert.deepStrictEqual(keys(await frd.promises.readdir(root, { recursive: true, withFileTypes: true })), want);
  const viaCallback = await new Promise((resolve, reject) => {
    frd.readdir(root, { recursive: true, withFileTypes: true }, (err, r) => (err ? reject(err) : resolve(r)));
  });
  assert.deepStrictEqual(keys(viaCallback), want);
  assert.deepStrictEqual(frd.readdirSync(root, { recursive: true }).sort(), fsRel(root));
  assert.deepStrictEqual((await frd.readdir(root, { recursive: true })).sort(), fsRel(root));
});

test('roots given as "dir/", "./dir" and "dir/x/.." give fs\'s parentPath strings', (t) => {
  const base = tmpdir(t);
  oddTree(path.join(base, 'r'));
  fs.mkdirSync(path.join(base, 'r', 'x'), { recursive: true });
  for (const root of ['r/', './r', 'r/x/..', 'r']) {
    const abs = path.join(base, root) + (root.endsWith('/') ? '/' : '');
    const rel = path.relative(process.cwd(), base) + '/' + root;
    for (const r of [abs, rel]) {
      assert.deepStrictEqual(keys(frd.readdirSync(r, { recursive: true, withFileTypes: true })),
        keys(fsTree(r)), r);
    }
  }
});

test('a root of ".", "./" or "sub/.." (relative to the cwd) gives fs\'s parentPath strings', (t) => {
  const base = tmpdir(t);
  oddTree(path.join(base, 'r'));
  fs.mkdirSync(path.join(base, 'r', 'sub'));
  const cwd = process.cwd();
  process.chdir(path.join(base, 'r'));
  try {
    for (const root of ['.', './', 'sub/..', 'sub/../', '..', '../r']) {
      assert.deepStrictEqual(keys(frd.readdirSync(root, { recursive: true, withFileTypes: true })),
        keys(fsTree(root)), root);
    }
  } finally {
    process.chdir(cwd);
  }
});

test('non-recursive readdir lists one directory, as fs.readdir does', async (t) => {
  const root = oddTree(tmpdir(t));
  assert.deepStrictEqual((await frd.readdir(root)).sort(), fs.readdirSync(root).sort());
  assert.deepStrictEqual(keys(frd.readdirSync(root, { withFileTypes: true })),
    keys(fs.readdirSync(root, { withFileTypes: true })));
});

test('exact agreement on the u-boot tree', async (t) => {
  const root = ubootTree(t);
  const want = keys(fsTree(root));
  assert.ok(want.length > 10000, `u-boot tree has ${want.length} entries`);
  assert.deepStrictEqual(keys(await frd.readdir(root, { recursive: true, withFileTypes: true })), want);
  assert.deepStrictEqual(keys(frd.readdirSync(root, { recursive: true, withFileTypes: true })), want);
  assert.deepStrictEqual((await frd.readdir(root, { recursive: true })).sort(), fsRel(root));
});

test('stats: the metadata fs.lstatSync reports, times as Date and bigint ns', async (t) => {
  const root = oddTree(tmpdir(t));
  const entries = await frd.readdir(root, { recursive: true, stats: true });
  assert.ok(entries.length > 70);
  for (const e of entries) {
    if (e.name.includes('\uFFFD')) continue; // not valid UTF-8: cannot be named by a string
    const p = path.join(e.parentPath, e.name);
    const s = fs.lstatSync(p, { bigint: true });
    const label = JSON.stringify(p);
    for (const k of ['dev', 'ino', 'mode', 'nlink', 'uid', 'gid', 'rdev', 'size', 'blocks']) {
      assert.strictEqual(e.stats[k], Number(s[k]), `${k} of ${label}`);
    }
    for (const k of ['mtimeNs', 'ctimeNs', 'birthtimeNs']) {
      assert.strictEqual(e.stats[k], s[k], `${k} of ${label}`);
    }
    assert.ok(e.stats.mtime instanceof Date);
    assert.strictEqual(e.stats.mtime.getTime(), Math.floor(Number(s.mtimeNs / 1000000n)), `mtime of ${label}`);
    assert.strictEqual(e.stats.isDirectory(), e.isDirectory(), label);
    assert.strictEqual(e.stats.isSymbolicLink(), e.isSymbolicLink(), label);
    // The fields are read from the batch on access; toJSON (and so util.inspect and
    // JSON.stringify) lists the same values as plain properties.
    const plain = JSON.parse(JSON.stringify(e.stats));
    assert.deepStrictEqual(Object.keys(plain), ['dev', 'ino', 'mode', 'nlink', 'uid', 'gid', 'rdev',
      'size', 'blocks', 'atimeMs', 'mtimeMs', 'ctimeMs', 'birthtimeMs'], label);
    for (const k of Object.keys(plain)) assert.strictEqual(plain[k], e.stats[k], `${k} of ${label}`);
    assert.match(util.inspect(e.stats), new RegExp(`size: ${e.stats.size}\\b`), label);
  }
});

test('an entry with stats is a Dirent like one without, plus its own stats field', async (t) => {
  const root = oddTree(tmpdir(t));
  const plain = frd.readdirSync(root, { withFileTypes: true })[0];
  for (const e of [...await frd.readdir(root, { stats: true }), ...frd.readdirSync(root, { stats: true })]) {
    assert.ok(e instanceof frd.Dirent);
    assert.strictEqual(Object.getPrototypeOf(e), frd.Dirent.prototype);
    assert.strictEqual(e.constructor, frd.Dirent);
    assert.deepStrictEqual(Object.keys(e), [...Object.keys(plain), 'stats']);
    assert.ok(e.stats instanceof frd.Stats);
    assert.match(util.inspect(e), /^Dirent \{/);
  }
  assert.deepStrictEqual(Object.keys(plain), ['name', 'parentPath', 'path']);
});

test('stats of every batch stay right after later batches arrive (no buffer reuse)', async (t) => {
  const root = ubootTree(t);
  const kept = [];
  for await (const batch of frd.walk(root, { stats: true, batchSize: 64 })) kept.push(...batch);
  assert.ok(kept.length > 10000);
  for (let i = 0; i < kept.length; i += 97) {
    const e = kept[i];
    const s = fs.lstatSync(path.join(e.parentPath, e.name), { bigint: true });
    assert.strictEqual(e.stats.ino, Number(s.ino), e.name);
    assert.strictEqual(e.stats.mtimeNs, s.mtimeNs, e.name);
  }
});

test('errors are Node errors with code, errno, syscall and path', async (t) => {
  const root = tmpdir(t);
  const missing = path.join(root, 'missing');
  const file = path.join(root, 'file');
  fs.writeFileSync(file, '');
  const check = (err, code, p) => {
    assert.ok(err instanceof Error);
    assert.strictEqual(err.code, code);
    assert.strictEqual(err.syscall, 'scandir');
    assert.strictEqual(err.path, p);
    assert.strictEqual(err.errno, -require('node:os').constants.errno[code]);
    assert.match(err.message, new RegExp(`^${code}: .*, scandir '`));
  };
  // The same code and syscall as fs's own error.
  assert.throws(() => fs.readdirSync(missing), (e) => e.code === 'ENOENT' && e.syscall === 'scandir');
  assert.throws(() => frd.readdirSync(missing, { recursive: true }), (e) => (check(e, 'ENOENT', missing), true));
  await assert.rejects(frd.readdir(missing, { recursive: true }), (e) => (check(e, 'ENOENT', missing), true));
  await assert.rejects(frd.readdir(file), (e) => (check(e, 'ENOTDIR', file), true));
  await new Promise((resolve) => frd.readdir(missing, (e, r) => {
    check(e, 'ENOENT', missing);
    assert.strictEqual(r, undefined);
    resolve();
  }));
  assert.throws(() => frd.readdirSync(42), { code: 'ERR_INVALID_ARG_TYPE' });
});

// The checks of the unreadable-directory case, run in this process or, as root (whom
// permissions do not stop), in a child running as uid 65534 (setpriv).
const UNREADABLE_CHECK = `
const assert = require('node:assert');
const path = require('node:path');
const [mod, root] = process.argv.slice(1);
const frd = require(mod);
(async () => {
  await assert.rejects(frd.readdir(root, { recursive: true }),
    { code: 'EACCES', syscall: 'scandir', path: path.join(root, 'locked') });
  assert.throws(() => frd.readdirSync(root, { recursive: true }),
    { code: 'EACCES', syscall: 'scandir', path: path.join(root, 'locked') });
  assert.deepStrictEqual(await frd.readdir(root, { recursive: true, errors: 'ignore' }), ['locked']);
})().catch((e) => { console.error(e); process.exit(1); });
`;

test('an unreadable directory below the root: EACCES thrown, or skipped with errors: ignore', (t) => {
  const root = tmpdir(t);
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(path.join(root, 'locked'));
  fs.writeFileSync(path.join(root, 'locked', 'f'), '');
  fs.chmodSync(path.join(root, 'locked'), 0);
  const r = runUnprivileged(t, UNREADABLE_CHECK, [root]);
  fs.chmodSync(path.join(root, 'locked'), 0o755); // so that the tree can be removed
  assert.strictEqual(r.error, undefined, `${r.error}`);
  assert.strictEqual(r.status, 0, r.stderr);
});
