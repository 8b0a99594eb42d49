// Writes the OpenAPI document the service serves at /v1/openapi.json to a file (npm run lint:openapi lints it):
// the service starts on a loopback port with an empty data folder, answers one request, and stops.
const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
require('./transpile-on-load');
require('reflect-metadata');
const { createApp } = require('../../src/app.ts');
const { loadConfig } = require('../../src/config/load-config.ts');

async function main(file) {
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const app = await createApp({ ...loadConfig({}), dataDir, logLevel: 'error' });
  try {
    await app.listen(0, '127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${app.getHttpServer().address().port}/v1/openapi.json`);
    if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(await response.json(), null, 2)}\n`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main(process.argv[2] ?? 'dist/openapi.json').catch((error) => {
  console.error(error);
  process.exit(1);
});
