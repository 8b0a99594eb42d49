import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { DomainError } from '../../domain/decider';
import { RecordedEvent } from '../../event-store/event-store';
import { IdGenerator } from '../../shared/ids';
import { WorkflowsReadModel } from '../../workflows/queries/workflows.read-model';
import { isCounted } from '../../domain/run-slots';
import { WorkflowRunOpener, openingCommand } from '../../workflows/trigger-workflow/workflow-run-opener';
import { runsQueuedBy } from '../../workflows/trigger-workflow/workflow-triggers';
import { WorkflowRunReleased, workflowStream } from '../../workflows/workflow/workflow.events';
import { workflowDecider } from '../../workflows/workflow/workflow';
import { WORKFLOW_RUN_ENDINGS, workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import { workflowRunDecider } from '../../workflows/workflow-run/workflow-run';
import { WorkflowRunManager } from './workflow-run-manager';

const EVENT_TYPES = [...WORKFLOW_RUN_ENDINGS, 'WorkflowRunReleased'];

/**
 * The slots of workflows with an overlap policy or `maxConcurrentRuns` (see domain/run-slots.ts), over events:
 * a counted run's end is reported to its workflow (`ReleaseWorkflowRun`), whose decider admits the runs waiting
 * for the slot and may start a buffered tick; the runs `WorkflowRunReleased` admits are started. Everything is
 * decided by the workflow's actor from its stream, so any number of instances, and restarts, agree; handling an
 * event twice changes nothing.
 */
@Injectable()
export class WorkflowRunSlots extends ProcessManager {
  protected readonly name = 'workflow-run-slots';
  protected override readonly follows = { filter: { eventTypes: EVENT_TYPES } };

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly workflows: WorkflowsReadModel,
    private readonly manager: WorkflowRunManager,
    private readonly opener: WorkflowRunOpener,
  ) {
    super(deps, config.runs.executorEnabled);
  }

  protected override async handle(events: RecordedEvent[]): Promise<void> {
    for (const event of events) await this.handleOnce(event, () => this.handleNow(event));
  }

  private async handleNow(event: RecordedEvent): Promise<void> {
    if (event.type === 'WorkflowRunReleased') {
      const { workflowId, admitted } = event.data as WorkflowRunReleased['data'];
      for (const runId of admitted) await this.manager.start(runId, workflowId);
      return;
    }
    const runId = event.data.runId as string;
    const workflowId = await this.workflowOf(runId);
    if (!workflowId) return;
    const stream = workflowStream(workflowId);
    const workflow = await this.actors.of(stream, workflowDecider).read();
    if (!isCounted(workflow?.runs, runId)) return;
    const context = { correlationId: runId, causationId: runId };
    const command = { type: 'ReleaseWorkflowRun' as const, workflowId, runId, nextRunId: this.ids.newId('wfrun') };
    const { opened, events } = await this.actors
      .send(stream, workflowDecider, command, context, {
        opens: (decided) => runsQueuedBy(decided).map(openingCommand),
      })
      .catch(retryContention);
    // Where the store cannot write both streams in one commit, a buffered tick's run is opened after it.
    if (!opened) for (const run of runsQueuedBy(events)) await this.opener.open(run, context);
  }

  private async workflowOf(runId: string): Promise<string | undefined> {
    const listed = this.workflows.getRunAggregate(runId)?.workflowId;
    if (listed) return listed;
    return (await this.actors.of(workflowRunStream(runId), workflowRunDecider).read())?.workflowId;
  }
}

/**
 * A release never conflicts with the workflow's rules; a conflict is the stream being busy past the actor's attempts,
 * which must be tried again (persistently), not dropped, or the runs waiting for the slot would wait for ever.
 */
function retryContention(error: unknown): never {
  if (error instanceof DomainError && error.kind === 'conflict') throw new Error(error.message);
  throw error;
}
