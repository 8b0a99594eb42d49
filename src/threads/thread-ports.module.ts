import { Global, Module } from '@nestjs/common';
import { ThreadTurns } from '../agents/thread-turns.port';
import { ThreadTurnChecks } from './thread-turn-checks';
import { ThreadsModule } from './threads.module';

/**
 * The threads feature's answers to the ports that the features below it declare (today the agents' ThreadTurns).
 * Those features cannot import this one, which imports them, so the answers are offered to every module.
 */
@Global()
@Module({
  imports: [ThreadsModule],
  providers: [{ provide: ThreadTurns, useClass: ThreadTurnChecks }],
  exports: [ThreadTurns],
})
export class ThreadPortsModule {}
