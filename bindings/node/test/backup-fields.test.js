// The options a backup tool walks with (issue 36): linkTargets (entry.linkTarget against
// fs.readlinkSync), xattrs (entry.xattrs against getfattr -d -m - -h -e hex), linkGroups
// (entry.linkGroup and linkFirst against grouping by fs.lstatSync's dev and ino), at 1, 2
// and 8 workers, sorted and not; without the options the four fields are undefined.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const frd = require('..');
const { tmpdir } = require('./helpers');

const FIELDS = ['linkTarget', 'xattrs', 'linkGroup', 'linkFirst'];

// A tree with hard links (a group of 3 across directories, one of 2), symbolic links (one
// whose target has a newline, one whose target is 300 bytes of invalid UTF-8) and, where
// the file system takes them, user extended attributes (one of 300 bytes, one empty) and
// an ACL. Returns { root, xattrs: whether setfattr worked }.
function backupTree(t) {
  const root = path.join(tmpdir(t, 'frd-node-backup-'), 't');
  const p = (rel) => path.join(root, rel);
  fs.mkdirSync(p('sub/deeper'), { recursive: true });
  for (const name of ['plain', 'tagged', 'one', 'sub/deeper/f']) fs.writeFileSync(p(name), name);
  fs.linkSync(p('one'), p('sub/two'));
  fs.linkSync(p('one'), p('sub/deeper/three'));
  fs.linkSync(p('plain'), p('plain.2'));
  fs.symlinkSync('plain', p('to-plain'));
  fs.symlinkSync('no/such\nplace', p('dangling'));
  fs.symlinkSync(Buffer.alloc(300, 0xff), p('long-invalid-utf8'));
  const set = (rel, name, value) =>
    spawnSync('setfattr', ['-n', name, '-v', value, p(rel)], { stdio: 'ignore' }).status === 0;
  const xattrs = set('tagged', 'user.small', 'v') && set('tagged', 'user.big', 'x'.repeat(300)) &&
    set('sub', 'user.empty', '""') && set('sub/two', 'user.on-a-link', '0x00ff');
  if (xattrs) spawnSync('setfacl', ['-m', 'u:65534:r', p('plain')], { stdio: 'ignore' });
  return { root, xattrs };
}

// Every walk of `root` with `options` at workers 1, 2 and 8, sorted and not: [label, entries].
async function* walks(root, options) {
  for (const workers of [1, 2, 8]) {
    for (const sort of [false, true]) {
      const entries = [];
      for await (const batch of frd.walk(root, { ...options, workers, sort })) entries.push(...batch);
      yield [`workers ${workers} sort ${sort}`, entries];
    }
  }
}

const full = (e) => path.join(e.parentPath, e.name);

test('without the options, linkTarget, xattrs, linkGroup and linkFirst are undefined', async (t) => {
  const { root } = backupTree(t);
  const all = [];
  for await (const batch of frd.walk(root, { stats: true })) all.push(...batch);
  all.push(...frd.readdirSync(root, { recursive: true, withFileTypes: true }));
  assert.ok(all.length > 20);
  for (const e of all) for (const k of FIELDS) assert.strictEqual(e[k], undefined, `${k} of ${full(e)}`);
});

test('linkTarget equals fs.readlinkSync; null for entries that are not symbolic links', async (t) => {
  const { root } = backupTree(t);
  for await (const [label, entries] of walks(root, { linkTargets: true })) {
    let links = 0;
    for (const e of entries) {
      const where = `${label}: ${full(e)}`;
      if (e.isSymbolicLink()) {
        links++;
        assert.strictEqual(typeof e.linkTarget, 'string', where);
        assert.strictEqual(e.linkTarget, fs.readlinkSync(full(e)), where);
      } else {
        assert.strictEqual(e.linkTarget, null, where);
      }
      assert.strictEqual(e.xattrs, undefined, where);
      assert.strictEqual(e.linkGroup, undefined, where);
    }
    assert.strictEqual(links, 3, label);
    const byName = Object.fromEntries(entries.map((e) => [e.name, e]));
    assert.strictEqual(byName.dangling.linkTarget, 'no/such\nplace', label);
    // Not valid UTF-8: decoded as fs decodes it (U+FFFD for each bad byte), as names are.
    assert.strictEqual(byName['long-invalid-utf8'].linkTarget, '\uFFFD'.repeat(300), label);
  }
});

