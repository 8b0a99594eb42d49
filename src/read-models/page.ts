import { ValidationFailed } from '../shared/validation-failed';

/** A page of a list, ordered by id, and the cursor of the next one. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cursors are opaque to clients: the base64url of the last id on the page. */
export function decodeCursor(cursor: string | undefined, isValidId: (id: string) => boolean): string {
  if (cursor === undefined) return '';
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!isValidId(id)) throw new ValidationFailed([{ path: 'cursor', message: 'is not a cursor this list returned' }]);
  return id;
}

/** `rows` holds up to limit + 1 rows ordered by id; the extra row only says whether another page exists. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items, nextCursor: more ? Buffer.from(items[items.length - 1].id).toString('base64url') : null };
}
