// errors: 'collect': the walk goes on past each error below the root and hands it over as
// fs would have thrown it (an Error with message, code, errno, syscall and path): on the
// walk() iterator's `errors`, on readdir's and readdirSync's result's `errors`. Errors of
// the root itself still throw, as in the other modes.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const frd = require('..');
const { tmpdir, keys, runUnprivileged } = require('./helpers');

// Run as a user whom permissions stop (helpers.runUnprivileged): two unreadable directories,
// one at each depth, in a tree with entries before and after them. Every entry point, with
// and without stats and sort, lists all the rest and hands over exactly the errors
// fs.readdirSync throws for those two directories.
const UNREADABLE_COLLECT = `
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const [mod, root] = process.argv.slice(1);
const frd = require(mod);
const locked = [path.join(root, 'a', 'locked2'), path.join(root, 'locked1')];
const fsError = (p) => { try { fs.readdirSync(p); } catch (e) { return e; } assert.fail(p + ' is readable'); };
const want = locked.map(fsError);
const wantNames = ['a', 'a/f', 'a/locked2', 'locked1', 'z', 'z/f'];
const same = (errors, label) => {
  assert.ok(Array.isArray(errors), label + ': errors is ' + errors);
  const got = [...errors].sort((x, y) => (x.path < y.path ? -1 : 1));
  assert.strictEqual(got.length, want.length, label + ': ' + got.map((e) => e.message));
  for (let i = 0; i < want.length; i++) {
    assert.ok(got[i] instanceof Error, label);
    for (const k of ['message', 'code', 'errno', 'syscall', 'path']) {
      assert.strictEqual(got[i][k], want[i][k], label + ': ' + k + ' of ' + want[i].path);
    }
  }
};
const rel = (d) => path.relative(root, path.join(d.parentPath, d.name));
const namesOf = (entries) => entries.map((d) => (typeof d === 'string' ? d : rel(d))).sort();
(async () => {
  assert.strictEqual(want[0].code, 'EACCES');
  for (const extra of [{}, { stats: true }, { sort: true }, { stats: true, bigint: true, workers: 1 }]) {
    const o = { recursive: true, errors: 'collect', ...extra };
    const label = JSON.stringify(extra);
    const sync = frd.readdirSync(root, o);
    assert.deepStrictEqual(namesOf(sync), wantNames, 'sync ' + label);
    same(sync.errors, 'sync ' + label);
    const prom = await frd.readdir(root, o);
    assert.deepStrictEqual(namesOf(prom), wantNames, 'promise ' + label);
    same(prom.errors, 'promise ' + label);
    const cb = await new Promise((resolve, reject) => frd.readdir(root, o, (e, r) => (e ? reject(e) : resolve(r))));
    assert.deepStrictEqual(namesOf(cb), wantNames, 'callback ' + label);
    same(cb.errors, 'callback ' + label);
    const it = frd.walk(root, { errors: 'collect', batchSize: 1, ...extra });
    assert.deepStrictEqual(it.errors, [], 'walk before it starts ' + label);
    const names = [];
    for await (const batch of it) for (const d of batch) names.push(rel(d));
    assert.deepStrictEqual(names.sort(), wantNames, 'walk ' + label);
    same(it.errors, 'walk ' + label);
  }
  // The other modes are as they were: the first error ends the walk, or none is kept.
  await assert.rejects(frd.readdir(root, { recursive: true }), { code: 'EACCES' });
  const ignored = await frd.readdir(root, { recursive: true, errors: 'ignore' });
  assert.deepStrictEqual([...ignored].sort(), wantNames);
  assert.strictEqual(ignored.errors, undefined);
})().catch((e) => { console.error(e); process.exit(1); });
`;

