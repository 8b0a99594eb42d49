/**
 * JSON written straight into a buffer as UTF-8, byte for byte what `JSON.stringify` makes, without building its
 * string first: a scheduler tick encodes tens of thousands of small objects, and each string JSON.stringify builds
 * leaves a few times its length as garbage (its parts, then the flat copy a buffer write makes of them). Plain data
 * only (plain objects and arrays of strings, numbers, booleans and null); anything else (a Date or other
 * `toJSON`, a bigint, a class instance, deep nesting or a cycle) is the caller's to give to JSON.stringify, so
 * that the text and the errors stay exactly its own.
 */

/** The buffer ran out of room: the caller grows it and writes the value again. */
export const NO_ROOM = -1;
/** The value is not plain data: the caller serialises it with JSON.stringify. */
export const NOT_PLAIN = -2;
/** Nesting deeper than this is left to JSON.stringify (which also tells a cycle). */
const MAX_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Values whose JSON is longer than this are left to JSON.stringify too: written here byte by byte, a large value
 * (a run's context of 70,000 keys) costs many times what the native encoder takes, and holds the event loop.
 */
export const MAX_WRITTEN_HERE = 64 * 1024;

/**
 * Objects of more members than this are left to JSON.stringify as soon as they are met: V8 keeps such an object as
 * a hash table, which a `for…in` walks several times slower than the native encoder does (a context of 25,000
 * short keys took 30 ms to write its first 64 KiB here).
 */
export const MAX_MEMBERS_WRITTEN_HERE = 1000;

/** Writes `value` as JSON at `at`: the end of what was written, NO_ROOM or NOT_PLAIN. */
export function writeJson(value: unknown, bytes: Buffer, at: number): number {
  const room = Math.min(bytes.length, at + MAX_WRITTEN_HERE);
  if (room === bytes.length) return writeValue(value, bytes, at, 0);
  // Written into a view of at most MAX_WRITTEN_HERE bytes: running out of it means the value is large.
  const end = writeValue(value, bytes.subarray(0, room), at, 0);
  return end === NO_ROOM ? NOT_PLAIN : end;
}

/** Texts longer than this are written by the buffer itself, which copies them faster than a loop here. */
const WRITTEN_NATIVELY_FROM = 1024;

/** Writes `text` as UTF-8 at `at` (short ASCII copied here, anything else by the buffer): its end, or NO_ROOM. */
export function writeText(text: string, bytes: Buffer, at: number): number {
  const start = at;
  if (at + text.length > bytes.length) return NO_ROOM;
  if (text.length > WRITTEN_NATIVELY_FROM) {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: only a text that may not fit is measured first.
    if (at + 3 * text.length > bytes.length && at + Buffer.byteLength(text) > bytes.length) return NO_ROOM;
    return at + bytes.write(text, at);
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) {
      if (start + 3 * text.length > bytes.length) return NO_ROOM; // UTF-8: at most 3 bytes per UTF-16 unit
      return start + bytes.write(text, start);
    }
    bytes[at++] = code;
  }
  return at;
}

function writeValue(value: unknown, bytes: Buffer, at: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return writeString(value, bytes, at);
    case 'number':
      return writeText(Number.isFinite(value) ? String(value) : 'null', bytes, at);
    case 'boolean':
      return writeText(value ? 'true' : 'false', bytes, at);
    case 'object': {
      if (value === null) return writeText('null', bytes, at);
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
      if (Array.isArray(value))
        return Object.getPrototypeOf(value) === Array.prototype ? writeArray(value, bytes, at, depth) : NOT_PLAIN;
      return isPlainObject(value) ? writeObject(value, bytes, at, depth) : NOT_PLAIN;
    }
    default:
      return NOT_PLAIN; // a bigint (JSON.stringify throws), or undefined, a function, a symbol at the top
  }
}

/** An object of plain members, as JSON.stringify writes it: not an array, no `toJSON`, no class of its own. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A value JSON leaves out of an object, and writes as null in an array. */
export function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function writeObject(object: Record<string, unknown>, bytes: Buffer, at: number, depth: number): number {
  if (at >= bytes.length) return NO_ROOM;
  bytes[at++] = 0x7b; // {
  let first = true;
  let members = 0;
  // Own enumerable keys in JSON.stringify's order (integer keys ascending, then the others as they were added).
  for (const key in object) {
    if (++members > MAX_MEMBERS_WRITTEN_HERE) return NOT_PLAIN;
    if (!Object.hasOwn(object, key)) continue;
    const item = object[key];
    if (isOmitted(item)) continue;
    if (!first) {
      if (at >= bytes.length) return NO_ROOM;
      bytes[at++] = 0x2c; // ,
    }
    first = false;
    at = writeString(key, bytes, at);
    if (at < 0 || at >= bytes.length) return at < 0 ? at : NO_ROOM;
    bytes[at++] = 0x3a; // :
    at = writeValue(item, bytes, at, depth + 1);
    if (at < 0) return at;
  }
  if (at >= bytes.length) return NO_ROOM;
  bytes[at++] = 0x7d; // }
  return at;
}

function writeArray(array: unknown[], bytes: Buffer, at: number, depth: number): number {
  if (at >= bytes.length) return NO_ROOM;
  bytes[at++] = 0x5b; // [
  for (let i = 0; i < array.length; i++) {
    if (i > 0) {
      if (at >= bytes.length) return NO_ROOM;
      bytes[at++] = 0x2c; // ,
    }
    const item = array[i];
    at = isOmitted(item) ? writeText('null', bytes, at) : writeValue(item, bytes, at, depth + 1);
    if (at < 0) return at;
  }
  if (at >= bytes.length) return NO_ROOM;
  bytes[at++] = 0x5d; // ]
  return at;
}

/** A JSON string: printable ASCII copied between quotes; any text that needs escaping goes through JSON.stringify. */
function writeString(text: string, bytes: Buffer, at: number): number {
  const start = at;
  if (at + text.length + 2 > bytes.length) return NO_ROOM;
  bytes[at++] = QUOTE;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH)
      return writeText(JSON.stringify(text), bytes, start);
    bytes[at++] = code;
  }
  bytes[at++] = QUOTE;
  return at;
}
