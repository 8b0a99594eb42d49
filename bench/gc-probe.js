'use strict';
// Preloaded into the service by the memory benchmark only (node --expose-gc -r ./bench/gc-probe.js dist/main.js):
// on SIGWINCH (Nest's shutdown hooks take SIGUSR2), collects garbage fully and writes process.memoryUsage() (bytes) as JSON to $GC_PROBE_FILE; with
// $GC_PROBE_SNAPSHOT set, also writes a heap snapshot there. The service itself never exposes gc.
const { writeFileSync } = require('node:fs');
const v8 = require('node:v8');

process.on('SIGWINCH', () => {
  global.gc();
  if (process.env.GC_PROBE_SNAPSHOT)
    v8.writeHeapSnapshot(`${process.env.GC_PROBE_SNAPSHOT}-${Date.now()}.heapsnapshot`);
  writeFileSync(process.env.GC_PROBE_FILE, JSON.stringify(process.memoryUsage()));
});