test('errors: collect goes on past unreadable directories and hands over fs\'s errors for them', (t) => {
  const root = tmpdir(t);
  fs.chmodSync(root, 0o755);
  for (const d of ['a/locked2', 'locked1', 'z']) fs.mkdirSync(path.join(root, d), { recursive: true });
  for (const f of ['a/f', 'a/locked2/inside', 'locked1/inside', 'z/f']) fs.writeFileSync(path.join(root, f), '');
  const locked = [path.join(root, 'locked1'), path.join(root, 'a', 'locked2')];
  for (const d of locked) fs.chmodSync(d, 0);
  const r = runUnprivileged(t, UNREADABLE_COLLECT, [root]);
  for (const d of locked) fs.chmodSync(d, 0o755); // so that the tree can be removed
  assert.strictEqual(r.error, undefined, `${r.error}`);
  assert.strictEqual(r.status, 0, r.stderr);
});

test('errors: collect with followSymlinks keeps each loop (ELOOP) and walks the rest', async (t) => {
  const root = tmpdir(t);
  for (const d of ['a/b', 'c']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.writeFileSync(path.join(root, 'a/b/f'), '');
  fs.symlinkSync('.', path.join(root, 'a/b/self'));
  fs.symlinkSync('..', path.join(root, 'c/up'));
  const loops = [path.join(root, 'a/b/self'), path.join(root, 'c/up')];
  const check = (errors, label) => {
    const got = [...errors].sort((x, y) => (x.path < y.path ? -1 : 1));
    assert.deepStrictEqual(got.map((e) => e.path), loops, label);
    for (const e of got) {
      assert.ok(e instanceof Error, label);
      assert.strictEqual(e.code, 'ELOOP', label);
      assert.strictEqual(e.errno, -require('node:os').constants.errno.ELOOP, label);
      assert.strictEqual(e.syscall, 'scandir', label);
      assert.match(e.message, new RegExp(`^ELOOP: .+, scandir '${e.path.replace(/[/.]/g, '\\$&')}'$`), label);
    }
  };
  const o = { recursive: true, withFileTypes: true, followSymlinks: true };
  // What the walk lists without stopping: the same as errors: 'ignore' lists.
  const want = keys(await frd.readdir(root, { ...o, errors: 'ignore' }));
  assert.ok(want.length >= 4, want.join());
  const sync = frd.readdirSync(root, { ...o, errors: 'collect' });
  assert.deepStrictEqual(keys(sync), want);
  check(sync.errors, 'sync');
  const prom = await frd.readdir(root, { ...o, errors: 'collect' });
  assert.deepStrictEqual(keys(prom), want);
  check(prom.errors, 'promise');
  const it = frd.walk(root, { followSymlinks: true, errors: 'collect' });
  const got = [];
  for await (const batch of it) got.push(...batch);
  assert.deepStrictEqual(keys(got), want);
  check(it.errors, 'walk');
  // errors: 'throw' (the default) rejects with the first of them.
  await assert.rejects(frd.readdir(root, o), (e) => e.code === 'ELOOP' && loops.includes(e.path));
});

test('errors: collect still throws for the root itself (missing, not a directory)', async (t) => {
  const root = tmpdir(t);
  const missing = path.join(root, 'missing');
  const file = path.join(root, 'file');
  fs.writeFileSync(file, '');
  const o = { recursive: true, errors: 'collect' };
  assert.throws(() => frd.readdirSync(missing, o), { code: 'ENOENT', syscall: 'scandir', path: missing });
  await assert.rejects(frd.readdir(file, o), { code: 'ENOTDIR', syscall: 'scandir', path: file });
  const it = frd.walk(missing, { errors: 'collect' });
  await assert.rejects(it.next(), { code: 'ENOENT', path: missing });
  assert.deepStrictEqual(it.errors, []);
});

test('errors: collect on a tree without errors: empty errors, the same entries', async (t) => {
  const root = tmpdir(t);
  fs.mkdirSync(path.join(root, 'd'));
  fs.writeFileSync(path.join(root, 'd', 'f'), '');
  const sync = frd.readdirSync(root, { recursive: true, errors: 'collect' });
  assert.deepStrictEqual([...sync].sort(), ['d', 'd/f']);
  assert.deepStrictEqual(sync.errors, []);
  const prom = await frd.readdir(root, { recursive: true, errors: 'collect' });
  assert.deepStrictEqual(prom.errors, []);
  // Without errors: 'collect' the result is a plain array, as fs's.
  assert.strictEqual(frd.readdirSync(root, { recursive: true }).errors, undefined);
});
