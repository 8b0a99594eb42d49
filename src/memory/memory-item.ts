import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';

/**
 * One remembered item: a JSON value under a key in a namespace (`users/ada`), with its versions kept in its own
 * stream. Each put is a new version; a delete, or the end of its time to live, removes it (and is recorded too),
 * and a later put starts it again at the next version.
 */
export interface MemoryItem {
  namespace: string;
  key: string;
  value: unknown;
  /** 1 for the first put, one more for each put or removal since. */
  version: number;
  /** The first put since it last was removed. */
  createdAt: string;
  updatedAt: string;
  /** When it expires (its `ttlSeconds` after the put); null: never. */
  expiresAt: string | null;
  /** The run that wrote it, when a run did. */
  runId: string | null;
  /** Removed (deleted or expired): gone from reads until put again. */
  removed: boolean;
}

export type MemoryItemState = MemoryItem | null;

export type PutMemoryItem = {
  type: 'PutMemoryItem';
  namespace: string;
  key: string;
  value: unknown;
  ttlSeconds?: number;
  runId?: string;
};
export type DeleteMemoryItem = { type: 'DeleteMemoryItem' };
/** Records the end of an item's time to live, if it has come and the item is still the version that had it. */
export type ExpireMemoryItem = { type: 'ExpireMemoryItem'; version: number };
export type MemoryItemCommand = PutMemoryItem | DeleteMemoryItem | ExpireMemoryItem;

export type MemoryItemPut = DomainEvent<
  'MemoryItemPut',
  {
    namespace: string;
    key: string;
    value: unknown;
    version: number;
    ttlSeconds?: number;
    expiresAt: string | null;
    runId?: string;
    putAt: string;
  }
>;
export type MemoryItemRemoved = DomainEvent<
  'MemoryItemRemoved',
  { namespace: string; key: string; version: number; reason: 'deleted' | 'expired'; removedAt: string }
>;
export type MemoryItemEvent = MemoryItemPut | MemoryItemRemoved;

export const MEMORY_EVENT_TYPES = eventTypes<MemoryItemEvent>({ MemoryItemPut: true, MemoryItemRemoved: true });

/** An item's stream: the namespace and the key, which cannot hold a `/` (so the name is never ambiguous). */
export const memoryStream = (namespace: string, key: string) => `memory-${namespace}/${key}`;

export const memoryItemDecider: Decider<MemoryItemState, MemoryItemCommand, MemoryItemEvent> = {
  initialState: null,
  cacheActors: false,

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'PutMemoryItem') {
      const { namespace, key, value, ttlSeconds, runId } = command;
      const expiresAt = ttlSeconds === undefined ? null : new Date(now.getTime() + ttlSeconds * 1000).toISOString();
      const data = {
        namespace,
        key,
        value,
        version: (state?.version ?? 0) + 1,
        ...(ttlSeconds !== undefined && { ttlSeconds }),
        expiresAt,
        ...(runId && { runId }),
        putAt: at,
      };
      return [{ type: 'MemoryItemPut', data }];
    }
    if (!state || state.removed || (command.type === 'DeleteMemoryItem' && isExpired(state, now))) {
      if (command.type === 'ExpireMemoryItem') return [];
      throw new DomainError('not_found', 'The memory item does not exist');
    }
    const { namespace, key } = state;
    const version = state.version + 1;
    if (command.type === 'DeleteMemoryItem') {
      return [{ type: 'MemoryItemRemoved', data: { namespace, key, version, reason: 'deleted', removedAt: at } }];
    }
    if (command.version !== state.version || !isExpired(state, now)) return [];
    return [{ type: 'MemoryItemRemoved', data: { namespace, key, version, reason: 'expired', removedAt: at } }];
  },

  evolve(state, event) {
    if (event.type === 'MemoryItemPut') {
      const { namespace, key, value, version, expiresAt, runId, putAt } = event.data;
      const createdAt = state && !state.removed ? state.createdAt : putAt;
      return {
        namespace,
        key,
        value,
        version,
        createdAt,
        updatedAt: putAt,
        expiresAt,
        runId: runId ?? null,
        removed: false,
      };
    }
    return state && { ...state, version: event.data.version, updatedAt: event.data.removedAt, removed: true };
  },
};

/** Its time to live has ended (it may not be recorded yet: reads treat it as gone from that instant). */
export function isExpired(item: Pick<MemoryItem, 'expiresAt'>, now: Date): boolean {
  return item.expiresAt !== null && Date.parse(item.expiresAt) <= now.getTime();
}
