'use strict';
// Preloaded into the service by bench/event-queries.js only (node -r ./bench/stall-probe.js dist/main.js): a timer
// probe of the event loop (perf_hooks' monitorEventLoopDelay, 1 ms resolution). On SIGWINCH it writes the longest
// and the 99th percentile delay since the last signal (ms) as JSON to $STALL_PROBE_FILE, and starts again.
const { writeFileSync } = require('node:fs');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
process.on('SIGWINCH', () => {
  writeFileSync(
    process.env.STALL_PROBE_FILE,
    JSON.stringify({ maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6 }),
  );
  delay.reset();
});
