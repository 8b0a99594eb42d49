import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SequentialIds } from '../../test/support/sequential-ids';
import { TestClock } from '../../test/support/test-clock';
import { ActorRegistry } from '../actors/actor-registry';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { agentDecider, agentStream } from './agent';
import { ORPHANED_CLAIM_AFTER_MS } from './agent-name';
import { AgentNameClaims } from './agent-name-claims';

const context = { correlationId: 'c', causationId: 'c' };

/** The steps of a rename or an archive, each stopped part way, as a crash or a lost store would leave them. */
describe('agent name claims when a change stops between its steps', () => {
  let folder: string;
  let store: SqliteEventStore;
  let clock: TestClock;
  let actors: ActorRegistry;
  let names: AgentNameClaims;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'names-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    clock = new TestClock();
    actors = new ActorRegistry(store, clock, new SequentialIds(), { cacheSize: 100, maxAttempts: 10 });
    names = new AgentNameClaims(actors);
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function createAgent(id: string, name: string) {
    await names.claim(name, id, context);
    await actors.send(
      agentStream(id),
      agentDecider,
      { type: 'CreateAgent', id, name, model: 'openai/m', instructions: '', tools: [], maxSteps: 10 },
      context,
    );
  }

  it('keeps no actor for names or agents: their streams are a few events, which one read rebuilds', async () => {
    await createAgent('agent_1', 'researcher');
    await names.release('researcher', 'agent_1', clock.now().toISOString(), context);
    await createAgent('agent_2', 'researcher');
    expect(actors.size).toBe(0);
  });

  it('a rename that claimed the new name but never changed the agent holds it only for a while', async () => {
    await createAgent('agent_1', 'researcher');
    await names.claim('scout', 'agent_1', context, true); // ...and the process stops here
    await expect(names.claim('scout', 'agent_2', context)).rejects.toMatchObject({ kind: 'conflict' });
    clock.advance(ORPHANED_CLAIM_AFTER_MS);
    await expect(names.claim('scout', 'agent_2', context)).resolves.toBeUndefined();
  });

  it('a rename whose release of the old name never came leaves that name free to take at once', async () => {
    await createAgent('agent_1', 'researcher');
    clock.advance(ORPHANED_CLAIM_AFTER_MS);
    await names.claim('scout', 'agent_1', context, true);
    await actors.send(
      agentStream('agent_1'),
      agentDecider,
      { type: 'UpdateAgent', agentId: 'agent_1', changes: { name: 'scout' }, baseVersion: 1 },
      context,
    ); // ...and the release of "researcher" never comes
    await expect(names.claim('researcher', 'agent_2', context)).resolves.toBeUndefined();
    await expect(names.claim('scout', 'agent_3', context)).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('an archive whose release never came leaves the name free to take at once', async () => {
    await createAgent('agent_1', 'researcher');
    clock.advance(ORPHANED_CLAIM_AFTER_MS);
    await actors.send(agentStream('agent_1'), agentDecider, { type: 'ArchiveAgent', agentId: 'agent_1' }, context);
    await expect(names.claim('researcher', 'agent_2', context)).resolves.toBeUndefined();
  });

  it('an active agent keeps its name however old its claim', async () => {
    await createAgent('agent_1', 'researcher');
    clock.advance(10 * ORPHANED_CLAIM_AFTER_MS);
    await expect(names.claim('researcher', 'agent_2', context)).rejects.toMatchObject({ kind: 'conflict' });
  });
});
