/** A status word with a colour that is never the only cue (the word is always there). */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status}</span>;
}
