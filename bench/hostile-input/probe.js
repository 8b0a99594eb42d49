'use strict';
// Reads the service's timer probe (bench/stall-probe.js, preloaded with -r): the longest event-loop stall since
// the last read, in ms.
const { existsSync, readFileSync, rmSync } = require('node:fs');

async function readStall(server, file) {
  rmSync(file, { force: true });
  process.kill(server.pid, 'SIGWINCH');
  for (let i = 0; i < 250 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < 50; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error('the stall probe did not answer');
}

module.exports = { readStall };
