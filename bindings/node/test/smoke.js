// Smoke test of an installed package (test/package-smoke.sh runs it in an app that installed
// frd): require('frd') from the current folder, then readdir, walk with stats, bigint and
// errors: 'collect', each against fs on a small tree; index.d.ts installed. Exits 1 on failure.
'use strict';
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const main = require.resolve('frd', { paths: [process.cwd()] });
const frd = require(main);
const pkg = path.dirname(require.resolve('frd/package.json', { paths: [process.cwd()] }));
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'frd-smoke-'));
(async () => {
  fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
  fs.writeFileSync(path.join(root, 'a', 'b', 'f'), 'hello');
  fs.symlinkSync('..', path.join(root, 'a', 'b', 'up')); // a loop once links are followed
  const want = ['a', 'a/b', 'a/b/f', 'a/b/up']; // (fs.readdirSync would follow 'up' on Node 20)
  assert.deepStrictEqual((await frd.readdir(root, { recursive: true })).sort(), want);
  assert.deepStrictEqual(frd.readdirSync(root, { recursive: true }).sort(), want);
  const f = path.join(root, 'a', 'b', 'f');
  let seen = 0;
  for await (const batch of frd.walk(root, { stats: true, bigint: true })) {
    for (const e of batch) {
      const s = fs.lstatSync(path.join(e.parentPath, e.name), { bigint: true });
      assert.strictEqual(e.stats.ino, s.ino);
      assert.strictEqual(e.stats.size, s.size);
      seen++;
    }
  }
  assert.strictEqual(seen, want.length);
  const it = frd.walk(root, { followSymlinks: true, errors: 'collect' });
  for await (const batch of it) void batch;
  assert.deepStrictEqual(it.errors.map((e) => [e.code, e.path]), [['ELOOP', path.join(root, 'a', 'b', 'up')]]);
  assert.ok(fs.existsSync(path.join(pkg, 'index.d.ts')));
  assert.strictEqual(fs.readFileSync(f, 'utf8'), 'hello');
  console.log(`smoke: ${main}: ${want.length} entries, stats, bigint, errors: collect: ok`);
})().catch((e) => {
  console.error(e);
  process.exitCode = 1;
}).finally(() => fs.rmSync(root, { recursive: true, force: true }));
