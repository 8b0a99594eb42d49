import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { RecordedEvent } from '../../event-store/event-store';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { SignalsReadModel } from '../../signals/queries/signals.read-model';
import { deliverSignal } from '../../signals/signal-delivery';
import { WorkflowSignalAwaited } from '../../workflows/workflow-run/workflow-run.events';

/**
 * Hands signals to the steps they reached, over events, once the signals' read model has decided it: a signal sent
 * goes to every step waiting for it (the request that sent it does so too, at once; this covers a crash in
 * between), and a wait that begins takes the signal kept for it, if one is. Every instance may do it: each run
 * takes a signal once.
 */
@Injectable()
export class SignalDeliveries extends ProcessManager {
  protected readonly name = 'signal-deliveries';
  protected override readonly follows = { filter: { eventTypes: ['SignalSent', 'WorkflowSignalAwaited'] } };

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly signals: SignalsReadModel,
  ) {
    super(deps, config.runs.executorEnabled);
  }

  protected override async handle(events: RecordedEvent[]): Promise<void> {
    const last = events[events.length - 1];
    if (!last) return;
    // The read model decides in log order: once it has the batch's last event, it has decided for all of them.
    await this.readYourWrites.waitFor(last.position);
    await Promise.all(events.map((event) => this.handleOnce(event, () => this.deliver(event))));
  }

  private async deliver(event: RecordedEvent): Promise<void> {
    if (event.type === 'SignalSent') {
      const signal = this.signals.signal(event.data.id as string);
      if (signal) await deliverSignal(this.actors, this.ids, signal, this.signals.deliveriesOf(signal.id));
      return;
    }
    const { runId, index, stepId } = event.data as WorkflowSignalAwaited['data'];
    const signalId = this.signals.deliveryTo(runId, index);
    const signal = signalId && this.signals.signal(signalId);
    if (signal)
      await deliverSignal(this.actors, this.ids, signal, [{ workflowRunId: runId, stepIndex: index, step: stepId }]);
  }
}
