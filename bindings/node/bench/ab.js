// A/B: the walk of two builds of this package (e.g. main's and a branch's), interleaved
// round by round, each run in a fresh process (one untimed warm-up pass, then one timed
// pass), medians of wall and CPU time (user + system of all the process's threads).
// Usage: node bench/ab.js ROUNDS ROOT PKG_A PKG_B [MODE...]
//   PKG_*: a folder with lib/index.js and build/Release/frd.node (this one: .)
//   MODE: names | stats | bigint | collect (default: names stats); each walks ROOT with
//   walk(), reads every entry (and size, mtimeMs, ino of its stats) and counts them.
'use strict';
const { execFileSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const OPTIONS = {
  names: {},
  stats: { stats: true },
  bigint: { stats: true, bigint: true },
  collect: { errors: 'collect' },
};

async function once(frd, root, options) {
  let n = 0;
  let sum = 0;
  for await (const batch of frd.walk(root, options)) {
    for (const e of batch) {
      n++;
      if (e.stats) sum += Number(e.stats.size) + Number(e.stats.mtimeMs) + Number(e.stats.ino);
    }
  }
  globalThis.sink = sum; // (read, so that the reads are not optimised away)
  return n;
}

if (process.argv[2] === '--one') {
  const [, , , pkg, mode, root] = process.argv;
  const frd = require(path.resolve(pkg, 'lib', 'index.js'));
  (async () => {
    await once(frd, root, OPTIONS[mode]);
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const entries = await once(frd, root, OPTIONS[mode]);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const used = process.cpuUsage(cpu);
    process.stdout.write(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, entries }));
  })();
} else {
  const [rounds, root, a, b, ...modes] = process.argv.slice(2);
  const median = (xs) => {
    const s = [...xs].sort((x, y) => x - y);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  console.log(`load before: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  for (const mode of modes.length ? modes : ['names', 'stats']) {
    const res = { A: { ms: [], cpu: [] }, B: { ms: [], cpu: [] } };
    let entries = {};
    for (let r = 0; r < Number(rounds); r++) {
      for (const [k, pkg] of r % 2 ? [['B', b], ['A', a]] : [['A', a], ['B', b]]) {
        const out = JSON.parse(execFileSync(process.execPath, [__filename, '--one', pkg, mode, root]));
        res[k].ms.push(out.ms);
        res[k].cpu.push(out.cpuMs);
        entries[k] = out.entries;
      }
    }
    const [ma, mb, ca, cb] = [median(res.A.ms), median(res.B.ms), median(res.A.cpu), median(res.B.cpu)];
    console.log(`${mode}: A ${ma.toFixed(1)} ms (cpu ${ca.toFixed(0)}), B ${mb.toFixed(1)} ms ` +
      `(cpu ${cb.toFixed(0)}); B/A wall ${(mb / ma).toFixed(3)}, cpu ${(cb / ca).toFixed(3)}; ` +
      `entries A ${entries.A}, B ${entries.B}`);
    console.log(`  A runs: ${res.A.ms.map((x) => x.toFixed(0)).join(' ')}`);
    console.log(`  B runs: ${res.B.ms.map((x) => x.toFixed(0)).join(' ')}`);
  }
  console.log(`load after: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}
