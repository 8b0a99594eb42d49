/**
 * Sends a tool call's progress as the run writes its text: `progress` is the length of the text so far, `message`
 * the text itself. One notification is in flight at a time; text written meanwhile goes out with the next one, so
 * a client that reads slowly gets fewer, larger notifications rather than a backlog.
 */
export class ProgressReporter {
  private written = '';
  private sentLength = 0;
  private sending = false;

  constructor(private readonly send: (progress: number, message: string) => Promise<void>) {}

  text(piece: string): void {
    if (!piece) return;
    this.written += piece;
    void this.flush();
  }

  private async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.sentLength < this.written.length) {
        const text = this.written;
        this.sentLength = text.length;
        await this.send(text.length, text);
      }
    } catch {
      // The client went away: the run goes on, and its end is recorded whether anyone hears of it or not.
    } finally {
      this.sending = false;
    }
  }
}
