'use strict';
// The vectors of the memory items, on a worker thread of their own (see vector-index.ts): a search over 100,000
// vectors takes milliseconds of one core, which must never be the service's event loop. Scores are exact cosine
// similarities (inner products of unit vectors). A search first compares the query with an 8-bit copy of every vector
// (a quarter of the bytes to read, with USearch's SIMD kernels), then scores the best candidates exactly over the full
// vectors, and asks for more candidates until a proven bound says no vector left out can beat the ones kept.
// Plain JavaScript, so that the same file runs from src (tests) and dist.
//
// In (workerData): { threads }: how many threads one search may use.
// In (messages): { op: 'put', ids, namespaces, vectors } (vectors: one Float32Array of the vectors end to end),
// { op: 'remove', ids }, { op: 'clear' }, { op: 'search', id, namespace, vector, count }.
// Out: { id, ids, scores } for a search (best first; scores are cosine similarities), or { id, failure }.
const { parentPort, workerData } = require('node:worker_threads');
const { exactSearch, MetricKind } = require('usearch');

/** The fewest candidates a first pass asks for; the bound nearly always holds with them. */
const FEWEST_CANDIDATES = 64;
/** Room for the rounding of USearch's 8-bit cosine kernel, on top of the proven bound. */
const KERNEL_SLACK = 1e-4;

let dims = 0;
let size = 0;
/** The vectors end to end, slot by slot; a removed slot is filled with the last one. */
let matrix = new Float32Array(0);
/** The same vectors in 8 bits (each scaled so that its largest component is ±127). */
let codes = new Int8Array(0);
/** The largest angle between a vector and its 8-bit copy: how far a first pass can misjudge it. */
let widestAngle = 0;
/** By slot: the item's id (its row in memory_items) and namespace. */
let ids = [];
let namespaces = [];
const slotOf = new Map();
/** How many vectors each namespace holds, to know how much of the whole a search covers. */
const perNamespace = new Map();

function count(namespace, by) {
  const next = (perNamespace.get(namespace) ?? 0) + by;
  if (next === 0) perNamespace.delete(namespace);
  else perNamespace.set(namespace, next);
}

function clear() {
  dims = 0;
  size = 0;
  matrix = new Float32Array(0);
  codes = new Int8Array(0);
  widestAngle = 0;
  ids = [];
  namespaces = [];
  slotOf.clear();
  perNamespace.clear();
}

/** Writes the 8-bit copy of `vector` (unit length) into `into`; returns the angle between the two. */
function quantize(vector, into) {
  let largest = 0;
  for (let i = 0; i < vector.length; i++) largest = Math.max(largest, Math.abs(vector[i]));
  if (largest === 0) return Math.PI;
  let along = 0;
  let squared = 0;
  for (let i = 0; i < vector.length; i++) {
    const code = Math.round((vector[i] / largest) * 127);
    into[i] = code;
    along += code * vector[i];
    squared += code * code;
  }
  return Math.acos(Math.min(1, along / Math.sqrt(squared)));
}

function put(newIds, newNamespaces, vectors) {
  const width = vectors.length / newIds.length;
  // Another model (EMBEDDING_MODEL changed) gives vectors of another size: the old ones cannot be compared with them.
  if (dims !== width) clear();
  dims = width;
  for (let i = 0; i < newIds.length; i++) {
    let slot = slotOf.get(newIds[i]);
    if (slot === undefined) {
      slot = size++;
      if (size * dims > matrix.length) {
        const room = Math.max(1024, size * 2) * dims;
        const grown = new Float32Array(room);
        grown.set(matrix);
        matrix = grown;
        const grownCodes = new Int8Array(room);
        grownCodes.set(codes);
        codes = grownCodes;
      }
      slotOf.set(newIds[i], slot);
      ids[slot] = newIds[i];
    } else count(namespaces[slot], -1);
    namespaces[slot] = newNamespaces[i];
    count(newNamespaces[i], 1);
    const vector = vectors.subarray(i * dims, (i + 1) * dims);
    matrix.set(vector, slot * dims);
    widestAngle = Math.max(widestAngle, quantize(vector, codes.subarray(slot * dims, (slot + 1) * dims)));
  }
}

