// The loop thread's share of a walk: runs one contender of bench/contenders.js once untimed,
// then REPS times, and prints the median CPU time of this process's main thread (from
// /proc/thread-self/schedstat: the thread that turns batches into objects), of all its
// threads, and the wall time. Linux only.
// Usage: node bench/loop-thread.js names|stats ROOT [REPS] (NAME='frd walk' by default)
'use strict';
const fs = require('node:fs');
const contenders = require('./contenders');

const [mode, root, reps = 7] = process.argv.slice(2);
const name = process.env.NAME || 'frd walk';
const threadMs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

(async () => {
  const f = contenders[mode][name];
  await f(root);
  const loop = [];
  const cpu = [];
  const wall = [];
  for (let r = 0; r < reps; r++) {
    const t0 = threadMs();
    const c0 = process.cpuUsage();
    const w0 = process.hrtime.bigint();
    await f(root);
    wall.push(Number(process.hrtime.bigint() - w0) / 1e6);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    loop.push(threadMs() - t0);
  }
  console.log(`${mode} ${name}: loop thread ${median(loop).toFixed(1)} ms, all threads ` +
    `${median(cpu).toFixed(1)} ms, wall ${median(wall).toFixed(1)} ms ` +
    `(loop thread per walk: ${loop.map((x) => x.toFixed(1)).join(' ')})`);
})();
