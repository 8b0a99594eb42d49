import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';

/** What a dataset's items are run against: an agent (each input a task) or a workflow (each input a trigger's). */
export const DATASET_TARGETS = ['agent', 'workflow'] as const;
export type DatasetTarget = (typeof DATASET_TARGETS)[number];

/** How many items a dataset holds at most. */
export const MAX_DATASET_ITEMS = 10_000;

/** A named set of inputs, each with the answer expected, to run an agent or a workflow on (see docs/api.md). */
export interface Dataset {
  id: string;
  name: string;
  description: string;
  target: DatasetTarget;
  status: 'active' | 'archived';
  /** 1 when created; each item added or removed makes the next version. */
  version: number;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

/** The dataset and the ids of the items it holds now (what its commands are decided on). */
export interface DatasetAggregate extends Dataset {
  itemIds: Record<string, true>;
}

export type DatasetState = DatasetAggregate | null;

/** One item as it is added: the input, the answer expected (null: none), notes, and the run it was made from. */
export interface DatasetItemData {
  input: unknown;
  expected: unknown;
  metadata: Record<string, unknown>;
  /** The run whose input (and output, unless `expected` was given) it holds: its tool results can be replayed. */
  sourceRunId: string | null;
}

export type CreateDataset = {
  type: 'CreateDataset';
  id: string;
  name: string;
  description: string;
  target: DatasetTarget;
};
export type AddDatasetItem = { type: 'AddDatasetItem'; datasetId: string; itemId: string; item: DatasetItemData };
export type RemoveDatasetItem = { type: 'RemoveDatasetItem'; datasetId: string; itemId: string };
export type ArchiveDataset = { type: 'ArchiveDataset'; datasetId: string };
export type DatasetCommand = CreateDataset | AddDatasetItem | RemoveDatasetItem | ArchiveDataset;

export type DatasetCreated = DomainEvent<
  'DatasetCreated',
  { id: string; name: string; description: string; target: DatasetTarget; createdAt: string }
>;
export type DatasetItemAdded = DomainEvent<
  'DatasetItemAdded',
  DatasetItemData & { datasetId: string; itemId: string; version: number; addedAt: string }
>;
export type DatasetItemRemoved = DomainEvent<
  'DatasetItemRemoved',
  { datasetId: string; itemId: string; version: number; removedAt: string }
>;
export type DatasetArchived = DomainEvent<
  'DatasetArchived',
  { datasetId: string; version: number; archivedAt: string }
>;
export type DatasetEvent = DatasetCreated | DatasetItemAdded | DatasetItemRemoved | DatasetArchived;

export const DATASET_EVENT_TYPES = eventTypes<DatasetEvent>({
  DatasetCreated: true,
  DatasetItemAdded: true,
  DatasetItemRemoved: true,
  DatasetArchived: true,
});

export const datasetStream = (datasetId: string) => `dataset-${datasetId}`;

export const datasetDecider: Decider<DatasetState, DatasetCommand, DatasetEvent> = {
  initialState: null,

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'CreateDataset') {
      if (state) throw new DomainError('conflict', `Dataset ${command.id} already exists`);
      const { id, name, description, target } = command;
      return [{ type: 'DatasetCreated', data: { id, name, description, target, createdAt: at } }];
    }
    if (!state) throw new DomainError('not_found', `Dataset ${command.datasetId} does not exist`);
    const datasetId = state.id;
    switch (command.type) {
      case 'AddDatasetItem': {
        if (state.status === 'archived') {
          throw new DomainError('conflict', `Dataset ${datasetId} is archived: it takes no more items`);
        }
        if (state.itemIds[command.itemId]) return [];
        if (state.itemCount >= MAX_DATASET_ITEMS) {
          const message = `Dataset ${datasetId} holds ${MAX_DATASET_ITEMS} items, the most a dataset may hold`;
          throw new DomainError('unprocessable', message, [{ path: 'body', message }]);
        }
        const data = { datasetId, itemId: command.itemId, ...command.item, version: state.version + 1, addedAt: at };
        return [{ type: 'DatasetItemAdded', data }];
      }
      case 'RemoveDatasetItem': {
        if (!state.itemIds[command.itemId]) {
          throw new DomainError('not_found', `Dataset ${datasetId} has no item ${command.itemId}`);
        }
        if (state.status === 'archived') {
          throw new DomainError('conflict', `Dataset ${datasetId} is archived: its items stay as they are`);
        }
        const data = { datasetId, itemId: command.itemId, version: state.version + 1, removedAt: at };
        return [{ type: 'DatasetItemRemoved', data }];
      }
      case 'ArchiveDataset':
        if (state.status === 'archived') return [];
        return [{ type: 'DatasetArchived', data: { datasetId, version: state.version, archivedAt: at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DatasetCreated': {
        const { createdAt, ...created } = event.data;
        const base = { ...created, status: 'active' as const, version: 1, itemCount: 0, itemIds: {} };
        return { ...base, createdAt, updatedAt: createdAt, archivedAt: null };
      }
      case 'DatasetItemAdded': {
        if (!state) return state;
        const { itemId, version, addedAt } = event.data;
        const itemIds = { ...state.itemIds, [itemId]: true as const };
        return { ...state, itemIds, itemCount: state.itemCount + 1, version, updatedAt: addedAt };
      }
      case 'DatasetItemRemoved': {
        if (!state) return state;
        const { itemId, version, removedAt } = event.data;
        const { [itemId]: _removed, ...itemIds } = state.itemIds;
        return { ...state, itemIds, itemCount: state.itemCount - 1, version, updatedAt: removedAt };
      }
      case 'DatasetArchived':
        if (!state) return state;
        return { ...state, status: 'archived', archivedAt: event.data.archivedAt, updatedAt: event.data.archivedAt };
      default:
        return state;
    }
  },
};

/** The dataset as the API shows it. */
export function toDataset({ itemIds: _ids, ...dataset }: DatasetAggregate): Dataset {
  return dataset;
}