function remove(gone) {
  for (const id of gone) {
    const slot = slotOf.get(id);
    if (slot === undefined) continue;
    slotOf.delete(id);
    count(namespaces[slot], -1);
    const last = --size;
    if (slot !== last) {
      matrix.copyWithin(slot * dims, last * dims, (last + 1) * dims);
      codes.copyWithin(slot * dims, last * dims, (last + 1) * dims);
      ids[slot] = ids[last];
      namespaces[slot] = namespaces[last];
      slotOf.set(ids[slot], slot);
    }
    ids.length = size;
    namespaces.length = size;
  }
}

const within = (namespace) => {
  const below = `${namespace}/`;
  return (other) => other === namespace || other.startsWith(below);
};

function exactScore(slot, vector) {
  let sum = 0;
  for (let i = 0, at = slot * dims; i < dims; i++, at++) sum += matrix[at] * vector[i];
  return sum;
}

/**
 * The most a vector's exact score can be when its first-pass score is `rough`. Angles on the sphere obey the
 * triangle inequality, so a vector's angle to the query is within (query's angle to its copy + vector's angle to its
 * copy) of the angle between the two copies.
 */
function ceiling(rough, queryAngle) {
  const angle = Math.acos(Math.max(-1, Math.min(1, rough + KERNEL_SLACK)));
  return Math.cos(Math.max(0, angle - queryAngle - widestAngle));
}

/**
 * The `wanted` nearest vectors of the namespace and those below it. When they are most of the whole, the whole is
 * passed over and the others are left out; when they are a small part, their 8-bit copies are gathered first, which
 * costs less than passing over the rest. Either way, a first pass that leaves out a vector that could still be among
 * the best is asked again for four times as many candidates (at worst, all of them).
 */
function search(namespace, vector, wanted) {
  const inScope = within(namespace);
  let scope = 0;
  for (const [other, n] of perNamespace) if (inScope(other)) scope += n;
  if (scope === 0 || vector.length !== dims) return { ids: [], scores: [] };
  const query = new Int8Array(dims);
  const queryAngle = quantize(vector, query);

  let rows = codes.subarray(0, size * dims);
  let slotAt = (row) => row;
  let total = size;
  if (scope * 8 < size) {
    const chosen = [];
    rows = new Int8Array(scope * dims);
    for (let slot = 0; slot < size; slot++) {
      if (!inScope(namespaces[slot])) continue;
      rows.set(codes.subarray(slot * dims, (slot + 1) * dims), chosen.length * dims);
      chosen.push(slot);
    }
    slotAt = (row) => chosen[row];
    total = scope;
  }
  const enough = Math.min(wanted, scope);
  // Over the whole, about size / scope candidates are passed over for every one in scope.
  let asked = Math.min(total, Math.max(FEWEST_CANDIDATES, wanted * 4) * Math.ceil(total / scope));
  for (;;) {
    const found = exactSearch(rows, query, dims, asked, MetricKind.Cos, workerData.threads);
    const hits = [];
    for (let i = 0; i < found.keys.length; i++) {
      const slot = slotAt(Number(found.keys[i]));
      if (inScope(namespaces[slot])) hits.push({ slot, score: exactScore(slot, vector) });
    }
    hits.sort((a, b) => b.score - a.score);
    const top = hits.slice(0, wanted);
    const roughest = 1 - found.distances[found.distances.length - 1];
    const settled =
      top.length >= enough && (top.length === 0 || top[top.length - 1].score >= ceiling(roughest, queryAngle));
    if (asked === total || settled) return { ids: top.map((hit) => ids[hit.slot]), scores: top.map((h) => h.score) };
    asked = Math.min(total, asked * 4);
  }
}

parentPort.on('message', (message) => {
  try {
    if (message.op === 'put') put(message.ids, message.namespaces, message.vectors);
    else if (message.op === 'remove') remove(message.ids);
    else if (message.op === 'clear') clear();
    else parentPort.postMessage({ id: message.id, ...search(message.namespace, message.vector, message.count) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, failure: String(error?.message ?? error) });
  }
});
