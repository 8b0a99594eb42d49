import { Command } from '@nestjs/cqrs';
import { RunSource } from '../../domain/run';
import { RunTrigger } from '../workflow/workflow.state';
import { WorkflowRun } from '../workflow-run/workflow-run.state';

export class TriggerWorkflowCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly input: Record<string, unknown>,
    readonly trigger: RunTrigger = { type: 'manual' },
  ) {
    super();
  }

  /** The protocol session the run is asked for in (MCP), if not the HTTP API. */
  source?: RunSource;
}
