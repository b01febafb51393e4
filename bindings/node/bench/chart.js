// Draws bench/results.json as an SVG bar chart (one panel per tree and mode, median ms per
// contender, frd's bars dark). Usage: node bench/chart.js > bench/results.svg
'use strict';
const results = require('./results.json');

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const W = 760;
const labelW = 220;
const barMax = W - labelW - 90;
const rowH = 20;
let y = 30;
const parts = [];
parts.push(`<text x="10" y="20" font-size="15" font-weight="bold">frd vs Node.js tree walkers: median ms of ${results.rounds} interleaved runs (shorter is faster)</text>`);
for (const [root, modes] of Object.entries(results.roots)) {
  for (const [mode, rows] of Object.entries(modes)) {
    y += 24;
    const title = `${root.includes('u-boot') ? 'u-boot tree' : root}, ${mode === 'names' ? 'names and types' : 'with lstat metadata'}`;
    parts.push(`<text x="10" y="${y}" font-size="13" font-weight="bold">${esc(title)}</text>`);
    y += 6;
    const max = Math.max(...Object.values(rows).map((r) => r.median_ms));
    for (const [name, r] of Object.entries(rows)) {
      const w = Math.max(1, (r.median_ms / max) * barMax);
      const color = name.startsWith('frd') ? '#1f4e79' : '#9db9d5';
      parts.push(`<text x="${labelW - 6}" y="${y + 14}" font-size="12" text-anchor="end">${esc(name)}</text>`);
      parts.push(`<rect x="${labelW}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${color}"/>`);
      parts.push(`<text x="${(labelW + w + 5).toFixed(1)}" y="${y + 14}" font-size="12">${r.median_ms.toFixed(0)} ms</text>`);
      y += rowH;
    }
  }
}
y += 20;
parts.push(`<text x="10" y="${y}" font-size="11">${esc(results.machine)}</text>`);
y += 10;
process.stdout.write(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${y}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n${parts.join('\n')}\n</svg>\n`);
