import { join } from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('has a default for every setting', () => {
    const { providers, tools, access, prices, telemetry, ...config } = loadConfig({});
    expect(telemetry).toEqual({
      protocol: 'http/protobuf',
      headers: {},
      serviceName: 'workflows-agents-service',
      sampler: 'parentbased_always_on',
      samplerArg: 1,
      captureContent: false,
    });
    expect(prices).toEqual({});
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: join(process.cwd(), 'data'),
      eventStoreUrl: undefined,
      eventStoreDeadlineMs: 5000,
      streamPrefix: '',
      subjects: {},
      webhooks: { allowedHosts: [], retryBaseMs: 5000, timeoutMs: 10_000 },
      workflows: {
        signalRetentionMs: 86_400_000,
        timerPollMs: 1000,
        maxMapItems: 1000,
        maxDepth: 4,
      },
      protocols: { mcpServerEnabled: true, a2aServerEnabled: true },
      sqliteSynchronous: 'FULL',
      readYourWritesTimeoutMs: 5000,
      actorCacheSize: 10_000,
      snapshotEvery: 1000,
      readModelSnapshots: { dir: undefined, every: 100_000 },
      logLevel: 'log',
      logFormat: undefined, // decided by where the logs go (logFormatFor)
      schedulerEnabled: true,
      scheduleCatchUpWindowMs: 300_000,
      schedulePrepareAheadMs: 10_000,
      sseHeartbeatMs: 15_000,
      eventLog: { pageMaxBytes: 4 * 1024 * 1024, maxCatchingUp: 16 },
      http: {
        bodyLimitBytes: 1_048_576,
        maxParamLength: 100,
        jsonMaxDepth: 64,
        jsonMaxValues: 25_000,
        requestTimeoutMs: 30_000,
        connectionIdleTimeoutMs: 120_000,
        keepAliveTimeoutMs: 72_000,
        shutdownTimeoutMs: 10_000,
        trustProxy: false,
      },
      runs: {
        executorEnabled: true,
        concurrency: 10,
        timeoutMs: 600_000,
        waitMaxSeconds: 60,
        leaseMs: 30_000,
        approvalTimeoutMs: 86_400_000,
        maxDepth: 4,
        maxHandoffs: 8,
        streaming: 'always',
      },
    });
    expect(providers.retry).toEqual({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 30_000 });
    expect(tools).toEqual({
      httpAllowedHosts: [],
      httpAllowPrivate: false,
      httpMaxBytes: 1_048_576,
      httpTimeoutMs: 10_000,
      mcpAllowedHosts: [],
      mcpCallTimeoutMs: 60_000,
    });
    expect(access).toEqual({
      keys: [],
      readKeys: [],
      rateLimit: 6000,
      rateLimitWindowMs: 60_000,
      maxStreamsPerKey: 20,
      metricsToken: undefined,
    });
  });

  it('reads each variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/srv/data',
      EVENTSTORE_URL: 'esdb+discover://node1:2113?tls=true',
      EVENTSTORE_DEADLINE_MS: '100',
      STREAM_PREFIX: 'staging.eu-1_a',
      SQLITE_SYNCHRONOUS: 'NORMAL',
      READ_YOUR_WRITES_TIMEOUT_MS: '0',
      ACTOR_CACHE_SIZE: '1',
      SNAPSHOT_EVERY: '0',
      READ_MODEL_SNAPSHOT_DIR: '/snapshots',
      READ_MODEL_SNAPSHOT_EVERY: '0',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'pretty',
      SCHEDULER_ENABLED: 'false',
      SCHEDULE_CATCH_UP_WINDOW_MS: '0',
      SSE_HEARTBEAT_MS: '10',
      EVENTS_PAGE_MAX_BYTES: '65536',
      SSE_MAX_CATCHING_UP: '1',
      BODY_LIMIT_BYTES: '1024',
      JSON_MAX_DEPTH: '2',
      JSON_MAX_VALUES: '100',
      REQUEST_TIMEOUT_MS: '100',
      CONNECTION_IDLE_TIMEOUT_MS: '0',
      KEEP_ALIVE_TIMEOUT_MS: '3600000',
      SHUTDOWN_TIMEOUT_MS: '600000',
      TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      RUN_EXECUTOR_ENABLED: 'false',
      RUN_CONCURRENCY: '10000',
      RUN_TIMEOUT_MS: '86400000',
      RUN_WAIT_MAX_SECONDS: '3600',
      RUN_LEASE_MS: '300',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/data',
      eventStoreUrl: 'esdb+discover://node1:2113?tls=true',
      eventStoreDeadlineMs: 100,
      streamPrefix: 'staging.eu-1_a',
      sqliteSynchronous: 'NORMAL',
      readYourWritesTimeoutMs: 0,
      actorCacheSize: 1,
      snapshotEvery: 0,
      readModelSnapshots: { dir: '/snapshots', every: 0 },
      logLevel: 'debug',
      logFormat: 'pretty',
      schedulerEnabled: false,
      scheduleCatchUpWindowMs: 0,
      sseHeartbeatMs: 10,
      eventLog: { pageMaxBytes: 65_536, maxCatchingUp: 1 },
      http: {
        bodyLimitBytes: 1024,
        maxParamLength: 100,
        jsonMaxDepth: 2,
        jsonMaxValues: 100,
        requestTimeoutMs: 100,
        connectionIdleTimeoutMs: 0,
        keepAliveTimeoutMs: 3_600_000,
        shutdownTimeoutMs: 600_000,
        trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      },
      runs: { executorEnabled: false, concurrency: 10_000, timeoutMs: 86_400_000, waitMaxSeconds: 3600, leaseMs: 300 },
    });
  });

  it('takes an empty variable as unset, but an empty HOST as given', () => {
    expect(loadConfig({ PORT: '', EVENTSTORE_URL: '', STREAM_PREFIX: '', LOG_LEVEL: '' })).toMatchObject({
      port: 3000,
      eventStoreUrl: undefined,
      streamPrefix: '',
      logLevel: 'log',
    });
    expect(loadConfig({ HOST: '', DATA_DIR: '' })).toMatchObject({ host: '', dataDir: '' });
  });

  it.each([
    ['PORT', '65536', 'PORT must be an integer from 0 to 65535, not "65536"'],
    [
      'EVENTSTORE_URL',
      'http://localhost:2113',
      'EVENTSTORE_URL must be an esdb:// or esdb+discover:// connection string',
    ],
    ['EVENTSTORE_DEADLINE_MS', '99', 'EVENTSTORE_DEADLINE_MS must be an integer from 100 to 600000, not "99"'],
    ['STREAM_PREFIX', '$all', 'STREAM_PREFIX may hold only letters, digits, "_", "." and "-"'],
    ['STREAM_PREFIX', 'a b', 'STREAM_PREFIX may hold only letters, digits, "_", "." and "-"'],
    ['SQLITE_SYNCHRONOUS', 'OFF', 'SQLITE_SYNCHRONOUS must be one of FULL, NORMAL, not "OFF"'],
    ['READ_YOUR_WRITES_TIMEOUT_MS', '-1', 'READ_YOUR_WRITES_TIMEOUT_MS must be an integer from 0 to 60000, not "-1"'],
    ['ACTOR_CACHE_SIZE', '0', 'ACTOR_CACHE_SIZE must be an integer from 1 to 10000000, not "0"'],
    ['SNAPSHOT_EVERY', '1.5', 'SNAPSHOT_EVERY must be an integer from 0 to 1000000000, not "1.5"'],
    ['READ_MODEL_SNAPSHOT_EVERY', '-1', 'READ_MODEL_SNAPSHOT_EVERY must be an integer from 0 to 1000000000, not "-1"'],
    ['LOG_LEVEL', 'info', 'LOG_LEVEL must be one of error, warn, log, debug, not "info"'],
    ['SCHEDULER_ENABLED', 'yes', 'SCHEDULER_ENABLED must be one of true, false, not "yes"'],
    [
      'SCHEDULE_CATCH_UP_WINDOW_MS',
      '2678400001',
      'SCHEDULE_CATCH_UP_WINDOW_MS must be an integer from 0 to 2678400000, not "2678400001"',
    ],
    ['BODY_LIMIT_BYTES', '1023', 'BODY_LIMIT_BYTES must be an integer from 1024 to 104857600, not "1023"'],
    ['JSON_MAX_DEPTH', '1', 'JSON_MAX_DEPTH must be an integer from 2 to 1000, not "1"'],
    ['JSON_MAX_VALUES', '99', 'JSON_MAX_VALUES must be an integer from 100 to 10000000, not "99"'],
    ['REQUEST_TIMEOUT_MS', 'soon', 'REQUEST_TIMEOUT_MS must be an integer from 100 to 3600000, not "soon"'],
    ['CONNECTION_IDLE_TIMEOUT_MS', '-5', 'CONNECTION_IDLE_TIMEOUT_MS must be an integer from 0 to 3600000, not "-5"'],
    ['KEEP_ALIVE_TIMEOUT_MS', '99', 'KEEP_ALIVE_TIMEOUT_MS must be an integer from 100 to 3600000, not "99"'],
    ['SHUTDOWN_TIMEOUT_MS', '600001', 'SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 600000, not "600001"'],
    [
      'TRUST_PROXY',
      'x',
      'TRUST_PROXY must be false, a number of proxies, or a comma-separated list of addresses and CIDRs (or loopback, linklocal, uniquelocal), not "x"',
    ],
    ['SSE_HEARTBEAT_MS', '9', 'SSE_HEARTBEAT_MS must be an integer from 10 to 3600000, not "9"'],
    ['RUN_EXECUTOR_ENABLED', 'no', 'RUN_EXECUTOR_ENABLED must be one of true, false, not "no"'],
    ['RUN_CONCURRENCY', '10001', 'RUN_CONCURRENCY must be an integer from 1 to 10000, not "10001"'],
    ['RUN_TIMEOUT_MS', '99', 'RUN_TIMEOUT_MS must be an integer from 100 to 86400000, not "99"'],
    ['RUN_WAIT_MAX_SECONDS', '3601', 'RUN_WAIT_MAX_SECONDS must be an integer from 0 to 3600, not "3601"'],
    ['RUN_LEASE_MS', '299', 'RUN_LEASE_MS must be an integer from 300 to 3600000, not "299"'],
    ['MODEL_MAX_RETRIES', '11', 'MODEL_MAX_RETRIES must be an integer from 0 to 10, not "11"'],
    ['OPENAI_BASE_URL', 'ftp://x', 'OPENAI_BASE_URL must be an http:// or https:// URL, not ftp://'],
    ['HTTP_TOOL_TIMEOUT_MS', '0', 'HTTP_TOOL_TIMEOUT_MS must be an integer from 1 to 600000, not "0"'],
    ['API_KEYS', 'short', 'API_KEYS: each key must be at least 16 printable characters without spaces'],
    ['RATE_LIMIT_WINDOW_MS', '999', 'RATE_LIMIT_WINDOW_MS must be an integer from 1000 to 86400000, not "999"'],
    ['SSE_MAX_STREAMS_PER_KEY', '0', 'SSE_MAX_STREAMS_PER_KEY must be an integer from 1 to 100000, not "0"'],
    ['METRICS_TOKEN', 'short', 'METRICS_TOKEN must be at least 16 printable characters without spaces'],
  ])('refuses %s=%s with a message naming it', (variable, value, message) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(new Error(message));
  });

  it.each([
    ['OPENAI_BASE_URL', 'https://api.example.com/v1?key=sk-secret-123'],
    ['OPENAI_COMPATIBLE_BASE_URL', 'ftp://user:sk-secret-123@host/?key=sk-secret-123'],
    ['ANTHROPIC_BASE_URL', 'not a url ?key=sk-secret-123'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'ftp://collector/?key=sk-secret-123'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'nope?key=sk-secret-123'],
  ])('refuses %s with a message naming it and quoting nothing of its query or credentials', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^${variable} `));
    expect(() => loadConfig({ [variable]: value })).not.toThrow(/secret|key=/);
  });

  it('reports the first bad variable in the order they are read', () => {
    expect(() => loadConfig({ RUN_LEASE_MS: '1', PORT: 'x', TRUST_PROXY: 'x' })).toThrow(/^PORT /);
    expect(() => loadConfig({ RUN_LEASE_MS: '1', SSE_HEARTBEAT_MS: '1', TRUST_PROXY: 'x' })).toThrow(/^TRUST_PROXY /);
    expect(() => loadConfig({ RUN_LEASE_MS: '1', SSE_HEARTBEAT_MS: '1', API_KEYS: 'x' })).toThrow(/^SSE_HEARTBEAT_MS /);
    expect(() => loadConfig({ RUN_LEASE_MS: '1', API_KEYS: 'x' })).toThrow(/^API_KEYS/);
  });

  describe('its declarations, from which docs/configuration.md is made,', () => {
    it('name every variable it reads, and no other', () => {
      const read = new Set<string>();
      const recording = new Proxy({} as NodeJS.ProcessEnv, {
        get: (_, name) => {
          if (typeof name === 'string') read.add(name);
          return undefined;
        },
      });
      loadConfig(recording);
      expect(CONFIG_VARIABLES.map(({ name }) => name).sort()).toEqual([...read].sort());
    });

    it.each(CONFIG_VARIABLES.filter((variable) => variable.default !== undefined).map((v) => [v.name, v.default]))(
      'give the default of %s as %s',
      (name, fallback) => {
        expect(loadConfig({ [name]: fallback })).toEqual(loadConfig({}));
      },
    );

    it.each(CONFIG_VARIABLES.filter((variable) => variable.range).map((v) => [v.name, v.range!]))(
      'give the range of %s as %p',
      (name, [min, max]) => {
        expect(() => loadConfig({ [name]: 'x' })).toThrow(`${name} must be an integer from ${min} to ${max}, not "x"`);
      },
    );

    it.each(CONFIG_VARIABLES.filter((variable) => variable.values).map((v) => [v.name, v.values!]))(
      'give the values of %s as %p',
      (name, values) => {
        expect(() => loadConfig({ [name]: 'x' })).toThrow(`${name} must be one of ${values.join(', ')}, not "x"`);
      },
    );
  });
});

describe('telemetry settings', () => {
  it('builds the traces endpoint as the OpenTelemetry specification says', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).telemetry.tracesEndpoint).toBe(
      'http://collector:4318/v1/traces',
    );
    const own = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/traces' };
    expect(loadConfig(own).telemetry.tracesEndpoint).toBe('http://b/traces');
    expect(loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b, x-team=ops' }).telemetry.headers).toEqual({
      'api-key': 'a b',
      'x-team': 'ops',
    });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported/],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER must be one of/],
    [{ OTEL_TRACES_SAMPLER_ARG: '2' }, /OTEL_TRACES_SAMPLER_ARG must be a ratio/],
    [{ OTEL_CAPTURE_CONTENT: 'yes' }, /OTEL_CAPTURE_CONTENT must be one of true, false/],
    [{ RUN_STREAMING: 'sometimes' }, /RUN_STREAMING must be one of always, watched/],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'no pair' }, /OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
