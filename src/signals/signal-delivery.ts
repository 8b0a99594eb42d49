import { runIdsFrom } from '../workflows/workflow-run/workflow-run.commands';
import { ActorRegistry } from '../actors/actor-registry';
import { DomainError } from '../domain/decider';
import { IdGenerator } from '../shared/ids';
import { workflowRunDecider } from '../workflows/workflow-run/workflow-run';
import { workflowRunStream } from '../workflows/workflow-run/workflow-run.events';
import type { Signal } from './signal';
import type { SignalDelivery } from './queries/signals.read-model';

/**
 * Hands a signal to the wait steps it reached. Each run's decider takes it once: a repeat (another instance, or
 * the delivery after a restart) and a step that stopped waiting meanwhile (it timed out, its run was cancelled)
 * change nothing.
 */
export async function deliverSignal(
  actors: ActorRegistry,
  ids: IdGenerator,
  signal: Signal,
  deliveries: SignalDelivery[],
): Promise<void> {
  const { id: signalId, name, key, data } = signal;
  await Promise.all(
    deliveries.map(({ workflowRunId, stepIndex }) =>
      actors
        .send(
          workflowRunStream(workflowRunId),
          workflowRunDecider,
          {
            type: 'DeliverSignal',
            index: stepIndex,
            signalId,
            signal: name,
            key,
            data,
            newRunId: runIdsFrom(ids),
          },
          { correlationId: workflowRunId, causationId: signalId },
        )
        .catch((error: unknown) => {
          // A run that is gone or ended refuses: the signal has nothing left to do there.
          if (!(error instanceof DomainError)) throw error;
        }),
    ),
  );
}
