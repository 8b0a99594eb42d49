import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { AgentDirectory } from '../../agents/agent-directory.port';
import { DomainError } from '../../domain/decider';
import { ChangedMeanwhile, changedFields, checkIfMatch } from '../../domain/definition';
import { checkInputSchema } from '../create-workflow/input-schema-check';
import { checkStepAgents } from '../create-workflow/step-agents';
import { workflowDecider } from '../workflow/workflow';
import { workflowStream } from '../workflow/workflow.events';
import { WorkflowChanges } from '../workflow-changes';
import { WorkflowView } from '../workflow-view';
import { UpdateWorkflowCommand } from './update-workflow.command';
import { mergeWorkflowPatch, workflowDefinition } from './update-workflow.dto';
import { traceOf } from '../../shared/trace-context';

const MAX_MERGES = 5;

/**
 * Merges the patch onto the workflow as it is, checks the result as a create would (new steps must name active
 * agents), and records what changed. A changed schedule is picked up by the scheduler from the read model.
 */
@CommandHandler(UpdateWorkflowCommand)
export class UpdateWorkflowHandler implements ICommandHandler<UpdateWorkflowCommand, WorkflowView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly workflows: WorkflowChanges,
    private readonly agents: AgentDirectory,
  ) {}

  async execute(command: UpdateWorkflowCommand): Promise<WorkflowView> {
    const { workflowId, patch, ifMatch } = command;
    for (let merge = 1; ; merge++) {
      const workflow = await this.actors.of(workflowStream(workflowId), workflowDecider).read();
      if (!workflow) throw new DomainError('not_found', `Workflow ${workflowId} does not exist`);
      checkIfMatch('Workflow', workflowId, workflow, { ifMatch });
      if (workflow.status === 'archived') throw new DomainError('conflict', `Workflow ${workflowId} is archived`);
      const next = mergeWorkflowPatch(workflow, patch);
      if ('steps' in patch) checkStepAgents(next.steps, this.agents);
      await checkInputSchema(next.inputSchema, next.steps, 'inputSchema' in patch);
      const changes = changedFields(workflowDefinition(workflow), next);
      try {
        return await this.workflows.change(
          {
            type: 'UpdateWorkflow',
            workflowId,
            changes,
            baseVersion: workflow.version,
            ifMatch,
          },
          traceOf(command),
        );
      } catch (error) {
        // Another request changed the workflow after it was read: merge onto the newer version.
        if (!(error instanceof ChangedMeanwhile) || merge >= MAX_MERGES) throw error;
      }
    }
  }
}
