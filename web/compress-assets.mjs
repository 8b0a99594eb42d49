// Writes .br and .gz beside each built asset, so the service sends them compressed (@fastify/static `preCompressed`).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const assets = new URL('../dist-web/assets/', import.meta.url).pathname;
for (const name of readdirSync(assets).filter((file) => /\.(js|css|svg)$/.test(file))) {
  const content = readFileSync(join(assets, name));
  writeFileSync(join(assets, `${name}.gz`), gzipSync(content, { level: 9 }));
  writeFileSync(join(assets, `${name}.br`), brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}
