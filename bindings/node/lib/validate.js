// Argument checks of the binding's entry points, with the errors Node's own fs throws for bad
// arguments: a TypeError with code ERR_INVALID_ARG_TYPE (wrong type) or ERR_INVALID_ARG_VALUE
// (a value not allowed: a NUL in a path, an unknown name), a RangeError with code
// ERR_OUT_OF_RANGE (a number outside its bounds), each naming the argument or option and
// showing what was received, in the words of Node's messages. Nothing reaches the addon
// unchecked, so no option can make it allocate without bound or misread a value.
'use strict';

const { inspect } = require('node:util');

/** Upper bounds of the numeric options (README.md, index.d.ts). */
const LIMITS = {
  // 65,536 entries: a batch's block with stats is then about 9.5 MB (145 bytes an entry).
  batchSize: 65536,
  // Batches queued ahead of the consumer: a parked walk holds at most this many (and one
  // being filled per worker).
  highWaterMark: 64,
  workers: 8, // frd_walk_options.workers is at most 8
  maxDepth: 2147483647, // frd_walk_options.max_depth is an int
  xattrValueMax: 65536, // Linux's largest extended attribute value (XATTR_SIZE_MAX)
};

function withCode(err, code) {
  Object.defineProperty(err, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  return err;
}

// "argument" for a plain name, "property" for a dotted one (options.x), as Node says it.
function kind(name) {
  return name.includes('.') || name.includes('[') ? 'property' : 'argument';
}

// What a value is, as ERR_INVALID_ARG_TYPE reports it.
function received(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    if (value.constructor?.name) return ` Received an instance of ${value.constructor.name}`;
    return ` Received ${inspect(value, { depth: -1 })}`;
  }
  let shown = inspect(value, { colors: false });
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return ` Received type ${typeof value} (${shown})`;
}

/** TypeError ERR_INVALID_ARG_TYPE: `name` must be `expected` (e.g. "of type number"). */
function invalidArgType(name, expected, value) {
  return withCode(new TypeError(`The "${name}" ${kind(name)} must be ${expected}.${received(value)}`),
    'ERR_INVALID_ARG_TYPE');
}

/** TypeError ERR_INVALID_ARG_VALUE: `name` `reason` (e.g. "must be one of: 'a', 'b'"). */
function invalidArgValue(name, value, reason = 'is invalid') {
  let shown = inspect(value);
  if (shown.length > 128) shown = `${shown.slice(0, 128)}...`;
  return withCode(new TypeError(`The ${kind(name)} '${name}' ${reason}. Received ${shown}`),
    'ERR_INVALID_ARG_VALUE');
}

// 1000000000000 as 1_000_000_000_000, as ERR_OUT_OF_RANGE shows large integers.
function separated(digits) {
  let out = '';
  let i = digits.length;
  const end = digits[0] === '-' ? 1 : 0;
  for (; i >= end + 4; i -= 3) out = `_${digits.slice(i - 3, i)}${out}`;
  return `${digits.slice(0, i)}${out}`;
}

/** RangeError ERR_OUT_OF_RANGE: `name` must be `range`. */
function outOfRange(name, range, value) {
  let shown;
  if (Number.isInteger(value) && Math.abs(value) > 2 ** 32) shown = separated(String(value));
  else shown = inspect(value);
  return withCode(new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${shown}`),
    'ERR_OUT_OF_RANGE');
}

/** undefined, or a boolean. */
function validateBoolean(value, name) {
  if (value !== undefined && typeof value !== 'boolean') {
    throw invalidArgType(name, 'of type boolean', value);
  }
}

/**
 * undefined, or an integer in [min, max]; with `infinity`, Infinity too (it means no
 * limit). A number that is not one (NaN, 1.5, -1, 2 ** 31) is out of range.
 */
function validateInteger(value, name, min, max, infinity = false) {
  if (value === undefined || (infinity && value === Infinity)) return;
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
  const range = `>= ${min} && <= ${max}${infinity ? ' or Infinity' : ''}`;
  if (!Number.isInteger(value)) throw outOfRange(name, `an integer${infinity ? ' or Infinity' : ''}`, value);
  if (value < min || value > max) throw outOfRange(name, range, value);
}

/** TypeError ERR_INVALID_ARG_VALUE: `name` must be one of `allowed` (strings). */
function notOneOf(name, value, allowed) {
  return invalidArgValue(name, value, `must be one of: ${allowed.map((a) => `'${a}'`).join(', ')}`);
}

/** undefined, or one of `allowed` (strings). */
function validateOneOf(value, name, allowed) {
  if (value !== undefined && !allowed.includes(value)) throw notOneOf(name, value, allowed);
}

/** A string with no NUL byte (the C side would cut it there). */
function validateNoNul(value, name, what) {
  if (value.includes('\0')) throw invalidArgValue(name, value, `must be ${what} without null bytes`);
}

/** undefined, or an AbortSignal (duck-typed as Node's validateAbortSignal does). */
function validateAbortSignal(value, name) {
  if (value !== undefined && (value === null || typeof value !== 'object' || !('aborted' in value))) {
    throw invalidArgType(name, 'an instance of AbortSignal', value);
  }
}

module.exports = {
  LIMITS,
  invalidArgType,
  invalidArgValue,
  outOfRange,
  notOneOf,
  validateBoolean,
  validateInteger,
  validateOneOf,
  validateNoNul,
  validateAbortSignal,
};
