/**
 * The import rules of src/ (`npm run check:imports`, part of `npm test`): no circles, type-only imports included.
 * See docs/architecture.md for the layers.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other, even for types only, cannot be read or moved one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a circle of types is a circle all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
