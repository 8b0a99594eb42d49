import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '../../event-store/event-store';
import type { ProjectionRunner } from '../../read-models/projection-runner';
import { openReadDatabase } from '../../read-models/read-database';
import { ExperimentsProjection } from './experiments.projection';
import { ExperimentsReadModel } from './experiments.read-model';

/** Experiments recorded before overrides, model calls and recorded tool results show each with its default. */
describe('experiments projection, on events recorded before trials', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'experiments-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const event = (type: string, data: Record<string, unknown>) => ({ type, data }) as unknown as RecordedEvent;

  it('shows no overrides, no model calls counted and no recorded counts', () => {
    const db = openReadDatabase(join(folder, 'read-models.sqlite'));
    const readModel = new ExperimentsReadModel(db);
    const projection = new ExperimentsProjection(readModel, {
      register: () => undefined,
    } as unknown as ProjectionRunner);
    const at = '2026-12-01T00:00:00.000Z';
    projection.apply(
      event('ExperimentCreated', {
        id: 'experiment_1',
        dataset: { id: 'dataset_1', name: 'capitals', version: 2, itemCount: 1 },
        target: { agentId: 'agent_1', agent: 'geographer', agentVersion: 3 },
        scorers: [{ id: 'scorer_1', name: 'names the capital' }],
        concurrency: 5,
        mode: 'live',
        thresholds: {},
        createdAt: at,
      }),
    );
    expect(readModel.get('experiment_1')?.target).toEqual({
      agentId: 'agent_1',
      agent: 'geographer',
      agentVersion: 3,
      overrides: null,
    });
    const summary = {
      scorers: [{ scorer: 'names the capital', mean: 1, threshold: null, passed: null }],
      passed: null,
      items: { total: 1, succeeded: 1, failed: 0 },
      usage: { inputTokens: 3, outputTokens: 5 },
      durationMs: { p50: 10, p95: 10 },
    };
    projection.apply(event('ExperimentCompleted', { experimentId: 'experiment_1', summary, completedAt: at }));
    expect(readModel.get('experiment_1')?.summary).toEqual({ ...summary, modelCalls: 0, recorded: null });
    db.close();
  });
});
