import { ActorRegistry } from '../../actors/actor-registry';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { DomainError } from '../../domain/decider';
import { isEnded } from '../../domain/run';
import { NOT_BLANK } from '../../http/validation';
import { isPlainObject } from '../../shared/json-merge-patch';
import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { workflowRunDecider } from '../../workflows/workflow-run/workflow-run';
import { workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import { DatasetItemData, DatasetTarget } from '../dataset';
import { MAX_ITEM_BYTES } from '../dataset.schema';
import type { AddDatasetItemDto } from './dataset.dto';

const MAX_TASK_LENGTH = 100_000;

/**
 * The item a request adds to a dataset of `target`: its input as given (checked against the target), or a run's
 * input and output (`fromRunId`, a run that has ended). A bad item is a 400 naming the field; a run that cannot be
 * an item (another kind than the target's, unknown, not ended) a 422 naming `fromRunId`.
 */
export async function itemOf(
  body: AddDatasetItemDto,
  target: DatasetTarget,
  actors: ActorRegistry,
): Promise<DatasetItemData> {
  const { fromRunId, metadata } = body;
  if (fromRunId !== undefined && body.input !== undefined) {
    throw new ValidationFailed([{ path: 'input', message: 'give either input or fromRunId, not both' }]);
  }
  const item = fromRunId
    ? { ...(await fromRun(fromRunId, target, actors)), metadata }
    : { input: checkedInput(body.input, target), expected: null, metadata, sourceRunId: null };
  if (body.expected !== undefined) item.expected = body.expected;
  const bytes = Buffer.byteLength(JSON.stringify({ input: item.input, expected: item.expected, metadata }));
  if (bytes > MAX_ITEM_BYTES) {
    const message = `an item's input, expected and metadata must be at most ${MAX_ITEM_BYTES} bytes as JSON (${bytes})`;
    throw new ValidationFailed([{ path: 'body', message }]);
  }
  return item;
}

function checkedInput(input: unknown, target: DatasetTarget): unknown {
  const errors: FieldError[] = [];
  if (!isPlainObject(input)) errors.push({ path: 'input', message: 'input must be an object' });
  else if (target === 'agent') {
    const { task, context, ...others } = input;
    if (typeof task !== 'string') errors.push({ path: 'input.task', message: 'input.task must be a string' });
    else if (!NOT_BLANK.test(task)) errors.push({ path: 'input.task', message: 'input.task must not be empty' });
    else if (task.length > MAX_TASK_LENGTH)
      errors.push({ path: 'input.task', message: `input.task must be at most ${MAX_TASK_LENGTH} characters` });
    if (context !== undefined && !isPlainObject(context))
      errors.push({ path: 'input.context', message: 'input.context must be an object' });
    for (const key of Object.keys(others))
      errors.push({ path: `input.${key}`, message: "an agent item's input holds only task and context" });
    if (!errors.length) return { task, context: context ?? {} };
  }
  if (errors.length) throw new ValidationFailed(errors);
  return input;
}

/** A run's input, its output as the answer expected (none for a run that did not succeed), and a link to it. */
async function fromRun(
  runId: string,
  target: DatasetTarget,
  actors: ActorRegistry,
): Promise<Omit<DatasetItemData, 'metadata'>> {
  const kind = runId.startsWith('agentrun_') ? 'agent' : 'workflow';
  if (kind !== target) throw refusal(`${runId} is a ${kind} run: a ${target} dataset's items come from ${target} runs`);
  if (kind === 'agent') {
    const run = await actors.of(agentRunStream(runId), agentRunDecider).read();
    if (!run) throw refusal(`No agent run ${runId} exists`);
    if (!isEnded(run.status)) throw refusal(`Agent run ${runId} has not ended yet (it is ${run.status})`);
    const expected = run.status === 'succeeded' ? (run.outputObject ?? run.output) : null;
    return { input: { task: run.task, context: run.context }, expected, sourceRunId: runId };
  }
  const run = await actors.of(workflowRunStream(runId), workflowRunDecider).read();
  if (!run) throw refusal(`No workflow run ${runId} exists`);
  if (!isEnded(run.status)) throw refusal(`Workflow run ${runId} has not ended yet (it is ${run.status})`);
  return { input: run.input, expected: run.status === 'succeeded' ? run.output : null, sourceRunId: runId };
}

function refusal(message: string): DomainError {
  return new DomainError('unprocessable', message, [{ path: 'fromRunId', message }]);
}
