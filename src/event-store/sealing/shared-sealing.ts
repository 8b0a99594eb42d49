import { RecordedEvent } from '../event-store';
import { KeyStreams } from './key-streams';
import { SEALED_FIELDS } from './sealed-fields';
import { isSealed, keyIdOf, open, replaceAt } from './sealed-values';
import { SubjectKeys } from './subject-keys';

/** An event as far as opening it goes: from a stream, or parsed from a page of the log's JSON. */
type Opened = Pick<RecordedEvent, 'id' | 'type' | 'data'>;

/** At most this many layers of keys are looked for (a kept answer about several subjects has one per subject). */
const MAX_ROUNDS = 8;

/**
 * What the sealing store does when the keys are shared through the store (several instances on one EventStoreDB):
 * before events are opened, the keys that sealed them and are not here yet are fetched from the store. A kept
 * answer sealed under several keys shows its next key only once the one outside it is opened, hence the rounds.
 */
export async function loadKeysFor(events: Opened[], keys: SubjectKeys, shared: KeyStreams): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!(await shared.load(wantedKeys(events, keys)))) return;
  }
}

/** The ids of the keys these events' sealed values need and this instance has not got. */
function wantedKeys(events: Opened[], keys: SubjectKeys): string[] {
  const wanted: string[] = [];
  for (const event of events) {
    const paths = SEALED_FIELDS[event.type];
    if (!paths) continue;
    const layered = event.type === 'IdempotentRequestCompleted';
    replaceAt(event.data, paths, (value, place) => {
      for (let inner = value; isSealed(inner);) {
        const keyId = keyIdOf(inner);
        const key = keys.key(keyId);
        if (!key) {
          wanted.push(keyId);
          break;
        }
        if (!layered) break;
        inner = open(inner, key, `${event.id} ${place}`);
      }
      return value;
    });
  }
  return wanted;
}

/**
 * What an instance learns from the events it reads or is handed: which streams are about which subject (the
 * subject is in each event's metadata) and, from the log, the namespaces bound to a subject, and a subject
 * forgotten (by another instance, say), whose keys it drops at once.
 */
export function learnFrom(events: RecordedEvent[], keys: SubjectKeys, fromLog: boolean): void {
  const bindings = new Map<string, string>();
  for (const event of events) {
    if (typeof event.metadata.subject === 'string') bindings.set(event.stream, event.metadata.subject);
  }
  keys.bindStreams(bindings);
  if (!fromLog) return;
  for (const event of events) {
    const { subjectId, namespaces } = event.data as { subjectId?: string; namespaces?: string[] };
    if (typeof subjectId !== 'string') continue;
    if (event.type === 'SubjectNamespacesSet' && Array.isArray(namespaces)) keys.setNamespaces(subjectId, namespaces);
    if (event.type === 'SubjectForgotten') keys.destroyKeys(subjectId);
  }
}
