import { Settings, choice, flag, int } from '../shared/settings';
import { HOUR } from './units';

/** How this instance executes runs. */
export interface RunsConfig {
  executorEnabled: boolean;
  concurrency: number;
  timeoutMs: number;
  waitMaxSeconds: number;
  leaseMs: number;
  approvalTimeoutMs: number;
  maxDepth: number;
  maxHandoffs: number;
  streaming: RunStreaming;
}

/** When a run's model calls stream their answer: always, or only while someone can see the text as it comes. */
export type RunStreaming = 'always' | 'watched';

/** The settings of `RunsConfig`, each from its variable. */
export const RUN_SETTINGS = {
  executorEnabled: flag(
    'RUN_EXECUTOR_ENABLED',
    true,
    'Whether this instance executes runs. Any number of instances may: each run executes once.',
  ),
  concurrency: int(
    'RUN_CONCURRENCY',
    10,
    1,
    10_000,
    'Agent runs executing at once in this instance; the others wait, first in, first out.',
  ),
  timeoutMs: int(
    'RUN_TIMEOUT_MS',
    600_000,
    100,
    24 * HOUR,
    'A run still going after this long fails with `timeout`.',
    '10 min',
  ),
  waitMaxSeconds: int('RUN_WAIT_MAX_SECONDS', 60, 0, 3600, 'Upper bound on `Prefer: wait=<seconds>`.'),
  leaseMs: int(
    'RUN_LEASE_MS',
    30_000,
    300,
    HOUR,
    'An executing instance renews its claim on a run every third of this; a run whose claim is older (its instance died) fails with `interrupted` within about 1.5 times this.',
  ),
  approvalTimeoutMs: int(
    'RUN_APPROVAL_TIMEOUT_MS',
    24 * HOUR,
    100,
    365 * 24 * HOUR,
    'A run waiting this long for a decision on its tool calls fails with `approval_timeout`.',
    '24 h',
  ),
  maxDepth: int(
    'RUN_MAX_DEPTH',
    4,
    0,
    32,
    'How deep a tree of runs may grow: a call of an agent tool by a run this deep is the tool error `depth_exceeded`. 0: agents may not call agents.',
  ),
  maxHandoffs: int(
    'RUN_MAX_HANDOFFS',
    8,
    0,
    100,
    'Handoffs one run may make (`transfer_to_<name>` calls); past it a transfer is the tool error `handoffs_exceeded`.',
  ),
  streaming: choice(
    'RUN_STREAMING',
    ['always', 'watched'] as const satisfies readonly RunStreaming[],
    'always',
    "`always`: every model call streams its answer, so a run's `/stream` shows the text as it is written. `watched`: a model call streams only when someone follows the run as it starts (its `/stream`, an A2A or MCP stream) or the run is a thread's turn; any other is one request and one answer, which costs the service about 30 % less CPU per run, and a stream opened meanwhile gets each step's text whole when it ends. See [Agent runs](api.md#agent-runs).",
  ),
} satisfies Settings;
