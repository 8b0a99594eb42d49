'use strict';
// Shared helpers for the benchmarks: start a server process on a free port, wait for it, read its memory.
const { spawn } = require('node:child_process');
const { readFileSync, mkdtempSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function temporaryDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Starts `node script` with PORT set, resolves once `readyPath` answers 200. */
async function startServer(script, env = {}, readyPath = '/health') {
  const port = await freePort();
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url + readyPath)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}

/** Resident and peak resident memory of a process, in MB (Linux). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)[1]);
  return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
}

/** A POST /v1/agents request whose body has a name no other request used. */
function createAgentRequests(prefix) {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v1/agents',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({
          name: `${prefix}-${++n}`,
          model: 'openai/gpt-4o-mini',
          instructions: 'Benchmark agent: answer briefly.',
          tools: ['web_search'],
        }),
      }),
    },
  ];
}

module.exports = { freePort, temporaryDir, startServer, memoryOf, createAgentRequests };
