// index.d.ts: test/types/usage.ts (every entry point and option, the errors: 'collect' and
// bigint forms, and uses the types must refuse) type-checks under tsc --strict.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

test('index.d.ts: the usage file type-checks (tsc --strict), its @ts-expect-error lines refused', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022',
    '--module', 'commonjs', '--moduleResolution', 'node', '--types', 'node',
    path.join(__dirname, 'types', 'usage.ts')], { encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stdout + r.stderr);
});
