/** The most characters of an item's text the search index keeps. */
const TEXT_LIMIT = 100_000;

/** What keyword search reads of an item: its key and every string and number in its value, in order. */
export function searchText(key: string, value: unknown): string {
  const words: string[] = [key.replace(/[._-]+/g, ' ')];
  const visit = (node: unknown): void => {
    if (typeof node === 'string' || typeof node === 'number') words.push(String(node));
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(value);
  return words.join(' ').slice(0, TEXT_LIMIT);
}

/**
 * A query as FTS5 takes it: each word quoted (so that no character of the query is read as FTS5 syntax) and any
 * of them matching, ranked by BM25. Undefined when the query has no word.
 */
export function matchExpression(query: string): string | undefined {
  const words = query.match(/[\p{L}\p{N}]+/gu);
  return words?.length
    ? words
        .slice(0, 64)
        .map((word) => `"${word}"`)
        .join(' OR ')
    : undefined;
}
