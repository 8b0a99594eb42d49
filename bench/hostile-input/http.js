'use strict';
// Small HTTP helpers for the hostile cases: JSON calls that throw on an unexpected status, and SSE readers that
// drain a stream for a while, from a chosen local address.
const http = require('node:http');

async function call(url, method, path, headers, body, expected = [200, 201, 202]) {
  const response = await fetch(url + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expected.includes(response.status))
    throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, body: text ? JSON.parse(text) : undefined, bytes: text.length };
}

/**
 * Opens an SSE stream and reads it for `ms` (or to its end): how many bytes it got and its status. `localAddress`
 * picks the client address (127.0.0.x), so that several clients without keys can be played from one process.
 */
function drainStream(url, path, headers, ms, localAddress) {
  return new Promise((resolve) => {
    let bytes = 0;
    let status;
    const request = http.get(
      url + path,
      { agent: false, localAddress, headers: { ...headers, accept: 'text/event-stream' } },
      (response) => {
        status = response.statusCode;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve({ status, bytes }));
      },
    );
    request.on('error', () => resolve({ status, bytes }));
    setTimeout(() => {
      request.destroy();
      resolve({ status, bytes });
    }, ms);
  });
}

module.exports = { call, drainStream };
