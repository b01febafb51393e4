// bigint: true: each entry's stats as fs.lstatSync(p, { bigint: true }) gives them (a
// BigIntStats: every number field a bigint, *Ms truncated from the ns times, *Ns, the Dates),
// from every entry point.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const frd = require('..');
const { tmpdir, oddTree } = require('./helpers');

const FIELDS = ['dev', 'ino', 'mode', 'nlink', 'uid', 'gid', 'rdev', 'size', 'blocks',
  'atimeMs', 'mtimeMs', 'ctimeMs', 'birthtimeMs', 'atimeNs', 'mtimeNs', 'ctimeNs', 'birthtimeNs'];
const DATES = ['atime', 'mtime', 'ctime', 'birthtime'];
const IS = ['isFile', 'isDirectory', 'isSymbolicLink', 'isFIFO', 'isSocket', 'isCharacterDevice',
  'isBlockDevice'];

function checkAgainstFs(entries, label) {
  let n = 0;
  for (const e of entries) {
    if (e.name.includes('\uFFFD')) continue; // not valid UTF-8: cannot be named by a string
    const p = path.join(e.parentPath, e.name);
    const s = fs.lstatSync(p, { bigint: true });
    const where = `${label}: ${JSON.stringify(p)}`;
    assert.ok(e.stats instanceof frd.BigIntStats, where);
    // A directory's atime moves when the walk reads it (relatime), after its stat.
    const moves = (k) => k.startsWith('atime') && e.isDirectory();
    for (const k of FIELDS) {
      assert.strictEqual(typeof e.stats[k], 'bigint', `${k} of ${where}`);
      if (!moves(k)) assert.strictEqual(e.stats[k], s[k], `${k} of ${where}`);
    }
    for (const k of DATES) {
      assert.ok(e.stats[k] instanceof Date, `${k} of ${where}`);
      if (!moves(k)) assert.strictEqual(e.stats[k].getTime(), s[k].getTime(), `${k} of ${where}`);
    }
    for (const m of IS) assert.strictEqual(e.stats[m](), s[m](), `${m}() of ${where}`);
    n++;
  }
  assert.ok(n > 70, `${label}: ${n} entries`);
}

test('bigint: every stats field as fs.lstatSync(p, {bigint: true}), in every entry point', async (t) => {
  const root = oddTree(tmpdir(t));
  const o = { recursive: true, stats: true, bigint: true };
  checkAgainstFs(await frd.readdir(root, o), 'promise');
  checkAgainstFs(frd.readdirSync(root, o), 'sync');
  checkAgainstFs(await frd.promises.readdir(root, { ...o, sort: true }), 'sorted');
  const walked = [];
  for await (const batch of frd.walk(root, { stats: true, bigint: true, batchSize: 7 })) walked.push(...batch);
  checkAgainstFs(walked, 'walk');
});

test('bigint: ms times truncate the ns times (pre-1970 and sub-ms ones too), as fs does', async (t) => {
  const root = tmpdir(t);
  const f = path.join(root, 'old');
  fs.writeFileSync(f, '');
  // 1969-12-31T23:59:59.9985 and 2001-09-09T01:46:40.0005: fs's Ms are the ns / 10 ** 6,
  // truncated toward zero.
  for (const [secs, label] of [[-0.0015, 'before 1970'], [1e9 + 0.0005, 'after']]) {
    fs.utimesSync(f, secs, secs);
    const [e] = frd.readdirSync(root, { stats: true, bigint: true });
    const s = fs.lstatSync(f, { bigint: true });
    for (const k of ['atimeNs', 'mtimeNs', 'atimeMs', 'mtimeMs']) {
      assert.strictEqual(e.stats[k], s[k], `${k} ${label}`);
    }
    assert.strictEqual(e.stats.mtimeMs, e.stats.mtimeNs / 1000000n, label);
    assert.strictEqual(e.stats.mtime.getTime(), s.mtime.getTime(), label);
  }
});

test('bigint: BigIntStats shows and lists its fields; without stats, no stats', async (t) => {
  const root = tmpdir(t);
  fs.writeFileSync(path.join(root, 'f'), 'hello');
  const [e] = frd.readdirSync(root, { stats: true, bigint: true });
  assert.deepStrictEqual(Object.keys(e.stats.toJSON()), FIELDS);
  assert.strictEqual(e.stats.toJSON().size, 5n);
  assert.match(util.inspect(e.stats), /^BigIntStats \{[^]*size: 5n/);
  assert.throws(() => JSON.stringify(e.stats), TypeError); // a bigint, as with fs.BigIntStats
  const [plain] = frd.readdirSync(root, { withFileTypes: true, bigint: true });
  assert.strictEqual(plain.stats, undefined);
  // bigint: false (the default): numbers, as before.
  const [num] = frd.readdirSync(root, { stats: true, bigint: false });
  assert.ok(num.stats instanceof frd.Stats);
  assert.strictEqual(num.stats.size, 5);
});