const haveGetfattr = spawnSync('getfattr', ['--version'], { stdio: 'ignore' }).status === 0;

// What getfattr -d -m - -h --absolute-names -e hex prints for `p`: { name: hex digits }.
const getfattrCache = new Map();
function getfattr(p) {
  if (!getfattrCache.has(p)) {
    const r = spawnSync('getfattr', ['-d', '-m', '-', '-h', '--absolute-names', '-e', 'hex', p],
      { encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
    const out = {};
    for (const line of r.stdout.split('\n')) {
      const m = /^([^#=][^=]*)=0x([0-9a-f]*)$/.exec(line);
      if (m) out[m[1]] = m[2];
      else assert.ok(line === '' || line.startsWith('# file: '), `getfattr said ${line}`);
    }
    getfattrCache.set(p, out);
  }
  return getfattrCache.get(p);
}

// entry.xattrs as getfattr shows them: { name: hex digits, or null when too long }.
function asHex(xattrs) {
  const out = {};
  for (const [k, v] of Object.entries(xattrs)) {
    assert.ok(v === null || Buffer.isBuffer(v), `${k}: ${v}`);
    out[k] = v === null ? null : v.toString('hex');
  }
  return out;
}

test('xattrs equal getfattr -d -m - -h (user attributes, ACLs); {} where there are none', async (t) => {
  const { root, xattrs } = backupTree(t);
  if (!xattrs) {
    t.skip('setfattr failed: no user extended attributes on this file system');
    return;
  }
  for await (const [label, entries] of walks(root, { xattrs: true })) {
    let tagged = 0;
    for (const e of entries) {
      const where = `${label}: ${full(e)}`;
      assert.strictEqual(Object.getPrototypeOf(e.xattrs), Object.prototype, where);
      assert.deepStrictEqual(asHex(e.xattrs), getfattr(full(e)), where);
      if (Object.keys(e.xattrs).length > 0) tagged++;
      assert.strictEqual(e.linkTarget, undefined, where);
    }
    assert.ok(tagged >= 4, `${label}: ${tagged} entries with xattrs`);
    const byName = Object.fromEntries(entries.map((e) => [e.name, e]));
    assert.deepStrictEqual(byName.tagged.xattrs['user.big'], Buffer.from('x'.repeat(300)), label);
    assert.deepStrictEqual(byName.sub.xattrs, { 'user.empty': Buffer.alloc(0) }, label);
  }
});

test('xattrValueMax: a longer value is null, a shorter one read', async (t) => {
  const { root, xattrs } = backupTree(t);
  if (!xattrs) {
    t.skip('setfattr failed: no user extended attributes on this file system');
    return;
  }
  const tagged = frd.readdirSync(root, { xattrs: true, xattrValueMax: 10 })
    .find((e) => e.name === 'tagged');
  assert.deepStrictEqual(tagged.xattrs, { 'user.small': Buffer.from('v'), 'user.big': null });
  const exact = (await frd.promises.readdir(root, { xattrs: true, xattrValueMax: 300 }))
    .find((e) => e.name === 'tagged');
  assert.deepStrictEqual(exact.xattrs['user.big'], Buffer.from('x'.repeat(300)));
});

// Checks linkGroup and linkFirst of `entries` against fs.lstatSync; returns the groups'
// first members in the order of `entries`.
function checkGroups(label, entries, bigint) {
  const byInode = new Map();
  for (const e of entries) {
    const where = `${label}: ${full(e)}`;
    const s = fs.lstatSync(full(e), { bigint: true });
    if (s.isDirectory() || s.nlink < 2n) {
      assert.strictEqual(e.linkGroup, null, where);
      assert.strictEqual(e.linkFirst, null, where);
      continue;
    }
    assert.strictEqual(typeof e.linkGroup, bigint ? 'bigint' : 'number', where);
    const key = `${s.dev}:${s.ino}`;
    if (!byInode.has(key)) byInode.set(key, []);
    byInode.get(key).push(e);
  }
  assert.deepStrictEqual([...byInode.values()].map((g) => g.length).sort(), [2, 3], label);
  const groups = new Set();
  const firsts = [];
  for (const members of byInode.values()) {
    const names = members.map(full);
    assert.strictEqual(new Set(members.map((e) => e.linkGroup)).size, 1, `${label}: ${names}`);
    groups.add(members[0].linkGroup);
    const first = members.filter((e) => e.linkFirst === null);
    assert.strictEqual(first.length, 1, `${label}: ${names}`);
    for (const e of members) if (e !== first[0]) assert.strictEqual(e.linkFirst, full(first[0]), label);
    firsts.push(first[0]);
  }
  assert.strictEqual(groups.size, 2, label);
  return entries.filter((e) => firsts.includes(e));
}

test('linkGroup and linkFirst equal grouping by lstat (dev, ino) of non-directories with nlink > 1', async (t) => {
  const { root } = backupTree(t);
  for (const bigint of [false, true]) {
    for await (const [label, entries] of walks(root, { linkGroups: true, bigint })) {
      const firsts = checkGroups(`${label} bigint ${bigint}`, entries, bigint);
      if (label.endsWith('sort true')) { // numbered 1, 2 in the walk's order
        assert.deepStrictEqual(firsts.map((e) => e.linkGroup), bigint ? [1n, 2n] : [1, 2], label);
      }
    }
  }
  // A relative root: linkFirst is path.join(parentPath, name) of the first, as given.
  const rel = path.relative(process.cwd(), root);
  checkGroups('relative root', frd.readdirSync(rel, { recursive: true, linkGroups: true }), false);
});

test('all three options at once, with stats, in batches of 1, 3 and the default', async (t) => {
  const { root } = backupTree(t);
  for (const batchSize of [1, 3, undefined]) {
    for await (const [walkLabel, entries] of walks(root, { linkTargets: true, xattrs: true,
      linkGroups: true, stats: true, batchSize })) {
      const label = `${walkLabel} batchSize ${batchSize}`;
      checkAll(label, entries);
    }
  }
});

// The four fields of a walk with all three options and stats, against the entry's own type
// and stats, readlink and lstat.
function checkAll(label, entries) {
  for (const e of entries) {
    assert.ok(e instanceof frd.Dirent, label);
    assert.ok(e.stats instanceof frd.Stats, label);
    assert.strictEqual(e.linkTarget !== null, e.isSymbolicLink(), `${label}: ${full(e)}`);
    if (e.isSymbolicLink()) assert.strictEqual(e.linkTarget, fs.readlinkSync(full(e)), label);
    assert.strictEqual(typeof e.xattrs, 'object', label);
    if (haveGetfattr) assert.deepStrictEqual(asHex(e.xattrs), getfattr(full(e)), label);
    assert.strictEqual(e.linkGroup !== null, !e.isDirectory() && e.stats.nlink > 1, label);
  }
  checkGroups(label, entries, false);
}

test('the options are checked as the others are', () => {
  for (const k of ['linkTargets', 'xattrs', 'linkGroups']) {
    assert.throws(() => frd.walk('.', { [k]: 1 }), {
      code: 'ERR_INVALID_ARG_TYPE', name: 'TypeError',
      message: `The "options.${k}" property must be of type boolean. Received type number (1)`,
    });
    assert.throws(() => frd.readdirSync('.', { [k]: 'yes' }), { code: 'ERR_INVALID_ARG_TYPE' });
  }
  assert.throws(() => frd.walk('.', { xattrValueMax: '10' }), {
    code: 'ERR_INVALID_ARG_TYPE',
    message: 'The "options.xattrValueMax" property must be of type number. Received type string (\'10\')',
  });
  for (const v of [0, -1, 65537, 1.5, NaN, Infinity]) {
    assert.throws(() => frd.walk('.', { xattrs: true, xattrValueMax: v }),
      { code: 'ERR_OUT_OF_RANGE', name: 'RangeError' }, String(v));
  }
  assert.throws(() => frd.walk('.', { xattrValueMax: 0 }), {
    message: 'The value of "options.xattrValueMax" is out of range. It must be >= 1 && <= 65536. Received 0',
  });
});
