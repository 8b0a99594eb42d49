import { Writable } from 'node:stream';

/** A stream for a pino logger that keeps each JSON line it is written, parsed. */
export function logLines(): { lines: Array<Record<string, unknown>>; sink: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, sink };
}
