import { rmSync } from 'node:fs';
import { EventStreamClient } from '../support/event-stream-client';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

// The smallest page the service allows, and runs that stay queued, so the log holds only what the tests write.
const PAGE_BYTES = 64 * 1024;
const env = { RUN_EXECUTOR_ENABLED: 'false', SCHEDULER_ENABLED: 'false', EVENTS_PAGE_MAX_BYTES: String(PAGE_BYTES) };

interface Envelope {
  position: string;
  type: string;
  stream: string;
  data: Record<string, unknown>;
}

describe.each(storeFixtures())('GET /v1/events bounded by bytes on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let dataDir: string;
  let api: TestApp;

  beforeEach(async () => {
    fixture = await createFixture();
    dataDir = temporaryDataDir();
    api = await startTestApp({ dataDir, fixture, env });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An agent and `runs` runs whose contexts hold about 20 KB each. */
  async function seed(runs: number): Promise<string> {
    const agent = await api.request('POST', '/v1/agents', { name: 'big', model: 'openai/gpt-4o-mini' });
    for (let i = 0; i < runs; i++) {
      const run = await api.request('POST', `/v1/agents/${agent.body.id}/run`, {
        task: `task ${i}`,
        context: { i, blob: 'x'.repeat(20_000) },
      });
      expect(run.status).toBe(202);
    }
    return agent.body.id;
  }

  const bytesOf = (events: Envelope[]) => events.reduce((sum, event) => sum + JSON.stringify(event.data).length, 0);

  it('ends a page once its events hold EVENTS_PAGE_MAX_BYTES, says more, and pages on to every event once', async () => {
    await seed(8);
    const seen: Envelope[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const page = await api.request('GET', `/v1/events?limit=200${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      const events = page.body.events as Envelope[];
      // A page holds what fits, or a single event however large.
      if (events.length > 1) expect(bytesOf(events)).toBeLessThanOrEqual(PAGE_BYTES);
      seen.push(...events);
      after = page.body.nextAfter;
      if (!page.body.more) break;
    }
    const contexts = seen.filter((e) => e.type === 'AgentRunQueued').map((e) => (e.data.context as { i: number }).i);
    expect(contexts).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const positions = seen.map((e) => BigInt(e.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(positions).size).toBe(positions.length);

    const newest = await api.request('GET', '/v1/events?order=desc&limit=200');
    expect(bytesOf(newest.body.events)).toBeLessThanOrEqual(PAGE_BYTES);
    expect(newest.body.more).toBe(true);
  });

  it('streams a log of large events in slices: each event once, in order, as the pages and histories show it', async () => {
    const agentId = await seed(6);
    const pages: Envelope[] = [];
    for (let after: string | undefined, more = true; more;) {
      const page = await api.request('GET', `/v1/events${after ? `?after=${after}` : ''}`);
      pages.push(...page.body.events);
      [after, more] = [page.body.nextAfter, page.body.more];
    }
    const stream = await EventStreamClient.open(`${api.url}/v1/events`);
    try {
      const messages = await stream.next(pages.length);
      expect(messages.map((m) => m.data)).toEqual(pages);
    } finally {
      stream.close();
    }
    // The history route encodes parsed events: the stored JSON the log serves must read the same.
    const history = await api.request('GET', `/v1/agents/${agentId}/events`);
    expect(history.body.events).toEqual(pages.filter((e) => e.stream === `agent-${agentId}`));
  });
});
