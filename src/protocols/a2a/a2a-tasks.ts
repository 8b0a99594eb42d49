import { Role, TaskState, type Message, type Part, type Task, type TaskStatus } from '@a2a-js/sdk';
import { AgentRun } from '../../agents/agent-run/agent-run.state';

/**
 * An A2A task is an agent run, its context the run's thread: the task's id is the run's, its state the run's
 * status, its history the task sent and the answer, its artifact the answer. Built from the run as the read models
 * show it, so any instance answers the same, after a restart too.
 */

/** The artifact that carries a run's answer. */
export const ANSWER_ARTIFACT = 'answer';

export function taskStateOf(run: AgentRun): TaskState {
  switch (run.status) {
    case 'queued':
      return TaskState.TASK_STATE_SUBMITTED;
    case 'running':
      return TaskState.TASK_STATE_WORKING;
    // A run waiting for its children goes on by itself; one waiting for an approval needs a person.
    case 'waiting':
      return run.pendingApprovals.length > 0 ? TaskState.TASK_STATE_INPUT_REQUIRED : TaskState.TASK_STATE_WORKING;
    case 'succeeded':
      return TaskState.TASK_STATE_COMPLETED;
    case 'failed':
      return TaskState.TASK_STATE_FAILED;
    case 'cancelled':
      return TaskState.TASK_STATE_CANCELED;
  }
}

/** A state a blocking send and a stream stop at: an end, or a wait for a person. */
export function isSettled(state: TaskState): boolean {
  return (
    state === TaskState.TASK_STATE_COMPLETED ||
    state === TaskState.TASK_STATE_FAILED ||
    state === TaskState.TASK_STATE_CANCELED ||
    state === TaskState.TASK_STATE_INPUT_REQUIRED
  );
}

export function statusOf(run: AgentRun): TaskStatus {
  const state = taskStateOf(run);
  const timestamp = run.endedAt ?? run.startedAt ?? run.createdAt;
  return { state, message: statusMessage(run, state), timestamp };
}

export function taskOf(run: AgentRun, contextId: string, historyLength?: number): Task {
  const history = [message(`${run.id}-task`, Role.ROLE_USER, run, contextId, run.task)];
  if (run.status === 'succeeded')
    history.push(message(`${run.id}-answer`, Role.ROLE_AGENT, run, contextId, run.output));
  return {
    id: run.id,
    contextId,
    status: statusOf(run),
    artifacts: run.status === 'succeeded' ? [answerOf(run)] : [],
    history: historyLength === undefined ? history : history.slice(history.length - historyLength),
    metadata: { agentId: run.agentId, runUrl: `/v1/agents/${run.agentId}/runs/${run.id}` },
  };
}

/** The answer as an artifact: its text, and its `outputObject` as a data part when the run has one. */
export function answerOf(run: AgentRun): Task['artifacts'][number] {
  const parts = [textPart(run.output ?? '')];
  if (run.outputObject !== null && run.outputObject !== undefined) parts.push(dataPart(run.outputObject));
  return { artifactId: ANSWER_ARTIFACT, name: ANSWER_ARTIFACT, description: '', parts, metadata: {}, extensions: [] };
}

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

function statusMessage(run: AgentRun, state: TaskState): Message | undefined {
  const text = statusText(run, state);
  return text === undefined ? undefined : message(`${run.id}-status-${run.status}`, Role.ROLE_AGENT, run, '', text);
}

function statusText(run: AgentRun, state: TaskState): string | undefined {
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED) {
    const tools = run.pendingApprovals.map((approval) => approval.tool).join(', ');
    return (
      `The run waits for a person to approve ${tools}. Decide it in the console or with ` +
      `POST /v1/agents/${run.agentId}/runs/${run.id}/approvals; the task then goes on.`
    );
  }
  if (state === TaskState.TASK_STATE_FAILED) return `${run.error?.code}: ${run.error?.message}`;
  return undefined;
}

function message(id: string, role: Role, run: AgentRun, contextId: string, text: string | null): Message {
  return {
    messageId: id,
    contextId,
    taskId: run.id,
    role,
    parts: [textPart(text ?? '')],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
