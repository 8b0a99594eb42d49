import { oneOf } from '../shared/env';
import { group } from '../shared/settings';

/** Traces, from the standard OpenTelemetry variables; without an endpoint nothing is exported nor loaded. */
export interface TelemetryConfig {
  /** Where spans go (OTLP over HTTP, the full URL of the traces path); unset: tracing is off. */
  tracesEndpoint?: string;
  protocol: OtlpProtocol;
  /** Sent with the spans (`OTEL_EXPORTER_OTLP_HEADERS`): a hosted backend's key, say. */
  headers: Record<string, string>;
  serviceName: string;
  sampler: TraceSampler;
  /** The sampler's argument: the ratio of the `traceidratio` samplers. */
  samplerArg: number;
  /** Whether prompts, outputs and tool arguments and results go into spans. */
  captureContent: boolean;
}

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export const TRACE_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
export type TraceSampler = (typeof TRACE_SAMPLERS)[number];

/** Reads the OTEL_ variables the service uses; a bad value throws an error naming the variable. */
export function loadTelemetryConfig(env: NodeJS.ProcessEnv): TelemetryConfig {
  const protocolName = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  if (env[protocolName] === 'grpc') {
    throw new Error(`${protocolName} "grpc" is not supported here: use http/protobuf (the default) or http/json`);
  }
  const samplerArg = env.OTEL_TRACES_SAMPLER_ARG?.trim() ? Number(env.OTEL_TRACES_SAMPLER_ARG) : 1;
  if (!Number.isFinite(samplerArg) || samplerArg < 0 || samplerArg > 1) {
    throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, not "${env.OTEL_TRACES_SAMPLER_ARG}"`);
  }
  const tracesEndpoint = endpointOf(env);
  return {
    ...(tracesEndpoint ? { tracesEndpoint } : {}),
    protocol: oneOf(env, protocolName, OTLP_PROTOCOLS, 'http/protobuf'),
    headers: headersOf(env.OTEL_EXPORTER_OTLP_HEADERS),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'workflows-agents-service',
    sampler: oneOf(env, 'OTEL_TRACES_SAMPLER', TRACE_SAMPLERS, 'parentbased_always_on'),
    samplerArg,
    captureContent: oneOf(env, 'OTEL_CAPTURE_CONTENT', ['true', 'false'] as const, 'false') === 'true',
  };
}

/** The traces endpoint as the specification builds it: the signal's own URL as it is, else the base URL + `/v1/traces`. */
function endpointOf(env: NodeJS.ProcessEnv): string | undefined {
  const own = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = own || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (url === undefined) return undefined;
  const name = own ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  // Messages name the variable but never quote its value: an endpoint may hold a key in its query or user part.
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${name} must be an http:// or https:// URL, and is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${name} must be an http:// or https:// URL, not ${parsed.protocol}//`);
  }
  return url;
}

/** `key=value,key2=value2`, values URL-encoded, as the specification writes them. */
function headersOf(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    const key = pair.slice(0, equals).trim();
    if (equals < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) {
      throw new Error('OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas');
    }
    headers[key] = decodeURIComponent(pair.slice(equals + 1).trim());
  }
  return headers;
}

/** The tracing settings as `docs/configuration.md` lists them. */
export const TELEMETRY_SETTINGS = group(loadTelemetryConfig, [
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    meaning:
      'An OpenTelemetry collector (OTLP over HTTP), e.g. `http://localhost:4318`: traces of requests, commands, appends, runs, steps, model and tool calls go to `<endpoint>/v1/traces` (see [Traces](api.md#traces)). Unset (and no `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): tracing is off, and the OpenTelemetry SDK is not even loaded.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    meaning: 'The full URL for traces, used as it is; wins over the one above.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    default: 'http/protobuf',
    meaning: 'How spans are sent. `grpc` is refused.',
    values: OTLP_PROTOCOLS,
  },
  { name: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', meaning: 'The same for traces alone; wins over the one above.' },
  {
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    meaning:
      'Headers sent with the spans, `key=value,key2=value2` (values URL-encoded): the key of a hosted backend, say.',
  },
  { name: 'OTEL_SERVICE_NAME', default: 'workflows-agents-service', meaning: "The spans' `service.name`." },
  {
    name: 'OTEL_TRACES_SAMPLER',
    default: 'parentbased_always_on',
    meaning:
      "Which traces are kept; a trace continued from a caller's `traceparent` follows the caller's choice under the `parentbased_` ones.",
    values: TRACE_SAMPLERS,
  },
  {
    name: 'OTEL_TRACES_SAMPLER_ARG',
    default: '1',
    meaning: 'The ratio of the `traceidratio` samplers, from 0 to 1.',
  },
  {
    name: 'OTEL_CAPTURE_CONTENT',
    default: 'false',
    meaning:
      "`true`: model calls' spans carry the instructions, messages and answers, and tool calls' spans their arguments and results. They may hold personal data and whatever the tools read.",
    values: ['true', 'false'],
  },
]);
