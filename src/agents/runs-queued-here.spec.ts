import { Logger } from '@nestjs/common';
import { LocalSlot, LocalTaker, RunsQueuedHere } from './runs-queued-here';
import type { Agent } from './agent';
import type { AgentRunAggregate } from './agent-run';

describe('runs queued here', () => {
  const queued = { run: { id: 'run_1' } as AgentRunAggregate, revision: 0n, position: 1n };
  const agent = { id: 'agent_1' } as Agent;
  const taker = (take: LocalTaker['take'], slot: LocalTaker['slot'] = () => undefined): LocalTaker => ({ take, slot });

  it('hands each run to its taker', () => {
    const here = new RunsQueuedHere();
    const taken: string[] = [];
    here.takeWith(taker(({ run }) => taken.push(run.id)));
    here.queued(queued);
    expect(taken).toEqual(['run_1']);
  });

  it("gives the taker's slot for a run about to be queued, and none without a taker", () => {
    const here = new RunsQueuedHere();
    expect(here.slot('run_1', agent)).toBeUndefined();
    const slot = { start: { executorId: 'x1', warnings: [] } } as unknown as LocalSlot;
    const asked: string[] = [];
    here.takeWith(
      taker(
        () => undefined,
        (runId, { id }) => (asked.push(`${runId} ${id}`), slot),
      ),
    );
    expect(here.slot('run_1', agent)).toBe(slot);
    expect(asked).toEqual(['run_1 agent_1']);
  });

  it('never fails the command that queued the run: a taker that throws leaves the run to the log', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const here = new RunsQueuedHere();
    const fail = () => {
      throw new Error('no room');
    };
    here.takeWith(taker(fail, fail));
    expect(() => here.queued(queued)).not.toThrow();
    expect(here.slot('run_1', agent)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('run_1'));
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
