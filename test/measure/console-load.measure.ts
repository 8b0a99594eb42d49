/**
 * Measures the console against a large service (not part of `npm test`; run `npm run measure:console`):
 * seeds CONSOLE_SEED (default 10,000) agents and as many workflows through the API, then in Chromium reports the
 * bytes transferred on first load, the time to the first rendered rows, and how long "Load more" and the name
 * filter take on lists of that size.
 */
import { launchBrowser } from '../support/browser';
import { startTestApp } from '../support/test-app';

const SEED = Number(process.env.CONSOLE_SEED ?? 10_000);
jest.setTimeout(60 * 60_000);

async function inParallel(count: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

it(`renders the lists of ${SEED} agents and ${SEED} workflows quickly`, async () => {
  const app = await startTestApp({ env: { SQLITE_SYNCHRONOUS: 'NORMAL', RATE_LIMIT: '0' } });
  const started = Date.now();
  await inParallel(SEED, 32, (i) =>
    app.request('POST', '/v1/agents', { name: `agent-${String(i).padStart(5, '0')}`, model: 'ollama/m' }),
  );
  await inParallel(SEED, 32, (i) =>
    app.request('POST', '/v1/workflows', {
      name: `workflow-${String(i).padStart(5, '0')}`,
      trigger: i % 2 ? { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' } : { type: 'manual' },
      steps: [{ agent: 'agent-00000', action: 'go' }],
    }),
  );
  const seedSeconds = (Date.now() - started) / 1000;
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let transferred = 0;
  const bodies: Record<string, number> = {};
  cdp.on('Network.loadingFinished', (event) => (transferred += event.encodedDataLength));
  cdp.on('Network.responseReceived', (event) => (bodies[event.requestId] = 0));

  const report: Record<string, unknown> = {
    seeded: `${SEED} agents + ${SEED} workflows in ${seedSeconds.toFixed(0)} s`,
  };
  await page.goto(`${app.url}/#/agents`);
  await page.locator('tbody tr').first().waitFor();
  report.agentsFirstRowMs = Math.round(await page.evaluate('performance.now()'));
  await page.waitForLoadState('load');
  report.firstLoadTransferredBytes = transferred;
  // The page's own files (not the API's answers): path, bytes on the wire (compressed) and decoded.
  const files = await page.evaluate(`performance
    .getEntriesByType('resource')
    .concat(performance.getEntriesByType('navigation'))
    .filter((e) => !e.name.includes('/v1/'))
    .map((e) => [new URL(e.name).pathname, e.encodedBodySize, e.decodedBodySize])`);
  report.pageFiles = files;

  const loadMore = async () => {
    const before = await page.locator('tbody tr').count();
    const t = Date.now();
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.locator(`tbody tr:nth-child(${before + 1})`).waitFor();
    return Date.now() - t;
  };
  report.agentsLoadMoreMs = [await loadMore(), await loadMore(), await loadMore()];
  let t = Date.now();
  await page.getByLabel('Filter by name').fill('agent-0999');
  await page.getByRole('link', { name: 'agent-09999' }).waitFor();
  report.agentsFilterMs = Date.now() - t;

  const fresh = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await fresh.goto(`${app.url}/#/workflows`);
  await fresh.locator('tbody tr').first().waitFor();
  report.workflowsFirstRowMs = Math.round(await fresh.evaluate('performance.now()'));
  t = Date.now();
  await fresh.getByRole('button', { name: 'Load more' }).click();
  await fresh.locator('tbody tr:nth-child(51)').waitFor();
  report.workflowsLoadMoreMs = Date.now() - t;
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  await browser.close();
  await app.close();
});
