import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { DomainError } from '../../domain/decider';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { Clock } from '../../shared/clock';
import { IdGenerator } from '../../shared/ids';
import { workflowDecider, workflowStream } from '../workflow';
import { WorkflowView, workflowView } from '../workflow-view';
import { CreateWorkflowCommand } from './create-workflow.command';

@CommandHandler(CreateWorkflowCommand)
export class CreateWorkflowHandler implements ICommandHandler<CreateWorkflowCommand, WorkflowView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly projections: ProjectionRunner,
    private readonly agents: AgentsReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ name, trigger, steps }: CreateWorkflowCommand): Promise<WorkflowView> {
    const unknownAgents = steps.flatMap((step, i) =>
      this.agents.hasAgentNamed(step.agent)
        ? []
        : [{ path: `steps[${i}].agent`, message: `no agent is named "${step.agent}"` }],
    );
    if (unknownAgents.length)
      throw new DomainError('unprocessable', 'Every step must name an existing agent', unknownAgents);

    const id = this.ids.newId('wf');
    const created = await this.actors.send(
      workflowStream(id),
      workflowDecider,
      { type: 'CreateWorkflow', id, name, trigger, steps },
      { correlationId: id, causationId: id },
      { newStream: true },
    );
    await this.projections.waitFor(created.position);
    return workflowView(created.state!, this.clock.now());
  }
}
