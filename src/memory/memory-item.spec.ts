import { given } from '../../test/support/decider-specification';
import { MemoryItemEvent, memoryItemDecider } from './memory-item';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute));
const put = (version: number, minute: number, extra: object = {}): MemoryItemEvent => ({
  type: 'MemoryItemPut',
  data: {
    namespace: 'users/ada',
    key: 'diet',
    value: 'tea',
    version,
    expiresAt: null,
    putAt: at(minute).toISOString(),
    ...extra,
  },
});
const putting = { type: 'PutMemoryItem' as const, namespace: 'users/ada', key: 'diet', value: 'tea' };

describe('memory item decider', () => {
  it('puts a version, one more each time, with its time to live', () => {
    given(memoryItemDecider, [])
      .when(putting, at(0))
      .then([put(1, 0)]);
    given(memoryItemDecider, [put(1, 0)])
      .when({ ...putting, ttlSeconds: 60 }, at(1))
      .then([put(2, 1, { ttlSeconds: 60, expiresAt: at(2).toISOString() })]);
    given(memoryItemDecider, [put(1, 0), put(2, 5)]).thenState(
      expect.objectContaining({ version: 2, createdAt: at(0).toISOString(), updatedAt: at(5).toISOString() }),
    );
  });

  it('deletes an item that is there, and refuses one that is not (or has expired)', () => {
    const removed = (version: number, reason: 'deleted' | 'expired', minute: number): MemoryItemEvent => ({
      type: 'MemoryItemRemoved',
      data: { namespace: 'users/ada', key: 'diet', version, reason, removedAt: at(minute).toISOString() },
    });
    given(memoryItemDecider, [put(1, 0)])
      .when({ type: 'DeleteMemoryItem' }, at(1))
      .then([removed(2, 'deleted', 1)]);
    given(memoryItemDecider, []).when({ type: 'DeleteMemoryItem' }, at(1)).thenRefuses('not_found');
    given(memoryItemDecider, [put(1, 0), removed(2, 'deleted', 1)])
      .when({ type: 'DeleteMemoryItem' }, at(2))
      .thenRefuses('not_found');
    const expiring = put(1, 0, { ttlSeconds: 60, expiresAt: at(1).toISOString() });
    given(memoryItemDecider, [expiring]).when({ type: 'DeleteMemoryItem' }, at(1)).thenRefuses('not_found');
    // Its expiry is recorded once it has come, for the version that had it only.
    given(memoryItemDecider, [expiring]).when({ type: 'ExpireMemoryItem', version: 1 }, at(0)).then([]);
    given(memoryItemDecider, [expiring])
      .when({ type: 'ExpireMemoryItem', version: 1 }, at(1))
      .then([removed(2, 'expired', 1)]);
    given(memoryItemDecider, [expiring, put(2, 0)])
      .when({ type: 'ExpireMemoryItem', version: 1 }, at(1))
      .then([]);
    given(memoryItemDecider, [expiring, removed(2, 'expired', 1)])
      .when({ type: 'ExpireMemoryItem', version: 1 }, at(2))
      .then([]);
    // A put after a removal starts it again, at the next version.
    given(memoryItemDecider, [put(1, 0), removed(2, 'deleted', 1)])
      .when(putting, at(3))
      .then([put(3, 3)]);
    given(memoryItemDecider, [put(1, 0), removed(2, 'deleted', 1), put(3, 3)]).thenState(
      expect.objectContaining({ createdAt: at(3).toISOString(), removed: false }),
    );
  });
});
