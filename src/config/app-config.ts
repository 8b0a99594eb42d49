import type { AccessConfig } from './access-config';
import type { HttpLimits } from './http-settings';
import type { ModelPriceTable } from './model-prices-config';
import type { ProtocolsConfig } from './protocols-config';
import type { ProviderConfig } from './provider-config';
import type { RunsConfig } from './run-settings';
import type { SqliteSynchronous } from './service-settings';
import type { SubjectsConfig } from './subjects-config';
import type { TelemetryConfig } from './telemetry-config';
import type { ToolsConfig } from './tools-config';
import type { WebhooksConfig } from './webhooks-config';
import type { WorkflowsConfig } from './workflow-settings';

export const APP_CONFIG = Symbol('AppConfig');

/** The service's configuration, as `loadConfig` reads it; `load-config.ts` shows where each group's variables are declared. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `esdb://…`: use EventStoreDB; unset: the embedded SQLite store in `dataDir`. */
  eventStoreUrl?: string;
  eventStoreDeadlineMs: number;
  streamPrefix: string;
  sqliteSynchronous: SqliteSynchronous;
  readYourWritesTimeoutMs: number;
  actorCacheSize: number;
  snapshotEvery: number;
  /** Snapshots of the read models, for new instances to start from (off without `dir`). */
  readModelSnapshots: { dir?: string; every: number };
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  /** Unset: `pretty` when standard output is a terminal, else `json` (see logFormatFor). */
  logFormat?: 'json' | 'pretty';
  schedulerEnabled: boolean;
  scheduleCatchUpWindowMs: number;
  schedulePrepareAheadMs: number;
  sseHeartbeatMs: number;
  /** The event log served to clients (`GET /v1/events`): pages and catch-ups bounded by bytes, and how many at once. */
  eventLog: { pageMaxBytes: number; maxCatchingUp: number };
  providers: ProviderConfig;
  /** Prices by model id from `MODEL_PRICES_FILE`, laid over the built-in ones for each run's `usage.costUsd`. */
  prices: ModelPriceTable;
  tools: ToolsConfig;
  /** The MCP server at `/mcp`, and the other protocols the service speaks. */
  protocols: ProtocolsConfig;
  runs: RunsConfig;
  workflows: WorkflowsConfig;
  access: AccessConfig;
  webhooks: WebhooksConfig;
  subjects: SubjectsConfig;
  /** Applied in `src/http/http-server.ts` and `src/http/json-body.ts`. */
  http: HttpLimits;
  telemetry: TelemetryConfig;
}
