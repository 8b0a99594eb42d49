import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

/** The subjects' keys, or null when DATA_KEY_SECRET is not set. */
export const SUBJECT_KEYS = Symbol('SubjectKeys');

/** How many streams' subjects (or that they have none) are kept in memory; the table answers the rest. */
const KNOWN_STREAMS = 100_000;

/**
 * The subjects' data keys, and which streams and memory namespaces are about which subject, in a SQLite file of its
 * own (`subject-keys.sqlite` in the data folder), outside the append-only log so that a key can truly be destroyed:
 * the file deletes with `secure_delete`, which overwrites what it deletes. Each data key is 32 random bytes, kept
 * encrypted (AES-256-GCM) under a key derived from `DATA_KEY_SECRET`; the file alone opens nothing. On EventStoreDB,
 * where several instances may share the store, the keys are in the store too (key-streams.ts), and this file keeps
 * the ones this instance has used.
 */
export class SubjectKeys {
  private readonly db: Database.Database;
  private readonly wrapping: Buffer;
  private readonly keys = new Map<string, Buffer>();
  /** Each subject's current key, once looked up or made (dropped when its keys are destroyed). */
  private readonly current = new Map<string, { keyId: string; key: Buffer }>();
  private readonly streams = new Map<string, string | null>();
  private namespaces: Array<{ namespace: string; subject: string }>;
  private readonly statements;
  private remote?: { destroy(subject: string): Promise<void> };

