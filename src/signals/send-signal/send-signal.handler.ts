import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { traceOf } from '../../shared/trace-context';
import { ValidationFailed } from '../../shared/validation-failed';
import { signalDecider, signalStream } from '../signal';
import { deliverSignal } from '../signal-delivery';
import { SignalsReadModel } from '../queries/signals.read-model';
import { SendSignalCommand, SignalView } from './send-signal.command';
import { MAX_SIGNAL_DATA_BYTES } from './send-signal.dto';

/**
 * Records the signal, then, once the read model has it (and so has decided, in log order, which waiting steps it
 * reaches), hands it to each. Should this stop in between, the signal deliveries consumer hands it on.
 */
@CommandHandler(SendSignalCommand)
export class SendSignalHandler implements ICommandHandler<SendSignalCommand, SignalView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly signals: SignalsReadModel,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(command: SendSignalCommand): Promise<SignalView> {
    const { name, key, data = null } = command;
    const bytes = Buffer.byteLength(JSON.stringify(data));
    if (bytes > MAX_SIGNAL_DATA_BYTES) {
      const message = `data must be at most ${MAX_SIGNAL_DATA_BYTES} bytes as JSON (${bytes})`;
      throw new ValidationFailed([{ path: 'data', message }]);
    }
    const id = this.ids.newId('signal');
    const retentionMs = this.config.workflows.signalRetentionMs;
    const sent = await this.actors.send(
      signalStream(id),
      signalDecider,
      { type: 'SendSignal', id, name, key, data, retentionMs },
      { correlationId: id, causationId: id, trace: traceOf(command) },
      { newStream: true },
    );
    await this.readYourWrites.waitFor(sent.position);
    const signal = sent.state!;
    const deliveries = this.signals.deliveriesOf(id);
    await deliverSignal(this.actors, this.ids, signal, deliveries);
    return { ...signal, delivered: deliveries.map(({ workflowRunId, step }) => ({ workflowRunId, step })) };
  }
}
