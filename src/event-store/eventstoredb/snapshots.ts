import { EventData, JSONType, ResolvedEvent, jsonEvent } from '@eventstore/db-client';
import { StreamSnapshot } from '../event-store';

/**
 * How a stream's snapshot is kept on EventStoreDB: as the one event (`$maxCount` 1) of a companion stream,
 * `snapshot-<stream>`. Its category (`snapshot`) keeps it out of the resources' `$ce-` streams, and its `$`-type
 * keeps it out of the global log as the adapters hand it out (system events are always excluded).
 */
export const SNAPSHOT_EVENT_TYPE = '$snapshot';

export function snapshotStream(stream: string): string {
  return `snapshot-${stream}`;
}

export function toSnapshotEvent(snapshot: StreamSnapshot): EventData {
  const data = {
    revision: snapshot.revision.toString(),
    schemaVersion: snapshot.schemaVersion,
    state: snapshot.state,
  } as JSONType;
  return jsonEvent({ type: SNAPSHOT_EVENT_TYPE, data });
}

/** Throws if the event is not a snapshot as `toSnapshotEvent` writes it. */
export function fromSnapshotEvent(resolved: ResolvedEvent): StreamSnapshot {
  const event = resolved.event;
  const data = event?.data as { revision?: unknown; schemaVersion?: unknown; state?: unknown } | undefined;
  if (
    event?.type !== SNAPSHOT_EVENT_TYPE ||
    typeof data?.revision !== 'string' ||
    !/^\d+$/.test(data.revision) ||
    typeof data.schemaVersion !== 'number' ||
    !('state' in data)
  ) {
    throw new Error(`${event?.streamId ?? 'A snapshot stream'} holds no readable snapshot`);
  }
  return { revision: BigInt(data.revision), schemaVersion: data.schemaVersion, state: data.state };
}
