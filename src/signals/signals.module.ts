import { Module } from '@nestjs/common';
import { SignalsProjection } from './queries/signals.projection';
import { SignalsReadModel } from './queries/signals.read-model';
import { SendSignalHandler } from './send-signal/send-signal.handler';
import { SignalsController } from './send-signal/signals.controller';

/** Signals: what happened outside, sent to the workflow runs whose wait steps wait for it (docs/api.md). */
@Module({
  controllers: [SignalsController],
  providers: [SendSignalHandler, SignalsReadModel, SignalsProjection],
  exports: [SignalsReadModel],
})
export class SignalsModule {}
