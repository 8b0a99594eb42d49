import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { LogPageRequest } from '../event-store';
import { EventsQuery, RawEventRow, SIZE_COLUMNS, SizeRow, windowQuery } from './event-rows';

/** Prepared reads of the log kept, by their SQL (one per filter shape): the least used go first. */
const STATEMENT_CACHE_SIZE = 200;
/** Positions a page read looks at in one synchronous query: a few milliseconds at most, whatever the filter. */
export const PAGE_WINDOW = 20_000;
/** Positions one page read looks at in all, between which it lets the event loop go on. */
export const PAGE_SCAN_LIMIT = 200_000;

/** Reads of the whole log on this thread's connection: pages of `GET /v1/events`, and what subscriptions read. */
export class LogReads {
  private readonly statements = new LRUCache<string, Database.Statement<unknown[], RawEventRow>>({
    max: STATEMENT_CACHE_SIZE,
  });

  constructor(
    private readonly db: Database.Database,
    private readonly head: () => Promise<bigint>,
  ) {}

  /**
   * Reads the log in windows of PAGE_WINDOW positions (each one query, through the type or stream index when
   * the filter names them), yielding to the event loop between windows, until the page is full (by count or by
   * bytes), the log ends, or PAGE_SCAN_LIMIT positions were looked at. With `maxBytes`, each window first reads the
   * sizes of the events it would take (SQLite knows them without loading the text), then only the rows that fit.
   */
  async page({ direction, after, before, maxCount, maxBytes, filter }: LogPageRequest, columns: string) {
    const head = await this.head();
    const rows: RawEventRow[] = [];
    const forward = direction === 'forward';
    // Forward: the events in (cursor, head]; backward: those in [1, cursor).
    let cursor = forward ? (after ?? 0n) : (before ?? head + 1n);
    if (!forward && cursor > head + 1n) cursor = head + 1n;
    let scanned = 0n;
    let bytesLeft = maxBytes ?? Infinity;
    const atEnd = () => (forward ? cursor >= head : cursor <= 1n);
    // One stream or one type alone: its index holds the events in position order, so a read walks it and stops
    // at maxCount, whatever the stretch of the log; other filters read a window at a time.
    const walk =
      (filter?.streams?.length ?? 0) + (filter?.eventTypes?.length ?? 0) === 1 &&
      !filter?.streamPrefixes?.length &&
      !filter?.excludeStreamPrefixes?.length;
    const window = walk ? head + 1n : BigInt(PAGE_WINDOW);
    while (!atEnd() && rows.length < maxCount && bytesLeft > 0 && scanned < PAGE_SCAN_LIMIT) {
      if (scanned > 0n) await new Promise((resolve) => setImmediate(resolve));
      let wanted = maxCount - rows.length;
      const [lower, upper] = forward
        ? [cursor, cursor + window < head ? cursor + window : head]
        : [cursor - 1n - window > 0n ? cursor - 1n - window : 0n, cursor - 1n];
      let cutBySize = false;
      if (maxBytes !== undefined) {
        const fitting = this.fitting(windowQuery(lower, upper, !forward, wanted, filter, SIZE_COLUMNS), {
          bytesLeft,
          first: rows.length === 0,
        });
        cutBySize = fitting.count < fitting.found;
        wanted = fitting.count;
        bytesLeft -= fitting.bytes;
      }
      const read = wanted > 0 ? this.rows(windowQuery(lower, upper, !forward, wanted, filter, columns)) : [];
      for (const row of read) rows.push(row);
      // A window that gave all it was asked for (or was cut by size) ends at its last row, or where it began if it
      // gave none; otherwise it held no more and the read goes on from the window's far end.
      const full = cutBySize || (read.length > 0 && read.length === wanted);
      const last = read.length > 0 ? BigInt(read[read.length - 1][0]) : cursor;
      const next = full ? last : forward ? upper : lower + 1n;
      scanned += forward ? next - cursor : cursor - next;
      cursor = next;
      if (cutBySize) break;
    }
    return { rows, cursor, end: atEnd() };
  }

  /** How many of a window's events fit in `bytesLeft` (the first event of a page always does), and their bytes. */
  private fitting(query: EventsQuery, { bytesLeft, first }: { bytesLeft: number; first: boolean }) {
    const sizes = this.rows(query) as unknown as SizeRow[];
    let count = 0;
    let bytes = 0;
    for (const [, size] of sizes) {
      if (bytes + size > bytesLeft && !(first && count === 0)) break;
      bytes += size;
      count++;
    }
    return { count, bytes, found: sizes.length };
  }

  /** The rows of a query, through its prepared statement (made on first use, then kept). */
  rows({ sql, params }: EventsQuery): RawEventRow[] {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], RawEventRow>(sql).raw(true);
      this.statements.set(sql, statement);
    }
    return statement.all(...params);
  }
}
