import { oneOf } from '../shared/env';

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
