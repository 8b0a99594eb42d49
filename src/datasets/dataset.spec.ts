import { given } from '../../test/support/decider-specification';
import { DatasetCreated, DatasetEvent, MAX_DATASET_ITEMS, datasetDecider } from './dataset';

const at = '2026-01-01T00:00:00.000Z';
const created: DatasetCreated = {
  type: 'DatasetCreated',
  data: { id: 'dataset_1', name: 'set', description: '', target: 'agent', createdAt: at },
};
const item = { input: { task: 'Go', context: {} }, expected: null, metadata: {}, sourceRunId: null };
const added = (n: number): DatasetEvent => ({
  type: 'DatasetItemAdded',
  data: { datasetId: 'dataset_1', itemId: `dsitem_${n}`, ...item, version: n + 1, addedAt: at },
});
const add = (n: number) => ({ type: 'AddDatasetItem', datasetId: 'dataset_1', itemId: `dsitem_${n}`, item }) as const;

describe('dataset decider', () => {
  it('adds an item once, as the next version', () => {
    given(datasetDecider, [created])
      .when(add(1), new Date(at))
      .then([added(1)]);
    // The same item again (a request tried twice) is recorded once.
    given(datasetDecider, [created, added(1)])
      .when(add(1))
      .then([]);
  });

  it(`holds at most ${MAX_DATASET_ITEMS} items`, () => {
    const full = Array.from({ length: MAX_DATASET_ITEMS }, (_, i) => added(i + 1));
    expect(() =>
      datasetDecider.decide([created, ...full].reduce(datasetDecider.evolve, null), add(0), new Date(at)),
    ).toThrow(`holds ${MAX_DATASET_ITEMS} items`);
    const removed: DatasetEvent = {
      type: 'DatasetItemRemoved',
      data: { datasetId: 'dataset_1', itemId: 'dsitem_1', version: MAX_DATASET_ITEMS + 2, removedAt: at },
    };
    const room = [created, ...full, removed].reduce(datasetDecider.evolve, null);
    expect(datasetDecider.decide(room, add(0), new Date(at))[0].data).toMatchObject({ version: MAX_DATASET_ITEMS + 3 });
  });
});
