import { RecordedEvent } from '../event-store/event-store';
import { AppliedEvents } from '../read-models/applied-events';
import { StreamWatch } from './stream-watch';

const event = (stream: string, position: bigint) =>
  ({ stream, position, revision: 0n, type: 'AgentRunSucceeded', data: {}, metadata: {} }) as unknown as RecordedEvent;

describe('StreamWatch.runEnding', () => {
  it('reads the run once per event of its stream, and answers the ended run as that read gave it', async () => {
    const applied = new AppliedEvents();
    const watch = new StreamWatch(applied);
    const reads: string[] = [];
    let status: 'running' | 'succeeded' = 'running';
    const current = () => {
      reads.push(status);
      return { status, read: reads.length };
    };

    const ending = watch.runEnding('agentrun-1', current, 5000);
    applied.applied([event('agentrun-2', 1n)]);
    status = 'succeeded';
    applied.applied([event('agentrun-1', 2n)]);

    await expect(ending).resolves.toEqual({ run: { status: 'succeeded', read: 2 }, ended: true });
    expect(reads).toEqual(['running', 'succeeded']);
  });

  it('reads the run as it stands when the wait runs out', async () => {
    const watch = new StreamWatch(new AppliedEvents());
    let reads = 0;
    const current = () => ({ status: 'running' as const, read: ++reads });

    await expect(watch.runEnding('agentrun-1', current, 1)).resolves.toEqual({
      run: { status: 'running', read: 2 },
      ended: false,
    });
  });
});
