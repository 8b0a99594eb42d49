/**
 * Unit (*.spec.ts), integration (*.int-spec.ts), e2e (test/e2e), docs (test/docs) and import rule
 * (test/architecture) tests in one run.
 */
module.exports = {
  testEnvironment: 'node',
  // e2e suites start real servers and processes; a busy machine must not turn a slow start into a failure.
  testTimeout: 15_000,
  // Each test file loads the service's modules afresh, and one process running every file in turn grows past
  // Node's heap limit; a worker is started anew once it holds more than this after a file.
  workerIdleMemoryLimit: '1536MB',
  rootDir: '.',
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/src/**/*.int-spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/test/docs/*.spec.ts',
    '<rootDir>/test/architecture/*.spec.ts',
  ],
  transform: {
    '^.+\\.ts$': 'ts-jest',
    '/node_modules/@opentelemetry/otlp-exporter-base/.+\\.js$': '<rootDir>/test/support/dynamic-import-to-require.js',
    '/node_modules/jose/.+\\.js$': '<rootDir>/test/support/esm-to-commonjs.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!@opentelemetry/otlp-exporter-base/|jose/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFiles: ['reflect-metadata'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
