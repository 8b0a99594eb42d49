import { DomainError } from '../../domain/decider';
import { WorkflowTriggers } from '../trigger-workflow/workflow-triggers';
import { TriggerScheduledRunsCommand } from './trigger-scheduled-runs.command';
import { MAX_TRIGGERS_IN_FLIGHT, TriggerScheduledRunsHandler } from './trigger-scheduled-runs.handler';

const scheduledFor = new Date('2026-03-02T09:01:00.000Z');
const ticks = (count: number) => Array.from({ length: count }, (_, i) => ({ workflowId: `wf_${i}`, scheduledFor }));

describe('TriggerScheduledRunsHandler', () => {
  it('triggers every tick side by side, never more than MAX_TRIGGERS_IN_FLIGHT at once', async () => {
    let inFlight = 0;
    let most = 0;
    const triggered: string[] = [];
    let firstCall: unknown[] | undefined;
    const triggers = {
      trigger: async (...call: [string, object, object]) => {
        const workflowId = call[0];
        firstCall ??= call;
        most = Math.max(most, ++inFlight);
        // Answered in a later turn, as a commit is.
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        triggered.push(workflowId);
      },
    } as unknown as WorkflowTriggers;
    const count = MAX_TRIGGERS_IN_FLIGHT + 5;
    const outcome = await new TriggerScheduledRunsHandler(triggers).execute(
      new TriggerScheduledRunsCommand(ticks(count)),
    );
    expect(outcome).toEqual({ recorded: count, refused: 0, failed: 0 });
    expect(firstCall).toEqual(['wf_0', {}, { type: 'schedule', scheduledFor: scheduledFor.toISOString() }]);
    expect(triggered.sort()).toEqual(
      ticks(count)
        .map((t) => t.workflowId)
        .sort(),
    );
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(MAX_TRIGGERS_IN_FLIGHT);
  });

  it('counts refusals and failures without stopping the other ticks', async () => {
    const triggers = {
      trigger: async (workflowId: string) => {
        if (workflowId === 'wf_1') throw new DomainError('conflict', 'recorded before');
        if (workflowId === 'wf_2') throw new Error('store gone');
      },
    } as unknown as WorkflowTriggers;
    const outcome = await new TriggerScheduledRunsHandler(triggers).execute(new TriggerScheduledRunsCommand(ticks(5)));
    expect(outcome).toEqual({ recorded: 3, refused: 1, failed: 1 });
  });
});
