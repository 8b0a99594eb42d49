/**
 * Where each consumer of the log remembers how far it has handled it: the position of the last event it is done
 * with, under the consumer's name. Synchronous, so that a consumer whose writes live beside it (the projections)
 * commits its checkpoint in the same transaction as its rows.
 */
export interface CheckpointStore {
  /** 0 when the consumer has none yet: it starts from the beginning of the log. */
  load(name: string): bigint;
  save(name: string, position: bigint): void;
}

export const CHECKPOINT_STORE = Symbol('CheckpointStore');
