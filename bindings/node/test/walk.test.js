// walk(): batches, filters run in C (exclude, maxDepth, hidden, types), sort, abort, and the
// event loop staying responsive during a long walk.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const frd = require('..');
const { tmpdir, keys, typeOf, oddTree, ubootTree } = require('./helpers');

const fsTree = (root) => fs.readdirSync(root, { recursive: true, withFileTypes: true });
const relOf = (root, d) => path.relative(root, path.join(d.parentPath, d.name));

async function collect(root, options) {
  const batches = [];
  for await (const batch of frd.walk(root, options)) batches.push(batch);
  return batches;
}

test('walk yields batches no larger than batchSize that add up to the whole tree', async (t) => {
  const root = ubootTree(t);
  const batches = await collect(root, { batchSize: 100 });
  assert.ok(batches.length > 10, `${batches.length} batches`);
  for (const b of batches) assert.ok(b.length >= 1 && b.length <= 100, `batch of ${b.length}`);
  assert.deepStrictEqual(keys(batches.flat()), keys(fsTree(root)));
});

test('the default batchSize is 2048 entries, 1024 with stats', async (t) => {
  const root = ubootTree(t);
  // 41,565 entries over at most 8 workers' batches: some worker fills a whole batch.
  for (const [options, size] of [[{}, 2048], [{ stats: true }, 1024]]) {
    const sizes = (await collect(root, options)).map((b) => b.length);
    assert.strictEqual(Math.max(...sizes), size, JSON.stringify(options));
    assert.strictEqual(sizes.reduce((a, b) => a + b, 0), fsTree(root).length);
  }
});

test('names are cut out of batches of ASCII names and of others alike (tiny batches)', async (t) => {
  // With one to a few entries per batch, some batches hold only ASCII names (sliced at the
  // offsets the addon records) and others a name that is not (found by its NUL), and
  // directories with and without ASCII names head them.
  const root = oddTree(tmpdir(t));
  const want = keys(fsTree(root));
  const wantRel = fsTree(root).map((d) => relOf(root, d)).sort();
  for (const batchSize of [1, 2, 3, 5, 1000]) {
    assert.deepStrictEqual(keys((await collect(root, { batchSize })).flat()), want, `${batchSize}`);
    assert.deepStrictEqual((await collect(root, { batchSize, withFileTypes: false })).flat().sort(),
      wantRel, `paths, ${batchSize}`);
    assert.deepStrictEqual(keys(frd.readdirSync(root, { recursive: true, withFileTypes: true, batchSize })),
      want, `sync, ${batchSize}`);
    assert.deepStrictEqual(frd.readdirSync(root, { recursive: true, batchSize }).sort(), wantRel,
      `sync paths, ${batchSize}`);
  }
});

test('sort: depth-first, by name, the same order on every run', async (t) => {
  const root = ubootTree(t);
  // Reference order: children by name (byte order equals UTF-16 order on these ASCII
  // names), each directory followed by its subtree.
  const want = [];
  const visit = (dir, rel) => {
    const names = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      want.push(r);
      if (d.isDirectory()) visit(path.join(dir, d.name), r);
    }
  };
  visit(root, '');
  const got1 = (await collect(root, { sort: true, withFileTypes: false })).flat();
  const got2 = (await collect(root, { sort: true, withFileTypes: false, batchSize: 7 })).flat();
  assert.deepStrictEqual(got1, want);
  assert.deepStrictEqual(got2, want);
});

test('exclude globs, maxDepth, hidden and types filter as fs + a JS filter would', async (t) => {
  const root = oddTree(tmpdir(t));
  const all = fsTree(root);
  const rel = (d) => relOf(root, d);
  const parts = (d) => rel(d).split('/');
  const cases = [
    [{ exclude: ['node_modules', '*.tmp'] },
      (d) => !parts(d).includes('node_modules') && !d.name.endsWith('.tmp')],
    [{ exclude: ['a/b'] }, (d) => !rel(d).startsWith('a/b')],
    [{ maxDepth: 2 }, (d) => parts(d).length <= 2],
    [{ maxDepth: 1 }, (d) => parts(d).length === 1],
    [{ hidden: false }, (d) => !parts(d).some((p) => p.startsWith('.'))],
    [{ types: ['file'] }, (d) => d.isFile()],
    [{ types: ['symlink', 'directory'] }, (d) => d.isSymbolicLink() || d.isDirectory()],
  ];
  for (const [options, keep] of cases) {
    const want = keys(all.filter(keep));
    assert.ok(want.length > 0 && want.length < all.length, JSON.stringify(options));
    assert.deepStrictEqual(keys((await collect(root, options)).flat()), want, JSON.stringify(options));
    assert.deepStrictEqual(keys(frd.readdirSync(root, { recursive: true, withFileTypes: true, ...options })),
      want, `sync ${JSON.stringify(options)}`);
  }
});

