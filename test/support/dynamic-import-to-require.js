// Jest runs CommonJS in a VM without native `import()`: the OTLP exporter's `import('http')` becomes a require.
module.exports = {
  process(source) {
    return { code: source.replace(/\bimport\((['"][^'"]+['"])\)/g, 'Promise.resolve().then(() => require($1))') };
  },
};
