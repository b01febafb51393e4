// Walks dropped unfinished: a thousand of them leave the thread and descriptor counts where
// they were once collected, and below a fixed bound without any collection asked for; a
// walk left by `break` or return() is cancelled and joined before the loop goes on.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const frd = require('..');
const { tmpdir } = require('./helpers');

// 40 directories of 100 files: 4,040 entries, 250 batches of 16.
function bigTree(t) {
  const root = tmpdir(t);
  for (let d = 0; d < 40; d++) {
    const dir = path.join(root, `d${d}`);
    fs.mkdirSync(dir);
    for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(dir, `f${f}`), '');
  }
  return root;
}

function abandon(root, n, gc) {
  const script = path.join(__dirname, 'fixtures', 'abandon-walks.js');
  const args = [...(gc ? ['--expose-gc'] : []), script, root, String(n)];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', timeout: 600e3 }));
}

// Open walks are bounded by twice the addon's Walks::kGcWalks (16) before V8 is made to
// collect; each holds 2 workers and a few descriptors (the test's walks ask for 2 workers).
const MAX_THREADS = 2 * 2 * 16 + 8;
const MAX_FDS = 5 * 2 * 16 + 8;

for (const gc of [false, true]) {
  test(`1,000 walks dropped after one batch ${gc ? 'with' : 'without'} global.gc(): threads and descriptors stay bounded`, (t) => {
    const r = abandon(bigTree(t), 1000, gc);
    t.diagnostic(JSON.stringify(r));
    assert.strictEqual(r.unfinished, 1000, 'every walk was left with more to come');
    assert.ok(r.peak.threads - r.start.threads <= MAX_THREADS,
      `${r.peak.threads - r.start.threads} threads more than at the start (bound ${MAX_THREADS})`);
    assert.ok(r.peak.fds - r.start.fds <= MAX_FDS,
      `${r.peak.fds - r.start.fds} descriptors more than at the start (bound ${MAX_FDS})`);
    if (gc) {
      assert.deepStrictEqual(r.collected, r.start, 'after a collection, the counts are back where they were');
    }
  });
}

const counts = () => ({
  threads: Number(/^Threads:\s+(\d+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]),
  fds: fs.readdirSync('/proc/self/fd').length,
});

test('break and return() cancel the walk and join its threads before they resolve', async (t) => {
  const root = bigTree(t);
  for await (const batch of frd.walk(root)) void batch; // what Node starts on first use
  await new Promise((r) => setTimeout(r, 10));
  const start = counts();
  for (let i = 0; i < 20; i++) {
    const options = { batchSize: 16, stats: i % 2 === 1, sort: i % 4 >= 2 };
    // eslint-disable-next-line no-unreachable-loop
    for await (const batch of frd.walk(root, options)) break;
    assert.deepStrictEqual(counts(), start, `after break, ${JSON.stringify(options)}`);
    const it = frd.walk(root, options);
    await it.next();
    assert.deepStrictEqual(await it.return(), { done: true, value: undefined });
    assert.deepStrictEqual(counts(), start, `after return(), ${JSON.stringify(options)}`);
    // return() again, and next() after it, are harmless.
    assert.deepStrictEqual(await it.return(), { done: true, value: undefined });
    assert.deepStrictEqual(await it.next(), { done: true, value: undefined });
  }
  // return() of a walk that ran to its end, and of one never stepped.
  const done = frd.walk(root);
  for await (const batch of done) void batch;
  assert.deepStrictEqual(await done.return(), { done: true, value: undefined });
  const fresh = frd.walk(root, { batchSize: 16 });
  await fresh.return();
  assert.deepStrictEqual(counts(), start);
});

test('a walk dropped unfinished does not keep the process from exiting', (t) => {
  const root = bigTree(t);
  const script = `const frd = require(${JSON.stringify(path.resolve(__dirname, '..'))});
    (async () => {
      const it = frd.walk(process.argv[1], { batchSize: 16, highWaterMark: 1 });
      await it.next();
      console.log('dropped');
    })();`;
  // On main the library's end-of-walk handle kept the loop alive: the child never exited.
  const out = execFileSync(process.execPath, ['-e', script, root], { encoding: 'utf8', timeout: 60e3 });
  assert.strictEqual(out, 'dropped\n');
});

