import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestClock } from '../../../test/support/test-clock';
import { SequentialIds } from '../../../test/support/sequential-ids';
import { ActorRegistry, DEFAULT_MAX_ATTEMPTS } from '../../actors/actor-registry';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { WorkflowRunCommand } from '../../workflows/workflow-run/workflow-run.commands';
import { workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import { WorkflowRunActors } from './workflow-run-actors';

const context = { correlationId: 'c', causationId: 'c' };
const runId = 'wfrun_1';
const queue: WorkflowRunCommand = {
  type: 'QueueWorkflowRun',
  id: runId,
  workflowId: 'wf_1',
  input: { text: 'y'.repeat(10_000) },
  trigger: { type: 'manual' },
  createdAt: '2026-01-01T00:00:00.000Z',
};
const start: WorkflowRunCommand = {
  type: 'StartWorkflowRun',
  workflowName: 'w',
  workflowVersion: 1,
  steps: [{ agent: 'a', action: 'x' }],
  newRunId: () => 'agentrun_1',
};

describe('the actors of the workflow runs being worked on', () => {
  let folder: string;
  let store: SqliteEventStore;
  let runs: WorkflowRunActors;
  const actorsOf = (store: SqliteEventStore) =>
    new WorkflowRunActors(
      new ActorRegistry(store, new TestClock(), new SequentialIds(), {
        cacheSize: 100,
        maxAttempts: DEFAULT_MAX_ATTEMPTS,
      }),
    );

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'run-actors-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    runs = actorsOf(store);
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("keeps a run's actor between its events: after the first, a read or a command reads only what is new", async () => {
    await runs.send(runId, queue, context);
    const reads = jest.spyOn(store, 'readStream');
    expect((await runs.read(runId))?.status).toBe('queued');
    await runs.send(runId, start, context);
    expect((await runs.read(runId))?.status).toBe('running');
    // Each read asks only for the events after the revision the actor has: the first one is never read again.
    expect(reads.mock.calls.map(([stream, options]) => [stream, options?.fromRevision])).toEqual([
      [workflowRunStream(runId), 1n],
      [workflowRunStream(runId), 3n],
    ]);
  });

  it("takes a run's state from its stream's first event as handed over, without reading that event back", async () => {
    // The run's stream, opened by another actor (as the trigger opens it, in its commit).
    await actorsOf(store).send(runId, queue, context);
    const [opening] = (await store.readStream(workflowRunStream(runId))).events;
    const reads = jest.spyOn(store, 'readStream');
    runs.adoptOpening(runId, { ...opening, revision: 1n }); // not the first event: ignored
    runs.adoptOpening(runId, opening);
    const run = await runs.read(runId);
    expect(run?.status).toBe('queued');
    expect(run?.input).toEqual(queue.type === 'QueueWorkflowRun' && queue.input);
    expect(reads.mock.calls.map(([, options]) => options?.fromRevision)).toEqual([1n]);
  });

  it('drops the actor of a run found ended, and reads its whole stream when asked again', async () => {
    await runs.send(runId, queue, context);
    await runs.send(runId, { type: 'CancelWorkflowRun' }, context);
    expect((await runs.read(runId))?.status).toBe('cancelled');
    const reads = jest.spyOn(store, 'readStream');
    expect((await runs.read(runId))?.status).toBe('cancelled');
    expect(reads.mock.calls[0][1]?.fromRevision).toBe(0n);
  });
});
