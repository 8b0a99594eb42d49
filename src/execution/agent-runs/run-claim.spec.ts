import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import { ClaimState, ClaimTransition, RunClaim, RunClaims, nextState } from './run-claim';

const STATES: ClaimState[] = ['free', 'claimed', 'running', 'settled'];
const MOVES: Record<ClaimTransition, [ClaimState, ClaimState]> = {
  take: ['free', 'claimed'],
  start: ['claimed', 'running'],
  pass: ['claimed', 'settled'],
  giveBack: ['claimed', 'free'],
  leave: ['claimed', 'settled'],
  finish: ['running', 'settled'],
};

describe('the claim of a run: its transitions', () => {
  for (const [transition, [from, to]] of Object.entries(MOVES) as [ClaimTransition, [ClaimState, ClaimState]][]) {
    it(`${transition} leads from ${from} to ${to}, and is refused from every other state`, () => {
      for (const state of STATES) expect(nextState(state, transition)).toBe(state === from ? to : undefined);
    });
  }

  it('leaves settled by none', () => {
    for (const transition of Object.keys(MOVES) as ClaimTransition[])
      expect(nextState('settled', transition)).toBe(undefined);
  });
});

describe('the claims of an executor (RunClaims)', () => {
  const queued = { run: { id: 'run_1' } as AgentRunAggregate, revision: 0n };
  let claims: RunClaims;
  let released: string[];
  const hold = (name: string) => () => void released.push(name);
  beforeEach(() => {
    claims = new RunClaims();
    released = [];
  });

  /** A claim offered and moved on to `state` the way the executor does. */
  function claimIn(state: 'free' | 'claimed' | 'running', runId = 'run_1'): RunClaim {
    const claim = claims.offer({ runId, position: 1n, queued }, hold(`${runId} queued`));
    if (state !== 'free') claims.take(claim);
    if (state === 'running') claims.start(claim);
    released = [];
    return claim;
  }

  it('offer: a free claim, last in line, holding no slot and the checkpoint at its event', () => {
    const first = claims.offer({ runId: 'run_1', position: 1n }, hold('first'));
    const second = claims.offer({ runId: 'run_2', position: 2n });
    expect([first.state, second.state]).toEqual(['free', 'free']);
    expect(claims.of('run_2')).toBe(second);
    expect(claims.knows('run_1')).toBe(true);
    expect(claims.waiting).toBe(2);
    expect(claims.slotsHeld).toBe(0);
    expect(claims.nextReady(0n, { hasOpenRunBefore: () => false })).toBe(first);
    expect(first.checkpointHolds).toHaveLength(1);
  });

  it('reserve: a claimed claim holding a slot, for a run about to be queued here', () => {
    const claim = claims.reserve('run_1');
    expect(claim.state).toBe('claimed');
    expect(claim.holdsSlot).toBe(true);
    expect(claims.slotsHeld).toBe(1);
    expect(claims.waiting).toBe(0);
  });

  it('refuses a second claim of a run that has one here', () => {
    claims.offer({ runId: 'run_1', position: 1n });
    expect(() => claims.offer({ runId: 'run_1', position: 2n })).toThrow('run_1');
    expect(() => claims.reserve('run_1')).toThrow('run_1');
    expect(claims.waiting).toBe(1);
  });

  it('take: a free claim leaves the queue and holds a slot', () => {
    const claim = claimIn('free');
    claims.take(claim);
    expect(claim.state).toBe('claimed');
    expect(claims.waiting).toBe(0);
    expect(claims.slotsHeld).toBe(1);
    expect([...claims.holdingSlots()]).toEqual([claim]);
    expect(() => claims.take(claim)).toThrow('"take" is refused while its claim is claimed');
  });

  it('start: a claimed claim runs, its slot held, the checkpoint let past it, its queueing passed over from now', () => {
    const claim = claimIn('claimed');
    claims.holdCheckpoint(claim, hold('brought again'));
    claims.start(claim);
    expect(claim.state).toBe('running');
    expect(claim.holdsSlot).toBe(true);
    expect(released).toEqual(['run_1 queued', 'brought again']);
    expect(claims.answeredLately('run_1')).toBe(true);
    expect(claims.of('run_1')).toBe(claim);
    expect(() => claims.start(claim)).toThrow('"start" is refused while its claim is running');
    expect(() => claims.start(claimIn('free', 'run_2'))).toThrow('"start" is refused while its claim is free');
  });

  it('pass: a claimed claim settles without executing, its slot freed and the checkpoint let past it', () => {
    const claim = claimIn('claimed');
    claims.pass(claim);
    expect(claim.state).toBe('settled');
    expect(claims.slotsHeld).toBe(0);
    expect(claims.of('run_1')).toBeUndefined();
    expect(released).toEqual(['run_1 queued']);
    expect(claims.answeredLately('run_1')).toBe(true);
    expect(() => claims.pass(claimIn('running', 'run_2'))).toThrow('"pass" is refused while its claim is running');
  });

  it('pass: a claim whose queueing is in doubt lets a later queueing of the run through', () => {
    const claim = claimIn('claimed');
    claims.doubt(claim);
    claims.pass(claim);
    expect(released).toEqual(['run_1 queued']);
    expect(claims.answeredLately('run_1')).toBe(false);
    expect(claims.knows('run_1')).toBe(false);
  });

  it('giveBack: a claimed claim waits again first in line, its slot freed, its stream to be read, the checkpoint held', () => {
    claimIn('free', 'run_0');
    const claim = claimIn('claimed');
    claims.giveBack(claim);
    expect(claim.state).toBe('free');
    expect(claims.slotsHeld).toBe(0);
    expect(claims.nextReady(0n, { hasOpenRunBefore: () => false })).toBe(claim);
    expect(claim.queued).toBeUndefined();
    expect(released).toEqual([]);
    expect(() => claims.giveBack(claim)).toThrow('"giveBack" is refused while its claim is free');
    expect(() => claims.giveBack(claimIn('running', 'run_2'))).toThrow(
      '"giveBack" is refused while its claim is running',
    );
  });

  it('leave: a claimed claim is let go as the service stops, the checkpoint left below it', () => {
    const claim = claimIn('claimed');
    claims.leave(claim);
    expect(claim.state).toBe('settled');
    expect(claims.slotsHeld).toBe(0);
    expect(claims.knows('run_1')).toBe(false);
    expect(released).toEqual([]);
    expect(() => claims.leave(claimIn('free', 'run_2'))).toThrow('"leave" is refused while its claim is free');
  });

  it('finish: a running claim settles, its slot freed, its queueing still passed over', () => {
    const claim = claimIn('running');
    claims.finish(claim);
    expect(claim.state).toBe('settled');
    expect(claims.slotsHeld).toBe(0);
    expect(claims.of('run_1')).toBeUndefined();
    expect(claims.knows('run_1')).toBe(true);
    expect(() => claims.finish(claim)).toThrow('"finish" is refused while its claim is settled');
    expect(() => claims.finish(claimIn('claimed', 'run_2'))).toThrow('"finish" is refused while its claim is claimed');
  });

  it('doubt: a claimed claim has its queueing in doubt; refused once it runs', () => {
    const claim = claimIn('claimed');
    claims.doubt(claim);
    expect(claim.queueingInDoubt).toBe(true);
    expect(claim.state).toBe('claimed');
    expect(() => claims.doubt(claimIn('running', 'run_2'))).toThrow('run_2');
  });

  it('releaseSlot: the slot goes to the next run while the claim stays where it is; a second time changes nothing', () => {
    const claim = claimIn('running');
    claims.releaseSlot(claim);
    claims.releaseSlot(claim);
    expect(claim.state).toBe('running');
    expect(claim.holdsSlot).toBe(false);
    expect(claims.slotsHeld).toBe(0);
  });

  it('holds the checkpoint below a run brought again while its claim is unanswered, not once it runs', () => {
    const claim = claimIn('free');
    claims.holdCheckpoint(claim, hold('again'));
    expect(claim.checkpointHolds).toHaveLength(2);
    expect(() => claims.holdCheckpoint(claimIn('running', 'run_2'), hold('late'))).toThrow('run_2');
  });

  it("takes a thread's runs one at a time, once the read models have each and no earlier run of the thread is open", () => {
    const open = new Set(['run_a']);
    const threads = { hasOpenRunBefore: (_thread: string, runId: string) => runId === 'run_b' && open.has('run_a') };
    const a = claims.offer({ runId: 'run_a', threadId: 't', position: 1n });
    const b = claims.offer({ runId: 'run_b', threadId: 't', position: 2n });
    const lone = claims.offer({ runId: 'run_c', position: 3n });
    expect(claims.threadRunWaits()).toBe(true);
    expect(claims.nextReady(0n, threads)).toBe(lone);
    expect(claims.nextReady(1n, threads)).toBe(a);
    claims.take(a);
    expect(claims.nextReady(5n, threads)).toBe(lone);
    claims.start(a);
    claims.finish(a);
    expect(claims.nextReady(5n, threads)).toBe(lone);
    open.delete('run_a');
    expect(claims.nextReady(5n, threads)).toBe(b);
  });
});