test('gitignore: what git ignores is left out, as git check-ignore says', async (t) => {
  const { execFileSync } = require('node:child_process');
  const root = path.join(tmpdir(t), 'repo');
  const files = ['keep.c', 'drop.o', 'build/out.bin', 'src/a.c', 'src/a.o', 'src/keep.o',
    'src/gen/x.c', 'docs/notes.md', 'docs/tmp/scratch.txt', 'logs/app.log', '.env'];
  for (const f of files) {
    fs.mkdirSync(path.join(root, path.dirname(f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), 'x');
  }
  execFileSync('git', ['init', '-q', root]);
  fs.writeFileSync(path.join(root, '.gitignore'), '*.o\n/build/\nlogs\n.env\n');
  fs.writeFileSync(path.join(root, 'src', '.gitignore'), '!keep.o\ngen/\n');
  fs.writeFileSync(path.join(root, 'docs', '.gitignore'), 'tmp\n');
  const all = fsTree(root).filter((d) => !relOf(root, d).split('/').includes('.git'));
  const rels = all.map((d) => relOf(root, d));
  // git check-ignore prints each ignored path; an entry below an ignored directory is out too.
  let ignored = [];
  try {
    ignored = execFileSync('git', ['-C', root, 'check-ignore', '--no-index', '--stdin'],
      { input: rels.join('\n') + '\n', env: { ...process.env, XDG_CONFIG_HOME: root, HOME: root } })
      .toString().split('\n').filter(Boolean);
  } catch (e) {
    if (e.status !== 1) throw e; // 1: nothing ignored
  }
  const out = new Set(ignored);
  const kept = all.filter((d) => {
    const parts = relOf(root, d).split('/');
    return !parts.some((_, i) => out.has(parts.slice(0, i + 1).join('/')));
  });
  assert.ok(kept.length > 5 && kept.length < all.length - 5, 'the rules leave some out, not all');
  const want = keys(kept);
  const env = { XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, HOME: process.env.HOME };
  process.env.XDG_CONFIG_HOME = root; // no global excludes file of the machine's user
  process.env.HOME = root;
  try {
    for (const sort of [false, true]) {
      const got = (await collect(root, { gitignore: true, sort })).flat()
        .filter((d) => !relOf(root, d).split('/').includes('.git'));
      assert.deepStrictEqual(keys(got), want, `sort: ${sort}`);
    }
    assert.deepStrictEqual(keys(frd.readdirSync(root, { recursive: true, withFileTypes: true,
      gitignore: true }).filter((d) => !relOf(root, d).split('/').includes('.git'))), want, 'sync');
    assert.ok(keys((await collect(root, { gitignore: false })).flat()).length > want.length);
  } finally {
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  }
});

test('walk with stats gives each entry its lstat metadata', async (t) => {
  const root = oddTree(tmpdir(t));
  let n = 0;
  for await (const batch of frd.walk(root, { stats: true, exclude: ['bad-*'] })) {
    for (const e of batch) {
      const s = fs.lstatSync(path.join(e.parentPath, e.name), { bigint: true });
      assert.strictEqual(e.stats.ino, Number(s.ino));
      assert.strictEqual(e.stats.size, Number(s.size));
      assert.strictEqual(e.stats.mtimeNs, s.mtimeNs);
      assert.strictEqual(typeOf(e), typeOf(s));
      n++;
    }
  }
  assert.ok(n > 70);
});

test('abort mid-walk rejects with an AbortError and stops the walk', async (t) => {
  const root = ubootTree(t);
  const ac = new AbortController();
  let seen = 0;
  let batches = 0;
  await assert.rejects(async () => {
    for await (const batch of frd.walk(root, { signal: ac.signal, batchSize: 50, highWaterMark: 1 })) {
      seen += batch.length;
      if (++batches === 3) ac.abort();
    }
  }, { name: 'AbortError', code: 'ABORT_ERR' });
  assert.strictEqual(batches, 3);
  assert.ok(seen <= 150);
  // Aborted before the start: nothing is walked.
  await assert.rejects(collect(root, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  // An abort while a next() is waiting rejects that next().
  const ac2 = new AbortController();
  const it = frd.walk(root, { signal: ac2.signal })[Symbol.asyncIterator]();
  const p = it.next();
  ac2.abort(new Error('why'));
  await assert.rejects(p, (e) => e.name === 'AbortError' && e.cause.message === 'why');
});

test('breaking out of the loop stops the walk; the next walk works', async (t) => {
  const root = ubootTree(t);
  for (let i = 0; i < 20; i++) {
    // eslint-disable-next-line no-unused-vars
    for await (const batch of frd.walk(root, { batchSize: 10, highWaterMark: 1 })) break;
  }
  assert.deepStrictEqual(keys((await collect(root, {})).flat()), keys(fsTree(root)));
});

test('walk errors: a missing root rejects the first next() with ENOENT', async (t) => {
  const missing = path.join(tmpdir(t), 'nope');
  await assert.rejects(collect(missing, {}), { code: 'ENOENT', syscall: 'scandir', path: missing, errno: -2 });
});

test('the event loop keeps running during a long walk (worst timer delay recorded)', async (t) => {
  const root = fs.existsSync('/usr/lib') ? '/usr' : ubootTree(t);
  const period = 5;
  let ticks = 0;
  let worst = 0;
  let last = process.hrtime.bigint();
  const timer = setInterval(() => {
    const now = process.hrtime.bigint();
    worst = Math.max(worst, Number(now - last) / 1e6 - period);
    last = now;
    ticks++;
  }, period);
  const start = process.hrtime.bigint();
  let n = 0;
  for (let round = 0; round < 2; round++) {
    for await (const batch of frd.walk(root, { stats: round === 1 })) n += batch.length;
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  clearInterval(timer);
  t.diagnostic(`${n} entries in ${ms.toFixed(0)} ms; timer fired ${ticks} times, worst delay ${worst.toFixed(1)} ms`);
  // The walk spans several timer periods, so a loop blocked by it would show no ticks.
  if (ms > 10 * period) assert.ok(ticks > 1, `timer fired ${ticks} times during a ${ms} ms walk`);
});
