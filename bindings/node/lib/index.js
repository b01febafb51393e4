// frd for Node.js: readdir() in fs.readdir's shape (callback, promise and sync) and walk(), an
// async iterator of batches, both over frd's pull iterator (src/addon.cc). The addon hands
// over batches (names joined by NUL, parent directories, types, name ends and metadata in
// typed arrays) as its callbacks' arguments; this file turns them into Dirent-like objects
// and strings.
'use strict';

const path = require('node:path');
const { fileURLToPath } = require('node:url');
const { inspect } = require('node:util');
const native = require('../build/Release/frd.node');
const {
  LIMITS, invalidArgType, invalidArgValue, notOneOf, validateBoolean, validateInteger, validateOneOf,
  validateNoNul, validateAbortSignal,
} = require('./validate');

const kType = Symbol('type');

// enum frd_type values, the same numbers as fs.constants.UV_DIRENT_*.
const TYPES = {
  unknown: 0, file: 1, directory: 2, symlink: 3, fifo: 4, socket: 5,
  characterDevice: 6, blockDevice: 7,
};
const TYPE_ALIASES = { dir: 2, link: 3, symbolicLink: 3 };

/** A directory entry, as fs.Dirent: name, parentPath (and path, its old name), is*(). */
class Dirent {
  constructor(name, parentPath, type) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    this[kType] = type;
  }
  isFile() { return this[kType] === 1; }
  isDirectory() { return this[kType] === 2; }
  isSymbolicLink() { return this[kType] === 3; }
  isFIFO() { return this[kType] === 4; }
  isSocket() { return this[kType] === 5; }
  isCharacterDevice() { return this[kType] === 6; }
  isBlockDevice() { return this[kType] === 7; }
}

// A Dirent with `stats`: the same prototype (so a Dirent in every way: instanceof, its
// constructor, inspect), but made by its own constructor, so that V8 sizes these objects for
// five fields; `stats` set on a Dirent after construction went to a separate property array
// (40 more bytes per entry: 96 instead of 64).
function DirentWithStats(name, parentPath, type, stats) {
  this.name = name;
  this.parentPath = parentPath;
  this.path = parentPath;
  this[kType] = type;
  this.stats = stats;
}
DirentWithStats.prototype = Dirent.prototype;

// A Dirent of a walk with linkTargets, xattrs or linkGroups: the same prototype, its own
// constructor (every such entry has the same nine fields, in-object). A field whose option
// is off is undefined; with it on, null where the entry has none (xattrs: {}).
function DirentWithExtras(name, parentPath, type, stats, linkTarget, xattrs, linkGroup, linkFirst) {
  this.name = name;
  this.parentPath = parentPath;
  this.path = parentPath;
  this[kType] = type;
  this.stats = stats;
  this.linkTarget = linkTarget;
  this.xattrs = xattrs;
  this.linkGroup = linkGroup;
  this.linkFirst = linkFirst;
}
DirentWithExtras.prototype = Dirent.prototype;

const S_IFMT = 0o170000;
// A batch's `num` holds 13 doubles per entry, in the order of the getters below.
if (native.statsFields !== 13) throw new Error('frd: addon and lib/index.js disagree on Stats');

const STATS_KEYS = ['dev', 'ino', 'mode', 'nlink', 'uid', 'gid', 'rdev', 'size', 'blocks',
  'atimeMs', 'mtimeMs', 'ctimeMs', 'birthtimeMs'];
const BIGINT_STATS_KEYS = [...STATS_KEYS, 'atimeNs', 'mtimeNs', 'ctimeNs', 'birthtimeNs'];

const NS_PER_MS = 1000000n;

/**
 * What Stats and BigIntStats share: getters that read an entry's fields from its batch's
 * typed arrays when asked (13 numbers an entry: dev ... blocks, atimeMs ... birthtimeMs;
 * 4 ns times an entry), so an entry whose metadata is not read costs one small object, and
 * a Stats kept alive keeps its batch's arrays alive.
 */
