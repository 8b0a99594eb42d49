'use strict';
// The vectors of the memory items, on a worker thread of their own (see vector-index.ts): an exact search over
// 100,000 vectors takes tens of milliseconds of one core, which must never be the service's event loop. Searched
// exactly, by inner product over unit vectors (their cosine similarity), with USearch's SIMD kernels. Plain
// JavaScript, so that the same file runs from src (tests) and dist.
//
// In (workerData): { threads }: how many threads one search may use.
// In (messages): { op: 'put', ids, namespaces, vectors } (vectors: one Float32Array of the vectors end to end),
// { op: 'remove', ids }, { op: 'clear' }, { op: 'search', id, namespace, vector, count }.
// Out: { id, ids, scores } for a search (best first; scores are cosine similarities), or { id, failure }.
const { parentPort, workerData } = require('node:worker_threads');
const { exactSearch, MetricKind } = require('usearch');

let dims = 0;
let size = 0;
/** The vectors end to end, slot by slot; a removed slot is filled with the last one. */
let matrix = new Float32Array(0);
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
  ids = [];
  namespaces = [];
  slotOf.clear();
  perNamespace.clear();
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
        const grown = new Float32Array(Math.max(1024, size * 2) * dims);
        grown.set(matrix);
        matrix = grown;
      }
      slotOf.set(newIds[i], slot);
      ids[slot] = newIds[i];
    } else count(namespaces[slot], -1);
    namespaces[slot] = newNamespaces[i];
    count(newNamespaces[i], 1);
    matrix.set(vectors.subarray(i * dims, (i + 1) * dims), slot * dims);
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

/** The `count` best slots of `rows` (a matrix of `rows.length / dims` vectors) for `vector`, best first. */
function best(rows, vector, wanted) {
  const found = exactSearch(
    rows,
    vector,
    dims,
    Math.min(wanted, rows.length / dims),
    MetricKind.IP,
    workerData.threads,
  );
  return { slots: Array.from(found.keys, Number), scores: Array.from(found.distances, (distance) => 1 - distance) };
}

/**
 * The `wanted` nearest vectors of the namespace and those below it. When they are most of the whole, the whole is
 * searched for more than `wanted` and the others are left out (searching further while too few remain); when they
 * are a small part, they are copied together first, which costs less than searching the rest.
 */
function search(namespace, vector, wanted) {
  const inScope = within(namespace);
  let scope = 0;
  for (const [other, n] of perNamespace) if (inScope(other)) scope += n;
  if (scope === 0 || vector.length !== dims) return { ids: [], scores: [] };
  const enough = Math.min(wanted, scope);
  if (scope * 8 >= size) {
    let asked = Math.min(size, scope === size ? wanted : wanted * Math.ceil(size / scope) * 2);
    for (;;) {
      const { slots, scores } = best(matrix.subarray(0, size * dims), vector, asked);
      const kept = slots.map((slot, i) => [slot, scores[i]]).filter(([slot]) => inScope(namespaces[slot]));
      if (kept.length >= enough || asked === size) {
        const top = kept.slice(0, wanted);
        return { ids: top.map(([slot]) => ids[slot]), scores: top.map(([, score]) => score) };
      }
      asked = Math.min(size, asked * 4);
    }
  }
  const chosen = [];
  const rows = new Float32Array(scope * dims);
  for (let slot = 0; slot < size; slot++) {
    if (!inScope(namespaces[slot])) continue;
    rows.set(matrix.subarray(slot * dims, (slot + 1) * dims), chosen.length * dims);
    chosen.push(slot);
  }
  const { slots, scores } = best(rows, vector, wanted);
  return { ids: slots.map((slot) => ids[chosen[slot]]), scores };
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
