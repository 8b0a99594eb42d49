/** The button under a paged list. */
export function LoadMore({ hasMore, loading, onClick }: { hasMore: boolean; loading: boolean; onClick: () => void }) {
  if (loading) return <p aria-live="polite">Loading…</p>;
  if (!hasMore) return null;
  return (
    <button type="button" class="secondary" onClick={onClick}>
      Load more
    </button>
  );
}
