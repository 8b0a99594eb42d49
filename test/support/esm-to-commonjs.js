// Jest's module system cannot `require` an ES module, which Node 20.19 and later can: the packages that ship ES
// modules only (jose, which @a2a-js/sdk requires) are compiled to CommonJS as Jest loads them.
const ts = require('typescript');

module.exports = {
  process(source, filename) {
    const { outputText } = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    return { code: outputText };
  },
};
