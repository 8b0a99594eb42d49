import { join } from 'node:path';
import { AppendResult, StreamAppend } from '../../src/event-store/event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { startTestApp, temporaryDataDir } from '../support/test-app';

/** A commit as the store was asked for it: each stream it wrote to, with the types of the events it wrote there. */
type Commit = Array<{ stream: string; types: string[] }>;

/** The real SQLite store, in a data folder of its own, noting each commit it is asked for. */
class CommitsNoted extends SqliteEventStore {
  readonly commits: Commit[] = [];

  constructor(readonly dataDir = temporaryDataDir()) {
    super({ file: join(dataDir, 'events.sqlite') });
  }

  override append(...args: Parameters<SqliteEventStore['append']>): Promise<AppendResult> {
    const [stream, events] = args;
    this.commits.push([{ stream, types: events.map((event) => event.type) }]);
    return super.append(...args);
  }

  override appendMultiple(appends: StreamAppend[]): Promise<AppendResult[]> {
    this.commits.push(appends.map(({ stream, events }) => ({ stream, types: events.map((event) => event.type) })));
    return super.appendMultiple(appends);
  }
}

/**
 * A tree's steps, commit by commit: on the embedded store a parent's wait queues and claims its children in the same
 * commit (no instance can see the parent wait for a child not queued yet), and the last child's end resumes and
 * claims the parent in one. The model is a scripted OpenAI-compatible server over HTTP (for a paid provider).
 */
describe('agents as tools, commit by commit', () => {
  let model: ScriptedServer<ChatCompletionsBody>;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) =>
      hasToolResult(body) || body.model === 'child'
        ? { kind: 'text', text: `${body.model} done` }
        : { kind: 'toolCalls', calls: [{ id: 'call_c', name: 'agent_child', arguments: { task: 'Help' } }] },
    );
  });
  afterAll(() => model.close());
  beforeEach(() => model.requests.splice(0));

  /** A parent that calls its child once, run on `store`: the commits that touched the parent's stream and the child's. */
  async function runTree(store: CommitsNoted) {
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0' };
    const app = await startTestApp({ dataDir: store.dataDir, store, env });
    try {
      await app.request('POST', '/v1/agents', { name: 'child', model: 'openai-compatible/child' });
      const parent = await app.request('POST', '/v1/agents', {
        name: 'parent',
        model: 'openai-compatible/parent',
        tools: ['agent:child'],
      });
      const ran = await app.request('POST', `/v1/agents/${parent.body.id}/run`, { task: 'Go' }, { prefer: 'wait=10' });
      expect(ran.body).toMatchObject({ status: 'succeeded', output: 'parent done' });
      // Each model call was made once: the parent, its child, the parent again.
      expect(model.requests.map((body) => body.model)).toEqual(['parent', 'child', 'parent']);
      const [parentStream, childStream] = [ran.body.id, ran.body.children[0].runId].map((id) => `agentrun-${id}`);
      const touching = (stream: string) =>
        store.commits.filter((commit) => commit.some((part) => part.stream === stream));
      return { parentStream, childStream, parentCommits: touching(parentStream), childCommits: touching(childStream) };
    } finally {
      await app.close();
    }
  }

  it("records the parent's wait with its child queued and claimed, and the child's end with the parent claimed", async () => {
    const { parentStream, childStream, parentCommits, childCommits } = await runTree(new CommitsNoted());
    expect(childCommits[0]).toEqual([
      { stream: parentStream, types: ['AgentRunChildRunsStarted'] },
      { stream: childStream, types: ['AgentRunQueued', 'AgentRunStarted'] },
    ]);
    const resumed = parentCommits.find((commit) => commit[0].types.includes('AgentRunChildRunEnded'));
    expect(resumed).toEqual([{ stream: parentStream, types: ['AgentRunChildRunEnded', 'AgentRunStarted'] }]);
  });

  it('queues the child in a commit of its own on a store that writes one stream per commit, as EventStoreDB', async () => {
    const store = new CommitsNoted();
    Object.defineProperty(store, 'appendMultiple', { value: undefined });
    const { parentStream, childStream, parentCommits, childCommits } = await runTree(store);
    const waited = parentCommits.find((commit) => commit[0].types.includes('AgentRunChildRunsStarted'));
    expect(waited).toEqual([{ stream: parentStream, types: ['AgentRunChildRunsStarted'] }]);
    expect(childCommits[0]).toEqual([{ stream: childStream, types: ['AgentRunQueued', 'AgentRunStarted'] }]);
  });
});
