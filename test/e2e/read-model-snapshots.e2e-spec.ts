import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { READ_DATABASE } from '../../src/read-models/read-database';
import { READ_MODEL_SCHEMA, schemaFingerprint } from '../../src/read-models/snapshots/read-model-schema';
import { ReadModelSnapshots } from '../../src/read-models/snapshots/read-model-snapshots';
import { eventually } from '../support/eventually';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

const messages = (spy: jest.SpyInstance) => spy.mock.calls.map(([message]) => String(message));
const descriptions = (folder: string) =>
  readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort();

/** Removes every snapshot in the folder but the one described by `kept`. */
const keepOnly = (folder: string, kept: string) => {
  for (const name of descriptions(folder).filter((other) => other !== kept)) {
    rmSync(join(folder, name));
    rmSync(join(folder, name.replace(/\.json$/, '.sqlite')));
  }
};

describe.each(storeFixtures())('read-model snapshots (%s)', (_name, createFixture) => {
  let fixture: StoreFixture;
  let folder: string;
  const apps: TestApp[] = [];
  const start = async (dataDir?: string, every = '20') => {
    const app = await startTestApp({
      fixture,
      dataDir,
      env: { READ_MODEL_SNAPSHOT_DIR: folder, READ_MODEL_SNAPSHOT_EVERY: every },
    });
    apps.push(app);
    return app;
  };
  const createAgents = async (app: TestApp, names: string[]) => {
    for (const name of names) {
      expect((await app.request('POST', '/v1/agents', { name, model: 'ollama/llama3.2' })).status).toBe(201);
    }
  };
  const agentNames = async (app: TestApp) =>
    (await app.request('GET', '/v1/agents?limit=100')).body.agents.map((agent: { name: string }) => agent.name).sort();
  /** A new instance: on SQLite the same data folder without its read models (the log is in it); else a new one. */
  const newInstanceFolder = (first: TestApp) => {
    if (fixture.name !== 'sqlite') return temporaryDataDir();
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(first.dataDir, `read-models.sqlite${suffix}`), { force: true });
    return first.dataDir;
  };

  beforeEach(async () => {
    fixture = await createFixture();
    folder = temporaryDataDir();
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await fixture.stop();
  });

  it('has the schema READ_MODEL_SCHEMA names (change that constant with the read models)', async () => {
    const app = await start();
    const fingerprint = schemaFingerprint(app.app.get<Database.Database>(READ_DATABASE));
    expect(`READ_MODEL_SCHEMA = '${fingerprint}'`).toBe(`READ_MODEL_SCHEMA = '${READ_MODEL_SCHEMA}'`);
  });

  it('lets a new instance start from the newest snapshot and catch up from its checkpoint', async () => {
    const first = await start();
    await createAgents(first, ['a01', 'a02', 'a03', 'a04', 'a05', 'a06', 'a07', 'a08', 'a09', 'a10', 'a11', 'a12']);
    await eventually(async () => expect(descriptions(folder).length).toBeGreaterThan(0), 5000);
    await first.app.get(ReadModelSnapshots).inProgress;
    const [periodic] = descriptions(folder);
    await createAgents(first, ['b1', 'b2']);
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    // At shutdown it wrote one more; the one kept is the periodic one, behind the last two agents.
    expect(descriptions(folder).filter((name) => name !== periodic)).toHaveLength(1);
    keepOnly(folder, periodic);
    const position = JSON.parse(readFileSync(join(folder, periodic), 'utf8')).position as string;

    const logs = jest.spyOn(Logger.prototype, 'log');
    try {
      const second = await start(newInstanceFolder(first));
      const said = messages(logs);
      expect(said).toContainEqual(
        expect.stringContaining(
          `restored from snapshot ${periodic.replace('.json', '.sqlite')} (position ${position} of`,
        ),
      );
      expect(said.find((message) => message.startsWith('Read models caught up'))).toBeDefined();
      expect(await agentNames(second)).toEqual([
        'a01',
        'a02',
        'a03',
        'a04',
        'a05',
        'a06',
        'a07',
        'a08',
        'a09',
        'a10',
        'a11',
        'a12',
        'b1',
        'b2',
      ]);
      // It goes on from there: a write on it shows at once.
      await createAgents(second, ['c1']);
      expect(await agentNames(second)).toContain('c1');
    } finally {
      logs.mockRestore();
    }
  });

  it('passes over a snapshot of another schema or another store, saying why, and builds from the log', async () => {
    const first = await start();
    await createAgents(first, ['only']);
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    const [written] = descriptions(folder);
    const description = join(folder, written);
    const meta = JSON.parse(readFileSync(description, 'utf8'));
    writeFileSync(description, JSON.stringify({ ...meta, schema: 'an-older-one' }));

    const warnings = jest.spyOn(Logger.prototype, 'warn');
    try {
      const second = await start(newInstanceFolder(first));
      expect(messages(warnings)).toContainEqual(
        `Read-model snapshot ${written} passed over: its schema (an-older-one) is not this version's (${READ_MODEL_SCHEMA})`,
      );
      expect(await agentNames(second)).toEqual(['only']);
      await second.close();
      apps.splice(apps.indexOf(second), 1);
      keepOnly(folder, written);

      writeFileSync(description, JSON.stringify({ ...meta, store: 'another-store' }));
      const third = await start(newInstanceFolder(second));
      expect(messages(warnings)).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^Read-model snapshot ${written} passed over: it was built from another store \\(first event another-store, not .+\\)$`,
          ),
        ),
      );
      expect(await agentNames(third)).toEqual(['only']);
    } finally {
      warnings.mockRestore();
    }
  });

  it('leaves no snapshot from before a subject was forgotten', async () => {
    // Snapshots only at shutdown and on forgetting, so that none but those two can take the older one's place.
    const env = { READ_MODEL_SNAPSHOT_DIR: folder, READ_MODEL_SNAPSHOT_EVERY: '0', DATA_KEY_SECRET: 'a'.repeat(40) };
    const first = await startTestApp({ fixture, env });
    expect((await first.request('PUT', '/v1/subjects/ada/namespaces', { namespaces: ['users/ada'] })).status).toBe(200);
    expect((await first.request('PUT', '/v1/memory/users%2Fada/diet', { value: 'Ada eats no meat' })).status).toBe(200);
    await first.close();
    const holdsAda = (name: string) =>
      readFileSync(join(folder, name.replace(/\.json$/, '.sqlite'))).includes('Ada eats no meat');
    expect(descriptions(folder).filter(holdsAda)).toHaveLength(1);

    // The same data folder, with the subject keys in it.
    const second = await startTestApp({ fixture, env, dataDir: first.dataDir });
    apps.push(second);
    expect((await second.request('DELETE', '/v1/subjects/ada')).status).toBe(200);
    await eventually(async () => {
      await second.app.get(ReadModelSnapshots).inProgress;
      expect(descriptions(folder)).toHaveLength(1);
    }, 5000);
    expect(descriptions(folder).filter(holdsAda)).toEqual([]);
  });

  it('restores none into a new data folder on EventStoreDB with DATA_KEY_SECRET, whose subject keys it lacks', async () => {
    const env = { READ_MODEL_SNAPSHOT_DIR: folder, DATA_KEY_SECRET: 'a'.repeat(40) };
    const first = await startTestApp({ fixture, env });
    await createAgents(first, ['only']);
    await first.close();
    expect(descriptions(folder)).toHaveLength(1);
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const logs = jest.spyOn(Logger.prototype, 'log');
    try {
      const second = await startTestApp({ fixture, env, dataDir: newInstanceFolder(first) });
      apps.push(second);
      const restored = messages(logs).some((message) => message.startsWith('Read models restored from snapshot'));
      const refused = messages(warnings).some((message) => message.startsWith('Read-model snapshots are not restored'));
      // On SQLite the keys are in the data folder, beside the log: the snapshot is restored.
      expect({ restored, refused }).toEqual(
        fixture.name === 'sqlite' ? { restored: true, refused: false } : { restored: false, refused: true },
      );
      expect(await agentNames(second)).toEqual(['only']);
    } finally {
      warnings.mockRestore();
      logs.mockRestore();
    }
  });
});
