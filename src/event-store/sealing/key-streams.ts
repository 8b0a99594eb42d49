import { randomUUID } from 'node:crypto';
import { EventStore } from '../event-store';
import { SUBJECT_ID } from './sealed-fields';
import { SubjectKeys } from './subject-keys';

/** The event that holds one data key of a subject's, wrapped under DATA_KEY_SECRET. */
export const DATA_KEY_MADE = 'SubjectDataKeyMade';

/** How many key ids found gone are remembered, so that reading forgotten content does not ask the store each time. */
const KNOWN_ABSENT = 100_000;

/** The stream of a subject's data keys: deleted when the subject is forgotten. */
export const keyStream = (subject: string) => `subjectkeys-${subject}`;

/**
 * The subjects' data keys shared through EventStoreDB, for several instances on one store. Each key is an event
 * on its subject's key stream (the wrapped key in `encryptedSecret`, which the log never serves); each instance
 * keeps the keys it has used in its own `subject-keys.sqlite`, as a cache. A key is appended before anything is
 * sealed under it, so whatever an instance reads, the key that opens it is in the store until the subject is
 * forgotten. Forgetting deletes the key stream, then each instance drops its copies when it sees
 * `SubjectForgotten` (see the sealing store's subscriptions). A key's id names its subject (base64url, then `~`
 * and a UUID), so that any instance can tell which stream to read it from.
 */
export class KeyStreams {
  private readonly absent = new Set<string>();
  /** Reads of a subject's key stream under way, shared by those who need them at once. */
  private readonly reads = new Map<string, Promise<boolean>>();
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    private readonly store: EventStore,
    private readonly keys: SubjectKeys,
  ) {}

  /** Each subject given has a current key, here and in the store: read from the store, or made and appended. */
  async ready(subjects: Iterable<string>): Promise<void> {
    const wanted = [...new Set(subjects)].filter((subject) => !this.keys.hasCurrent(subject));
    await Promise.all(wanted.map((subject) => this.once(this.making, subject, () => this.adoptOrMake(subject))));
  }

  /**
   * Fetches from the store the keys of these ids that are not here; true when one was found. A key found gone (its
   * subject forgotten) is remembered as such.
   */
  async load(keyIds: Iterable<string>): Promise<boolean> {
    const missing = [...new Set(keyIds)].filter((keyId) => !this.absent.has(keyId) && !this.keys.has(keyId));
    if (missing.length === 0) return false;
    const subjects = new Set(missing.map(subjectOfKey).filter((subject): subject is string => subject !== undefined));
    await Promise.all([...subjects].map((subject) => this.adoptAll(subject)));
    if (this.absent.size >= KNOWN_ABSENT) this.absent.clear();
    let found = false;
    for (const keyId of missing) {
      if (this.keys.has(keyId)) found = true;
      else this.absent.add(keyId);
    }
    return found;
  }

  /** Deletes the subject's key stream, then its keys here: the other instances drop theirs on `SubjectForgotten`. */
  async destroy(subject: string): Promise<void> {
    await this.store.deleteStream!(keyStream(subject));
    this.keys.destroyKeys(subject);
  }

  private async adoptOrMake(subject: string): Promise<void> {
    if ((await this.adoptAll(subject)) && this.keys.hasCurrent(subject)) return;
    const made = this.keys.makeKey(`${Buffer.from(subject).toString('base64url')}~${randomUUID()}`);
    // Two instances making a first key at once each append one: both are the subject's, and both go with it.
    const data = { subjectId: subject, keyId: made.keyId, encryptedSecret: made.wrapped.toString('base64') };
    const event = { id: randomUUID(), type: DATA_KEY_MADE, data, metadata: { schemaVersion: 1 } };
    await this.store.append(keyStream(subject), [event], { expected: 'any' });
    this.keys.adopt(made.keyId, subject, made.wrapped);
  }

  /** Reads the subject's keys from the store into the file; false when it has none. */
  private adoptAll(subject: string): Promise<boolean> {
    return this.once(this.reads, subject, async () => {
      const { events } = await this.store.readStream(keyStream(subject));
      for (const { type, data } of events) {
        if (type !== DATA_KEY_MADE) continue;
        const { keyId, encryptedSecret } = data as { keyId: string; encryptedSecret: string };
        this.keys.adopt(keyId, subject, Buffer.from(encryptedSecret, 'base64'));
      }
      return events.length > 0;
    });
  }

  /** The work for the subject, or the same work already under way. */
  private once<T>(under: Map<string, Promise<T>>, subject: string, work: () => Promise<T>): Promise<T> {
    const running = under.get(subject);
    if (running) return running;
    const started = work().finally(() => under.delete(subject));
    under.set(subject, started);
    return started;
  }
}

/** The subject a shared key's id names; undefined for the keys of one instance's own file (plain UUIDs). */
function subjectOfKey(keyId: string): string | undefined {
  const at = keyId.indexOf('~');
  if (at < 0) return undefined;
  const subject = Buffer.from(keyId.slice(0, at), 'base64url').toString('utf8');
  return SUBJECT_ID.test(subject) ? subject : undefined;
}
