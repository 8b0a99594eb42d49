import { Settings, int } from '../shared/settings';
import { HOUR } from './units';

/** How workflows wait for the world: signals kept for a wait that has not begun yet, and durable timers. */
export interface WorkflowsConfig {
  signalRetentionMs: number;
  timerPollMs: number;
  maxMapItems: number;
  maxDepth: number;
}

/** The settings of `WorkflowsConfig`, each from its variable. */
export const WORKFLOW_SETTINGS = {
  signalRetentionMs: int(
    'SIGNAL_RETENTION_MS',
    24 * HOUR,
    0,
    365 * 24 * HOUR,
    'A signal that no run waits for is kept this long: a wait for it that begins meanwhile takes it (the oldest first).',
    '24 h',
  ),
  timerPollMs: int(
    'WORKFLOW_TIMER_POLL_MS',
    1000,
    10,
    60_000,
    "How often an instance looks for the steps' timers (sleeps waking, waits and approvals timing out) due soon; each fires on time within that.",
  ),
  maxMapItems: int(
    'WORKFLOW_MAX_MAP_ITEMS',
    1000,
    1,
    10_000,
    'The most items a map step runs its agent over: a longer list fails the step with map_too_many_items, naming its length.',
  ),
  maxDepth: int(
    'WORKFLOW_MAX_DEPTH',
    4,
    1,
    20,
    'How deep workflow steps may nest child runs (a run started by hand is at depth 0): a deeper one fails its step with workflow_depth_exceeded.',
  ),
} satisfies Settings;
