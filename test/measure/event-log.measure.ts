/**
 * Measures the console's event log against a large log (not part of `npm test`; run `npm run measure:console`):
 * writes EVENT_LOG_SEED (default 1,000,000) events straight into a new SQLite log, starts the service on it, then in
 * Chromium reports the time to the first rendered rows of the event log (newest first), and how long "Load older"
 * and a type filter take. Goal (issue 18): first rows in under 1 s at 1,000,000 events.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { launchBrowser } from '../support/browser';
import { startTestApp, temporaryDataDir } from '../support/test-app';

const SEED = Number(process.env.EVENT_LOG_SEED ?? 1_000_000);
jest.setTimeout(60 * 60_000);

/** `count` events in one transaction: streams and types of a realistic spread that no projection reads. */
function fill(file: string, count: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const types = ['MeasureStarted', 'MeasureStepped', 'MeasureEnded'];
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      insert.run(
        `measure-${i}`,
        `measure-${Math.floor(i / 3)}`,
        i % 3,
        types[i % 3],
        JSON.stringify({ n: i, note: 'an event of the measurement log' }),
        '{"schemaVersion":1}',
        now - (count - i),
      );
    }
  })();
  db.close();
}

it(`opens the event log of ${SEED} events on its newest rows quickly`, async () => {
  const dataDir = temporaryDataDir();
  const file = join(dataDir, 'events.sqlite');
  await new SqliteEventStore({ file }).close();
  const started = Date.now();
  fill(file, SEED);
  const report: Record<string, unknown> = {
    seeded: `${SEED} events in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  };
  const app = await startTestApp({ dataDir, env: { RATE_LIMIT: '0', RUN_EXECUTOR_ENABLED: 'false' } });
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${app.url}/#/events`);
  await page.locator('tbody tr').first().waitFor();
  report.eventLogFirstRowMs = Math.round(await page.evaluate('performance.now()'));
  report.firstRow = await page.locator('tbody tr').first().textContent();
  let t = Date.now();
  await page.getByRole('button', { name: 'Load older' }).click();
  await page.locator('tbody tr:nth-child(101)').waitFor();
  report.loadOlderMs = Date.now() - t;
  t = Date.now();
  await page.getByLabel('Types (comma-separated)').fill('MeasureEnded');
  await page.waitForFunction(() => {
    const cells = Array.from(document.querySelectorAll('tbody tr td:nth-child(2)'), (cell) => cell.textContent);
    return cells.length > 0 && cells.every((type) => type === 'MeasureEnded');
  });
  report.typeFilterMs = Date.now() - t - 400; // less the input's 400 ms debounce
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  await browser.close();
  await app.close();
});
