import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore } from '../event-store';
import { SqliteEventStore } from '../sqlite/sqlite-event-store';
import { withSealing } from './sealing-event-store';
import { SubjectKeys } from './subject-keys';

const FORGOTTEN = { forgotten: true };
const event = (type: string, data: Record<string, unknown>) => ({
  id: randomUUID(),
  type,
  data,
  metadata: { schemaVersion: 1 },
});
const completed = (body: unknown) =>
  event('IdempotentRequestCompleted', { fingerprint: 'f', response: { status: 200, headers: {}, body } });

/**
 * The answers kept for `Idempotency-Key` repeats, behind the sealing store on real SQLite: an answer about a subject
 * (by its run, thread, namespace or `subjectId`) is sealed under its key, one about several subjects under each, and
 * one about none stays plain.
 */
describe('sealing store: answers kept for Idempotency-Key repeats', () => {
  let folder: string;
  let store: SqliteEventStore;
  let keys: SubjectKeys;
  let sealing: EventStore;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'kept-answers-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    keys = new SubjectKeys(join(folder, 'subject-keys.sqlite'), 'a-data-key-secret-of-more-than-32-characters');
    sealing = withSealing(store, keys);
  });
  afterEach(async () => {
    keys.close();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const keep = async (stream: string, body: unknown) => {
    await sealing.append(stream, [completed(body)], { expected: 'any' });
    const [stored] = (await store.readStream(stream)).events;
    const [read] = (await sealing.readStream(stream)).events;
    return { stored: JSON.stringify(stored.data), read: read.data.response as { body: unknown } };
  };

  it("seals a run's answer under its subject, found by the run's id, and forgets it with the subject", async () => {
    const task = { task: 'Ada lives at 12 Rua Augusta', context: { subjectId: 'ada' } };
    await sealing.append('agentrun-agentrun_1', [event('AgentRunQueued', task)], { expected: 'no_stream' });
    const answer = { id: 'agentrun_1', status: 'succeeded', output: 'Noted: 12 Rua Augusta' };

    const { stored, read } = await keep('idempotency-1', answer);

    expect(stored).not.toContain('Rua Augusta');
    expect(read.body).toEqual(answer);
    keys.destroyKeys('ada');
    const [after] = (await sealing.readStream('idempotency-1')).events;
    expect((after.data.response as { body: unknown }).body).toEqual(FORGOTTEN);
    // The log's JSON pages open it the same way.
    const page = await sealing.readLogJson({ direction: 'forward', maxCount: 10 });
    const json = page.events.find((e) => e.type === 'IdempotentRequestCompleted')!.dataJson.toString();
    expect(JSON.parse(json).response.body).toEqual(FORGOTTEN);
  });

  it('seals an answer about two subjects under both keys: forgetting either one forgets it', async () => {
    keys.setNamespaces('ada', ['users/ada']);
    keys.setNamespaces('bob', ['users/bob']);
    const results = {
      results: [
        { namespace: 'users/ada', key: 'diet', value: 'Ada eats no meat' },
        { namespace: 'users/bob', key: 'diet', value: 'Bob eats fish' },
      ],
    };

    const first = await keep('idempotency-2', results);
    const second = await keep('idempotency-3', { ...results, also: { subjectId: 'bob' } });

    expect(first.stored).not.toContain('eats');
    expect(first.read.body).toEqual(results);
    expect(second.read.body).toMatchObject(results);
    keys.destroyKeys('bob');
    const bodies = await Promise.all(
      ['idempotency-2', 'idempotency-3'].map(async (s) => (await sealing.readStream(s)).events[0].data.response),
    );
    expect(bodies).toEqual([
      expect.objectContaining({ body: FORGOTTEN }),
      expect.objectContaining({ body: FORGOTTEN }),
    ]);
  });

  it('peels layers off kept answers only: other content that looks sealed is given back as it was', async () => {
    const looksSealed = { $sealed: 'v1.not-a-key.a.b.c' };
    const queued = { task: 'A note', context: { subjectId: 'ada' } };
    await sealing.append('agentrun-agentrun_2', [event('AgentRunQueued', queued)], { expected: 'no_stream' });
    const tool = event('AgentRunToolReturned', { runId: 'agentrun_2', output: looksSealed });
    await sealing.append('agentrun-agentrun_2', [tool], { expected: 0n });

    const [, returned] = (await sealing.readStream('agentrun-agentrun_2')).events;

    expect(returned.metadata.subject).toBe('ada');
    expect(returned.data.output).toEqual(looksSealed);
  });

  it("seals a thread's answer by its subjectId, and leaves an answer about no one plain", async () => {
    const thread = { id: 'thread_1', subjectId: 'ada', metadata: { note: 'private' } };
    const plain = { id: 'agent_1', name: 'clerk', instructions: 'Be brief' };

    const sealed = await keep('idempotency-4', thread);
    const open = await keep('idempotency-5', plain);

    expect(sealed.stored).not.toContain('private');
    expect(sealed.read.body).toEqual(thread);
    expect(open.stored).toContain('Be brief');
    expect(open.read.body).toEqual(plain);
  });
});
