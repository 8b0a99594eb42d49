import type { AgentCard, Part, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import {
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { Agent } from '../../agents/agent';
import { AgentRun } from '../../agents/agent-run/agent-run.state';
import { isEnded } from '../../domain/run';
import { A2aRuns } from './a2a-runs';
import { agentCard } from './a2a-cards';
import { ANSWER_ARTIFACT, answerOf, isSettled, statusOf, taskOf, taskStateOf, textPart } from './a2a-tasks';

const THREAD_ID = /^thread_[0-9A-HJKMNP-TV-Z]{26}$/;
type Artifact = Task['artifacts'][number];

/** Who asks, and where the service is reached from (cards carry absolute addresses). */
export interface A2aCaller {
  origin: string;
  keysOn: boolean;
  /** False for a read key: it may read cards and tasks, not send or cancel. */
  mayWrite: boolean;
  /** Aborted once the request's connection closes, or the service stops: a stream then ends. */
  signal: AbortSignal;
}

/**
 * The A2A request handler of one agent, over its runs: a message starts a run on the thread its `contextId` names
 * (a new thread without one), a task is read from the read models, a stream is the run's own events as they are
 * applied and its text as the model writes it. The SDK's JSON-RPC transports (1.0 and 0.3) sit in front of it.
 */
export class AgentTasks implements A2ARequestHandler {
  constructor(
    private readonly agent: Agent,
    private readonly runs: A2aRuns,
    private readonly caller: A2aCaller,
  ) {}

  getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(agentCard(this.agent, this.caller.origin, this.caller.keysOn));
  }

  async sendMessage(params: SendMessageRequest): Promise<Task> {
    const run = await this.start(params);
    if (params.configuration?.returnImmediately) return this.taskOf(run);
    return this.taskOf(await this.runs.settled(run));
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.start(params);
    yield* this.follow(run.id);
  }

  async getTask(params: { id: string; historyLength?: number }): Promise<Task> {
    return this.taskOf(this.runOf(params.id), params.historyLength);
  }

  async cancelTask(params: { id: string }): Promise<Task> {
    this.checkWrite();
    const run = this.runOf(params.id);
    if (isEnded(run.status)) throw new TaskNotCancelableError(`Task ${run.id} has ended (${run.status})`);
    return this.taskOf(await this.runs.cancel(run));
  }

  async *resubscribe(params: { id: string }): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.follow(this.runOf(params.id).id);
  }

  getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    return Promise.reject(new UnsupportedOperationError('This agent has no extended card'));
  }

  listTasks(): never {
    throw new UnsupportedOperationError(`List the tasks as runs: GET /v1/agents/${this.agent.id}/runs`);
  }

  createTaskPushNotificationConfig(): never {
    throw new PushNotificationNotSupportedError('Use a webhook of the service (POST /v1/webhooks) instead');
  }
  getTaskPushNotificationConfig = this.createTaskPushNotificationConfig;
  listTaskPushNotificationConfigs = this.createTaskPushNotificationConfig;
  deleteTaskPushNotificationConfig = this.createTaskPushNotificationConfig;

  /** The message's text parts are the task, its data parts the context; its `contextId` the thread it continues. */
  private async start({ message }: SendMessageRequest): Promise<AgentRun> {
    this.checkWrite();
    if (!message) throw new RequestMalformedError('A message is required');
    if (message.taskId)
      throw new UnsupportedOperationError(
        `Task ${message.taskId} cannot take another message: a task here is one run (approvals are made through ` +
          'the HTTP API or the console). Send a new message with its contextId to go on with the conversation.',
      );
    const { task, context } = contentOf(message.parts);
    if (message.contextId && !THREAD_ID.test(message.contextId))
      throw new RequestMalformedError(
        `contextId ${message.contextId} is not one this service gave: send none to start a conversation, or the contextId of one of its tasks`,
      );
    return this.runs.start(this.agent, task, context, message.contextId || undefined);
  }

  /** The task now, then each change of it as the read models apply the run's events, until it settles. */
  private async *follow(runId: string): AsyncGenerator<StreamResponse, void, undefined> {
    const updates = this.runs.updates(this.agent.id, runId, this.caller.signal);
    try {
      let run = updates.current();
      yield { payload: { $case: 'task', value: this.taskOf(run) } };
      let state = taskStateOf(run);
      let streamed = false;
      while (!isSettled(state)) {
        const update = await updates.next();
        if (update.kind === 'text') {
          yield this.artifactUpdate(run, { ...answerOf(run), parts: [textPart(update.text)] }, streamed, false);
          streamed = true;
          continue;
        }
        run = update.run;
        if (run.status === 'succeeded') yield this.artifactUpdate(run, answerOf(run), false, true);
        if (taskStateOf(run) !== state) {
          state = taskStateOf(run);
          const contextId = this.contextOf(run);
          yield {
            payload: {
              $case: 'statusUpdate',
              value: { taskId: run.id, contextId, status: statusOf(run), metadata: {} },
            },
          };
        }
      }
    } finally {
      updates.stop();
    }
  }

  private artifactUpdate(run: AgentRun, artifact: Artifact, append: boolean, lastChunk: boolean): StreamResponse {
    const contextId = this.contextOf(run);
    const value = {
      taskId: run.id,
      contextId,
      artifact: { ...artifact, artifactId: ANSWER_ARTIFACT },
      append,
      lastChunk,
      metadata: {},
    };
    return { payload: { $case: 'artifactUpdate', value } };
  }

  private runOf(id: string): AgentRun {
    const run = this.runs.get(this.agent.id, id);
    if (!run) throw new TaskNotFoundError(`There is no task ${id} of the agent ${this.agent.name}`);
    return run;
  }

  private taskOf(run: AgentRun, historyLength?: number): Task {
    return taskOf(run, this.contextOf(run), historyLength);
  }

  /** A run on no thread (started over HTTP) has a context of its own. */
  private contextOf(run: AgentRun): string {
    return run.threadId ?? run.id;
  }

  private checkWrite(): void {
    if (!this.caller.mayWrite)
      throw new UnsupportedOperationError(
        'This API key may only read: it may read cards and tasks, not send or cancel',
      );
  }
}

/** A message's text parts joined are the task; its data parts, objects merged, the context. */
function contentOf(parts: Part[]): { task: string; context: Record<string, unknown> } {
  const texts: string[] = [];
  const context: Record<string, unknown> = {};
  const data: unknown[] = [];
  for (const part of parts) {
    if (part.content?.$case === 'text') texts.push(part.content.value);
    else if (part.content?.$case === 'data') {
      const value = part.content.value as unknown;
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) Object.assign(context, value);
      else data.push(value);
    } else
      throw new RequestMalformedError('Only text and data parts are taken: the text is the task, the data its context');
  }
  if (data.length) context.data = data;
  const task = texts.join('\n');
  if (!task.trim()) throw new RequestMalformedError('A message needs a text part: the task');
  return { task, context };
}
