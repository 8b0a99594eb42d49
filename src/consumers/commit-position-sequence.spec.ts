import { CommitPositionSequence } from './commit-position-sequence';

describe('commit-position sequence', () => {
  it('commits what was passed when nothing is held', () => {
    const sequence = new CommitPositionSequence(5n);
    expect(sequence.committable).toBe(5n);
    sequence.pass(9n);
    expect(sequence.committable).toBe(9n);
    expect(sequence.last).toBe(9n);
  });

  it('stays just before the lowest unfinished position, whatever order they finish in', () => {
    const sequence = new CommitPositionSequence(0n);
    for (const position of [3n, 7n, 12n]) sequence.hold(position);
    sequence.pass(15n);
    expect(sequence.committable).toBe(2n);
    sequence.finish(12n);
    expect(sequence.committable).toBe(2n);
    sequence.finish(3n);
    expect(sequence.committable).toBe(6n);
    sequence.finish(7n);
    expect(sequence.committable).toBe(15n);
  });

  it('keeps working past many positions held and finished', () => {
    const sequence = new CommitPositionSequence(0n);
    for (let position = 1n; position <= 5000n; position++) sequence.hold(position);
    sequence.pass(5000n);
    for (let position = 1n; position < 4000n; position++) sequence.finish(position);
    expect(sequence.committable).toBe(3999n);
    for (let position = 5000n; position >= 4000n; position--) sequence.finish(position);
    expect(sequence.committable).toBe(5000n);
  });
});