  constructor(file: string, secret: string) {
    this.wrapping = Buffer.from(hkdfSync('sha256', secret, 'workflows', 'subject data keys', 32));
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('secure_delete = ON');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS subject_keys (
        key_id TEXT PRIMARY KEY, subject TEXT NOT NULL, wrapped BLOB NOT NULL, current INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS subject_keys_by_subject ON subject_keys (subject);
      CREATE TABLE IF NOT EXISTS subject_streams (stream TEXT PRIMARY KEY, subject TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS subject_streams_by_subject ON subject_streams (subject);
      CREATE TABLE IF NOT EXISTS subject_namespaces (namespace TEXT PRIMARY KEY, subject TEXT NOT NULL);
    `);
    this.statements = {
      current: this.db.prepare<[string], { key_id: string; wrapped: Buffer }>(
        'SELECT key_id, wrapped FROM subject_keys WHERE subject = ? AND current = 1',
      ),
      key: this.db.prepare<[string], { wrapped: Buffer }>('SELECT wrapped FROM subject_keys WHERE key_id = ?'),
      addKey: this.db.prepare(
        'INSERT OR IGNORE INTO subject_keys (key_id, subject, wrapped, current) VALUES (?, ?, ?, 1)',
      ),
      keysOf: this.db.prepare<[string], { key_id: string }>('SELECT key_id FROM subject_keys WHERE subject = ?'),
      dropKeys: this.db.prepare<[string]>('DELETE FROM subject_keys WHERE subject = ?'),
      stream: this.db.prepare<[string], { subject: string }>('SELECT subject FROM subject_streams WHERE stream = ?'),
      addStream: this.db.prepare('INSERT OR IGNORE INTO subject_streams (stream, subject) VALUES (?, ?)'),
      streamsOf: this.db.prepare<[string], { stream: string }>(
        'SELECT stream FROM subject_streams WHERE subject = ? ORDER BY stream',
      ),
      namespaces: this.db.prepare<[], { namespace: string; subject: string }>(
        'SELECT namespace, subject FROM subject_namespaces',
      ),
      dropNamespaces: this.db.prepare<[string]>('DELETE FROM subject_namespaces WHERE subject = ?'),
      addNamespace: this.db.prepare('INSERT OR REPLACE INTO subject_namespaces (namespace, subject) VALUES (?, ?)'),
    };
    this.namespaces = this.statements.namespaces.all();
  }

  /** The subject's current data key, made when it has none (a forgotten subject starts again with a new one). */
  currentKey(subject: string): { keyId: string; key: Buffer } {
    const known = this.stored(subject);
    if (known) return known;
    const made = this.makeKey(randomUUID());
    this.adopt(made.keyId, subject, made.wrapped);
    return this.stored(subject)!;
  }

  /** Whether the subject has a current data key here. */
  hasCurrent(subject: string): boolean {
    return this.stored(subject) !== undefined;
  }

  /** A new data key, and the same wrapped under the secret: kept nowhere yet (see `adopt`). */
  makeKey(keyId: string): { keyId: string; key: Buffer; wrapped: Buffer } {
    const key = randomBytes(32);
    return { keyId, key, wrapped: this.wrap(key, keyId) };
  }

  /** Keeps a wrapped data key of the subject's in the file (made here, or read from the store); once is enough. */
  adopt(keyId: string, subject: string, wrapped: Buffer): void {
    if (this.keys.has(keyId)) return;
    const key = this.unwrap(wrapped, keyId);
    this.statements.addKey.run(keyId, subject, wrapped);
    this.keys.set(keyId, key);
  }

  /** Whether the data key is here, in memory or in the file. */
  has(keyId: string): boolean {
    return this.key(keyId) !== undefined;
  }

  /** A data key by its id; undefined once its subject is forgotten. */
  key(keyId: string): Buffer | undefined {
    const known = this.keys.get(keyId);
    if (known) return known;
    const row = this.statements.key.get(keyId);
    return row && this.cached(keyId, row.wrapped);
  }

  /** Shares the keys with the other instances on the store, through `remote` (see key-streams.ts). */
  shareThrough(remote: { destroy(subject: string): Promise<void> }): void {
    this.remote = remote;
  }

  /** Destroys the subject's keys: in the store when they are shared (and so on every instance), and here. */
  async forget(subject: string): Promise<void> {
    if (this.remote) await this.remote.destroy(subject);
    else this.destroyKeys(subject);
  }

  /** Destroys every data key of the subject here: what they sealed reads as forgotten from now on. */
  destroyKeys(subject: string): void {
    this.current.delete(subject);
    for (const { key_id } of this.statements.keysOf.all(subject)) this.keys.delete(key_id);
    this.statements.dropKeys.run(subject);
    // Out of the write-ahead log too: its pages are written back into the file (where secure_delete zeroed them).
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** The subject of a stream: recorded when its first sealed events were appended; null when it has none. */
  subjectOfStream(stream: string): string | null {
    let subject = this.streams.get(stream);
    if (subject === undefined) {
      subject = this.statements.stream.get(stream)?.subject ?? null;
      this.remember(stream, subject);
    }
    return subject;
  }

  bindStream(stream: string, subject: string): void {
    if (this.streams.get(stream) === subject) return;
    this.statements.addStream.run(stream, subject);
    this.remember(stream, subject);
  }

  /** Binds each stream to its subject, those not bound yet in one commit (what a page of the log taught). */
  bindStreams(bindings: Map<string, string>): void {
    const fresh = [...bindings].filter(([stream, subject]) => this.streams.get(stream) !== subject);
    if (fresh.length === 0) return;
    this.db.transaction(() => {
      for (const [stream, subject] of fresh) this.statements.addStream.run(stream, subject);
    })();
    for (const [stream, subject] of fresh) this.remember(stream, subject);
  }

  /** The streams about the subject, by name. */
  streamsOf(subject: string): string[] {
    return this.statements.streamsOf.all(subject).map((row) => row.stream);
  }

  /** The subject a memory namespace is about: the one bound to it or to a namespace above it. */
  subjectOfNamespace(namespace: string): string | undefined {
    return this.namespaces.find((bound) => namespace === bound.namespace || namespace.startsWith(`${bound.namespace}/`))
      ?.subject;
  }

  /** The subjects bound to the namespace, to one above it, or to one below it. */
  subjectsAround(namespace: string): string[] {
    const related = (bound: string) =>
      bound === namespace || namespace.startsWith(`${bound}/`) || bound.startsWith(`${namespace}/`);
    return [...new Set(this.namespaces.filter((b) => related(b.namespace)).map((b) => b.subject))];
  }

  /** The namespaces bound to the subject, by name. */
  namespacesOf(subject: string): string[] {
    return this.namespaces
      .filter((bound) => bound.subject === subject)
      .map((bound) => bound.namespace)
      .sort();
  }

  /** Binds exactly these namespaces to the subject. */
  setNamespaces(subject: string, namespaces: string[]): void {
    this.db.transaction(() => {
      this.statements.dropNamespaces.run(subject);
      for (const namespace of namespaces) this.statements.addNamespace.run(namespace, subject);
    })();
    this.namespaces = this.statements.namespaces.all();
  }

  close(): void {
    this.db.close();
  }

  private stored(subject: string): { keyId: string; key: Buffer } | undefined {
    const known = this.current.get(subject);
    if (known) return known;
    const row = this.statements.current.get(subject);
    if (!row) return undefined;
    const current = { keyId: row.key_id, key: this.cached(row.key_id, row.wrapped) };
    if (this.current.size >= KNOWN_STREAMS) this.current.clear();
    this.current.set(subject, current);
    return current;
  }

  private remember(stream: string, subject: string | null): void {
    if (this.streams.size >= KNOWN_STREAMS) this.streams.clear();
    this.streams.set(stream, subject);
  }

  private cached(keyId: string, wrapped: Buffer): Buffer {
    const key = this.unwrap(wrapped, keyId);
    this.keys.set(keyId, key);
    return key;
  }

  private wrap(key: Buffer, keyId: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.wrapping, iv).setAAD(Buffer.from(keyId));
    const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
  }

  /** Throws when the key was wrapped under another DATA_KEY_SECRET. */
  private unwrap(wrapped: Buffer, keyId: string): Buffer {
    const decipher = createDecipheriv('aes-256-gcm', this.wrapping, wrapped.subarray(0, 12))
      .setAAD(Buffer.from(keyId))
      .setAuthTag(wrapped.subarray(12, 28));
    return Buffer.concat([decipher.update(wrapped.subarray(28)), decipher.final()]);
  }
}
