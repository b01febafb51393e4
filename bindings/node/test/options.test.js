// Every option of walk(), readdir() and readdirSync() checked before anything runs: a bad one
// throws (or rejects, for the promise form) Node's TypeError or RangeError with its code,
// naming the option, as fs does; no value aborts the process or is read loosely.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const frd = require('..');
const { tmpdir, keys } = require('./helpers');

// [options, error class, code, text the message must hold]
const BAD = [
  // batchSize -1, -5, 2 ** 31 and 1e12 threw std::bad_alloc (exit 134) from the addon.
  [{ batchSize: -1 }, RangeError, 'ERR_OUT_OF_RANGE', 'The value of "options.batchSize" is out of range. It must be >= 1 && <= 65536. Received -1'],
  [{ batchSize: -5 }, RangeError, 'ERR_OUT_OF_RANGE', 'Received -5'],
  [{ batchSize: 2 ** 31 }, RangeError, 'ERR_OUT_OF_RANGE', 'Received 2147483648'],
  [{ batchSize: 1e12 }, RangeError, 'ERR_OUT_OF_RANGE', 'Received 1_000_000_000_000'],
  [{ batchSize: 0 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.batchSize"'],
  [{ batchSize: 65537 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.batchSize"'],
  [{ batchSize: 1.5 }, RangeError, 'ERR_OUT_OF_RANGE', 'The value of "options.batchSize" is out of range. It must be an integer. Received 1.5'],
  [{ batchSize: NaN }, RangeError, 'ERR_OUT_OF_RANGE', 'It must be an integer. Received NaN'],
  [{ batchSize: Infinity }, RangeError, 'ERR_OUT_OF_RANGE', '"options.batchSize"'],
  [{ batchSize: '100' }, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.batchSize" property must be of type number. Received type string (\'100\')'],
  [{ batchSize: 100n }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.batchSize"'],
  [{ batchSize: null }, TypeError, 'ERR_INVALID_ARG_TYPE', 'Received null'],
  [{ highWaterMark: 0 }, RangeError, 'ERR_OUT_OF_RANGE', 'The value of "options.highWaterMark" is out of range. It must be >= 1 && <= 64. Received 0'],
  [{ highWaterMark: -1 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.highWaterMark"'],
  [{ highWaterMark: 65 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.highWaterMark"'],
  [{ highWaterMark: 2 ** 32 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.highWaterMark"'],
  [{ highWaterMark: {} }, TypeError, 'ERR_INVALID_ARG_TYPE', 'Received an instance of Object'],
  // maxDepth NaN yielded nothing and -1 meant no limit.
  [{ maxDepth: NaN }, RangeError, 'ERR_OUT_OF_RANGE', 'The value of "options.maxDepth" is out of range. It must be an integer or Infinity. Received NaN'],
  [{ maxDepth: -1 }, RangeError, 'ERR_OUT_OF_RANGE', 'It must be >= 0 && <= 2147483647 or Infinity. Received -1'],
  [{ maxDepth: -Infinity }, RangeError, 'ERR_OUT_OF_RANGE', '"options.maxDepth"'],
  [{ maxDepth: 2 ** 31 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.maxDepth"'],
  [{ maxDepth: 2.5 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.maxDepth"'],
  [{ maxDepth: '3' }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.maxDepth"'],
  // workers -1 was an EINVAL 'scandir' error of the walk.
  [{ workers: -1 }, RangeError, 'ERR_OUT_OF_RANGE', 'The value of "options.workers" is out of range. It must be >= 0 && <= 8. Received -1'],
  [{ workers: 9 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.workers"'],
  [{ workers: 1.5 }, RangeError, 'ERR_OUT_OF_RANGE', '"options.workers"'],
  [{ workers: true }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.workers"'],
  // errors: 'bogus' was taken as 'throw'.
  [{ errors: 'bogus' }, TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options.errors' must be one of: 'throw', 'ignore', 'collect'. Received 'bogus'"],
  [{ errors: 'Collect' }, TypeError, 'ERR_INVALID_ARG_VALUE', "'options.errors'"],
  [{ errors: true }, TypeError, 'ERR_INVALID_ARG_VALUE', "'options.errors'"],
  [{ errors: null }, TypeError, 'ERR_INVALID_ARG_VALUE', "'options.errors'"],
  // A NUL cut the glob short in C.
  [{ exclude: 'a\0b' }, TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options.exclude' must be a glob without null bytes. Received 'a\\x00b'"],
  [{ exclude: ['ok', '*.tmp\0'] }, TypeError, 'ERR_INVALID_ARG_VALUE', "'options.exclude[1]'"],
  [{ exclude: [1] }, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.exclude[0]" property must be of type string. Received type number (1)'],
  [{ exclude: 5 }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.exclude"'],
  [{ exclude: { 0: 'a', length: 1 } }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.exclude"'],
  [{ types: ['file', 'bogus'] }, TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options.types[1]' must be one of: 'unknown', 'file', 'directory', 'symlink'"],
  [{ types: ['toString'] }, TypeError, 'ERR_INVALID_ARG_VALUE', "'options.types[0]'"],
  [{ types: [undefined] }, TypeError, 'ERR_INVALID_ARG_VALUE', "'options.types[0]'"],
  [{ types: 'file' }, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.types" property must be an instance of Array'],
  [{ signal: {} }, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.signal" property must be an instance of AbortSignal'],
  [{ signal: null }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.signal"'],
  [{ stats: 'yes' }, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.stats" property must be of type boolean. Received type string (\'yes\')'],
  [{ sort: 1 }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.sort"'],
  [{ hidden: 0 }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.hidden"'],
  [{ followSymlinks: 'no' }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.followSymlinks"'],
  [{ gitignore: 1 }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.gitignore"'],
  [{ withFileTypes: 1 }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.withFileTypes"'],
  [{ bigint: 'yes' }, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.bigint" property must be of type boolean. Received type string (\'yes\')'],
  [{ stats: true, bigint: 1 }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.bigint"'],
  [{ bigint: null }, TypeError, 'ERR_INVALID_ARG_TYPE', '"options.bigint"'],
];

// readdir's own options, on top of walk's.
const BAD_READDIR = [
  [{ recursive: 'yes' }, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.recursive" property must be of type boolean'],
  [{ encoding: 'bogus' }, TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options.encoding' must be one of: 'utf8', 'utf-8'. Received 'bogus'"],
  [{ encoding: 'buffer' }, TypeError, 'ERR_INVALID_ARG_VALUE', "'options.encoding'"],
  ['latin1', TypeError, 'ERR_INVALID_ARG_VALUE', "'options.encoding'"],
  [5, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options" argument must be one of type string or object. Received type number (5)'],
];

// Bad roots, for every entry point.
const BAD_PATHS = [
  ['a\0b', TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received 'a\\x00b'"],
  [Buffer.from('a\0b'), TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'path'"],
  [new URL('file:///tmp/a%00b'), TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'path'"],
  [5, TypeError, 'ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string or an instance of Buffer or URL. Received type number (5)'],
  [undefined, TypeError, 'ERR_INVALID_ARG_TYPE', 'Received undefined'],
  [{}, TypeError, 'ERR_INVALID_ARG_TYPE', '"path"'],
];

function matcher(cls, code, text) {
  return (e) => {
    assert.ok(e instanceof cls, `${e.name}: ${e.message} is not a ${cls.name}`);
    assert.strictEqual(e.code, code, e.message);
    assert.ok(e.message.includes(text), `message ${JSON.stringify(e.message)} lacks ${JSON.stringify(text)}`);
    return true;
  };
}

const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : require('node:util').inspect(v));

test('walk(): every bad option throws at once, naming it, with Node\'s error code', (t) => {
  const root = tmpdir(t);
  for (const [options, cls, code, text] of BAD) {
    assert.throws(() => frd.walk(root, options), matcher(cls, code, text), show(options));
  }
  assert.throws(() => frd.walk(root, 5), matcher(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options" argument must be of type object'));
  assert.throws(() => frd.walk(root, 'utf8'), matcher(TypeError, 'ERR_INVALID_ARG_TYPE', '"options"'));
});

test('readdir (callback, promise) and readdirSync refuse the same options and readdir\'s own', async (t) => {
  const root = tmpdir(t);
  for (const [options, cls, code, text] of [...BAD, ...BAD_READDIR]) {
    const m = matcher(cls, code, text);
    const o = typeof options === 'object' ? { recursive: true, ...options } : options;
    assert.throws(() => frd.readdirSync(root, o), m, `sync ${show(options)}`);
    // As fs.readdir: the callback form throws, the promise forms reject.
    assert.throws(() => frd.readdir(root, o, () => assert.fail('called back')), m, `callback ${show(options)}`);
    await assert.rejects(frd.readdir(root, o), m, `promise ${show(options)}`);
    await assert.rejects(frd.promises.readdir(root, o), m, `promises ${show(options)}`);
  }
  assert.throws(() => frd.readdir(root, {}, 'cb'),
    matcher(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function'));
});

test('a bad path (NUL, wrong type) is refused by every entry point, as fs refuses it', async () => {
  for (const [p, cls, code, text] of BAD_PATHS) {
    const m = matcher(cls, code, text);
    assert.throws(() => frd.walk(p), m, `walk ${show(p)}`);
    assert.throws(() => frd.readdirSync(p), m, `sync ${show(p)}`);
    assert.throws(() => frd.readdir(p, () => assert.fail('called back')), m, `callback ${show(p)}`);
    await assert.rejects(frd.readdir(p), m, `promise ${show(p)}`);
    // fs refuses the same paths with the same codes.
    assert.throws(() => fs.readdirSync(p), { code }, `fs ${show(p)}`);
  }
});

test('the addon refuses bad options by itself too (nothing reaches C unchecked)', () => {
  const native = require('../build/Release/frd.node');
  const good = { root: '/nonexistent', typeMask: 255, batchSize: 16, queueLimit: 1, maxDepth: -1, workers: 0, exclude: [] };
  for (const [k, v] of [['batchSize', -1], ['batchSize', 2 ** 32 - 1], ['batchSize', 1e12], ['batchSize', NaN],
    ['queueLimit', 0], ['queueLimit', 1e9], ['maxDepth', -2], ['maxDepth', NaN], ['workers', -1], ['workers', 9],
    ['typeMask', 256], ['batchSize', '16'], ['workers', undefined], ['xattrValueMax', -1],
    ['xattrValueMax', 65537], ['xattrValueMax', '1']]) {
    assert.throws(() => new native.Walker({ ...good, [k]: v }), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }, `${k}: ${v}`);
    assert.throws(() => native.runSync({ ...good, [k]: v }, () => {}), { name: 'RangeError' }, `sync ${k}: ${v}`);
  }
  for (const exclude of [['a\0b'], [5]]) {
    assert.throws(() => new native.Walker({ ...good, exclude }), { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' });
  }
  assert.throws(() => new native.Walker({ ...good, root: '/tmp\0x' }), { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' });
});

test('the bounds themselves are accepted and walk as asked', async (t) => {
  const root = tmpdir(t);
  for (let i = 0; i < 3; i++) fs.mkdirSync(path.join(root, `d${i}`, 'e', 'f'), { recursive: true });
  fs.writeFileSync(path.join(root, 'd0', 'e', 'f', 'g'), '');
  const all = keys(fs.readdirSync(root, { recursive: true, withFileTypes: true }));
  const walked = async (options) => keys(await frd.readdir(root, { recursive: true, withFileTypes: true, ...options }));
  for (const options of [{ batchSize: 1 }, { batchSize: 65536 }, { highWaterMark: 1 }, { highWaterMark: 64 },
    { workers: 0 }, { workers: 1 }, { workers: 8 }, { maxDepth: Infinity }, { maxDepth: 2147483647 },
    { errors: 'throw' }, { errors: 'ignore' }, { errors: 'collect' }, { stats: true, bigint: true },
    { bigint: true }, { bigint: false }, { exclude: [] }, { exclude: '' }, { types: ['file', 'dir', 'link', 'symbolicLink'] },
    { signal: new AbortController().signal }, { stats: false, sort: false, hidden: true, followSymlinks: false },
    { encoding: 'utf8' }, { encoding: 'utf-8' }, { encoding: null }, {
      batchSize: undefined, highWaterMark: undefined, workers: undefined, maxDepth: undefined,
      errors: undefined, exclude: undefined, types: undefined, signal: undefined, stats: undefined,
      bigint: undefined,
    }]) {
    assert.deepStrictEqual(await walked(options), all, show(options));
  }
  assert.deepStrictEqual(frd.readdirSync(root, null).sort(), ['d0', 'd1', 'd2']);
  assert.deepStrictEqual(frd.readdirSync(root, 'utf8').sort(), ['d0', 'd1', 'd2']);
  // maxDepth 0: nothing below the root; 2: the root's entries and theirs.
  assert.deepStrictEqual(await frd.readdir(root, { recursive: true, maxDepth: 0 }), []);
  assert.deepStrictEqual((await frd.readdir(root, { recursive: true, maxDepth: 2 })).sort(),
    ['d0', 'd0/e', 'd1', 'd1/e', 'd2', 'd2/e']);
  // An empty types list yields nothing; an empty glob excludes nothing.
  assert.deepStrictEqual(await frd.readdir(root, { recursive: true, types: [] }), []);
});
