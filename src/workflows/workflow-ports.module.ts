import { Global, Module } from '@nestjs/common';
import { WorkflowsUsingAgent } from '../agents/workflows-using-agent.port';
import { WorkflowsReadModel } from './queries/workflows.read-model';
import { WorkflowsModule } from './workflows.module';

/**
 * The workflows feature's answers to the ports that the features below it declare (today the agents'
 * WorkflowsUsingAgent). Those features cannot import this one, which imports them, so the answers are offered to
 * every module.
 */
@Global()
@Module({
  imports: [WorkflowsModule],
  providers: [{ provide: WorkflowsUsingAgent, useExisting: WorkflowsReadModel }],
  exports: [WorkflowsUsingAgent],
})
export class WorkflowPortsModule {}
