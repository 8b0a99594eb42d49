import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_EVENT_TYPES, agentStream } from '../../src/agents/agent';
import { AgentNameEvent, agentNameStream } from '../../src/agents/agent-name';
import { AGENT_RUN_EVENT_TYPES, agentRunStream } from '../../src/agents/agent-run/agent-run.events';
import { eventTypes } from '../../src/domain/decider';
import { IdempotencyEvent, idempotencyStream } from '../../src/idempotency/idempotency-key';
import { THREAD_EVENT_TYPES, threadStream } from '../../src/threads/thread';
import { WORKFLOW_EVENT_TYPES, workflowStream } from '../../src/workflows/workflow/workflow.events';
import { WORKFLOW_RUN_EVENT_TYPES, workflowRunStream } from '../../src/workflows/workflow-run/workflow-run.events';
import { WEBHOOK_EVENT_TYPES, webhookStream } from '../../src/webhooks/webhook';
import { DELIVERY_EVENT_TYPES, deliveryStream } from '../../src/webhooks/webhook-delivery';
import { DATASET_EVENT_TYPES, datasetStream } from '../../src/datasets/dataset';
import { SCORER_EVENT_TYPES, scorerStream } from '../../src/scorers/scorer';
import { EXPERIMENT_EVENT_TYPES, experimentStream } from '../../src/experiments/experiment';
import { SIGNAL_EVENT_TYPES, signalStream } from '../../src/signals/signal';
import { MEMORY_EVENT_TYPES, memoryStream } from '../../src/memory/memory-item';
import { SUBJECT_EVENT_TYPES, subjectStream } from '../../src/subjects/subject';
import { DATA_KEY_MADE, keyStream } from '../../src/event-store/sealing/key-streams';

const category = (stream: string) => stream.slice(0, stream.indexOf('-'));

/** Every event type the service writes, by the category of the streams it is written on. */
const WRITTEN: Record<string, string[]> = {
  [category(agentNameStream('n'))]: eventTypes<AgentNameEvent>({ AgentNameClaimed: true, AgentNameReleased: true }),
  [category(agentStream('a'))]: AGENT_EVENT_TYPES,
  [category(agentRunStream('r'))]: AGENT_RUN_EVENT_TYPES,
  [category(workflowStream('w'))]: WORKFLOW_EVENT_TYPES,
  [category(workflowRunStream('r'))]: WORKFLOW_RUN_EVENT_TYPES,
  [category(threadStream('t'))]: THREAD_EVENT_TYPES,
  [category(webhookStream('w'))]: WEBHOOK_EVENT_TYPES,
  [category(deliveryStream('w'))]: DELIVERY_EVENT_TYPES,
  [category(datasetStream('d'))]: DATASET_EVENT_TYPES,
  [category(scorerStream('s'))]: SCORER_EVENT_TYPES,
  [category(experimentStream('e'))]: EXPERIMENT_EVENT_TYPES,
  [category(signalStream('s'))]: SIGNAL_EVENT_TYPES,
  [category(memoryStream('n', 'k'))]: MEMORY_EVENT_TYPES,
  [category(subjectStream('s'))]: SUBJECT_EVENT_TYPES,
  [category(keyStream('s'))]: [DATA_KEY_MADE],
  [category(idempotencyStream('caller', 'k'))]: eventTypes<IdempotencyEvent>({
    IdempotencyKeyClaimed: true,
    IdempotentRequestCompleted: true,
    IdempotencyKeyReleased: true,
  }),
};

/** The table's rows `| \`stream-<…>\` | \`Type\` | … |`; a row with an empty stream cell is on the stream above. */
function documented(): Record<string, string[]> {
  const document = readFileSync(join(__dirname, '..', '..', 'docs', 'event-types.md'), 'utf8');
  const listed: Record<string, string[]> = {};
  let current = '';
  for (const [, stream, type] of document.matchAll(/^\| (`[a-z]+-[^`]*`)? *\| `([A-Z]\w+)` \|/gm)) {
    if (stream) current = stream.slice(1, stream.indexOf('-'));
    (listed[current] ??= []).push(type);
  }
  return listed;
}

describe('docs/event-types.md', () => {
  it('lists every event type on its stream, and no other', () => {
    const sorted = (byStream: Record<string, string[]>) =>
      Object.fromEntries(Object.entries(byStream).map(([stream, types]) => [stream, [...types].sort()]));
    expect(sorted(documented())).toEqual(sorted(WRITTEN));
  });
});
