import { Logger } from '@nestjs/common';
import { RunsQueuedHere } from './runs-queued-here';
import type { AgentRunAggregate } from './agent-run';

describe('runs queued here', () => {
  const queued = { run: { id: 'run_1' } as AgentRunAggregate, revision: 0n, position: 1n };

  it('hands each run to its taker', () => {
    const here = new RunsQueuedHere();
    const taken: string[] = [];
    here.takeWith(({ run }) => taken.push(run.id));
    here.queued(queued);
    expect(taken).toEqual(['run_1']);
  });

  it('never fails the command that queued the run: a taker that throws leaves the run to the log', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const here = new RunsQueuedHere();
    here.takeWith(() => {
      throw new Error('no room');
    });
    expect(() => here.queued(queued)).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('run_1'));
    warn.mockRestore();
  });
});
