import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type ProblemError } from '../api/client';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A list read a page at a time with the API's cursor: the first page when `key` changes, then `loadMore`.
 * However long the list on the service, the page holds only what the user asked to see.
 */
export function usePagedList<T>(fetchPage: (cursor?: string) => Promise<Page<T>>, key: string) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ProblemError | null>(null);
  const generation = useRef(0);

  const load = useCallback(
    async (from: string | undefined, append: boolean) => {
      const mine = ++generation.current;
      setLoading(true);
      try {
        const page = await fetchPage(from);
        if (mine !== generation.current) return;
        setItems((old) => (append ? [...old, ...page.items] : page.items));
        setCursor(page.nextCursor);
        setError(null);
      } catch (caught) {
        if (mine === generation.current) setError(asProblem(caught));
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );

  useEffect(() => {
    void load(undefined, false);
  }, [load]);

  return {
    items,
    loading,
    error,
    hasMore: cursor !== null,
    loadMore: () => cursor && load(cursor, true),
    reload: () => load(undefined, false),
  };
}
