'use strict';
// Where a CPU profile's busy time went: self time by part (the service's folders under dist, each package under
// node_modules, Node's internals, GC), then the functions with the most self time. Profiles come from
// BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' on any benchmark that starts the service.
// Usage: node bench/profile-summary.js DIR/file.cpuprofile [top=15] [--after=SECONDS] (leave out the start-up)
const { readFileSync } = require('node:fs');

const [file, top = '15'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const after = 1e6 * Number(process.argv.find((arg) => arg.startsWith('--after='))?.slice('--after='.length) ?? 0);
if (!file) {
  console.error('usage: node bench/profile-summary.js file.cpuprofile [top=15]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

/** Microseconds of self time per profile node: each sample's delta goes to the node it was taken in. */
const selfTime = new Map();
let elapsed = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  elapsed += delta;
  if (elapsed >= after) selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
});

function partOf({ functionName, url }) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  // Node's own modules by area: node:internal/webstreams/readablestream is 'node: webstreams'.
  if (url.startsWith('node:'))
    return `node: ${
      url
        .slice('node:'.length)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  const own = /\/dist\/([^/]+)\//.exec(url);
  return own ? `service: ${own[1]}` : url;
}

const byPart = new Map();
const byFunction = new Map();
let busy = 0;
for (const [id, micros] of selfTime) {
  const { callFrame } = nodes.get(id);
  if (callFrame.functionName === '(idle)') continue;
  busy += micros;
  const part = partOf(callFrame);
  byPart.set(part, (byPart.get(part) ?? 0) + micros);
  const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}

const rows = (map, count) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => ({
      name,
      ms: Math.round(micros / 1000),
      share: `${((100 * micros) / busy).toFixed(1)} %`,
    }));
console.log(`${file}: ${Math.round(busy / 1000)} ms busy (idle left out)`);
console.table(rows(byPart, 25));
console.table(rows(byFunction, Number(top)));