test('worker threads terminated with walks open (waiting, parked, dropped) end cleanly', (t) => {
  const root = bigTree(t);
  // In a child process: on main the first termination ended it (napi_fatal_error from the
  // addon's callback into the ending worker) or it crashed in the addon unloaded with the
  // worker.
  const script = `
    const { Worker } = require('node:worker_threads');
    const fs = require('node:fs');
    const threads = () => Number(/^Threads:\\s+(\\d+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
    const code = \`
      const frd = require(\${JSON.stringify(process.argv[1])});
      const { parentPort } = require('node:worker_threads');
      (async () => {
        const opts = { batchSize: 16, highWaterMark: 1 };
        for (let i = 0; i < 20; i++) await frd.walk(process.argv[2], opts).next(); // dropped
        const waiting = frd.walk(process.argv[2], opts);
        await waiting.next();
        parentPort.postMessage('ready');
        for (;;) await waiting.next(); // steps on until terminated
      })();\`;
    (async () => {
      let base = 0;
      for (let k = 0; k < 5; k++) {
        const w = new Worker(code, { eval: true, argv: [process.argv[2]] });
        await new Promise((res, rej) => { w.on('message', res); w.on('error', rej); });
        await w.terminate();
        if (k === 0) base = threads();
      }
      console.log(threads() === base ? 'clean' : 'threads ' + base + ' -> ' + threads());
    })();`;
  const out = execFileSync(process.execPath, ['-e', script, path.resolve(__dirname, '..'), root],
    { encoding: 'utf8', timeout: 120e3 });
  assert.strictEqual(out, 'clean\n');
});

test('the bytes of batches waiting for a consumer are reported to V8 as external memory', async (t) => {
  const native = require('../build/Release/frd.node');
  const root = bigTree(t);
  // 10 walks parked with 8 full batches of 128 entries with stats queued each: at least
  // 10 * 8 * 128 * 145 bytes (the numbers of an entry with stats) held in the addon.
  const options = { stats: true, batchSize: 128, highWaterMark: 8, workers: 1 };
  const queued = 10 * 8 * 128 * 145;
  assert.strictEqual(native.reportedBytes(), 0);
  const walks = [];
  for (let i = 0; i < 10; i++) {
    const w = frd.walk(root, options);
    await w.next(); // started, its first batch taken: the queue fills behind it
    walks.push(w);
  }
  let reported = 0;
  for (let tries = 0; tries < 500 && reported < queued; tries++) {
    await new Promise((r) => setTimeout(r, 10));
    reported = native.reportedBytes();
  }
  t.diagnostic(`${reported} bytes reported with the walks parked (queued: ${queued})`);
  assert.ok(reported >= queued, `${reported} bytes reported, less than the ${queued} queued`);
  for (const w of walks) await w.return();
  assert.strictEqual(native.reportedBytes(), 0, 'all taken back once the walks closed');
});

test('walks parked for want of a consumer hold none of libuv\'s pool threads: fs calls go on', async (t) => {
  const root = bigTree(t);
  const file = path.join(root, 'd0', 'f0');
  // Twice as many parked walks as the pool has threads (4 by default): a fetch that stayed
  // on a pool thread while its walk waits for JavaScript would leave none for the next
  // walks' fetches nor for fs.
  const walks = [];
  const work = (async () => {
    for (let i = 0; i < 8; i++) {
      const w = frd.walk(root, { batchSize: 16, highWaterMark: 1, workers: 1 });
      walks.push(w);
      await w.next();
    }
    await new Promise((r) => setTimeout(r, 50)); // the next batches fetched, the walks parked
    return Promise.all(Array.from({ length: 16 }, () => fs.promises.readFile(file, 'utf8')));
  })();
  let timer;
  try {
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('walks or fs calls stalled for 20 s')), 20e3);
    });
    assert.deepStrictEqual(await Promise.race([work, late]), Array(16).fill(''));
  } finally {
    clearTimeout(timer);
    for (const w of walks) await w.return();
  }
});
