// Lets node require the TypeScript sources as they are: each file transpiled on load (no type check, no build).
const { readFileSync } = require('node:fs');
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
