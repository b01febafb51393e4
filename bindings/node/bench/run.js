// Benchmark: frd against fdir, @nodelib/fs.walk, readdirp and fs.readdirSync, names-only and
// with metadata, on /usr and on the u-boot tree. Runs are interleaved (one run of each
// contender per round, each in a fresh process that warms up first) and the median of the
// rounds is reported. Usage: node bench/run.js [ROUNDS] [ROOT...]; writes bench/results.json.
// BENCH_OUT=FILE writes there instead. BENCH_ONLY=REGEX runs only the contenders whose name
// matches (e.g. '^(frd|fdir|fs)').
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const contenders = require('./contenders');

const rounds = Number(process.argv[2] || 5);
const only = new RegExp(process.env.BENCH_ONLY || '');
let roots = process.argv.slice(3);
if (roots.length === 0) {
  const repo = path.resolve(__dirname, '..', '..', '..');
  const uboot = path.join(os.tmpdir(), 'frd-bench-u-boot');
  if (!fs.existsSync(uboot)) {
    execFileSync('python3', [path.join(repo, 'tests/data/materialize-tree'),
      path.join(repo, 'tests/data/u-boot.tsv.gz'), uboot], { stdio: 'inherit' });
  }
  roots = ['/usr', uboot];
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const results = { only: only.source, machine: `${os.cpus().length} x ${os.cpus()[0].model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.release()}, Node ${process.version}`, load_before: os.loadavg().map((x) => x.toFixed(1)).join(' '), rounds, roots: {} };
for (const root of roots) {
  results.roots[root] = {};
  for (const mode of Object.keys(contenders)) {
    const times = {};
    const cpu = {};
    const delay = {};
    const entries = {};
    for (let r = 0; r < rounds; r++) {
      for (const name of Object.keys(contenders[mode]).filter((n) => only.test(n))) {
        const out = JSON.parse(execFileSync(process.execPath, [path.join(__dirname, 'one.js'), mode, name, root]));
        (times[name] ??= []).push(out.ms);
        (cpu[name] ??= []).push(out.cpuMs);
        (delay[name] ??= []).push(out.loopDelayMs);
        entries[name] = out.entries;
      }
    }
    const rows = {};
    for (const name of Object.keys(times)) {
      rows[name] = {
        median_ms: median(times[name]), runs_ms: times[name], median_cpu_ms: median(cpu[name]),
        worst_loop_delay_ms: Math.max(...delay[name]),
        median_loop_delay_ms: median(delay[name]), entries: entries[name],
      };
    }
    results.roots[root][mode] = rows;
    console.log(`\n${root}, ${mode} (median of ${rounds}, ms; cpu: all threads; worst event loop delay):`);
    for (const [name, row] of Object.entries(rows)) {
      console.log(`  ${name.padEnd(28)} ${row.median_ms.toFixed(1).padStart(8)}  cpu ${row.median_cpu_ms.toFixed(0).padStart(6)}` +
        `  delay ${row.worst_loop_delay_ms.toFixed(1).padStart(6)} (median ${row.median_loop_delay_ms.toFixed(1)})  (${row.entries} entries)`);
    }
  }
}
results.load_after = os.loadavg().map((x) => x.toFixed(1)).join(' ');
fs.writeFileSync(process.env.BENCH_OUT || path.join(__dirname, 'results.json'), JSON.stringify(results, null, 1) + '\n');
