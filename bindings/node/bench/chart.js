// Draws bench/results.json as bench/results.svg with gnuplot (../bench-chart.gp): one panel
// per tree and mode, the median ms of each contender, frd's bars dark.
// Usage: node bench/chart.js [RESULTS.json] [OUT.svg]
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const input = path.resolve(process.argv[2] || path.join(__dirname, 'results.json'));
const out = path.resolve(process.argv[3] || path.join(__dirname, 'results.svg'));
const results = JSON.parse(fs.readFileSync(input, 'utf8'));

const blocks = [];
const titles = [];
for (const [root, modes] of Object.entries(results.roots)) {
  for (const [mode, rows] of Object.entries(modes)) {
    const entries = Object.values(rows)[0].entries;
    titles.push(`${root.includes('u-boot') ? 'u-boot tree' : root} (${entries} entries), ` +
      `${mode === 'names' ? 'names and types' : 'with lstat metadata'}`);
    blocks.push(Object.entries(rows)
      .map(([name, r]) => `${name}\t${r.median_ms}\t${name.startsWith('frd') ? 1 : 0}`).join('\n'));
  }
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'frd-chart-'));
try {
  const data = path.join(tmp, 'data.tsv');
  const titleFile = path.join(tmp, 'titles.txt');
  fs.writeFileSync(data, blocks.join('\n\n\n') + '\n');
  fs.writeFileSync(titleFile, titles.join('\n') + '\n');
  // The 1-minute load average (older results have it at the end of `machine` only).
  const load1 = (l) => String(l ?? results.machine.match(/load ([\d.]+)/)?.[1] ?? '?').split(' ')[0];
  const heading = `frd vs Node.js walkers: median of ${results.rounds} interleaved runs, ` +
    `load ${load1(results.load_before)} to ${load1(results.load_after)}`;
  const q = (s) => `'${s.replace(/'/g, '')}'`;
  execFileSync('gnuplot', ['-e', `data=${q(data)}; titles=${q(titleFile)}; heading=${q(heading)}; out=${q(out)}`,
    path.join(__dirname, '..', '..', 'bench-chart.gp')], { stdio: 'inherit' });
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
