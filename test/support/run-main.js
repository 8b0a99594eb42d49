// Runs src/main.ts as a real process of its own, TypeScript transpiled on load (no type check, no build needed).
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
};
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions });
  module._compile(outputText, filename);
};
require(join(__dirname, '..', '..', 'src', 'main.ts'));
