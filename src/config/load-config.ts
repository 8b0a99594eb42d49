import { Settings, readSettings, variablesOf } from '../shared/settings';
import { ACCESS_SETTINGS } from './access-config';
import type { AppConfig } from './app-config';
import { EVENT_STREAM_SETTINGS, HTTP_LIMIT_SETTINGS } from './http-settings';
import { MODEL_PRICES_SETTING } from './model-prices-config';
import { PROTOCOL_SETTINGS } from './protocols-config';
import { PROVIDER_SETTINGS } from './provider-config';
import { RUN_SETTINGS } from './run-settings';
import { SERVICE_SETTINGS } from './service-settings';
import { TELEMETRY_SETTINGS } from './telemetry-config';
import { TOOLS_SETTINGS } from './tools-config';
import { SUBJECTS_SETTINGS } from './subjects-config';
import { WEBHOOKS_SETTINGS } from './webhooks-config';
import { WORKFLOW_SETTINGS } from './workflow-settings';

/**
 * Every environment variable: read in this order, and listed so in `docs/configuration.md`. Each group is declared
 * in the file that reads it; the order here is the order of the reference, so a group moves only with a reason.
 */
const SETTINGS = {
  ...SERVICE_SETTINGS,
  http: HTTP_LIMIT_SETTINGS,
  ...EVENT_STREAM_SETTINGS,
  providers: PROVIDER_SETTINGS,
  prices: MODEL_PRICES_SETTING,
  tools: TOOLS_SETTINGS,
  protocols: PROTOCOL_SETTINGS,
  access: ACCESS_SETTINGS,
  webhooks: WEBHOOKS_SETTINGS,
  subjects: SUBJECTS_SETTINGS,
  runs: RUN_SETTINGS,
  workflows: WORKFLOW_SETTINGS,
  telemetry: TELEMETRY_SETTINGS,
} satisfies Settings;

/** Reads the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return readSettings(SETTINGS, env);
}

/** The rows of `docs/configuration.md`. */
export const CONFIG_VARIABLES = variablesOf(SETTINGS);
