import { DeliverSignal, ExpireWorkflowWait, WakeWorkflowStep } from './workflow-run.commands';
import { WorkflowRunEvent, WorkflowStepEnded } from './workflow-run.events';
import { WorkflowRunAggregate } from './workflow-run.state';
import { advance } from './advance';
import { awaits, startWait } from './waiting-steps';

/** A step's structured answer is an object (as an agent's `outputSchema` gives): other data is its output alone. */
const isObject = (data: unknown) => typeof data === 'object' && data !== null && !Array.isArray(data);

/** The events a signal, a time-out or a wake records on a waiting step; none when it no longer waits for it. */
export function decideWaiting(
  run: WorkflowRunAggregate,
  command: DeliverSignal | ExpireWorkflowWait | WakeWorkflowStep,
  now: Date,
): WorkflowRunEvent[] {
  const at = now.toISOString();
  const runId = run.id;
  const { index } = command;
  const step = run.steps[index];
  if (command.type === 'DeliverSignal') {
    if (!awaits(step, command.signal, command.key)) return [];
    const { signalId, data } = command;
    const output = data === undefined || data === null ? '' : typeof data === 'string' ? data : JSON.stringify(data);
    const ended: WorkflowStepEnded = {
      type: 'WorkflowStepEnded',
      data: {
        runId,
        index,
        status: 'succeeded',
        output,
        ...(isObject(data) && { outputObject: data }),
        endedAt: at,
      },
    };
    const received: WorkflowRunEvent = {
      type: 'WorkflowSignalReceived',
      data: { runId, index, signalId, receivedAt: at },
    };
    return advance(run, [received, ended], command.newRunId, at);
  }
  if (command.type === 'ExpireWorkflowWait') {
    const timeoutAt = step?.status === 'waiting' ? step.awaiting?.timeoutAt : null;
    if (!timeoutAt || Date.parse(timeoutAt) > now.getTime()) return [];
    // With attempts left, the step waits again, at once, for another timeoutMs (a signal may come at any time).
    const attempt = (step.awaiting!.attempt ?? 1) + 1;
    if (step.retry && attempt <= step.retry.attempts) {
      const again = startWait(run, step, at);
      if ('type' in again) return [{ ...again, data: { ...again.data, attempt } }];
    }
    const error = {
      code: 'signal_timeout',
      message: `Step "${step.id}" had no "${step.awaiting!.signal}" signal by ${timeoutAt}`,
    };
    return [
      { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error, endedAt: at } },
      { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
    ];
  }
  const wakeAt = step?.status === 'waiting' ? step.wakeAt : undefined;
  if (!wakeAt || Date.parse(wakeAt) > now.getTime()) return [];
  const woke: WorkflowStepEnded = {
    type: 'WorkflowStepEnded',
    data: { runId, index, status: 'succeeded', output: wakeAt, endedAt: at },
  };
  return advance(run, [woke], command.newRunId, at);
}