class StatsFields {
  #num;
  #ns;
  #o; // this entry's first number in #num (13 per entry); its ns times start at #o / 13 * 4
  constructor(num, ns, i) {
    this.#num = num;
    this.#ns = ns;
    this.#o = i * 13;
  }
  get dev() { return this.#num[this.#o]; }
  get ino() { return this.#num[this.#o + 1]; }
  get mode() { return this.#num[this.#o + 2]; }
  get nlink() { return this.#num[this.#o + 3]; }
  get uid() { return this.#num[this.#o + 4]; }
  get gid() { return this.#num[this.#o + 5]; }
  get rdev() { return this.#num[this.#o + 6]; }
  get size() { return this.#num[this.#o + 7]; }
  get blocks() { return this.#num[this.#o + 8]; }
  get atimeMs() { return this.#num[this.#o + 9]; }
  get mtimeMs() { return this.#num[this.#o + 10]; }
  get ctimeMs() { return this.#num[this.#o + 11]; }
  get birthtimeMs() { return this.#num[this.#o + 12]; }
  get atime() { return new Date(Number(this.atimeMs)); }
  get mtime() { return new Date(Number(this.mtimeMs)); }
  get ctime() { return new Date(Number(this.ctimeMs)); }
  get birthtime() { return new Date(Number(this.birthtimeMs)); }
  get atimeNs() { return this.#ns[(this.#o / 13) * 4]; }
  get mtimeNs() { return this.#ns[(this.#o / 13) * 4 + 1]; }
  get ctimeNs() { return this.#ns[(this.#o / 13) * 4 + 2]; }
  get birthtimeNs() { return this.#ns[(this.#o / 13) * 4 + 3]; }
  #type() { return Number(this.#num[this.#o + 2]) & S_IFMT; }
  isFile() { return this.#type() === 0o100000; }
  isDirectory() { return this.#type() === 0o040000; }
  isSymbolicLink() { return this.#type() === 0o120000; }
  isFIFO() { return this.#type() === 0o010000; }
  isSocket() { return this.#type() === 0o140000; }
  isCharacterDevice() { return this.#type() === 0o020000; }
  isBlockDevice() { return this.#type() === 0o060000; }
  /** The fields as a plain object (what JSON.stringify and util.inspect show; of bigints
   *  in a BigIntStats, on which JSON.stringify throws, as it does for fs.BigIntStats). */
  toJSON() {
    const o = {};
    for (const k of this.constructor.KEYS) o[k] = this[k];
    return o;
  }
  [inspect.custom](depth, options) {
    return `${this.constructor.name} ${inspect(this.toJSON(), options)}`;
  }
}

/**
 * Metadata of an entry, as fs.Stats (dev, ino, mode, nlink, uid, gid, rdev, size, blocks,
 * atimeMs..birthtimeMs, times as Date) plus the ns times as bigint.
 */
class Stats extends StatsFields {
  static KEYS = STATS_KEYS;
}

/**
 * Metadata of an entry with `bigint: true`, as fs.BigIntStats: every number field a bigint
 * (dev and ino exact beyond 2 ** 53), atimeMs..birthtimeMs the ns times divided by 10 ** 6
 * (truncated, as fs does), the times as Date, atimeNs..birthtimeNs. Its arrays are
 * BigUint64Array, whose four numbers after blocks are unused.
 */
class BigIntStats extends StatsFields {
  static KEYS = BIGINT_STATS_KEYS;
  get atimeMs() { return this.atimeNs / NS_PER_MS; }
  get mtimeMs() { return this.mtimeNs / NS_PER_MS; }
  get ctimeMs() { return this.ctimeNs / NS_PER_MS; }
  get birthtimeMs() { return this.birthtimeNs / NS_PER_MS; }
}

// The path as a string: a string, a Buffer (or Uint8Array) or a file: URL, with no NUL (as
// fs requires).
function toPath(p) {
  let s;
  if (typeof p === 'string') s = p;
  else if (p instanceof Uint8Array) s = Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString();
  else if (p instanceof URL) s = fileURLToPath(p);
  else throw invalidArgType('path', 'of type string or an instance of Buffer or URL', p);
  if (s.includes('\0')) {
    throw invalidArgValue('path', p, 'must be a string, Uint8Array, or URL without null bytes');
  }
  return s;
}

const TYPE_BITS = new Map([...Object.entries(TYPES), ...Object.entries(TYPE_ALIASES)]);

// The bit mask of the types asked for (1 << enum frd_type value), all without `types`.
function typeMask(types) {
  if (types === undefined) return 0xff;
  if (!Array.isArray(types)) throw invalidArgType('options.types', 'an instance of Array', types);
  let mask = 0;
  for (let i = 0; i < types.length; i++) {
    const v = TYPE_BITS.get(types[i]);
    if (v === undefined) throw notOneOf(`options.types[${i}]`, types[i], [...TYPE_BITS.keys()]);
    mask |= 1 << v;
  }
  return mask;
}

// The exclude globs as an array of strings without NUL.
function excludeGlobs(exclude) {
  if (exclude === undefined) return [];
  const globs = typeof exclude === 'string' ? [exclude] : exclude;
  if (!Array.isArray(globs)) {
    throw invalidArgType('options.exclude', 'of type string or an instance of Array', exclude);
  }
  globs.forEach((g, i) => {
    const name = typeof exclude === 'string' ? 'options.exclude' : `options.exclude[${i}]`;
    if (typeof g !== 'string') throw invalidArgType(name, 'of type string', g);
    validateNoNul(g, name, 'a glob');
  });
  return globs.slice();
}

// The options object as given: undefined and null mean none; anything else but an object
// is refused.
function optionsObject(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
  return options;
}

// Checks every walk option (readdir's are walk's plus recursive and encoding); throws
// Node's ERR_INVALID_ARG_TYPE, ERR_INVALID_ARG_VALUE or ERR_OUT_OF_RANGE naming the option.
// Unknown keys are ignored, as fs ignores them.
function validateWalkOptions(o) {
  for (const k of ['stats', 'bigint', 'sort', 'hidden', 'followSymlinks', 'withFileTypes',
    'gitignore', 'linkTargets', 'xattrs', 'linkGroups']) {
    validateBoolean(o[k], `options.${k}`);
  }
  validateInteger(o.maxDepth, 'options.maxDepth', 0, LIMITS.maxDepth, true);
  validateInteger(o.batchSize, 'options.batchSize', 1, LIMITS.batchSize);
  validateInteger(o.highWaterMark, 'options.highWaterMark', 1, LIMITS.highWaterMark);
  validateInteger(o.workers, 'options.workers', 0, LIMITS.workers);
  validateInteger(o.xattrValueMax, 'options.xattrValueMax', 1, LIMITS.xattrValueMax);
  validateOneOf(o.errors, 'options.errors', ['throw', 'ignore', 'collect']);
  validateAbortSignal(o.signal, 'options.signal');
}

// Options for the addon from the user's walk options (checked by validateWalkOptions).
function nativeOptions(root, o) {
  return {
    root,
    stats: !!o.stats,
    bigint: !!o.bigint,
    relNames: o.withFileTypes === false,
    sort: !!o.sort,
    hidden: o.hidden !== false,
    followSymlinks: !!o.followSymlinks,
    gitignore: !!o.gitignore,
    maxDepth: o.maxDepth === undefined || o.maxDepth === Infinity ? -1 : o.maxDepth,
    typeMask: typeMask(o.types),
    exclude: excludeGlobs(o.exclude),
    ignoreErrors: o.errors === 'ignore',
    collectErrors: o.errors === 'collect',
    workers: o.workers ?? 0,
    linkTargets: !!o.linkTargets,
    xattrs: !!o.xattrs,
    xattrValueMax: o.xattrValueMax ?? 0, // 0: the library's default, 64 KiB
    linkGroups: !!o.linkGroups,
    // Smaller batches with stats: at 2,048 (300 KB each) the metadata walk was slower and
    // held timers back longer on a loaded machine, where names-only walks gained from them.
    batchSize: o.batchSize ?? (o.stats ? 1024 : 2048),
    queueLimit: o.highWaterMark ?? 8, // the walk buffers queueLimit * batchSize entries
  };
}

// What fs.readdir puts before a relative directory to make an entry's parentPath:
// path.join(root, rel) is path.join(root, 'x') with 'x' replaced by rel, since rel's
// components are names (never '.', '..' or empty). One normalisation per walk, not per
// directory.
function parentPrefix(root) {
  return path.join(root, 'x').slice(0, -1);
}

// Parent paths as fs.readdir gives them: the root as given for its own entries, else joined.
function parentPaths(root, prefix, dirs) {
  const out = dirs.split('\0');
  out.pop();
  for (let i = 0; i < out.length; i++) out[i] = out[i] === '' ? root : prefix + out[i];
  return out;
}

/**
 * One batch from the addon: `names` (each name, or path below the root, followed by a NUL),
 * `dirs` (each directory group's path below the root followed by a NUL), `dirStart` (the
 * first entry of each group), `types`, `nameEnd` (where each name ends in `names`; undefined
 * when a name is not ASCII, since the offsets count bytes), with stats, `num` (a
 * Float64Array, or a BigUint64Array with bigint) and `ns`, and with linkTargets, xattrs or
 * linkGroups, `extras`: five values for each entry that has any of them (its index in the
 * batch, link target, xattrs, link group, and the path below the root of its group's first
 * visit, each null where it has none), undefined when no entry of the batch has any.
 */
class RawBatch {
  constructor(names, dirs, dirStart, types, nameEnd, num, ns, extras) {
    this.names = names;
    this.dirs = dirs;
    this.dirStart = dirStart;
    this.types = types;
    this.nameEnd = nameEnd;
    this.num = num;
    this.ns = ns;
    this.extras = extras;
  }
}

// Which of linkTargets, xattrs and linkGroups a walk asked for (null: none), for decodeInto.
function extrasWanted(nopts) {
  if (!nopts.linkTargets && !nopts.xattrs && !nopts.linkGroups) return null;
  return { linkTargets: nopts.linkTargets, xattrs: nopts.xattrs, linkGroups: nopts.linkGroups };
}

// Appends a batch's entries to `out`: relative path strings, or Dirents (with .stats). The
// array is grown once per batch and filled by index (no push per entry); names are sliced
// out of the batch's string between NULs (at the offsets in nameEnd when it has them).
// `want`: extrasWanted() of the walk (null: Dirents without those fields).
function decodeInto(out, batch, root, prefix, withFileTypes, want) {
  const { names, dirStart, types, nameEnd, num, ns } = batch;
  const n = types.length;
  let o = out.length;
  out.length = o + n;
  let start = 0;
  if (!withFileTypes) { // the addon put the paths below the root in `names`
    for (let i = 0; i < n; i++) {
      const end = nameEnd !== undefined ? nameEnd[i] : names.indexOf('\0', start);
      out[o++] = names.slice(start, end);
      start = end + 1;
    }
    return out;
  }
  const parents = parentPaths(root, prefix, batch.dirs);
  const StatsOf = num instanceof BigUint64Array ? BigIntStats : Stats;
  if (want !== null) return decodeWithExtras(out, o, batch, parents, prefix, StatsOf, want);
  for (let d = 0; d < dirStart.length; d++) {
    const last = d + 1 < dirStart.length ? dirStart[d + 1] : n;
    const parent = parents[d];
    for (let i = dirStart[d]; i < last; i++) {
      const end = nameEnd !== undefined ? nameEnd[i] : names.indexOf('\0', start);
      const name = names.slice(start, end);
      start = end + 1;
      out[o++] = num === undefined ? new Dirent(name, parent, types[i])
        : new DirentWithStats(name, parent, types[i], new StatsOf(num, ns, i));
    }
  }
  return out;
}

// decodeInto's loop for a walk with linkTargets, xattrs or linkGroups: each entry gets the
// four fields, from the batch's sparse `extras` for the entries listed there.
function decodeWithExtras(out, o, batch, parents, prefix, StatsOf, want) {
  const { names, dirStart, types, nameEnd, num, ns, extras } = batch;
  const n = types.length;
  const noTarget = want.linkTargets ? null : undefined;
  const noGroup = want.linkGroups ? null : undefined;
  let start = 0;
  let k = 0; // the next entry's five values in extras
  let next = extras !== undefined ? extras[0] : -1;
  for (let d = 0; d < dirStart.length; d++) {
    const last = d + 1 < dirStart.length ? dirStart[d + 1] : n;
    const parent = parents[d];
    for (let i = dirStart[d]; i < last; i++) {
      const end = nameEnd !== undefined ? nameEnd[i] : names.indexOf('\0', start);
      const name = names.slice(start, end);
      start = end + 1;
      const stats = num === undefined ? undefined : new StatsOf(num, ns, i);
      let target = noTarget;
      let xattrs = want.xattrs ? {} : undefined;
      let group = noGroup;
      let first = noGroup;
      if (i === next) {
        if (extras[k + 1] !== null) target = extras[k + 1];
        if (extras[k + 2] !== null) xattrs = extras[k + 2];
        if (extras[k + 3] !== null) group = extras[k + 3];
        if (extras[k + 4] !== null) first = prefix + extras[k + 4];
        k += 5;
        next = k < extras.length ? extras[k] : -1;
      }
      out[o++] = new DirentWithExtras(name, parent, types[i], stats, target, xattrs, group, first);
    }
  }
  return out;
}

function abortError(signal) {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  if (signal && signal.reason !== undefined) err.cause = signal.reason;
  return err;
}

// A walk dropped unfinished (no break, no return()) is cancelled when collected, so its
// threads, waiting for a consumer that is gone, do not keep the process alive (the addon
// also makes V8 collect when many walks are open at once: src/addon.cc).
const abandoned = new FinalizationRegistry((walker) => walker.cancel());

// Appends the errors the addon kept (errors: 'collect'; an array or undefined) to `out`.
function keepErrors(out, errors) {
  if (errors !== undefined) for (const e of errors) out.push(e);
}

/**
 * The async iterator walk() returns: each step yields one batch (an array of entries) as
 * the walk produces it. The walk runs ahead up to highWaterMark batches' worth of entries
 * (frd's pull iterator buffers them) and its threads wait while that buffer is full. `nopts`: nativeOptions() of the checked options.
 * `errors`: with errors: 'collect', the errors met below the root so far (each before the
 * batch it was met ahead of is yielded; all of them once the iteration has ended).
 */
class Walk {
  constructor(root, options, nopts) {
    this.root = root;
    this.prefix = parentPrefix(root);
    this.withFileTypes = options.withFileTypes !== false;
    this.want = extrasWanted(nopts);
    this.signal = options.signal;
    this.done = false;
    this.pending = null;
    this.native = null;
    this.errors = [];
    if (this.signal?.aborted) {
      this.done = true;
      this.error = abortError(this.signal);
      return;
    }
    this.native = new native.Walker(nopts);
    abandoned.register(this, this.native, this);
    if (this.signal) {
      this.onAbort = () => this.abort();
      this.signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  [Symbol.asyncIterator]() { return this; }

  finish() {
    this.done = true;
    abandoned.unregister(this);
    if (this.onAbort) this.signal.removeEventListener('abort', this.onAbort);
  }

  abort() {
    if (this.done) return;
    this.finish();
    this.native.cancel();
    const err = abortError(this.signal);
    if (this.pending) {
      const { reject } = this.pending;
      this.pending = null;
      reject(err);
    } else {
      this.error = err;
    }
  }

  // Resolves with the next raw batch from the addon, or null at the end.
  nextRaw() {
    if (this.error) {
      const err = this.error;
      this.error = null;
      return Promise.reject(err);
    }
    if (this.done) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.native.next((err, names, dirs, dirStart, types, nameEnd, num, ns, extras, errors) => {
        if (this.pending === null) return; // aborted meanwhile
        this.pending = null;
        keepErrors(this.errors, errors);
        if (err) {
          this.finish();
          Error.captureStackTrace?.(err);
          reject(err);
        } else if (names === null) {
          this.finish();
          resolve(null);
        } else {
          resolve(new RawBatch(names, dirs, dirStart, types, nameEnd, num, ns, extras));
        }
      });
    });
  }

  async next() {
    const batch = await this.nextRaw();
    if (batch === null) return { done: true, value: undefined };
    return { done: false, value: decodeInto([], batch, this.root, this.prefix, this.withFileTypes,
      this.want) };
  }

  // Cancels the walk and resolves once its threads are joined and its descriptors closed
  // (so `for await ... break` leaves nothing running behind it).
  async return() {
    if (!this.done) this.finish();
    if (this.native !== null) {
      const w = this.native;
      this.native = null;
      await new Promise((resolve) => w.cancel(resolve));
    }
    return { done: true, value: undefined };
  }
}

/**
 * walk(path, options): an async iterator over batches of entries below `path` (the root
 * itself is not yielded). Options: stats, exclude (globs; a glob with '/' is matched against
 * the path below the root), maxDepth, hidden, types, sort, signal, followSymlinks, gitignore
 * (leave out what git ignores, before any stat), errors
 * ('throw', 'ignore' or 'collect' below the root: 'collect' goes on and keeps each error
 * in the iterator's `errors`), bigint (stats as fs.BigIntStats), withFileTypes (false:
 * relative path strings), batchSize, highWaterMark (batches buffered ahead), workers,
 * linkTargets, xattrs (with xattrValueMax) and linkGroups (entry.linkTarget, .xattrs,
 * .linkGroup, .linkFirst; README.md). Bad arguments throw here.
 */
function walk(p, options) {
  const root = toPath(p);
  const o = optionsObject(options);
  validateWalkOptions(o);
  return new Walk(root, o, nativeOptions(root, o));
}

// readdir's options as walk options (throws on bad ones): an encoding name or an object.
function readdirOptions(options) {
  if (typeof options === 'string') options = { encoding: options };
  else if (options !== undefined && options !== null && typeof options !== 'object') {
    throw invalidArgType('options', 'one of type string or object', options);
  }
  options = options ?? {};
  validateWalkOptions(options);
  validateBoolean(options.recursive, 'options.recursive');
  if (options.encoding !== undefined && options.encoding !== null) {
    validateOneOf(options.encoding, 'options.encoding', ['utf8', 'utf-8']);
  }
  return {
    ...options,
    maxDepth: options.recursive ? options.maxDepth : 1,
    // Fields of a Dirent: asking for them asks for Dirents, as stats does.
    withFileTypes: !!options.withFileTypes || !!options.stats || !!options.linkTargets ||
      !!options.xattrs || !!options.linkGroups,
  };
}

// readdir's checks, made before anything runs: the root, the walk options and the addon's.
function readdirArgs(p, options) {
  const root = toPath(p);
  const o = readdirOptions(options);
  return { root, o, nopts: nativeOptions(root, o) };
}

async function readdirWalk({ root, o, nopts }) {
  const w = new Walk(root, o, nopts);
  const out = [];
  if (nopts.collectErrors) out.errors = w.errors;
  for (;;) {
    const batch = await w.nextRaw();
    if (batch === null) return out;
    decodeInto(out, batch, root, w.prefix, o.withFileTypes, w.want);
  }
}

// The promise form (fs.promises.readdir): bad arguments reject the promise.
async function readdirPromise(p, options) {
  return readdirWalk(readdirArgs(p, options));
}

/**
 * readdir(path, [options], [callback]): what fs.readdir returns, for options {recursive,
 * withFileTypes, stats, encoding: 'utf8'} and the walk options above; entries in no set
 * order unless `sort`. With errors: 'collect', the array's `errors` property holds the
 * errors met below the root. Without a callback it returns a promise (rejected on bad arguments);
 * with one, bad arguments throw, as fs.readdir's do.
 */
function readdir(p, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  if (callback === undefined) return readdirPromise(p, options);
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  readdirWalk(readdirArgs(p, options)).then((r) => callback(null, r), (e) => callback(e));
  return undefined;
}

/** readdirSync(path, [options]): readdir() on the calling thread; throws the walk's error. */
function readdirSync(p, options) {
  const { root, o, nopts } = readdirArgs(p, options);
  const out = [];
  const prefix = parentPrefix(root);
  const want = extrasWanted(nopts);
  const errors = native.runSync(nopts, (names, dirs, dirStart, types, nameEnd, num, ns, extras) => {
    decodeInto(out, new RawBatch(names, dirs, dirStart, types, nameEnd, num, ns, extras), root,
      prefix, o.withFileTypes, want);
  });
  if (nopts.collectErrors) {
    out.errors = [];
    keepErrors(out.errors, errors);
  }
  return out;
}

module.exports = {
  readdir,
  readdirSync,
  walk,
  Dirent,
  Stats,
  BigIntStats,
  promises: { readdir: readdirPromise },
};
