import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { AgentDirectory } from '../../agents/agent-directory.port';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { IdGenerator } from '../../shared/ids';
import { workflowDecider } from '../workflow/workflow';
import { workflowStream } from '../workflow/workflow.events';
import { WorkflowView, workflowView } from '../workflow-view';
import { CreateWorkflowCommand } from './create-workflow.command';
import { checkStepAgents } from './step-agents';
import { traceOf } from '../../shared/trace-context';

@CommandHandler(CreateWorkflowCommand)
export class CreateWorkflowHandler implements ICommandHandler<CreateWorkflowCommand, WorkflowView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly agents: AgentDirectory,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateWorkflowCommand): Promise<WorkflowView> {
    const { name, trigger, steps, options } = command;
    checkStepAgents(steps, this.agents);

    const id = this.ids.newId('wf');
    const created = await this.actors.send(
      workflowStream(id),
      workflowDecider,
      { type: 'CreateWorkflow', id, name, trigger, steps, ...options },
      { correlationId: id, causationId: id, trace: traceOf(command) },
      { newStream: true },
    );
    await this.readYourWrites.waitFor(created.position);
    return workflowView(created.state!, this.clock.now(), null);
  }
}
