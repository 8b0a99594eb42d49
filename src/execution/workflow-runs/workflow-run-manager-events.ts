import { AGENT_RUN_ENDINGS, AgentRunFailed, AgentRunSucceeded } from '../../agents/agent-run/agent-run.events';
import { RecordedEvent } from '../../event-store/event-store';
import { StepOutcome } from '../../workflows/workflow-run/workflow-run.commands';

/** The events the workflow run manager follows: its runs' own, and the endings of the agent runs their steps made. */
export const FOLLOWED_EVENT_TYPES = [
  'WorkflowRunQueued',
  'WorkflowStepStarted',
  'WorkflowChildRunStarted',
  'WorkflowMapStarted',
  'WorkflowMapItemStarted',
  'WorkflowStepRetrying',
  'WorkflowStepRepeating',
  'WorkflowStepEnded',
  'WorkflowRunSucceeded',
  'WorkflowRunCancelled',
  'WorkflowRunFailed',
  ...AGENT_RUN_ENDINGS,
];

/** The workflow run a followed event belongs to; undefined for the ending of an agent run of no workflow. */
export function workflowRunOf(event: RecordedEvent): string | undefined {
  if (event.type === 'WorkflowRunQueued') return event.data.id as string;
  if (event.type.startsWith('AgentRun')) return event.data.workflowRunId as string | undefined;
  return event.data.runId as string;
}

export const isAgentRunEnding = (event: RecordedEvent) => (AGENT_RUN_ENDINGS as readonly string[]).includes(event.type);

/** How an agent run that a step made ended; undefined for a run of no workflow. */
export function stepEndOf(event: RecordedEvent) {
  const data = event.data as AgentRunSucceeded['data'] | AgentRunFailed['data'];
  const { workflowRunId, stepIndex, runId: agentRunId } = data;
  if (workflowRunId === undefined || stepIndex === undefined) return undefined;
  const outcome: StepOutcome =
    event.type === 'AgentRunSucceeded'
      ? answerOf(data as AgentRunSucceeded['data'])
      : event.type === 'AgentRunFailed'
        ? { error: (data as AgentRunFailed['data']).error }
        : { cancelled: true };
  return { workflowRunId, index: stepIndex, agentRunId, outcome };
}

/** A step, or an item of a map step, started: its agent run is to be queued. */
export const queuesAnAgentRun = (event: RecordedEvent) =>
  event.type === 'WorkflowStepStarted' || event.type === 'WorkflowMapItemStarted';

/**
 * A run's events in order, in groups: steps (and items) started together (their agent runs are queued at once),
 * and agent runs that ended one after another (their steps end in one command).
 */
export function sideBySide(events: RecordedEvent[]): RecordedEvent[][] {
  const groups: RecordedEvent[][] = [];
  for (const event of events) {
    const last = groups[groups.length - 1];
    const together =
      (queuesAnAgentRun(event) && last !== undefined && queuesAnAgentRun(last[0])) ||
      (isAgentRunEnding(event) && last !== undefined && isAgentRunEnding(last[0]));
    if (together) last.push(event);
    else groups.push([event]);
  }
  return groups;
}

function answerOf({ output, outputObject }: AgentRunSucceeded['data']): StepOutcome {
  return outputObject === undefined ? { output } : { output, outputObject };
}
