import { Logger } from '@nestjs/common';
import { LocalSlot, LocalTaker, RunsQueuedHere } from './runs-queued-here';
import type { Agent } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';

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

  const written = { state: queued.run, events: [{}, {}], position: 5n };
  const slotted = () => {
    const slot = {
      start: { executorId: 'x1', warnings: [] },
      startNow: jest.fn(),
      started: jest.fn(),
      notRecorded: jest.fn(),
    };
    return slot as typeof slot & LocalSlot;
  };
  /** The hand-off, with a taker that always has `slot` free. */
  const withFreeSlot = () => {
    const here = new RunsQueuedHere();
    const slot = slotted();
    here.takeWith(
      taker(
        () => undefined,
        () => slot,
      ),
    );
    return { here, slot };
  };

  it("queues a run with the taker's claim while a slot is free, and has it started", async () => {
    const here = new RunsQueuedHere();
    const slot = slotted();
    const asked: string[] = [];
    here.takeWith(
      taker(
        () => undefined,
        (runId, { id }) => (asked.push(`${runId} ${id}`), slot),
      ),
    );
    const starts: unknown[] = [];
    const result = await here.queue({ id: 'run_1', agent, traceparent: 't', mayStart: true }, async (start) => {
      starts.push(start);
      return written;
    });
    expect(result).toBe(written);
    expect(asked).toEqual(['run_1 agent_1']);
    expect(starts).toEqual([slot.start]);
    expect(slot.started).toHaveBeenCalledWith({ run: queued.run, revision: 1n, position: 5n, traceparent: 't', agent });
  });

  it('starts a run it can decide once its queueing is handed to the store, before that commit is in', async () => {
    const { here, slot } = withFreeSlot();
    const steps: string[] = [];
    slot.startNow.mockImplementation((run: AgentRunAggregate) => steps.push(`started now ${run.id}`));
    slot.started.mockImplementation(() => steps.push('recorded'));
    const decided = (start: LocalSlot['start']) => ({ id: `run_1 by ${start.executorId}` }) as AgentRunAggregate;
    await here.queue({ id: 'run_1', agent, traceparent: 't', mayStart: true, decided }, async () => {
      steps.push('appending');
      await Promise.resolve();
      return written;
    });
    expect(steps).toEqual(['appending', 'started now run_1 by x1', 'recorded']);
    expect(slot.startNow).toHaveBeenCalledWith(expect.anything(), agent, 't');
  });

  it('starts a run once recorded when it cannot be decided before', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { here, slot } = withFreeSlot();
    const decided = () => {
      throw new Error('cannot decide');
    };
    await here.queue({ id: 'run_1', agent, mayStart: true, decided }, async () => written);
    expect(slot.startNow).not.toHaveBeenCalled();
    expect(slot.started).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('run_1'));
    warn.mockRestore();
  });

  it('queues a run without a claim when it may not start (a thread) or no taker is there, and hands it over', async () => {
    const here = new RunsQueuedHere();
    const starts: unknown[] = [];
    const append = async (start?: unknown) => (starts.push(start), written);
    await here.queue({ id: 'run_1', agent, mayStart: true }, append);
    const slot = slotted();
    const taken: bigint[] = [];
    here.takeWith(
      taker(
        ({ revision }) => taken.push(revision),
        () => slot,
      ),
    );
    await here.queue({ id: 'run_2', agent, mayStart: false }, append);
    expect(starts).toEqual([undefined, undefined]);
    expect(taken).toEqual([1n]);
    expect(slot.started).not.toHaveBeenCalled();
  });

  it('lets the slot go when the append fails, or wrote nothing (queued before)', async () => {
    const { here, slot } = withFreeSlot();
    const failing = () => Promise.reject(new Error('store away'));
    await expect(here.queue({ id: 'run_1', agent, mayStart: true }, failing)).rejects.toThrow('store away');
    expect(slot.notRecorded).toHaveBeenCalledTimes(1);
    await here.queue({ id: 'run_1', agent, mayStart: true }, async () => ({ state: queued.run, events: [] }));
    expect(slot.notRecorded).toHaveBeenCalledTimes(2);
    expect(slot.started).not.toHaveBeenCalled();
  });

  it('never fails the command that queued the run: a taker that throws leaves the run to the log', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const here = new RunsQueuedHere();
    const fail = () => {
      throw new Error('no room');
    };
    here.takeWith(taker(fail, fail));
    expect(() => here.queued(queued)).not.toThrow();
    const starts: unknown[] = [];
    await here.queue({ id: 'run_1', agent, mayStart: true }, async (start) => (starts.push(start), written));
    expect(starts).toEqual([undefined]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('run_1'));
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});
