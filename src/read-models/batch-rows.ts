/**
 * Rows a projection reads and changes while it applies one batch, kept in memory and each written once at the
 * batch's end. A run's events come close together in the log, so a batch that holds several of them reads,
 * decodes and writes the run once rather than once per event. Outside a batch, nothing is kept.
 */
export class BatchRows<Row> {
  private rows?: Map<string, { row: Row; changed: boolean }>;

  constructor(private readonly write: (row: Row) => void) {}

  /** Runs `work` (inside the batch's transaction), then writes the rows it changed. */
  batch(work: () => void): void {
    this.rows = new Map();
    try {
      work();
      for (const { row, changed } of this.rows.values()) if (changed) this.write(row);
    } finally {
      this.rows = undefined;
    }
  }

  /** The row as the batch left it so far, else `load()`'s (remembered for the rest of the batch). */
  get(id: string, load: () => Row | undefined): Row | undefined {
    const kept = this.rows?.get(id);
    if (kept) return kept.row;
    const row = load();
    if (row !== undefined) this.rows?.set(id, { row, changed: false });
    return row;
  }

  /** Whether the batch has this row in memory. */
  has(id: string): boolean {
    return this.rows?.has(id) ?? false;
  }

  /** Remembers a row already written (`changed` false) or to write at the batch's end; outside a batch, writes it now. */
  set(id: string, row: Row, changed = true): void {
    if (this.rows) this.rows.set(id, { row, changed: changed || (this.rows.get(id)?.changed ?? false) });
    else if (changed) this.write(row);
  }
}
