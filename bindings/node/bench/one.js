// Runs one contender in this process: once untimed (warm cache and JIT), then once timed.
// Usage: node bench/one.js names|stats NAME ROOT
// prints {"ms", "entries", "cpuMs" (all threads), "loopDelayMs" (worst timer delay)}
'use strict';
const contenders = require('./contenders');
const [mode, name, root] = process.argv.slice(2);
(async () => {
  const f = contenders[mode][name];
  await f(root);
  // The event loop's worst timer delay during the timed pass (a 5 ms interval).
  let worst = 0;
  let last = process.hrtime.bigint();
  const timer = setInterval(() => {
    const now = process.hrtime.bigint();
    worst = Math.max(worst, Number(now - last) / 1e6 - 5);
    last = now;
  }, 5);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const entries = await f(root);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  const cpuMs = (used.user + used.system) / 1000;
  process.stdout.write(JSON.stringify({ ms, entries, cpuMs, loopDelayMs: worst }) + '\n');
})();
