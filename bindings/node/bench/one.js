// Runs one contender in this process: once untimed (warm cache and JIT), then once timed.
// Usage: node bench/one.js names|stats NAME ROOT   prints {"ms": ..., "entries": ...}
'use strict';
const contenders = require('./contenders');
const [mode, name, root] = process.argv.slice(2);
(async () => {
  const f = contenders[mode][name];
  await f(root);
  const start = process.hrtime.bigint();
  const entries = await f(root);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  process.stdout.write(JSON.stringify({ ms, entries }) + '\n');
})();
